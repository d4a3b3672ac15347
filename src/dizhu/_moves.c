/* Legal-move generation of dizhu.moves, compiled: the same plays, in the same order.
 *
 * lead(table, counts) is dizhu.moves._lead_keys and reply(table, counts, kind, main, chain) is
 * _reply_keys, each followed by the table's lookup of every key (the Combo objects stay the
 * Python engine's own).  The Python functions stay the reference: tests/test_moves_native.py and
 * tools/native_parity.py compare the two on seeded positions, and the perft fixtures run on
 * whichever is active.  A key holds 3 bits of count per rank; see dizhu/moves.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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

/* The 15 rank counts (a tuple or a list) into c, each 0 to 4 and a joker 0 or 1 as in every
 * deck; their sum, or -1 with an exception set. */
static int parse_counts(PyObject *counts, uint8_t *c) {
    PyObject *items = PySequence_Fast(counts, "counts must be a sequence of 15 rank counts");
    if (items == NULL)
        return -1;
    int total = 0;
    if (PySequence_Fast_GET_SIZE(items) != NUM_RANKS) {
        PyErr_SetString(PyExc_ValueError, "counts must be a sequence of 15 rank counts");
        total = -1;
    }
    for (int r = 0; total >= 0 && r < NUM_RANKS; r++) {
        long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(items, r));
        if (k == -1 && PyErr_Occurred()) {
            total = -1;
        } else if (k < 0 || k > (r >= BLACK ? 1 : 4)) {
            PyErr_Format(PyExc_ValueError, "rank %d: a count must be 0 to %d, not %ld", r, r >= BLACK ? 1 : 4, k);
            total = -1;
        } else {
            c[r] = (uint8_t)k;
            total += (int)k;
        }
    }
    Py_DECREF(items);
    return total;
}

/* The table's Combo for every key (a missing key goes through the table's __missing__). */
static PyObject *combos_of(PyObject *table, Keys *keys) {
    PyObject *out = PyList_New((Py_ssize_t)keys->n);
    for (size_t i = 0; out != NULL && i < keys->n; i++) {
        PyObject *key = PyLong_FromUnsignedLongLong(keys->v[i]);
        if (key == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyObject *combo = PyDict_GetItemWithError(table, key); /* borrowed */
        if (combo != NULL)
            Py_INCREF(combo);
        else if (!PyErr_Occurred())
            combo = PyObject_GetItem(table, key);
        Py_DECREF(key);
        if (combo == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, combo);
    }
    PyMem_Free(keys->v);
    return out;
}

static PyObject *moves_lead(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t c[NUM_RANKS];
    if (nargs != 2 || !PyDict_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "lead(table, counts): the play table and a counts tuple");
        return NULL;
    }
    int total = parse_counts(args[1], c);
    if (total < 0)
        return NULL;
    Keys keys = {0};
    if (lead_keys(c, total, &keys)) {
        PyMem_Free(keys.v);
        return PyErr_NoMemory();
    }
    return combos_of(args[0], &keys);
}

static PyObject *moves_reply(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t c[NUM_RANKS];
    if (nargs != 5 || !PyDict_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "reply(table, counts, kind, main, chain): five arguments");
        return NULL;
    }
    if (parse_counts(args[1], c) < 0)
        return NULL;
    long kind = PyLong_AsLong(args[2]);
    if (kind == -1 && PyErr_Occurred())
        return NULL;
    long main_rank = PyLong_AsLong(args[3]);
    if (main_rank == -1 && PyErr_Occurred())
        return NULL;
    long chain = PyLong_AsLong(args[4]);
    if (chain == -1 && PyErr_Occurred())
        return NULL;
    if (kind < 0 || kind >= KINDS || main_rank < 0 || main_rank >= NUM_RANKS) {
        PyErr_Format(PyExc_ValueError, "no play of kind %ld with main rank %ld", kind, main_rank);
        return NULL;
    }
    Keys keys = {0};
    if (reply_keys(c, (int)kind, (int)main_rank, (int)chain, &keys)) {
        PyMem_Free(keys.v);
        return PyErr_NoMemory();
    }
    return combos_of(args[0], &keys);
}

static PyMethodDef methods[] = {
    {"lead", (PyCFunction)(void (*)(void))moves_lead, METH_FASTCALL,
     "lead(table, counts) -> [Combo]: every play the counts can lead (dizhu.moves._lead_keys, compiled)."},
    {"reply", (PyCFunction)(void (*)(void))moves_reply, METH_FASTCALL,
     "reply(table, counts, kind, main, chain) -> [Combo]: every play that beats the one described "
     "(dizhu.moves._reply_keys, compiled; kind is the index of dizhu.combos.Kind)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "dizhu._moves",
                                    "Legal-move generation of dizhu.moves, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__moves(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    /* the kinds by the index reply() takes: dizhu.moves checks they are dizhu.combos.Kind's */
    PyObject *kinds = Py_BuildValue("(ssssssssssssss)", "single", "pair", "trio", "trio_single", "trio_pair",
                                    "straight", "pair_chain", "plane", "plane_single", "plane_pair",
                                    "four_two_single", "four_two_pair", "bomb", "rocket");
    if (kinds == NULL || PyModule_AddObject(m, "KINDS", kinds) < 0) {
        Py_XDECREF(kinds);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
