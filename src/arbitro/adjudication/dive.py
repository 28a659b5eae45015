"""A goal-directed depth-first search for a mating line (it only ever proves "can mate").

``dive(board, color, limit)`` returns a list of moves from the position to a checkmate given
by ``color``, or ``None``. It never proves "cannot mate": it prunes freely, and a line it
returns is checked move by move by the caller anyway.

The search aims at one mating picture: the loser's king in a corner (of the colour of the
winner's bishops when the winner has bishops of one colour only, or opposite to the loser's
bishops when the winner has none), the winner's king two squares away, the loser's other
pieces next to the corner blocking their own king, and a winner's piece checking. Moves that
bring the position closer to that picture are *rewarded* (they cost nothing), ordinary moves
cost one step, moves that rarely help (the loser capturing, promoting to a heavy piece when
it should block) are *punished* (three steps); an ordinary move right after a rewarded one of
the other side costs half a step. An iterative deepening over the allowed cost then finds
lines where most moves make progress first, however long they are; a table of the positions
already searched with at least the same allowance keeps it from repeating itself, and lines
stop at ``_MAX_PLIES``.

Rewarded moves of the winner: captures, pawn captures, pushes of pawns with no enemy pawn
ahead on their file and promotions (but to a rook or bishop), checks once the loser's king is
next to the corner, the king or a knight coming closer to its target. Rewarded moves of the
loser: the king coming closer to the corner, the other pieces closer to the squares beside
it, pawn moves when the winner's material cannot mate without a man of the loser blocking.
Half the nodes go to a dive towards the corner nearest the loser's king (as it moves), the
rest to dives towards each other corner of the right colour in turn.

A node is a generated move; a move played counts as ``_PUSH_COST`` nodes (playing a move and
generating the replies costs about that much more). Soundness is not at stake here: the dive
never answers "no", and its line is replayed and checked for mate before a "yes". Like the
static analysis, this module is compiled by mypyc where ``setup.py`` can.
"""

from __future__ import annotations

import chess

from arbitro.adjudication.search import KNIGHT_DISTANCES
from arbitro.adjudication.static import AHEAD

_DARK = chess.BB_DARK_SQUARES
_LIGHT = chess.BB_LIGHT_SQUARES
_CORNERS = (chess.A1, chess.H1, chess.A8, chess.H8)
_DIST = [[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES]


# Knight distances between squares: the search's table.
_KNIGHT = KNIGHT_DISTANCES
# The squares beside each corner (on its rank and on its file).
_BESIDE = {
    corner: [
        sq
        for sq in chess.SQUARES
        if chess.square_distance(sq, corner) == 1
        and (sq & 7 == corner & 7 or sq >> 3 == corner >> 3)
    ]
    for corner in _CORNERS
}

# Costs of a move, in half steps: rewarded, ordinary, ordinary right after a rewarded move of
# the other side (a reply to progress), punished.
REWARD, NORMAL, NORMAL_AFTER, PUNISH = 0, 2, 1, 6
_MAX_PLIES = 160

_SHARE = 50  # per cent of the nodes for the dive towards the nearest corner
_NEAR = 1  # checks are rewarded once the loser's king is this close to the corner
_PUSH_COST = 8  # a move played costs as much as this many generated


def _corner_colour(board: chess.Board, color: chess.Color) -> int:
    """The squares the mating corner may be on (a bitboard of one colour or of both)."""
    mine = board.bishops & board.occupied_co[color]
    if mine and not board.occupied_co[color] & (board.knights | board.rooks | board.queens):
        if not mine & _LIGHT:
            return _DARK
        if not mine & _DARK:
            return _LIGHT
    if not mine:
        theirs = board.bishops & board.occupied_co[not color]
        if theirs and not theirs & _DARK:
            return _DARK
        if theirs and not theirs & _LIGHT:
            return _LIGHT
    return chess.BB_ALL


def _needs_blocker(board: chess.Board, color: chess.Color) -> bool:
    """The winner's men cannot mate a lone king: a man of the loser must block."""
    mine = board.occupied_co[color] & ~board.kings
    if mine & (board.pawns | board.rooks | board.queens):
        return False
    if mine & board.knights:
        return chess.popcount(mine) == 1
    bishops = mine & board.bishops
    return not (bishops & _DARK and bishops & _LIGHT)


class _Dive:
    def __init__(self, color: chess.Color, limit: int, fixed: int | None = None) -> None:
        self.color = color
        self.limit = limit
        self.nodes = 0
        self.seen: dict[object, int] = {}
        self.line: list[chess.Move] = []
        self.fixed = fixed

    def corner(self, board: chess.Board, lk: int) -> int:
        if self.fixed is not None:
            return self.fixed
        allowed = _corner_colour(board, self.color)
        best = -1
        for c in _CORNERS:
            if chess.BB_SQUARES[c] & allowed and (best < 0 or _DIST[lk][c] < _DIST[lk][best]):
                best = c
        return best if best >= 0 else chess.A1

    def search(self, board: chess.Board, allowance: int, progress: bool) -> bool:
        if len(self.line) >= _MAX_PLIES:
            return False
        key = board._transposition_key()
        if self.seen.get(key, -1) >= allowance:
            return False
        self.seen[key] = allowance
        color = self.color
        winner_moves = board.turn == color
        lk = board.king(not color)
        assert lk is not None
        corner = self.corner(board, lk)
        theirs = board.occupied_co[not board.turn]
        pawns = board.pawns
        kings = board.kings
        knights = board.knights
        normal = NORMAL_AFTER if progress else NORMAL
        scored: list[tuple[int, chess.Move]] = []
        if winner_moves:
            their_pawns = pawns & theirs
            near = _DIST[lk][corner] <= _NEAR
            occupied = board.occupied
            # squares from which a piece of each kind checks the loser's king (direct checks)
            diag = chess.BB_DIAG_ATTACKS[lk][chess.BB_DIAG_MASKS[lk] & occupied]
            orth = (
                chess.BB_RANK_ATTACKS[lk][chess.BB_RANK_MASKS[lk] & occupied]
                | (chess.BB_FILE_ATTACKS[lk][chess.BB_FILE_MASKS[lk] & occupied])
            )
            checks = {
                chess.PAWN: chess.BB_PAWN_ATTACKS[not color][lk],
                chess.KNIGHT: chess.BB_KNIGHT_ATTACKS[lk],
                chess.BISHOP: diag,
                chess.ROOK: orth,
                chess.QUEEN: diag | orth,
                chess.KING: 0,
            }
            for move in board.generate_legal_moves():
                self.nodes += 1
                frm, to = move.from_square, move.to_square
                bb = chess.BB_SQUARES[frm]
                if bb & pawns:
                    if move.promotion in (chess.ROOK, chess.BISHOP):
                        cost = NORMAL
                    elif frm & 7 != to & 7 or not AHEAD[color][to] & their_pawns:
                        cost = REWARD  # a capture, or a pawn with no enemy pawn ahead
                    else:
                        cost = normal
                elif chess.BB_SQUARES[to] & theirs:
                    cost = REWARD
                elif bb & kings:
                    d = _DIST[to][corner]
                    cost = REWARD if 2 <= d < _DIST[frm][corner] else normal
                else:
                    piece = board.piece_type_at(frm) or 0
                    check = near and chess.BB_SQUARES[to] & checks[piece]
                    closer = bb & knights and 0 < _KNIGHT[to][corner] < _KNIGHT[frm][corner]
                    cost = REWARD if check or closer else normal
                if cost <= allowance:
                    scored.append((cost, move))
        else:
            blocker = _needs_blocker(board, color)
            beside = _BESIDE[corner]
            for move in board.generate_legal_moves():
                self.nodes += 1
                frm, to = move.from_square, move.to_square
                bb = chess.BB_SQUARES[frm]
                if chess.BB_SQUARES[to] & theirs:
                    cost = PUNISH
                elif bb & kings:
                    cost = REWARD if _DIST[to][corner] < _DIST[frm][corner] else normal
                elif bb & pawns:
                    if move.promotion in (chess.QUEEN, chess.ROOK):
                        cost = PUNISH if blocker else normal
                    else:
                        cost = REWARD if blocker else normal
                else:
                    table = _KNIGHT if bb & knights else _DIST
                    before = min(table[frm][b] for b in beside)
                    after = min(table[to][b] for b in beside)
                    cost = REWARD if after < before else normal
                if cost <= allowance:
                    scored.append((cost, move))
        scored.sort(key=lambda item: item[0])
        for cost, move in scored:
            if self.nodes >= self.limit:
                return False
            self.nodes += _PUSH_COST
            board.push(move)
            self.line.append(move)
            if winner_moves and board.is_check() and not any(board.generate_legal_moves()):
                return True
            if (
                board.occupied_co[color] & ~board.kings
                and not (
                    chess.BB_SQUARES[move.to_square] & theirs and board.is_insufficient_material()
                )
                and self.search(board, allowance - cost, cost == REWARD)
            ):
                return True
            self.line.pop()
            board.pop()
        return False

    def run(self, board: chess.Board) -> list[chess.Move] | None:
        allowance = 2
        while self.nodes < self.limit and allowance < 400:
            if self.search(board.copy(stack=False), allowance, False):
                return self.line
            allowance += 2
        return None


def dive(board: chess.Board, color: chess.Color, limit: int) -> list[chess.Move] | None:
    """A mating line by ``color`` found within ``limit`` nodes, else ``None``.

    Half the nodes go to a dive towards the corner nearest the loser's king (as it moves),
    the other half are shared by dives towards each other corner of the right colour.
    """
    first = _SHARE * limit // 100
    line = _Dive(color, first).run(board)
    if line is not None:
        return line
    lk = board.king(not color)
    assert lk is not None
    allowed = _corner_colour(board, color)
    corners = [c for c in _CORNERS if chess.BB_SQUARES[c] & allowed]
    corners.sort(key=lambda c: _DIST[lk][c])
    rest = corners[1:] if len(corners) > 1 else []
    for corner in rest:
        line = _Dive(color, (limit - first) // len(rest), corner).run(board)
        if line is not None:
            return line
    return None
