/* The hand split of dizhu.bots.hands, compiled: the same search, the same answers.
 *
 * best(counts, capacity) is hands._best_python: the fewest plays a hand of rank counts needs,
 * its awkward cards, and the first chain to take out.  The simulations ask it hundreds of
 * thousands of times a decision, so it is here in C with a memo of its own; the Python
 * function stays the reference (tests/test_split_native.py compares the two on seeded
 * hands, tools/native_parity.py on millions).  Only the bots' heuristic lives here, no rule
 * of the game: which plays are legal is dizhu.moves' answer (and its compiled twin's, dizhu._moves).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_splitsearch.h"

/* The arguments (counts, n): the counts into c, n checked to be 0 to most.  0 on success. */
static int parse(PyObject *const *args, Py_ssize_t nargs, const char *name, long most, uint8_t *c, long *n) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s takes two arguments", name);
        return -1;
    }
    PyObject *counts = args[0];
    if (!PyTuple_Check(counts) || PyTuple_GET_SIZE(counts) != NUM_RANKS) {
        PyErr_SetString(PyExc_ValueError, "counts must be a tuple of 15 rank counts");
        return -1;
    }
    for (int r = 0; r < NUM_RANKS; r++) {
        long k = PyLong_AsLong(PyTuple_GET_ITEM(counts, r));
        if (k == -1 && PyErr_Occurred())
            return -1;
        if (k < 0 || k > MAX_COUNT) {
            PyErr_Format(PyExc_ValueError, "a rank count must be 0 to %d, not %ld", MAX_COUNT, k);
            return -1;
        }
        c[r] = (uint8_t)k;
    }
    *n = PyLong_AsLong(args[1]);
    if (*n == -1 && PyErr_Occurred())
        return -1;
    if (*n < 0 || *n > most) {
        PyErr_Format(PyExc_ValueError, "%s: the second argument must be 0 to %ld, not %ld", name, most, *n);
        return -1;
    }
    return 0;
}

static PyObject *split_best(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t c[NUM_RANKS];
    long capacity;
    if (parse(args, nargs, "best(counts, capacity)", MAX_CAPACITY, c, &capacity))
        return NULL;
    uint32_t v = best(c, (int)capacity);
    if (!WIDTH(v))
        return Py_BuildValue("(iiO)", PLAYS(v), WEAK(v), Py_None);
    return Py_BuildValue("(ii(iii))", PLAYS(v), WEAK(v), WIDTH(v), LOW(v), HIGH(v));
}

/* hands._to_shed_python (shed() on a copy of the counts). */
static PyObject *split_to_shed(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t c[NUM_RANKS];
    long keep;
    if (parse(args, nargs, "to_shed(counts, keep)", 20, c, &keep))
        return NULL;
    if (keep == 0)
        return Py_NewRef(args[0]);
    shed(c, keep);
    PyObject *out = PyTuple_New(NUM_RANKS);
    if (out == NULL)
        return NULL;
    for (int r = 0; r < NUM_RANKS; r++) {
        PyObject *n = PyLong_FromLong(c[r]); /* 0 to 4: a cached small int, but checked all the same */
        if (n == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, r, n);
    }
    return out;
}

static PyObject *split_clear(PyObject *self, PyObject *unused) {
    memset(memo, 0, sizeof(Slot) * SLOTS);
    entries = 0;
    Py_RETURN_NONE;
}

static PyObject *split_entries(PyObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLong(entries);
}

static PyMethodDef methods[] = {
    {"best", (PyCFunction)(void (*)(void))split_best, METH_FASTCALL,
     "best(counts, capacity) -> (plays, weak, chain or None): hands._best_python, compiled."},
    {"to_shed", (PyCFunction)(void (*)(void))split_to_shed, METH_FASTCALL,
     "to_shed(counts, keep) -> counts: hands._to_shed_python, compiled."},
    {"clear", split_clear, METH_NOARGS, "Empty the memo, as in a process that has just started."},
    {"entries", split_entries, METH_NOARGS, "How many splits the memo holds."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "dizhu.bots._split",
                                    "The hand split of dizhu.bots.hands, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__split(void) {
    if (alloc_memo())
        return PyErr_NoMemory();
    return PyModule_Create(&module);
}
