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
   that just made a double step and may be taken en passant. A piece of P that only the enemy
   king may take is kept when each such capture stalemates its side (``_stalemating``): every
   other man of that side but the king is a wall, and wherever its king may stand (not next to
   the capture square) every square it could step to, with no wall of its own and attacked by
   no enemy wall, is next to the enemy king, and no enemy slider can stand on a line (stopped
   by walls) through a square the enemy king may come from to that king's square (so the
   capture gives no discovered check). Repeat until nothing is dropped.
   Soundness, by the first failure: take the first move of a game that breaks a hypothesis or
   moves a wall. Before it every hypothesis held, so every piece stayed in its fill (by
   induction on the moves). The move cannot move a wall (its way is blocked by walls, which
   have not moved), nor be a capture by a pawn of S (the captured piece stood in its own fill,
   on a square the pawn attacks: the pawn would have been dropped), nor capture a piece of P
   (the capturer attacks a square of its fill; a king cannot take a piece a wall guards),
   except a capture by the king that stalemates: the game ends there, with no mate, and every
   position before it kept the hypotheses. (After it the walls still cannot move: the taken
   man's square holds the king, which no man takes.)
3. Mate squares. In that world a mate on a square ``k`` needs ``k`` in the defending king's
   fill and a checker: some non-king piece of ``color`` attacking ``k`` from its fill (a wall
   only on the king's present square: the king cannot return to a square a wall attacks).
   Every neighbour of ``k`` must be unavailable to the king: a wall, attacked by a non-king
   piece or a wall of ``color``, attacked by ``color``'s king (then at distance exactly 2 from
   ``k``, covering only the neighbours next to it), or occupied by a defending piece (each
   covers one square of its own fill; a matching decides). When every defending man but the
   king is a wall, the defender's last move before a mate on ``k`` brought its king there from
   a neighbour ``j`` (``_arrives``): at the mate ``j`` is covered, and not by the attacking
   king, which stood away from the defending king on ``j`` and has not moved since, unless its
   last move uncovered a check, from a square two steps from ``j``. A square ``k`` where the
   king stands now is left out this way only when there is no mate at once (already, or with
   the attacker's next move), checked on the board, and only without castling rights for the
   attacker (castling moves a rook too). If no ``k`` passes, no mate exists. This one test
   covers "no piece can ever reach the enemy king's side" and "bishops of one colour cannot
   cover the escape squares of the other colour".
   Quick exits (answering "maybe", i.e. None, is always sound): when no pawn has an enemy man
   right in front of it, there are no walls but in freak cases (pieces boxed in by their own
   pawns), and without walls the test passes; it is not run (on the reference positions it
   never failed there). The fixed point is run one round at a time, and as soon as the world
   of a round passes the mate-square test, the answer is "maybe" without further rounds; it
   loses nothing in practice because later rounds only drop hypotheses, so the world only
   grows (on the reference positions it never changed a result).
4. Short forced lines: when the side to move has at most two legal moves, every continuation
   is tried (a checkmate of ``color``'s king or a stalemate ends the game without ``color``
   mating); the position is proved when every continuation is. A continuation reaching a
   position already on the line or already proved counts as proved: when the search succeeds,
   the positions it visited are closed under legal moves except for the statically proved
   ones, and none is a mate by ``color``, so every game from the root either stays among them
   for ever without a mate or enters a statically proved position. (Draws by repetition or by
   the move counters only end games earlier, so ignoring them is an over-approximation.)
   Whether a side has more than two legal moves is mostly told from the bitboards
   (``_scan_moves``), and a quiet move of a piece leaves the analysis as it was, so the
   position after it shares it (``_same_analysis``).

Speed (none of it changes an answer): the steps and fills are written out; fills are
remembered across rounds and positions (a fill depends only on its step, its start and the
squares allowed); both sides' questions share one analysis, the legal moves and the positions
of a forced line. ``setup.py`` has mypyc compile this module as it is written (about twice as
fast; the types it is annotated with are then checked at run time, so a colour is a bool).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from itertools import islice

import chess

_ALL = chess.BB_ALL
_NOT_A = _ALL & ~chess.BB_FILE_A
_NOT_H = _ALL & ~chess.BB_FILE_H


# The steps, written out (they are the hot loops of the analysis).


def _king_step(b: int) -> int:
    side = ((b & _NOT_H) << 1) | ((b & _NOT_A) >> 1)
    row = b | side
    return (side | (row << 8) | (row >> 8)) & _ALL


def _diag_step(b: int) -> int:
    side = ((b & _NOT_H) << 1) | ((b & _NOT_A) >> 1)
    return ((side << 8) | (side >> 8)) & _ALL


def _orth_step(b: int) -> int:
    return ((b << 8) | (b >> 8) | ((b & _NOT_H) << 1) | ((b & _NOT_A) >> 1)) & _ALL


def _knight_step(b: int) -> int:
    e1 = (b & _NOT_H) << 1
    w1 = (b & _NOT_A) >> 1
    one = e1 | w1
    two = ((e1 & _NOT_H) << 1) | ((w1 & _NOT_A) >> 1)
    return ((one << 16) | (one >> 16) | (two << 8) | (two >> 8)) & _ALL


def _white_pawn_attacks(b: int) -> int:
    return ((((b & _NOT_H) << 1) | ((b & _NOT_A) >> 1)) << 8) & _ALL


def _black_pawn_attacks(b: int) -> int:
    return (((b & _NOT_H) << 1) | ((b & _NOT_A) >> 1)) >> 8


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

_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}
_BB = chess.BB_SQUARES

# For each square k: the squares at king distance exactly 2 from k.
_RING2 = [
    sum(chess.BB_SQUARES[s] for s in chess.SQUARES if chess.square_distance(s, k) == 2)
    for k in chess.SQUARES
]

# Per square: the squares a knight, bishop, rook or queen there could step to.
_KNIGHT_NEAR = list(chess.BB_KNIGHT_ATTACKS)
_DIAG_NEAR = [_diag_step(bb) for bb in chess.BB_SQUARES]
_ORTH_NEAR = [_orth_step(bb) for bb in chess.BB_SQUARES]
_KING_NEAR = list(chess.BB_KING_ATTACKS)

#: Per colour and square: the squares ahead of it on its file (for a pawn of that colour).
AHEAD: dict[bool, list[int]] = {
    chess.WHITE: [chess.BB_FILES[s & 7] & ~((chess.BB_SQUARES[s] << 1) - 1) for s in chess.SQUARES],
    chess.BLACK: [chess.BB_FILES[s & 7] & (chess.BB_SQUARES[s] - 1) for s in chess.SQUARES],
}

# The fills, remembered: a fill depends only on its kind of step, its start and the squares
# allowed, and the same ones come back between rounds, in forced lines and from one position
# to the next of a game. Key: (allowed << 67) | (start << 3) | kind.
_KNIGHT_KIND, _DIAG_KIND, _ORTH_KIND, _KING_KIND = range(4)
_PAWN_KIND = {chess.WHITE: 4, chess.BLACK: 5}
_PAWN_FILL: dict[bool, Fill] = {chess.WHITE: _fill_white_pawn, chess.BLACK: _fill_black_pawn}
_FILLS: dict[int, int] = {}
_FILLS_MAX = 50_000


def _remembered_fill(kind: int, fill: Fill, start: int, allowed: int) -> int:
    key = (allowed << 67) | (start << 3) | kind
    region = _FILLS.get(key, -1)
    if region < 0:
        if len(_FILLS) >= _FILLS_MAX:
            _FILLS.clear()
        region = _FILLS[key] = fill(start, allowed)
    return region


class _Side:
    """Everything one side's men can ever do in one world."""

    __slots__ = ("blockers", "captures", "checks", "king", "movers", "occupy", "quiet")

    def __init__(
        self,
        *,
        king: int,
        occupy: int,
        checks: int,
        captures: int,
        blockers: list[int],
        quiet: list[tuple[int, int]],
        movers: list[tuple[int, int]],
    ) -> None:
        self.king = king  # squares the king may ever stand on
        self.occupy = occupy  # squares a non-king piece (or a promoted piece) may ever stand on
        self.checks = checks  # squares a mobile non-king piece may ever attack (captures too)
        self.captures = captures  # squares where a non-king piece may ever capture
        # per mobile non-king man: squares it (or its promoted self) may stand on
        self.blockers = blockers
        # (square, region) of the mobile pawns that never capture, and of the other mobile men
        # (walls stand on their own square: they are checked together)
        self.quiet = quiet
        self.movers = movers


class _World:
    __slots__ = ("black", "walls", "wattacks_black", "wattacks_white", "white")

    def __init__(self, walls: int, wattacks: tuple[int, int], white: _Side, black: _Side) -> None:
        self.walls = walls
        self.wattacks_white, self.wattacks_black = wattacks
        self.white = white
        self.black = black

    def side(self, color: chess.Color) -> _Side:
        return self.white if color else self.black

    def wattacks(self, color: chess.Color) -> int:
        """Squares the walls of ``color`` attack."""
        return self.wattacks_white if color else self.wattacks_black


class _Analysis:
    """The fixed point of the hypotheses (see the module doc), one round at a time.

    ``worlds`` holds the world of each round computed so far; the mate test of each colour
    walks them until one passes or the last (consistent) one is reached. Both sides' questions
    share one analysis, which needs only the bitboards, not the board.
    """

    __slots__ = (
        "answers",
        "bishops",
        "black",
        "boxed",
        "checked",
        "ep",
        "final_at",
        "kinds",
        "kings",
        "knights",
        "never_capture",
        "never_captured",
        "pawns",
        "queens",
        "rooks",
        "stuck",
        "turn",
        "unreached",
        "white",
        "worlds",
    )

    def __init__(self, board: chess.Board) -> None:
        self.pawns = pawns = board.pawns
        self.knights = knights = board.knights
        self.bishops = bishops = board.bishops
        self.rooks = rooks = board.rooks
        self.queens = queens = board.queens
        self.kings = kings = board.kings
        self.white = white = board.occupied_co[chess.WHITE]
        self.black = black = board.occupied_co[chess.BLACK]
        self.turn = board.turn
        self.ep = -1 if board.ep_square is None else board.ep_square
        self.never_capture = pawns
        self.never_captured = (white | black) & ~kings
        self.worlds: list[_World] = []
        self.checked = 0  # the worlds before this index broke a hypothesis
        self.final_at = -1  # index of the consistent world, once known
        self.answers: dict[bool, bool | None] = {}
        # per colour: squares the mate test left out as ones the defending king cannot step
        # onto as its last move (``_arrives``); a mate at once there is checked on the board
        self.unreached: dict[bool, int] = {}
        # Men that might ever be walls: a piece only when every square it could step to holds
        # a man of its colour, a king only when every neighbour holds a man of its colour or
        # could be attacked by an enemy wall. (Leaving out the others from the start gives the
        # same greatest fixed point in ``_walls``: they would be dropped in its first pass.)
        self.boxed: list[tuple[int, int, bool]] = []
        stuck = 0
        for mask, table in (
            (knights, _KNIGHT_NEAR),
            (bishops, _DIAG_NEAR),
            (rooks, _ORTH_NEAR),
            (queens, _KING_NEAR),
        ):
            rest = mask
            while rest:
                bb = rest & -rest
                rest ^= bb
                near = table[bb.bit_length() - 1]
                is_white = bool(bb & white)
                if not near & ~(white if is_white else black):
                    self.boxed.append((bb, near, is_white))
                    stuck |= bb
        for own, enemy, color in ((white, black, chess.BLACK), (black, white, chess.WHITE)):
            king = kings & own
            free = _KING_NEAR[king.bit_length() - 1] & ~own
            # (a wall only attacks squares next to it or a knight's step away)
            if free & ~(_king_step(enemy) | _knight_step(enemy & knights)):
                continue
            if not free & ~self._wall_attacks(enemy, color):
                stuck |= king
        self.stuck = stuck
        # the pieces of each kind of fill (for ``_make_world``)
        kinds = []
        if knights:
            kinds.append((knights, _KNIGHT_KIND, _fill_knight, _knight_step))
        if bishops:
            kinds.append((bishops, _DIAG_KIND, _fill_diag, _diag_step))
        if rooks:
            kinds.append((rooks, _ORTH_KIND, _fill_orth, _orth_step))
        if queens:
            kinds.append((queens, _KING_KIND, _fill_king, _king_step))
        self.kinds = kinds

    def _wall_attacks(self, own: int, color: chess.Color) -> int:
        """Squares attacked for ever by the walls ``own`` (all of ``color``).

        A wall that slides has only walls of its own colour next to it along its lines, so it
        attacks exactly its neighbours on those lines.
        """
        men = own & self.pawns
        attacks = (_white_pawn_attacks(men) if color else _black_pawn_attacks(men)) if men else 0
        if not own & ~men:
            return attacks
        men = own & self.knights
        if men:
            attacks |= _knight_step(men)
        men = own & (self.bishops | self.queens)
        if men:
            attacks |= _diag_step(men)
        men = own & (self.rooks | self.queens)
        if men:
            attacks |= _orth_step(men)
        men = own & self.kings
        if men:
            attacks |= _king_step(men)
        return attacks

    def _walls(self, frozen: int) -> tuple[int, int, int]:
        """The greatest subset of ``frozen`` none of whose members could move while the others
        stay: a pawn with a wall in front, a piece with walls of its colour on every square it
        could step to, a king with every neighbour a wall of its colour or attacked by one.
        Returned with the squares the white walls and the black walls attack.

        The men but the kings are taken to their fixed point first, then the kings checked
        (each pass only drops men that break their rule, so it ends at the same fixed point).
        """
        pawns = self.pawns
        white = self.white
        black = self.black
        frozen &= pawns | self.stuck
        boxed = self.boxed
        kings = self.kings
        while True:
            while True:
                fw = frozen & white
                fb = frozen & black
                keep = (frozen & kings) | (pawns & ((fw & (frozen >> 8)) | (fb & (frozen << 8))))
                for bb, near, is_white in boxed:
                    if bb & frozen and not near & ~(fw if is_white else fb):
                        keep |= bb
                if keep == frozen:
                    break
                frozen = keep
            white_attacks = self._wall_attacks(fw, chess.WHITE)
            black_attacks = self._wall_attacks(fb, chess.BLACK)
            keep = frozen
            king = fw & kings
            if king and _king_step(king) & ~fw & ~black_attacks:
                keep ^= king
            king = fb & kings
            if king and _king_step(king) & ~fb & ~white_attacks:
                keep ^= king
            if keep == frozen:
                return frozen, white_attacks, black_attacks
            frozen = keep

    def _make_world(self) -> _World:
        """The world of the present hypotheses (the module doc, 2)."""
        pawns = self.pawns
        kings = self.kings
        never_capture = self.never_capture
        never_captured = self.never_captured
        walls, white_attacks, black_attacks = self._walls(
            (never_captured & ~pawns) | (never_capture & never_captured) | kings
        )
        allowed = _ALL & ~walls
        stoppers = pawns & never_capture & never_captured
        # A king never moves onto a square attacked by a wall (moving into check).
        white_king = kings & self.white
        black_king = kings & self.black
        white_fill = _remembered_fill(_KING_KIND, _fill_king, white_king, allowed & ~black_attacks)
        black_fill = _remembered_fill(_KING_KIND, _fill_king, black_king, allowed & ~white_attacks)
        # A king whose fill lies on one file can never leave it, so a pawn of that file that
        # never captures can never pass it: the king stands behind the pawn's furthest square.
        # tops[c]: for a pawn of colour c, the furthest square a stopping man may stand on
        white_tops: dict[int, int] = {}
        black_tops: dict[int, int] = {}
        for king, reach in ((white_king, white_fill), (black_king, black_fill)):
            king_sq = king.bit_length() - 1
            if not reach & ~chess.BB_FILES[king_sq & 7]:
                stoppers |= king
                white_tops[king_sq] = reach.bit_length() - 1
                black_tops[king_sq] = (reach & -reach).bit_length() - 1
        sides = []
        for color, own, king_fill, own_tops in (
            (chess.WHITE, self.white, white_fill, white_tops),
            (chess.BLACK, self.black, black_fill, black_tops),
        ):
            occupy = walls & own & ~kings
            mobile = own & ~walls
            last = _LAST_RANK[color]
            pawn_attacks = _white_pawn_attacks if color else _black_pawn_attacks
            promo = 0
            checks = 0
            captures = 0
            pawn_blockers: list[int] = []
            movers: list[tuple[int, int]] = []
            quiet_list: list[tuple[int, int]] = []
            quiet = pawns & mobile & never_capture
            if quiet:
                # the most advanced first: the pawns behind it may stop at its furthest square
                ahead = AHEAD[color]
                quiet_regions = 0
                while quiet:
                    if color:
                        sq = quiet.bit_length() - 1
                        bb = _BB[sq]
                    else:
                        bb = quiet & -quiet
                        sq = bb.bit_length() - 1
                    quiet ^= bb
                    front = ahead[sq]
                    obstacles = front & (walls | stoppers)
                    if not obstacles:
                        region = bb | front
                    else:
                        if color:
                            end = (obstacles & -obstacles).bit_length() - 1
                        else:
                            end = obstacles.bit_length() - 1
                        if not _BB[end] & walls:
                            # the nearest obstacle stops it, at most at its own furthest square
                            end = own_tops.get(end, end)
                        region = bb | (front & ~(_BB[end] | ahead[end]))
                    if region & last:
                        # It may promote and the new piece leave the file: it stops nobody.
                        stoppers &= ~bb
                    elif color:
                        own_tops[sq] = region.bit_length() - 1
                    else:
                        own_tops[sq] = (region & -region).bit_length() - 1
                    quiet_list.append((bb, region))
                    quiet_regions |= region
                    pawn_blockers.append(region)
                checks = pawn_attacks(quiet_regions)
                promo = quiet_regions & last
                occupy |= quiet_regions
            capturing = pawns & mobile & ~never_capture
            if capturing:
                kind = _PAWN_KIND[color]
                fill = _PAWN_FILL[color]
                capture_regions = 0
                while capturing:
                    bb = capturing & -capturing
                    capturing ^= bb
                    region = _remembered_fill(kind, fill, bb, allowed)
                    movers.append((bb, region))
                    capture_regions |= region
                    pawn_blockers.append(region)
                attacks = pawn_attacks(capture_regions)
                checks |= attacks
                captures |= attacks
                promo |= capture_regions & last
                occupy |= capture_regions
            # Pieces promoted anywhere: a queen (its king-step fill holds the rook and bishop
            # fills) or a knight. Each pawn may stand where any promoted piece may.
            if promo:
                queen = _remembered_fill(_KING_KIND, _fill_king, promo, allowed)
                knight = _remembered_fill(_KNIGHT_KIND, _fill_knight, promo, allowed)
                promoted = queen | knight
                attacks = _king_step(queen) | _knight_step(knight)
                checks |= attacks
                captures |= attacks
                occupy |= promoted
                blockers = [region | promoted for region in pawn_blockers]
            else:
                blockers = pawn_blockers
            for of_type, kind, fill, step in self.kinds:
                same = of_type & mobile
                if not same:
                    continue
                union = 0
                rest = same
                while rest:
                    bb = rest & -rest
                    rest ^= bb
                    region = _remembered_fill(kind, fill, bb, allowed)
                    movers.append((bb, region))
                    union |= region
                    blockers.append(region)
                attacks = step(union)
                checks |= attacks
                captures |= attacks
                occupy |= union
            sides.append(
                _Side(
                    king=king_fill,
                    occupy=occupy,
                    checks=checks,
                    captures=captures,
                    blockers=blockers,
                    quiet=quiet_list,
                    movers=movers,
                )
            )
        white, black = sides
        # The pawn that has just made a double step "stood" on the passed-over square as far
        # as en passant captures are concerned.
        if self.ep >= 0:
            (black if self.turn else white).occupy |= _BB[self.ep]
        return _World(walls, (white_attacks, black_attacks), white, black)

    def _drop(self, world: _World) -> bool:
        """Drop the hypotheses ``world`` breaks; False when it breaks none (it is final)."""
        never_capture = self.never_capture
        never_captured = self.never_captured
        pawns = self.pawns
        walls = world.walls
        bad_s = bad_p = 0
        for color, own, side, enemy, wattacks in (
            (chess.WHITE, self.white, world.white, world.black, world.wattacks_white),
            (chess.BLACK, self.black, world.black, world.white, world.wattacks_black),
        ):
            enemy_occupy = enemy.occupy
            king_danger = _king_step(enemy.king) & ~wattacks
            danger = enemy.captures | king_danger
            mobile = own & ~self.kings & ~walls
            # A pawn of S is dropped when an enemy piece may stand on a square it attacks (for
            # the walls, the squares from which a pawn attacks that enemy square), a piece of
            # P when an enemy man may attack a square it may stand on.
            if color:
                bad_s |= walls & own & pawns & _black_pawn_attacks(enemy_occupy)
                pawn_attacks = _white_pawn_attacks
            else:
                bad_s |= walls & own & pawns & _white_pawn_attacks(enemy_occupy)
                pawn_attacks = _black_pawn_attacks
            hit = walls & own & ~self.kings & danger
            if hit & ~enemy.captures and not mobile and self.ep < 0:
                # only the enemy king may take them: spare those whose capture stalemates
                hit &= ~self._stalemating(world, color, hit & ~enemy.captures)
            bad_p |= hit
            for bb, region in side.quiet:
                if pawn_attacks(region) & enemy_occupy:
                    bad_s |= bb
                if region & danger and not self._spared(world, color, bb, region, mobile):
                    bad_p |= bb
            for bb, region in side.movers:
                if region & danger and not self._spared(world, color, bb, region, mobile):
                    bad_p |= bb
            # (a pawn taken en passant after a double step passed over a square of its region
            # that the capturing pawn attacks, so the test above covers it)
        # ... except for the pawn that has just made its double step
        ep = self.ep
        if ep >= 0 and _BB[ep] & world.side(self.turn).captures:
            bad_p |= _BB[ep + (-8 if self.turn else 8)]
        bad_s &= never_capture
        bad_p &= never_captured
        if not bad_s and not bad_p:
            return False
        self.never_capture = never_capture & ~bad_s
        self.never_captured = never_captured & ~bad_p
        return True

    def _spared(self, world: _World, color: chess.Color, bb: int, region: int, mobile: int) -> bool:
        """True when the man ``bb`` (of ``color``, standing in ``region``), the only mobile man
        of its side but the king, can be taken only by the enemy king, and only where that
        capture stalemates (see ``_stalemating``)."""
        if mobile != bb or self.ep >= 0:
            return False
        enemy = world.side(not color)
        if region & enemy.captures:
            return False
        hit = region & _king_step(enemy.king) & ~world.wattacks(color)
        return not hit & ~self._stalemating(world, color, hit)

    def _stalemating(self, world: _World, color: chess.Color, squares: int) -> int:
        """The squares of ``squares`` where the enemy king taking a man of ``color`` leaves
        ``color`` stalemated, in every position the world allows.

        The caller makes sure that every other man of ``color`` but the king is a wall (so it
        cannot move: the square of the taken man now holds the enemy king, which no man
        takes). The king of ``color`` stands in its fill, on a square not next to the capture;
        it is stalemated when every square next to it that holds no wall of its own and no
        enemy wall attacks (the squares it might step to) is next to the enemy king. It is not in
        check: a king gives no check, the taken man's square still holds a man, and no
        enemy slider stands on a line, past a square the enemy king may come from, to a square
        the king may stand on (walls stop the lines). Such a capture ends the game at once,
        so it never lets a mate happen: it breaks no hypothesis that matters.
        """
        walls = world.walls
        own_side = world.side(color)
        enemy = world.side(not color)
        own = self.white if color else self.black
        # (an enemy wall no enemy wall guards might be taken: a move)
        allowed = ~(walls & own) & ~world.wattacks(not color)
        enemy_walls = walls & ~own
        sliders = enemy.occupy & ~(self.pawns & enemy_walls)
        stalemating = 0
        while squares:
            bb = squares & -squares
            squares ^= bb
            sq = bb.bit_length() - 1
            near = _KING_NEAR[sq] | bb
            rest = own_side.king & ~near
            ok = True
            while rest and ok:
                low = rest & -rest
                rest ^= low
                r = low.bit_length() - 1
                if _KING_NEAR[r] & allowed & ~near or _discovers(
                    r, _KING_NEAR[sq] & enemy.king, walls, sliders
                ):
                    ok = False
            if ok:
                stalemating |= bb
        return stalemating

    def _world(self, index: int) -> _World:
        """The world of round ``index`` (the rounds before it broke some hypothesis)."""
        worlds = self.worlds
        while len(worlds) <= index:
            worlds.append(self._make_world())
        return worlds[index]

    def _final(self, index: int) -> bool:
        """Is the world of round ``index`` the consistent one?"""
        if index < self.checked:
            return False
        if index == self.final_at:
            return True
        if self._drop(self.worlds[index]):
            self.checked = index + 1
            return False
        self.final_at = index
        return True

    def mate(self, color: chess.Color) -> bool | None:
        """The mate-square test for ``color`` (module doc, 3): True when a mate cannot be
        excluded, False or None (no piece can ever check) when it is.

        Quick exit (answering "maybe" is always sound): the worlds of the rounds only grow as
        hypotheses are dropped, so once one of them passes the test the last one almost
        always does too; the rounds after it are not run.
        """
        if color in self.answers:
            return self.answers[color]
        with _ROUNDS:  # an analysis is shared (between threads too): one runs its rounds
            index = 0
            while True:
                result = _mate_world(self, self._world(index), color)
                if result is True or self._final(index):
                    break
                index += 1
            self.answers[color] = result
        return result


_ROUNDS = threading.Lock()


_CACHE: dict[tuple[int, ...], _Analysis] = {}


def _cache_key(board: chess.Board) -> tuple[int, ...]:
    """What the analysis depends on (not the castling rights)."""
    return (
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


def _remember(key: tuple[int, ...], analysis: _Analysis) -> None:
    if len(_CACHE) >= 1024:
        _CACHE.clear()
    _CACHE[key] = analysis


def _analyse(board: chess.Board) -> _Analysis:
    """The analysis of ``board``, remembered for the other side's question."""
    key = _cache_key(board)
    analysis = _CACHE.get(key)
    if analysis is None:
        analysis = _Analysis(board)
        _remember(key, analysis)
    return analysis


def _same_analysis(board: chess.Board, move: chess.Move, analysis: _Analysis) -> bool:
    """True when the position after ``move`` has exactly the analysis of ``board``.

    So it is for a quiet move (no capture, promotion, castling, nor en passant square before
    or after) of a piece that is no wall, before or after it: the walls stay the same (they
    never depended on the piece, and it does not become one), and its fill is the same, as it
    moved inside it through squares that are no walls. For a king, the square it leaves must
    be one no wall can attack (then it lies in the fill from the square it reaches, and no
    wall checks the king on either); a king confined to one file stops the pawns of that file
    the same from both squares (no man stands between them, and its fill sets where it stops
    them). Every other fill, the hypotheses and the mate test then come out the same.
    """
    if board.ep_square is not None or move.promotion:
        return False
    start = _BB[move.from_square]
    to = move.to_square
    target = _BB[to]
    if start & (board.pawns | analysis.stuck) or target & board.occupied:
        return False
    own = board.occupied_co[board.turn] ^ start ^ target
    if start & board.kings:
        if abs((move.from_square & 7) - (to & 7)) > 1:
            return False  # castling
        # every square any wall of the other side could ever attack
        enemy = board.occupied_co[not board.turn]
        attacks = analysis._wall_attacks(enemy, not board.turn)
        return not start & attacks and bool(_KING_NEAR[to] & ~own & ~attacks)
    if start & board.knights:
        near = _KNIGHT_NEAR[to]
    elif start & board.bishops:
        near = _DIAG_NEAR[to]
    elif start & board.rooks:
        near = _ORTH_NEAR[to]
    else:
        near = _KING_NEAR[to]
    return bool(near & ~own)


_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _discovers(king: int, starts: int, walls: int, sliders: int) -> bool:
    """Might a king moving away from one of ``starts`` uncover a line from a slider (standing
    on one of ``sliders``) to the square ``king``? Lines stop at walls; other men are taken
    as absent, which only says "might" more often."""
    file, rank = king & 7, king >> 3
    for df, dr in _DIRECTIONS:
        f, r = file + df, rank + dr
        passed = False
        while 0 <= f < 8 and 0 <= r < 8:
            bb = _BB[8 * r + f]
            if passed and bb & sliders:
                return True
            if bb & walls:
                break
            if bb & starts:
                passed = True
            f += df
            r += dr
    return False


def _can_block(squares: int, regions: list[int]) -> bool:
    """Can distinct pieces (each given by the squares it may stand on) fill every square?"""
    targets = list(chess.scan_forward(squares))
    if len(targets) > len(regions):
        return False
    owner: dict[int, int] = {}  # piece index -> target square

    def augment(sq: int, seen: set[int]) -> bool:
        bb = _BB[sq]
        for i, region in enumerate(regions):
            if region & bb and i not in seen:
                seen.add(i)
                if i not in owner or augment(owner[i], seen):
                    owner[i] = sq
                    return True
        return False

    return all(augment(sq, set()) for sq in targets)


def _mate_squares_exist(board: chess.Board, color: chess.Color) -> tuple[bool | None, int]:
    """False when no square can ever see ``color`` mate; None when no piece can ever check.

    True when a mate could not be excluded. Second: the squares left out only because the
    defending king cannot arrive there (``_arrives``), where a mate at once is still possible.
    """
    pawns = board.pawns
    white = board.occupied_co[chess.WHITE]
    black = board.occupied_co[chess.BLACK]
    white_pawns = pawns & white
    black_pawns = pawns & black
    if not (white_pawns << 8) & black and not (black_pawns >> 8) & white:
        # Quick exit (answering "maybe" is always sound): when no pawn has an enemy man right
        # in front of it, there are (but for freak cases of pieces boxed in by their own
        # pawns) no walls, and the mate test then passes (on the reference positions it
        # never failed there).
        return True, 0
    if not white_pawns & (black_pawns >> 8) and (white if color else black) & (
        board.queens | board.rooks
    ):
        # Quick exit (answering "maybe" is always sound): with no pawns blocked head-on there
        # are (but for freak cases) no walls, and a rook or queen then covers every square.
        return True, 0
    analysis = _analyse(board)
    result = analysis.mate(color)
    return result, analysis.unreached.get(color, 0)


def _mate_world(analysis: _Analysis, world: _World, color: chess.Color) -> bool | None:
    """The mate-square test of the module doc in one world."""
    if color:
        att, dfd, frozen_cover = world.white, world.black, world.wattacks_white
        king = analysis.kings & analysis.black
    else:
        att, dfd, frozen_cover = world.black, world.white, world.wattacks_black
        king = analysis.kings & analysis.white
    walls = world.walls
    # A wall may check the king where it stands now (never later: the king cannot come back to
    # a square a wall attacks).
    checks = att.checks
    candidates = dfd.king & (checks | (frozen_cover & king))
    if not candidates:
        return None
    cover = checks | frozen_cover
    blockers = dfd.blockers
    n_blockers = len(blockers)
    block_any = 0
    for region in blockers:
        block_any |= region
    att_king = att.king
    # When every defending man but the king is a wall, the defender's last move before the
    # mate brought its king to k from a square next to it (``_arrives``), unless the mate comes
    # at once: the squares left out for that reason are noted, for ``_static`` to check that.
    arriving = not blockers
    while candidates:
        bb = candidates & -candidates
        candidates ^= bb
        k = bb.bit_length() - 1
        around = _KING_NEAR[k]
        if arriving and not _arrives(k, dfd.king, att, cover, walls):
            analysis.unreached[color] = analysis.unreached.get(color, 0) | bb
            continue
        need = around & ~walls & ~cover
        if not need:
            return True
        # The attacking king, two squares away, may cover the squares next to it; the
        # squares no defending man can block must all be among them.
        places = _RING2[k] & att_king
        unblockable = need & ~block_any
        options = [] if unblockable else [0]
        while unblockable and places:
            low = unblockable & -unblockable
            unblockable ^= low
            places &= _KING_NEAR[low.bit_length() - 1]
        while places:
            low = places & -places
            places ^= low
            options.append(_KING_NEAR[low.bit_length() - 1] & around)
        for kc in options:
            rest = need & ~kc
            if not rest:
                return True
            if rest & ~block_any or chess.popcount(rest) > n_blockers:
                continue
            if _can_block(rest, blockers):
                return True
    return False


def _arrives(k: int, king_fill: int, att: _Side, cover: int, walls: int) -> bool:
    """Might the defending king step onto ``k`` from a neighbour ``j`` as the defender's last
    move before a mate there, when its king is the defender's only man that moves?

    At the mate, ``j`` (just left by the king) must be unavailable to it. If the attacker's
    last move was not a king move, its king stands where it stood when the defending king was
    on ``j``: not next to ``j``, so ``j`` is covered by another man (``cover``) or holds the
    man that moved last (``att.occupy``). If it was a king move, it gave a discovered check:
    the king left a square ``p`` on a line from one of its pieces to ``k``, not next to ``k``
    nor to ``j`` (the defending king stood on each), for a square next to ``j``; ``p`` is two
    squares from ``j``.
    """
    arrivals = _KING_NEAR[k] & king_fill
    if arrivals & (cover | att.occupy):
        return True
    near_k = _KING_NEAR[k] | _BB[k]
    while arrivals:
        low = arrivals & -arrivals
        arrivals ^= low
        starts = _RING2[low.bit_length() - 1] & att.king & ~near_k
        if starts and _discovers(k, starts, walls, att.occupy):
            return True
    return False


def _mates_now(board: chess.Board) -> bool:
    """Does the side to move have a checkmate in one?"""
    work = board.copy(stack=False)
    for move in list(work.generate_legal_moves()):
        if work.gives_check(move):
            work.push(move)
            mate = work.is_checkmate()
            work.pop()
            if mate:
                return True
    return False


def _static(board: chess.Board, color: chess.Color) -> str | None:
    if board.has_insufficient_material(color):
        return "insufficient material"
    result, unreached = _mate_squares_exist(board, color)
    if not result and unreached:
        # ``_arrives`` holds when the attacker's king moves only one square (castling moves a
        # rook too, which may check), and but for a mate there already or at once.
        if board.castling_rights & board.occupied_co[color]:
            return None
        if unreached & board.kings & board.occupied_co[not color]:
            # the king has not to arrive where it stands: a mate now or with the next move
            if board.turn == color:
                if _mates_now(board):
                    return None
            elif board.is_check() and board.is_checkmate():
                return None
    if result is None:
        return "no piece can ever attack a square the enemy king can reach"
    if result is False:
        if unreached:
            return (
                "the enemy king, the only man of its side that can move, can never step onto "
                "a square where it could be mated"
            )
        return "the enemy king's escape squares can never all be covered or blocked"
    return None


# The forced-line search: nodes with at most ``_WIDTH`` legal moves are expanded, down to
# ``_DEPTH`` plies and ``_BUDGET`` expanded moves in all.
_WIDTH = 2
_DEPTH = 12
_BUDGET = 100

# Per square: the squares on its rank and file, and on its diagonals (empty board).
_ORTH_LINES = [chess.BB_RANK_ATTACKS[s][0] | chess.BB_FILE_ATTACKS[s][0] for s in chess.SQUARES]
_DIAG_LINES = [chess.BB_DIAG_ATTACKS[s][0] for s in chess.SQUARES]
# Per pair of squares on a line: the squares strictly between them.
_BETWEEN = [[chess.between(a, b) for b in chess.SQUARES] for a in chess.SQUARES]


def _slides(bb: int, sq: int, board: chess.Board, occupied: int) -> int:
    """The squares the bishop, rook or queen ``bb`` on ``sq`` attacks."""
    attacks = 0
    if bb & (board.bishops | board.queens):
        attacks = chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occupied]
    if bb & (board.rooks | board.queens):
        attacks |= (
            chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occupied]
            | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occupied]
        )
    return attacks


def _scan_moves(board: chess.Board) -> tuple[bool, list[chess.Move] | None]:
    """The side to move's legal moves from the bitboards, when they are few: ``(True, None)``
    when it surely has more than ``_WIDTH``; ``(True, moves)`` with all of them, in
    python-chess's order, when it has at most ``_WIDTH``; ``(False, None)`` when it cannot
    tell (python-chess then generates them).

    Out of check, a king may step to any square no enemy man attacks (no slider looks through
    the king, as none gives check), and a man that is not pinned may make any of its moves
    (moving it uncovers no attack on the king; taking a piece or standing in the way adds
    none). That counts surely legal moves. When there is no pinned man, no en passant square
    and no castling right, those are all the moves, counted exactly (a promotion is four).
    """
    us = board.turn
    own = board.occupied_co[us]
    them = board.occupied_co[not us]
    occupied = own | them
    kings = board.kings
    king_sq = (kings & own).bit_length() - 1
    # every square the other side attacks now
    men = them & board.pawns
    attacked = _black_pawn_attacks(men) if us else _white_pawn_attacks(men)
    attacked |= _knight_step(them & board.knights) | _king_step(them & kings)
    sliders = them & (board.bishops | board.rooks | board.queens)
    rest = sliders
    while rest:
        bb = rest & -rest
        rest ^= bb
        attacked |= _slides(bb, bb.bit_length() - 1, board, occupied)
    if attacked & kings & own:
        return False, None  # in check
    king_moves = _KING_NEAR[king_sq] & ~own & ~attacked
    count = chess.popcount(king_moves)
    if count > _WIDTH:
        return True, None
    # the men pinned to the king: the only man between it and an enemy slider on its line
    pinned = 0
    snipers = sliders & (
        (_ORTH_LINES[king_sq] & (board.rooks | board.queens))
        | (_DIAG_LINES[king_sq] & (board.bishops | board.queens))
    )
    between = _BETWEEN[king_sq]
    while snipers:
        bb = snipers & -snipers
        snipers ^= bb
        line = between[bb.bit_length() - 1] & occupied
        if line & own and not line & (line - 1):
            pinned |= line
    exact = not pinned and board.ep_square is None and not board.castling_rights
    free = own & ~kings & ~pinned
    pieces = free & ~board.pawns
    while pieces:
        bb = pieces & -pieces
        pieces ^= bb
        sq = bb.bit_length() - 1
        if bb & board.knights:
            reach = chess.BB_KNIGHT_ATTACKS[sq]
        else:
            reach = _slides(bb, sq, board, occupied)
        count += chess.popcount(reach & ~own)
        if count > _WIDTH:
            return True, None
    pawns = free & board.pawns
    if pawns:
        if us:
            single = (pawns << 8) & ~occupied & _ALL
            double = ((single & chess.BB_RANK_3) << 8) & ~occupied
            east = ((pawns & _NOT_H) << 9) & them
            west = ((pawns & _NOT_A) << 7) & them
        else:
            single = (pawns >> 8) & ~occupied
            double = ((single & chess.BB_RANK_6) >> 8) & ~occupied
            east = ((pawns & _NOT_H) >> 7) & them
            west = ((pawns & _NOT_A) >> 9) & them
        # each target of a shifted set is one move (four on the last rank)
        back = chess.BB_BACKRANKS
        promoting = chess.popcount(single & back) + chess.popcount((east | west) & back)
        promoting += chess.popcount(east & west & back)  # a square taken on from both sides
        count += (
            chess.popcount((single | double) & ~back)
            + chess.popcount(east & ~back)
            + chess.popcount(west & ~back)
            + 4 * promoting
        )
        if count > _WIDTH:
            return True, None
    if not exact:
        return False, None
    return True, _listed_moves(board, king_sq, king_moves)


def _listed_moves(board: chess.Board, king_sq: int, king_moves: int) -> list[chess.Move]:
    """The legal moves, in python-chess's order, of a side that is not in check and has no
    pinned man, no en passant square and no castling right (``king_moves``: its king's)."""
    us = board.turn
    own = board.occupied_co[us]
    them = board.occupied_co[not us]
    occupied = own | them
    moves: list[chess.Move] = []
    for start in chess.scan_reversed(own & ~board.pawns):
        if start == king_sq:
            reach = king_moves
        elif _BB[start] & board.knights:
            reach = chess.BB_KNIGHT_ATTACKS[start] & ~own
        else:
            reach = _slides(_BB[start], start, board, occupied) & ~own
        moves.extend(chess.Move(start, to) for to in chess.scan_reversed(reach))
    pawns = own & board.pawns
    promotions = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
    for start in chess.scan_reversed(pawns):
        for to in chess.scan_reversed(chess.BB_PAWN_ATTACKS[us][start] & them):
            if _BB[to] & chess.BB_BACKRANKS:
                moves.extend(chess.Move(start, to, piece) for piece in promotions)
            else:
                moves.append(chess.Move(start, to))
    if us:
        single = (pawns << 8) & ~occupied & _ALL
        double = ((single & chess.BB_RANK_3) << 8) & ~occupied
        back = -8
    else:
        single = (pawns >> 8) & ~occupied
        double = ((single & chess.BB_RANK_6) >> 8) & ~occupied
        back = 8
    for to in chess.scan_reversed(single):
        if _BB[to] & chess.BB_BACKRANKS:
            moves.extend(chess.Move(to + back, to, piece) for piece in promotions)
        else:
            moves.append(chess.Move(to + back, to))
    moves.extend(chess.Move(to + 2 * back, to) for to in chess.scan_reversed(double))
    return moves


def _first_moves(board: chess.Board) -> list[chess.Move]:
    """Up to ``_WIDTH + 1`` legal moves (so "more than ``_WIDTH``" can be told)."""
    return list(islice(board.legal_moves, _WIDTH + 1))


# Per position (``_key``): its legal moves when there are at most ``_WIDTH``, else None (in a
# 1-tuple). Both sides' questions walk the same forced lines.
_REPLIES: dict[tuple[int, ...], tuple[list[chess.Move] | None]] = {}


def _few_moves(board: chess.Board, key: tuple[int, ...]) -> list[chess.Move] | None:
    """The legal moves of ``board`` (whose ``_key`` is ``key``) when there are at most
    ``_WIDTH``; None when there are more."""
    known = _REPLIES.get(key)
    if known is not None:
        return known[0]
    decided, moves = _scan_moves(board)
    if not decided:
        moves = _first_moves(board)
        if len(moves) > _WIDTH:
            moves = None
    if len(_REPLIES) >= 4096:
        _REPLIES.clear()
    _REPLIES[key] = (moves,)
    return moves


def _key(board: chess.Board) -> tuple[int, ...]:
    """What fixes the legal moves of a position (and so all its continuations; Chess960
    writes castling differently)."""
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
        board.chess960,
    )


# Per position (``_key``) and legal move: the position after the move, and its ``_key``. Both
# sides' questions walk the same forced lines (the boards are never changed).
_CHILDREN: dict[tuple[tuple[int, ...], chess.Move], tuple[chess.Board, tuple[int, ...]]] = {}


def _child(
    board: chess.Board, key: tuple[int, ...], move: chess.Move
) -> tuple[chess.Board, tuple[int, ...]]:
    """The position after ``move`` in ``board`` (whose ``_key`` is ``key``), and its key."""
    found = _CHILDREN.get((key, move))
    if found is None:
        child = board.copy(stack=False)
        child.push(move)
        found = (child, _key(child))
        if board.ep_square is None:
            # A child with the analysis of this position shares it (see ``_same_analysis``).
            analysis = _analyse(board)
            if _same_analysis(board, move, analysis):
                shared = _cache_key(child)
                if shared not in _CACHE:
                    _remember(shared, analysis)
        if len(_CHILDREN) >= 2048:
            _CHILDREN.clear()
        _CHILDREN[key, move] = found
    return found


def _forced(
    board: chess.Board,
    key: tuple[int, ...],
    color: chess.Color,
    moves: list[chess.Move],
    *,
    depth: int,
    budget: list[int],
    seen: set[tuple[int, ...]],
) -> bool:
    """True when every continuation of ``board`` (not proved itself, with the legal ``moves``,
    at most ``_WIDTH``; ``key``: its ``_key``) is proved within ``depth`` plies.

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
        child, child_key = _child(board, key, move)
        if child_key in seen or _static(child, color) is not None:
            continue
        replies = _few_moves(child, child_key)
        if replies is None:
            return False
        if not replies:
            # checkmate of color's king, or stalemate: over without color mating
            if child.turn == color or not child.is_check():
                continue
            return False
        if depth <= 1:
            return False
        seen.add(child_key)
        if not _forced(child, child_key, color, replies, depth=depth - 1, budget=budget, seen=seen):
            return False
    return True


def prove_cannot_mate(board: chess.Board, color: chess.Color) -> str | None:
    reason = _static(board, color)
    if reason is not None:
        return reason
    key = _key(board)
    moves = _few_moves(board, key)
    if moves is None:
        return None
    if not moves:
        if board.is_check():
            if board.turn == color:
                return "already checkmated"
            return None
        return "stalemate"
    if _forced(board, key, color, moves, depth=_DEPTH, budget=[_BUDGET], seen={key}):
        return "every continuation of the forced line is proved"
    return None
