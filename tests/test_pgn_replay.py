"""PGN games replayed through the Laws engine (the fast path of the audit and benchmarks)."""

from __future__ import annotations

import io
import itertools
import os
from pathlib import Path

import pytest

from arbitro.notation.pgn import edition_for, iter_mainlines, read_mainline, replay

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "pgn"

SAMPLE = """[Event "Rated Blitz game"]
[Date "2019.03.02"]
[TimeControl "180+2"]
[Result "0-1"]

1. e4 { [%clk 0:03:01] } 1... e5 { [%clk 0:02:58] } 2. Bc4 $1 { [%clk 0:02:59] }
( 2. Nf3 Nc6 ) 2... Nc6 { [%clk 0:02:57.5] } 3. Qh5 { [%clk 0:02:57] } 3... Nf6?? { [%clk 0:02:50] }
4. Qxf7# { [%clk 0:02:56] } 0-1
"""


def test_the_mainline_is_read_without_variations_and_with_clocks() -> None:
    record = read_mainline(io.StringIO(SAMPLE))
    assert record is not None
    assert record.sans == ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7"]
    assert record.clocks[3] == 177_500
    assert record.result == "0-1"
    assert edition_for(record.headers).id == "fide-2018"


def test_replay_follows_the_recorded_clocks_and_finds_the_real_result() -> None:
    record = read_mainline(io.StringIO(SAMPLE))
    assert record is not None
    result = replay(record)
    assert result.error is None
    state = result.game.state()
    # The recorded result says 0-1; the Laws say White mated: the audit will flag it.
    assert (state.result, state.termination) == ("1-0", "checkmate")
    # Replayed up to 3.Qh5, White's clock shows the recorded 2:57.
    record.sans, record.clocks = record.sans[:5], record.clocks[:5]
    clock = replay(record).game.state().clock
    assert clock is not None and (clock.white, clock.black) == (177_000, 177_500)


def test_moves_after_the_end_are_refused_and_reported() -> None:
    text = SAMPLE.replace("4. Qxf7# { [%clk 0:02:56] } 0-1", "4. Qxf7# 4... Ke7 0-1")
    record = read_mainline(io.StringIO(text))
    assert record is not None
    result = replay(record)
    assert result.stopped_at == 7
    assert result.error is not None and result.error.code == "game-over"


@pytest.mark.skipif(
    not CORPUS.is_dir() and os.environ.get("CI") != "true",
    reason="the shared corpus (../shared/data/pgn) is not on this machine",
)
def test_corpus_games_replay_through_the_engine() -> None:
    # A sample of each file (the whole corpus is a benchmark: benchmarks/game.py).
    for path in sorted(CORPUS.glob("*.pgn")):
        with path.open(encoding="utf-8") as handle:
            for record in itertools.islice(iter_mainlines(handle), 40):
                if record.headers.get("Variant", "Standard") != "Standard":
                    continue
                result = replay(record)
                if result.error is not None:
                    assert result.error.code == "game-over", (path.name, result.error)
