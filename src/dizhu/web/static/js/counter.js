// The card counter: for each rank, how many cards are still out (the deck, minus
// the player's own hand, minus every card played). The bottom cards count while the
// landlord holds them, though a farmer has seen them; where some cards are dealt to
// nobody (duel), it includes them: it is not the others' hands.

import { h, replace, svgUse } from './dom.js';
import { deckOf, rankOf } from './cards.js';
import { rankLabel } from './format.js';
import { jokerStar } from './cardview.js';
import { t } from './i18n.js';

/** [{rank, left}] for every rank of the variant's deck (`rules`: the view's descriptor). */
export function outCounts(rules, handIds, playedIds) {
  const seen = new Map();
  for (const id of [...handIds, ...playedIds]) seen.set(rankOf(id), (seen.get(rankOf(id)) || 0) + 1);
  return deckOf(rules).map(({ rank, count }) => ({ rank, left: count - (seen.get(rank) || 0) }));
}

/**
 * With cards dealt to nobody, counting by memory cannot tell what the others
 * hold: the variant shows the counter all the time (RULES.md, duel).
 */
export function counterAlwaysShown(rules) {
  return rules.undealt > 0;
}

export function renderCounter(el, rules, handIds, playedIds) {
  const counts = outCounts(rules, handIds, playedIds);
  const cells = counts.map(({ rank, left }) => h('li', {
    class: `cell${left === 0 ? ' none' : ''}${rank >= 13 ? ' joker' : ''}${rank === 14 ? ' big' : ''}`,
    dataset: { rank: String(rank) },
    aria: { label: t('counter.cell', { rank: rankLabel(rank), n: left }) },
  }, h('span', { class: 'rank', 'aria-hidden': 'true' }, rank >= 13 ? svgUse(jokerStar(rank), 'star') : rankLabel(rank)),
  h('span', { class: 'left', 'aria-hidden': 'true', text: String(left) })));
  const undealt = rules.undealt > 0;
  const note = undealt ? t('counter.duel_note', { n: rules.undealt }) : t('counter.classic_note');
  replace(el,
    h('div', { class: 'counter-head' }, h('b', { text: t('counter.title') }), h('small', { class: undealt ? 'undealt' : 'plain', text: note })),
    h('ul', { class: 'counter-cells', aria: { label: t('counter.title') } }, cells));
}
