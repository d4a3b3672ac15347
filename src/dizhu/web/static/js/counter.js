// The card counter: for each rank, how many cards the player has not seen yet
// (the deck, minus the player's own hand, minus every card played). In duel
// that includes the 9 cards nobody is dealt, so it is not the opponent's hand.

import { h, replace, svgUse } from './dom.js';
import { deckRanks, deckCount, rankOf } from './cards.js';
import { rankLabel } from './format.js';
import { jokerStar } from './cardview.js';
import { t } from './i18n.js';

/** [{rank, left}] for every rank of the variant's deck. */
export function unseenCounts(variant, handIds, playedIds) {
  const seen = new Map();
  for (const id of [...handIds, ...playedIds]) seen.set(rankOf(id), (seen.get(rankOf(id)) || 0) + 1);
  return deckRanks(variant).map((rank) => ({ rank, left: deckCount(rank) - (seen.get(rank) || 0) }));
}

export function renderCounter(el, variant, handIds, playedIds) {
  const counts = unseenCounts(variant, handIds, playedIds);
  const cells = counts.map(({ rank, left }) => h('li', {
    class: `cell${left === 0 ? ' none' : ''}${rank >= 13 ? ' joker' : ''}${rank === 14 ? ' big' : ''}`,
    dataset: { rank: String(rank) },
    aria: { label: t('counter.cell', { rank: rankLabel(rank), n: left }) },
  }, h('span', { class: 'rank', 'aria-hidden': 'true' }, rank >= 13 ? svgUse(jokerStar(rank), 'star') : rankLabel(rank)),
  h('span', { class: 'left', 'aria-hidden': 'true', text: String(left) })));
  const note = variant === 'duel' ? t('counter.duel_note') : t('counter.classic_note');
  replace(el,
    h('div', { class: 'counter-head' }, h('b', { text: t('counter.title') }), h('small', { text: note })),
    h('ul', { class: 'counter-cells', aria: { label: t('counter.title') } }, cells));
}
