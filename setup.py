"""The compiled parts of arbitro (everything else is in pyproject.toml).

- ``_helpmate.c``: the best-first cooperative search for a mate (the one of ``search.py``,
  move for move);
- the static analysis and the dive (``static.py``, ``dive.py``) compiled by mypyc as they are
  written: the same code, about twice as fast.

Both are optional: without a C compiler the package installs anyway and runs them in Python.
``ARBITRO_PURE=1`` leaves them out on purpose.
"""

import os
import sys

from setuptools import Extension, setup

ext_modules = []
if not os.environ.get("ARBITRO_PURE"):
    ext_modules.append(
        Extension(
            "arbitro.adjudication._helpmate",
            ["src/arbitro/adjudication/_helpmate.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    )
    try:
        from mypyc.build import mypycify

        compiled = mypycify(
            ["src/arbitro/adjudication/static.py", "src/arbitro/adjudication/dive.py"],
            opt_level="3",
        )
    except (Exception, SystemExit) as error:  # mypyc refused: the modules run as Python
        print(f"arbitro: static.py and dive.py stay Python ({error!r})", file=sys.stderr)
        compiled = []
    for extension in compiled:
        extension.optional = True
        ext_modules.append(extension)

setup(ext_modules=ext_modules)
