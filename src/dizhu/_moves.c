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

#include "_movegen.h"

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
