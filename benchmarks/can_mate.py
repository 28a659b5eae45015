"""Who can still checkmate: speed and reach over the reference positions.

Run: ``.venv/bin/python benchmarks/can_mate.py [--limit N] [--skip-full]``

Reads ``../shared/data/unwinnability/positions.tsv`` (both sides of every position) and prints,
in the same run:

- baseline: python-chess ``has_insufficient_material`` (material only);
- arbitro quick mode (static analysis: proves "cannot mate" only);
- arbitro full mode (static analysis, then a cooperative search for a mate).

For each: positions per second (both sides of a position), that speed as a fraction of the
material rule's in the same run (the machine's load moves both alike), how many "cannot mate"
cases it proves, how many questions it leaves unanswered, and how many answers are wrong (must
be 0). Full mode also prints the median and the worst time per position.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chess

from arbitro.adjudication import DEFAULT_LIMIT, can_checkmate

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "unwinnability"


def load() -> list[tuple[chess.Board, bool, bool]]:
    path = DATA / "positions.tsv"
    if not path.is_file():
        sys.exit(f"reference positions not found: {path}")
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [
        (
            chess.Board(row["fen"] + " 0 1"),
            row["white_can_mate"] == "yes",
            row["black_can_mate"] == "yes",
        )
        for row in rows
    ]


Answer = Callable[[chess.Board, chess.Color], str]


def measure(
    name: str, positions: list[tuple[chess.Board, bool, bool]], answer: Answer, base: float = 0
) -> float:
    """Print one line of the table; return the positions per second."""
    proved = unknown = wrong = 0
    per_position = []
    start = time.perf_counter()
    for board, white, black in positions:
        began = time.perf_counter()
        for color, truth in ((chess.WHITE, white), (chess.BLACK, black)):
            result = answer(board, color)
            if result == "no":
                proved += 1
            elif result == "unknown":
                unknown += 1
            if (result == "no" and truth) or (result == "yes" and not truth):
                wrong += 1
        per_position.append(time.perf_counter() - began)
    elapsed = time.perf_counter() - start
    rate = len(positions) / elapsed
    median = statistics.median(per_position) * 1000
    worst = max(per_position) * 1000
    share = f"1/{base / rate:,.0f}" if base else "1"
    print(
        f"{name:<34}{rate:>12,.0f}{share:>10}{proved:>10}{unknown:>10}{wrong:>8}"
        f"{median:>11.3f}{worst:>11.1f}"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help="full-mode node limit")
    parser.add_argument("--skip-full", action="store_true", help="measure quick mode only")
    args = parser.parse_args()
    positions = load()
    questions = 2 * len(positions)
    cannot = sum((not w) + (not b) for _, w, b in positions)
    print(f"{len(positions)} positions, {questions} side-questions, {cannot} 'cannot mate'")
    print(
        f"{'analysis':<34}{'positions/s':>12}{'share':>10}{'proved no':>10}{'unknown':>10}"
        f"{'wrong':>8}{'median ms':>11}{'worst ms':>11}"
    )
    base = measure(
        "baseline: python-chess material",
        positions,
        lambda board, color: "no" if board.has_insufficient_material(color) else "unknown",
    )
    measure(
        "arbitro quick (static)",
        positions,
        lambda board, color: can_checkmate(board, color, "quick").answer,
        base,
    )
    if not args.skip_full:
        measure(
            f"arbitro full (limit {args.limit})",
            positions,
            lambda board, color: can_checkmate(board, color, "full", args.limit).answer,
            base,
        )


if __name__ == "__main__":
    main()
