// Why a selection cannot be played, worked out in the page: the same reading
// of cards as the engine (src/dizhu/combos.py, RULES.md §2-3), so that an
// expected refusal is explained at once without asking the server (which
// would answer it with an error status). The server still checks every play;
// this only decides whether asking is worth it.

import { rankOf, NOTATION } from './cards.js';

const RANKS = 15;
const CHAIN_TOP = 11; // the ace: no chain goes past it
const BLACK = 13; // small joker
const RED = 14; // big joker

/** Rank counts (index 0 = 3 … 14 = big joker) of card ids. */
export function countsOf(ids) {
  const counts = Array(RANKS).fill(0);
  for (const id of ids) counts[rankOf(id)] += 1;
  return counts;
}

/** The engine's notation of a count vector: ranks ascending ("3KKK"). */
export function countsText(counts) {
  return counts.map((n, rank) => NOTATION[rank].repeat(n)).join('');
}

const consecutive = (ranks) => ranks[ranks.length - 1] - ranks[0] === ranks.length - 1;

function groups(c) {
  const by = [[], [], [], [], []];
  for (let rank = 0; rank < RANKS; rank += 1) by[c[rank]].push(rank);
  return { ones: by[1], twos: by[2], threes: by[3], fours: by[4] };
}

/** The one reading of a count vector: {kind, main, size}, or null when it is no play. */
export function readCounts(c) {
  const n = c.reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  const play = (kind, main) => ({ kind, main, size: n });
  if (c[BLACK] && c[RED]) return n === 2 ? play('rocket', RED) : null;
  const { ones, twos, threes, fours } = groups(c);
  const distinct = ones.length + twos.length + threes.length + fours.length;
  if (distinct === 1) {
    const rank = (ones[0] ?? twos[0] ?? threes[0] ?? fours[0]);
    return play(['single', 'pair', 'trio', 'bomb'][n - 1], rank);
  }
  if (fours.length) {
    if (fours.length > 1 || threes.length) return null;
    if (n === 6) return play('four_two_single', fours[0]);
    if (n === 8 && twos.length === 2) return play('four_two_pair', fours[0]);
    return null;
  }
  if (threes.length) {
    const trios = threes.length;
    if (trios === 1) {
      if (n === 4) return play('trio_single', threes[0]);
      if (n === 5 && twos.length === 1) return play('trio_pair', threes[0]);
      return null;
    }
    const top = threes[trios - 1];
    if (top > CHAIN_TOP || !consecutive(threes)) return null;
    if (n === 3 * trios) return play('plane', top);
    if (n === 4 * trios) return play('plane_single', top);
    if (n === 5 * trios && twos.length === trios && !ones.length) return play('plane_pair', top);
    return null;
  }
  if (twos.length && !ones.length) {
    const top = twos[twos.length - 1];
    return twos.length >= 3 && top <= CHAIN_TOP && consecutive(twos) ? play('pair_chain', top) : null;
  }
  if (ones.length && !twos.length) {
    const top = ones[ones.length - 1];
    if (ones.length >= 5 && top <= CHAIN_TOP && consecutive(ones)) return play('straight', top);
  }
  return null;
}

function longestRun(ranks) {
  let best = [];
  let run = [];
  for (const rank of ranks) {
    run = run.length && rank === run[run.length - 1] + 1 ? [...run, rank] : [rank];
    if (run.length > best.length) best = run;
  }
  return best;
}

function planeReason(n, threes) {
  const chainable = threes.filter((r) => r <= CHAIN_TOP);
  if (chainable.length < threes.length && consecutive(threes)) return { code: 'chain_two_or_joker' };
  if (!consecutive(threes)) {
    const run = longestRun(chainable);
    if (run.length >= 2 && n === 4 * run.length) return { code: 'kicker_rank_limit' };
    if (run.length >= 2 && n === 5 * run.length) return { code: 'plane_pair_kickers' };
    if (chainable.length < threes.length && run.length === chainable.length) return { code: 'chain_two_or_joker' };
    return { code: 'chain_gap' };
  }
  const trios = threes.length;
  const kickers = n - 3 * trios;
  if (kickers < trios) return { code: 'plane_kickers_short', params: { trios, kickers } };
  if (kickers === 2 * trios) return { code: 'plane_pair_kickers' };
  return { code: 'plane_kickers_excess', params: { trios, kickers } };
}

/** Why a count vector is no play (the engine's most specific reason). */
export function whyNoPlay(c) {
  const n = c.reduce((a, b) => a + b, 0);
  if (n === 0) return { code: 'empty' };
  if (c[BLACK] && c[RED]) {
    return { code: c.slice(0, BLACK).some((k) => k >= 3) ? 'both_jokers_as_kickers' : 'rocket_not_alone' };
  }
  const ranks = c.map((k, r) => (k ? r : -1)).filter((r) => r >= 0);
  const { ones, twos, threes, fours } = groups(c);
  if (fours.length) {
    if (fours.length === 1 && !threes.length) return { code: 'four_two_kickers' };
    const body = [...fours, ...threes].sort((a, b) => a - b);
    if (threes.length && body[body.length - 1] <= CHAIN_TOP && consecutive(body) && n === 4 * body.length) {
      return { code: 'kicker_same_rank' };
    }
    return { code: 'four_split' };
  }
  if (threes.length) return threes.length === 1 ? { code: 'trio_kicker' } : planeReason(n, threes);
  if (ranks.length === 2 && n === 2) return { code: 'not_a_pair' };
  const chain = (run) => ({ code: run[run.length - 1] > CHAIN_TOP ? 'chain_two_or_joker' : 'chain_gap' });
  if (twos.length && !ones.length) return twos.length === 2 ? { code: 'pair_chain_too_short' } : chain(twos);
  if (ones.length && !twos.length) {
    if (ones.length < 5) {
      const top = ones[ones.length - 1];
      if (top <= CHAIN_TOP && consecutive(ones) && ones.length >= 3) return { code: 'straight_too_short' };
      return { code: 'unrelated_cards' };
    }
    return chain(ones);
  }
  return { code: 'unrelated_cards' };
}

const isBomb = (p) => p.kind === 'bomb' || p.kind === 'rocket';

/** Does play `mine` beat `previous` (both from readCounts)? Kickers never count. */
export function beats(mine, previous) {
  if (previous.kind === 'rocket') return false;
  if (mine.kind === 'rocket') return true;
  if (mine.kind === 'bomb') return previous.kind !== 'bomb' || mine.main > previous.main;
  return mine.kind === previous.kind && mine.size === previous.size && mine.main > previous.main;
}

/**
 * Why the cards `ids` cannot be played on `previous` (notation of the play to
 * beat, or null when leading): {code, params} as the server would say it, or
 * null when this page sees nothing wrong (then the server decides).
 */
export function refusal(ids, previous) {
  const counts = countsOf(ids);
  const mine = readCounts(counts);
  if (!mine) return whyNoPlay(counts);
  if (!previous) return null;
  const before = Array(RANKS).fill(0);
  for (const ch of previous) before[NOTATION.indexOf(ch)] += 1;
  const theirs = readCounts(before);
  if (!theirs || beats(mine, theirs)) return null;
  const play = countsText(counts);
  if (isBomb(mine) || (mine.kind === theirs.kind && mine.size === theirs.size)) {
    return { code: 'too_weak', params: { play, previous } };
  }
  return { code: 'wrong_kind', params: { play, previous, kind: theirs.kind, size: theirs.size } };
}
