"""Nothing acknowledged is lost: the server killed with SIGKILL under a stream of moves from
several clients and restarted, on SQLite and on PostgreSQL (a short run of
``benchmarks/durability.py``; the benchmark does it 50 times)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "durability.py"


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("durability", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["durability"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def postgres_url() -> Iterator[str]:
    from test_store import _postgres_url  # noqa: PLC0415 - the store tests' fresh schema

    yield from _postgres_url()


def check(database: str, kills: int) -> None:
    harness = _harness()
    tally, games = harness.run(database, kills=kills, clients=3, seed=7)
    counts = harness.summary(tally)
    assert counts["kills"] == kills
    assert counts["acknowledged"] > 10 * kills, counts  # the clients really were playing
    assert counts["anomalies"] == [], counts  # nothing lost, duplicated or half-written
    assert counts["refused"] == 0, counts
    assert counts["worst_clock_error"] < 1_000, counts  # the running clock resumed correctly
    assert games >= 3


def test_sigkill_under_load_loses_nothing_on_sqlite(tmp_path: Path) -> None:
    check(f"sqlite:///{tmp_path}/durable.db", kills=4)


def test_sigkill_under_load_loses_nothing_on_postgresql(postgres_url: str) -> None:
    check(postgres_url, kills=3)
