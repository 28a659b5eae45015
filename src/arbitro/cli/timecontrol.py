"""``arbitro timecontrol``: read a time control and say what it is under each edition."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from arbitro.gamekind import THRESHOLDS
from arbitro.i18n import N_, gettext
from arbitro.timecontrol import TimeControl


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "timecontrol",
        help="read a time control: its PGN tag, a description, and the kind of game per edition",
        description=(
            "Read a time control as people write it ('3+2', '40/90, 30 + 30s', 'G/5;d3') or, "
            "with --pgn, as a PGN TimeControl tag (all numbers in seconds: '180+2')."
        ),
    )
    parser.add_argument("text", metavar="TIME_CONTROL")
    parser.add_argument("--pgn", action="store_true", help="read TIME_CONTROL as a PGN tag")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def read(text: str, pgn: bool) -> TimeControl:
    return TimeControl.from_pgn(text) if pgn else TimeControl.parse(text)


def run(args: argparse.Namespace) -> int:
    control = read(args.text, args.pgn)
    lang: str = args.lang
    kinds = (
        {edition: control.kind(edition).value for edition in THRESHOLDS}
        if (control.is_known)
        else {}
    )
    t_minutes = control.time_for_moves(60) / 60_000 if control.is_timed else None
    if args.json:
        print(
            json.dumps(
                {
                    "input": args.text,
                    "pgn": control.to_pgn(),
                    "text": control.text(),
                    "description": control.describe(lang),
                    "t_minutes": t_minutes,
                    "kind": kinds,
                },
                ensure_ascii=False,
            )
        )
        return 0
    console = Console()
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row(gettext(N_("time control"), lang), args.text)
    table.add_row(gettext(N_("PGN tag"), lang), control.to_pgn() or gettext(N_("(none)"), lang))
    table.add_row(gettext(N_("description"), lang), control.describe(lang))
    if t_minutes is not None:
        table.add_row(gettext(N_("T (60 moves)"), lang), f"{t_minutes:g} min")
    for edition, kind in kinds.items():
        table.add_row(edition, gettext(kind, lang))
    console.print(table)
    return 0


# The kind names, for the catalogs.
_KINDS = (N_("standard"), N_("rapid"), N_("blitz"))
