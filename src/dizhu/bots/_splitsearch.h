/* The bots' hand split in C (hands._best_python and hands._to_shed_python), shared by
 * dizhu.bots._split and dizhu.bots._rollout; each module keeps a memo of its own, allocated by
 * its init with alloc_memo().  Include it after <Python.h>.
 */
#ifndef DIZHU_SPLITSEARCH_H
#define DIZHU_SPLITSEARCH_H
#include <stdint.h>
#include <string.h>

#define NUM_RANKS 15
#define CHAIN_TOP 11 /* the ace: no chain reaches the 2 or the jokers */
#define QUEEN 9      /* singles and pairs below a queen are awkward */
#define BLACK 13
#define RED 14
#define MAX_COUNT 4
#define MAX_CAPACITY 15

/* The memo: open addressing, linear probing; emptied when three quarters full (cheaper than
 * tracking use, as dizhu.bots.memo does).  2^20 slots of 16 bytes: 16 MiB. */
#define SLOTS_BITS 20
#define SLOTS (1u << SLOTS_BITS)
#define FULL (SLOTS / 4 * 3)
#define USED (1ull << 63)

typedef struct {
    uint64_t key; /* USED | capacity << 45 | counts, 3 bits a rank; 0: empty */
    uint32_t value;
} Slot;

static Slot *memo = NULL;
static uint32_t entries = 0;

/* A result: plays (6 bits), weak (6 bits), then the chain: width (2 bits; 0 none), low, high. */
#define PACK(plays, weak, width, low, high) \
    ((uint32_t)(plays) | (uint32_t)(weak) << 6 | (uint32_t)(width) << 12 | (uint32_t)(low) << 14 | (uint32_t)(high) << 18)
#define PLAYS(v) ((int)((v) & 63))
#define WEAK(v) ((int)((v) >> 6 & 63))
#define WIDTH(v) ((int)((v) >> 12 & 3))
#define LOW(v) ((int)((v) >> 14 & 15))
#define HIGH(v) ((int)((v) >> 18 & 15))

static inline uint64_t key_of(const uint8_t *c, int capacity) {
    uint64_t key = 0;
    for (int r = 0; r < NUM_RANKS; r++)
        key |= (uint64_t)c[r] << (3 * r);
    return USED | (uint64_t)capacity << 45 | key;
}

static inline uint32_t slot_of(uint64_t key) {
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - SLOTS_BITS));
}

static uint32_t best(uint8_t *c, int capacity);

/* One chain taken out: is the rest's split better than the best so far? */
static inline void try_chain(uint8_t *c, int capacity, int width, int low, int high, uint32_t *found) {
    for (int r = low; r <= high; r++)
        c[r] -= width;
    uint32_t rest = best(c, capacity + (width == 3 ? high - low + 1 : 0));
    for (int r = low; r <= high; r++)
        c[r] += width;
    int plays = PLAYS(rest) + 1, weak = WEAK(rest);
    if (plays < PLAYS(*found) || (plays == PLAYS(*found) && weak < WEAK(*found)))
        *found = PACK(plays, weak, width, low, high);
}

static uint32_t best(uint8_t *c, int capacity) {
    uint64_t key = key_of(c, capacity);
    uint32_t i = slot_of(key);
    while (memo[i].key) {
        if (memo[i].key == key)
            return memo[i].value;
        i = (i + 1) & (SLOTS - 1);
    }
    int rocket = c[BLACK] && c[RED];
    int groups = -rocket, kickers = -2 * rocket, trios = capacity, weak = 0;
    for (int r = 0; r < NUM_RANKS; r++) {
        int n = c[r];
        groups += n != 0;
        trios += n == 3;
        if (n == 1 || n == 2) {
            kickers++;
            weak += r < QUEEN;
        }
    }
    int carried = kickers < trios ? kickers : trios;
    uint32_t found = PACK(groups - carried, weak > trios ? weak - trios : 0, 0, 0, 0);
    /* every chain, in hands._chains' order: planes, pair chains, straights; by run, start, end */
    static const int widths[3] = {3, 2, 1}, shortest[3] = {2, 3, 5};
    for (int k = 0; k < 3; k++) {
        int width = widths[k];
        int low = 0;
        while (low <= CHAIN_TOP) {
            if (c[low] < width) {
                low++;
                continue;
            }
            int high = low;
            while (high < CHAIN_TOP && c[high + 1] >= width)
                high++;
            for (int start = low; start <= high - shortest[k] + 1; start++)
                for (int end = start + shortest[k] - 1; end <= high; end++)
                    try_chain(c, capacity, width, start, end, &found);
            low = high + 1;
        }
    }
    if (entries >= FULL) {
        memset(memo, 0, sizeof(Slot) * SLOTS);
        entries = 0;
    }
    /* probe again: the recursion may have filled (or emptied) slots since the probe above */
    i = slot_of(key);
    while (memo[i].key)
        i = (i + 1) & (SLOTS - 1);
    memo[i].key = key;
    memo[i].value = found;
    entries++;
    return found;
}

/* hands._to_shed_python on c in place: set aside ``keep`` cards, one at a time, each the card
 * whose absence leaves the best split (fewest plays, then fewest awkward cards), the lowest rank
 * among equals. */
static void shed(uint8_t *c, long keep) {
    int total = 0;
    for (int r = 0; r < NUM_RANKS; r++)
        total += c[r];
    if (total <= keep)
        memset(c, 0, NUM_RANKS);
    else
        for (; keep > 0; keep--) {
            int chosen = -1;
            uint32_t top = 0;
            for (int r = 0; r < NUM_RANKS; r++) {
                if (!c[r])
                    continue;
                c[r]--;
                uint32_t v = best(c, 0);
                c[r]++;
                if (chosen < 0 || PLAYS(v) < PLAYS(top) || (PLAYS(v) == PLAYS(top) && WEAK(v) < WEAK(top))) {
                    chosen = r;
                    top = v;
                }
            }
            c[chosen]--;
        }
}

static int alloc_memo(void) {
    if (memo == NULL)
        memo = PyMem_RawCalloc(SLOTS, sizeof(Slot));
    return memo == NULL ? -1 : 0;
}

#endif
