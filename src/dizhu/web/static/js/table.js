// Renders the table around the hand: the opponents' seats (name, level, role,
// cards left, score, "wins at N" in duel, thinking), each seat's latest action,
// the bottom cards, the info bar (round, bid or robs, multiplier and what made
// it) and the player's own bar. Input is a display state from tablestate.js.

import { $, h, replace } from './dom.js';
import { cardFace, cardBack, cardRow } from './cardview.js';
import { currentMultiplier } from './tablestate.js';
import { notationOf, playOrder } from './cards.js';
import { actionLabel, kindName, levelName, playLabel, saidBy, seatInitial, seatName, notationText, relativeSeat, signed } from './format.js';
import { t, language } from './i18n.js';

function roleBadge(ds, seat) {
  if (ds.landlord === null) return null;
  const landlord = ds.landlord === seat;
  return h('span', { class: `role ${landlord ? 'landlord' : 'farmer'}`, text: t(landlord ? 'role.landlord' : 'role.farmer') });
}

/** With a handicap (duel), the farmer wins on getting down to it (0: must play out). */
function winsAt(ds, seat) {
  // with no rob the farmer plays out, like the landlord: no line to show
  if (!ds.rules.handicap || !ds.robs || ds.landlord === null || ds.landlord === seat) return null;
  return h('span', { class: 'wins-at', text: t('table.wins_at', { n: ds.robs }) });
}

function scoreText(view, seat) {
  const total = view.totals ? view.totals[seat] : 0;
  return t('table.points', { n: signed(total) });
}

/**
 * Redraw `el` only when `key` (what it shows) changed: the table renders at
 * every event and keystroke, and rebuilding unchanged parts churns the
 * accessibility tree and restarts animations.
 */
function changed(el, ...key) {
  const text = JSON.stringify([...key, language()]);
  if (el.dataset.key === text) return false;
  el.dataset.key = text;
  return true;
}

/** Down to one or two cards: the seat calls it out (报单 / 报双). */
function alarm(left, phase) {
  return phase === 'playing' && (left === 1 || left === 2) ? left : 0;
}

function seatPanel(ds, view, seat, thinking) {
  const level = view.seats && view.seats[seat] ? view.seats[seat].level : view.level;
  const active = ds.toAct === seat && ds.phase !== 'over';
  const rel = relativeSeat(seat, ds);
  const panel = $(`seat-${rel}`);
  const left = ds.cardsLeft[seat];
  const warn = alarm(left, ds.phase);
  panel.className = `seat-panel seat-pos-${seatPosition(ds, seat)}${active ? ' active' : ''}${thinking === seat ? ' thinking' : ''}${ds.landlord === seat ? ' is-landlord' : ''}${warn ? ` alarm alarm-${warn}` : ''}`;
  panel.hidden = false;
  const score = scoreText(view, seat);
  if (!changed(panel, seat, level, ds.landlord, ds.rules.handicap ? ds.robs : 0, left, score, warn)) return;
  const name = seatName(seat, ds);
  replace(panel,
    h('div', { class: 'avatar', 'aria-hidden': 'true', text: seatInitial(seat, ds) }),
    h('div', { class: 'who' },
      h('b', { class: 'name', text: name }),
      h('span', { class: 'level', text: levelName(level) })),
    h('div', { class: 'tags' }, roleBadge(ds, seat), winsAt(ds, seat)),
    h('div', { class: 'count' },
      cardBack('mini'), h('span', { class: 'n', 'aria-hidden': 'true', text: String(left) }),
      h('span', { class: 'sr-only', text: t('table.cards_left', { n: left }) })),
    h('div', { class: 'score', text: score }),
    // Its own line across the panel: beside the card count it would not fit a narrow panel (the
    // duel's one-line panel on a short phone puts it under the role instead, table.css).
    warn ? h('span', { class: 'alarm-tag', text: t(warn === 1 ? 'table.last_card' : 'table.last_two') }) : null,
    h('div', { class: 'thinking-dots', 'aria-hidden': 'true' }, h('i'), h('i'), h('i')),
  );
  panel.setAttribute('aria-label', [name, levelName(level), t('table.cards_left', { n: left }),
    ds.landlord === seat ? t('role.landlord') : ''].filter(Boolean).join(', '));
}

/** A seat's bid or pass as a bubble (the table's and the replay's): gold for a bid or a call,
 * orange with a ring for a rob, which doubles the stakes (and moves the duel's handicap line)
 * and must not pass for a call; plain for a pass. */
export function actBubble(act, ds) {
  const text = act.type === 'pass' ? t('act.pass') : actionLabel(act.action, { phase: 'bidding', called: act.called, table: ds });
  const kind = act.type === 'pass' || act.action === 'pass' ? 'pass' : act.action === 'rob' ? 'bid rob' : 'bid';
  return h('span', { class: `bubble ${kind}${act.again ? ' again' : ''}`, text });
}

/** Where a seat sits: classic 1 = right, 2 = left (counter-clockwise); duel's opponent on top. */
export function seatPosition(ds, seat) {
  const rel = relativeSeat(seat, ds);
  if (rel === 0) return 'me';
  if (ds.players === 2) return 'top';
  return rel === 1 ? 'right' : 'left';
}

function zone(ds, seat) {
  const el = $(`zone-${relativeSeat(seat, ds)}`);
  el.className = `zone zone-${seatPosition(ds, seat)}${ds.trickOver ? ' stale' : ''}`;
  el.hidden = false;
  const act = ds.seatAct[seat];
  // Redraw only when the content changes, so a new play animates once.
  if (!changed(el, seat, act, ds.phase)) return;
  // Once the round is over, every hand is shown face up beside its seat.
  const left = ds.phase === 'over' && seat !== ds.me && ds.result && ds.result.hand_ids ? ds.result.hand_ids[seat] : null;
  const reveal = left && left.length
    ? h('div', { class: 'reveal', role: 'group', aria: { label: `${saidBy(seat, ds)}${notationText(notationOf(left))}` } },
      cardRow([...left].sort((a, b) => a - b), 'reveal-row'))
    : null;
  // A group only while it holds something: an empty, unnamed group is noise to a screen reader.
  if (!act) {
    replace(el, reveal);
    el.removeAttribute('aria-label');
    el.removeAttribute('role');
    return;
  }
  el.setAttribute('role', 'group');
  if (act.type === 'play') {
    const label = `${saidBy(seat, ds)}${playLabel(act.play, act.kind)}`;
    replace(el, cardRow(playOrder(act.cards), 'play-row'), h('span', { class: 'kind', text: kindName(act.kind) }), reveal);
    el.setAttribute('aria-label', label);
  } else {
    const bubble = actBubble(act, ds);
    replace(el, bubble, reveal);
    el.setAttribute('aria-label', `${saidBy(seat, ds)}${bubble.textContent}`);
  }
}

/** The words for what makes up the multiplier so far. */
export function multiplierParts(ds) {
  const parts = [];
  if (ds.rules.bidding === 'rob') {
    if (ds.robs > 0) parts.push(t('mult.robs_now', { n: ds.robs, factor: 2 ** ds.robs }));
  } else if (ds.highest > 0) parts.push(t('mult.bid_now', { n: ds.highest }));
  const bombs = ds.doublings.filter((d) => d.source === 'bomb').length;
  const rockets = ds.doublings.length - bombs;
  if (bombs) parts.push(t('mult.bombs_now', { n: bombs, factor: 2 ** bombs }));
  if (rockets) parts.push(t('mult.rocket_now'));
  // Once the round is over, the spring the result counted too.
  if (ds.result && ds.result.spring) parts.push(t('mult.spring_now'));
  if (ds.result && ds.result.anti_spring) parts.push(t('mult.anti_spring_now'));
  return parts;
}

function info(ds, view) {
  // The result's stake once the round is over (the spring is known only then).
  const mult = ds.result ? ds.result.multiplier : currentMultiplier(ds);
  const round = view.match_round ?? view.round_number;
  const parts = multiplierParts(ds);
  const why = parts.join(' · ');
  const el = $('info');
  if (!changed(el, round, ds.rules.handicap ? ds.robs : null, mult, why)) return;
  // The round of this match (round_number keeps counting across matches and
  // abandoned deals: it names a round, it does not count them for the player).
  const items = [h('span', { class: 'round', text: t('table.round', { n: round }) })];
  if (ds.rules.handicap) items.push(h('span', { class: 'handicap', text: t('table.handicap', { n: ds.robs }) }));
  replace(el,
    h('div', { class: 'info-line' }, items),
    h('div', { class: 'mult-line' },
      h('span', { class: 'sr-only', text: `${t('table.multiplier')} ` }),
      h('b', { class: 'mult', text: `×${mult}` }),
      // each part whole ("rocket (×2)", never "rocket (" and "×2)"); a narrow phone gives each
      // its own line (table.css)
      h('span', { class: 'mult-why' }, ...parts.flatMap((part, i) => [
        ...(i ? [h('span', { class: 'why-sep', text: ' · ' })] : []), h('span', { class: 'why-part', text: part })]))));
}

function bottomCards(ds) {
  const el = $('bottom-cards');
  if (!changed(el, ds.bottomIds)) return;
  const cards = ds.bottomIds ? ds.bottomIds.map((id) => cardFace(id, 'mini')) : [0, 1, 2].map(() => cardBack('mini'));
  replace(el, cards);
  el.setAttribute('aria-label', ds.bottomIds
    ? t('table.bottom_shown', { cards: notationText(notationOf(ds.bottomIds)) })
    : t('table.bottom_hidden'));
  el.setAttribute('role', 'img');
}

function meBar(ds, view, handCount) {
  const active = ds.toAct === ds.me && ds.phase !== 'over';
  const el = $('me-info');
  el.classList.toggle('active', active);
  el.parentElement.classList.toggle('active', active);
  const score = scoreText(view, ds.me);
  if (!changed(el, ds.me, ds.landlord, ds.rules.handicap ? ds.robs : 0, handCount, score, active)) return;
  replace(el,
    h('b', { class: 'name', text: seatName(ds.me, ds) }),
    roleBadge(ds, ds.me),
    winsAt(ds, ds.me),
    h('span', { class: 'count', text: t('table.cards_left', { n: handCount }) }),
    h('span', { class: 'score', text: score }),
    active ? h('span', { class: 'turn', text: t('table.your_turn') }) : null);
}

/**
 * The bidding's outcome in the middle of the table, from the landlord's
 * decision until their first play: the winning bid, who is landlord and the
 * bottom cards face up (the last bids stay beside their seats).
 */
function news(ds) {
  const el = $('news');
  const n = ds.news;
  el.hidden = !n;
  document.body.toggleAttribute('data-news', !!n);
  if (!n) {
    delete el.dataset.key;
    replace(el); // (hidden, but its words would stay in the language they were drawn in)
    return;
  }
  if (!changed(el, n)) return;
  const d = n.winning;
  const decided = d ? `${saidBy(d.seat, ds)}${actionLabel(d.action, { phase: 'bidding', called: d.called, table: ds })}` : null;
  replace(el,
    decided ? h('p', { class: 'news-bid', text: decided }) : null,
    h('p', { class: 'news-who' }, h('b', { text: relativeSeat(n.seat, ds) === 0 ? t('news.landlord_you') : t('news.landlord', { name: seatName(n.seat, ds) }) })),
    h('div', { class: 'news-bottom', role: 'img', aria: { label: t('table.bottom_shown', { cards: notationText(notationOf(n.bottomIds)) }) } },
      n.bottomIds.map((id) => cardFace(id))));
}

/** Draw everything but the hand and the controls. */
export function renderTable({ view, ds, thinking, handCount }) {
  const board = $('board');
  board.className = `board seats-${ds.players}`;
  $('seat-2').hidden = ds.players < 3;
  $('zone-2').hidden = ds.players < 3;
  for (let seat = 0; seat < ds.players; seat += 1) {
    if (seat !== ds.me) seatPanel(ds, view, seat, thinking);
    zone(ds, seat);
  }
  info(ds, view);
  bottomCards(ds);
  news(ds);
  meBar(ds, view, handCount);
}
