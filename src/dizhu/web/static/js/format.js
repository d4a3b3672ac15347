// Turning game data into words and chips in the current language: card and
// seat names, actions, kinds of play, the engine's reason codes and the hint's
// reason keys (their {play}/{card} parameters become little card chips).

import { h } from './dom.js';
import { t, tParts } from './i18n.js';
import { NOTATION, RANK_LABELS, ranksOfNotation, rankOf, suitOf, bodyFirst, SMALL_JOKER, BIG_JOKER } from './cards.js';

// The table's variant decides seat names (duel has one opponent).
let variant = 'classic';
export function setVariant(v) {
  variant = v;
}

/** Spoken name of a card for screen readers: "Queen of hearts", "Big joker". */
export function cardName(id) {
  const rank = rankOf(id);
  if (rank === SMALL_JOKER) return t('card.small_joker');
  if (rank === BIG_JOKER) return t('card.big_joker');
  return t('card.name', { rank: t(`rank.${NOTATION[rank]}`), suit: t(`suit.${suitOf(id)}`) });
}

/** Short visible label of a rank (10 for T, the joker words for B and R). */
export function rankLabel(rank) {
  if (rank === SMALL_JOKER) return t('chip.B');
  if (rank === BIG_JOKER) return t('chip.R');
  return RANK_LABELS[rank];
}

/** Card notation ("TTJJ", "BR") as inline chips: 10 10 J J. */
export function notationChips(text) {
  const ranks = ranksOfNotation(text);
  const label = ranks.map(rankLabel).join(' ');
  const wrap = h('span', { class: 'chips', role: 'text', aria: { label } });
  for (const rank of ranks) {
    const joker = rank === SMALL_JOKER ? ' chip-small' : rank === BIG_JOKER ? ' chip-big' : '';
    wrap.append(h('span', { class: `chip${joker}`, 'aria-hidden': 'true', text: rankLabel(rank) }));
  }
  return wrap;
}

/** Plain-text version of notation, for places that cannot hold elements. */
export function notationText(text) {
  return ranksOfNotation(text).map(rankLabel).join(' ');
}

/** A play's notation reordered as players read it (body before kickers). */
function playNotation(text) {
  return bodyFirst(ranksOfNotation(text)).map((rank) => NOTATION[rank]).join('');
}

/** A play as chips, body first: J J J 3. */
export function playChips(text) {
  return notationChips(playNotation(text));
}

/** A play as plain text, body first. */
export function playText(text) {
  return notationText(playNotation(text));
}

export function seatName(seat) {
  if (seat === 0) return t('seat.you');
  return variant === 'duel' ? t('seat.duel') : t(`seat.${seat}`);
}

export function kindName(kind) {
  return t(`kind.${kind}`);
}

export function levelName(level) {
  return t(`level.${level}`);
}

/**
 * Label of an action text. In duel bidding "pass" means "no call" before
 * anyone has called and "no rob" after, so the caller says which (`called`).
 */
export function actionLabel(action, { phase = 'playing', called = false } = {}) {
  const text = String(action);
  if (text.startsWith('bid ')) return t('act.bid', { n: text.slice(4) });
  if (text === 'call') return t('act.call');
  if (text === 'rob') return t('act.rob');
  if (text === 'pass') {
    if (phase !== 'bidding') return t('act.pass');
    if (variant === 'duel') return called ? t('act.no_rob') : t('act.no_call');
    return t('act.no_bid');
  }
  if (text.startsWith('play ')) return playText(text.slice(5));
  return text;
}

// How each message parameter is shown, by its name (the engine and the bots
// use these names consistently: see dizhu.REASONS and HINT_REASONS).
function renderParam(name, value) {
  switch (name) {
    case 'play':
    case 'previous':
      return playChips(value);
    case 'cards':
    case 'card':
      return notationChips(value);
    case 'kind':
      return kindName(value);
    case 'variant':
      return t(`variant.${value}`);
    case 'seat':
    case 'to_act':
      return Number.isInteger(value) ? seatName(value) : String(value);
    case 'rank':
      return notationChips(value === '10' ? 'T' : value);
    case 'action':
      return actionLabel(value, { phase: 'bidding' });
    // Counts that carry their noun, so that each language can make it agree
    // with the number (plural rules): "1 high card", "3 plays".
    case 'plays':
      return t('count.plays', { n: value });
    case 'controls':
      return t('count.high_cards', { n: value });
    case 'handicap':
      return t('count.cards', { n: value });
    default:
      return String(value);
  }
}

/** An engine refusal (code + params) as a sentence in the player's language. */
export function reasonParts(code, params = {}) {
  const key = `reason.${code}`;
  const known = t(key) !== key;
  if (!known) return [t(`error.${code}`) !== `error.${code}` ? t(`error.${code}`) : t('error.generic')];
  return tParts(key, params, renderParam);
}

/** A hint's reason (key + params) in the player's language. */
export function hintParts(key, params = {}) {
  return tParts(`hint.${key}`, params, renderParam);
}

/**
 * One sentence for a round event (replay captions, screen-reader news).
 * `called` tells whether a duel "pass" declined a call or a rob.
 */
export function describeEvent(ev, { called = false } = {}) {
  switch (ev.type) {
    case 'deal': return t('replay.deal', { name: seatName(ev.first) });
    case 'bid': return `${seatName(ev.seat)}: ${actionLabel(ev.action, { phase: 'bidding', called })}`;
    case 'redeal': return t('status.redeal');
    case 'landlord': return t('replay.landlord', { name: seatName(ev.seat), cards: notationText(ev.bottom) });
    case 'play': return `${seatName(ev.seat)}: ${kindName(ev.kind)} ${playText(ev.play)}`;
    case 'pass': return `${seatName(ev.seat)}: ${t('act.pass')}`;
    case 'trick': return t('replay.trick', { name: seatName(ev.leader) });
    case 'settle': return ev.winner === 'landlord' ? t('settle.landlord_wins') : t('settle.farmers_win');
    default: return '';
  }
}
