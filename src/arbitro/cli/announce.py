"""``arbitro announce``: a game as it is spoken to blind players (Appendix F), and back."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from typing import Any

import chess

from arbitro.notation.algebraic import format as write_move
from arbitro.notation.movetext import read_movetext
from arbitro.notation.spoken import STYLES, announce, hear

#: espeak-ng voices for each style.
VOICES = {"fide": "de", "es": "es", "en": "en"}


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "announce",
        help="speak a game as Appendix F has it (or read spoken moves back)",
        description=(
            "Print one announcement per move of MOVETEXT (in --lang, English by default; '-' "
            "reads standard input): 'Springer Felix drei', 'Caballo Félix tres', 'Knight "
            "Felix three'. With --parse, read spoken moves (one per line, or separated by ';' "
            "or ',') and print the movetext in --lang. --audio renders the announcements to a "
            "WAV file with espeak-ng (Debian package espeak-ng)."
        ),
    )
    parser.add_argument("movetext", metavar="MOVETEXT", help="the moves, or '-'")
    parser.add_argument(
        "--style",
        choices=sorted(STYLES),
        default=None,
        help="fide (default for announcing), es or en; --parse reads any style by default",
    )
    parser.add_argument(
        "--lang", dest="notation_lang", default="en", metavar="LANG", help="notation language"
    )
    parser.add_argument("--parse", action="store_true", help="read spoken words into moves")
    parser.add_argument("--audio", metavar="FILE.wav", help="also speak into a WAV file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.movetext == "-" else args.movetext
    lines = _parse(text, args) if args.parse else _announce(text, args)
    if lines is None:
        return 2
    print("\n".join(lines))
    if args.audio:
        return _audio(lines, args)
    return 0


def _announce(text: str, args: argparse.Namespace) -> list[str]:
    board = chess.Board()
    lines = []
    for move in read_movetext(text, args.notation_lang).moves:
        number = f"{board.fullmove_number}{'.' if board.turn else '...'}"
        lines.append(f"{number} {announce(move, board, args.style or 'fide')}")
        board.push(move)
    return lines


def _parse(text: str, args: argparse.Namespace) -> list[str] | None:
    board = chess.Board()
    written = []
    for phrase in re.split(r"[;\n]|,(?!\s*(?:jaque|check|schach|matt))", text, flags=re.I):
        words = re.sub(r"^\s*\d+\s*\.+\s*", "", phrase).strip()
        if not words:
            continue
        move = hear(words, board, args.style)
        number = f"{board.fullmove_number}." if board.turn else ""
        written.append(
            f"{number}{' ' if number else ''}{write_move(move, board, args.notation_lang)}"
        )
        board.push(move)
    return [" ".join(written)]


def _audio(lines: list[str], args: argparse.Namespace) -> int:
    program = shutil.which("espeak-ng")
    if program is None:
        print(
            "arbitro: --audio needs espeak-ng (Debian: apt-get install espeak-ng); "
            "the announcements are printed above",
            file=sys.stderr,
        )
        return 2
    speech = ". ".join(line.split(" ", 1)[-1] for line in lines)
    result = subprocess.run(
        [program, "-v", VOICES[args.style or "fide"], "-s", "140", "-w", args.audio, speech],
        check=False,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        print(f"arbitro: espeak-ng failed: {result.stderr.strip()}", file=sys.stderr)
        return 2
    return 0
