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
   Quick exits (answering "maybe", i.e. None, is always sound): when no pawn has an enemy man
   right in front of it, there are no walls but in freak cases (pieces boxed in by their own
   pawns), and without walls the test passes; it is not run (on the reference positions it
   never failed there). The fixed point is run one round at a time, and when the world of the
   first round (every hypothesis still assumed) already passes the mate-square test, the
   answer is "maybe" without further rounds; it loses nothing in practice because later rounds
   only drop hypotheses, so the world only grows (on the reference positions it never changed
   a result).
4. Short forced lines: when the side to move has at most two legal moves, every continuation
   is tried (a checkmate of ``color``'s king or a stalemate ends the game without ``color``
   mating); the position is proved when every continuation is. A continuation reaching a
   position already on the line or already proved counts as proved: when the search succeeds,
   the positions it visited are closed under legal moves except for the statically proved
   ones, and none is a mate by ``color``, so every game from the root either stays among them
   for ever without a mate or enters a statically proved position. (Draws by repetition or by
   the move counters only end games earlier, so ignoring them is an over-approximation.)

Speed: the fills are written out with the step inlined; fills are remembered between rounds
while the walls stay the same (a fill depends only on the step, the start and the walls), and
pieces of one type in one component share theirs; both sides' questions share one analysis.
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


# The same fills with the step written out (``allowed`` lies inside the board): these are the
# hot loops of the analysis.


def _fill_king(region: int, allowed: int) -> int:
    while True:
        side = ((region & _NOT_H) << 1) | ((region & _NOT_A) >> 1)
        row = region | side
        grown = region | ((side | (row << 8) | (row >> 8)) & allowed)
        if grown == region:
            return region
        region = grown


def _fill_diag(region: int, allowed: int) -> int:
    while True:
        side = ((region & _NOT_H) << 1) | ((region & _NOT_A) >> 1)
        grown = region | (((side << 8) | (side >> 8)) & allowed)
        if grown == region:
            return region
        region = grown


def _fill_orth(region: int, allowed: int) -> int:
    while True:
        side = ((region & _NOT_H) << 1) | ((region & _NOT_A) >> 1)
        grown = region | ((side | (region << 8) | (region >> 8)) & allowed)
        if grown == region:
            return region
        region = grown


def _fill_knight(region: int, allowed: int) -> int:
    while True:
        e1 = (region & _NOT_H) << 1
        w1 = (region & _NOT_A) >> 1
        one = e1 | w1
        two = ((e1 & _NOT_H) << 1) | ((w1 & _NOT_A) >> 1)
        grown = region | (((one << 16) | (one >> 16) | (two << 8) | (two >> 8)) & allowed)
        if grown == region:
            return region
        region = grown


def _fill_white_pawn(region: int, allowed: int) -> int:
    while True:
        grown = region | (
            ((region | ((region & _NOT_H) << 1) | ((region & _NOT_A) >> 1)) << 8) & allowed
        )
        if grown == region:
            return region
        region = grown


def _fill_black_pawn(region: int, allowed: int) -> int:
    while True:
        grown = region | (
            ((region | ((region & _NOT_H) << 1) | ((region & _NOT_A) >> 1)) >> 8) & allowed
        )
        if grown == region:
            return region
        region = grown


Fill = Callable[[int, int], int]

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


# Per square: the squares a knight, bishop, rook or queen there could step to.
_KNIGHT_NEAR = list(chess.BB_KNIGHT_ATTACKS)
_DIAG_NEAR = [_diag_step(bb) for bb in chess.BB_SQUARES]
_ORTH_NEAR = [_orth_step(bb) for bb in chess.BB_SQUARES]
_KING_NEAR = list(chess.BB_KING_ATTACKS)


def _local_pass(board: chess.Board, frozen: int) -> int:
    """Drop the members of ``frozen`` that could move even if the others never change."""
    white = board.occupied_co[chess.WHITE]
    black = board.occupied_co[chess.BLACK]
    pawns = board.pawns
    kings = board.kings
    # (square, squares it could step to, is white) for every candidate non-pawn, non-king piece
    pieces: list[tuple[int, int, bool]] = []
    others = frozen & ~pawns & ~kings
    if others:
        for mask, table in (
            (board.knights, _KNIGHT_NEAR),
            (board.bishops, _DIAG_NEAR),
            (board.rooks, _ORTH_NEAR),
            (board.queens, _KING_NEAR),
        ):
            for sq in chess.scan_forward(others & mask):
                bb = chess.BB_SQUARES[sq]
                pieces.append((bb, table[sq], bool(bb & white)))
    while True:
        fw = frozen & white
        fb = frozen & black
        keep = 0
        # a pawn: the square in front holds a frozen piece
        keep |= fw & pawns & (frozen >> 8)
        keep |= fb & pawns & ((frozen << 8) & _ALL)
        # a piece: every square it could step to holds a frozen piece of its own colour
        for bb, near, is_white in pieces:
            if bb & frozen and not near & ~(fw if is_white else fb):
                keep |= bb
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


# Per colour and square: the squares ahead of it on its file.
_AHEAD: dict[bool, list[int]] = {
    chess.WHITE: [chess.BB_FILES[s & 7] & ~((chess.BB_SQUARES[s] << 1) - 1) for s in chess.SQUARES],
    chess.BLACK: [chess.BB_FILES[s & 7] & (chess.BB_SQUARES[s] - 1) for s in chess.SQUARES],
}


def _file_region(
    sq: int, color: chess.Color, walls: int, stoppers: int, own_tops: dict[int, int]
) -> int:
    """Squares a pawn that never captures may visit on its file.

    It cannot enter a wall, nor pass a pawn ahead of it that never leaves the file and is
    never captured (``stoppers``): an enemy one only comes closer, an own one stays ahead of it
    and ends at most on its own furthest square (``own_tops``); likewise a king confined to the
    file stays ahead of it, at most on the furthest square of its fill (``own_tops``).
    """
    ahead = _AHEAD[color]
    obstacles = ahead[sq] & (walls | stoppers)
    if not obstacles:
        return chess.BB_SQUARES[sq] | ahead[sq]
    end = chess.lsb(obstacles) if color else chess.msb(obstacles)
    if not chess.BB_SQUARES[end] & walls:
        # the nearest obstacle stops it; its region then ends at ``top`` (exclusive)
        end = own_tops.get(end, end)
    return chess.BB_SQUARES[sq] | (ahead[sq] & ~(chess.BB_SQUARES[end] | ahead[end]))


# Fill kinds for the memo of ``_regions``: (kind, fill, pieces that share components).
_KNIGHT_KIND, _BISHOP_KIND, _ROOK_KIND, _QUEEN_KIND = range(4)
_PAWN_KIND = {chess.WHITE: 4, chess.BLACK: 5}
_PAWN_FILL: dict[bool, Fill] = {chess.WHITE: _fill_white_pawn, chess.BLACK: _fill_black_pawn}
_PIECE_FILLS: tuple[tuple[int, int, Fill, Step], ...] = (
    (_KNIGHT_KIND, chess.KNIGHT, _fill_knight, _knight_step),
    (_BISHOP_KIND, chess.BISHOP, _fill_diag, _diag_step),
    (_ROOK_KIND, chess.ROOK, _fill_orth, _orth_step),
    (_QUEEN_KIND, chess.QUEEN, _fill_king, _king_step),
)


def _regions(
    board: chess.Board,
    walls: int,
    never_capture: int,
    never_captured: int,
    memo: dict[int, int],
) -> _World:
    """The world allowed by the hypotheses.

    ``memo`` remembers fills for these ``walls`` (the caller empties it when they change):
    a fill depends only on the kind of step, the start square and the walls.
    """
    allowed = _ALL & ~walls
    wattacks = {
        chess.WHITE: _frozen_attacks(board, walls, chess.WHITE),
        chess.BLACK: _frozen_attacks(board, walls, chess.BLACK),
    }
    pawns = board.pawns
    stoppers = pawns & never_capture & never_captured
    # A king never moves onto a square attacked by a wall (moving into check).
    king_fill: dict[bool, int] = {}
    for color in chess.COLORS:
        kf = memo.get(-1 - color)
        if kf is None:
            kf = memo[-1 - color] = _fill_king(
                board.kings & board.occupied_co[color], allowed & ~wattacks[not color]
            )
        king_fill[color] = kf
    # A king whose fill lies on one file can never leave it, so a pawn of that file that never
    # captures can never pass it: the king stands behind the pawn's furthest square.
    # tops[c]: for a pawn of colour c, the furthest square a stopping king may stand on
    tops: dict[bool, dict[int, int]] = {chess.WHITE: {}, chess.BLACK: {}}
    for color in chess.COLORS:
        kf = king_fill[color]
        if kf and not kf & ~chess.BB_FILES[chess.lsb(kf) & 7]:
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
        regions = side.regions
        occupy = walls & own & ~board.kings
        for sq in chess.scan_forward(occupy):
            regions[sq] = chess.BB_SQUARES[sq]
        mobile = own & ~walls
        pawn_attacks = _PAWN_ATTACKS[color]
        last = _LAST_RANK[color]
        own_tops = tops[color]
        promo = 0
        checks = 0
        captures = 0
        pawn_blockers: list[int] = []
        quiet = pawns & mobile & never_capture
        if quiet:
            order = chess.scan_reversed(quiet) if color else chess.scan_forward(quiet)
            quiet_regions = 0
            for sq in order:
                region = _file_region(sq, color, walls, stoppers, own_tops)
                if region & last:
                    # It may promote and the new piece leave the file: it stops nobody.
                    stoppers &= ~chess.BB_SQUARES[sq]
                else:
                    own_tops[sq] = chess.msb(region) if color else chess.lsb(region)
                regions[sq] = region
                quiet_regions |= region
                pawn_blockers.append(region)
            checks |= pawn_attacks(quiet_regions)
            promo |= quiet_regions & last
        capturing = pawns & mobile & ~never_capture
        if capturing:
            kind = _PAWN_KIND[color] * 64
            fill = _PAWN_FILL[color]
            capture_regions = 0
            for sq in chess.scan_forward(capturing):
                known = memo.get(kind + sq)
                if known is None:
                    region = memo[kind + sq] = fill(chess.BB_SQUARES[sq], allowed)
                else:
                    region = known
                regions[sq] = region
                capture_regions |= region
                pawn_blockers.append(region)
            attacks = pawn_attacks(capture_regions)
            checks |= attacks
            captures |= attacks
            promo |= capture_regions & last
        # Pieces promoted anywhere: a queen (its king-step fill holds the rook and bishop
        # fills) or a knight. Each pawn may stand where any promoted piece may.
        promoted = 0
        if promo:
            queen = _fill_king(promo, allowed)
            knight = _fill_knight(promo, allowed)
            promoted = queen | knight
            attacks = _king_step(queen) | _knight_step(knight)
            checks |= attacks
            captures |= attacks
            occupy |= promoted
        blockers = side.blockers
        blockers.extend(region | promoted for region in pawn_blockers)
        for kind, piece_type, fill, step in _PIECE_FILLS:
            same = board.pieces_mask(piece_type, color) & mobile
            if not same:
                continue
            base = kind * 64
            union = 0
            for sq in chess.scan_forward(same):
                known = memo.get(base + sq)
                if known is not None:
                    region = known
                else:
                    region = fill(chess.BB_SQUARES[sq], allowed)
                    # every piece of this type in the same component has the same fill
                    for other in chess.scan_forward(region & same):
                        memo[base + other] = region
                regions[sq] = region
                union |= region
                blockers.append(region)
            attacks = step(union)
            checks |= attacks
            captures |= attacks
        for region in regions.values():
            occupy |= region
        side.occupy = occupy
        side.checks = checks
        side.captures = captures
        sides[color] = side
    # The pawn that has just made a double step "stood" on the passed-over square as far as
    # en passant captures are concerned.
    if board.ep_square is not None:
        sides[not board.turn].occupy |= chess.BB_SQUARES[board.ep_square]
    return _World(walls, wattacks, sides)


class _Analysis:
    """The fixed point of ``_compute``, run one round at a time.

    ``first`` is the world of the first round (all hypotheses assumed); ``final`` the world of
    the greatest consistent hypotheses. Both sides' questions share one analysis.
    """

    __slots__ = (
        "board",
        "done",
        "first",
        "last_walls",
        "mate",
        "memo",
        "never_capture",
        "never_captured",
        "world",
    )

    def __init__(self, board: chess.Board) -> None:
        self.board = board
        self.never_capture = board.pawns
        self.never_captured = board.occupied & ~board.kings
        self.memo: dict[int, int] = {}
        self.last_walls = -1
        self.done = False
        self.mate: dict[tuple[bool, bool], bool | None] = {}  # (colour, final) -> test
        self.world = self._round()
        self.first = self.world

    def _round(self) -> _World:
        """One round: the world of the present hypotheses, then drop the broken ones."""
        board = self.board
        pawns = board.pawns
        never_capture = self.never_capture
        never_captured = self.never_captured
        walls = _local_pass(
            board, (never_captured & ~pawns) | (never_capture & never_captured) | board.kings
        )
        if walls != self.last_walls:
            self.memo.clear()
            self.last_walls = walls
        world = _regions(board, walls, never_capture, never_captured, self.memo)
        bad_s = bad_p = 0
        for color in chess.COLORS:
            side = world.sides[color]
            enemy = world.sides[not color]
            own = board.occupied_co[color]
            regions = side.regions
            pawn_attacks = _PAWN_ATTACKS[color]
            enemy_occupy = enemy.occupy
            for sq in chess.scan_forward(never_capture & own):
                if pawn_attacks(regions[sq]) & enemy_occupy:
                    bad_s |= chess.BB_SQUARES[sq]
            danger = enemy.captures | (enemy.king_attacks & ~world.wattacks[color])
            for sq in chess.scan_forward(never_captured & own):
                if regions[sq] & danger:
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
            self.done = True
        self.never_capture = never_capture & ~bad_s
        self.never_captured = never_captured & ~bad_p
        return world

    def final(self) -> _World:
        while not self.done:
            self.world = self._round()
        return self.world


_CACHE: dict[tuple[int, ...], _Analysis] = {}


def _analyse(board: chess.Board) -> _Analysis:
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
    analysis = _CACHE.get(key)
    if analysis is None:
        if len(_CACHE) >= 1024:
            _CACHE.clear()
        analysis = _CACHE[key] = _Analysis(board.copy(stack=False))
    return analysis


def _compute(board: chess.Board) -> _World:
    """The greatest consistent hypotheses (see the module doc) and the world they allow."""
    return _Analysis(board.copy(stack=False)).final()


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
    white = board.occupied_co[chess.WHITE]
    black = board.occupied_co[chess.BLACK]
    if not (white_pawns << 8) & black and not (black_pawns >> 8) & white:
        # Quick exit (answering "maybe" is always sound): when no pawn has an enemy man right
        # in front of it, there are (but for freak cases of pieces boxed in by their own
        # pawns) no walls, and the mate test then passes (on the reference positions it
        # never failed there).
        return True
    if not white_pawns & (black_pawns >> 8) and board.occupied_co[color] & (
        board.queens | board.rooks
    ):
        # Quick exit (answering "maybe" is always sound): with no pawns blocked head-on there
        # are (but for freak cases) no walls, and a rook or queen then covers every square.
        return True
    analysis = _analyse(board)
    # Quick exit (answering "maybe" is always sound): when the first round's world, with
    # every hypothesis still assumed, leaves a mate possible, the final one almost always
    # does too.
    if _mate_test(analysis, color, False) is True:
        return True
    return _mate_test(analysis, color, True)


def _mate_test(analysis: _Analysis, color: chess.Color, final: bool) -> bool | None:
    """The mate-square test of the module doc in the first (or the final) world."""
    key = (color, final)
    if key in analysis.mate:
        return analysis.mate[key]
    if final and analysis.done and analysis.world is analysis.first:
        result = _mate_test(analysis, color, False)
    else:
        result = _mate_world(analysis.board, analysis.final() if final else analysis.first, color)
    analysis.mate[key] = result
    return result


def _mate_world(board: chess.Board, world: _World, color: chess.Color) -> bool | None:
    king_sq = chess.lsb(board.kings & board.occupied_co[not color])
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


# The forced-line search: nodes with at most ``_WIDTH`` legal moves are expanded, down to
# ``_DEPTH`` plies and ``_BUDGET`` expanded moves in all.
_WIDTH = 2
_DEPTH = 12
_BUDGET = 100


def _first_moves(board: chess.Board, width: int = _WIDTH) -> list[chess.Move]:
    """Up to ``width + 1`` legal moves (so "more than ``width``" can be told)."""
    return list(islice(board.legal_moves, width + 1))


def _key(board: chess.Board) -> tuple[int, ...]:
    """What fixes the legal moves of a position (and so all its continuations)."""
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.turn,
        board.castling_rights,
        -1 if board.ep_square is None else board.ep_square,
    )


def _forced(
    board: chess.Board,
    color: chess.Color,
    moves: list[chess.Move],
    *,
    depth: int,
    budget: list[int],
    seen: set[tuple[int, ...]],
    width: int = _WIDTH,
) -> bool:
    """True when every continuation of ``board`` (not proved itself, with the legal ``moves``,
    at most ``_WIDTH``) is proved within ``depth`` plies.

    ``seen`` holds the positions on the present line and those already proved: a child among
    them counts as proved. Soundness: when the search succeeds, the positions it visited form a
    set closed under legal moves but for the statically proved ones (every other one had all
    its moves followed), and none of them is a checkmate by ``color``. A game from the root
    either stays in that set for ever, never mating, or enters a statically proved position,
    from which no mate exists.
    """
    for move in moves:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        board.push(move)
        try:
            key = _key(board)
            if key in seen or _static(board, color) is not None:
                continue
            replies = _first_moves(board, width)
            if not replies:
                # checkmate of color's king, or stalemate: over without color mating
                if board.turn == color or not board.is_check():
                    continue
                return False
            if len(replies) > width or depth <= 1:
                return False
            seen.add(key)
            if not _forced(
                board, color, replies, depth=depth - 1, budget=budget, seen=seen, width=width
            ):
                return False
        finally:
            board.pop()
    return True


def prove_cannot_mate(board: chess.Board, color: chess.Color) -> str | None:
    reason = _static(board, color)
    if reason is not None:
        return reason
    moves = _first_moves(board)
    if not moves:
        if board.is_check():
            if board.turn == color:
                return "already checkmated"
            return None
        return "stalemate"
    if len(moves) <= _WIDTH and _forced(
        board.copy(stack=False), color, moves, depth=_DEPTH, budget=[_BUDGET], seen={_key(board)}
    ):
        return "every continuation of the forced line is proved"
    return None
