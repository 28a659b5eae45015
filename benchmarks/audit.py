"""The audit of the game corpus, against python-chess and pgn-extract on the same games.

Run: ``.venv/bin/python benchmarks/audit.py [--games N] [--jobs N] [FILE ...]``
(default: every ``.pgn`` file of ``../shared/data/pgn/``; ``--games`` keeps the first N games of
each file).

Measured in one run over the same games, as games per second:

- baseline: python-chess ``chess.pgn.read_game`` and a push of every mainline move;
- the obvious way: the same, calling ``can_claim_threefold_repetition()``,
  ``can_claim_fifty_moves()`` and ``is_insufficient_material()`` after every move;
- ``pgn-extract -r`` (it reads the games and reports errors), when it is installed;
- arbitro's audit with one process, and with ``--jobs`` processes (default: all cores).

Goals: one process at least 0.7x the baseline and 5x the obvious way; all cores (2) at least
1.8x one process. The counts of findings per code are printed too.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

from arbitro.audit.runner import iter_games, run

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "pgn"


def python_chess(paths: list[Path], obvious: bool) -> int:
    games = 0
    for path in paths:
        with path.open(encoding="utf-8", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                games += 1
                board = game.board()
                for move in game.mainline_moves():
                    board.push(move)
                    if obvious:
                        board.can_claim_threefold_repetition()
                        board.can_claim_fifty_moves()
                        board.is_insufficient_material()
    return games


def pgn_extract(paths: list[Path]) -> int | None:
    program = shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games")
    if program is None:
        return None
    subprocess.run(
        [program, "-r", *map(str, paths)],
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return 0


def timed(work: Callable[[], object]) -> tuple[object, float]:
    began = time.perf_counter()
    result = work()
    return result, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--games", type=int, default=None, help="first N games of each file")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-obvious", action="store_true", help="skip the slow obvious way")
    args = parser.parse_args()
    paths = args.files or sorted(CORPUS.glob("*.pgn"))
    if not paths:
        sys.exit(f"no PGN files (looked in {CORPUS})")
    with tempfile.TemporaryDirectory() as tmp:
        if args.games is not None:
            cut = []
            for path in paths:
                with path.open(encoding="utf-8", errors="replace") as handle:
                    texts = []
                    for text in iter_games(handle):
                        texts.append(text)
                        if len(texts) == args.games:
                            break
                target = Path(tmp) / path.name
                target.write_text("".join(texts), encoding="utf-8")
                cut.append(target)
            paths = cut
        measure(paths, args.jobs, args.skip_obvious)


def measure(paths: list[Path], jobs: int, skip_obvious: bool) -> None:
    names = [str(p) for p in paths]
    games, base = timed(lambda: python_chess(paths, obvious=False))
    assert isinstance(games, int)
    print(f"{games:,} games in {len(paths)} files; {jobs} processes for the parallel audit")
    rows: list[tuple[str, float]] = [("baseline: python-chess read_game + push", base)]
    if not skip_obvious:
        _, obvious = timed(lambda: python_chess(paths, obvious=True))
        rows.append(("obvious way: python-chess + can_claim_* after each move", obvious))
    extracted, extract = timed(lambda: pgn_extract(paths))
    if extracted is not None:
        rows.append(("pgn-extract -r", extract))
    counts: Counter[str] = Counter()

    def audit(n: int) -> None:
        counts.clear()
        for finding in run(names, jobs=n):
            counts[finding.code] += 1

    _, one = timed(lambda: audit(1))
    rows.append(("arbitro audit, 1 process", one))
    _, many = timed(lambda: audit(jobs))
    rows.append((f"arbitro audit, {jobs} processes", many))
    print(f"{'':<58}{'seconds':>9}{'games/s':>10}{'audit(1) speed x':>18}")
    for name, seconds in rows:
        print(f"{name:<58}{seconds:>9.1f}{games / seconds:>10,.0f}{seconds / one:>18.2f}")
    print()
    print(f"audit(1) / baseline: {base / one:.2f} (goal >= 0.7)")
    if not skip_obvious:
        print(f"audit(1) / obvious way: {rows[1][1] / one:.2f} (goal >= 5)")
    print(f"audit({jobs}) / audit(1): {one / many:.2f} (goal >= 1.8 on 2 cores)")
    if extracted is not None:
        print(f"audit(1) / pgn-extract: {extract / one:.3f}")
    print("findings:", ", ".join(f"{code} {count:,}" for code, count in sorted(counts.items())))


if __name__ == "__main__":
    main()
