"""``python -m arbitro.cli``: the same as the ``arbitro`` command."""

import sys

from arbitro.cli import main

if __name__ == "__main__":
    sys.exit(main())
