// The card model, mirroring the engine (docs/API.md): ids 0-51 are rank-major
// (id >> 2 = rank index 0..12 for 3..2, id & 3 = suit ♠♥♣♦), 52 = small joker,
// 53 = big joker. Notation is one character per card: 3-9 T J Q K A 2 B R.

export const NOTATION = '3456789TJQKA2BR';
/** What a rank looks like on a card face (T shows as 10). */
export const RANK_LABELS = ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', '2', 'B', 'R'];
export const SMALL_JOKER = 13;
export const BIG_JOKER = 14;

export function rankOf(id) {
  return id < 52 ? id >> 2 : 13 + (id - 52);
}

/** Suit index 0..3 (♠♥♣♦), or null for a joker. */
export function suitOf(id) {
  return id < 52 ? id & 3 : null;
}

export function isRed(id) {
  const suit = suitOf(id);
  return suit === null ? id === 53 : suit === 1 || suit === 3;
}

/** Rank indexes of a notation string ("33344455" -> [0,0,0,1,1,1,2,2]). */
export function ranksOfNotation(text) {
  const out = [];
  for (const ch of String(text).toUpperCase()) {
    const rank = NOTATION.indexOf(ch);
    if (rank >= 0) out.push(rank);
  }
  return out;
}

/** Notation of a set of card ids, ascending as the engine writes it. */
export function notationOf(ids) {
  return ids.map(rankOf).sort((a, b) => a - b).map((r) => NOTATION[r]).join('');
}

/**
 * A play as players read it: the body before the kickers (JJJ 3, not 3 JJJ;
 * 333444 5 8; 6666 3 9). Larger groups come first, then ranks go up, which is
 * the body first for every kind with kickers and plain ascending order for
 * the others (chains, bombs, the rocket).
 */
export function bodyFirst(items, rank = (x) => x) {
  const counts = new Map();
  for (const item of items) counts.set(rank(item), (counts.get(rank(item)) || 0) + 1);
  return [...items].sort((a, b) => (counts.get(rank(b)) - counts.get(rank(a))) || (rank(a) - rank(b)));
}

/** Card ids of a play in reading order (suits break ties, so the order is stable). */
export function playOrder(ids) {
  return bodyFirst([...ids].sort((a, b) => a - b), rankOf);
}

/**
 * [{rank, count}] for every rank the variant's deck holds, from the view's
 * rules descriptor (its deck_counts, indexed by rank: duel has no 3s or 4s).
 */
export function deckOf(rules) {
  return rules.deck_counts.map((count, rank) => ({ rank, count })).filter(({ count }) => count > 0);
}

/**
 * Order card ids for display.
 *  - 'asc': weakest on the left (reads like the notation);
 *  - 'desc': strongest on the left (as many Chinese card apps do);
 *  - 'group': biggest groups first (bombs, trios, pairs), then by rank, which
 *    makes combinations easy to spot.
 * Ties break on suit so the order is stable between renders.
 */
export function sortCards(ids, mode = 'asc') {
  const counts = new Map();
  for (const id of ids) counts.set(rankOf(id), (counts.get(rankOf(id)) || 0) + 1);
  const key = (id) => rankOf(id) * 4 + (suitOf(id) ?? 0);
  const sorted = [...ids];
  if (mode === 'desc') sorted.sort((a, b) => key(b) - key(a));
  else if (mode === 'group') {
    sorted.sort((a, b) => (counts.get(rankOf(b)) - counts.get(rankOf(a))) || (key(b) - key(a)));
  } else sorted.sort((a, b) => key(a) - key(b));
  return sorted;
}

export const SORT_MODES = ['asc', 'desc', 'group'];

/**
 * Fake card ids for a notation string, used to draw plays whose exact suits we
 * do not know (e.g. a hint's text): suits are assigned in order per rank.
 */
export function idsForNotation(text) {
  const used = new Map();
  return ranksOfNotation(text).map((rank) => {
    if (rank >= SMALL_JOKER) return 52 + (rank - SMALL_JOKER);
    const n = used.get(rank) || 0;
    used.set(rank, n + 1);
    return rank * 4 + (n % 4);
  });
}
