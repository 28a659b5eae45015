"""Replay the corpus of real games through the Laws engine, against python-chess's own replay.

Run: ``.venv/bin/python benchmarks/game.py [--limit N] [--repeat K] [FILE ...]``
(default: every ``.pgn`` file in ``../shared/data/pgn/``).

Two figures, measured in the same run over the same games:

- baseline: python-chess ``chess.pgn.read_game`` and a push of every mainline move onto a fresh
  board (what a program that "just replays PGN" does);
- arbitro: the same files read through :func:`arbitro.notation.pgn.read_mainline` and each game
  replayed through :class:`arbitro.game.Game` — every move checked for legality, the clock
  pressed at the times the ``[%clk]`` comments give, and after every move the automatic ends
  (checkmate, stalemate, dead position, fivefold repetition, 75 moves) and the repetition table.

Games in other variants (Chess960) are skipped by both. The ratio arbitro/baseline is the
figure to watch (goal: at least 0.7).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import chess
import chess.pgn

from arbitro.notation.pgn import iter_mainlines, replay

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "pgn"


def load(paths: list[Path]) -> str:
    return "".join(path.read_text(encoding="utf-8", errors="replace") for path in paths)


def standard(headers: chess.pgn.Headers | dict[str, str]) -> bool:
    return headers.get("Variant", "Standard").lower() in ("standard", "")


def baseline(text: str, limit: int | None) -> tuple[int, int, float]:
    handle = io.StringIO(text)
    games = plies = 0
    start = time.perf_counter()
    while limit is None or games < limit:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        if not standard(game.headers):
            continue
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
        games += 1
    return games, plies, time.perf_counter() - start


def arbitro(text: str, limit: int | None) -> tuple[int, int, float, Counter[str]]:
    handle = io.StringIO(text)
    games = plies = 0
    stops: Counter[str] = Counter()
    start = time.perf_counter()
    for record in iter_mainlines(handle):
        if limit is not None and games >= limit:
            break
        if not standard(record.headers):
            continue
        result = replay(record)
        plies += len(result.game.plies)
        if result.error is not None:
            stops[result.error.code] += 1
        games += 1
    return games, plies, time.perf_counter() - start, stops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="games per run (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure (median)")
    args = parser.parse_args()
    files = args.files or sorted(CORPUS.glob("*.pgn"))
    if not files:
        sys.exit(f"no PGN files: put the corpus in {CORPUS} or name files")
    text = load(files)
    print(f"{len(files)} files, {len(text) / 1e6:.1f} MB; median of {args.repeat} run(s)")
    base_rates, ours_rates = [], []
    stops: Counter[str] = Counter()
    for _ in range(args.repeat):
        games, plies, seconds = baseline(text, args.limit)
        base_rates.append(games / seconds)
        ours_games, ours_plies, ours_seconds, stops = arbitro(text, args.limit)
        ours_rates.append(ours_games / ours_seconds)
    base, ours = statistics.median(base_rates), statistics.median(ours_rates)
    print(f"{'replay':<44}{'games':>8}{'half-moves':>12}{'games/s':>10}{'ratio':>8}")
    label = "baseline: python-chess read_game + push"
    print(f"{label:<44}{games:>8}{plies:>12}{base:>10,.0f}{1:>8.2f}")
    print(
        f"{'arbitro: Game (legality, clocks, ends)':<44}{ours_games:>8}{ours_plies:>12}"
        f"{ours:>10,.0f}{ours / base:>8.2f}"
    )
    if stops:
        print("games the engine stopped (the rest of their moves refused):")
        for code, count in stops.most_common():
            print(f"  {code}: {count}")


if __name__ == "__main__":
    main()
