"""A bounded cooperative search for a mating line (a helpmate: the opponent cooperates).

``find_mate(board, color, limit)`` returns ``(line, exhausted)``: ``line`` is a list of moves
from the position to a checkmate given by ``color`` when one was found, else ``None``;
``exhausted`` is True only when the search covered every possible continuation and found no
mate (a proof that ``color`` cannot mate), False when it stopped at the node ``limit``.

The search is a greedy best-first walk over the graph of reachable positions (keyed like
python-chess's transposition key, so each position is expanded once). Every generated move is
scored without being played by an estimate of how far the mate is: the loser's king near a
corner, its flight squares taken by its own men or covered by the winner, the winner's king
and two nearest pieces (a pawn counts as a queen after its promotion walk) close to it, the
loser's pieces next to their king. Each winning check is tried for mate as it is generated.
Positions where the winner has a bare king, or the material is insufficient for both, are
dead ends, and so are the positions reached by a pawn move or a capture where the sound static
analysis (``prove_cannot_mate`` of :mod:`arbitro.adjudication.static`) proves that the winner
cannot mate: no mating line passes through them. (Those moves are what changes its answer; the
check is skipped, which only searches more, for a pawn structure and material count where it
once failed.) A second queue holds the same moves ordered with an extra cost for the pawns left
on the board and the loser's pawns' distance to promotion (pawn captures open locked chains, a
promoted man of the loser can block its own king); every fourth expansion is taken from it.
Both queues share the set of expanded positions, so the order changes nothing else. Whether a
winning move checks is decided without playing it (``_gives_check``: direct and discovered
checks from the bitboards, exactly python-chess's ``gives_check``; castling and en passant are
left to python-chess): an inexact test could miss a mate and so make an emptied queue a false
proof, so it must be exact. Because no other position is pruned, an emptied queue proves that
no mate exists: a mating line would pass only through expanded positions and end in a mate
found as its last move was generated. A node is one generated move, and a run of the static
analysis counts as ``STATIC_COST`` nodes (``PYTHON_STATIC_COST`` in the Python search alone);
``limit`` bounds them.

Speed (none of it changes what is searched, nor in which order): a queued move's position is
keyed straight from its parent's key and the move (``_child_key``, exactly the key python-chess
gives after playing it; castling rights, en passant and double steps are played instead), so a
position already expanded is skipped before any board is built, and an entry the other queue
already gave is skipped by its number; the estimate of the moves that leave the loser's king
where it is is summed from parts computed once per expansion (``_cost`` taken apart: the same
numbers).

The same search is compiled (``_helpmate.c``, built by ``setup.py``) and runs instead for
standard chess: the same legal moves in the same order, the same keys and estimates, so the
same positions are expanded in the same order and the answer, the line and the node count are
the same; only the static analysis's pruning calls back into Python. It is some 15 to 60 times
as fast (the fewer runs of the static analysis, the more). Chess960 positions, and a machine
where it could not be built, use the Python search.
"""

from __future__ import annotations

import heapq

import chess

from arbitro.adjudication.static import prove_cannot_mate

try:
    # the same search, compiled (setup.py builds it when a C compiler is at hand)
    from arbitro.adjudication import _helpmate
except ImportError:  # pragma: no cover - a machine without a C compiler
    _helpmate = None  # type: ignore[assignment]

#: Is the compiled search here (standard chess runs it)?
COMPILED = _helpmate is not None

Key = tuple[int, int, int, int, int, int, int, int, bool, int, int | None]

_BB = chess.BB_SQUARES


def _key(board: chess.Board) -> Key:
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else None
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.turn,
        board.clean_castling_rights(),
        ep,
    )


def _from_key(key: Key, chess960: bool) -> chess.Board:
    board = chess.Board(None, chess960=chess960)
    (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        white,
        black,
        board.turn,
        board.castling_rights,
        board.ep_square,
    ) = key
    board.occupied_co[chess.WHITE] = white
    board.occupied_co[chess.BLACK] = black
    board.occupied = white | black
    return board


def _child_key(key: Key, move: chess.Move) -> Key | None:
    """The key of the position after ``move`` in the position of ``key``, straight from the
    bitboards, exactly as ``_key`` gives it after ``push``; ``None`` (play it) when castling
    rights or an en passant square are involved, or for a pawn's double step (the en passant
    square it may create)."""
    pawns, knights, bishops, rooks, queens, kings, white, black, turn, castling, ep = key
    if castling or ep is not None:
        return None
    frm = move.from_square
    to = move.to_square
    start = _BB[frm]
    target = _BB[to]
    if start & pawns and (to - frm == 16 or frm - to == 16):
        return None
    clear = ~target
    if turn:
        white = (white & ~start) | target
        black &= clear
    else:
        black = (black & ~start) | target
        white &= clear
    piece = move.promotion
    if start & pawns:
        pawns &= ~start
        piece = piece or chess.PAWN
    elif start & knights:
        knights &= ~start
        piece = chess.KNIGHT
    elif start & bishops:
        bishops &= ~start
        piece = chess.BISHOP
    elif start & rooks:
        rooks &= ~start
        piece = chess.ROOK
    elif start & queens:
        queens &= ~start
        piece = chess.QUEEN
    else:
        kings &= ~start
        piece = chess.KING
    pawns &= clear
    knights &= clear
    bishops &= clear
    rooks &= clear
    queens &= clear
    if piece == chess.PAWN:
        pawns |= target
    elif piece == chess.KNIGHT:
        knights |= target
    elif piece == chess.BISHOP:
        bishops |= target
    elif piece == chess.ROOK:
        rooks |= target
    elif piece == chess.QUEEN:
        queens |= target
    else:
        kings |= target
    return (pawns, knights, bishops, rooks, queens, kings, white, black, not turn, 0, None)


def _knight_distances() -> list[list[int]]:
    table = []
    for start in chess.SQUARES:
        dist = [99] * 64
        dist[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for sq in frontier:
                for to in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[sq]):
                    if dist[to] == 99:
                        dist[to] = dist[sq] + 1
                        nxt.append(to)
            frontier = nxt
        table.append(dist)
    return table


_KNIGHT = _knight_distances()
#: Knight moves between any two squares, for the other searches too.
KNIGHT_DISTANCES = _KNIGHT
_CHEB = [[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES]
_CORNER = [
    min(chess.square_distance(s, c) for c in (chess.A1, chess.H1, chess.A8, chess.H8))
    for s in chess.SQUARES
]
_EDGE = [
    min(
        chess.square_file(s),
        7 - chess.square_file(s),
        chess.square_rank(s),
        7 - chess.square_rank(s),
    )
    for s in chess.SQUARES
]


# Per square of the loser's king and square of a man of its: the man's term in ``_cost``.
_NEAR = [[min(_CHEB[sq][k] - 1, 3) for sq in chess.SQUARES] for k in chess.SQUARES]


def _piece_distance(piece: int, sq: int, lk: int) -> int:
    """A winner's piece's term in ``_cost``: its distance from the loser's king."""
    if piece == chess.KNIGHT:
        return _KNIGHT[sq][lk]
    if piece == chess.BISHOP:
        return _CHEB[sq][lk]
    return max(0, _CHEB[sq][lk] - 1)


def _lone_king(board: chess.Board, color: chess.Color) -> bool:
    return not board.occupied_co[color] & ~board.kings


_PawnCache = dict[tuple[int, int, int], tuple[int, int]]


def _pawn_units(
    cache: _PawnCache, color: chess.Color, lk: int, pawns: int, theirs: int
) -> tuple[int, int]:
    """The two smallest costs of a pawn: moves to promote (a blocker costs extra), then the
    queen's moves to the loser's king."""
    found = cache.get((lk, pawns, theirs))
    if found is not None:
        return found
    best = second = 99
    for sq in chess.scan_forward(pawns):
        file = chess.square_file(sq)
        if color == chess.WHITE:
            ahead = chess.BB_FILES[file] & (chess.BB_ALL << (sq + 8))
            steps = 7 - chess.square_rank(sq)
            target = chess.square(file, 7)
        else:
            ahead = chess.BB_FILES[file] & (chess.BB_ALL >> (64 - sq))
            steps = chess.square_rank(sq)
            target = file
        d = steps + 4 * chess.popcount(ahead & theirs) + max(0, _CHEB[target][lk] - 1)
        if d < best:
            best, second = d, best
        elif d < second:
            second = d
    cache[lk, pawns, theirs] = (best, second)
    return best, second


def _attacks(piece: int, sq: int, color: chess.Color, occupied: int) -> int:
    if piece == chess.PAWN:
        return chess.BB_PAWN_ATTACKS[color][sq]
    if piece == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[sq]
    if piece == chess.KING:
        return chess.BB_KING_ATTACKS[sq]
    bb = 0
    if piece in (chess.BISHOP, chess.QUEEN):
        bb |= chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occupied]
    if piece in (chess.ROOK, chess.QUEEN):
        bb |= chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occupied]
        bb |= chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occupied]
    return bb


def _covered(board: chess.Board, mine: int, color: chess.Color) -> int:
    """The squares the men ``mine`` (all of ``color``) attack."""
    occupied = board.occupied
    covered = 0
    men = mine & board.pawns
    for sq in chess.scan_forward(men):
        covered |= chess.BB_PAWN_ATTACKS[color][sq]
    for sq in chess.scan_forward(mine & board.knights):
        covered |= chess.BB_KNIGHT_ATTACKS[sq]
    for sq in chess.scan_forward(mine & board.kings):
        covered |= chess.BB_KING_ATTACKS[sq]
    for sq in chess.scan_forward(mine & (board.bishops | board.queens)):
        covered |= chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occupied]
    for sq in chess.scan_forward(mine & (board.rooks | board.queens)):
        covered |= chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occupied]
        covered |= chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occupied]
    return covered


def _gives_check(board: chess.Board, move: chess.Move, lk: int, mine: int) -> bool:
    """Exactly ``board.gives_check(move)`` for a move of the side to move (owning ``mine``)
    and the enemy king on ``lk``, without playing the move: a direct check by the moved (or
    promoted) piece from its new square, or a discovered one by a slider whose line to the
    king the move opened. Castling and en passant (which also moves a rook or removes a
    second man) are left to python-chess."""
    frm, to = move.from_square, move.to_square
    # (a legal move only castles with a castling right, only takes en passant with its square)
    if (board.castling_rights or board.ep_square is not None) and (
        board.is_castling(move) or board.is_en_passant(move)
    ):
        return board.gives_check(move)
    occupied = (board.occupied & ~chess.BB_SQUARES[frm]) | chess.BB_SQUARES[to]
    piece = move.promotion or board.piece_type_at(frm) or 0
    king = chess.BB_SQUARES[lk]
    if _attacks(piece, to, board.turn, occupied) & king:
        return True
    others = mine & ~chess.BB_SQUARES[frm]
    diagonal = others & (board.bishops | board.queens)
    if diagonal and chess.BB_DIAG_ATTACKS[lk][chess.BB_DIAG_MASKS[lk] & occupied] & diagonal:
        return True
    straight = others & (board.rooks | board.queens)
    return bool(
        straight
        and (
            chess.BB_RANK_ATTACKS[lk][chess.BB_RANK_MASKS[lk] & occupied]
            | chess.BB_FILE_ATTACKS[lk][chess.BB_FILE_MASKS[lk] & occupied]
        )
        & straight
    )


Material = tuple[list[tuple[int, int]], int, int, int]


def _cost(
    cache: _PawnCache, color: chess.Color, covered: int, kings: tuple[int, int], material: Material
) -> int:
    """Estimated distance to a mate by ``color`` (lower is closer).

    ``kings``: the loser's and the winner's king squares; ``material``: the winner's pieces
    (type, square), the winner's pawns, the loser's men and the loser's pawns (bitboards);
    ``covered``: squares the winner attacks.
    """
    lk, wk = kings
    pieces, pawns, loser, loser_pawns = material
    h = 2 * _CORNER[lk] + _EDGE[lk]
    h += 2 * chess.popcount(chess.BB_KING_ATTACKS[lk] & ~loser & ~covered)
    h += max(0, _CHEB[wk][lk] - 2)
    best = second = 99
    for piece, sq in pieces:
        if piece == chess.KNIGHT:
            d = _KNIGHT[sq][lk]
        elif piece == chess.BISHOP:
            d = _CHEB[sq][lk]
        else:
            d = max(0, _CHEB[sq][lk] - 1)
        if d < best:
            best, second = d, best
        elif d < second:
            second = d
    h += _nearest_two(cache, color, lk, (pawns, loser_pawns), (best, second))
    helpers = loser & ~loser_pawns & ~chess.BB_SQUARES[lk]
    for sq in chess.scan_forward(helpers & ~chess.BB_KING_ATTACKS[lk]):
        h += min(_CHEB[sq][lk] - 1, 3)
    return h


def _nearest_two(
    cache: _PawnCache, color: chess.Color, lk: int, men: tuple[int, int], nearest: tuple[int, int]
) -> int:
    """The cost of the winner's two men nearest the loser's king ``lk``: ``nearest`` are its
    pieces' two smallest distances, to which its pawns add theirs (``men``: the winner's pawns
    and the loser's; a pawn counts as a queen after its promotion walk)."""
    pawns, loser_pawns = men
    best, second = nearest
    if pawns:
        pbest, psecond = _pawn_units(cache, color, lk, pawns, loser_pawns)
        if pbest < best:
            best, second = pbest, min(best, psecond)
        elif pbest < second:
            second = pbest
    return 2 * min(best, 30) + min(second, 10)


def _pawn_term(cache: dict[tuple[int, int], int], color: chess.Color, wp: int, lp: int) -> int:
    """A second ordering's extra cost: pawns left on the board (captures open locked chains)
    and the loser's pawns' distance to promotion (a promoted man can block its own king)."""
    found = cache.get((wp, lp))
    if found is not None:
        return found
    t = 4 * chess.popcount(wp | lp)
    for sq in chess.scan_forward(lp):
        t += chess.square_rank(sq) if color == chess.WHITE else 7 - chess.square_rank(sq)
    cache[wp, lp] = t
    return t


_ALT_EVERY = 4  # every fourth expansion comes from the second ordering

#: A run of the static analysis on a reached position counts as this many nodes: it takes about
#: as long as the compiled search takes to generate and score that many moves, so that the
#: limit bounds the time of pawn endings (many such runs) as it does that of piece endings.
#: The Python search, where it runs alone, is ten times slower per move: a run costs it less.
STATIC_COST = 500
PYTHON_STATIC_COST = 50


class _Search:
    def __init__(self, color: chess.Color, limit: int, static_cost: int = STATIC_COST) -> None:
        self.color = color
        self.limit = limit
        self.static_cost = static_cost
        self.nodes = 0
        self.pruned = 0
        # pawn structures and material counts where the static check once failed
        self.unproved: set[tuple[int, int, int, int]] = set()

    def run(self, root: chess.Board) -> tuple[list[chess.Move] | None, bool]:
        color = self.color
        root_key = _key(root)
        parent: dict[Key, tuple[Key, chess.Move] | None] = {}
        heap: list[tuple[int, int, Key, chess.Move | None]] = [(0, 0, root_key, None)]
        alt: list[tuple[int, int, Key, chess.Move | None]] = []
        seq = 0
        cache: _PawnCache = {}
        pcache: dict[tuple[int, int], int] = {}
        turn = 0
        taken: set[int] = set()  # the entries popped from either queue (both hold each one)
        while heap:
            turn += 1
            if alt and turn % _ALT_EVERY == 0:
                _, entry, pkey, pmove = heapq.heappop(alt)
            else:
                _, entry, pkey, pmove = heapq.heappop(heap)
            if entry in taken:
                continue  # its position was reached when the other queue gave it
            taken.add(entry)
            if pmove is None:
                board = _from_key(pkey, root.chess960)
                key = pkey
                parent[key] = None
            else:
                child = _child_key(pkey, pmove)
                if child is None:
                    board = _from_key(pkey, root.chess960)
                    board.push(pmove)
                    key = _key(board)
                    if key in parent:
                        continue
                    # the position as its key has it (an en passant square only when a capture
                    # there is legal): the static analysis proves more without the other
                    board = _from_key(key, root.chess960)
                else:
                    key = child
                    if key in parent:
                        continue
                    board = _from_key(key, root.chess960)
                parent[key] = (pkey, pmove)
                if _lone_king(board, color) or board.is_insufficient_material():
                    continue
                # Only an irreversible move (pawn move or capture) changes what the static
                # analysis can prove, in the main: check the positions they reach.
                if (
                    _BB[pmove.from_square] & pkey[0] or _BB[pmove.to_square] & (pkey[6] | pkey[7])
                ) and self.dead(key, board):
                    continue
            mover = board.turn
            lk = board.king(not color)
            wk = board.king(color)
            assert lk is not None and wk is not None
            mine = board.occupied_co[color]
            loser = board.occupied_co[not color]
            pawns = board.pawns & mine
            loser_pawns = board.pawns & loser
            pieces = [
                (board.piece_type_at(sq) or 0, sq)
                for sq in chess.scan_forward(mine & ~board.kings & ~board.pawns)
            ]
            occupied = board.occupied
            covered = _covered(board, mine, color)
            # The parts of ``_cost`` that stay the same for every move that leaves the loser's
            # king where it is (the same sums, taken apart: the estimate is exactly _cost's).
            base = 2 * _CORNER[lk] + _EDGE[lk]
            around = chess.BB_KING_ATTACKS[lk]
            near = _NEAR[lk]
            lk_bb = chess.BB_SQUARES[lk]
            helpers = loser & ~loser_pawns & ~lk_bb
            help_sum = 0
            for sq in chess.scan_forward(helpers):
                help_sum += near[sq]
            # the three smallest piece distances, with their squares (99 pads)
            dists = sorted((_piece_distance(p, sq, lk), sq) for p, sq in pieces)
            dists += [(99, -1)] * 3
            (d0, s0), (d1, s1), (d2, _) = dists[0], dists[1], dists[2]
            winner_moves = mover == color
            for move in board.generate_legal_moves():
                self.nodes += 1
                frm, to = move.from_square, move.to_square
                bit = chess.BB_SQUARES[to]
                if winner_moves:
                    check = _gives_check(board, move, lk, mine)
                    if check:
                        board.push(move)
                        if not any(board.generate_legal_moves()):
                            parent[_key(board)] = (key, move)
                            return self.line(parent, _key(board)), False
                        board.pop()
                    start = chess.BB_SQUARES[frm]
                    promotion = move.promotion
                    wcov = covered | _attacks(
                        promotion or board.piece_type_at(frm) or 0, to, color, occupied
                    )
                    nloser, nlp = loser & ~bit, loser_pawns & ~bit
                    npawns = pawns
                    king_sq = wk
                    best, second = d0, d1
                    if frm == wk:
                        king_sq = to
                    elif promotion:
                        npawns = pawns & ~start
                        d = _piece_distance(promotion, to, lk)
                        if d < best:
                            best, second = d, best
                        elif d < second:
                            second = d
                    elif pawns & start:
                        npawns = (pawns & ~start) | bit
                    else:
                        # the moved piece's distance replaces its old one
                        if frm == s0:
                            best, second = d1, d2
                        elif frm == s1:
                            second = d2
                        d = _piece_distance(board.piece_type_at(frm) or 0, to, lk)
                        if d < best:
                            best, second = d, best
                        elif d < second:
                            second = d
                    h = base + 2 * chess.popcount(around & ~nloser & ~wcov)
                    h += max(0, _CHEB[king_sq][lk] - 2)
                    h += _nearest_two(cache, color, lk, (npawns, nlp), (best, second))
                    h += help_sum - near[to] if bit & helpers else help_sum
                    wp = npawns
                    if check:
                        h -= 2
                else:
                    kept = pieces
                    wp = pawns & ~bit
                    start = chess.BB_SQUARES[frm]
                    nloser = (loser & ~start) | bit
                    if loser_pawns & start and not move.promotion:
                        nlp = (loser_pawns & ~start) | bit
                    else:
                        nlp = loser_pawns & ~start
                    if frm == lk:
                        if mine & bit:
                            kept = [(p, s) for p, s in pieces if s != to]
                        h = _cost(cache, color, covered, (to, wk), (kept, wp, nloser, nlp))
                    else:
                        best, second = d0, d1
                        if mine & bit:
                            # the winner's piece taken leaves the sums
                            if to == s0:
                                best, second = d1, d2
                            elif to == s1:
                                second = d2
                        h = base + 2 * chess.popcount(around & ~nloser & ~covered)
                        h += max(0, _CHEB[wk][lk] - 2)
                        h += _nearest_two(cache, color, lk, (wp, nlp), (best, second))
                        h += help_sum
                        if start & helpers:
                            h -= near[frm]
                        if bit & ~nlp:
                            h += near[to]
                seq += 1
                heapq.heappush(heap, (h, -seq, key, move))
                heapq.heappush(alt, (h + _pawn_term(pcache, color, wp, nlp), -seq, key, move))
            if self.nodes >= self.limit:
                return None, False
        return None, True

    def run_compiled(self, root: chess.Board) -> tuple[list[chess.Move] | None, bool]:
        """``run``, by the compiled search (standard chess only): the same positions in the
        same order, the same answer and node count, many times as fast."""
        assert _helpmate is not None
        found, exhausted, self.nodes = _helpmate.search(
            _key(root), self.color, self.limit, self.proved_dead, self.static_cost
        )
        if found is None:
            return None, exhausted
        return [chess.Move(frm, to, promotion or None) for frm, to, promotion in found], False

    def dead(self, key: Key, board: chess.Board) -> bool:
        """True when the static analysis proves that the winner cannot mate from ``board``
        (whose key is ``key``): no mating line passes through it, so it is pruned.

        Skipping the check is always sound (the position is then searched): once it failed
        for a pawn structure and material count, it is not run again for that structure
        (most of its positions share the answer, and the check is the costly part). A run
        counts as ``static_cost`` nodes."""
        structure = (key[0], key[0] & key[6], chess.popcount(key[6]), chess.popcount(key[7]))
        if structure in self.unproved:
            return False
        self.nodes += self.static_cost
        if self.proved_dead(key, board):
            return True
        self.unproved.add(structure)
        return False

    def proved_dead(self, key: Key, board: chess.Board | None = None) -> bool:
        """The static analysis's part of ``dead`` (the compiled search keeps the structures
        itself and calls this)."""
        if board is None:
            board = _from_key(key, False)
        if prove_cannot_mate(board, self.color) is not None:
            self.pruned += 1
            return True
        return False

    @staticmethod
    def line(parent: dict[Key, tuple[Key, chess.Move] | None], key: Key) -> list[chess.Move]:
        moves: list[chess.Move] = []
        link = parent[key]
        while link is not None:
            key, move = link
            moves.append(move)
            link = parent[key]
        moves.reverse()
        return moves


def find_mate(
    board: chess.Board, color: chess.Color, limit: int = 50_000
) -> tuple[list[chess.Move] | None, bool]:
    """Search cooperatively for a checkmate by ``color``; see the module docstring."""
    root = board.copy(stack=False)
    if root.is_checkmate():
        return ([], False) if root.turn != color else (None, True)
    if _lone_king(root, color) or root.is_insufficient_material():
        return None, True
    if _helpmate is not None and not root.chess960:
        return _Search(color, limit).run_compiled(root)
    return _Search(color, limit, PYTHON_STATIC_COST).run(root)
