"""Notation round trips over the game corpus: every game, every language, both styles.

Run: ``.venv/bin/python benchmarks/notation.py [--games N] [--languages es,de] [--styles fide]
[--jobs N]``

Reads every game of ``../shared/data/pgn/`` (or the first ``--games`` of each file), then, for
each language and style, writes the games in that language (``translate`` from English) and
reads them back; the moves must be the same. Prints, in the same run:

- baseline: python-chess reading and writing the same English SAN (``parse_san`` + ``san``);
- arbitro reading English, and for each language and style: translating (read English + write)
  and reading back, in plies per second per process, with the number of games whose moves
  differ after the round trip (must be 0) and of games that could not be read.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import chess
from rich.progress import Progress

from arbitro.errors import ArbitroError
from arbitro.notation.letters import LANGUAGES
from arbitro.notation.movetext import scores, split_games, translate

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "pgn"
CHUNK = 200


def load(limit: int | None) -> list[str]:
    if not DATA.is_dir():
        sys.exit(f"game corpus not found: {DATA}")
    games: list[str] = []
    for path in sorted(DATA.glob("*.pgn")):
        found = split_games(path.read_text(encoding="utf-8"))
        for game in found[:limit]:
            games.append("\n".join(game.tags) + "\n\n" + game.movetext)
    return games


def baseline(chunk: list[str]) -> tuple[int, float]:
    """python-chess reading and writing the mainline SAN of each game: (plies, seconds)."""
    plies = 0
    began = time.perf_counter()
    for text in chunk:
        pgn = split_games(text)[0]
        board = pgn.start()
        for token in pgn.movetext.split():
            word = token.split(".")[-1]
            if not word or word[0] in "{}$(*" or word in ("1-0", "0-1", "1/2-1/2"):
                continue
            try:
                move = board.parse_san(word)
            except ValueError:
                continue  # comment words and the like: the baseline only times moves
            board.san(move)
            board.push(move)
            plies += 1
    return plies, time.perf_counter() - began


def round_trip(job: tuple[list[str], str, str]) -> tuple[int, float, float, int, int]:
    """(plies, seconds translating, seconds reading back, games changed, games unreadable)."""
    chunk, lang, style = job
    plies = changed = unreadable = 0
    writing = reading = 0.0
    for text in chunk:
        try:
            original = scores(text)[0].moves
            began = time.perf_counter()
            there = translate(text, "en", lang, style)  # type: ignore[arg-type]
            middle = time.perf_counter()
            back = scores(there, lang)[0].moves
            reading += time.perf_counter() - middle
            writing += middle - began
        except ArbitroError:
            unreadable += 1
            continue
        plies += len(original)
        changed += back != original
    return plies, writing, reading, changed, unreadable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="first N games of each file")
    parser.add_argument("--languages", default=",".join(LANGUAGES), help="comma-separated")
    parser.add_argument("--styles", default="pgn,fide", help="pgn, fide or both")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    languages = [code.strip() for code in args.languages.split(",") if code.strip()]
    styles = [style.strip() for style in args.styles.split(",") if style.strip()]
    games = load(args.games)
    chunks = [games[i : i + CHUNK] for i in range(0, len(games), CHUNK)]
    print(
        f"{len(games)} games, {len(languages)} languages, styles {', '.join(styles)}, "
        f"{args.jobs} processes"
    )

    plies = 0
    seconds = 0.0
    for chunk in chunks:
        count, spent = baseline(chunk)
        plies += count
        seconds += spent
    base_rate = plies / seconds
    print(f"baseline python-chess parse_san + san: {base_rate:,.0f} plies/s ({plies:,} plies)")
    print(
        f"{'language':<10}{'style':<6}{'plies':>11}{'write/s':>10}{'read/s':>10}"
        f"{'vs base':>9}{'changed':>9}{'unread':>8}"
    )
    total_changed = 0
    with ProcessPoolExecutor(args.jobs) as pool, Progress(transient=True) as progress:
        for lang in languages:
            for style in styles:
                task = progress.add_task(f"{lang} {style}", total=len(chunks))
                plies = changed = unreadable = 0
                writing = reading = 0.0
                jobs = [(chunk, lang, style) for chunk in chunks]
                for result in pool.map(round_trip, jobs):
                    plies += result[0]
                    writing += result[1]
                    reading += result[2]
                    changed += result[3]
                    unreadable += result[4]
                    progress.advance(task)
                progress.remove_task(task)
                total_changed += changed
                read_rate = plies / reading if reading else 0.0
                progress.console.print(
                    f"{lang:<10}{style:<6}{plies:>11,}{plies / writing:>10,.0f}"
                    f"{read_rate:>10,.0f}{read_rate / base_rate:>9.2f}{changed:>9}"
                    f"{unreadable:>8}"
                )
    print("round trips that changed a game:", total_changed)
    if total_changed:
        sys.exit(1)


if __name__ == "__main__":
    chess.Board()  # fail early if python-chess is missing
    main()
