"""Auditing PGN databases: composed games for every finding, the runners, the command line."""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import os
import sys
import tempfile
import threading
from pathlib import Path
from unittest import mock

import pytest
import zstandard
from hypothesis import given
from hypothesis import strategies as st

from arbitro.audit import audit_text, runner
from arbitro.audit.runner import iter_games, open_text, run
from arbitro.cli import main


def pgn(moves: str, result: str, **tags: str) -> str:
    head = {"Event": "Composed", "Date": "2024.05.01", "Result": result, **tags}
    lines = [f'[{name} "{value}"]' for name, value in head.items()]
    return "\n".join(lines) + f"\n\n{moves} {result}\n\n"


CLEAN = pgn("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", "1-0", Termination="Normal")
ILLEGAL = pgn("1. e4 e5 2. Ke3 Nc6", "0-1")
MATE_THEN_MORE = pgn("1. f3 e5 2. g4 Qh4# 3. a3", "0-1")
MATE_WRONG_RESULT = pgn("1. f3 e5 2. g4 Qh4#", "1/2-1/2")
# A lone king cannot mate: White's "win on time" against king and queen is a draw (6.9).
LONE_KING_ON_TIME = pgn(
    "1. Kd3 Kd5",
    "1-0",
    FEN="8/8/4k3/8/8/4K3/8/7q w - - 0 1",
    SetUp="1",
    Termination="Time forfeit",
)
ROOK_ON_TIME = pgn(
    "1. Kf4 Kf6",
    "1-0",
    FEN="8/8/4k3/8/8/3RK3/8/8 w - - 0 1",
    SetUp="1",
    Termination="Time forfeit",
)
# White takes the last black man: king and bishop against king is dead (5.2.2).
DEAD_THEN_MORE = pgn("1. Kxd2 Kd7 2. Ke3", "1-0", FEN="4k3/8/8/8/8/8/3p4/3BK3 w - - 0 1", SetUp="1")
THREEFOLD = pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 e5 5. e4", "1-0")
FIFTY = pgn("60. Ra2 Kd7 61. Ra3", "1-0", FEN="4k3/8/8/8/8/8/8/R3K3 w - - 98 60", SetUp="1")
OPEN_COMMENT = pgn("1. e4 { never closed 2. d4", "*")
STRAY_WORD = pgn("1. e4 hello 2. d4", "*")
CHESS960 = pgn(
    "1. e4 e5",
    "*",
    Variant="Chess960",
    FEN="bbqrknrn/pppppppp/8/8/8/8/PPPPPPPP/BBQRKNRN w GDgd - 0 1",
    SetUp="1",
)


def findings(text: str) -> list[dict[str, object]]:
    return [f.to_dict() for f in audit_text(text, file="t.pgn", game=1)]


def test_a_clean_game_has_no_findings() -> None:
    assert findings(CLEAN) == []


@pytest.mark.law("3.10.1")
def test_an_illegal_move_is_named_with_its_ply() -> None:
    (found,) = findings(ILLEGAL)
    assert found["code"] == "illegal-move" and found["severity"] == "error"
    assert found["ply"] == 3 and found["move"] == "Ke3"
    assert "Ke3" in str(found["detail"]) and found["edition"] == "fide-2023"


@pytest.mark.law("5.1.1")
def test_moves_after_checkmate() -> None:
    (found,) = findings(MATE_THEN_MORE)
    assert found["code"] == "moves-after-end"
    assert found["ply"] == 5 and found["termination"] == "checkmate"
    assert found["article"] == "5.1.1"


@pytest.mark.law("5.1.1")
def test_a_checkmate_recorded_as_a_draw() -> None:
    (found,) = findings(MATE_WRONG_RESULT)
    assert found["code"] == "wrong-result"
    assert found["expected"] == "0-1" and found["recorded"] == "1/2-1/2"


@pytest.mark.law("6.9")
def test_a_loss_on_time_against_a_side_that_cannot_mate_is_a_draw() -> None:
    (found,) = findings(LONE_KING_ON_TIME)
    assert found["code"] == "wrong-result" and found["expected"] == "1/2-1/2"
    assert found["recorded"] == "1-0" and found["article"] == "6.9"
    assert findings(ROOK_ON_TIME) == []  # king and rook can mate: the loss on time stands


@pytest.mark.law("5.2.2")
def test_moves_after_a_dead_position_and_the_result_it_gives() -> None:
    found = findings(DEAD_THEN_MORE)
    assert [f["code"] for f in found] == ["moves-after-end", "wrong-result"]
    assert found[0]["ply"] == 2 and found[0]["termination"] == "dead-position"
    assert found[1]["expected"] == "1/2-1/2" and found[1]["recorded"] == "1-0"


@pytest.mark.law("9.2")
def test_the_first_claimable_threefold_repetition() -> None:
    (found,) = findings(THREEFOLD)
    assert found["code"] == "threefold-claimable" and found["severity"] == "info"
    # After 4. Ng1 Black could claim by declaring Ng8 (the start position a third time).
    assert found["ply"] == 8 and found["claimant"] == "black" and found["move"] == "Ng8"


@pytest.mark.law("9.3")
def test_the_first_claimable_fifty_moves() -> None:
    (found,) = findings(FIFTY)
    assert found["code"] == "fifty-moves-claimable" and found["ply"] == 2
    assert found["claimant"] == "black" and found["article"] == "9.3"


def test_a_claim_made_at_the_end_of_a_drawn_game_is_no_finding() -> None:
    drawn = pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1", "1/2-1/2")
    assert findings(drawn) == []


@pytest.mark.parametrize("text", [OPEN_COMMENT, STRAY_WORD, "no tags and no moves here\n"])
def test_unreadable_games(text: str) -> None:
    (found,) = findings(text)
    assert found["code"] == "unreadable-game" and found["severity"] == "error"


def test_other_variants_are_not_audited() -> None:
    (found,) = findings(CHESS960)
    assert found["code"] == "unsupported-variant"


def test_the_edition_is_the_one_in_force_on_the_date() -> None:
    old = pgn("1. e4 e5 2. Ke3", "*", Date="2006.01.01")
    assert findings(old)[0]["edition"] == "fide-2005"
    older = pgn("1. e4 e5 2. Ke3", "*", Date="2005.01.01")
    assert findings(older)[0]["edition"] == "fide-2001"
    undated = pgn("1. e4 e5 2. Ke3", "*", Date="????.??.??")
    assert findings(undated)[0]["edition"] == "fide-2023"
    chosen = audit_text(old, file="t.pgn", game=1, edition=None)
    assert chosen[0].edition == "fide-2005"


# -- reading files and running ------------------------------------------------------------------

ALL = [
    CLEAN,
    ILLEGAL,
    MATE_THEN_MORE,
    OPEN_COMMENT,
    MATE_WRONG_RESULT,
    LONE_KING_ON_TIME,
    DEAD_THEN_MORE,
    THREEFOLD,
    FIFTY,
    STRAY_WORD,
    CHESS960,
]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """Every composed game, 25 times over (several chunks), with a comment holding a tag line."""
    path = tmp_path / "games.pgn"
    tricky = pgn('1. e4 {a comment\n[Event "not a tag"]\n} e5', "*")
    path.write_text("".join(ALL * 25) + tricky, encoding="utf-8")
    return path


def test_games_are_split_at_tag_lines_outside_comments(database: Path) -> None:
    texts = list(iter_games(io.StringIO(database.read_text(encoding="utf-8"))))
    assert len(texts) == len(ALL) * 25 + 1
    assert "not a tag" in texts[-1]


def test_the_audit_never_stops_on_bad_input(database: Path) -> None:
    found = list(run([str(database)]))
    codes = [f.code for f in found]
    assert codes.count("unreadable-game") == 50  # two bad games, 25 times each
    assert max(f.game for f in found) == len(ALL) * 25  # the games after them were audited
    assert {f.code for f in found} == {
        "illegal-move",
        "moves-after-end",
        "wrong-result",
        "threefold-claimable",
        "fifty-moves-claimable",
        "unreadable-game",
        "unsupported-variant",
    }


def test_all_cores_give_the_same_findings_in_the_same_order(database: Path) -> None:
    one = [f.to_dict() for f in run([str(database)], jobs=1)]
    two = [f.to_dict() for f in run([str(database)], jobs=2)]
    assert one == two and one


def test_byte_spans_for_processes_give_the_same_findings(
    database: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tiny spans (a cut near every game), a file given twice, a compressed file in between.
    packed = tmp_path / "games.pgn.gz"
    packed.write_bytes(gzip.compress(database.read_bytes()))
    names = [str(database), str(packed), str(database)]
    monkeypatch.setattr(runner, "SPAN_BYTES", (300, 1))
    one = [f.to_dict() for f in run(names, jobs=1)]
    counted: list[int] = []
    two = [f.to_dict() for f in run(names, jobs=2, progress=counted.append)]
    assert one == two and one
    assert sum(counted) == 3 * (len(ALL) * 25 + 1)
    assert len(counted) > len(ALL) * 25 / 2  # the plain files were cut in many spans


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
@pytest.mark.timeout(120)
def test_a_named_pipe_is_read_whole_with_processes_too(database: Path, tmp_path: Path) -> None:
    expected = [f.to_dict() for f in run([str(database)], jobs=1)]
    pipe = tmp_path / "pipe.pgn"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_bytes(database.read_bytes()))
    writer.start()
    got = [f.to_dict() for f in run([str(pipe)], jobs=2)]
    writer.join()
    assert [{**f, "file": ""} for f in got] == [{**f, "file": ""} for f in expected]


# Pieces of PGN files, bytes: lines of tags and moves with every end of line, blank lines of
# spaces, comments over blank lines and over tag lines, marks of byte order, bytes that are not
# UTF-8, spaces that only Unicode knows before a tag.
PIECES = [
    b'[Event "x"]\n',
    b'[Event "x"]\r\n',
    b"\n",
    b"\r\n",
    b"\r",
    b"  \n",
    b"\t\r\n",
    b"1. e4 e5 *\n",
    b"1. d4 d5 1-0\r\n",
    b"1. e4 {a comment\n",
    b"} e5\n",
    b"{",
    b"}",
    b"e4",
    b'\xc2\xa0[Event "y"]\n',
    b'\xe2\x80\x83[Site "z"]\n',
    b"\xef\xbb\xbf",
    b"\xff\xc3",
    b' [Site "z"]\n',
    b"[not a tag\n",
    b"\x0c\n",
    b"; a comment\n",
    b"% an escape\n",
]


@given(st.lists(st.sampled_from(PIECES), max_size=60), st.integers(1, 200))
def test_byte_spans_hold_the_games_of_the_whole_file(pieces: list[bytes], span: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "games.pgn")
        Path(path).write_bytes(b"".join(pieces))
        with mock.patch.object(runner, "SPAN_BYTES", (span, 1)):
            spans = list(runner._byte_spans([path], jobs=2))
        got = [
            game for _, start, length in spans for game in runner.span_games(path, start, length)
        ]
        with open_text(path) as handle:
            assert got == list(iter_games(handle))
        ends = [0] + [start + length for _, start, length in spans]
        assert [start for _, start, _ in spans] == ends[:-1]  # contiguous, from the start
        assert ends[-1] == len(b"".join(pieces))


def test_compressed_files_and_standard_input(
    database: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = database.read_bytes()
    expected = [f.to_dict() for f in run([str(database)])]
    for name, pack in (
        ("games.pgn.gz", gzip.compress),
        ("games.pgn.bz2", bz2.compress),
        ("games.pgn.zst", zstandard.ZstdCompressor().compress),
    ):
        path = tmp_path / name
        path.write_bytes(pack(data))
        got = [f.to_dict() for f in run([str(path)])]
        assert [{**f, "file": ""} for f in got] == [{**f, "file": ""} for f in expected], name
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    got = [f.to_dict() for f in run(["-"])]
    assert len(got) == len(expected)


def test_a_dask_cluster_with_two_workers_gives_the_same_findings(database: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    expected = [f.to_dict() for f in run([str(database)], jobs=1)]
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        got = [f.to_dict() for f in run([str(database)], dask=client)]
        assert got == expected
        # By address too, the way the command line connects.
        address = [f.to_dict() for f in run([str(database)], dask=cluster.scheduler_address)]
        assert address == expected


# -- command line -------------------------------------------------------------------------------


def test_cli_jsonl_csv_table_and_summary(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", "--format", "jsonl", "--jobs", "1", str(database)]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = json.loads(lines[0])
    assert list(first)[:8] == [
        "file",
        "game",
        "ply",
        "code",
        "severity",
        "edition",
        "article",
        "detail",
    ]
    assert main(["audit", "--format", "csv", "--jobs", "1", str(database)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == len(lines) and rows[0]["code"] == first["code"]
    assert main(["audit", "--format", "table", "--summary", "--jobs", "1", str(database)]) == 0
    out = capsys.readouterr().out
    assert "games audited" in out and "First 25 findings" in out
    assert main(["audit", "--format", "jsonl", "--summary", "--jobs", "1", str(database)]) == 0
    captured = capsys.readouterr()
    assert "threefold-claimable" in captured.err and captured.out.count("\n") == len(lines)


def test_cli_refuses_bad_arguments(database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--edition", "fide-1999", str(database)]) == 2
    assert "fide-1999" in capsys.readouterr().err
    assert main(["audit", str(database.parent / "missing.pgn")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["audit", "--jobs", "0", str(database)]) == 2
