"""Who can still checkmate: speed and reach over the reference positions.

Run: ``.venv/bin/python benchmarks/can_mate.py [--limit N] [--skip-full] [--compare-limit N]``

Reads ``../shared/data/unwinnability/positions.tsv`` (both sides of every position) and prints,
in the same run:

- baseline: python-chess ``has_insufficient_material`` (material only);
- arbitro quick mode (static analysis: proves "cannot mate" only);
- arbitro full mode (static analysis, then a cooperative search for a mate);
- the compiled best-first search against the same search in Python (its baseline), on the
  questions of every tenth position that reach the search, with the same node limit: both
  must give the same answers and node counts.

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

from arbitro.adjudication import DEFAULT_LIMIT, can_checkmate, search
from arbitro.adjudication.static import prove_cannot_mate

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


def searches(positions: list[tuple[chess.Board, bool, bool]], limit: int) -> None:
    """Time the compiled search against the Python one on the same questions."""
    if not search.COMPILED:
        print("the compiled search was not built: nothing to compare")
        return
    questions = [
        (board, color)
        for board, _, _ in positions[::10]
        for color in chess.COLORS
        if prove_cannot_mate(board, color) is None
        and not board.is_checkmate()
        and not board.is_insufficient_material()
        and board.occupied_co[color] & ~board.kings
    ]
    timings = []
    results = []
    for runner in (search._Search.run, search._Search.run_compiled):
        start = time.perf_counter()
        found = []
        for board, color in questions:
            searcher = search._Search(color, limit)
            line, exhausted = runner(searcher, board.copy(stack=False))
            found.append((line, exhausted, searcher.nodes))
        timings.append(time.perf_counter() - start)
        results.append(found)
    same = sum(a == b for a, b in zip(*results, strict=True))
    python, compiled = timings
    print(
        f"best-first search, {len(questions)} questions, limit {limit:,}: Python {python:.1f} s,"
        f" compiled {compiled:.2f} s ({python / compiled:.0f} times as fast);"
        f" the same answer and node count on {same} of {len(questions)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help="full-mode node limit")
    parser.add_argument("--skip-full", action="store_true", help="measure quick mode only")
    parser.add_argument(
        "--compare-limit",
        type=int,
        default=20_000,
        help="node limit for the compiled-against-Python comparison (0: skip it)",
    )
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
    if args.compare_limit:
        searches(positions, args.compare_limit)


if __name__ == "__main__":
    main()
