"""Two boards that differ, corrected from both scoresheets (Appendix F, blind players).

A visually impaired player plays on his own board while the opponent uses a normal one, and
both keep a scoresheet. In the 2001 text (seed ``000_...``, F2 items 7 and 8; the same two
paragraphs close the rules of F2 in seed ``002_...``):

- **F2.7** If the positions on the two boards differ, they are corrected with the arbiter's
  help, consulting both scoresheets. If the scoresheets agree, the player who wrote the right
  move but made another on his board adjusts his board to the move on the scoresheets.
- **F2.8** If the scoresheets differ, the moves are taken back to the last point where both
  scoresheets agree, and the arbiter adjusts the clocks accordingly.

Positions are compared, not move orders: two boards that reached the same position by a
transposition do not differ. A scoresheet that is only *behind* the other (its moves are the
first moves of the other's: a move not yet written) is taken literally — both scoresheets
agree only as far as both go, so the moves written on one sheet alone are taken back (F2.8);
:attr:`Decision.behind` says which sheet was behind.

>>> d = reconcile("1.e4 e5 2.Nf3 Nc6", "1.e4 e5 2.Nf3 Nf6", sheet_a="1.e4 e5 2.Nf3 Nf6")
>>> d.kind, d.article, d.ply, d.moves, d.to_move
('adjust-a', 'F2.7', 3, '1. e4 e5 2. Nf3 Nf6', 'white')
>>> d.explain()
'Both scoresheets agree; board A differs from them from move 2... on: the player of board A ...'
>>> d = reconcile("1.e4 e5 2.Nf3", "1.e4 e5 2.Nc3", lang="es")
>>> d.kind, d.article, d.ply, d.moves
('take-back', 'F2.8', 2, '1. e4 e5')
>>> d.fen
'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import chess

from arbitro.i18n import N_, Text
from arbitro.notation.letters import NotationError
from arbitro.notation.movetext import read_movetext, write_movetext

__all__ = ["Decision", "Kind", "reconcile"]

Kind = Literal["same", "adjust-a", "adjust-b", "adjust-both", "take-back"]

#: The articles of the 2001 text (seed ``000_...``, Appendix F, F2 items 7 and 8).
ARTICLE_ADJUST = "F2.7"
ARTICLE_TAKE_BACK = "F2.8"

_MESSAGES: dict[str, str] = {
    "same": N_("The positions on both boards are the same: nothing is corrected."),
    "adjust-a": N_(
        "Both scoresheets agree; board A differs from them from move {number} on: "
        "the player of board A sets it up as the scoresheets give it."
    ),
    "adjust-b": N_(
        "Both scoresheets agree; board B differs from them from move {number} on: "
        "the player of board B sets it up as the scoresheets give it."
    ),
    "adjust-both": N_(
        "Both scoresheets agree, but neither board matches them (from move {number} on): "
        "both players set up their boards as the scoresheets give it."
    ),
    "take-back": N_(
        "The scoresheets differ from move {number} on: the moves are taken back to the last "
        "position where both agree, and the arbiter adjusts the clocks."
    ),
    "behind-a": N_(
        "Scoresheet A does not yet have move {number} and later, so both scoresheets agree "
        "only up to there: the moves after it are taken back, and the arbiter adjusts the "
        "clocks."
    ),
    "behind-b": N_(
        "Scoresheet B does not yet have move {number} and later, so both scoresheets agree "
        "only up to there: the moves after it are taken back, and the arbiter adjusts the "
        "clocks."
    ),
}

_WHERE = {
    "board_a": N_("board A"),
    "board_b": N_("board B"),
    "sheet_a": N_("scoresheet A"),
    "sheet_b": N_("scoresheet B"),
}


@dataclass(frozen=True, slots=True)
class Decision:
    """What the arbiter does when the two boards of a game with a blind player differ.

    - ``kind``: ``"same"`` (the boards show the same position), ``"adjust-a"``,
      ``"adjust-b"`` or ``"adjust-both"`` (the scoresheets agree; that board, or both, is set
      up as the scoresheets give it, F2.7), ``"take-back"`` (the scoresheets differ; play goes
      back to the last position where both agree, F2.8);
    - ``ply``: the 0-based half-move where things diverge — for ``same``, the number of
      half-moves played (the next one); for an adjustment, the first half-move where the
      board(s) left the scoresheets; for ``take-back``, the first half-move the scoresheets
      do not share;
    - ``fen``: the position to set up on both boards; ``moves``: the agreed moves up to it, as
      movetext in the notation language; ``to_move``: ``"white"`` or ``"black"``;
    - ``article``: ``"F2.7"`` or ``"F2.8"`` (2001 text, Appendix F);
    - ``behind``: for a take-back where one scoresheet only lacks the last moves, which one
      (``"a"`` or ``"b"``); otherwise ``None``.
    """

    kind: Kind
    ply: int
    fen: str
    moves: str
    to_move: Literal["white", "black"]
    article: str
    behind: Literal["a", "b"] | None = None
    text: Text = field(default=Text(""), compare=False, repr=False)

    def explain(self, lang: str = "en") -> str:
        """The decision as one sentence in ``lang`` (English where no catalog has it)."""
        return self.text.translate(lang)

    def reason(self, lang: str = "en") -> str:
        """The same sentence as :meth:`explain`."""
        return self.explain(lang)


def _read(text: str, lang: str, where: str) -> tuple[chess.Move, ...]:
    try:
        return read_movetext(text, lang).moves
    except NotationError as error:
        raise NotationError(
            N_("{where}: {message}"),
            code=error.code,
            article=error.article,
            where=Text(_WHERE[where]),
            message=error.text,
        ) from error


def _common(first: Sequence[chess.Move], second: Sequence[chess.Move]) -> int:
    """The length of the longest common prefix."""
    count = 0
    for one, other in zip(first, second, strict=False):
        if one != other:
            break
        count += 1
    return count


def _position(moves: Sequence[chess.Move]) -> chess.Board:
    board = chess.Board()
    for move in moves:
        board.push(move)
    return board


def _number(ply: int) -> str:
    """``"3."`` for White's third move (ply 4), ``"3..."`` for Black's (ply 5)."""
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"


def _decision(
    kind: Kind,
    ply: int,
    moves: Sequence[chess.Move],
    lang: str,
    message: str,
    *,
    behind: Literal["a", "b"] | None = None,
) -> Decision:
    board = _position(moves)
    return Decision(
        kind=kind,
        ply=ply,
        fen=board.fen(),
        moves=write_movetext(moves, lang),
        to_move="white" if board.turn == chess.WHITE else "black",
        article=ARTICLE_TAKE_BACK if kind == "take-back" else ARTICLE_ADJUST,
        behind=behind,
        text=Text(_MESSAGES[message], {"number": _number(ply)}),
    )


def reconcile(
    board_a: str,
    board_b: str,
    sheet_a: str | None = None,
    sheet_b: str | None = None,
    lang: str = "en",
) -> Decision:
    """Decide how two differing boards are corrected from both scoresheets (F2.7, F2.8).

    Every argument is movetext in ``lang`` from the initial position: the moves as made on
    board A and board B, and as written on scoresheets A and B (a scoresheet not given is
    taken to be the moves of that player's board).

    :raises NotationError: for an entry that cannot be read, naming the board or scoresheet,
        the move number, the entry and why.

    >>> reconcile("1.d4 Cf6", "1.d4 Cf6", lang="es").kind
    'same'
    >>> reconcile("1.e4 e5", "1.e4 e6", "1.e4 e5", "1.e4 e5").kind
    'adjust-b'
    """
    moves_a = _read(board_a, lang, "board_a")
    moves_b = _read(board_b, lang, "board_b")
    written_a = moves_a if sheet_a is None else _read(sheet_a, lang, "sheet_a")
    written_b = moves_b if sheet_b is None else _read(sheet_b, lang, "sheet_b")

    position_a = _position(moves_a).epd()
    position_b = _position(moves_b).epd()
    if position_a == position_b:
        return _decision("same", len(moves_a), moves_a, lang, "same")

    common = _common(written_a, written_b)
    if common < len(written_a) or common < len(written_b):
        agreed = written_a[:common]
        behind: Literal["a", "b"] | None = None
        message = "take-back"
        if common == len(written_a):
            behind, message = "a", "behind-a"
        elif common == len(written_b):
            behind, message = "b", "behind-b"
        return _decision("take-back", common, agreed, lang, message, behind=behind)

    agreed = written_a
    position = _position(agreed).epd()
    wrong_a = position_a != position
    wrong_b = position_b != position
    plies = []
    if wrong_a:
        plies.append(_common(moves_a, agreed))
    if wrong_b:
        plies.append(_common(moves_b, agreed))
    kind: Kind = "adjust-both" if wrong_a and wrong_b else "adjust-a" if wrong_a else "adjust-b"
    return _decision(kind, min(plies), agreed, lang, kind)
