/* Legal-move generation in C, shared by dizhu._moves (the engine's compiled move generator) and
 * dizhu.bots._rollout (the bots' compiled rollouts): lead_keys is dizhu.moves._lead_keys and
 * reply_keys is _reply_keys, key for key and in the same order.  A key holds 3 bits of count per
 * rank; see dizhu/moves.py.  Include it after <Python.h>: it allocates with PyMem.
 */
#ifndef DIZHU_MOVEGEN_H
#define DIZHU_MOVEGEN_H
#include <stdint.h>
#include <stdlib.h>

#define NUM_RANKS 15
#define CHAIN_TOP 11
#define TWO 12
#define BLACK 13
#define RED 14
#define U(r) ((uint64_t)1 << (3 * (r)))
#define MAX_KICKERS (CHAIN_TOP + 1) /* a plane spans 12 ranks at most, so it carries 12 kickers at most */

/* dizhu.combos.Kind, in its declaration order */
enum { SINGLE, PAIR, TRIO, TRIO_SINGLE, TRIO_PAIR, STRAIGHT, PAIR_CHAIN, PLANE, PLANE_SINGLE, PLANE_PAIR,
       FOUR_TWO_SINGLE, FOUR_TWO_PAIR, BOMB, ROCKET, KINDS };

typedef struct {
    uint64_t *v;
    size_t n, cap;
} Keys;

static int push(Keys *k, uint64_t key) {
    if (k->n == k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 64;
        uint64_t *v = PyMem_Realloc(k->v, cap * sizeof *v);
        if (v == NULL)
            return -1;
        k->v = v;
        k->cap = cap;
    }
    k->v[k->n++] = key;
    return 0;
}

/* _kicker_keys: every multiset of n single kickers outside the ranks lo..hi, at most two of a
 * rank and never both jokers, each added to body; the order is the Python one. */
static int kicker_keys(const uint8_t *c, int lo, int hi, int n, uint64_t body, Keys *out) {
    if (n < 1 || n > MAX_KICKERS)
        return 0; /* never asked: a chain spans 12 ranks at most */
    Keys levels[MAX_KICKERS + 1] = {{0}};
    int failed = push(&levels[0], 0);
    for (int r = 0; r < BLACK && !failed; r++) {
        if (!c[r] || (lo <= r && r <= hi))
            continue;
        uint64_t u = U(r);
        int two = c[r] >= 2;
        for (int k = n - 1; k >= 0 && !failed; k--) {
            Keys *src = &levels[k];
            size_t size = src->n; /* the sources as they were: level k gets nothing in this pass */
            for (size_t i = 0; i < size && !failed; i++)
                failed = push(&levels[k + 1], src->v[i] + u);
            if (two && k + 2 <= n)
                for (size_t i = 0; i < size && !failed; i++)
                    failed = push(&levels[k + 2], src->v[i] + 2 * u);
        }
    }
    for (int k = n - 1; k >= 0 && !failed; k--)
        for (int r = BLACK; r <= RED && !failed; r++) {
            if (!c[r] || (lo <= r && r <= hi))
                continue;
            size_t size = levels[k].n;
            for (size_t i = 0; i < size && !failed; i++)
                failed = push(&levels[k + 1], levels[k].v[i] + U(r));
        }
    for (size_t i = 0; i < levels[n].n && !failed; i++)
        failed = push(out, body + levels[n].v[i]);
    for (int k = 0; k <= n; k++)
        PyMem_Free(levels[k].v);
    return failed;
}

/* _pair_kicker_keys: every set of n pairs of distinct ranks outside lo..hi, in the order of
 * itertools.combinations over the ranks held twice. */
static int pair_kicker_keys(const uint8_t *c, int lo, int hi, int n, uint64_t body, Keys *out) {
    if (n < 1 || n > MAX_KICKERS)
        return 0; /* never asked, as above */
    int avail[NUM_RANKS], m = 0;
    for (int r = 0; r < BLACK; r++)
        if (c[r] >= 2 && !(lo <= r && r <= hi))
            avail[m++] = r;
    if (n > m)
        return 0;
    int pick[MAX_KICKERS];
    for (int i = 0; i < n; i++)
        pick[i] = i;
    for (;;) {
        uint64_t key = body;
        for (int i = 0; i < n; i++)
            key += 2 * U(avail[pick[i]]);
        if (push(out, key))
            return -1;
        int i = n - 1;
        while (i >= 0 && pick[i] == m - n + i)
            i--;
        if (i < 0)
            return 0;
        pick[i]++;
        for (int j = i + 1; j < n; j++)
            pick[j] = pick[j - 1] + 1;
    }
}

static uint64_t run_key(int width, int bottom, int top) {
    uint64_t key = 0;
    for (int r = bottom; r <= top; r++)
        key += U(r);
    return width * key;
}

/* The chains of one width, by top rank and then by length (_build_chains' order). */
static int chain_keys(const uint8_t *c, int width, int shortest, Keys *out) {
    for (int top = 0; top <= CHAIN_TOP; top++) {
        int length = 0;
        while (length <= top && c[top - length] >= width)
            length++;
        for (int n = shortest; n <= length; n++)
            if (push(out, run_key(width, top - n + 1, top)))
                return -1;
    }
    return 0;
}

static int lead_keys(const uint8_t *c, int total, Keys *out) {
    for (int r = 0; r < NUM_RANKS; r++)
        for (int x = 1; x <= c[r]; x++)
            if (push(out, x * U(r)))
                return -1;
    if (c[BLACK] == 1 && c[RED] == 1 && push(out, U(BLACK) + U(RED)))
        return -1;
    if (chain_keys(c, 1, 5, out) || chain_keys(c, 2, 3, out))
        return -1;
    int trios = 0;
    for (int r = 0; r < NUM_RANKS; r++)
        trios += c[r] >= 3;
    if (!trios)
        return 0;
    for (int t = 0; t < NUM_RANKS; t++) {
        if (c[t] < 3)
            continue;
        uint64_t body = 3 * U(t);
        for (int r = 0; r < NUM_RANKS; r++)
            if (c[r] && r != t && push(out, body + U(r)))
                return -1;
        for (int r = 0; r < NUM_RANKS; r++)
            if (c[r] >= 2 && r != t && push(out, body + 2 * U(r)))
                return -1;
    }
    for (int q = 0; q < NUM_RANKS; q++) {
        if (c[q] != 4)
            continue;
        if (kicker_keys(c, q, q, 2, 4 * U(q), out) || pair_kicker_keys(c, q, q, 2, 4 * U(q), out))
            return -1;
    }
    for (int top = 0; top <= CHAIN_TOP; top++) {
        int length = 0;
        while (length <= top && c[top - length] >= 3)
            length++;
        for (int n = 2; n <= length; n++) {
            int bottom = top - n + 1;
            uint64_t body = run_key(3, bottom, top);
            if (push(out, body))
                return -1;
            if (4 * n <= total && kicker_keys(c, bottom, top, n, body, out))
                return -1;
            if (4 * n <= total && 5 * n <= total && pair_kicker_keys(c, bottom, top, n, body, out))
                return -1;
        }
    }
    return 0;
}

static int reply_keys(const uint8_t *c, int kind, int main_rank, int chain, Keys *out) {
    if (kind == ROCKET)
        return 0;
    int low = main_rank + 1;
    switch (kind) {
    case SINGLE:
        for (int r = low; r < NUM_RANKS; r++)
            if (c[r] && push(out, U(r)))
                return -1;
        break;
    case PAIR:
    case TRIO: {
        int need = kind == PAIR ? 2 : 3;
        for (int r = low; r < BLACK; r++)
            if (c[r] >= need && push(out, need * U(r)))
                return -1;
        break;
    }
    case BOMB:
        break;
    case TRIO_SINGLE:
    case TRIO_PAIR: {
        int width = kind == TRIO_SINGLE ? 1 : 2, last = kind == TRIO_SINGLE ? NUM_RANKS : BLACK;
        for (int t = low; t < BLACK; t++) {
            if (c[t] < 3)
                continue;
            for (int r = 0; r < last; r++)
                if (c[r] >= width && r != t && push(out, 3 * U(t) + width * U(r)))
                    return -1;
        }
        break;
    }
    case FOUR_TWO_SINGLE:
    case FOUR_TWO_PAIR:
        for (int q = low; q < BLACK; q++) {
            if (c[q] != 4)
                continue;
            int failed = kind == FOUR_TWO_SINGLE ? kicker_keys(c, q, q, 2, 4 * U(q), out)
                                                 : pair_kicker_keys(c, q, q, 2, 4 * U(q), out);
            if (failed)
                return -1;
        }
        break;
    default: { /* the chains */
        int width = kind == STRAIGHT ? 1 : kind == PAIR_CHAIN ? 2 : 3, run = 0;
        for (int top = 0; chain >= 1 && top <= CHAIN_TOP; top++) { /* run <= 12: so is chain, below */
            run = c[top] >= width ? run + 1 : 0;
            if (run < chain || top < low)
                continue;
            int bottom = top - chain + 1;
            uint64_t body = run_key(width, bottom, top);
            int failed = kind == PLANE_SINGLE ? kicker_keys(c, bottom, top, chain, body, out)
                         : kind == PLANE_PAIR ? pair_kicker_keys(c, bottom, top, chain, body, out)
                                              : push(out, body);
            if (failed)
                return -1;
        }
    }
    }
    for (int r = kind == BOMB ? low : 0; r < BLACK; r++)
        if (c[r] == 4 && push(out, 4 * U(r)))
            return -1;
    if (c[BLACK] && c[RED] && push(out, U(BLACK) + U(RED)))
        return -1;
    return 0;
}

#endif
