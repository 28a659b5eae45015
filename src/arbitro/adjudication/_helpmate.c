/*
 * arbitro: the best-first cooperative search of search.py, compiled.
 *
 * Copyright (C) the arbitro authors. GPL-3.0-or-later.
 *
 * The search is the one in search.py, step for step: the same legal moves in the same order as
 * python-chess's generate_legal_moves, the same estimates, the same two queues with the same
 * ties, the same node count, the same transposition keys. So it visits the same positions and
 * gives the same answer with the same line and node count; tests/test_can_mate_search.py runs
 * both on the reference positions and compares. Only speed differs (no Python objects per
 * move, a stack per estimate instead of a heap). The static analysis that prunes positions
 * stays in Python (compiled by mypyc): the search calls back with the key of each position
 * reached by a capture or pawn move, and holds Python's interpreter lock only then.
 *
 * Standard chess only (castling with the king on e1/e8 and rooks in the corners); search.py
 * keeps Chess960 positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

enum { NONE = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6 };

#define BB(sq) (1ULL << (sq))
#define ALL (~0ULL)
#define RANK_1 0xFFULL
#define RANK_8 (0xFFULL << 56)
#define FILE_A 0x0101010101010101ULL
#define LIGHT 0x55AA55AA55AA55AAULL
#define DARK 0xAA55AA55AA55AA55ULL

static inline int lsb(u64 b) { return __builtin_ctzll(b); }
static inline int msb(u64 b) { return 63 - __builtin_clzll(b); }
static inline int popcount(u64 b) { return __builtin_popcountll(b); }

/* ---------------------------------------------------------------- tables */

static u64 KNIGHT_ATT[64], KING_ATT[64], PAWN_ATT[2][64]; /* [color: 0 black, 1 white] */
static u64 RAYS[8][64];                                   /* squares in a direction, exclusive */
static u64 BETWEEN[64][64];
static u64 LINE[64][64]; /* the whole line through two squares (both on it), 0 if none */
static int CHEB[64][64], KDIST[64][64], CORNER[64], EDGE[64], NEAR[64][64];

static const int DF[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DR[8] = {0, 0, 1, -1, 1, -1, 1, -1};
/* directions 0..3 are straight (rook), 4..7 diagonal (bishop); "positive" ones increase the
 * square index, so the nearest blocker is the lowest set bit */
static const int POSITIVE[8] = {1, 0, 1, 0, 1, 0, 1, 0};

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

static void init_tables(void) {
    for (int sq = 0; sq < 64; sq++) {
        int f = sq & 7, r = sq >> 3;
        static const int KN[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        KNIGHT_ATT[sq] = KING_ATT[sq] = 0;
        for (int i = 0; i < 8; i++) {
            int nf = f + KN[i][0], nr = r + KN[i][1];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) KNIGHT_ATT[sq] |= BB(nr * 8 + nf);
            nf = f + DF[i];
            nr = r + DR[i];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) KING_ATT[sq] |= BB(nr * 8 + nf);
        }
        PAWN_ATT[1][sq] = PAWN_ATT[0][sq] = 0;
        for (int df = -1; df <= 1; df += 2) {
            int nf = f + df;
            if (nf < 0 || nf > 7) continue;
            if (r < 7) PAWN_ATT[1][sq] |= BB((r + 1) * 8 + nf);
            if (r > 0) PAWN_ATT[0][sq] |= BB((r - 1) * 8 + nf);
        }
        for (int d = 0; d < 8; d++) {
            u64 ray = 0;
            int nf = f + DF[d], nr = r + DR[d];
            while (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) {
                ray |= BB(nr * 8 + nf);
                nf += DF[d];
                nr += DR[d];
            }
            RAYS[d][sq] = ray;
        }
    }
    for (int a = 0; a < 64; a++) {
        for (int b = 0; b < 64; b++) {
            BETWEEN[a][b] = 0;
            CHEB[a][b] = imax(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)));
        }
        static const int OPPOSITE[8] = {1, 0, 3, 2, 7, 6, 5, 4};
        for (int d = 0; d < 8; d++)
            for (u64 t = RAYS[d][a]; t; t &= t - 1)
                LINE[a][lsb(t)] = RAYS[d][a] | RAYS[OPPOSITE[d]][a] | BB(a);
        for (int d = 0; d < 8; d++) {
            u64 path = 0;
            int f = (a & 7) + DF[d], r = (a >> 3) + DR[d];
            while (f >= 0 && f < 8 && r >= 0 && r < 8) {
                BETWEEN[a][r * 8 + f] = path;
                path |= BB(r * 8 + f);
                f += DF[d];
                r += DR[d];
            }
        }
    }
    for (int a = 0; a < 64; a++) {
        for (int b = 0; b < 64; b++) KDIST[a][b] = 99;
        KDIST[a][a] = 0;
        int frontier[64], n = 1, dist = 0;
        frontier[0] = a;
        while (n) {
            int next[64], m = 0;
            dist++;
            for (int i = 0; i < n; i++)
                for (u64 t = KNIGHT_ATT[frontier[i]]; t; t &= t - 1) {
                    int to = lsb(t);
                    if (KDIST[a][to] == 99) {
                        KDIST[a][to] = dist;
                        next[m++] = to;
                    }
                }
            memcpy(frontier, next, sizeof(int) * m);
            n = m;
        }
    }
    static const int CORNERS[4] = {0, 7, 56, 63};
    for (int s = 0; s < 64; s++) {
        int c = 99;
        for (int i = 0; i < 4; i++) c = imin(c, CHEB[s][CORNERS[i]]);
        CORNER[s] = c;
        int f = s & 7, r = s >> 3;
        EDGE[s] = imin(imin(f, 7 - f), imin(r, 7 - r));
        for (int k = 0; k < 64; k++) NEAR[k][s] = imin(CHEB[s][k] - 1, 3);
    }
}

static inline u64 slide(int sq, u64 occupied, int first, int last) {
    u64 att = 0;
    for (int d = first; d < last; d++) {
        u64 ray = RAYS[d][sq];
        u64 blockers = ray & occupied;
        if (blockers) {
            int b = POSITIVE[d] ? lsb(blockers) : msb(blockers);
            ray ^= RAYS[d][b];
        }
        att |= ray;
    }
    return att;
}
static inline u64 rook_att(int sq, u64 occ) { return slide(sq, occ, 0, 4); }
static inline u64 bishop_att(int sq, u64 occ) { return slide(sq, occ, 4, 8); }

/* ---------------------------------------------------------------- positions */

typedef struct {
    u64 pawns, knights, bishops, rooks, queens, kings, white, black;
    u64 castling; /* python-chess's clean castling rights (rook squares) */
    int turn;     /* 1 white, 0 black */
    int ep;       /* -1, or the en passant square when a capture there is legal */
} Pos;

static inline u64 side(const Pos *p, int color) { return color ? p->white : p->black; }

static inline int piece_at(const Pos *p, int sq) {
    u64 b = BB(sq);
    if (!((p->white | p->black) & b)) return NONE;
    if (p->pawns & b) return PAWN;
    if (p->knights & b) return KNIGHT;
    if (p->bishops & b) return BISHOP;
    if (p->rooks & b) return ROOK;
    if (p->queens & b) return QUEEN;
    return KING;
}

static inline int king_of(const Pos *p, int color) { return msb(p->kings & side(p, color)); }

/* python-chess's attackers_mask(color, square, occupied): the piece sets are the position's */
static inline u64 attackers(const Pos *p, int color, int sq, u64 occupied) {
    u64 rq = p->queens | p->rooks, bq = p->queens | p->bishops;
    u64 a = (KING_ATT[sq] & p->kings) | (KNIGHT_ATT[sq] & p->knights) |
            (rook_att(sq, occupied) & rq) | (bishop_att(sq, occupied) & bq) |
            (PAWN_ATT[!color][sq] & p->pawns);
    return a & side(p, color);
}

static inline u64 attacks_of(int piece, int sq, int color, u64 occupied) {
    switch (piece) {
    case PAWN: return PAWN_ATT[color][sq];
    case KNIGHT: return KNIGHT_ATT[sq];
    case KING: return KING_ATT[sq];
    case BISHOP: return bishop_att(sq, occupied);
    case ROOK: return rook_att(sq, occupied);
    case QUEEN: return bishop_att(sq, occupied) | rook_att(sq, occupied);
    default: return 0;
    }
}

static u64 clean_castling(const Pos *p) {
    u64 c = p->castling & p->rooks;
    u64 w = c & RANK_1 & p->white & (BB(0) | BB(7));
    u64 b = c & RANK_8 & p->black & (BB(56) | BB(63));
    if (!(p->white & p->kings & BB(4))) w = 0;
    if (!(p->black & p->kings & BB(60))) b = 0;
    return w | b;
}

typedef uint16_t Move; /* from | to << 6 | promotion << 12 */
#define MV(f, t, pr) ((Move)((f) | ((t) << 6) | ((pr) << 12)))
#define FROM(m) ((m) & 63)
#define TO(m) (((m) >> 6) & 63)
#define PROMO(m) ((m) >> 12)

static inline void remove_at(Pos *p, u64 b) {
    u64 keep = ~b;
    p->pawns &= keep;
    p->knights &= keep;
    p->bishops &= keep;
    p->rooks &= keep;
    p->queens &= keep;
    p->kings &= keep;
    p->white &= keep;
    p->black &= keep;
}

static inline void put(Pos *p, int piece, u64 b, int color) {
    switch (piece) {
    case PAWN: p->pawns |= b; break;
    case KNIGHT: p->knights |= b; break;
    case BISHOP: p->bishops |= b; break;
    case ROOK: p->rooks |= b; break;
    case QUEEN: p->queens |= b; break;
    default: p->kings |= b; break;
    }
    if (color) p->white |= b;
    else p->black |= b;
}

/* The bare move: pieces only (no castling rights, en passant square or turn). */
static void play_pieces(const Pos *p, Move m, Pos *out, int *double_step) {
    int frm = FROM(m), to = TO(m), promo = PROMO(m), us = p->turn;
    int piece = piece_at(p, frm);
    *out = *p;
    *double_step = -1;
    if (piece == KING && abs((to & 7) - (frm & 7)) == 2) { /* castling (standard) */
        int rook_from = to > frm ? frm + 3 : frm - 4;
        int rook_to = to > frm ? frm + 1 : frm - 1;
        remove_at(out, BB(frm) | BB(rook_from));
        put(out, KING, BB(to), us);
        put(out, ROOK, BB(rook_to), us);
        return;
    }
    if (piece == PAWN && to == p->ep && ((to - frm) & 7) != 0)
        remove_at(out, BB(us ? to - 8 : to + 8)); /* en passant */
    remove_at(out, BB(frm) | BB(to));
    put(out, promo ? promo : piece, BB(to), us);
    if (piece == PAWN && abs(to - frm) == 16) *double_step = us ? frm + 8 : frm - 8;
}

static int legal_ep_exists(const Pos *p, int ep);

/* python-chess's push, then the transposition key's fields (clean castling rights, the en
 * passant square only when a capture there is legal) */
static void play(const Pos *p, Move m, Pos *out) {
    int ds;
    play_pieces(p, m, out, &ds);
    int frm = FROM(m), to = TO(m);
    u64 rights = p->castling & ~BB(frm) & ~BB(to);
    if (p->kings & BB(frm)) rights &= p->turn ? ~RANK_1 : ~RANK_8;
    out->castling = rights;
    out->castling = clean_castling(out);
    out->turn = !p->turn;
    out->ep = -1;
    if (ds >= 0 && legal_ep_exists(out, ds)) out->ep = ds;
}

/* Does the side that just moved leave its own king attacked? (legality of a played move) */
static inline int own_king_safe(const Pos *after, int color) {
    int k = king_of(after, color);
    return !attackers(after, !color, k, after->white | after->black);
}

static int legal_ep_exists(const Pos *p, int ep) {
    /* generate_pseudo_legal_ep, then legality */
    if ((p->white | p->black) & BB(ep)) return 0;
    int us = p->turn;
    u64 capturers = p->pawns & side(p, us) & PAWN_ATT[!us][ep] & (0xFFULL << (us ? 32 : 24));
    for (; capturers; capturers &= capturers - 1) {
        Pos tmp = *p, after;
        tmp.ep = ep;
        int ds;
        play_pieces(&tmp, MV(lsb(capturers), ep, 0), &after, &ds);
        if (own_king_safe(&after, us)) return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- move generation */

typedef struct {
    Move moves[256];
    int n;
} MoveList;

static inline void add(MoveList *l, int f, int t, int pr) { l->moves[l->n++] = MV(f, t, pr); }

static inline void add_pawn(MoveList *l, int f, int t) {
    if ((t >> 3) == 0 || (t >> 3) == 7) {
        add(l, f, t, QUEEN);
        add(l, f, t, ROOK);
        add(l, f, t, BISHOP);
        add(l, f, t, KNIGHT);
    } else {
        add(l, f, t, 0);
    }
}

static void gen_ep(const Pos *p, u64 from_mask, u64 to_mask, MoveList *l) {
    if (p->ep < 0 || !(BB(p->ep) & to_mask)) return;
    if ((p->white | p->black) & BB(p->ep)) return;
    int us = p->turn;
    u64 capturers = p->pawns & side(p, us) & from_mask & PAWN_ATT[!us][p->ep] &
                    (0xFFULL << (us ? 32 : 24));
    for (; capturers; capturers ^= BB(msb(capturers))) add(l, msb(capturers), p->ep, 0);
}

static inline int attacked_for_king(const Pos *p, u64 path, u64 occupied) {
    for (; path; path &= path - 1)
        if (attackers(p, !p->turn, lsb(path), occupied)) return 1;
    return 0;
}

static void gen_castling(const Pos *p, u64 from_mask, u64 to_mask, MoveList *l) {
    int us = p->turn;
    u64 backrank = us ? RANK_1 : RANK_8;
    u64 king = side(p, us) & p->kings & backrank & from_mask;
    king &= -king;
    if (!king) return;
    int ks = lsb(king);
    u64 occ = p->white | p->black;
    for (u64 cand = p->castling & backrank & to_mask; cand; cand ^= BB(msb(cand))) {
        int c = msb(cand);
        u64 rook = BB(c);
        int a_side = rook < king;
        int king_to = (us ? 0 : 56) + (a_side ? 2 : 6);
        int rook_to = (us ? 0 : 56) + (a_side ? 3 : 5);
        u64 king_path = BETWEEN[ks][king_to], rook_path = BETWEEN[c][rook_to];
        if (!(((occ ^ king ^ rook) & (king_path | rook_path | BB(king_to) | BB(rook_to))) ||
              attacked_for_king(p, king_path | king, occ ^ king) ||
              attacked_for_king(p, BB(king_to), occ ^ king ^ rook ^ BB(rook_to))))
            add(l, ks, king_to, 0);
    }
}

static void gen_pseudo(const Pos *p, u64 from_mask, u64 to_mask, MoveList *l) {
    int us = p->turn;
    u64 ours = side(p, us), theirs = side(p, !us), occ = p->white | p->black;
    for (u64 np = ours & ~p->pawns & from_mask; np; np ^= BB(msb(np))) {
        int f = msb(np);
        u64 t = attacks_of(piece_at(p, f), f, us, occ) & ~ours & to_mask;
        for (; t; t ^= BB(msb(t))) add(l, f, msb(t), 0);
    }
    if (from_mask & p->kings) gen_castling(p, from_mask, to_mask, l);
    u64 pawns = p->pawns & ours & from_mask;
    if (!pawns) return;
    for (u64 c = pawns; c; c ^= BB(msb(c))) {
        int f = msb(c);
        for (u64 t = PAWN_ATT[us][f] & theirs & to_mask; t; t ^= BB(msb(t))) add_pawn(l, f, msb(t));
    }
    u64 single, dbl;
    if (us) {
        single = (pawns << 8) & ~occ;
        dbl = (single << 8) & ~occ & (0xFFULL << 16 | 0xFFULL << 24);
    } else {
        single = (pawns >> 8) & ~occ;
        dbl = (single >> 8) & ~occ & (0xFFULL << 40 | 0xFFULL << 32);
    }
    single &= to_mask;
    dbl &= to_mask;
    for (; single; single ^= BB(msb(single))) {
        int t = msb(single);
        add_pawn(l, us ? t - 8 : t + 8, t);
    }
    for (; dbl; dbl ^= BB(msb(dbl))) {
        int t = msb(dbl);
        add(l, us ? t - 16 : t + 16, t, 0);
    }
    if (p->ep >= 0) gen_ep(p, from_mask, to_mask, l);
}

/* Our men that alone stand between our king and an enemy slider (python-chess's
 * _slider_blockers) */
static u64 pinned(const Pos *p, int k) {
    int us = p->turn;
    u64 rq = p->rooks | p->queens, bq = p->bishops | p->queens, occ = p->white | p->black;
    u64 snipers = ((rook_att(k, 0) & rq) | (bishop_att(k, 0) & bq)) & side(p, !us);
    u64 blockers = 0;
    for (; snipers; snipers &= snipers - 1) {
        u64 b = BETWEEN[k][lsb(snipers)] & occ;
        if (b && !(b & (b - 1))) blockers |= b;
    }
    return blockers & side(p, us);
}

/* python-chess's generate_legal_moves: the same moves in the same order, kept by the same
 * exact test of legality as its _is_safe */
static void gen_legal(const Pos *p, MoveList *out) {
    MoveList l;
    l.n = 0;
    int us = p->turn, k = king_of(p, us);
    u64 occ = p->white | p->black;
    u64 checkers = attackers(p, !us, k, occ);
    if (checkers) {
        for (u64 t = KING_ATT[k] & ~side(p, us); t; t ^= BB(msb(t))) add(&l, k, msb(t), 0);
        int checker = msb(checkers);
        if (BB(checker) == checkers) {
            u64 target = BETWEEN[k][checker] | checkers;
            gen_pseudo(p, ~p->kings, target, &l);
            if (p->ep >= 0 && !(BB(p->ep) & target)) {
                int last_double = p->ep + (us ? -8 : 8);
                if (last_double == checker) gen_ep(p, ALL, ALL, &l);
            }
        }
    } else {
        gen_pseudo(p, ALL, ALL, &l);
    }
    u64 blockers = pinned(p, k);
    out->n = 0;
    for (int i = 0; i < l.n; i++) {
        Move m = l.moves[i];
        int f = FROM(m), t = TO(m), ok;
        if (f == k) {
            /* castling: its generator checked every square */
            ok = abs((t & 7) - (f & 7)) == 2 || !attackers(p, !us, t, occ ^ BB(k));
        } else if (t == p->ep && (p->pawns & BB(f)) && ((t - f) & 7)) {
            Pos after;
            int ds;
            play_pieces(p, m, &after, &ds);
            ok = own_king_safe(&after, us);
        } else {
            ok = !(blockers & BB(f)) || (LINE[f][t] & BB(k));
        }
        if (ok) out->moves[out->n++] = m;
    }
}

static int has_legal_move(const Pos *p) {
    MoveList l;
    gen_legal(p, &l);
    return l.n > 0;
}

static int insufficient_for(const Pos *p, int color) {
    u64 own = side(p, color), other = side(p, !color);
    if (own & (p->pawns | p->rooks | p->queens)) return 0;
    if (own & p->knights)
        return popcount(own) <= 2 && !(other & ~p->kings & ~p->queens);
    if (own & p->bishops) {
        int same = !(p->bishops & DARK) || !(p->bishops & LIGHT);
        return same && !p->pawns && !p->knights;
    }
    return 1;
}

/* ---------------------------------------------------------------- the estimates */

/* ``d`` among the two smallest distances so far */
static inline void keep_two(int d, int *best, int *second) {
    if (d < *best) {
        *second = *best;
        *best = d;
    } else if (d < *second) {
        *second = d;
    }
}

static int piece_distance(int piece, int sq, int lk) {
    if (piece == KNIGHT) return KDIST[sq][lk];
    if (piece == BISHOP) return CHEB[sq][lk];
    return imax(0, CHEB[sq][lk] - 1);
}

static void pawn_units(int color, int lk, u64 pawns, u64 theirs, int *best, int *second) {
    int b = 99, s = 99;
    for (; pawns; pawns &= pawns - 1) {
        int sq = lsb(pawns), file = sq & 7, rank = sq >> 3;
        u64 ahead, fmask = FILE_A << file;
        int steps, target;
        if (color) {
            ahead = sq + 8 < 64 ? fmask & (ALL << (sq + 8)) : 0;
            steps = 7 - rank;
            target = 56 + file;
        } else {
            ahead = sq ? fmask & (ALL >> (64 - sq)) : 0;
            steps = rank;
            target = file;
        }
        int d = steps + 4 * popcount(ahead & theirs) + imax(0, CHEB[target][lk] - 1);
keep_two(d, &b, &s);
    }
    *best = b;
    *second = s;
}

static int nearest_two(int color, int lk, u64 pawns, u64 loser_pawns, int best, int second) {
    if (pawns) {
        int pb, ps;
        pawn_units(color, lk, pawns, loser_pawns, &pb, &ps);
        if (pb < best) {
            second = imin(best, ps);
            best = pb;
        } else if (pb < second) {
            second = pb;
        }
    }
    return 2 * imin(best, 30) + imin(second, 10);
}

static int pawn_term(int color, u64 wp, u64 lp) {
    int t = 4 * popcount(wp | lp);
    for (; lp; lp &= lp - 1) {
        int rank = lsb(lp) >> 3;
        t += color ? rank : 7 - rank;
    }
    return t;
}

typedef struct {
    int type, sq;
} Piece;

static int cost(int color, u64 covered, int lk, int wk, const Piece *pieces, int np, u64 pawns,
                u64 loser, u64 loser_pawns) {
    int h = 2 * CORNER[lk] + EDGE[lk];
    h += 2 * popcount(KING_ATT[lk] & ~loser & ~covered);
    h += imax(0, CHEB[wk][lk] - 2);
    int best = 99, second = 99;
    for (int i = 0; i < np; i++) {
        int d = piece_distance(pieces[i].type, pieces[i].sq, lk);
keep_two(d, &best, &second);
    }
    h += nearest_two(color, lk, pawns, loser_pawns, best, second);
    u64 helpers = loser & ~loser_pawns & ~BB(lk);
    for (u64 t = helpers & ~KING_ATT[lk]; t; t &= t - 1) h += imin(CHEB[lsb(t)][lk] - 1, 3);
    return h;
}

static u64 covered_by(const Pos *p, u64 mine, int color) {
    u64 occ = p->white | p->black, c = 0;
    for (u64 t = mine & p->pawns; t; t &= t - 1) c |= PAWN_ATT[color][lsb(t)];
    for (u64 t = mine & p->knights; t; t &= t - 1) c |= KNIGHT_ATT[lsb(t)];
    for (u64 t = mine & p->kings; t; t &= t - 1) c |= KING_ATT[lsb(t)];
    for (u64 t = mine & (p->bishops | p->queens); t; t &= t - 1) c |= bishop_att(lsb(t), occ);
    for (u64 t = mine & (p->rooks | p->queens); t; t &= t - 1) c |= rook_att(lsb(t), occ);
    return c;
}

/* ---------------------------------------------------------------- the position table */

typedef struct {
    Pos pos;
    int32_t parent; /* index of the parent position, -1 for the root */
    Move move;      /* the move from the parent */
} Node;

typedef struct {
    Node *nodes;
    int32_t n, cap;
    int32_t *slots; /* open addressing: node index + 1, 0 empty */
    u64 mask;
} Table;

static inline u64 mix(u64 x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

static u64 pos_hash(const Pos *p) {
    u64 h = mix(p->pawns) ^ mix(p->knights + 1) * 3 ^ mix(p->bishops + 2) * 5 ^
            mix(p->rooks + 3) * 7 ^ mix(p->queens + 4) * 11 ^ mix(p->kings + 5) * 13 ^
            mix(p->white + 6) * 17 ^ mix(p->castling + 7) * 19;
    return mix(h ^ (u64)(p->turn * 2 + 1) * 0x9E3779B97F4A7C15ULL ^ (u64)(p->ep + 2) << 40);
}

static inline int same(const Pos *a, const Pos *b) {
    return a->pawns == b->pawns && a->knights == b->knights && a->bishops == b->bishops &&
           a->rooks == b->rooks && a->queens == b->queens && a->kings == b->kings &&
           a->white == b->white && a->black == b->black && a->castling == b->castling &&
           a->turn == b->turn && a->ep == b->ep;
}

static int table_init(Table *t) {
    t->cap = 1024;
    t->n = 0;
    t->nodes = malloc(sizeof(Node) * t->cap);
    t->mask = 4095;
    t->slots = calloc(t->mask + 1, sizeof(int32_t));
    return t->nodes && t->slots;
}

static void table_free(Table *t) {
    free(t->nodes);
    free(t->slots);
}

/* the slot where ``p`` is or would go */
static u64 table_find(const Table *t, const Pos *p, int *found) {
    u64 i = pos_hash(p) & t->mask;
    for (;;) {
        int32_t s = t->slots[i];
        if (!s) {
            *found = 0;
            return i;
        }
        if (same(&t->nodes[s - 1].pos, p)) {
            *found = 1;
            return i;
        }
        i = (i + 1) & t->mask;
    }
}

#define KNOWN (-2) /* table_add: the position was there already */

/* Add ``p`` unless it is there (KNOWN): its index, or -1 without memory. One lookup does both,
 * the room for a new position made first (growing moves the nodes: pointers into them go
 * stale). */
static int table_add(Table *t, const Pos *p, int32_t parent, Move move) {
    if (t->n == t->cap) {
        Node *grown = realloc(t->nodes, sizeof(Node) * t->cap * 2);
        if (!grown) return -1;
        t->nodes = grown;
        t->cap *= 2;
    }
    if ((u64)(t->n + 1) * 2 > t->mask) { /* keep the load under a half */
        u64 size = (t->mask + 1) * 2;
        int32_t *slots = calloc(size, sizeof(int32_t));
        if (!slots) return -1;
        free(t->slots);
        t->slots = slots;
        t->mask = size - 1;
        for (int32_t k = 0; k < t->n; k++) {
            u64 i = pos_hash(&t->nodes[k].pos) & t->mask;
            while (t->slots[i]) i = (i + 1) & t->mask;
            t->slots[i] = k + 1;
        }
    }
    int found;
    u64 slot = table_find(t, p, &found);
    if (found) return KNOWN;
    t->nodes[t->n].pos = *p;
    t->nodes[t->n].parent = parent;
    t->nodes[t->n].move = move;
    t->slots[slot] = ++t->n;
    return t->n - 1;
}

/* ------------------------------------------------ pawn structures where the analysis failed */

/* search.py's ``unproved``: (pawns, white pawns, white men, black men) */
typedef struct {
    u64 pawns, white_pawns;
    int white_men, black_men;
} Structure;

typedef struct {
    Structure *slots; /* pawns == ALL marks an empty slot (no position has 64 pawns) */
    size_t n, mask;
} StructureSet;

static u64 structure_hash(const Structure *s) {
    return mix(s->pawns ^ mix(s->white_pawns + (u64)s->white_men * 64 + (u64)s->black_men));
}

static int structure_slot(const StructureSet *set, const Structure *s, size_t *slot) {
    size_t i = structure_hash(s) & set->mask;
    for (;;) {
        const Structure *t = &set->slots[i];
        if (t->pawns == ALL) {
            *slot = i;
            return 0;
        }
        if (t->pawns == s->pawns && t->white_pawns == s->white_pawns &&
            t->white_men == s->white_men && t->black_men == s->black_men)
            return 1;
        i = (i + 1) & set->mask;
    }
}

static int structure_grow(StructureSet *set) {
    size_t size = set->slots ? (set->mask + 1) * 2 : 256;
    Structure *slots = malloc(sizeof(Structure) * size), *old = set->slots;
    if (!slots) return -1;
    for (size_t i = 0; i < size; i++) slots[i].pawns = ALL;
    size_t old_size = old ? set->mask + 1 : 0;
    set->slots = slots;
    set->mask = size - 1;
    for (size_t i = 0; i < old_size; i++) {
        if (old[i].pawns == ALL) continue;
        size_t slot;
        structure_slot(set, &old[i], &slot);
        slots[slot] = old[i];
    }
    free(old);
    return 0;
}

static int structure_add(StructureSet *set, const Structure *s) {
    if (!set->slots || (set->n + 1) * 2 > set->mask) {
        if (structure_grow(set) < 0) return -1;
    }
    size_t slot;
    if (!structure_slot(set, s, &slot)) {
        set->slots[slot] = *s;
        set->n++;
    }
    return 0;
}

/* ---------------------------------------------------------------- the queues */

typedef struct {
    int32_t seq; /* larger first among equal estimates (search.py's -seq) */
    int32_t parent;
    Move move;
} Entry; /* (its estimate is the stack it is on) */

/* search.py's heaps order entries by (estimate, -seq), and seq grows with every push: so a
 * stack per estimate, the lowest estimate's first, pops them in exactly that order, without
 * the heap's walk through memory. */
#define LOWEST (-64)
#define BUCKETS 2048

typedef struct {
    Entry *e;
    size_t n, cap;
} Stack;

typedef struct {
    Stack stacks[BUCKETS];
    int min; /* no entry below this bucket */
    size_t n;
} Queue;

/* 0, or the failure (without the GIL: the caller raises it) */
enum { NO_MEMORY = 1, OUT_OF_RANGE = 2, RAISED = 3 };

static int queue_push(Queue *q, int h, Entry x) {
    int b = h - LOWEST;
    if (b < 0 || b >= BUCKETS) return OUT_OF_RANGE;
    Stack *st = &q->stacks[b];
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 64;
        Entry *grown = realloc(st->e, sizeof(Entry) * cap);
        if (!grown) return NO_MEMORY;
        st->e = grown;
        st->cap = cap;
    }
    st->e[st->n++] = x;
    if (!q->n || b < q->min) q->min = b;
    q->n++;
    return 0;
}

static Entry queue_pop(Queue *q) {
    while (!q->stacks[q->min].n) q->min++;
    q->n--;
    Stack *st = &q->stacks[q->min];
    return st->e[--st->n];
}

static void queue_free(Queue *q) {
    for (int b = 0; b < BUCKETS; b++) free(q->stacks[b].e);
}

/* ---------------------------------------------------------------- Python glue */

static PyObject *key_tuple(const Pos *p) {
    PyObject *ep = p->ep >= 0 ? PyLong_FromLong(p->ep) : Py_NewRef(Py_None);
    return Py_BuildValue("(KKKKKKKKOKN)", p->pawns, p->knights, p->bishops, p->rooks, p->queens,
                         p->kings, p->white, p->black, p->turn ? Py_True : Py_False, p->castling,
                         ep);
}

static int pos_from_key(PyObject *key, Pos *p) {
    unsigned long long v[8], castling;
    int turn;
    PyObject *ep;
    if (!PyArg_ParseTuple(key, "KKKKKKKKpKO", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                          &v[7], &turn, &castling, &ep))
        return -1;
    p->pawns = v[0];
    p->knights = v[1];
    p->bishops = v[2];
    p->rooks = v[3];
    p->queens = v[4];
    p->kings = v[5];
    p->white = v[6];
    p->black = v[7];
    p->turn = turn;
    p->castling = castling;
    if (ep == Py_None) {
        p->ep = -1;
    } else {
        long e = PyLong_AsLong(ep);
        if (e == -1 && PyErr_Occurred()) return -1;
        if (e < 0 || e > 63) {
            PyErr_SetString(PyExc_ValueError, "the en passant square is not a square");
            return -1;
        }
        p->ep = (int)e;
    }
    /* (the generator looks for each side's king: without one it would read nothing) */
    if (popcount(p->kings & p->white) != 1 || popcount(p->kings & p->black) != 1 ||
        (p->white & p->black)) {
        PyErr_SetString(PyExc_ValueError, "a position needs one king of each side");
        return -1;
    }
    return 0;
}

static PyObject *line_of(const Table *t, int32_t at, Move last) {
    int32_t length = 1;
    for (int32_t i = at; t->nodes[i].parent >= 0; i = t->nodes[i].parent) length++;
    PyObject *list = PyList_New(length);
    if (!list) return NULL;
    Py_ssize_t k = length - 1;
    PyList_SET_ITEM(list, k--, Py_BuildValue("(iii)", FROM(last), TO(last), PROMO(last)));
    for (int32_t i = at; t->nodes[i].parent >= 0; i = t->nodes[i].parent) {
        Move m = t->nodes[i].move;
        PyList_SET_ITEM(list, k--, Py_BuildValue("(iii)", FROM(m), TO(m), PROMO(m)));
    }
    return list;
}

#define ALT_EVERY 4
#define MAX_LIMIT 1000000000LL /* entries are numbered in 32 bits */

typedef struct {
    Table table;
    Queue heap, alt;
    unsigned char *taken;
    size_t taken_cap;
    StructureSet unproved;
} Search;

static void search_free(Search *s) {
    free(s->unproved.slots);
    table_free(&s->table);
    queue_free(&s->heap);
    queue_free(&s->alt);
    free(s->taken);
}

static int mark_taken(Search *s, int32_t seq) {
    if ((size_t)seq >= s->taken_cap) {
        size_t cap = s->taken_cap ? s->taken_cap : 4096;
        while (cap <= (size_t)seq) cap *= 2;
        unsigned char *grown = realloc(s->taken, cap);
        if (!grown) return -1;
        memset(grown + s->taken_cap, 0, cap - s->taken_cap);
        s->taken = grown;
        s->taken_cap = cap;
    }
    if (s->taken[seq]) return 1;
    s->taken[seq] = 1;
    return 0;
}

static int cmp_dist(const void *a, const void *b) {
    const int *x = a, *y = b;
    return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

/* search(key, color, limit, dead, static_cost) -> (line | None, exhausted, nodes)
 * dead(key) runs the static analysis: True when it proves the position dead for ``color`` */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *key, *dead;
    int color;
    long long limit, static_cost;
    (void)self;
    if (!PyArg_ParseTuple(args, "OpLOL", &key, &color, &limit, &dead, &static_cost)) return NULL;
    Pos root;
    if (pos_from_key(key, &root) < 0) return NULL;
    Search *sp = calloc(1, sizeof(Search));
    if (!sp) return PyErr_NoMemory();
    Search *s = sp; /* (its queues are large for the C stack) */
    if (!table_init(&s->table)) {
        search_free(s);
        free(s);
        return PyErr_NoMemory();
    }
    if (limit > MAX_LIMIT) limit = MAX_LIMIT; /* (more would not fit in memory anyway) */
    long long nodes = 0;
    int32_t seq = 0;
    long long turn = 0;
    PyObject *result = NULL;
    int failure = 0, exhausted = 0;
    int32_t mate_at = -1;
    Move mate = 0;
    Entry first = {0, -1, 0};
    /* Other Python threads run while the search does (a server's event loop, say): the GIL is
     * taken back only to call the static analysis and at the end. */
    PyThreadState *thread = PyEval_SaveThread();
    if ((failure = queue_push(&s->heap, 0, first))) goto out;
    while (s->heap.n) {
        turn++;
        Entry e = (s->alt.n && turn % ALT_EVERY == 0) ? queue_pop(&s->alt) : queue_pop(&s->heap);
        int was = mark_taken(s, e.seq);
        if (was < 0) {
            failure = NO_MEMORY;
            goto out;
        }
        if (was) continue;
        Pos board;
        int32_t at;
        if (e.parent < 0) {
            board = root;
            at = table_add(&s->table, &board, -1, 0);
            if (at < 0) {
                failure = NO_MEMORY;
                goto out;
            }
        } else {
            const Pos *pp = &s->table.nodes[e.parent].pos;
            play(pp, e.move, &board);
            u64 pawns_before = pp->pawns, occupied_before = pp->white | pp->black;
            at = table_add(&s->table, &board, e.parent, e.move); /* (pp is stale after it) */
            if (at == KNOWN) continue;
            if (at < 0) {
                failure = NO_MEMORY;
                goto out;
            }
            if (!(side(&board, color) & ~board.kings)) continue;
            if (insufficient_for(&board, 1) && insufficient_for(&board, 0)) continue;
            if ((BB(FROM(e.move)) & pawns_before) || (BB(TO(e.move)) & occupied_before)) {
                Structure st = {board.pawns, board.pawns & board.white, popcount(board.white),
                                popcount(board.black)};
                size_t slot;
                if (s->unproved.slots && structure_slot(&s->unproved, &st, &slot)) goto expand;
                nodes += static_cost;
                PyEval_RestoreThread(thread);
                int is_dead = -1;
                PyObject *k = key_tuple(&board);
                if (k) {
                    PyObject *r = PyObject_CallOneArg(dead, k);
                    Py_DECREF(k);
                    if (r) {
                        is_dead = PyObject_IsTrue(r);
                        Py_DECREF(r);
                    }
                }
                thread = PyEval_SaveThread();
                if (is_dead < 0) {
                    failure = RAISED;
                    goto out;
                }
                if (is_dead) continue;
                if (structure_add(&s->unproved, &st) < 0) {
                    failure = NO_MEMORY;
                    goto out;
                }
            }
        }
    expand:;
        int mover = board.turn;
        int lk = king_of(&board, !color), wk = king_of(&board, color);
        u64 mine = side(&board, color), loser = side(&board, !color);
        u64 pawns = board.pawns & mine, loser_pawns = board.pawns & loser;
        Piece pieces[32];
        int np = 0;
        for (u64 t = mine & ~board.kings & ~board.pawns; t; t &= t - 1) {
            pieces[np].sq = lsb(t);
            pieces[np].type = piece_at(&board, pieces[np].sq);
            np++;
        }
        u64 occupied = board.white | board.black;
        u64 covered = covered_by(&board, mine, color);
        int base = 2 * CORNER[lk] + EDGE[lk];
        u64 around = KING_ATT[lk], lk_bb = BB(lk);
        const int *near = NEAR[lk];
        u64 helpers = loser & ~loser_pawns & ~lk_bb;
        int help_sum = 0;
        for (u64 t = helpers; t; t &= t - 1) help_sum += near[lsb(t)];
        int dists[35][2];
        for (int i = 0; i < np; i++) {
            dists[i][0] = piece_distance(pieces[i].type, pieces[i].sq, lk);
            dists[i][1] = pieces[i].sq;
        }
        qsort(dists, np, sizeof dists[0], cmp_dist);
        for (int i = np; i < np + 3; i++) {
            dists[i][0] = 99;
            dists[i][1] = -1;
        }
        int d0 = dists[0][0], s0 = dists[0][1], d1 = dists[1][0], s1 = dists[1][1],
            d2 = dists[2][0];
        int winner_moves = mover == color;
        MoveList legal;
        gen_legal(&board, &legal);
        for (int i = 0; i < legal.n; i++) {
            Move m = legal.moves[i];
            nodes++;
            int frm = FROM(m), to = TO(m);
            u64 bit = BB(to), start = BB(frm);
            int h, promotion = PROMO(m);
            u64 wp, nlp;
            if (winner_moves) {
                Pos after;
                int ds;
                play_pieces(&board, m, &after, &ds);
                int check = attackers(&after, color, lk, after.white | after.black) != 0;
                if (check) play(&board, m, &after); /* the whole position, for the replies */
                if (check && !has_legal_move(&after)) {
                    mate_at = at;
                    mate = m;
                    goto out;
                }
                int moved = piece_at(&board, frm);
                u64 wcov = covered | attacks_of(promotion ? promotion : moved, to, color, occupied);
                u64 nloser = loser & ~bit;
                nlp = loser_pawns & ~bit;
                u64 npawns = pawns;
                int king_sq = wk, best = d0, second = d1;
                if (frm == wk) {
                    king_sq = to;
                } else if (promotion) {
                    npawns = pawns & ~start;
                    int d = piece_distance(promotion, to, lk);
                    keep_two(d, &best, &second);
                } else if (pawns & start) {
                    npawns = (pawns & ~start) | bit;
                } else {
                    if (frm == s0) {
                        best = d1;
                        second = d2;
                    } else if (frm == s1) {
                        second = d2;
                    }
                    int d = piece_distance(moved, to, lk);
                    keep_two(d, &best, &second);
                }
                h = base + 2 * popcount(around & ~nloser & ~wcov);
                h += imax(0, CHEB[king_sq][lk] - 2);
                h += nearest_two(color, lk, npawns, nlp, best, second);
                h += (bit & helpers) ? help_sum - near[to] : help_sum;
                wp = npawns;
                if (check) h -= 2;
            } else {
                wp = pawns & ~bit;
                u64 nloser = (loser & ~start) | bit;
                if ((loser_pawns & start) && !promotion) nlp = (loser_pawns & ~start) | bit;
                else nlp = loser_pawns & ~start;
                if (frm == lk) {
                    Piece kept[32];
                    int nk = 0;
                    for (int j = 0; j < np; j++)
                        if (!(mine & bit) || pieces[j].sq != to) kept[nk++] = pieces[j];
                    h = cost(color, covered, to, wk, kept, nk, wp, nloser, nlp);
                } else {
                    int best = d0, second = d1;
                    if (mine & bit) {
                        if (to == s0) {
                            best = d1;
                            second = d2;
                        } else if (to == s1) {
                            second = d2;
                        }
                    }
                    h = base + 2 * popcount(around & ~nloser & ~covered);
                    h += imax(0, CHEB[wk][lk] - 2);
                    h += nearest_two(color, lk, wp, nlp, best, second);
                    h += help_sum;
                    if (start & helpers) h -= near[frm];
                    if (bit & ~nlp) h += near[to];
                }
            }
            seq++;
            Entry x = {seq, at, m};
            if ((failure = queue_push(&s->heap, h, x))) goto out;
            if ((failure = queue_push(&s->alt, h + pawn_term(color, wp, nlp), x))) goto out;
        }
        if (nodes >= limit) goto out;
    }
    exhausted = 1;
out:
    PyEval_RestoreThread(thread);
    if (failure == NO_MEMORY) {
        PyErr_NoMemory();
    } else if (failure == OUT_OF_RANGE) {
        PyErr_SetString(PyExc_OverflowError, "an estimate is out of the queues' range");
    } else if (failure != RAISED) {
        if (mate_at >= 0)
            result = Py_BuildValue("(NOL)", line_of(&s->table, mate_at, mate), Py_False, nodes);
        else
            result = Py_BuildValue("(OOL)", Py_None, exhausted ? Py_True : Py_False, nodes);
    }
    search_free(s);
    free(s);
    return result;
}

/* legal_moves(key) -> [(from, to, promotion)]: the generator alone, for the tests */
static PyObject *py_legal_moves(PyObject *self, PyObject *key) {
    (void)self;
    Pos p;
    if (pos_from_key(key, &p) < 0) return NULL;
    MoveList l;
    gen_legal(&p, &l);
    PyObject *list = PyList_New(l.n);
    if (!list) return NULL;
    for (int i = 0; i < l.n; i++)
        PyList_SET_ITEM(list, i,
                        Py_BuildValue("(iii)", FROM(l.moves[i]), TO(l.moves[i]), PROMO(l.moves[i])));
    return list;
}

/* child_key(key, (from, to, promotion)) -> the key after the move: for the tests */
static PyObject *py_child_key(PyObject *self, PyObject *args) {
    PyObject *key;
    int f, t, pr;
    (void)self;
    if (!PyArg_ParseTuple(args, "O(iii)", &key, &f, &t, &pr)) return NULL;
    Pos p, after;
    if (pos_from_key(key, &p) < 0) return NULL;
    play(&p, MV(f, t, pr), &after);
    return key_tuple(&after);
}

static PyMethodDef METHODS[] = {
    {"search", py_search, METH_VARARGS,
     "search(key, color, limit, dead) -> (line or None, exhausted, nodes)"},
    {"legal_moves", py_legal_moves, METH_O, "legal_moves(key) -> [(from, to, promotion)]"},
    {"child_key", py_child_key, METH_VARARGS, "child_key(key, (from, to, promotion)) -> key"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_helpmate",
    "The best-first cooperative search of arbitro.adjudication.search, compiled.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__helpmate(void) {
    init_tables();
    return PyModule_Create(&MODULE);
}
