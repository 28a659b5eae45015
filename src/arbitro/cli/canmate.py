"""``arbitro can-mate``: for each position, can White and can Black still checkmate?"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

import chess

from arbitro.adjudication import DEFAULT_LIMIT, can_checkmate


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "can-mate",
        help="can each side still checkmate? (dead positions, flag falls, blitz claims)",
        description=(
            "Read one FEN per line (4 or 6 fields) from FILE or standard input and print "
            "'FEN<TAB>white<TAB>black', each yes, no or unknown: can that side checkmate by some "
            "series of legal moves, the opponent cooperating? A line that is not a FEN prints "
            "'error<TAB>message'; the run goes on and exits with status 1."
        ),
    )
    parser.add_argument("file", nargs="?", default="-", metavar="FILE|-")
    parser.add_argument(
        "--mode",
        choices=("quick", "full"),
        default="full",
        help="quick: only prove 'cannot mate' (fast); full: also search for a mate (default)",
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        help=f"moves the search may generate per side (default {DEFAULT_LIMIT:,})",
    )
    parser.add_argument(
        "--explain", action="store_true", help="add the reason or the mating line for each side"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.limit < 1:
        print("arbitro: --limit must be at least 1", file=sys.stderr)
        return 2
    if args.file == "-":
        return analyse(sys.stdin, args)
    try:
        with open(args.file, encoding="utf-8") as handle:
            return analyse(handle, args)
    except OSError as error:
        print(f"arbitro: {args.file}: {error.strerror}", file=sys.stderr)
        return 2


def analyse(lines: TextIO, args: argparse.Namespace) -> int:
    status = 0
    for raw in lines:
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        fen = text.split("\t")[0].strip()
        fields = fen.split()
        if len(fields) == 4:
            fen += " 0 1"
        try:
            if len(fields) not in (4, 6):
                raise ValueError(f"expected 4 or 6 fields, got {len(fields)}")
            board = chess.Board(fen)
        except ValueError as error:
            print(f"error\t{fen}: {error}")
            status = 1
            continue
        verdicts = [
            can_checkmate(board, color, args.mode, args.limit)
            for color in (chess.WHITE, chess.BLACK)
        ]
        columns = [text.split("\t")[0].strip()]
        for verdict in verdicts:
            cell: str = verdict.answer
            if args.explain:
                cell += f" ({verdict.explain()})"
            columns.append(cell)
        print("\t".join(columns))
    return status
