// Draws cards with HTML + inline SVG (no image files): a corner index with the
// rank and suit, a big centre pip, and two visibly different jokers (a hollow
// black star for the small one, a solid red-and-gold star for the big one). Sizes come from
// the CSS variable --cw on an ancestor, so a card is sharp at any size.

import { h, svgUse } from './dom.js';
import { RANK_LABELS, rankOf, suitOf, isRed, BIG_JOKER } from './cards.js';
import { cardName } from './format.js';

/** The joker's star: hollow for the small one, solid for the big one (shape, not only colour). */
export function jokerStar(rank) {
  return rank === BIG_JOKER ? 'joker-star' : 'joker-hollow';
}

/** A face-up card element for card id `id`. `extra` adds classes. */
export function cardFace(id, extra = '') {
  const rank = rankOf(id);
  const suit = suitOf(id);
  const classes = ['card', isRed(id) ? 'red' : 'black', extra];
  let index;
  let centre;
  if (suit === null) {
    classes.push('joker', rank === BIG_JOKER ? 'big-joker' : 'small-joker');
    // "JOKER" written downwards in the corner, the star in the middle.
    const star = jokerStar(rank);
    index = h('span', { class: 'idx', 'aria-hidden': 'true' },
      h('span', { class: 'jk-text', text: 'JOKER' }),
      svgUse(star, 'pip-s'));
    centre = svgUse(star, 'pip-c');
  } else {
    index = h('span', { class: 'idx', 'aria-hidden': 'true' },
      h('span', { class: RANK_LABELS[rank].length > 1 ? 'rk two' : 'rk', text: RANK_LABELS[rank] }),
      svgUse(`suit-${suit}`, 'pip-s'));
    centre = svgUse(`suit-${suit}`, 'pip-c');
  }
  return h('div', { class: classes.join(' ').trim(), dataset: { id: String(id) }, role: 'img', aria: { label: cardName(id) } },
    index, centre);
}

/** A face-down card (opponents' hands, the unrevealed bottom). */
export function cardBack(extra = '') {
  return h('div', { class: `card back ${extra}`.trim(), 'aria-hidden': 'true' });
}

/**
 * A compact row of face-up cards that squeezes to fit its box: each card sits
 * in a slot that may shrink (flex), the card itself keeps its width and
 * overlaps the next one, so any number of cards fits without wrapping.
 */
export function cardRow(ids, className = 'mini-row') {
  const row = h('div', { class: `card-row ${className}` });
  for (const id of ids) row.append(h('div', { class: 'slot' }, cardFace(id)));
  return row;
}
