// Turning game data into words and chips in the current language: card and
// seat names, actions, kinds of play, the engine's reason codes and the hint's
// reason keys (their {play}/{card} parameters become little card chips).

import { h } from './dom.js';
import { language, t, tParts } from './i18n.js';
import { NOTATION, RANK_LABELS, ranksOfNotation, rankOf, suitOf, bodyFirst, SMALL_JOKER, BIG_JOKER } from './cards.js';

// Functions that name seats or bids take `table`: the display state of
// tablestate.js, or anything with its `players`, `me` (the human's seat) and
// `rules` (the view's variant descriptor). Without one, a three-seat table
// with the human at seat 0.
const PLAIN_TABLE = { players: 3, me: 0, rules: { bidding: 'points', players: 3 } };

/** A seat counted from the human's: 0 the human, 1 the next to play, 2 the one after. */
export function relativeSeat(seat, table = PLAIN_TABLE) {
  return (seat - table.me + table.players) % table.players;
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

/**
 * Card notation ("TTJJ", "BR") as inline chips: 10 10 J J. Screen readers get
 * the same words as hidden text inside the sentence (an aria-label on a span
 * is not read), the chips themselves are hidden from them.
 */
export function notationChips(text) {
  const ranks = ranksOfNotation(text);
  const wrap = h('span', { class: 'chips' }, h('span', { class: 'sr-only', text: ` ${ranks.map(rankLabel).join(' ')} ` }));
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

/** A seat's name: "You" for the human, the one opponent's name at a two-seat table. */
export function seatName(seat, table = PLAIN_TABLE) {
  return t(seatKey(seat, table));
}

/** The letter on a computer's avatar (the others' seats only: the player has none): its own
 * word, since a name's first character may be a familiar prefix that every name shares (小美, 阿俊). */
export function seatInitial(seat, table = PLAIN_TABLE) {
  return t(`${seatKey(seat, table)}.initial`);
}

/** The dictionary key of a seat's name: the player's, the duel opponent's, or a classic seat's. */
function seatKey(seat, table) {
  const rel = relativeSeat(seat, table);
  if (rel === 0) return 'seat.you';
  return table.players === 2 ? 'seat.duel' : `seat.${rel}`;
}

/**
 * `key` with the seat `name`d in it, or its `key_you` form when that seat is
 * the player's (the verb agrees: "You lead", not "You leads").
 */
export function seatSentence(key, seat, table, params = {}) {
  const own = `${key}_you`;
  if (relativeSeat(seat, table) === 0 && t(own) !== own) return t(own, params);
  return t(key, { ...params, name: seatName(seat, table) });
}

export function kindName(kind) {
  return t(`kind.${kind}`);
}

/** A play named with its kind when known ("Single 3"), as the log, the table and the review write it. */
export function playLabel(play, kind) {
  return kind ? `${kindName(kind)} ${playText(play)}` : playText(play);
}

export function levelName(level) {
  return t(`level.${level}`);
}

/**
 * Label of an action text. In duel bidding "pass" means "no call" before
 * anyone has called and "no rob" after, so the caller says which (`called`);
 * a play's `kind`, when given, is named before it.
 */
export function actionLabel(action, { phase = 'playing', called = false, table = PLAIN_TABLE, kind = null } = {}) {
  const text = String(action);
  if (text.startsWith('bid ')) return t('act.bid', { n: text.slice(4) });
  if (text === 'call') return t('act.call');
  if (text === 'rob') return t('act.rob');
  if (text === 'pass') {
    if (phase !== 'bidding') return t('act.pass');
    if (table.rules.bidding === 'rob') return called ? t('act.no_rob') : t('act.no_call');
    return t('act.no_bid');
  }
  if (text.startsWith('play ')) return playLabel(text.slice(5), kind);
  return text;
}

// How each message parameter is shown, by its name (the engine and the bots
// use these names consistently: see dizhu.REASONS and HINT_REASONS).
function renderParam(name, value, table) {
  switch (name) {
    case 'play':
    case 'previous':
      return playChips(value);
    case 'cards':
    case 'card':
      return notationChips(value);
    case 'kind':  // inside a sentence, as the language writes it there (English: in lower case)
      return t('kind.in_sentence') === 'lower' ? kindName(value).toLocaleLowerCase(language()) : kindName(value);
    case 'variant':
      return t(`variant.${value}`);
    case 'seat':
    case 'to_act':
      return Number.isInteger(value) ? seatName(value, table) : String(value);
    case 'rank':
      return notationChips(value === '10' ? 'T' : value);
    case 'action':
      return actionLabel(value, { phase: 'bidding', table });
    // Counts that carry their noun, so that each language can make it agree
    // with the number (plural rules): "1 high card", "3 plays".
    case 'plays':
      return t('count.plays', { n: value });
    case 'controls':
      return t('count.high_cards', { n: value });
    case 'handicap':
    case 'size':
      return t('count.cards', { n: value });
    default:
      return String(value);
  }
}

/** An engine refusal (code + params) as a sentence in the player's language. */
export function reasonParts(code, params = {}, table = PLAIN_TABLE) {
  const key = `reason.${code}`;
  const known = t(key) !== key;
  if (!known) return [t(`error.${code}`) !== `error.${code}` ? t(`error.${code}`) : t('error.generic')];
  return tParts(key, params, (name, value) => renderParam(name, value, table));
}

/** A figure as the player reads it: a true minus sign (U+2212), not a hyphen; with ``sign``, its
 * plus too (+3, −6, 0); ``digits`` after the point, or up to ``upTo`` when they are not zeros. */
export function figure(x, { digits = 0, upTo = digits, sign = false } = {}) {
  return new Intl.NumberFormat(language(), {
    signDisplay: sign ? 'exceptZero' : 'auto', minimumFractionDigits: digits, maximumFractionDigits: Math.max(digits, upTo),
  }).format(x).replace('-', '\u2212');
}

/** A figure with its sign: +3, −6, 0. */
export const signed = (x, digits = 0) => figure(x, { digits, sign: true });

/** A label and the space after it: none after full-width punctuation ("原因：", "最佳："), where a
 * space reads as a gap. */
export function labelled(text) {
  return [text, /[：、。，）]$/.test(text) ? '' : ' '];
}

/** A text after another on the same line, with the space between them: none before full-width
 * punctuation ("緩手（平均で…）"), which brings its own gap. */
export function spacedAfter(text) {
  return /^[（「『【〔]/.test(text) ? text : ` ${text}`;
}

/** A hint's reason (key + params) in the player's language. */
export function hintParts(key, params = {}, table = PLAIN_TABLE) {
  return tParts(`hint.${key}`, params, (name, value) => renderParam(name, value, table));
}

/**
 * Who won the round, in a sentence, from its result (a settle event): the duel has one farmer, the
 * classic game two.
 */
export function winnerSentence(result, table = PLAIN_TABLE) {
  if (result.winner === 'landlord') return t('settle.landlord_wins');
  if (table.players !== 2) return t('settle.farmers_win');
  // the duel farmer who won with cards in hand reached the handicap line: say so, or it reads as a
  // win by someone who never went out
  const left = ((result.hand_ids || [])[1 - result.landlord] || []).length;
  return left ? t('settle.farmer_wins_line', { n: left }) : t('settle.farmer_wins');
}

/** A seat's name before what it did ("Mei: ", "美：", each language its own colon). */
export function saidBy(seat, table = PLAIN_TABLE) {
  return t('said.who', { name: seatName(seat, table) });
}

/**
 * One sentence for a round event (replay captions, screen-reader news).
 * `called` tells whether a duel "pass" declined a call or a rob.
 */
export function describeEvent(ev, { called = false, table = PLAIN_TABLE } = {}) {
  switch (ev.type) {
    case 'deal': return seatSentence('replay.deal', ev.first, table);
    case 'bid': return `${saidBy(ev.seat, table)}${actionLabel(ev.action, { phase: 'bidding', called, table })}`;
    case 'redeal': return t('status.redeal');
    case 'landlord': return seatSentence('replay.landlord', ev.seat, table, { cards: notationText(ev.bottom) });
    case 'play': return `${saidBy(ev.seat, table)}${playLabel(ev.play, ev.kind)}`;
    case 'pass': return `${saidBy(ev.seat, table)}${t('act.pass')}`;
    case 'trick': return seatSentence('replay.trick', ev.leader, table);
    case 'settle': return winnerSentence(ev, table);
    default: return '';
  }
}
