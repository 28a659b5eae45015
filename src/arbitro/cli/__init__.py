"""The ``arbitro`` command line: one subcommand per job, each in its own module."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from arbitro import __version__
from arbitro.cli import (
    announce,
    audit,
    canmate,
    clock,
    editions,
    notation,
    reconcile,
    scenario,
    serve,
    timecontrol,
)
from arbitro.errors import ArbitroError
from arbitro.i18n import language_from_environment

#: Exit status for bad input (a time control that cannot be read, a missing terminal, ...).
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arbitro",
        description="The FIDE Laws of Chess as working software.",
        epilog="Run 'arbitro COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"arbitro {__version__}")
    parser.add_argument(
        "--lang",
        default=None,
        help="language of messages: en or es (default: from LANG)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    clock.register(commands)
    timecontrol.register(commands)
    scenario.register(commands)
    editions.register(commands)
    canmate.register(commands)
    notation.register(commands)
    audit.register(commands)
    serve.register(commands)
    announce.register(commands)
    reconcile.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.lang is None:
        args.lang = language_from_environment()
    try:
        status: int = args.run(args)
    except ArbitroError as error:
        print(f"arbitro: {error.full_message(args.lang)}", file=sys.stderr)
        return EXIT_USAGE
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
