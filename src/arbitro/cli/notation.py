"""``arbitro notation``: translate game scores between languages, and check one entry."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import chess

from arbitro.errors import ArbitroError
from arbitro.notation.algebraic import format, read
from arbitro.notation.letters import LANGUAGES
from arbitro.notation.movetext import read_movetext, translate

_LANGS = ", ".join(LANGUAGES)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "notation",
        help="algebraic notation in every language: translate scores, check an entry",
        description="Read and write algebraic notation (Appendix E) in every language.",
    )
    sub = parser.add_subparsers(dest="notation_command", metavar="ACTION", required=True)

    tr = sub.add_parser(
        "translate",
        help="write a game score (movetext or PGN) in another language",
        description=(
            "Read movetext or PGN in one language and write the same game in another: PGN in, "
            "PGN out (tags, comments, clocks and variations kept). An entry that cannot be "
            "read stops the run with exit status 2 and a message naming the move number, the "
            f"entry and why. Languages: {_LANGS}."
        ),
    )
    tr.add_argument("file", nargs="?", default="-", metavar="FILE|-")
    tr.add_argument("--from", dest="source", default="en", metavar="LANG", help="default: en")
    tr.add_argument("--to", dest="target", required=True, metavar="LANG")
    tr.add_argument(
        "--style",
        choices=("pgn", "fide"),
        default="pgn",
        help="pgn: O-O, e8=Q, # (default); fide: 0-0, e8D, ++, a.p./ep",
    )
    tr.add_argument("--figurine", action="store_true", help="figurines instead of letters")
    tr.add_argument("--long", action="store_true", help="long algebraic (Ng1-f3)")
    tr.set_defaults(run=run_translate)

    ck = sub.add_parser(
        "check",
        help="what does one written move mean? (the sealed-move ruling of A8)",
        description=(
            "Print 'ok UCI SAN', 'ambiguous UCI UCI...', 'illegal REASON' or "
            "'unreadable REASON' for ENTRY in the position given by --fen and --moves; the exit "
            "status is 0 only for ok. Lenient by default (corrections are listed after ok); "
            "--strict accepts only what Appendix E writes."
        ),
    )
    ck.add_argument("entry", metavar="ENTRY")
    ck.add_argument(
        "--lang", dest="notation_lang", default="en", metavar="LANG", help="default: en"
    )
    ck.add_argument("--fen", default=None, help="the position (default: the initial one)")
    ck.add_argument("--moves", default="", metavar="MOVETEXT", help="moves played from --fen")
    ck.add_argument("--strict", action="store_true", help="Appendix E only")
    ck.set_defaults(run=run_check)


def _read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    with open(name, encoding="utf-8-sig") as handle:
        return handle.read()


def run_translate(args: argparse.Namespace) -> int:
    try:
        text = _read_input(args.file)
    except OSError as error:
        print(f"arbitro: {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    out = translate(
        text, args.source, args.target, args.style, figurines=args.figurine, long=args.long
    )
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    return 0


def run_check(args: argparse.Namespace) -> int:
    lang = args.notation_lang
    try:
        board = chess.Board(args.fen) if args.fen else chess.Board()
    except ValueError as error:
        print(f"arbitro: --fen: {error}", file=sys.stderr)
        return 2
    if args.moves.strip():
        try:
            board = read_movetext(args.moves, lang, board=board).board()
        except ArbitroError as error:
            print(f"arbitro: --moves: {error.message(args.lang)}", file=sys.stderr)
            return 2
    reading = read(args.entry, board, lang, lenient=not args.strict)
    if reading.status == "ok":
        assert reading.move is not None
        line = f"ok {reading.move.uci()} {format(reading.move, board, lang)}"
        if reading.corrections:
            line += "\t" + reading.explain(args.lang)
        print(line)
        return 0
    if reading.status == "ambiguous":
        print("ambiguous " + " ".join(m.uci() for m in reading.candidates))
        print(reading.explain(args.lang), file=sys.stderr)
        return 1
    print(f"{reading.status} {reading.explain(args.lang)}")
    return 1
