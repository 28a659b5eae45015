"""A sound static analysis: proofs that a side can never checkmate.

``prove_cannot_mate(board, color)`` returns a reason (a short English sentence) when it proves
that ``color`` cannot checkmate by any series of legal moves, and ``None`` when it cannot prove
it. It must never return a reason for a position where a mate exists.

The question is the one of the Laws (5.2.2, 6.9): is there *any* series of legal moves, the
opponent cooperating, that ends with the opponent of ``color`` checkmated? Every rule below is
an over-approximation of what can ever happen on the board, so "no mate in the
over-approximation" implies "no mate in the game".

The analysis, in order:

1. Material (python-chess ``has_insufficient_material``): lone king, king and one minor
   piece, or only bishops of one square colour on the board.
2. Hypotheses, as a greatest fixed point. S: pawns that never capture. P: non-king pieces
   that are never captured. From them follow the walls W (pieces that never move and are
   never captured): a pawn of S and P whose front square is a wall; a piece of P whose every
   step square holds a wall of its colour; a king whose every neighbour holds a wall of its
   colour or is attacked by an enemy wall. Then, with the walls as the only obstacles (other
   pieces are ignored, which only enlarges the result), flood fills give where each piece can
   ever go: a king never onto a square a wall attacks (that would be moving into check); a
   pawn of S only forward on its file, never into a wall nor past a pawn of S and P ahead on
   its file (an enemy one only comes closer, an own one stays ahead) nor past a king whose
   fill lies on that file; other pawns forward and diagonally; a pawn reaching the last rank
   adds a queen (covering rook and bishop) and a knight there. The hypotheses are checked: a
   pawn of S is dropped when an enemy non-king piece may ever stand on a square it attacks
   (the square passed by a double step counts, so en passant is included); a piece of P is
   dropped when an enemy piece (other than pawns of S) may ever attack a square it may stand
   on, or the enemy king may and no wall of its colour guards that square, or it is the pawn
   that just made a double step and may be taken en passant. Repeat until nothing is dropped.
   Soundness, by the first failure: take the first move of a game that breaks a hypothesis or
   moves a wall. Before it every hypothesis held, so every piece stayed in its fill (by
   induction on the moves). The move cannot move a wall (its way is blocked by walls, which
   have not moved), nor be a capture by a pawn of S (the captured piece stood in its own fill,
   on a square the pawn attacks: the pawn would have been dropped), nor capture a piece of P
   (the capturer attacks a square of its fill; a king cannot take a piece a wall guards).
3. Mate squares. In that world a mate on a square ``k`` needs ``k`` in the defending king's
   fill and a checker: some non-king piece of ``color`` attacking ``k`` from its fill (a wall
   only on the king's present square: the king cannot return to a square a wall attacks).
   Every neighbour of ``k`` must be unavailable to the king: a wall, attacked by a non-king
   piece or a wall of ``color``, attacked by ``color``'s king (then at distance exactly 2 from
   ``k``, covering only the neighbours next to it), or occupied by a defending piece (each
   covers one square of its own fill; a matching decides). If no ``k`` passes, no mate
   exists. This one test covers "no piece can ever reach the enemy king's side" and "bishops
   of one colour cannot cover the escape squares of the other colour".
4. Short forced lines: when the side to move has at most two legal moves, every continuation
   is tried (a checkmate of ``color``'s king or a stalemate ends the game without ``color``
   mating); the position is proved when every continuation is.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

import chess

_ALL = chess.BB_ALL
_NOT_A = _ALL & ~chess.BB_FILE_A
_NOT_H = _ALL & ~chess.BB_FILE_H

Step = Callable[[int], int]


def _east(b: int) -> int:
    return (b & _NOT_H) << 1


def _west(b: int) -> int:
    return (b & _NOT_A) >> 1


def _king_step(b: int) -> int:
    side = _east(b) | _west(b)
    row = b | side
    return (side | (row << 8) | (row >> 8)) & _ALL


def _diag_step(b: int) -> int:
    side = _east(b) | _west(b)
    return ((side << 8) | (side >> 8)) & _ALL


def _orth_step(b: int) -> int:
    return ((b << 8) | (b >> 8) | _east(b) | _west(b)) & _ALL


def _knight_step(b: int) -> int:
    e1 = _east(b)
    w1 = _west(b)
    one = e1 | w1
    two = _east(e1) | _west(w1)
    return ((one << 16) | (one >> 16) | (two << 8) | (two >> 8)) & _ALL


def _white_pawn_attacks(b: int) -> int:
    return ((_east(b) | _west(b)) << 8) & _ALL


def _black_pawn_attacks(b: int) -> int:
    return (_east(b) | _west(b)) >> 8


def _white_pawn_step(b: int) -> int:
    return ((b | _east(b) | _west(b)) << 8) & _ALL


def _black_pawn_step(b: int) -> int:
    return (b | _east(b) | _west(b)) >> 8


def _fill(start: int, step: Step, allowed: int) -> int:
    """Squares reachable from ``start`` by repeated ``step`` inside ``allowed``."""
    region = start
    while True:
        grown = region | (step(region) & allowed)
        if grown == region:
            return region
        region = grown


_PAWN_ATTACKS: dict[bool, Step] = {
    chess.WHITE: _white_pawn_attacks,
    chess.BLACK: _black_pawn_attacks,
}
_PAWN_STEP: dict[bool, Step] = {chess.WHITE: _white_pawn_step, chess.BLACK: _black_pawn_step}
_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}

# For each square k: the squares at king distance exactly 2 from k.
_RING2 = [
    sum(chess.BB_SQUARES[s] for s in chess.SQUARES if chess.square_distance(s, k) == 2)
    for k in chess.SQUARES
]


def _frozen_attacks(board: chess.Board, frozen: int, color: chess.Color) -> int:
    """Squares attacked for ever by the frozen pieces (walls) of ``color``.

    A frozen slider has only frozen pieces of its own colour next to it along its lines, so
    it attacks exactly its neighbours on those lines.
    """
    own = frozen & board.occupied_co[color]
    if not own:
        return 0
    return (
        _PAWN_ATTACKS[color](own & board.pawns)
        | _knight_step(own & board.knights)
        | _diag_step(own & (board.bishops | board.queens))
        | _orth_step(own & (board.rooks | board.queens))
        | _king_step(own & board.kings)
    )


_PIECE_STEPS: tuple[tuple[int, Step], ...] = (
    (chess.KNIGHT, _knight_step),
    (chess.BISHOP, _diag_step),
    (chess.ROOK, _orth_step),
    (chess.QUEEN, _king_step),
)


def _local_pass(board: chess.Board, frozen: int) -> int:
    """Drop the members of ``frozen`` that could move even if the others never change."""
    white = board.occupied_co[chess.WHITE]
    black = board.occupied_co[chess.BLACK]
    pawns = board.pawns
    kings = board.kings
    while True:
        fw = frozen & white
        fb = frozen & black
        keep = 0
        # a pawn: the square in front holds a frozen piece
        keep |= fw & pawns & (frozen >> 8)
        keep |= fb & pawns & ((frozen << 8) & _ALL)
        # a piece: every square it could step to holds a frozen piece of its own colour
        for own_frozen in (fw, fb):
            for piece_type, step in _PIECE_STEPS:
                for sq in chess.scan_forward(
                    own_frozen & board.pieces_mask(piece_type, True)
                    | own_frozen & board.pieces_mask(piece_type, False)
                ):
                    if not step(chess.BB_SQUARES[sq]) & ~own_frozen:
                        keep |= chess.BB_SQUARES[sq]
        # a king: every neighbour holds a frozen piece of its own colour or is attacked for ever
        if fw & kings:
            bad = _king_step(fw & kings) & ~fw & ~_frozen_attacks(board, fb, chess.BLACK)
            if not bad:
                keep |= fw & kings
        if fb & kings:
            bad = _king_step(fb & kings) & ~fb & ~_frozen_attacks(board, fw, chess.WHITE)
            if not bad:
                keep |= fb & kings
        if keep == frozen:
            return frozen
        frozen = keep


class _Side:
    """Everything one side's pieces can ever do, under the hypotheses of ``_analyse``."""

    __slots__ = ("blockers", "captures", "checks", "king", "king_attacks", "occupy", "regions")

    def __init__(self) -> None:
        self.king = 0  # squares the king may ever stand on
        self.king_attacks = 0  # squares the king may ever attack
        self.occupy = 0  # squares a non-king piece (or a promoted piece) may ever stand on
        self.captures = 0  # squares where a non-king piece may ever capture
        self.checks = 0  # squares a mobile non-king piece may ever attack (captures too)
        self.regions: dict[int, int] = {}  # square of a non-king piece -> squares it may visit
        self.blockers: list[int] = []  # per mobile non-king piece: squares it (or its
        # promoted self) may stand on


class _World:
    __slots__ = ("sides", "walls", "wattacks")

    def __init__(self, walls: int, wattacks: dict[bool, int], sides: dict[bool, _Side]) -> None:
        self.walls = walls
        self.wattacks = wattacks
        self.sides = sides


def _file_region(
    sq: int, color: chess.Color, walls: int, stoppers: int, own_tops: dict[int, int]
) -> int:
    """Squares a pawn that never captures may visit on its file.

    It cannot enter a wall, nor pass a pawn ahead of it that never leaves the file and is
    never captured (``stoppers``): an enemy one only comes closer, an own one stays ahead of it
    and ends at most on its own furthest square (``own_tops``); likewise a king confined to the
    file stays ahead of it, at most on the furthest square of its fill (``own_tops``).
    """
    delta = 8 if color == chess.WHITE else -8
    region = chess.BB_SQUARES[sq]
    t = sq + delta
    while 0 <= t < 64:
        tb = chess.BB_SQUARES[t]
        if tb & walls:
            break
        if tb & stoppers:
            top = own_tops.get(t)
            if top is not None:
                u = t
                while u != top:
                    region |= chess.BB_SQUARES[u]
                    u += delta
            break
        region |= tb
        t += delta
    return region


def _regions(board: chess.Board, walls: int, never_capture: int, never_captured: int) -> _World:
    allowed = _ALL & ~walls
    wattacks = {
        chess.WHITE: _frozen_attacks(board, walls, chess.WHITE),
        chess.BLACK: _frozen_attacks(board, walls, chess.BLACK),
    }
    pawns = board.pawns
    stoppers = pawns & never_capture & never_captured
    # A king never moves onto a square attacked by a wall (moving into check).
    king_fill = {
        color: _fill(
            board.kings & board.occupied_co[color], _king_step, allowed & ~wattacks[not color]
        )
        for color in chess.COLORS
    }
    # A king whose fill lies on one file can never leave it, so a pawn of that file that never
    # captures can never pass it: the king stands behind the pawn's furthest square.
    # tops[c]: for a pawn of colour c, the furthest square a stopping king may stand on
    tops: dict[bool, dict[int, int]] = {chess.WHITE: {}, chess.BLACK: {}}
    for color in chess.COLORS:
        kf = king_fill[color]
        if any(kf & ~f == 0 for f in chess.BB_FILES):
            king_sq = chess.lsb(kf & board.kings)
            stoppers |= chess.BB_SQUARES[king_sq]
            tops[chess.WHITE][king_sq] = chess.msb(kf)
            tops[chess.BLACK][king_sq] = chess.lsb(kf)
    sides: dict[bool, _Side] = {}
    for color in chess.COLORS:
        side = _Side()
        own = board.occupied_co[color]
        side.king = king_fill[color]
        side.king_attacks = _king_step(side.king)
        for sq in chess.scan_forward(walls & own & ~board.kings):
            side.regions[sq] = chess.BB_SQUARES[sq]
            side.occupy |= chess.BB_SQUARES[sq]
        mobile = own & ~walls
        pawn_attacks = _PAWN_ATTACKS[color]
        last = _LAST_RANK[color]
        own_tops = tops[color]
        promo = 0
        pawn_blockers: list[int] = []
        quiet = pawns & mobile & never_capture
        order = list(chess.scan_reversed(quiet) if color else chess.scan_forward(quiet))
        for sq in order:
            region = _file_region(sq, color, walls, stoppers, own_tops)
            if region & last:
                # It may promote and the new piece leave the file: it stops nobody.
                stoppers &= ~chess.BB_SQUARES[sq]
            else:
                own_tops[sq] = chess.msb(region) if color else chess.lsb(region)
            side.regions[sq] = region
            side.checks |= pawn_attacks(region)
            promo |= region & last
            pawn_blockers.append(region)
        for sq in chess.scan_forward(pawns & mobile & ~never_capture):
            region = _fill(chess.BB_SQUARES[sq], _PAWN_STEP[color], allowed)
            side.regions[sq] = region
            attacks = pawn_attacks(region)
            side.checks |= attacks
            side.captures |= attacks
            promo |= region & last
            pawn_blockers.append(region)
        # Pieces promoted anywhere: a queen (its king-step fill holds the rook and bishop
        # fills) or a knight. Each pawn may stand where any promoted piece may.
        promoted = 0
        if promo:
            queen = _fill(promo, _king_step, allowed)
            knight = _fill(promo, _knight_step, allowed)
            promoted = queen | knight
            attacks = _king_step(queen) | _knight_step(knight)
            side.checks |= attacks
            side.captures |= attacks
            side.occupy |= promoted
        side.blockers.extend(region | promoted for region in pawn_blockers)
        for piece_type, step in _PIECE_STEPS:
            for sq in chess.scan_forward(board.pieces_mask(piece_type, color) & mobile):
                region = _fill(chess.BB_SQUARES[sq], step, allowed)
                side.regions[sq] = region
                attacks = step(region)
                side.checks |= attacks
                side.captures |= attacks
                side.blockers.append(region)
        for region in side.regions.values():
            side.occupy |= region
        sides[color] = side
    # The pawn that has just made a double step "stood" on the passed-over square as far as
    # en passant captures are concerned.
    if board.ep_square is not None:
        sides[not board.turn].occupy |= chess.BB_SQUARES[board.ep_square]
    return _World(walls, wattacks, sides)


_CACHE: dict[tuple[int, ...], _World] = {}


def _analyse(board: chess.Board) -> _World:
    """The analysis of ``board``, remembered for the other side's question."""
    key = (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.turn,
        -1 if board.ep_square is None else board.ep_square,
    )
    world = _CACHE.get(key)
    if world is None:
        if len(_CACHE) >= 1024:
            _CACHE.clear()
        world = _CACHE[key] = _compute(board)
    return world


def _compute(board: chess.Board) -> _World:
    """The greatest consistent hypotheses (see the module doc) and the world they allow."""
    pawns = board.pawns
    never_capture = pawns
    never_captured = board.occupied & ~board.kings
    while True:
        walls = _local_pass(
            board, (never_captured & ~pawns) | (never_capture & never_captured) | board.kings
        )
        world = _regions(board, walls, never_capture, never_captured)
        bad_s = bad_p = 0
        for color in chess.COLORS:
            side = world.sides[color]
            enemy = world.sides[not color]
            own = board.occupied_co[color]
            pawn_attacks = _PAWN_ATTACKS[color]
            for sq in chess.scan_forward(never_capture & own):
                if pawn_attacks(side.regions[sq]) & enemy.occupy:
                    bad_s |= chess.BB_SQUARES[sq]
            danger = enemy.captures | (enemy.king_attacks & ~world.wattacks[color])
            for sq in chess.scan_forward(never_captured & own):
                if side.regions[sq] & danger:
                    bad_p |= chess.BB_SQUARES[sq]
            # (a pawn taken en passant after a double step passed over a square of its region
            # that the capturing pawn attacks, so the test above covers it)
        # ... except for the pawn that has just made its double step
        if board.ep_square is not None:
            mover = not board.turn
            if chess.BB_SQUARES[board.ep_square] & world.sides[board.turn].captures:
                bad_p |= chess.BB_SQUARES[board.ep_square + (8 if mover else -8)]
        bad_s &= never_capture
        bad_p &= never_captured
        if not bad_s and not bad_p:
            return world
        never_capture &= ~bad_s
        never_captured &= ~bad_p


def _can_block(squares: int, regions: list[int]) -> bool:
    """Can distinct pieces (each given by the squares it may stand on) fill every square?"""
    targets = list(chess.scan_forward(squares))
    if len(targets) > len(regions):
        return False
    owner: dict[int, int] = {}  # piece index -> target square

    def augment(sq: int, seen: set[int]) -> bool:
        bb = chess.BB_SQUARES[sq]
        for i, region in enumerate(regions):
            if region & bb and i not in seen:
                seen.add(i)
                if i not in owner or augment(owner[i], seen):
                    owner[i] = sq
                    return True
        return False

    return all(augment(sq, set()) for sq in targets)


def _mate_squares_exist(board: chess.Board, color: chess.Color) -> bool | None:
    """False when no square can ever see ``color`` mate; None when no piece can ever check.

    True when a mate could not be excluded.
    """
    king_sq = board.king(not color)
    if king_sq is None:
        return True
    pawns = board.pawns
    white_pawns = pawns & board.occupied_co[chess.WHITE]
    black_pawns = pawns & board.occupied_co[chess.BLACK]
    if not white_pawns & (black_pawns >> 8) and board.occupied_co[color] & (
        board.queens | board.rooks
    ):
        # Quick exit (answering "maybe" is always sound): with no pawns blocked head-on there
        # are (but for freak cases) no walls, and a rook or queen then covers every square.
        return True
    world = _analyse(board)
    att = world.sides[color]
    dfd = world.sides[not color]
    walls = world.walls
    frozen_cover = world.wattacks[color]
    # A wall may check the king where it stands now (never later: the king cannot come back to
    # a square a wall attacks).
    checkers = att.checks | (frozen_cover & chess.BB_SQUARES[king_sq])
    candidates = dfd.king & checkers
    if not candidates:
        return None
    cover = att.checks | frozen_cover
    blockers = dfd.blockers
    n_blockers = len(blockers)
    block_any = 0
    for region in blockers:
        block_any |= region
    for k in chess.scan_forward(candidates):
        need = chess.BB_KING_ATTACKS[k] & ~walls & ~cover
        if not need:
            return True
        king_options = [0]
        ring = _RING2[k] & att.king
        if ring:
            around = chess.BB_KING_ATTACKS[k]
            king_options.extend(chess.BB_KING_ATTACKS[p] & around for p in chess.scan_forward(ring))
        for kc in king_options:
            rest = need & ~kc
            if not rest:
                return True
            if rest & ~block_any or chess.popcount(rest) > n_blockers:
                continue
            if _can_block(rest, blockers):
                return True
    return False


def _static(board: chess.Board, color: chess.Color) -> str | None:
    if board.has_insufficient_material(color):
        return "insufficient material"
    result = _mate_squares_exist(board, color)
    if result is None:
        return "no piece can ever attack a square the enemy king can reach"
    if result is False:
        return "the enemy king's escape squares can never all be covered or blocked"
    return None


def _forced(board: chess.Board, color: chess.Color, depth: int, budget: list[int]) -> bool:
    """True when every continuation (few legal moves, up to ``depth`` plies) is proved."""
    if _static(board, color) is not None:
        return True
    moves = list(islice(board.legal_moves, 3))
    if not moves:
        # checkmate of color's king, or stalemate: the game is over without color mating
        return board.turn == color or not board.is_check()
    if depth <= 0 or len(moves) > 2:
        return False
    for move in moves:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        board.push(move)
        try:
            if not _forced(board, color, depth - 1, budget):
                return False
        finally:
            board.pop()
    return True


def prove_cannot_mate(board: chess.Board, color: chess.Color) -> str | None:
    reason = _static(board, color)
    if reason is not None:
        return reason
    moves = list(islice(board.legal_moves, 3))
    if not moves:
        if board.is_check():
            if board.turn == color:
                return "already checkmated"
            return None
        return "stalemate"
    if len(moves) <= 2 and _forced(board.copy(stack=False), color, 12, [200]):
        return "every continuation of the forced line is proved"
    return None
