"""Reading a move made at the board: legal moves, and the displacements of a physical board.

On a wooden board a player can put a piece anywhere: a bishop jumping over a pawn, a king left
in check, a pawn left unpromoted on the last rank. :func:`resolve` turns what a scenario or a
client says (UCI, or SAN in any language of :mod:`arbitro.notation`) into a
:class:`chess.Move` and, for an illegal one, the reason it is illegal.
"""

from __future__ import annotations

import contextlib
import re
from typing import NamedTuple

import chess

from arbitro.errors import GameError
from arbitro.i18n import N_, Text
from arbitro.notation.algebraic import read
from arbitro.notation.letters import NotationError, to_english_san

_BB_SQUARES = chess.BB_SQUARES
_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbnk]?$")
_SAN = re.compile(
    r"^(?P<piece>[NBRQK])?(?P<file>[a-h])?(?P<rank>[1-8])?x?(?P<to>[a-h][1-8])"
    r"(?:=?(?P<promotion>[NBRQK]))?$"
)

#: Why a displacement is illegal: stable codes and their messages.
REASONS: dict[str, str] = {
    "no-move": N_("the clock was pressed without a move"),
    "wrong-way": N_("the piece cannot move that way"),
    "king-left-in-check": N_("the king is left in check"),
    "not-promoted": N_("the pawn reached the last rank and was not promoted"),
    "bad-promotion": N_("a pawn can only become a queen, rook, bishop or knight"),
    "king-capture": N_("a king was captured"),
    "castling-not-allowed": N_("castling is not allowed here"),
}


class Resolved(NamedTuple):
    """A move read from what was said, and the reason it is illegal (``None`` if legal)."""

    move: chess.Move
    reason: str | None = None

    @property
    def legal(self) -> bool:
        return self.reason is None


def resolve(board: chess.Board, text: str | chess.Move, lang: str, physical: bool) -> Resolved:
    """Read ``text`` as a move of the side to move on ``board``.

    :raises GameError: ``illegal-move`` (enforced board), ``ambiguous-move``,
        ``unreadable-move``, ``no-piece`` or ``not-your-piece``.
    """
    if isinstance(text, chess.Move):
        move = text
    else:
        entry = text.strip()
        if len(entry) in (4, 5) and entry[1].isdigit() and _UCI.match(entry.lower()):
            move = chess.Move.from_uci(entry.lower())
        else:
            move = _from_san(board, entry, lang, physical)
            if physical and (not board.is_legal(move) or _takes_king(board, move)):
                return Resolved(move, illegality(board, move))
            return Resolved(move)  # python-chess reads SAN only as legal moves
    reason = illegality(board, move)
    if reason is not None and not physical:
        raise GameError(
            "illegal-move",
            N_("Illegal move {move}: {reason}."),
            article="3.10.1",
            move=str(text),
            reason=Text(REASONS[reason]),
        )
    return Resolved(move, reason)


def _from_san(board: chess.Board, entry: str, lang: str, physical: bool) -> chess.Move:
    if lang == "en":
        # Ordinary moves first, from the pieces that can reach the square; then python-chess's
        # own reader; the notation reader below explains what both refuse.
        move = fast_san(board, entry)
        if move is not None:
            return move
        with contextlib.suppress(ValueError):
            return board.parse_san(entry)
    reading = read(entry, board, lang)
    if reading.ok:
        assert reading.move is not None
        return reading.move
    reason = reading.reason or Text(N_("it cannot be read"))
    if reading.status == "ambiguous":
        raise GameError(
            "ambiguous-move",
            N_("{entry!r} could mean more than one move: {reason}"),
            entry=entry,
            reason=reason,
        )
    if reading.status == "illegal":
        if physical:
            try:
                english = entry if lang == "en" else to_english_san(entry, lang)
            except NotationError:
                english = None
            displaced = _displacement(board, english) if english else None
            if displaced is not None:
                return displaced
            raise GameError(
                "unreadable-move",
                N_("{entry!r} does not say which piece was moved; write it as UCI (e2e4)."),
                entry=entry,
            )
        raise GameError(
            "illegal-move",
            N_("{entry!r} is not a legal move here: {reason}"),
            article="3.10.1",
            entry=entry,
            reason=reason,
        )
    raise GameError(
        "unreadable-move",
        N_("{entry!r} cannot be read as a move: {reason}"),
        entry=entry,
        reason=reason,
    )


class _Form(NamedTuple):
    """What an ordinary SAN says, whatever the position: the piece, the target square, the
    squares it may come from (a file or rank written), for a pawn the file written (-1: none)
    and the promotion."""

    piece: chess.PieceType
    to: chess.Square
    origins: chess.Bitboard
    file: int
    promotion: chess.PieceType | None


# What parse_san accepts after the square for a promotion (a king is never a legal one).
_PROMOTIONS = {
    mark + letter: chess.PIECE_SYMBOLS.index(letter.lower())
    for mark in ("", "=")
    for letter in "NBRQnbrq"
}
_SQUARE_INDEX = {name: index for index, name in enumerate(chess.SQUARE_NAMES)}

#: The forms of the SAN texts read so far (None: not an ordinary SAN); a replay reads the same
#: few hundred texts again and again.
_FORMS: dict[str, _Form | None] = {}
_FORMS_KEPT = 20_000


def _form(san: str) -> _Form | None:
    if san in _FORMS:
        return _FORMS[san]
    form = _read_form(san)
    if len(_FORMS) < _FORMS_KEPT:
        _FORMS[san] = form
    return form


def _read_form(san: str) -> _Form | None:
    match = chess.SAN_REGEX.match(san)
    if match is None:
        return None
    letter, file, rank, target, promotion = match.groups()
    to = _SQUARE_INDEX[target]
    if letter is not None:
        if promotion is not None:
            return None
        origins = chess.BB_ALL
        if file is not None:
            origins &= chess.BB_FILES[ord(file) - 97]
        if rank is not None:
            origins &= chess.BB_RANKS[int(rank) - 1]
        return _Form(chess.PIECE_SYMBOLS.index(letter.lower()), to, origins, -1, None)
    promoted = None
    if promotion is not None:
        promoted = _PROMOTIONS.get(promotion)
        if promoted is None:
            return None
    column = -1 if file is None else ord(file) - 97
    if rank is not None or (column >= 0 and abs(column - chess.square_file(to)) != 1):
        return None
    return _Form(chess.PAWN, to, chess.BB_ALL, column, promoted)


def fast_san(board: chess.Board, san: str) -> chess.Move | None:
    """The legal move an ordinary English SAN names (``Nf3``, ``Rae1``, ``exd5``, ``e8=Q+``),
    or ``None`` to leave the answer to :meth:`chess.Board.parse_san`.

    ``parse_san`` generates every legal move of the pieces of the right kind to find the one
    meant; here only the pieces that can reach the target square are tried (from the attack
    pattern of that square). Each candidate is a pseudo-legal move by construction, so it is
    legal unless it leaves the king in check, which python-chess's own test decides. Whenever
    a move is returned it is the one ``parse_san`` returns; castling, fully specified moves,
    king promotions, and moves that are illegal, ambiguous or unreadable give ``None``.
    """
    form = _form(san)
    if form is None:
        return None
    piece, to, origins, file, promoted = form
    bit = _BB_SQUARES[to]
    turn = board.turn
    own = board.occupied_co[turn]
    if own & bit:
        return None
    if piece != chess.PAWN:
        found = None
        for origin in chess.scan_forward(origins & own & _reaching(board, piece, to)):
            move = chess.Move(origin, to)
            if _safe(board, move):
                if found is not None:
                    return None  # ambiguous: parse_san says why
                found = move
        return found
    if (promoted is not None) != bool(bit & (chess.BB_RANK_8 if turn else chess.BB_RANK_1)):
        return None
    pawns = board.pawns & own
    back = -8 if turn else 8
    origin = to + back
    if not 0 <= origin < 64:
        return None
    if file < 0:
        # A step or a double step straight ahead, onto an empty square.
        if board.occupied & bit:
            return None
        if not pawns & _BB_SQUARES[origin]:
            double = origin + back
            if (
                board.occupied & _BB_SQUARES[origin]
                or to >> 3 != (3 if turn else 4)
                or not pawns & _BB_SQUARES[double]
            ):
                return None
            origin = double
    else:
        # A capture from the next file, onto a piece of the opponent or en passant (onto the
        # empty square behind a pawn that has just made a double step).
        origin += file - (to & 7)
        if not pawns & _BB_SQUARES[origin] or not (
            board.occupied_co[not turn] & bit
            or (to == board.ep_square and to >> 3 == (5 if turn else 2))
        ):
            return None
    move = chess.Move(origin, to, promoted)
    return move if _safe(board, move) else None


def _safe(board: chess.Board, move: chess.Move) -> bool:
    """Whether a pseudo-legal move of the side to move is legal: ``not board.is_into_check``
    (python-chess's is_legal without its pseudo-legality test, for pawns a generation of pawn
    moves), with its steps written out so that the usual case skips the search for pins."""
    turn = board.turn
    king = board.king(turn)
    if king is None:
        return True
    if board.attackers_mask(not turn, king):
        return not board.is_into_check(move)  # in check: python-chess's test of evasions
    origin = move.from_square
    if origin != king and not chess.BB_RAYS[king][origin] and not board.is_en_passant(move):
        return True  # off every line through the king: it cannot be pinned
    return board._is_safe(king, board._slider_blockers(king), move)


def _reaching(board: chess.Board, piece: chess.PieceType, to: chess.Square) -> chess.Bitboard:
    """The pieces of type ``piece`` (either colour) that attack ``to``: moves are symmetric,
    so they are the squares such a piece on ``to`` would attack."""
    occupied = board.occupied
    if piece == chess.KNIGHT:
        reach = chess.BB_KNIGHT_ATTACKS[to]
        return reach & board.knights
    if piece == chess.KING:
        return chess.BB_KING_ATTACKS[to] & board.kings
    diagonal = chess.BB_DIAG_ATTACKS[to][chess.BB_DIAG_MASKS[to] & occupied]
    straight = (
        chess.BB_RANK_ATTACKS[to][chess.BB_RANK_MASKS[to] & occupied]
        | chess.BB_FILE_ATTACKS[to][chess.BB_FILE_MASKS[to] & occupied]
    )
    if piece == chess.BISHOP:
        return diagonal & board.bishops
    if piece == chess.ROOK:
        return straight & board.rooks
    return (diagonal | straight) & board.queens


def _displacement(board: chess.Board, english: str) -> chess.Move | None:
    """The one piece that could have made an illegal SAN move, by the pattern of its moves
    alone (ignoring pieces in the way, pins and check); ``None`` if none or several."""
    english = english.rstrip("+#!?")
    if english.startswith("O-O"):
        rank = 0 if board.turn == chess.WHITE else 7
        king = chess.square(4, rank)
        target = chess.square(2 if english == "O-O-O" else 6, rank)
        return chess.Move(king, target) if board.piece_at(king) else None
    match = _SAN.match(english)
    if match is None:
        return None
    to = chess.parse_square(match.group("to"))
    letter = match.group("piece")
    piece_type = chess.PIECE_SYMBOLS.index(letter.lower()) if letter else chess.PAWN
    promotion = match.group("promotion")
    # A pawn moves sideways only to capture; SAN then names its file.
    capture = "x" in english or (piece_type == chess.PAWN and match.group("file") is not None)
    candidates = []
    for square in board.pieces(piece_type, board.turn):
        if match.group("file") and chess.square_file(square) != "abcdefgh".index(
            match.group("file")
        ):
            continue
        if match.group("rank") and chess.square_rank(square) != int(match.group("rank")) - 1:
            continue
        if _pattern_reaches(piece_type, board.turn, square, to, capture):
            candidates.append(square)
    if len(candidates) != 1:
        return None
    promoted = chess.PIECE_SYMBOLS.index(promotion.lower()) if promotion else None
    return chess.Move(candidates[0], to, promoted)


def _pattern_reaches(
    piece_type: chess.PieceType,
    color: chess.Color,
    start: chess.Square,
    to: chess.Square,
    capture: bool,
) -> bool:
    if start == to:
        return False
    df = chess.square_file(to) - chess.square_file(start)
    dr = chess.square_rank(to) - chess.square_rank(start)
    if piece_type == chess.PAWN:
        forward = 1 if color == chess.WHITE else -1
        if capture:
            return abs(df) == 1 and dr == forward
        home = 1 if color == chess.WHITE else 6
        return df == 0 and (
            dr == forward or (dr == 2 * forward and chess.square_rank(start) == home)
        )
    if piece_type == chess.KNIGHT:
        return {abs(df), abs(dr)} == {1, 2}
    if piece_type == chess.BISHOP:
        return abs(df) == abs(dr)
    if piece_type == chess.ROOK:
        return df == 0 or dr == 0
    if piece_type == chess.QUEEN:
        return df == 0 or dr == 0 or abs(df) == abs(dr)
    return max(abs(df), abs(dr)) == 1 or (dr == 0 and abs(df) == 2)


def _takes_king(board: chess.Board, move: chess.Move) -> bool:
    return bool(board.kings & board.occupied_co[not board.turn] & chess.BB_SQUARES[move.to_square])


def illegality(board: chess.Board, move: chess.Move) -> str | None:
    """Why ``move`` is illegal for the side to move (a :data:`REASONS` key), or ``None``.

    :raises GameError: ``no-piece`` or ``not-your-piece`` (not a displacement of one's own
        piece: nothing a game can record).
    """
    if move == chess.Move.null():
        return "no-move"
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise GameError(
            "no-piece",
            N_("There is no piece on {square}."),
            square=chess.square_name(move.from_square),
        )
    if piece.color != board.turn:
        raise GameError(
            "not-your-piece",
            N_("The piece on {square} is not yours."),
            square=chess.square_name(move.from_square),
        )
    if _takes_king(board, move):
        # python-chess lets a king left in check be taken; the Laws never do.
        return "king-capture"
    if board.is_legal(move):
        return None
    if move.promotion in (chess.KING, chess.PAWN):
        return "bad-promotion"
    last_rank = chess.square_rank(move.to_square) in (0, 7)
    promotes = chess.Move(move.from_square, move.to_square, chess.QUEEN)
    if (
        piece.piece_type == chess.PAWN
        and last_rank
        and move.promotion is None
        and board.is_legal(promotes)
    ):
        return "not-promoted"
    if board.is_pseudo_legal(move):
        return "king-left-in-check"
    if (
        piece.piece_type == chess.KING
        and chess.square_distance(move.from_square, move.to_square) == 2
    ):
        return "castling-not-allowed"
    return "wrong-way"
