"""``arbitro reconcile``: two boards of a game with a blind player differ (Appendix F2.7, F2.8)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arbitro.notation.letters import NotationError
from arbitro.notation.reconcile import reconcile


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "reconcile",
        help="correct two boards that differ from both scoresheets (blind players, F2.7-F2.8)",
        description=(
            "The positions on the two boards of a game with a visually impaired player differ: "
            "decide from both scoresheets what is set up (2001 Laws, Appendix F, F2.7 and "
            "F2.8). If the scoresheets agree, the board that differs from them is adjusted; if "
            "they differ, the moves are taken back to the last point where both agree and the "
            "arbiter adjusts the clocks. Every MOVETEXT starts from the initial position, in "
            "--lang notation; a scoresheet not given is taken to be that player's board. "
            "Prints the decision and its article, the reason, the position to set up (FEN) and "
            "the agreed moves; an entry that cannot be read exits with status 2."
        ),
    )
    parser.add_argument("--board-a", required=True, metavar="MOVETEXT", help="moves on board A")
    parser.add_argument("--board-b", required=True, metavar="MOVETEXT", help="moves on board B")
    parser.add_argument("--sheet-a", default=None, metavar="MOVETEXT", help="scoresheet A")
    parser.add_argument("--sheet-b", default=None, metavar="MOVETEXT", help="scoresheet B")
    parser.add_argument(
        "--lang", dest="notation_lang", default="en", metavar="LANG", help="default: en"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    lang = getattr(args, "lang", None) or "en"
    try:
        decision = reconcile(
            args.board_a, args.board_b, args.sheet_a, args.sheet_b, lang=args.notation_lang
        )
    except NotationError as error:
        print(f"arbitro: {error.message(lang)}", file=sys.stderr)
        return 2
    print(f"{decision.kind} ({decision.article}): {decision.explain(lang)}")
    print(f"fen: {decision.fen}")
    print(f"moves: {decision.moves}")
    print(f"to move: {decision.to_move}")
    return 0
