"""The Laws engine: commands, refusals that change nothing, and the log replayed."""

from __future__ import annotations

import json

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitro.errors import GameError
from arbitro.game import Event, Game
from arbitro.game.engine import cannot_mate, has_legal_move

SCHOLAR = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]


def played(
    moves: list[str], edition: str = "fide-2023", control: str | None = "15+10", **options: object
) -> Game:
    game = Game.create(edition, control, **options)
    game.start(0)
    for index, move in enumerate(moves):
        game.play("white" if index % 2 == 0 else "black", move, (index + 1) * 1000)
    return game


def fingerprint(game: Game, at: int) -> tuple[str, str]:
    return game.to_json(), json.dumps(game.state(at).to_dict(), sort_keys=True)


@pytest.mark.law("5.1.1")
def test_checkmate_ends_the_game_at_once() -> None:
    game = played([*SCHOLAR, "Qxf7#"])
    state = game.state()
    assert (state.result, state.termination, state.article) == ("1-0", "checkmate", "5.1.1")
    assert state.points is not None and state.points.white == 1.0
    with pytest.raises(GameError) as caught:
        game.play("black", "Ke7", 9000)
    assert caught.value.code == "game-over"


@pytest.mark.law("5.1(a)")
def test_a_mating_move_made_but_not_pressed_ends_the_game() -> None:
    game = played(SCHOLAR, "fide-2001", "90+30")
    game.move("white", "Qxf7", 10_000)
    assert game.state().termination == "checkmate"
    assert game.state().article == "5.1(a)"


@pytest.mark.law("5.2.1")
def test_stalemate_position() -> None:
    game = Game.create("fide-2023", "5+3", start="7k/8/5QK1/8/8/8/8/8 w - - 0 1")
    game.start(0)
    game.play("white", "Qf7", 1000)
    assert game.state().termination == "stalemate"
    assert game.state().result == "1/2-1/2"


@pytest.mark.law("5.2.2")
def test_dead_position_after_the_last_capture() -> None:
    game = Game.create("fide-2023", "5+3", start="8/8/4k3/8/3nK3/8/8/7B w - - 0 1")
    game.start(0)
    game.play("white", "Kxd4", 1000)
    assert game.state().termination == "dead-position"


@pytest.mark.law("5.2.2")
def test_dead_position_while_pawns_can_still_step() -> None:
    # After Kxd1 no man can ever cross the locked pawns, though c7 and e2 may still step: the
    # game ends there, not when the last of them is blocked.
    start = "4k3/2p5/8/p1p1p1p1/P1P1P1P1/8/4P3/3rK3 w - - 0 1"
    game = Game.create("fide-2023", "5+3", start=start)
    game.start(0)
    game.play("white", "Kxd1", 1000)
    assert game.state().termination == "dead-position"


@pytest.mark.law("7.5.5")
def test_the_questions_a_claim_or_a_resignation_may_ask_are_handed_out_first() -> None:
    """A server answers them in a worker thread before it applies the event (a search may be
    long); asking changes nothing, and an event that asks nothing gets no question."""
    start = "6k1/5ppp/8/8/8/8/r5K1/8 b - - 0 50"
    game = Game.create("fide-2023", "3+2", board="physical", start=start)
    game.start(0)
    game.play("black", "Rh2", 3000)  # through the white king: illegal
    claim = Event.from_dict({"at": 5000, "by": "white", "do": "claim", "claim": "illegal-move"})
    before = fingerprint(game, 5000)
    [(board, side)] = game.mate_questions(claim)
    # the position before the illegal move, and White, who only draws if he cannot mate
    assert (board.fen(), side) == ("6k1/5ppp/8/8/8/8/r5K1/8 b - - 0 50", chess.WHITE)
    resign = Event.from_dict({"at": 5000, "by": "black", "do": "resign"})
    [(board, side)] = game.mate_questions(resign)
    assert side == chess.WHITE and board.board_fen() == game.board.board_fen()
    assert game.mate_questions(Event.from_dict({"at": 5000, "by": "white", "do": "press"})) == []
    assert fingerprint(game, 5000) == before


def test_enforced_board_refuses_an_illegal_move_and_changes_nothing() -> None:
    game = played(["e4"])
    before = fingerprint(game, 5000)
    with pytest.raises(GameError) as caught:
        game.play("black", "Bb4", 3000)
    assert caught.value.code == "illegal-move"
    assert caught.value.article == "3.10.1"
    assert "no se puede mover" in caught.value.message("es") or caught.value.message("es")
    assert fingerprint(game, 5000) == before


def test_not_your_turn() -> None:
    game = played(["e4"])
    with pytest.raises(GameError) as caught:
        game.play("white", "d4", 3000)
    assert caught.value.code == "not-your-turn"


def test_physical_board_records_a_king_left_in_check() -> None:
    game = Game.create(
        "fide-2023", "3+2", board="physical", start="4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"
    )
    game.start(0)
    game.play("white", "Kd1", 1000)  # legal
    game.play("black", "Rd2", 2000)  # check
    game.play("white", "Kc1", 3000)  # legal escape... now leave the king in check:
    game.play("black", "Rc2", 4000)
    game.play("white", "Kb1", 5000)
    game.play("black", "Kd8", 6000)
    game.play("white", "Kb2", 7000)  # moves into the rook's attack: illegal, recorded
    assert game.plies[-1].reason == "king-left-in-check"


def test_physical_board_pawn_not_promoted() -> None:
    game = Game.create("fide-2023", "3+2", board="physical", start="8/4P3/8/8/8/k7/8/4K3 w - - 0 1")
    game.start(0)
    game.play("white", "e7e8", 1000)
    assert game.plies[-1].reason == "not-promoted"
    game.claim("black", "illegal-move", 2000)
    # 2014 onward the pawn becomes a queen and the move stands.
    assert game.board.piece_at(chess.E8) == chess.Piece(chess.QUEEN, chess.WHITE)
    assert game.state().illegal_moves.white == 1


@pytest.mark.law("9.2")
def test_threefold_claim_with_the_declared_move() -> None:
    moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
    game = played(moves)
    game.claim("black", "threefold", 9000, move="Ng8")
    state = game.state()
    assert (state.termination, state.claim) == ("threefold-repetition", "upheld")


@pytest.mark.law("9.5.3")
def test_an_incorrect_claim_costs_time_and_stands_as_a_draw_offer() -> None:
    game = played(["e4", "e5"], "fide-2023", "90+30")
    before = game.state(3000).clock
    game.claim("white", "threefold", 3000)
    state = game.state(3000)
    assert state.claim == "rejected"
    assert state.pending == "draw-offer"
    assert state.clock is not None and before is not None
    assert state.clock.black == before.black + 120_000
    game.accept_draw("black", 4000)
    assert game.state().termination == "agreement"


def test_json_log_replays_to_the_same_state() -> None:
    game = played(SCHOLAR, "fide-2018", "3+2", board="physical")
    game.offer_draw("black", 7000)
    again = Game.from_json(game.to_json())
    assert fingerprint(again, 20_000) == fingerprint(game, 20_000)


def test_unknown_command_and_bad_actor() -> None:
    game = played([])
    with pytest.raises(GameError) as caught:
        game.apply(Event(1, "white", "castle-queenside"))
    assert caught.value.code == "unknown-command"
    with pytest.raises(GameError) as caught:
        game.apply(Event(1, "spectator", "resign"))
    assert caught.value.code == "bad-actor"


def test_time_cannot_go_backwards() -> None:
    game = played(["e4"])
    with pytest.raises(GameError) as caught:
        game.play("black", "e5", 500)
    assert caught.value.code == "time-goes-backwards"


@pytest.mark.law("6.9")
def test_standard_flag_fall_seen_by_the_engine() -> None:
    game = Game.create("fide-2023", "60+0")
    game.start(0)
    state = game.state(3_600_000)
    assert (state.result, state.termination) == ("0-1", "time-forfeit")
    with pytest.raises(GameError) as caught:
        game.play("white", "e4", 3_600_001)
    assert caught.value.code == "game-over"


@pytest.mark.law("6.9")
def test_next_flag_fall_is_when_the_running_clock_reaches_zero() -> None:
    game = Game.create("fide-2023", "3+2")
    assert game.next_flag_fall(0) is None  # clocks not started
    game.start(0)
    assert game.next_flag_fall(0) == 180_000
    game.play("white", "e4", 1_000)  # a legal move presses the clock: Black's runs
    assert game.next_flag_fall(1_000) == 181_000
    assert game.next_flag_fall(1_000) == game.state(1_000).clock.black + 1_000
    assert game.next_flag_fall(181_000) is None  # fallen: the game is over
    game.apply(Event.from_dict({"at": 2_000, "by": "arbiter", "do": "stop-clocks"}))
    assert game.next_flag_fall(2_000) is None


@pytest.mark.law("6.9")
def test_the_question_a_flag_fall_asks_is_handed_out_to_be_answered_first() -> None:
    """A server answers it in a worker thread (a search may be long); the game then finds
    the answer remembered, and decides as it would have."""
    game = Game.create("fide-2023", "1+0", start="4k3/8/8/8/8/8/8/4K2R w - - 0 1")
    game.start(0)
    assert game.flag_question(30_000) is None  # no flag down yet
    question = game.flag_question(60_000)
    assert question is not None
    board, winner = question
    assert (board.fen(), winner) == ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", chess.BLACK)
    assert cannot_mate(board, winner)  # a bare king
    state = game.state(60_000)
    assert (state.result, state.termination) == ("1/2-1/2", "time-forfeit-draw")
    assert game.flag_question(60_000) is None  # decided (a new event would end it)
    club = Game.create("club-blitz", "1+0")
    club.start(0)
    assert club.flag_question(60_000) is None  # material only: nothing to search


def test_has_legal_move_agrees_with_python_chess_on_special_positions() -> None:
    for fen in [
        "7k/8/5QK1/8/8/8/8/8 b - - 0 1",  # stalemate
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "k7/P7/K7/8/8/8/8/8 b - - 0 1",  # stalemate
        "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",  # pinned bishop, king moves
        "8/8/8/8/8/5k2/4p3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/3PPP2/3QKB2 w - - 0 1",
    ]:
        board = chess.Board(fen)
        assert has_legal_move(board) == any(board.generate_legal_moves()), fen


@settings(max_examples=60)
@given(st.data())
def test_has_legal_move_agrees_with_python_chess_in_random_games(data: st.DataObject) -> None:
    board = chess.Board()
    for _ in range(data.draw(st.integers(0, 120))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[data.draw(st.integers(0, len(moves) - 1))])
        assert has_legal_move(board) == any(board.generate_legal_moves())


# -- properties over random sequences of commands ----------------------------------------------

COMMANDS = [
    "move", "press", "play", "play", "play", "offer-draw", "accept-draw", "decline-draw",
    "claim", "resign", "stop-clocks", "restart-clocks", "arbiter",
]  # fmt: skip
CLAIMS = ["threefold", "fifty-moves", "time", "both-flags", "illegal-move", "quickplay-finish"]
ARBITER = [
    {"action": "add-time", "player": "white", "seconds": 60},
    {"action": "set-clock", "white": "1:00", "black": 30},
    {"action": "penalty", "player": "black", "penalty": "warning"},
    {"action": "penalty", "player": "white", "penalty": "time-deducted", "seconds": 30},
    {"action": "decide", "decision": "reject"},
    {"action": "decide", "decision": "postpone"},
    {"action": "restore", "ply": 0},
    {"action": "restore", "ply": 3},
    {"action": "result", "result": "1/2-1/2", "reason": "agreement"},
    {"action": "bogus"},
]


@st.composite
def sessions(draw: st.DrawFn) -> tuple[dict[str, object], list[tuple[str, str, int, int]]]:
    setup = {
        "edition": draw(
            st.sampled_from(
                ["fide-2001", "fide-2009", "fide-2014", "fide-2018", "fide-2023", "club-blitz"]
            )
        ),
        "time_control": draw(st.sampled_from(["3+2", "1+0", "15", "90+30", "5 d3", None])),
        "board": draw(st.sampled_from(["enforced", "physical"])),
        "supervision": draw(st.sampled_from(["adequate", "inadequate"])),
    }
    steps = draw(
        st.lists(
            st.tuples(
                st.sampled_from(COMMANDS),
                st.sampled_from(["white", "black", "arbiter"]),
                st.integers(0, 40_000),
                st.integers(0, 1_000),
            ),
            max_size=40,
        )
    )
    return setup, steps


def event_for(game: Game, step: tuple[str, str, int, int], at: int) -> Event:
    command, by, _, pick = step
    args: dict[str, object] = {}
    if command in ("move", "play"):
        board = game.board
        legal = [m.uci() for m in board.legal_moves]
        wild = ["e2e5", "a1h8", "e7e8", "e1g1", "Bb4", "Nf3", "zz", "0-0"]
        pool = legal + wild if legal else wild
        args["move"] = pool[pick % len(pool)]
    elif command == "claim":
        args["claim"] = CLAIMS[pick % len(CLAIMS)]
    elif command == "arbiter":
        by = "arbiter" if pick % 7 else by
        args = dict(ARBITER[pick % len(ARBITER)])
    return Event(at, by, command, args)


@settings(max_examples=150)
@given(sessions())
def test_random_commands_refuse_cleanly_and_refusals_change_nothing(
    session: tuple[dict[str, object], list[tuple[str, str, int, int]]],
) -> None:
    setup, steps = session
    game = Game.create(
        str(setup["edition"]),
        setup["time_control"],  # type: ignore[arg-type]
        board=str(setup["board"]),
        supervision=str(setup["supervision"]),
    )
    game.start(0)
    at = 0
    for step in steps:
        at += step[2]
        event = event_for(game, step, at)
        probe = at + 50_000
        before = fingerprint(game, probe)
        try:
            game.apply(event)
        except GameError as error:
            assert error.code and error.message("es") and error.message("en")
            assert fingerprint(game, probe) == before, f"refused {event} changed the game"
    replayed = Game.from_json(game.to_json())
    assert fingerprint(replayed, at + 50_000) == fingerprint(game, at + 50_000)


@pytest.mark.law("9.1")
def test_a_declined_offer_and_clocks_stopped_by_a_player() -> None:
    game = played(["e4"], "fide-2023", "15+10")
    game.offer_draw("black", 2500)
    assert game.state().pending == "draw-offer"
    game.decline_draw("white", 2600)
    assert game.state().pending == "none"
    game.stop_clocks("black", 3000)
    with pytest.raises(GameError) as caught:
        game.play("black", "e5", 3500)
    assert caught.value.code == "clocks-stopped"
    game.restart_clocks("arbiter", 10_000)
    clock = game.state(10_000).clock
    # Black's clock ran from 1.0 s (White's press) to 3.0 s, then stood still until 10.0 s.
    assert clock is not None and clock.black == 15 * 60_000 - 2000
