/* The super-hard bot's rollouts, compiled: a round played to its end by the bots' styles.
 *
 * rollout(...) is dizhu.bots.search._rollout when every seat plays a style of the library
 * (dizhu.bots.styles), lookahead(...) the end of search.to_next_decision (the rule policy's next move
 * and the shortlist's others, each rolled out), picks(...) is one decision of each of several
 * styles (the look-ahead's and the reading's question, dizhu.bots.styles.picks) and read(...) the
 * reading's question at every decision it reads in a world: the policies of
 * dizhu.bots.policy (intermediate under a Style's thresholds, normal), the greedy and bomb-happy
 * styles of dizhu.bots.styles and the distilled policy (dizhu.bots.distilled), decision for decision.  The Python code stays the reference:
 * tests/test_rollout_native.py and tools/native_parity.py compare the two (the normal style draws
 * its random numbers from a generator of its own here, so it is compared on given draws).
 *
 * The rules a rollout needs (whose turn, when a trick ends, who has won, spring, the score's
 * doublings) are dizhu.rules' in a few lines each; which plays are legal is the engine's
 * generator (_movegen.h, the one dizhu._moves runs), and what a play is (kind, main rank, chain) is
 * read from the engine's own play table (dizhu.moves.play_table), never classified here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../_movegen.h"
#include "_splitsearch.h"

#define KING 10
#define MAX_SEATS 3
#define MAX_GROUPS 24

/* ---- plays: a key and what the engine says it is */

typedef struct {
    uint64_t key;
    uint8_t kind, main, chain, size;
} Play;

#define COUNT(key, r) ((int)(((key) >> (3 * (r))) & 7))
#define IS_BOMB(p) ((p)->kind == BOMB || (p)->kind == ROCKET)

/* key -> kind, main, chain, size: open addressing over the play table's keys, filled by init() */
#define META_BITS 17
#define META_SLOTS (1u << META_BITS)
static uint64_t *meta_keys = NULL; /* key + 1; 0: empty */
static uint32_t *meta_vals = NULL;
static PyObject *table = NULL;     /* the engine's play table (a dict with __missing__) */
static PyObject *kinds = NULL;     /* dizhu.combos.Kind's members, in order */
static int failed = 0;             /* an error is set: unwind and return NULL */
static int busy = 0;               /* a call is running: the static buffers are in use */

/* A policy asked to lead with no cards to play from: the position is not one of a round. */
static int no_play(void) {
    if (!failed)
        PyErr_SetString(PyExc_ValueError, "a seat with no cards to play cannot lead");
    failed = 1;
    return 0;
}

static inline uint32_t meta_slot(uint64_t key) {
    return (uint32_t)(((key + 1) * 0x9E3779B97F4A7C15ull) >> (64 - META_BITS));
}

static int combo_meta(PyObject *combo, uint64_t *key, uint32_t *val);

static int meta_put(uint64_t key, uint32_t val) {
    uint32_t i = meta_slot(key);
    unsigned probes = 0;
    while (meta_keys[i] && meta_keys[i] != key + 1) {
        i = (i + 1) & (META_SLOTS - 1);
        if (++probes >= META_SLOTS / 2)
            return 0; /* the table is crowded: this play is asked of Python each time */
    }
    meta_keys[i] = key + 1;
    meta_vals[i] = val;
    return 0;
}

#define PACK_META(kind, main, chain, size) ((uint32_t)(kind) | (uint32_t)(main) << 4 | (uint32_t)(chain) << 8 | (uint32_t)(size) << 16)

static Play play_of(uint64_t key) {
    Play p = {key, 0, 0, 0, 0};
    uint32_t i = meta_slot(key), val = 0;
    int found = 0;
    for (unsigned probes = 0; meta_keys[i] && probes < META_SLOTS / 2; probes++) {
        if (meta_keys[i] == key + 1) {
            val = meta_vals[i];
            found = 1;
            break;
        }
        i = (i + 1) & (META_SLOTS - 1);
    }
    if (!found && !failed) {
        /* a play the table had not built yet: the engine classifies it (its __missing__) */
        PyObject *k = PyLong_FromUnsignedLongLong(key);
        PyObject *combo = k ? PyObject_GetItem(table, k) : NULL;
        uint64_t got;
        Py_XDECREF(k);
        if (combo == NULL || combo_meta(combo, &got, &val) < 0)
            failed = 1;
        else
            meta_put(key, val);
        Py_XDECREF(combo);
    }
    p.kind = val & 15;
    p.main = val >> 4 & 15;
    p.chain = val >> 8 & 255;
    p.size = val >> 16 & 255;
    return p;
}

/* A Combo's key and its packed (kind, main, chain, size); -1 with an error set. */
static int combo_meta(PyObject *combo, uint64_t *key, uint32_t *val) {
    PyObject *k = PyObject_GetAttrString(combo, "key"), *kind = PyObject_GetAttrString(combo, "kind");
    PyObject *main_rank = PyObject_GetAttrString(combo, "main"), *chain = PyObject_GetAttrString(combo, "chain");
    PyObject *size = PyObject_GetAttrString(combo, "size");
    int result = -1;
    if (k && kind && main_rank && chain && size) {
        Py_ssize_t index = PySequence_Index(kinds, kind);
        long m = PyLong_AsLong(main_rank), ch = PyLong_AsLong(chain), sz = PyLong_AsLong(size);
        *key = PyLong_AsUnsignedLongLong(k);
        if (!PyErr_Occurred() && index >= 0) {
            if (m < 0 || m >= NUM_RANKS || ch < 0 || ch > 255 || sz < 0 || sz > 255)
                PyErr_SetString(PyExc_ValueError, "a play out of range");
            else {
                *val = PACK_META(index, m, ch, sz);
                result = 0;
            }
        }
    }
    Py_XDECREF(k);
    Py_XDECREF(kind);
    Py_XDECREF(main_rank);
    Py_XDECREF(chain);
    Py_XDECREF(size);
    return result;
}

/* ---- move lists: the engine's generator, then the table */

typedef struct {
    Play *v;
    int n, cap;
} Plays;

static Keys scratch_keys = {0};

/* Every play of c that leads (prev NULL) or beats prev, in the engine's order. */
static void replies(const uint8_t *c, const Play *prev, Plays *out) {
    out->n = 0;
    if (failed)
        return;
    scratch_keys.n = 0;
    int total = 0;
    for (int r = 0; r < NUM_RANKS; r++)
        total += c[r];
    int bad = prev == NULL ? lead_keys(c, total, &scratch_keys)
                           : reply_keys(c, prev->kind, prev->main, prev->chain, &scratch_keys);
    if (!bad && out->cap < (int)scratch_keys.n) {
        int cap = (int)scratch_keys.n * 2;
        Play *v = PyMem_Realloc(out->v, cap * sizeof *v);
        if (v == NULL)
            bad = 1;
        else {
            out->v = v;
            out->cap = cap;
        }
    }
    if (bad) {
        PyErr_NoMemory();
        failed = 1;
        return;
    }
    for (size_t i = 0; i < scratch_keys.n; i++)
        out->v[out->n++] = play_of(scratch_keys.v[i]);
}

/* policy.answerable: whether a seat holding `most` cards at most could beat p with cards c */
static Plays beat_buf = {0};
static int answerable(const Play *p, const uint8_t *c, int most) {
    replies(c, p, &beat_buf);
    if (most >= 4 && most >= p->size)
        return beat_buf.n > 0;
    for (int i = 0; i < beat_buf.n; i++)
        if (beat_buf.v[i].size <= most)
            return 1;
    return 0;
}

/* ---- the hand split's plays (policy.leads_from_split) */

typedef struct {
    int width, low, high;
} Group;

static int split_groups(const uint8_t *hand, Group *g) {
    uint8_t c[NUM_RANKS];
    memcpy(c, hand, NUM_RANKS);
    int n = 0, capacity = 0;
    for (;;) {
        uint32_t v = best(c, capacity);
        if (!WIDTH(v))
            break;
        int w = WIDTH(v), lo = LOW(v), hi = HIGH(v);
        g[n++] = (Group){w, lo, hi};
        for (int r = lo; r <= hi; r++)
            c[r] -= w;
        if (w == 3)
            capacity += hi - lo + 1;
    }
    int rocket = c[BLACK] && c[RED];
    if (rocket)
        g[n++] = (Group){0, BLACK, RED};
    for (int r = 0; r < (rocket ? BLACK : NUM_RANKS); r++)
        if (c[r])
            g[n++] = (Group){c[r], r, r};
    return n;
}

static uint64_t group_key(const Group *g) {
    if (g->width == 0)
        return U(BLACK) + U(RED);
    uint64_t key = 0;
    for (int r = g->low; r <= g->high; r++)
        key += U(r);
    return g->width * key;
}

/* Stable insertion sort of idx[0..n) by key[idx] ascending. */
static void sort_by(int *idx, int n, const int *key) {
    for (int i = 1; i < n; i++) {
        int x = idx[i], j = i - 1;
        while (j >= 0 && key[idx[j]] > key[x]) {
            idx[j + 1] = idx[j];
            j--;
        }
        idx[j + 1] = x;
    }
}

static int leads_from_split(const uint8_t *hand, Play *out) {
    Group g[MAX_GROUPS];
    int n = split_groups(hand, g);
    int spare[MAX_GROUPS], ns = 0, low[MAX_GROUPS], order[MAX_GROUPS], rank_key[MAX_GROUPS], used[MAX_GROUPS] = {0};
    for (int i = 0; i < n; i++) {
        low[i] = g[i].low;
        int trios = g[i].width == 3 ? g[i].high - g[i].low + 1 : 0;
        rank_key[i] = -trios * 64 + g[i].low;
        order[i] = i;
        if ((g[i].width == 1 || g[i].width == 2) && g[i].high == g[i].low && g[i].low < TWO)
            spare[ns++] = i;
    }
    sort_by(spare, ns, low);
    sort_by(order, n, rank_key);
    int m = 0;
    for (int o = 0; o < n; o++) {
        int i = order[o];
        if (used[i])
            continue;
        uint64_t key = group_key(&g[i]);
        if (g[i].width == 3) {
            int need = g[i].high - g[i].low + 1;
            for (int width = 1; width <= 2; width++) {
                int pick[MAX_GROUPS], np = 0;
                for (int s = 0; s < ns && np < need; s++) {
                    int k = spare[s];
                    if (g[k].width == width && !used[k] && !(g[i].low <= g[k].low && g[k].low <= g[i].high))
                        pick[np++] = k;
                }
                if (np == need) {
                    for (int s = 0; s < np; s++) {
                        used[pick[s]] = 1;
                        key += group_key(&g[pick[s]]);
                    }
                    break;
                }
            }
        }
        used[i] = 1;
        out[m++] = play_of(key);
    }
    return m;
}

/* ---- one seat's knowledge (policy.Ctx) */

typedef struct {
    uint8_t hand[NUM_RANKS], unseen[NUM_RANKS];
    int seat, players, landlord, handicap;
    int left[MAX_SEATS];
    int has_last, last_seat;
    Play last;
} Ctx;

static inline int partner(const Ctx *x, int s) { return (s == x->landlord) == (x->seat == x->landlord); }
static inline int line_of(const Ctx *x, int s) { return s == x->landlord ? 0 : x->handicap; }
static inline int need(const Ctx *x, int s) {
    int n = x->left[s] - line_of(x, s);
    return n > 0 ? n : 0;
}
static inline int next_seat(int s, int players) { return (s + 1) % players; }

/* ctx.to_shed(hand) into out */
static void to_shed(const uint8_t *hand, int keep, uint8_t *out) {
    memcpy(out, hand, NUM_RANKS);
    if (keep)
        shed(out, keep);
}

static int plays_of(const uint8_t *c) {
    uint8_t copy[NUM_RANKS];
    memcpy(copy, c, NUM_RANKS);
    return PLAYS(best(copy, 0));
}

static void minus(const uint8_t *hand, const Play *p, uint8_t *out) {
    for (int r = 0; r < NUM_RANKS; r++)
        out[r] = hand[r] - COUNT(p->key, r);
}

/* A style: the policy and the intermediate thresholds (policy.Style's fields, in order). */
enum { P_INTERMEDIATE, P_NORMAL, P_GREEDY, P_BOMBS, P_DISTILLED };
typedef struct {
    int policy;
    int delta1_danger, delta1_landlord, delta1_duel, delta2_danger, urgent_need, keep_control, partner_top,
        lead_many_first, lead_small_bonus, to_the_line;
} Style;

/* The random draws of the normal style: given (picks) or from the rollout's generator. */
typedef struct {
    int given;
    double u[2];
    int used;
    uint64_t state;
} Draws;

static double draw(Draws *d) {
    if (d->given)
        return d->u[d->used++ < 1 ? 0 : 1];
    uint64_t z = (d->state += 0x9E3779B97F4A7C15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

#define PASS (-1)
static Plays moves_buf = {0};

/* _finishing: the first of the largest moves, if it wins at once; else -1. */
static int finishing(const Ctx *x, const Plays *moves) {
    if (!moves->n)
        return -1;
    int best_i = 0;
    for (int i = 1; i < moves->n; i++)
        if (moves->v[i].size > moves->v[best_i].size)
            best_i = i;
    return moves->v[best_i].size >= need(x, x->seat) ? best_i : -1;
}

static void danger_of(const Ctx *x, int *seat, int *n) {
    *seat = -1;
    *n = 99;
    for (int s = 0; s < x->players; s++)
        if (!partner(x, s)) {
            int k = need(x, s);
            if (k < *n) {
                *seat = s;
                *n = k;
            }
        }
}

/* policy._opponents_most */
static int opponents_most(const Ctx *x) {
    int most = 0;
    for (int s = 0; s < x->players; s++)
        if (!partner(x, s) && x->left[s] > most)
            most = x->left[s];
    return most;
}

static int is_control(const Play *p, const Ctx *x) { return !answerable(p, x->unseen, opponents_most(x)); }

static int can_run_out(const Ctx *x, const uint8_t *after) {
    uint8_t shed_hand[NUM_RANKS];
    Play plays[MAX_GROUPS];
    to_shed(after, line_of(x, x->seat), shed_hand);
    int n = leads_from_split(shed_hand, plays);
    if (n <= 1)
        return 1;
    int controls = 0, most = opponents_most(x);
    for (int i = 0; i < n; i++)
        controls += !answerable(&plays[i], x->unseen, most);
    return n - controls <= 1;
}

/* The decision, as a play written to *out; 0: pass. */
static int lead(const Ctx *x, const Style *st, Play *out) {
    Plays *moves = &moves_buf;
    replies(x->hand, NULL, moves);
    int done = finishing(x, moves);
    if (done >= 0) {
        *out = moves->v[done];
        return 1;
    }
    uint8_t hand[NUM_RANKS];
    to_shed(x->hand, st->to_the_line ? line_of(x, x->seat) : 0, hand);
    Play plays[MAX_GROUPS], pool[MAX_GROUPS];
    int n = leads_from_split(hand, plays), control[MAX_GROUPS], ncontrols = 0, first_control = -1;
    for (int i = 0; i < n; i++) {
        control[i] = is_control(&plays[i], x);
        if (control[i]) {
            ncontrols++;
            if (first_control < 0)
                first_control = i;
        }
    }
    if (n == 2 && ncontrols) {
        *out = plays[first_control];
        return 1;
    }
    int dseat, danger;
    danger_of(x, &dseat, &danger);
    int nxt = next_seat(x->seat, x->players);
    if (x->players > 2 && x->seat != x->landlord) {
        int mate = 0;
        while (mate == x->seat || mate == x->landlord)
            mate++;
        int left = x->left[mate];
        if (left <= 2 && (mate == nxt || danger > 2)) {
            int kind = left == 1 ? SINGLE : PAIR, found = -1;
            for (int i = 0; i < moves->n; i++)
                if (moves->v[i].kind == kind && (found < 0 || moves->v[i].main < moves->v[found].main))
                    found = i;
            if (found >= 0) {
                *out = moves->v[found];
                return 1;
            }
        }
    }
    int np = 0;
    for (int i = 0; i < n; i++)
        if (!control[i])
            pool[np++] = plays[i];
    if (!np)
        for (int i = 0; i < n; i++)
            pool[np++] = plays[i];
    if (!np)
        return no_play();
    if (danger <= 2) {
        Play safe[MAX_GROUPS];
        int ns = 0;
        for (int i = 0; i < np; i++)
            if (!(pool[i].size == danger && (pool[i].kind == SINGLE || pool[i].kind == PAIR)))
                safe[ns++] = pool[i];
        if (!ns) /* only unsafe plays beside the controls: a control first keeps the lead */
            for (int i = 0; i < n; i++)
                if (!(plays[i].size == danger && (plays[i].kind == SINGLE || plays[i].kind == PAIR)))
                    safe[ns++] = plays[i];
        if (ns) {
            memcpy(pool, safe, ns * sizeof *safe);
            np = ns;
        } else {
            int top = 0;
            for (int i = 1; i < np; i++)
                if (pool[i].main > pool[top].main || (pool[i].main == pool[top].main && pool[i].size > pool[top].size))
                    top = i;
            *out = pool[top];
            return 1;
        }
    }
    int pick = -1, pk0 = 0, pk1 = 0;
    for (int i = 0; i < np; i++) {
        const Play *p = &pool[i];
        int many = (p->size >= 5 || p->kind == TRIO_SINGLE || p->kind == TRIO_PAIR || p->kind == TRIO) ? 0 : 1;
        int k0 = st->lead_many_first ? p->main + (many ? 1 : 0) - (many ? st->lead_small_bonus : 0) : p->main;
        if (pick < 0 || k0 < pk0 || (k0 == pk0 && many < pk1)) {
            pick = i;
            pk0 = k0;
            pk1 = many;
        }
    }
    *out = pool[pick];
    return 1;
}

typedef struct {
    int delta, main;
    Play m;
} Scored;

static Scored *scored_buf = NULL;
static int scored_cap = 0;

static int respond(const Ctx *x, const Style *st, Play *out) {
    const Play *prev = &x->last;
    Plays *moves = &moves_buf;
    replies(x->hand, prev, moves);
    if (!moves->n)
        return 0;
    int done = finishing(x, moves);
    if (done >= 0) {
        *out = moves->v[done];
        return 1;
    }
    if (partner(x, x->last_seat)) {
        int lord_need = need(x, x->landlord);
        if (st->partner_top && next_seat(x->seat, x->players) == x->landlord && lord_need <= 2 &&
            lord_need >= prev->size && answerable(prev, x->unseen, x->left[x->landlord])) {
            int top = -1;
            for (int i = 0; i < moves->n; i++)
                if (!IS_BOMB(&moves->v[i]) && (top < 0 || moves->v[i].main > moves->v[top].main))
                    top = i;
            if (top >= 0) {
                Play t = moves->v[top];
                if (is_control(&t, x) || t.main >= TWO) {
                    *out = t;
                    return 1;
                }
            }
        }
        return 0;
    }
    /* _reply_costs */
    int keep = st->to_the_line ? line_of(x, x->seat) : 0;
    uint8_t shed_hand[NUM_RANKS], after[NUM_RANKS], shed_after[NUM_RANKS];
    to_shed(x->hand, keep, shed_hand);
    int base = plays_of(shed_hand);
    if (scored_cap < moves->n) {
        Scored *v = PyMem_Realloc(scored_buf, 2 * moves->n * sizeof *v);
        if (v == NULL) {
            PyErr_NoMemory();
            failed = 1;
            return 0;
        }
        scored_buf = v;
        scored_cap = 2 * moves->n;
    }
    Play bombs[8];
    int ns = 0, nb = 0;
    for (int i = 0; i < moves->n; i++) {
        const Play *m = &moves->v[i];
        if (IS_BOMB(m)) {
            if (nb < 8)
                bombs[nb++] = *m;
            continue;
        }
        minus(x->hand, m, after);
        to_shed(after, keep, shed_after);
        Scored s = {plays_of(shed_after) - (base - 1), m->main, *m};
        int j = ns - 1; /* stable insertion by (delta, main) */
        while (j >= 0 && (scored_buf[j].delta > s.delta || (scored_buf[j].delta == s.delta && scored_buf[j].main > s.main))) {
            scored_buf[j + 1] = scored_buf[j];
            j--;
        }
        scored_buf[j + 1] = s;
        ns++;
    }
    /* the bombs by (rocket last, main): stable */
    for (int i = 1; i < nb; i++) {
        Play b = bombs[i];
        int j = i - 1, kb = (b.kind == ROCKET) * 16 + b.main;
        while (j >= 0 && (bombs[j].kind == ROCKET) * 16 + bombs[j].main > kb) {
            bombs[j + 1] = bombs[j];
            j--;
        }
        bombs[j + 1] = b;
    }
    int dseat, danger;
    danger_of(x, &dseat, &danger);
    int owner_need = need(x, x->last_seat);
    int urgent = owner_need <= st->urgent_need || danger <= st->urgent_need || (owner_need <= 4 && prev->size >= 4);
    if (urgent) {
        if (ns) {
            int top = 0;
            for (int i = 1; i < ns; i++) {
                int a0 = scored_buf[i].delta <= 2 ? scored_buf[i].main : -1, b0 = scored_buf[top].delta <= 2 ? scored_buf[top].main : -1;
                if (a0 > b0 || (a0 == b0 && -scored_buf[i].delta > -scored_buf[top].delta))
                    top = i;
            }
            *out = scored_buf[top].m;
            return 1;
        }
        for (int i = 0; i < nb; i++) {
            minus(x->hand, &bombs[i], after);
            if (can_run_out(x, after)) {
                *out = bombs[i];
                return 1;
            }
        }
        return 0;
    }
    for (int i = 0; i < nb; i++) {
        minus(x->hand, &bombs[i], after);
        if (can_run_out(x, after)) {
            *out = bombs[i];
            return 1;
        }
    }
    if (ns) {
        Scored s = scored_buf[0];
        int high = s.m.main >= TWO && (s.m.kind == SINGLE || s.m.kind == PAIR);
        if (st->keep_control && high && base > 3 && danger > 5 && prev->main < KING)
            return 0;
        if (s.delta <= 0) {
            *out = s.m;
            return 1;
        }
        int eager = danger <= st->delta1_danger || (st->delta1_landlord && x->seat == x->landlord) ||
                    (st->delta1_duel && x->players == 2);
        if ((s.delta == 1 && eager) || (s.delta == 2 && danger <= st->delta2_danger)) {
            *out = s.m;
            return 1;
        }
    }
    return 0;
}

static int intermediate(const Ctx *x, const Style *st, Play *out) {
    return x->has_last ? respond(x, st, out) : lead(x, st, out);
}

static int lowest_main(const Plays *moves, int ordinary_only) {
    int found = -1;
    for (int i = 0; i < moves->n; i++)
        if ((!ordinary_only || !IS_BOMB(&moves->v[i])) && (found < 0 || moves->v[i].main < moves->v[found].main))
            found = i;
    return found;
}

static int normal(const Ctx *x, Draws *d, Play *out) {
    Plays *moves = &moves_buf;
    if (!x->has_last) {
        replies(x->hand, NULL, moves);
        int done = finishing(x, moves);
        if (done >= 0) {
            *out = moves->v[done];
            return 1;
        }
        Play plays[MAX_GROUPS], ordinary[MAX_GROUPS];
        int n = leads_from_split(x->hand, plays), no = 0;
        for (int i = 0; i < n; i++)
            if (!IS_BOMB(&plays[i]))
                ordinary[no++] = plays[i];
        if (!no) {
            memcpy(ordinary, plays, n * sizeof *plays);
            no = n;
        }
        if (!no)
            return no_play();
        if (draw(d) < 0.15) {
            int i = (int)(draw(d) * no); /* draws are in [0, 1) */
            *out = ordinary[i < 0 ? 0 : i < no ? i : no - 1];
            return 1;
        }
        int pick = 0;
        for (int i = 1; i < no; i++)
            if (ordinary[i].main < ordinary[pick].main ||
                (ordinary[i].main == ordinary[pick].main && ordinary[i].size > ordinary[pick].size))
                pick = i;
        *out = ordinary[pick];
        return 1;
    }
    replies(x->hand, &x->last, moves);
    if (!moves->n)
        return 0;
    int done = finishing(x, moves);
    if (done >= 0) {
        *out = moves->v[done];
        return 1;
    }
    int base = plays_of(x->hand), fit = -1, has_ordinary = 0;
    uint8_t after[NUM_RANKS];
    for (int i = 0; i < moves->n; i++) {
        const Play *m = &moves->v[i];
        if (IS_BOMB(m))
            continue;
        has_ordinary = 1;
        if (fit >= 0 && m->main >= moves->v[fit].main)
            continue; /* min by main keeps the first: no need to split this one */
        minus(x->hand, m, after);
        if (plays_of(after) <= base)
            fit = i;
    }
    if (fit >= 0) {
        *out = moves->v[fit];
        return 1;
    }
    if (x->left[x->last_seat] <= 2 && !partner(x, x->last_seat)) {
        *out = moves->v[lowest_main(moves, has_ordinary)];
        return 1;
    }
    if (has_ordinary && draw(d) < 0.3) {
        *out = moves->v[lowest_main(moves, 1)];
        return 1;
    }
    return 0;
}

static int greedy(const Ctx *x, Play *out) {
    if (!x->has_last) {
        Play plays[MAX_GROUPS];
        int n = leads_from_split(x->hand, plays), pick = 0;
        if (!n)
            return no_play();
        for (int i = 1; i < n; i++) {
            int a = IS_BOMB(&plays[i]), b = IS_BOMB(&plays[pick]);
            if (a < b || (a == b && (plays[i].main < plays[pick].main ||
                                     (plays[i].main == plays[pick].main && plays[i].size > plays[pick].size))))
                pick = i;
        }
        *out = plays[pick];
        return 1;
    }
    if (partner(x, x->last_seat))
        return 0;
    replies(x->hand, &x->last, &moves_buf);
    int i = lowest_main(&moves_buf, 1);
    if (i < 0)
        return 0;
    *out = moves_buf.v[i];
    return 1;
}

static int bomb_happy(const Ctx *x, const Style *st, Play *out) {
    if (intermediate(x, st, out))
        return 1;
    if (!x->has_last || partner(x, x->last_seat))
        return 0;
    replies(x->hand, &x->last, &moves_buf);
    int pick = -1;
    for (int i = 0; i < moves_buf.n; i++) {
        const Play *m = &moves_buf.v[i];
        if (!IS_BOMB(m))
            continue;
        if (pick < 0) {
            pick = i;
            continue;
        }
        const Play *b = &moves_buf.v[pick];
        int a0 = m->size == 2, b0 = b->size == 2;
        if (a0 < b0 || (a0 == b0 && m->main < b->main))
            pick = i;
    }
    if (pick < 0)
        return 0;
    *out = moves_buf.v[pick];
    return 1;
}

/* ---- the distilled policy (dizhu.bots.distilled): a network's score of each move of the search's
 * shortlist (dizhu.bots.shortlist), over distilled.features; the rule policy's move unless another
 * scores `margin` more.  set_net() gives the weights (styles.compiled() does, from the package). */

#define N_FEATURES (81 + 66) /* the figures, then the raw counts (F_RAW) */
#define MAX_HIDDEN 64
#define MAX_CANDS 64
/* The network with its standardisation folded in (distilled.Net.rows and .bias, to the same bits):
 * a unit's sum is bias + the sum of feature * row over the features that are not 0, so the many zeros
 * cost nothing; and the features from F_DECISION on, the same for every move of a decision, are
 * summed first, once a decision (Net.order). */
typedef struct {
    double rows[N_FEATURES * MAX_HIDDEN], bias[MAX_HIDDEN], w2[MAX_HIDDEN], margin;
    int hidden; /* 0: none set */
    int inputs; /* it reads the first `inputs` features */
} Net;
/* one network for each size of table (index: players - 2), as each variant was fitted apart */
static Net nets[MAX_SEATS - 1];
static Plays cand_buf = {0};

typedef struct {
    int pass;
    Play p;
} Cand;

/* stable insertion sort of plays by (is_bomb, main) or by main alone */
static void sort_plays(Play *v, int n, int bombs_last) {
    for (int i = 1; i < n; i++) {
        Play p = v[i];
        int kp = (bombs_last && IS_BOMB(&p)) * 64 + p.main, j = i - 1;
        while (j >= 0 && (bombs_last && IS_BOMB(&v[j])) * 64 + v[j].main > kp) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = p;
    }
}

static int add_cand(Cand *c, int n, int pass, const Play *p) {
    for (int i = 0; i < n; i++)
        if (c[i].pass == pass && (pass || c[i].p.key == p->key))
            return n;
    c[n].pass = pass;
    if (!pass)
        c[n].p = *p;
    return n + 1;
}

/* shortlist.shortlist (its default sizes), deduplicated, the rule policy's choice included */
static int candidates(const Ctx *x, int chose, const Play *choice, Cand *c) {
    int n = 0;
    Plays *moves = &cand_buf;
    if (!x->has_last) {
        replies(x->hand, NULL, moves);
        if (moves->n <= 12) {
            for (int i = 0; i < moves->n; i++)
                n = add_cand(c, n, 0, &moves->v[i]);
        } else {
            Play plays[MAX_GROUPS];
            int k = leads_from_split(x->hand, plays);
            for (int i = 0; i < k; i++)
                n = add_cand(c, n, 0, &plays[i]);
            int line = line_of(x, x->seat);
            if (line) {
                uint8_t shed_hand[NUM_RANKS];
                to_shed(x->hand, line, shed_hand);
                k = leads_from_split(shed_hand, plays);
                for (int i = 0; i < k; i++)
                    n = add_cand(c, n, 0, &plays[i]);
            }
            Play small[MAX_CANDS];
            int ns = 0;
            for (int i = 0; i < moves->n && ns < MAX_CANDS; i++)
                if (moves->v[i].size <= 2)
                    small[ns++] = moves->v[i];
            sort_plays(small, ns, 0);
            for (int i = 0; i < ns && i < 4; i++)
                n = add_cand(c, n, 0, &small[i]);
        }
    } else {
        replies(x->hand, &x->last, moves);
        n = add_cand(c, n, 1, NULL);
        if (moves->n + 1 > 10)
            sort_plays(moves->v, moves->n, 1);
        int kept = moves->n + 1 > 10 ? 9 : moves->n;
        for (int i = 0; i < kept; i++)
            n = add_cand(c, n, 0, &moves->v[i]);
    }
    return add_cand(c, n, !chose, choice);
}

/* the features' places, in distilled.NAMES' order (tests/test_rollout_native.py pins them): four of any
 * move, then 35 of a lead and 35 of a reply (kind, then the figures, then three bands of danger by
 * six, then three for the seat's own last plays), then the passes' and the bombs' own */
enum { F_POLICY, F_PASS, F_PASS_PARTNER, F_PLAY_PARTNER, F_PHASE, F_PHASE_SIZE = 35 };
enum { F_DELTA = 5, F_DELTA_POS, F_MAIN, F_HIGH, F_CONTROL, F_SIZE, F_RUN_OUT, F_AFTER_PLAYS, F_AFTER_CONTROLS,
       F_BAND, F_ME12 = 32 };
enum { F_REPLY_BAND_PASS = 74, F_OWNER_NEAR_PASS = 77, F_LANDLORD_PASS, F_LANDLORD_BOMB, F_DUEL_BOMB };
/* the raw counts: by rank the hand after the move, the move, the cards unseen, the trick to beat; then
 * the cards each seat holds (this one first, then round the table) and who is landlord, for 3 seats */
enum { F_RAW = 81, F_AFTER = F_RAW, F_MOVE = F_AFTER + NUM_RANKS, F_UNSEEN = F_MOVE + NUM_RANKS,
       F_TRICK = F_UNSEEN + NUM_RANKS, F_HELD = F_TRICK + NUM_RANKS, F_IS_LANDLORD = F_HELD + MAX_SEATS,
       F_DECISION = F_UNSEEN /* from here on, the same for every move of a decision (distilled.DECISION) */ };

static void raw_counts(const Ctx *x, const Cand *cand, double *f) {
    for (int r = 0; r < NUM_RANKS; r++) {
        int moved = cand->pass ? 0 : COUNT(cand->p.key, r);
        f[F_AFTER + r] = x->hand[r] - moved;
        f[F_MOVE + r] = moved;
        f[F_UNSEEN + r] = x->unseen[r];
        f[F_TRICK + r] = x->has_last ? COUNT(x->last.key, r) : 0;
    }
    for (int k = 0; k < x->players; k++) {
        int s = (x->seat + k) % x->players;
        f[F_HELD + k] = x->left[s] / 20.0;
        f[F_IS_LANDLORD + k] = s == x->landlord;
    }
}

/* distilled.features of one move into f (N_FEATURES, zeroed) */
static void features(const Ctx *x, const Cand *cand, int is_policy, int base, int band, int mine, double *f) {
    int lead = !x->has_last, partner_last = !lead && partner(x, x->last_seat);
    raw_counts(x, cand, f);
    if (is_policy)
        f[F_POLICY] += 1;
    if (cand->pass) {
        f[F_PASS] += 1;
        if (partner_last)
            f[F_PASS_PARTNER] += 1;
        if (band >= 0)
            f[F_REPLY_BAND_PASS + band] += 1;
        if (!partner_last && need(x, x->last_seat) <= 4)
            f[F_OWNER_NEAR_PASS] += 1;
        if (x->seat == x->landlord)
            f[F_LANDLORD_PASS] += 1;
        return;
    }
    const Play *m = &cand->p;
    if (partner_last)
        f[F_PLAY_PARTNER] += 1;
    double *ph = f + F_PHASE + (lead ? 0 : F_PHASE_SIZE);
    int slot = IS_BOMB(m) ? 4 : m->kind == SINGLE ? 0 : m->kind == PAIR ? 1
             : (m->kind == TRIO || m->kind == TRIO_SINGLE || m->kind == TRIO_PAIR) ? 2 : 3;
    int line = line_of(x, x->seat);
    uint8_t after[NUM_RANKS], shed_after[NUM_RANKS];
    minus(x->hand, m, after);
    to_shed(after, line, shed_after);
    int after_plays = plays_of(shed_after);
    int delta = after_plays - (base - 1);
    int control = is_control(m, x), high = m->main >= TWO;
    ph[slot] += 1;
    ph[F_DELTA] += delta;
    ph[F_DELTA_POS] += delta > 0 ? delta : 0;
    ph[F_MAIN] += m->main / 14.0;
    ph[F_HIGH] += high;
    ph[F_CONTROL] += control;
    ph[F_SIZE] += m->size / 10.0;
    ph[F_RUN_OUT] += can_run_out(x, after);
    ph[F_AFTER_PLAYS] += (after_plays < 10 ? after_plays : 10) / 10.0;
    if (after_plays <= 6) {
        Play plays[MAX_GROUPS];
        int k = leads_from_split(shed_after, plays), controls = 0;
        for (int i = 0; i < k; i++)
            controls += is_control(&plays[i], x);
        ph[F_AFTER_CONTROLS] += controls / 3.0;
    }
    if (band >= 0) {
        double *b = ph + F_BAND + 6 * band;
        if (slot == 0 || slot == 1 || slot == 4)
            b[slot == 4 ? 2 : slot] += 1;
        b[3] += control;
        b[4] += high;
        b[5] += delta;
    }
    if (mine <= 2 || after_plays <= 2) {
        ph[F_ME12] += control;
        ph[F_ME12 + 1] += delta;
        ph[F_ME12 + 2] += IS_BOMB(m);
    }
    if (IS_BOMB(m)) {
        if (x->seat == x->landlord)
            f[F_LANDLORD_BOMB] += 1;
        if (x->players <= 2)
            f[F_DUEL_BOMB] += 1;
    }
}

/* Adds the terms of features [from, to) that are not 0 to the hidden units' sums a, feature by feature:
 * each unit sums its terms in Python's order (Net.score), to the last bit. */
static inline void net_add(const Net *net, const double *f, int from, int to, int hidden, double *a) {
    for (int i = from; i < to; i++) {
        double v = f[i];
        if (v == 0.0)
            continue;
        const double *w = net->rows + i * hidden;
        for (int h = 0; h < hidden; h++)
            a[h] += v * w[h];
    }
}

/* widths the shipped networks have get constant loops: the compiler uses vectors */
static void net_sum(const Net *net, const double *f, int from, int to, double *a) {
    if (net->hidden == 32)
        net_add(net, f, from, to, 32, a);
    else if (net->hidden == 64)
        net_add(net, f, from, to, 64, a);
    else
        net_add(net, f, from, to, net->hidden, a);
}

/* the units' sums over a decision's common features (from F_DECISION): every move's sums start from them */
static void net_base(const Net *net, const double *f, double *base) {
    memcpy(base, net->bias, net->hidden * sizeof *base);
    if (net->inputs > F_DECISION)
        net_sum(net, f, F_DECISION, net->inputs, base);
}

static double net_score(const Net *net, const double *base, const double *f) {
    int hidden = net->hidden;
    double a[MAX_HIDDEN], out = 0.0;
    memcpy(a, base, hidden * sizeof *a);
    net_sum(net, f, 0, net->inputs < F_DECISION ? net->inputs : F_DECISION, a);
    for (int h = 0; h < hidden; h++)
        if (a[h] > 0)
            out += a[h] * net->w2[h];
    return out;
}

static int distilled(const Ctx *x, const Style *st, Play *out) {
    Play choice;
    int chose = intermediate(x, st, &choice);
    if (failed)
        return 0;
    const Net *net = &nets[x->players - 2];
    Cand c[MAX_CANDS + 2];
    int n = candidates(x, chose, &choice, c);
    if (n < 2)
        goto policy;
    uint8_t shed_hand[NUM_RANKS];
    to_shed(x->hand, line_of(x, x->seat), shed_hand);
    int base = plays_of(shed_hand), dseat, danger, mine = need(x, x->seat);
    danger_of(x, &dseat, &danger);
    int band = danger == 1 ? 0 : danger == 2 ? 1 : danger <= 4 ? 2 : -1;
    int best = -1, pol = -1;
    double best_score = 0.0, pol_score = 0.0, units[MAX_HIDDEN];
    for (int i = 0; i < n; i++) {
        int is_policy = chose ? (!c[i].pass && c[i].p.key == choice.key) : c[i].pass;
        double f[N_FEATURES] = {0};
        features(x, &c[i], is_policy, base, band, mine, f);
        if (i == 0)
            net_base(net, f, units);
        double s = net_score(net, units, f);
        if (best < 0 || s > best_score) {
            best = i;
            best_score = s;
        }
        if (is_policy) {
            pol = i;
            pol_score = s;
        }
    }
    if (pol >= 0 && best_score > pol_score + net->margin) {
        if (c[best].pass)
            return 0;
        *out = c[best].p;
        return 1;
    }
policy:
    if (chose)
        *out = choice;
    return chose;
}

static int decide_style(const Ctx *x, const Style *st, Draws *d, Play *out) {
    switch (st->policy) {
    case P_NORMAL:
        return normal(x, d, out);
    case P_GREEDY:
        return greedy(x, out);
    case P_BOMBS:
        return bomb_happy(x, st, out);
    case P_DISTILLED:
        return distilled(x, st, out);
    default:
        return intermediate(x, st, out);
    }
}

/* ---- arguments */

/* 15 rank counts into c: 0 to 4 each, a joker 0 or 1 (every deck has one of each). */
static int parse_counts(PyObject *seq, uint8_t *c) {
    PyObject *items = PySequence_Fast(seq, "counts must be a sequence of 15 rank counts");
    if (items == NULL)
        return -1;
    int result = 0;
    if (PySequence_Fast_GET_SIZE(items) != NUM_RANKS) {
        PyErr_SetString(PyExc_ValueError, "counts must be a sequence of 15 rank counts");
        result = -1;
    }
    for (int r = 0; !result && r < NUM_RANKS; r++) {
        long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(items, r));
        if (k == -1 && PyErr_Occurred())
            result = -1;
        else if (k < 0 || k > (r >= BLACK ? 1 : 4)) {
            PyErr_Format(PyExc_ValueError, "rank %d: a rank count must be 0 to %d, not %ld", r, r >= BLACK ? 1 : 4, k);
            result = -1;
        } else
            c[r] = (uint8_t)k;
    }
    Py_DECREF(items);
    return result;
}

/* The rank counts of 2 or 3 seats' hands into hands; the number of seats, or -1 with an error set
 * (also for a sequence whose len() and items disagree). */
static int parse_hands(PyObject *seq, uint8_t hands[MAX_SEATS][NUM_RANKS]) {
    Py_ssize_t n = PySequence_Length(seq);
    if (n < 2 || n > MAX_SEATS) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "hands: 2 or 3 seats");
        return -1;
    }
    PyObject *hs = PySequence_Fast(seq, "hands");
    if (hs == NULL)
        return -1;
    int result = (int)n;
    if (PySequence_Fast_GET_SIZE(hs) != n) {
        PyErr_SetString(PyExc_ValueError, "hands: 2 or 3 seats");
        result = -1;
    }
    for (int s = 0; result > 0 && s < n; s++)
        if (parse_counts(PySequence_Fast_GET_ITEM(hs, s), hands[s]))
            result = -1;
    Py_DECREF(hs);
    return result;
}

static int parse_ints(PyObject *seq, int *out, int n, const char *what) {
    PyObject *items = PySequence_Fast(seq, what);
    if (items == NULL)
        return -1;
    int result = 0;
    if (PySequence_Fast_GET_SIZE(items) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %d numbers expected", what, n);
        result = -1;
    }
    for (int i = 0; !result && i < n; i++) {
        long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(items, i));
        if (k == -1 && PyErr_Occurred())
            result = -1;
        else
            out[i] = (int)k;
    }
    Py_DECREF(items);
    return result;
}

/* A style spec: (policy, the 10 Style fields). */
static int parse_style(PyObject *spec, int players, Style *st) {
    int v[11];
    if (parse_ints(spec, v, 11, "a style is (policy, then Style's 10 fields)"))
        return -1;
    if (v[0] < P_INTERMEDIATE || v[0] > P_DISTILLED) {
        PyErr_Format(PyExc_ValueError, "no policy %d", v[0]);
        return -1;
    }
    if (v[0] == P_DISTILLED && !nets[players - 2].hidden) {
        PyErr_Format(PyExc_ValueError, "the distilled policy has no network for %d players: set_net() first", players);
        return -1;
    }
    *st = (Style){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10]};
    return 0;
}

/* last: None or (seat, Combo) */
/* A Combo as a play; 0, or -1 with an error set. */
static int parse_play(PyObject *combo, Play *p) {
    uint64_t key;
    uint32_t val;
    if (combo_meta(combo, &key, &val) < 0)
        return -1;
    *p = (Play){key, val & 15, val >> 4 & 15, val >> 8 & 255, val >> 16 & 255};
    return 0;
}

static int parse_last(PyObject *last, int players, int *has, int *seat, Play *p) {
    *has = 0;
    if (last == Py_None)
        return 0;
    if (!PyTuple_Check(last) || PyTuple_GET_SIZE(last) != 2) {
        PyErr_SetString(PyExc_TypeError, "last must be None or (seat, Combo)");
        return -1;
    }
    long s = PyLong_AsLong(PyTuple_GET_ITEM(last, 0));
    if (s == -1 && PyErr_Occurred())
        return -1;
    if (s < 0 || s >= players) {
        PyErr_Format(PyExc_ValueError, "no seat %ld", s);
        return -1;
    }
    if (parse_play(PyTuple_GET_ITEM(last, 1), p))
        return -1;
    *has = 1;
    *seat = (int)s;
    return 0;
}

static int ready(void) {
    if (table == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "dizhu.bots._rollout.init(play_table, kinds) first");
        return -1;
    }
    if (busy) { /* only if the engine's table ran code that called back in: never in a round */
        PyErr_SetString(PyExc_RuntimeError, "dizhu.bots._rollout is not reentrant");
        return -1;
    }
    failed = 0;
    return 0;
}

/* A seat number (or the handicap) in 0..below-1, or -1 with an error set. */
static int small_int(PyObject *o, long below, const char *what) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v >= below) {
        PyErr_Format(PyExc_ValueError, "%s must be 0 to %ld, not %ld", what, below - 1, v);
        return -1;
    }
    return (int)v;
}

static PyObject *result_play(int played, const Play *p) {
    if (failed)
        return NULL;
    if (!played)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(p->key);
}

/* init(play_table, kinds): the engine's plays and Kind's members; again: a fresh start. */
static PyObject *rollout_init(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyDict_Check(args[0]) || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != KINDS) {
        PyErr_SetString(PyExc_TypeError, "init(play_table, kinds): the play table and Kind's members, in order");
        return NULL;
    }
    static const char *names[KINDS] = {"single", "pair", "trio", "trio_single", "trio_pair", "straight", "pair_chain",
                                       "plane", "plane_single", "plane_pair", "four_two_single", "four_two_pair",
                                       "bomb", "rocket"};
    for (int k = 0; k < KINDS; k++) { /* the numbers the generator uses are Kind's, in order */
        PyObject *value = PyObject_GetAttrString(PyTuple_GET_ITEM(args[1], k), "value");
        int same = value != NULL && PyUnicode_Check(value) && PyUnicode_CompareWithASCIIString(value, names[k]) == 0;
        Py_XDECREF(value);
        if (!same) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "kind %d must be %s", k, names[k]);
            return NULL;
        }
    }
    Py_XSETREF(table, Py_NewRef(args[0]));
    Py_XSETREF(kinds, Py_NewRef(args[1]));
    memset(meta_keys, 0, META_SLOTS * sizeof *meta_keys);
    PyObject *key, *combo;
    Py_ssize_t pos = 0;
    while (PyDict_Next(table, &pos, &key, &combo)) {
        uint64_t k;
        uint32_t val;
        if (combo_meta(combo, &k, &val) < 0)
            return NULL;
        meta_put(k, val);
    }
    Py_RETURN_NONE;
}

/* picks(styles, hand, seat, landlord, cards_left, last, unseen, handicap, u1, u2) -> [key or None]:
 * what each style would play at one seat's decision (u1, u2: the normal style's random draws). */
static PyObject *rollout_picks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError,
                        "picks(styles, hand, seat, landlord, cards_left, last, unseen, handicap, u1, u2)");
        return NULL;
    }
    if (ready())
        return NULL;
    Ctx x = {0};
    double u1, u2;
    if (parse_counts(args[1], x.hand) || parse_counts(args[6], x.unseen))
        return NULL;
    u1 = PyFloat_AsDouble(args[8]);
    u2 = PyFloat_AsDouble(args[9]);
    if (PyErr_Occurred())
        return NULL;
    if (!(u1 >= 0.0 && u1 < 1.0 && u2 >= 0.0 && u2 < 1.0)) {
        PyErr_SetString(PyExc_ValueError, "the draws must be in [0, 1)");
        return NULL;
    }
    if ((x.handicap = small_int(args[7], 21, "the handicap")) < 0)
        return NULL;
    Py_ssize_t players = PySequence_Length(args[4]);
    if (players < 2 || players > MAX_SEATS) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "cards_left: 2 or 3 seats");
        return NULL;
    }
    x.players = (int)players;
    if ((x.seat = small_int(args[2], players, "the seat")) < 0 ||
        (x.landlord = small_int(args[3], players, "the landlord")) < 0 ||
        parse_ints(args[4], x.left, x.players, "cards_left") ||
        parse_last(args[5], x.players, &x.has_last, &x.last_seat, &x.last))
        return NULL;
    PyObject *specs = PySequence_Fast(args[0], "styles must be a sequence of style specs");
    if (specs == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(specs);
    PyObject *out = PyList_New(n);
    busy = 1;
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        Style st;
        Draws d = {1, {u1, u2}, 0, 0};
        Play p;
        PyObject *item = NULL;
        if (parse_style(PySequence_Fast_GET_ITEM(specs, i), x.players, &st) == 0) {
            int played = decide_style(&x, &st, &d, &p);
            item = result_play(played, &p);
        }
        if (item == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, item);
    }
    busy = 0;
    Py_DECREF(specs);
    return out;
}

#define MAX_ASKED 16

/* read(styles, hands, landlord, handicap, decisions, draws) -> [[key or None of each style] at each
 * decision]: the reading's question (dizhu.bots.reading.read_world) at every decision it reads in one
 * world.  A decision is (seat, its action: unused here, the counts the seat plays from then on, the
 * cards unplayed then, every seat's cards left then, the play to beat); the seat's hand then is its
 * hand in the world plus what it plays from then on.  draws: the normal style's two at each decision. */
static PyObject *rollout_read(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "read(styles, hands, landlord, handicap, decisions, draws)");
        return NULL;
    }
    if (ready())
        return NULL;
    uint8_t hands[MAX_SEATS][NUM_RANKS];
    int n = parse_hands(args[1], hands), landlord, handicap;
    Style asked[MAX_ASKED];
    PyObject *specs = NULL, *decisions = NULL, *draws = NULL, *out = NULL, *decision = NULL;
    if (n < 0 || (landlord = small_int(args[2], n, "the landlord")) < 0 ||
        (handicap = small_int(args[3], 21, "the handicap")) < 0)
        return NULL;
    if ((specs = PySequence_Fast(args[0], "styles must be a sequence of style specs")) == NULL)
        goto fail;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(specs);
    if (k > MAX_ASKED) {
        PyErr_Format(PyExc_ValueError, "at most %d styles", MAX_ASKED);
        goto fail;
    }
    for (Py_ssize_t i = 0; i < k; i++)
        if (parse_style(PySequence_Fast_GET_ITEM(specs, i), n, &asked[i]))
            goto fail;
    if ((decisions = PySequence_Fast(args[4], "decisions")) == NULL ||
        (draws = PySequence_Fast(args[5], "draws")) == NULL)
        goto fail;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(decisions);
    if (PySequence_Fast_GET_SIZE(draws) != 2 * m) {
        PyErr_SetString(PyExc_ValueError, "draws: two for each decision");
        goto fail;
    }
    if ((out = PyList_New(m)) == NULL)
        goto fail;
    for (Py_ssize_t j = 0; j < m; j++) {
        if ((decision = PySequence_Fast(PySequence_Fast_GET_ITEM(decisions, j), "a decision")) == NULL)
            goto fail;
        if (PySequence_Fast_GET_SIZE(decision) != 6) {
            PyErr_SetString(PyExc_ValueError, "a decision: (seat, action, to come, unplayed, cards left, last)");
            goto fail;
        }
        PyObject **d = PySequence_Fast_ITEMS(decision);
        Ctx x = {0};
        uint8_t to_come[NUM_RANKS], unplayed[NUM_RANKS];
        x.players = n;
        x.landlord = landlord;
        x.handicap = handicap;
        if ((x.seat = small_int(d[0], n, "the seat")) < 0 || parse_counts(d[2], to_come) ||
            parse_counts(d[3], unplayed) || parse_ints(d[4], x.left, n, "cards_left") ||
            parse_last(d[5], n, &x.has_last, &x.last_seat, &x.last))
            goto fail;
        for (int r = 0; r < NUM_RANKS; r++) {
            int held = hands[x.seat][r] + to_come[r];
            if (held > unplayed[r]) {
                PyErr_Format(PyExc_ValueError, "rank %d: the seat held more cards than were unplayed", r);
                goto fail;
            }
            x.hand[r] = (uint8_t)held;
            x.unseen[r] = (uint8_t)(unplayed[r] - held);
        }
        double u1 = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(draws, 2 * j));
        double u2 = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(draws, 2 * j + 1));
        if (PyErr_Occurred())
            goto fail;
        if (!(u1 >= 0.0 && u1 < 1.0 && u2 >= 0.0 && u2 < 1.0)) {
            PyErr_SetString(PyExc_ValueError, "the draws must be in [0, 1)");
            goto fail;
        }
        PyObject *row = PyList_New(k);
        if (row == NULL)
            goto fail;
        PyList_SET_ITEM(out, j, row);
        busy = 1;
        for (Py_ssize_t i = 0; i < k; i++) {
            Draws dr = {1, {u1, u2}, 0, 0};
            Play p;
            int played = decide_style(&x, &asked[i], &dr, &p);
            PyObject *item = result_play(played, &p);
            if (item == NULL) {
                busy = 0;
                goto fail;
            }
            PyList_SET_ITEM(row, i, item);
        }
        busy = 0;
        Py_CLEAR(decision);
    }
    Py_DECREF(specs);
    Py_DECREF(decisions);
    Py_DECREF(draws);
    return out;
fail:
    Py_XDECREF(specs);
    Py_XDECREF(decisions);
    Py_XDECREF(draws);
    Py_XDECREF(out);
    Py_XDECREF(decision);
    return NULL;
}

/* ---- a round in play (search.Sim) */

typedef struct {
    int n, landlord, handicap, to_act, passes, doublings, has_last, last_seat;
    uint8_t hands[MAX_SEATS][NUM_RANKS], played[NUM_RANKS], deck[NUM_RANKS];
    int plays_made[MAX_SEATS], left[MAX_SEATS];
    Play last;
} World;

/* What the seat to act knows (Sim.ctx). */
static void ctx_of(const World *w, Ctx *x) {
    int seat = w->to_act;
    x->players = w->n;
    x->landlord = w->landlord;
    x->handicap = w->handicap;
    x->seat = seat;
    memcpy(x->hand, w->hands[seat], NUM_RANKS);
    for (int r = 0; r < NUM_RANKS; r++)
        x->unseen[r] = w->deck[r] - w->played[r] - w->hands[seat][r];
    memcpy(x->left, w->left, sizeof w->left);
    x->has_last = w->has_last;
    x->last_seat = w->last_seat;
    x->last = w->last;
}

/* Sim.apply of a play (played 0: a pass) by the seat to act; 1 if that seat has won (rules.has_won),
 * and then it is still the seat to act. */
static int world_apply(World *w, int played, const Play *p) {
    int seat = w->to_act;
    if (!played) {
        w->passes++;
        if (w->passes == w->n - 1) { /* rules.trick_over */
            w->to_act = w->last_seat;
            w->has_last = 0;
            w->passes = 0;
        } else
            w->to_act = next_seat(seat, w->n);
        return 0;
    }
    for (int r = 0; r < NUM_RANKS; r++) {
        int k = COUNT(p->key, r);
        w->hands[seat][r] -= k;
        w->played[r] += k;
    }
    w->left[seat] -= p->size;
    w->plays_made[seat]++;
    if (IS_BOMB(p))
        w->doublings++;
    w->has_last = 1;
    w->last_seat = seat;
    w->last = *p;
    w->passes = 0;
    if (w->left[seat] <= (seat == w->landlord ? 0 : w->handicap))
        return 1;
    w->to_act = next_seat(seat, w->n);
    return 0;
}

/* Sim.value: the points for me's side when `winner` has just gone out (rules.spring counted). */
static double world_value(const World *w, int winner, int me) {
    int spring;
    if (winner == w->landlord) {
        spring = 1;
        for (int s = 0; s < w->n; s++)
            if (s != w->landlord && w->plays_made[s])
                spring = 0;
    } else
        spring = w->plays_made[w->landlord] == 1;
    double score = (double)(1ull << (w->doublings + spring));
    return (me == w->landlord) == (winner == w->landlord) ? score : -score;
}

/* search._rollout: w played to its end (at most limit decisions), each seat by its style; the value
 * for me's side in *value and the decisions made in *steps (0.0 and limit if it never ends); each
 * move's key (None: a pass) appended to `moves` unless it is NULL.  0, or -1 with an error set. */
static int play_to_end(World *w, const Style *styles, int me, uint64_t luck, long limit, double *value,
                       long *steps, PyObject *moves) {
    Draws d = {0, {0, 0}, 0, luck};
    Ctx x = {0};
    for (long step = 1; step <= limit; step++) {
        ctx_of(w, &x);
        Play p;
        busy = 1;
        int played = decide_style(&x, &styles[w->to_act], &d, &p);
        busy = 0;
        if (failed)
            return -1;
        if (!played && !w->has_last) {
            no_play(); /* a lead is never passed */
            return -1;
        }
        if (moves != NULL) {
            PyObject *key = result_play(played, &p);
            if (key == NULL || PyList_Append(moves, key)) {
                Py_XDECREF(key);
                return -1;
            }
            Py_DECREF(key);
        }
        if (world_apply(w, played, &p)) {
            *value = world_value(w, w->to_act, me);
            *steps = step;
            return 0;
        }
    }
    *value = 0.0;
    *steps = limit;
    return 0;
}

/* The round of args[0..10] (hands, landlord, handicap, to_act, last, passes, played, deck, plays_made,
 * doublings, styles: a Sim's fields and a style spec for each seat) into w and styles; 0, or -1 with
 * an error set. */
static int parse_world(PyObject *const *args, World *w, Style *styles) {
    int n = w->n = parse_hands(args[0], w->hands);
    if (n < 0)
        return -1;
    PyObject *ss = PySequence_Fast(args[10], "styles");
    if (ss == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(ss) != n) {
        Py_DECREF(ss);
        PyErr_SetString(PyExc_ValueError, "a style for each seat");
        return -1;
    }
    for (int s = 0; s < n; s++)
        if (parse_style(PySequence_Fast_GET_ITEM(ss, s), n, &styles[s])) {
            Py_DECREF(ss);
            return -1;
        }
    Py_DECREF(ss);
    w->has_last = 0;
    w->last_seat = -1;
    w->last = (Play){0};
    if ((w->landlord = small_int(args[1], n, "the landlord")) < 0 ||
        (w->handicap = small_int(args[2], 21, "the handicap")) < 0 ||
        (w->to_act = small_int(args[3], n, "the seat to act")) < 0 ||
        (w->passes = small_int(args[5], n, "the passes")) < 0 ||
        (w->doublings = small_int(args[9], 41, "the doublings")) < 0 ||
        parse_last(args[4], n, &w->has_last, &w->last_seat, &w->last) ||
        parse_counts(args[6], w->played) || parse_counts(args[7], w->deck) ||
        parse_ints(args[8], w->plays_made, n, "plays_made"))
        return -1;
    for (int r = 0; r < NUM_RANKS; r++) {
        int held = w->played[r];
        for (int s = 0; s < n; s++)
            held += w->hands[s][r];
        if (held > w->deck[r]) {
            PyErr_Format(PyExc_ValueError, "rank %d: more cards in the hands and played than in the deck", r);
            return -1;
        }
    }
    for (int s = 0; s < n; s++) {
        w->left[s] = 0;
        for (int r = 0; r < NUM_RANKS; r++)
            w->left[s] += w->hands[s][r];
        if (w->left[s] <= (s == w->landlord ? 0 : w->handicap)) {
            PyErr_Format(PyExc_ValueError, "seat %d has already won: no round to play out", s);
            return -1;
        }
    }
    if (!w->has_last && w->passes) {
        PyErr_SetString(PyExc_ValueError, "passes with no play to beat");
        return -1;
    }
    return 0;
}

/* args[11..13] (me, luck, limit); 0, or -1 with an error set. */
static int parse_run(PyObject *const *args, int players, int *me, uint64_t *luck, long *limit) {
    if ((*me = small_int(args[11], players, "me")) < 0)
        return -1;
    *luck = PyLong_AsUnsignedLongLongMask(args[12]);
    *limit = PyLong_AsLong(args[13]);
    return PyErr_Occurred() ? -1 : 0;
}

/* rollout(hands, landlord, handicap, to_act, last, passes, played, deck, plays_made, doublings,
 *         styles, me, luck, limit) -> (value for me's side, decisions made): search._rollout. */
/* The world and run of rollout's and trace's arguments, played to its end: 0, or -1 with an error set
 * (`name`: the function, for its usage message; `moves`: as play_to_end's). */
static int run_to_end(PyObject *const *args, Py_ssize_t nargs, const char *name, PyObject *moves, double *value,
                      long *steps) {
    if (nargs != 14) {
        PyErr_Format(PyExc_TypeError, "%s(hands, landlord, handicap, to_act, last, passes, played, deck, "
                                      "plays_made, doublings, styles, me, luck, limit)", name);
        return -1;
    }
    if (ready())
        return -1;
    World w;
    Style styles[MAX_SEATS];
    int me;
    uint64_t luck;
    long limit;
    if (parse_world(args, &w, styles) || parse_run(args, w.n, &me, &luck, &limit))
        return -1;
    return play_to_end(&w, styles, me, luck, limit, value, steps, moves);
}

static PyObject *rollout_rollout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    double value;
    long steps;
    if (run_to_end(args, nargs, "rollout", NULL, &value, &steps))
        return NULL;
    return Py_BuildValue("(dl)", value, steps);
}

/* trace(hands, ..., styles, me, luck, limit) -> (moves, value, decisions): rollout's game with every
 * move's key (None: a pass), so the compiled play state can be checked against dizhu.Round move by
 * move (tests/test_play_state.py). */
static PyObject *rollout_trace(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    double value;
    long steps;
    PyObject *moves = PyList_New(0);
    if (moves == NULL)
        return NULL;
    if (run_to_end(args, nargs, "trace", moves, &value, &steps)) {
        Py_DECREF(moves);
        return NULL;
    }
    return Py_BuildValue("(Ndl)", moves, value, steps);
}

/* lookahead(hands, ..., styles, me, luck, limit, options, rule[, move]) -> (seen, winner, [value of each
 * option], decisions made): search.to_next_decision.  With `move` (a Combo, or None: a pass), me plays it
 * first and the other seats reply by their styles (none of which may throw dice: such a reply is played
 * in Python) up to me's next decision: seen is their replies' keys (None: a pass), and if the round ends
 * on the way, winner is its winner and the one value the end's.  Then (winner -1), at me's decision, the
 * play of the rule policy (rule: its spec) first, then the shortlist's other moves (candidates),
 * `options` in all at most, each played out from the same luck. */
static PyObject *rollout_lookahead(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 16 && nargs != 17) {
        PyErr_SetString(PyExc_TypeError, "lookahead(hands, landlord, handicap, to_act, last, passes, played, "
                                         "deck, plays_made, doublings, styles, me, luck, limit, options, rule[, move])");
        return NULL;
    }
    if (ready())
        return NULL;
    World w;
    Style styles[MAX_SEATS], rule;
    int me;
    uint64_t luck;
    long limit;
    if (parse_world(args, &w, styles) || parse_run(args, w.n, &me, &luck, &limit))
        return NULL;
    long options = PyLong_AsLong(args[14]);
    if (options == -1 && PyErr_Occurred())
        return NULL;
    if (options < 1) {
        PyErr_Format(PyExc_ValueError, "options must be at least 1, not %ld", options);
        return NULL;
    }
    if (parse_style(args[15], w.n, &rule))
        return NULL;
    if (w.to_act != me) {
        PyErr_SetString(PyExc_ValueError, "the look-ahead starts at me's own decision");
        return NULL;
    }
    PyObject *seen = PyList_New(0), *values = NULL;
    if (seen == NULL)
        return NULL;
    long steps = 0;
    int winner = -1;
    Draws none = {1, {0.0, 0.0}, 0, 0};
    if (nargs == 17) {
        Play move = {0};
        int moved = args[16] != Py_None;
        if (moved && parse_play(args[16], &move))
            goto fail;
        if (moved)
            for (int r = 0; r < NUM_RANKS; r++)
                if (COUNT(move.key, r) > w.hands[me][r]) {
                    PyErr_SetString(PyExc_ValueError, "the move is not in me's hand");
                    goto fail;
                }
        if (!moved && !w.has_last) {
            PyErr_SetString(PyExc_ValueError, "a lead is never passed");
            goto fail;
        }
        int won = world_apply(&w, moved, &move);
        steps = 1;
        while (!won && w.to_act != me) {
            const Style *st = &styles[w.to_act];
            if (st->policy == P_NORMAL) {
                PyErr_SetString(PyExc_ValueError, "a style that throws dice replies in Python");
                goto fail;
            }
            Ctx x = {0};
            ctx_of(&w, &x);
            Play p;
            busy = 1;
            int played = decide_style(&x, st, &none, &p);
            busy = 0;
            PyObject *key = result_play(played, &p);
            if (key == NULL)
                goto fail;
            int appended = PyList_Append(seen, key);
            Py_DECREF(key);
            if (appended)
                goto fail;
            if (!played && !w.has_last) {
                no_play();
                goto fail;
            }
            won = world_apply(&w, played, &p);
            steps++;
        }
        if (won) {
            winner = w.to_act;
            if ((values = Py_BuildValue("[d]", world_value(&w, winner, me))) == NULL)
                goto fail;
            return Py_BuildValue("(NiNl)", seen, winner, values, steps);
        }
    }
    Ctx x = {0};
    ctx_of(&w, &x);
    Play choice;
    Cand c[MAX_CANDS + 2], opts[MAX_CANDS + 2];
    busy = 1;
    int chose = decide_style(&x, &rule, &none, &choice);
    int nc = failed ? 0 : candidates(&x, chose, &choice, c), k = 1;
    busy = 0;
    if (failed)
        goto fail;
    opts[0].pass = !chose;
    opts[0].p = choice;
    for (int i = 0; i < nc && k < options; i++)
        if (c[i].pass != !chose || (chose && c[i].p.key != choice.key))
            opts[k++] = c[i];
    if ((values = PyList_New(k)) == NULL)
        goto fail;
    for (int i = 0; i < k; i++) {
        World t = w;
        double value;
        long used = 1;
        if (world_apply(&t, !opts[i].pass, &opts[i].p))
            value = world_value(&t, t.to_act, me);
        else if (play_to_end(&t, styles, me, luck, limit, &value, &used, NULL))
            goto fail;
        PyObject *v = PyFloat_FromDouble(value);
        if (v == NULL)
            goto fail;
        PyList_SET_ITEM(values, i, v);
        steps += used;
    }
    return Py_BuildValue("(NiNl)", seen, winner, values, steps);
fail:
    Py_DECREF(seen);
    Py_XDECREF(values);
    return NULL;
}


/* doubles of a sequence of exactly n numbers into out; -1 with an error set */
static int parse_doubles(PyObject *seq, double *out, Py_ssize_t n, const char *what) {
    PyObject *items = PySequence_Fast(seq, what);
    if (items == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(items) != n) {
        Py_DECREF(items);
        PyErr_Format(PyExc_ValueError, "%s: %zd numbers expected", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(items, i));
        if (PyErr_Occurred()) {
            Py_DECREF(items);
            return -1;
        }
    }
    Py_DECREF(items);
    return 0;
}

/* set_net(players, mean, scale, w1 (flat, feature-major), b1, w2, margin): the distilled policy's
 * network for a table of `players`; it reads as many of the features, in order, as `mean` has */
static PyObject *rollout_set_net(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "set_net(players, mean, scale, w1, b1, w2, margin)");
        return NULL;
    }
    long players = PyLong_AsLong(args[0]);
    if (players < 2 || players > MAX_SEATS) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "players: 2 or 3");
        return NULL;
    }
    Py_ssize_t hidden = PySequence_Length(args[4]);
    if (hidden < 1 || hidden > MAX_HIDDEN) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "b1: 1 to 64 hidden units");
        return NULL;
    }
    Py_ssize_t inputs = PySequence_Length(args[1]);
    if (inputs < 1 || inputs > N_FEATURES) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "mean: 1 to %d features", N_FEATURES);
        return NULL;
    }
    /* parsed aside, then kept whole: a refused call leaves the network it had */
    static Net net;
    static double mean[N_FEATURES], scale[N_FEATURES];
    memset(&net, 0, sizeof net);
    net.margin = PyFloat_AsDouble(args[6]);
    if (PyErr_Occurred() || parse_doubles(args[1], mean, inputs, "mean") ||
        parse_doubles(args[2], scale, inputs, "scale") ||
        parse_doubles(args[3], net.rows, inputs * hidden, "w1") || parse_doubles(args[4], net.bias, hidden, "b1") ||
        parse_doubles(args[5], net.w2, hidden, "w2"))
        return NULL;
    for (int i = 0; i < inputs; i++)
        if (!(scale[i] > 0.0)) {
            PyErr_SetString(PyExc_ValueError, "scale: every feature's scale must be above 0");
            return NULL;
        }
    /* the standardisation folded in, as distilled.Net.rows and .bias fold it */
    for (int i = 0; i < inputs; i++)
        for (int h = 0; h < hidden; h++) {
            net.rows[i * hidden + h] /= scale[i];
            net.bias[h] -= mean[i] * net.rows[i * hidden + h];
        }
    net.hidden = (int)hidden;
    net.inputs = (int)inputs;
    nets[players - 2] = net;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", (PyCFunction)(void (*)(void))rollout_init, METH_FASTCALL,
     "init(play_table, kinds): the engine's play table and dizhu.combos.Kind's members, in order."},
    {"picks", (PyCFunction)(void (*)(void))rollout_picks, METH_FASTCALL,
     "picks(styles, hand, seat, landlord, cards_left, last, unseen, handicap, u1, u2) -> [key or None]: "
     "what each style would play at one decision (u1, u2: the normal style's random draws)."},
    {"rollout", (PyCFunction)(void (*)(void))rollout_rollout, METH_FASTCALL,
     "rollout(hands, landlord, handicap, to_act, last, passes, played, deck, plays_made, doublings, styles, "
     "me, luck, limit) -> (value, decisions): search._rollout, compiled."},
    {"trace", (PyCFunction)(void (*)(void))rollout_trace, METH_FASTCALL,
     "trace(hands, landlord, handicap, to_act, last, passes, played, deck, plays_made, doublings, styles, "
     "me, luck, limit) -> (moves, value, decisions): rollout's game, with each move's key (None: a pass)."},
    {"lookahead", (PyCFunction)(void (*)(void))rollout_lookahead, METH_FASTCALL,
     "lookahead(hands, landlord, handicap, to_act, last, passes, played, deck, plays_made, doublings, styles, "
     "me, luck, limit, options, rule[, move]) -> (seen, winner, [value of each option], decisions): "
     "search.to_next_decision, compiled."},
    {"read", (PyCFunction)(void (*)(void))rollout_read, METH_FASTCALL,
     "read(styles, hands, landlord, handicap, decisions, draws) -> [[key or None] at each decision]: the "
     "reading's question at every decision it reads in one world (dizhu.bots.reading)."},
    {"set_net", (PyCFunction)(void (*)(void))rollout_set_net, METH_FASTCALL,
     "set_net(players, mean, scale, w1, b1, w2, margin): the distilled policy's network for a table of "
     "players (dizhu.bots.distilled)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "dizhu.bots._rollout",
                                    "The super-hard bot's rollouts, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__rollout(void) {
    if (alloc_memo())
        return PyErr_NoMemory();
    if (meta_keys == NULL)
        meta_keys = PyMem_RawCalloc(META_SLOTS, sizeof *meta_keys);
    if (meta_vals == NULL)
        meta_vals = PyMem_RawCalloc(META_SLOTS, sizeof *meta_vals);
    if (meta_keys == NULL || meta_vals == NULL)
        return PyErr_NoMemory();
    return PyModule_Create(&module);
}
