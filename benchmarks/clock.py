"""How many clock presses per second the pure clock model sustains.

Run: ``make bench`` or ``.venv/bin/python benchmarks/clock.py [--presses N] [--repeat K]``.

Each figure is the median of K runs of N presses (both sides alternating, 1.5 s a move), for
each clock mode. The baseline, measured in the same run, is the least a clock in Python can
cost: a mutable two-integer Fischer clock with no validation, no periods, no flags and no
immutability. The ratio says what the model's guarantees cost against that floor.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from arbitro.clock import WHITE, Clock
from arbitro.timecontrol import TimeControl

MODES = {
    "Fischer 3+2": "3+2",
    "periods 40/90, 30 + 30s": "40/90, 30 + 30s",
    "Bronstein 5 b3": "5 b3",
    "US delay 5 d3": "5 d3",
    "hourglass *180": "*180",
}


def bare_baseline(presses: int) -> float:
    """A minimal mutable Fischer clock: the floor for any Python clock."""
    times = [180_000, 180_000]
    side = 0
    last = 0
    start = time.perf_counter()
    for index in range(1, presses + 1):
        now = index * 1_500
        times[side] -= now - last
        times[side] += 2_000
        side ^= 1
        last = now
    return presses / (time.perf_counter() - start)


def arbitro_presses(control: TimeControl) -> Callable[[int], float]:
    def measure(presses: int) -> float:
        clock = Clock.new(control).start(0)
        start = time.perf_counter()
        for index in range(1, presses + 1):
            clock = clock.press(index * 1_500)
        return presses / (time.perf_counter() - start)

    return measure


def arbitro_queries(presses: int) -> float:
    clock = Clock.new("3+2").start(0).press(1_000)
    start = time.perf_counter()
    for index in range(presses):
        clock.remaining(WHITE, 1_000 + index)
    return presses / (time.perf_counter() - start)


def median_rate(measure: Callable[[int], float], presses: int, repeat: int) -> float:
    return statistics.median(measure(presses) for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=100_000, help="presses per run")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (median)")
    args = parser.parse_args()
    baseline = median_rate(bare_baseline, args.presses, args.repeat)
    print(f"{args.presses:,} presses per run, median of {args.repeat} runs")
    print(f"{'clock':<28}{'presses/s':>14}{'vs baseline':>14}")
    print(f"{'baseline: bare mutable clock':<28}{baseline:>14,.0f}{1:>14.3f}")
    for name, text in MODES.items():
        rate = median_rate(arbitro_presses(TimeControl.parse(text)), args.presses, args.repeat)
        print(f"{name:<28}{rate:>14,.0f}{rate / baseline:>14.3f}")
    rate = median_rate(arbitro_queries, args.presses, args.repeat)
    print(f"{'remaining() queries':<28}{rate:>14,.0f}{rate / baseline:>14.3f}")


if __name__ == "__main__":
    main()
