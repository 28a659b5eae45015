"""Bad input is refused, never a crash: the parsers under Hypothesis.

Every parser of text that comes from outside (time controls, moves in every language, spoken
words, FEN, PGN, movetext, scenario files, engine events) either answers or raises the
project's typed error (:class:`~arbitro.errors.ArbitroError`, with a stable code); any other
exception is a bug.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

import chess
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from arbitro.errors import ArbitroError
from arbitro.game import Event, Game, GameSetup
from arbitro.game.moves import resolve
from arbitro.notation.algebraic import read
from arbitro.notation.letters import LANGUAGES
from arbitro.notation.movetext import read_movetext, translate
from arbitro.notation.pgn import read_pgn
from arbitro.notation.spoken import STYLES, hear
from arbitro.scenario import load, run
from arbitro.timecontrol import TimeControl

FUZZ = settings(
    max_examples=int(os.environ.get("ARBITRO_FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# Text that looks like the input it is thrown at, and text that does not.
CHESSY = st.text(alphabet="abcdefgh12345678KQRBNPDTACRFLSx+#=:-()/0Oo .!?épe", max_size=12)
ANY = st.text(max_size=40)
BOARDS = st.sampled_from(
    [
        chess.Board(),
        chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"),
        chess.Board("4k3/1P6/8/3pP3/8/8/6p1/R3K2R w KQ d6 0 40"),
        chess.Board("8/8/8/4k3/8/8/8/4K3 w - - 0 1"),
    ]
)


@FUZZ
@given(st.one_of(ANY, st.from_regex(r"\A[0-9/+:*dbG;, sminx-]{0,20}\Z")))
@example("40/5400+30:1800+30")
@example("99999999999999999999/1")
@example("*0")
@example("0+0")
def test_time_controls(text: str) -> None:
    try:
        control = TimeControl.parse(text)
    except ArbitroError:
        return
    # Whatever is read formats back to a text that reads the same.
    assert TimeControl.parse(control.text()) == control


@FUZZ
@given(st.one_of(CHESSY, ANY), BOARDS, st.sampled_from(sorted(LANGUAGES)), st.booleans())
def test_moves_in_every_language(text: str, board: chess.Board, lang: str, lenient: bool) -> None:
    before = board.fen()
    reading = read(text, board, lang, lenient=lenient)
    assert reading.status in ("ok", "ambiguous", "illegal", "unreadable")
    if reading.ok:
        assert reading.move in board.legal_moves
    for physical in (False, True):
        with contextlib.suppress(ArbitroError):
            resolve(board, text, lang, physical)
    assert board.fen() == before  # nothing was changed


@FUZZ
@given(
    st.one_of(ANY, st.lists(st.sampled_from(
        ["caballo", "Félix", "tres", "peón", "Eva", "cuatro", "enroque", "corto", "largo",
         "Springer", "drei", "Knight", "three", "takes", "check", "dama", "x", "jaque"]
    ), max_size=6).map(" ".join)),
    BOARDS,
    st.sampled_from([None, *STYLES]),
)  # fmt: skip
def test_spoken_words(text: str, board: chess.Board, style: str | None) -> None:
    try:
        move = hear(text, board, style)
    except ArbitroError:
        return
    assert move in board.legal_moves


@FUZZ
@given(
    st.one_of(
        ANY,
        st.from_regex(
            r"\A[pnbrqkPNBRQK1-8/]{0,30} [wb] [KQkq-]{1,4} [a-h36-]{1,2} \d{1,3} \d{1,3}\Z"
        ),
    )
)
def test_fen_in_a_game_setup(fen: str) -> None:
    try:
        setup = GameSetup.create("fide-2023", "3+2", start=fen)
    except ArbitroError:
        return
    game = Game(setup)
    with contextlib.suppress(ArbitroError):
        game.start(0)


PGN_PIECES = st.sampled_from(
    ['[Event "x"]\n', '[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n', '[SetUp "1"]\n', "\n", "1.", " e4",
     " e5", " Cf3", " Nf3", " {c", "}", " (", ")", " 1-0", " *", " $1", " ;x\n", " Tz9", " 0-0",
     " O-O-O", " exd6a.p.", " [%clk 0:01:00]", "2...", '[Event "', " e8=D"]
)  # fmt: skip


@FUZZ
@given(
    st.one_of(ANY, st.lists(PGN_PIECES, max_size=14).map("".join)),
    st.sampled_from(["en", "es", "de"]),
)
@example("a1){", "en")  # python-chess's builder failed on a stray ')' before a comment
def test_pgn_and_movetext(text: str, lang: str) -> None:
    for parse in (
        lambda: read_pgn(io.StringIO(text), lang),
        lambda: read_movetext(text, lang=lang),
        lambda: translate(text, lang, "en"),
    ):
        with contextlib.suppress(ArbitroError):
            parse()


SCENARIO_PIECES = st.sampled_from(
    ["title: t\n", "time_control: '3+2'\n", "time_control: 7\n", "edition: fide-2001\n",
     "edition: nope\n", "actions:\n", "  - {at: 0, by: arbiter, do: start}\n",
     "  - {at: 1, by: white, do: play, move: e4}\n", "  - {at: x, by: white, do: play}\n",
     "  - {at: 2, by: arbiter, do: adjourn}\n", "  - {at: 3, by: black, do: seal, move: e5}\n",
     "  - {at: 4, by: arbiter, do: resume, present: 7}\n", "expect: {result: '1-0'}\n",
     "expect: [1]\n", "  - {at: 1e400, by: white, do: press}\n",
     "  - {at: .nan, by: white, do: press}\n", "- \n", ": :\n", "start: 'bad fen'\n",
     "board: physical\n"]
)  # fmt: skip


@FUZZ
@given(st.one_of(ANY, st.lists(SCENARIO_PIECES, max_size=10).map("".join)))
@example("?")  # a key that YAML reads as null
def test_scenario_files(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            scenarios = load(path)
        except ArbitroError:
            return
    for scenario in scenarios:
        run(scenario)  # a valid file always runs to a report


EVENT_ARGS = st.dictionaries(
    st.sampled_from(["move", "claim", "action", "player", "seconds", "ply", "present", "missing",
                     "stop", "white", "black", "result", "decision", "envelope", "key", "lang"]),
    st.one_of(st.none(), st.booleans(), st.integers(-5, 10**12), st.text(max_size=8),
              st.floats(), st.just(10**400), st.just("1e400"),
              st.lists(st.sampled_from(["white", "black", "x"]), max_size=3)),
    max_size=4,
)  # fmt: skip
DOS = st.sampled_from(
    ["start", "move", "press", "play", "offer-draw", "accept-draw", "decline-draw", "claim",
     "resign", "stop-clocks", "restart-clocks", "arbiter", "adjourn", "seal", "resume", "nope"]
)  # fmt: skip


@FUZZ
@given(
    st.lists(
        st.tuples(st.integers(0, 10**9), st.sampled_from(["white", "black", "arbiter", "x"]), DOS,
                  EVENT_ARGS),
        max_size=12,
    )
)  # fmt: skip
def test_engine_events(events: list[tuple[int, str, str, dict[str, object]]]) -> None:
    """Any stream of events: each is applied or refused with a typed error, a refusal changes
    nothing, and the log replays to the same state."""
    game = Game.create("fide-2001", "90+30", board="physical")
    for at, by, do, args in events:
        before = (game.to_json(), game.state(game.now))
        try:
            game.apply(Event(at, by, do, args))
        except ArbitroError:
            assert (game.to_json(), game.state(game.now)) == before
    assert Game.from_json(game.to_json()).state(game.now) == game.state(game.now)
