"""``arbitro editions``: the editions of the Laws arbitro knows, and what differs between them."""

from __future__ import annotations

import argparse
import datetime
from typing import Any

from rich.console import Console
from rich.table import Table

from arbitro.editions import Edition
from arbitro.editions.docs import render_markdown


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "editions",
        help="list the editions of the Laws, or print the table of differences",
        description="List the editions; --markdown prints docs/editions.md; --date picks the "
        "edition in force on a date (YYYY-MM-DD).",
    )
    parser.add_argument("--markdown", action="store_true", help="print the differences table")
    parser.add_argument("--date", help="the edition in force on this date (YYYY-MM-DD)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.markdown:
        print(render_markdown(), end="")
        return 0
    if args.date:
        try:
            date = datetime.date.fromisoformat(args.date)
        except ValueError:
            print(f"arbitro: not a date (YYYY-MM-DD): {args.date!r}")
            return 2
        print(Edition.for_date(date).id)
        return 0
    table = Table("id", "name", "in force", "appendices")
    for edition in Edition.all():
        table.add_row(edition.id, edition.name, edition.in_force.isoformat(), edition.appendices)
    Console().print(table)
    return 0
