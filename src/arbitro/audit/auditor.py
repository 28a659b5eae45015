"""Auditing one recorded game with the Laws engine.

:func:`audit_game` replays the game's mainline through :class:`~arbitro.game.Game` under the
edition given (or the one in force on the game's date), with the recorded clocks where the game
has them, and reports:

- ``illegal-move``: the first move that cannot be played (the replay stops there);
- ``moves-after-end``: the first move played after the game had ended by itself (checkmate,
  stalemate, dead position, fivefold repetition, 75 moves);
- ``wrong-result``: the recorded result differs from the one the Laws give — the end above, or
  a loss on time recorded against a side whose opponent could not checkmate (a draw, 6.9);
- ``threefold-claimable`` / ``fifty-moves-claimable``: the first half-move with which the
  player to move could have claimed (9.2, 9.3) while the game went on; ``ply`` is that
  half-move (the claimant's next move), ``move`` the move he would have declared when the
  claim needs one;
- ``unreadable-game``: text the PGN reader cannot make a game of.

A game whose recorded clocks run out before its last move (rounding in the source) is replayed
again without clocks: a server that let the game go on did not see a flag.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import chess

from arbitro.adjudication import can_checkmate
from arbitro.audit.findings import Finding
from arbitro.editions import Edition, FlagDrawRule
from arbitro.errors import ArbitroError
from arbitro.game import Game, GameSetup
from arbitro.notation.pgn import (
    MainlineRecord,
    control_for,
    edition_for,
    read_mainline,
    read_plain_mainline,
)

#: Ends the engine decides by itself: moves after them should not exist.
AUTOMATIC_ENDS = frozenset(
    {"checkmate", "stalemate", "dead-position", "fivefold-repetition", "seventy-five-moves"}
)
_FLAG_ENDS = frozenset({"time-forfeit", "time-forfeit-draw", "both-flags"})
_DECISIVE = {"1-0": chess.WHITE, "0-1": chess.BLACK}
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})

# What a movetext may hold besides moves: comments, NAGs, numbers, results, variations.
_NOISE = re.compile(
    r"\{[^}]*\}|;[^\n]*|\$\d+|\d+\s*\.(?:\s*\.)*|1-0|0-1|1/2-1/2|\*|[()]|[!?]{1,2}|\s+"
)
_SAN_TOKEN = re.compile(
    r"(?:[NBKRQ]?[a-h]?[1-8]?[\-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?|O-O(?:-O)?|0-0(?:-0)?|--)[+#]?"
)


def audit_text(text: str, *, file: str, game: int, edition: Edition | None = None) -> list[Finding]:
    """Audit the PGN text of one game (its tags and movetext)."""
    # A game in the plain form of exports has nothing _unreadable could object to: its words
    # are moves, numbers, NAGs and results, its comments close on their line.
    record = read_plain_mainline(text)
    if record is None:
        broken = _unreadable(text)
        if broken is not None:
            return [Finding(file, game, None, "unreadable-game", "", "", broken)]
        try:
            record = read_mainline(io.StringIO(text))
        except (ValueError, KeyError) as error:  # python-chess gives up on some inputs
            return [Finding(file, game, None, "unreadable-game", "", "", str(error))]
        if record is None:
            return []
    return audit_record(record, file=file, game=game, edition=edition)


def _unreadable(text: str) -> str | None:
    """Why the text is no game (an open comment or variation, stray words), or None."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("["))
    if body.count("{") != body.count("}"):
        return "a comment is never closed"
    words = _NOISE.sub(" ", re.sub(r"\{[^}]*\}", " ", body)).split()
    stray = [word for word in words if not _SAN_TOKEN.fullmatch(word)]
    if stray:
        return f"not a move: {stray[0]!r}"
    if not body.strip() and not text.strip().startswith("["):
        return "no tags and no moves"
    return None


def audit_record(
    record: MainlineRecord, *, file: str, game: int, edition: Edition | None = None
) -> list[Finding]:
    """Audit a game already read (see the module doc)."""
    headers = record.headers
    chosen = edition or edition_for(headers)
    if record.errors:
        return [Finding(file, game, None, "unreadable-game", chosen.id, "", record.errors[0])]
    variant = headers.get("Variant", "Standard").lower()
    if variant not in ("standard", "", "from position"):
        detail = f"variant {headers.get('Variant')!r} is not audited"
        return [Finding(file, game, None, "unsupported-variant", chosen.id, "", detail)]
    try:
        run = _Run(record, chosen, use_clock=True)
        if run.flagged_early:
            run = _Run(record, chosen, use_clock=False)
    except ArbitroError as error:  # a setup that cannot be built: a bad FEN tag
        return [Finding(file, game, None, "unreadable-game", chosen.id, "", error.message())]
    return run.findings(file, game)


class _Run:
    """One replay of a record, with the claims that were possible along the way."""

    def __init__(self, record: MainlineRecord, edition: Edition, *, use_clock: bool) -> None:
        self.record = record
        self.edition = edition
        headers = record.headers
        control = control_for(headers)
        timed = use_clock and control.is_timed and record.has_clocks and not control.is_hourglass
        fen = headers.get("FEN")
        setup = GameSetup.create(
            edition, control if timed else None, kind=None if timed else "standard", start=fen
        )
        game = Game(setup)
        self.game = game
        self.stopped_at: int | None = None
        self.error: ArbitroError | None = None
        self.flagged_early = False
        self.claims: dict[str, tuple[int, chess.Move | None, chess.Color]] = {}
        game.start(0)
        turn = game.board.turn
        at = 0
        remaining = [control.initial_ms, control.initial_ms] if timed else None
        increment = control.periods[0].increment_ms if timed else 0
        want_threefold = want_fifty = True
        sans = record.sans
        clocks = record.clocks
        last = len(sans) - 1
        for index, san in enumerate(sans):
            if remaining is not None:
                clock_after = clocks[index]
                assert clock_after is not None
                at += max(0, remaining[turn] - clock_after + increment)
                remaining[turn] = clock_after
            else:
                at += 1000
            try:
                # play() with the next move read ahead (see Game.replay_move)
                game.replay_move(turn, san, at, sans[index + 1] if index < last else None)
            except ArbitroError as error:
                self.stopped_at = index
                self.error = error
                ended = game.outcome()
                if ended is not None and ended.termination in _FLAG_ENDS:
                    self.flagged_early = True
                return
            turn = not turn
            if want_threefold or want_fifty:
                claim = game.claimable(threefold=want_threefold, fifty=want_fifty)
                if claim is not None:
                    kind, move = claim
                    # the claim goes with half-move index + 2 (1-based), by the side to move
                    self.claims[kind] = (index + 2, move, turn)
                    if kind == "threefold":
                        want_threefold = False
                    else:
                        want_fifty = False

    def findings(self, file: str, index: int) -> list[Finding]:
        edition = self.edition
        game = self.game
        record = self.record
        found: list[Finding] = []

        def add(ply: int | None, code: str, article: str, detail: str, **extra: object) -> None:
            found.append(Finding(file, index, ply, code, edition.id, article, detail, extra))

        recorded = record.result if record.result in _RESULTS else "*"
        outcome = game.outcome()
        played = len(record.sans) if self.stopped_at is None else self.stopped_at
        for kind, (ply, move, claimant) in sorted(self.claims.items(), key=lambda kv: kv[1][0]):
            if ply > played and recorded == "1/2-1/2":
                continue  # claimable only at the end of a drawn game: it was claimed
            board = self._board_before(ply - 1)
            declared = board.san(move) if move is not None else None
            rule = "threefold-repetition" if kind == "threefold" else "fifty-moves"
            who = "White" if claimant else "Black"
            detail = f"{who} could claim a draw ({rule.replace('-', ' ')})" + (
                f" by declaring {declared}" if declared else ""
            )
            add(
                ply,
                f"{kind}-claimable" if kind == "threefold" else "fifty-moves-claimable",
                edition.article(rule),
                detail,
                claimant="white" if claimant else "black",
                move=declared,
            )
        error = self.error
        if error is not None and error.code != "game-over":
            san = record.sans[self.stopped_at or 0]
            add(
                (self.stopped_at or 0) + 1,
                "illegal-move",
                error.article or edition.article("illegal-move"),
                f"{san}: {error.message()}",
                move=san,
            )
            return found
        if outcome is None:
            self._time_forfeit(recorded, add)
            return found
        termination = outcome.termination
        if error is not None:  # moves after an end the engine saw
            san = record.sans[self.stopped_at or 0]
            add(
                (self.stopped_at or 0) + 1,
                "moves-after-end",
                outcome.article or edition.article(termination),
                f"{san} was played after the game had ended ({termination.replace('-', ' ')})",
                termination=termination,
            )
        if termination in AUTOMATIC_ENDS and recorded != outcome.result:
            add(
                None if error is None else (self.stopped_at or 0) + 1,
                "wrong-result",
                outcome.article or edition.article(termination),
                f"recorded {recorded}, but the game ended in {outcome.result} "
                f"({termination.replace('-', ' ')})",
                expected=outcome.result,
                recorded=recorded,
                termination=termination,
            )
        return found

    def _time_forfeit(self, recorded: str, add: Callable[..., None]) -> None:
        """A loss on time recorded against a side whose opponent cannot checkmate."""
        termination = self.record.headers.get("Termination", "").lower()
        if recorded not in _DECISIVE or not (
            "time forfeit" in termination or "on time" in termination
        ):
            return
        winner = _DECISIVE[recorded]
        if not _cannot_win_on_time(self.game, winner):
            return
        rule = "time-forfeit-draw"
        add(
            None,
            "wrong-result",
            self.edition.article(rule),
            f"recorded {recorded} on time, but {'White' if winner else 'Black'} could not "
            "checkmate: a draw",
            expected="1/2-1/2",
            recorded=recorded,
            termination=rule,
        )

    def _board_before(self, plies: int) -> chess.Board:
        board = chess.Board(self.game.setup.start_fen)
        for ply in self.game.plies[:plies]:
            board.push(ply.move)
        return board


def _cannot_win_on_time(game: Game, winner: chess.Color) -> bool:
    """Whether the flag fall recorded against ``winner``'s opponent is a draw (6.9).

    The static analysis first; then the search, but only where the position is small enough
    (no pawns and at most two other pieces besides the kings, or no pawn free to step forward)
    for an exhaustive search to prove "cannot mate" — in a larger position the search can only
    find a mate or give up, and either way the recorded loss stands. That keeps the audit fast
    on the thousands of ordinary losses on time of an online database: over the reference
    corpus, searching positions with pawns free to move took a fifth of the whole audit and
    never proved a draw (the static analysis proves the draws that blocked pawns make).
    """
    if game.edition.flag_draw_rule is FlagDrawRule.BARE_MATERIAL:
        return game.cannot_win_on_time(winner)
    board = game.board
    if can_checkmate(board, winner, "quick").answer == "no":
        return True
    pieces = board.occupied & ~board.kings & ~board.pawns
    white_pawns = board.pawns & board.occupied_co[chess.WHITE]
    black_pawns = board.pawns & board.occupied_co[chess.BLACK]
    pawns_stuck = not ((white_pawns << 8) & chess.BB_ALL & ~board.occupied) and not (
        (black_pawns >> 8) & ~board.occupied
    )
    if not ((chess.popcount(pieces) <= 2 and not board.pawns) or pawns_stuck):
        return False
    # Most small positions have a mate close by: a short search finds it cheaply.
    short = can_checkmate(board, winner, "full", SHORT_SEARCH)
    if short.answer != "unknown":
        return short.answer == "no"
    return can_checkmate(board, winner, "full").answer == "no"


#: Nodes of the first, short search for a mate in a small position.
SHORT_SEARCH = 500
