"""The shortcuts of a replay give what the long ways give, on many positions.

- :func:`~arbitro.game.moves.fast_san` against python-chess's ``parse_san``: on positions of
  random games from tricky starts (Hypothesis) and of corpus games, for every legal move
  written in many ways, and for words that are not legal moves;
- :meth:`Game.replay_move` (with the next move read ahead) against :meth:`Game.play`: the same
  refusals, the same log and the same state after every command, with and without clocks,
  flags falling, time going backwards, illegal and unreadable moves, and other commands in
  between;
- :func:`~arbitro.notation.pgn.read_plain_mainline` against :func:`read_mainline` (python-chess's
  reader), on texts made of pieces of PGN good and bad, and on the corpus; and a text it reads
  is one the audit's check for stray words lets through.

(The clock's shortcut for an ordinary press is checked in ``test_clock.py``.)
"""

from __future__ import annotations

import functools
import io
import itertools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitro.audit.auditor import _unreadable
from arbitro.audit.runner import iter_games
from arbitro.errors import ArbitroError
from arbitro.game import Game
from arbitro.game.fen import fen
from arbitro.game.moves import fast_san
from arbitro.notation.pgn import iter_mainlines, read_mainline, read_plain_mainline

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "pgn"

STARTS = [
    chess.STARTING_FEN,
    # castling both ways, promotions with and without capture, en passant, pins
    "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3",
    # an en passant capture that would expose the king along the rank
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
    # several pieces of a kind reaching the same squares (disambiguation by file, rank, both)
    "3k4/8/8/8/8/8/8/Q2K3Q w - - 0 1",
    "1k6/8/2N1N3/8/2N1N3/8/8/K7 w - - 0 1",
    "7k/8/8/8/R7/8/8/R3K2R w KQ - 0 1",
    # in check, double check
    "4k3/8/8/8/1b6/8/3P4/4K1r1 w - - 0 1",
    "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
]


def spellings(board: chess.Board, move: chess.Move) -> set[str]:
    """Ways of writing ``move`` that python-chess's reader accepts or refuses: the SAN, the
    long form, the SAN without its marks, over- and under-specified, wrong piece letters."""
    san = board.san(move)
    lan = board.lan(move)
    found = {san, san.rstrip("+#"), lan, lan.replace("-", ""), san.replace("x", ""), san + "+"}
    if move.promotion:
        found |= {san.replace("=", ""), san.replace("=Q", "=q"), san.rstrip("+#")[:-1] + "K"}
    origin = chess.square_name(move.from_square)
    target = chess.square_name(move.to_square)
    piece = board.piece_at(move.from_square)
    letter = piece.symbol().upper() if piece else ""
    for prefix in (letter + origin[0], letter + origin[1], letter + origin, origin[0], origin):
        found |= {prefix + target, prefix + "x" + target}
    found |= {other + target for other in "PKQRBN"}
    return found


def check_position(board: chess.Board, extra: list[str]) -> None:
    assert fen(board) == board.fen()  # the fast FEN writer too
    before = board.fen()
    for move in board.legal_moves:
        if not board.is_castling(move):
            # Every ordinary move, written the usual way, takes the shortcut.
            assert fast_san(board, board.san(move)) == move, (board.fen(), move)
        for text in spellings(board, move):
            agree(board, text)
    for text in extra:
        agree(board, text)
    assert board.fen() == before


def agree(board: chess.Board, text: str) -> None:
    fast = fast_san(board, text)
    if fast is not None:
        assert fast == board.parse_san(text), (board.fen(), text)


WORDS = st.lists(
    st.one_of(
        st.from_regex(r"\A[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=?[NBRQKnbrqk])?[+#]?\Z"),
        st.text(alphabet="abcdefgh12345678KQRBNx=+#-O0", max_size=7),
    ),
    max_size=8,
)


@given(st.sampled_from(STARTS), st.lists(st.integers(0, 10_000), max_size=60), WORDS)
def test_fast_san_reads_what_parse_san_reads(
    start: str, choices: list[int], words: list[str]
) -> None:
    board = chess.Board(start)
    check_position(board, words)
    for choice in choices:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
        check_position(board, words)


@pytest.mark.skipif(
    not CORPUS.is_dir() and os.environ.get("CI") != "true",
    reason="the shared corpus (../shared/data/pgn) is not on this machine",
)
def test_fast_san_on_corpus_positions() -> None:
    for path in sorted(CORPUS.glob("*.pgn")):
        with path.open(encoding="utf-8") as handle:
            for record in itertools.islice(iter_mainlines(handle), 3):
                if record.headers.get("Variant", "Standard") != "Standard":
                    continue
                board = chess.Board(record.headers.get("FEN", chess.STARTING_FEN))
                for san in record.sans:
                    assert fast_san(board, san) in (None, board.parse_san(san))
                    board.push_san(san)
                    check_position(board, [])


# -- Game.replay_move against Game.play -----------------------------------------------------

CONTROLS = [None, "3+2", "1+0", "G/5;d3", "5 b3", "40/90, 30 + 30s", "*1"]


def outcome(game: Game, command: Callable[[], object]) -> tuple[Any, ...]:
    """What a command did: its refusal (code, words), or nothing; then the game's state."""
    try:
        command()
        refused: tuple[str, str] | None = None
    except ArbitroError as error:
        refused = (error.code, error.message())
    return (
        refused,
        game.state(),
        game.to_json(),
        [(p.move, p.reason, p.made_at, p.pressed_at, p.clock_after) for p in game.plies],
        repr(game.board),
    )


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["move"] * 12 + ["garbage", "illegal", "offer", "stop", "restart"]),
        st.integers(-2_000, 70_000),  # ms after the previous command
        st.integers(0, 10_000),  # which move
        st.booleans(),  # the right colour to move
    ),
    max_size=50,
)


@given(st.sampled_from(STARTS), st.sampled_from(CONTROLS), ACTIONS, st.data())
def test_replay_move_does_what_play_does(
    start: str, control: str | None, actions: list[tuple[str, int, int, bool]], data: st.DataObject
) -> None:
    options: dict[str, Any] = {"start": start}
    if control is None:
        options["kind"] = "standard"
    slow = Game.create("fide-2023", control, **options)
    fast = Game.create("fide-2023", control, **options)
    slow.start(0)
    fast.start(0)
    at = 0
    texts: list[tuple[str, int, bool, str]] = []
    for kind, delay, choice, right in actions:
        at = max(0, at + delay)
        board = slow.board
        moves = list(board.legal_moves)
        if kind == "move" and moves:
            text = board.san(moves[choice % len(moves)])
        elif kind == "illegal":
            text = data.draw(st.sampled_from(["Ke8", "Qh5", "e5", "exd6", "O-O", "Nf3", "a1=Q"]))
        else:
            text = data.draw(st.sampled_from(["", " ", "e4 ", "zz", "--", "e2e4", "Nf3!"]))
        texts.append((kind, at, right, text))
    for index, (kind, at, right, text) in enumerate(texts):
        color = slow.board.turn if right else not slow.board.turn
        by = "white" if color else "black"
        if kind in ("offer", "stop", "restart"):
            name = {"offer": "offer_draw", "stop": "stop_clocks", "restart": "restart_clocks"}[kind]
            assert outcome(slow, functools.partial(getattr(slow, name), by, at)) == outcome(
                fast, functools.partial(getattr(fast, name), by, at)
            )
            continue
        # The move recorded next, read ahead: the real next one, or any word.
        following = texts[index + 1][3] if index + 1 < len(texts) else None
        if data.draw(st.booleans()):
            following = data.draw(st.sampled_from([None, "e4", "Nf3", "Kxe8", "O-O", ""]))
        assert outcome(slow, functools.partial(slow.play, by, text, at)) == outcome(
            fast, functools.partial(fast.replay_move, color, text, at, following)
        ), (index, text)


@pytest.mark.skipif(
    not CORPUS.is_dir() and os.environ.get("CI") != "true",
    reason="the shared corpus (../shared/data/pgn) is not on this machine",
)
def test_replay_move_on_corpus_games() -> None:
    for path in sorted(CORPUS.glob("*.pgn")):
        with path.open(encoding="utf-8") as handle:
            for record in itertools.islice(iter_mainlines(handle), 10):
                if record.headers.get("Variant", "Standard") != "Standard":
                    continue
                fen = record.headers.get("FEN")
                slow = Game.create("fide-2023", "3+0", start=fen)
                fast = Game.create("fide-2023", "3+0", start=fen)
                slow.start(0)
                fast.start(0)
                sans = record.sans
                for index, san in enumerate(sans):
                    at = 1_000 * (index + 1)
                    by = "white" if slow.board.turn else "black"
                    following = sans[index + 1] if index + 1 < len(sans) else None
                    color = slow.board.turn
                    assert outcome(slow, functools.partial(slow.play, by, san, at)) == outcome(
                        fast, functools.partial(fast.replay_move, color, san, at, following)
                    )


# -- read_plain_mainline against read_mainline ----------------------------------------------

GOOD_TAGS = [
    '[Event "Rated Blitz game"]\n',
    '[Site "https://lichess.org/abc]d"]\n',
    '[Date "2021.11.06"]\n',
    '[TimeControl "180+2"]\n',
    '[Variant "Standard"]\n',
    '[Result "1-0"]  \n',
    '[Event   "spaces"]\n',
]
BAD_TAGS = [
    '[White "x\\"y"]\n',
    '[Black "a\x0cb"]\n',
    '[Black "a\x85b"]\n',
    '[Variant "Chess960"]\n',
    '[Variant "Crazyhouse"]\n',
    '[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n',
    "[Bad tag]\n",
    '[Event "cr"]\r\n',
    '\ufeff[Event "bom"]\n',
    "% an escape\n",
    "\n",
]
GOOD_MOVETEXT = [
    "1.", "1...", "12.", "e4", "Nf3", "exd5", "e8=Q", "O-O", "O-O-O", "0-0", "Nf3+", "Qxf7#",
    "e4!?", "{ [%clk 0:03:01] }", "{[%clk 0:00:59.9]}", "{ [%emt 0:00:02] }", "{a comment}", "{}",
    "{ [%clk 1:02:03] [%clk 0:00:01] }", "$1", "$13", "1-0", "0-1", "1/2-1/2", "*", "1e4",
    "e4e5", "Rad1",
]  # fmt: skip
BAD_MOVETEXT = [
    "e8Q", "e8=K", "e2-e4", "--", "e4!!!", "{a\nb}", "{[%clk\n0:01:00]}", "{ nested { }", "}",
    "{a\x0c[b}", "{a\x1d[b}", "{a\r[b}", "(", ")", "( e4 )", "; rest", '[Event "x"]', "\xa0",
    "Z0", "@e4", "N@f3",
]  # fmt: skip
GOOD_GAPS = [" ", " ", " ", "\n"]
BAD_GAPS = ["", "  ", "\n\n", "\r\n", "\t", " \n", "\n[", "\n ", "\x0c", "\n%", "\n;"]


@st.composite
def nearly_plain_games(draw: st.DrawFn) -> str:
    """A game in the plain form of exports, or one with a flaw somewhere."""
    tags = draw(st.lists(st.sampled_from(GOOD_TAGS), min_size=1, max_size=4))
    items = [
        draw(st.sampled_from(GOOD_MOVETEXT)) + draw(st.sampled_from(GOOD_GAPS))
        for _ in range(draw(st.integers(1, 25)))
    ]
    blank, tail = "\n", draw(st.sampled_from(["", "\n", "\n\n"]))
    flaw = draw(st.integers(0, 5))
    if flaw == 1:
        tags.insert(draw(st.integers(0, len(tags))), draw(st.sampled_from(BAD_TAGS)))
    elif flaw == 2:
        where = draw(st.integers(0, len(items)))
        items.insert(where, draw(st.sampled_from(BAD_MOVETEXT)) + " ")
    elif flaw == 3:
        where = draw(st.integers(0, len(items) - 1))
        items[where] = items[where].rstrip(" \n") + draw(st.sampled_from(BAD_GAPS))
    elif flaw == 4:
        blank = draw(st.sampled_from(["", "\n\n", " \n", "\r\n"]))
    elif flaw == 5:
        tail = draw(st.sampled_from([" \n", "\n\n[Event", "\n \n", "\x85\n"]))
    return "".join(tags) + blank + "".join(items) + tail


@given(nearly_plain_games())
def test_the_plain_reader_reads_what_python_chess_reads(text: str) -> None:
    plain = read_plain_mainline(text)
    if plain is not None:
        assert plain == read_mainline(io.StringIO(text))
        assert _unreadable(text) is None


def test_the_plain_reader_reads_an_export() -> None:
    text = (
        '[Event "Rated Blitz game"]\n[Variant "Standard"]\n[TimeControl "180+2"]\n\n'
        "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:59.5] [%emt 0:00:01] } 2. Nf3+ $1 "
        "{ [%clk 0:03:01] }\n2... Nc6?! 3. O-O exd4 4. e8=Q# 1-0\n\n"
    )
    record = read_plain_mainline(text)
    assert record is not None and record == read_mainline(io.StringIO(text))
    assert record.sans == ["e4", "e5", "Nf3", "Nc6", "O-O", "exd4", "e8=Q"]
    assert record.clocks[:3] == [180_000, 179_500, 181_000]
    assert record.spent[1] == 1_000
    assert record.result == "1-0"


@pytest.mark.skipif(
    not CORPUS.is_dir() and os.environ.get("CI") != "true",
    reason="the shared corpus (../shared/data/pgn) is not on this machine",
)
def test_the_plain_reader_on_corpus_games() -> None:
    for path in sorted(CORPUS.glob("*.pgn")):
        with path.open(encoding="utf-8") as handle:
            texts = list(itertools.islice(iter_games(handle), 200))
        read = 0
        for text in texts:
            plain = read_plain_mainline(text)
            if plain is not None:
                read += 1
                assert plain == read_mainline(io.StringIO(text))
                assert _unreadable(text) is None
        assert read >= 0.9 * len(texts), path.name  # exports are plain
