// Renders the table around the hand: the opponents' seats (name, level, role,
// cards left, score, "wins at N" in duel, thinking), each seat's latest action,
// the bottom cards, the info bar (round, bid or robs, multiplier and what made
// it) and the player's own bar. Input is a display state from tablestate.js.

import { $, h, replace } from './dom.js';
import { cardFace, cardBack, cardRow } from './cardview.js';
import { currentMultiplier } from './tablestate.js';
import { notationOf, playOrder } from './cards.js';
import { actionLabel, kindName, levelName, seatName, notationText, playText } from './format.js';
import { t, language } from './i18n.js';

function roleBadge(ds, seat) {
  if (ds.landlord === null) return null;
  const landlord = ds.landlord === seat;
  return h('span', { class: `role ${landlord ? 'landlord' : 'farmer'}`, text: t(landlord ? 'role.landlord' : 'role.farmer') });
}

/** Duel: the farmer wins on getting down to the handicap (0: must play out). */
function winsAt(ds, seat) {
  if (ds.variant !== 'duel' || ds.landlord === null || ds.landlord === seat) return null;
  return h('span', { class: 'wins-at', text: t('table.wins_at', { n: ds.robs }) });
}

function scoreText(view, seat) {
  const total = view.totals ? view.totals[seat] : 0;
  return t('table.points', { n: total > 0 ? `+${total}` : String(total) });
}

function seatPanel(ds, view, seat, thinking) {
  const level = view.seats && view.seats[seat] ? view.seats[seat].level : view.level;
  const active = ds.toAct === seat && ds.phase !== 'over';
  const panel = $(`seat-${seat}`);
  panel.className = `seat-panel seat-pos-${seatPosition(ds, seat)}${active ? ' active' : ''}${thinking === seat ? ' thinking' : ''}${ds.landlord === seat ? ' is-landlord' : ''}`;
  panel.hidden = false;
  const left = ds.cardsLeft[seat];
  replace(panel,
    h('div', { class: 'avatar', 'aria-hidden': 'true', text: seatName(seat).slice(0, 1) }),
    h('div', { class: 'who' },
      h('b', { class: 'name', text: seatName(seat) }),
      h('span', { class: 'level', text: levelName(level) })),
    h('div', { class: 'tags' }, roleBadge(ds, seat), winsAt(ds, seat)),
    h('div', { class: 'count', aria: { label: t('table.cards_left', { n: left }) } },
      cardBack('mini'), h('span', { class: 'n', 'aria-hidden': 'true', text: String(left) })),
    h('div', { class: 'score', text: scoreText(view, seat) }),
    h('div', { class: 'thinking-dots', 'aria-hidden': 'true' }, h('i'), h('i'), h('i')),
  );
  panel.setAttribute('aria-label', [seatName(seat), levelName(level), t('table.cards_left', { n: left }),
    ds.landlord === seat ? t('role.landlord') : '', thinking === seat ? t('table.thinking') : ''].filter(Boolean).join(', '));
}

/** Where a seat sits: classic 1 = right, 2 = left (counter-clockwise); duel's opponent on top. */
export function seatPosition(ds, seat) {
  if (seat === 0) return 'me';
  if (ds.variant === 'duel') return 'top';
  return seat === 1 ? 'right' : 'left';
}

function zone(ds, seat) {
  const el = $(`zone-${seat}`);
  el.className = `zone zone-${seatPosition(ds, seat)}${ds.trickOver ? ' stale' : ''}`;
  el.hidden = false;
  const act = ds.seatAct[seat];
  // Redraw only when the content changes, so a new play animates once.
  const key = JSON.stringify([act, ds.phase, language()]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  // Once the round is over, every hand is shown face up beside its seat.
  const left = ds.phase === 'over' && seat !== 0 && ds.result && ds.result.hand_ids ? ds.result.hand_ids[seat] : null;
  const reveal = left && left.length
    ? h('div', { class: 'reveal', aria: { label: `${seatName(seat)}: ${notationText(notationOf(left))}` } },
      cardRow([...left].sort((a, b) => a - b), 'reveal-row'))
    : null;
  if (!act) {
    replace(el, reveal);
    el.removeAttribute('aria-label');
    return;
  }
  if (act.type === 'play') {
    const label = `${seatName(seat)}: ${kindName(act.kind)} ${playText(act.play)}`;
    replace(el, cardRow(playOrder(act.cards), 'play-row'), h('span', { class: 'kind', text: kindName(act.kind) }), reveal);
    el.setAttribute('aria-label', label);
  } else {
    const text = act.type === 'pass' ? t('act.pass') : actionLabel(act.action, { phase: 'bidding', called: act.called });
    replace(el, h('span', { class: `bubble ${act.type === 'pass' || act.action === 'pass' ? 'pass' : 'bid'}${act.again ? ' again' : ''}`, text }), reveal);
    el.setAttribute('aria-label', `${seatName(seat)}: ${text}`);
  }
}

/** The words for what makes up the multiplier so far. */
export function multiplierParts(ds) {
  const parts = [];
  if (ds.variant === 'duel') {
    if (ds.robs > 0) parts.push(t('mult.robs_now', { n: ds.robs, factor: 2 ** ds.robs }));
  }
  else if (ds.highest > 0) parts.push(t('mult.bid_now', { n: ds.highest }));
  const bombs = ds.doublings.filter((d) => d.source === 'bomb').length;
  const rockets = ds.doublings.length - bombs;
  if (bombs) parts.push(t('mult.bombs_now', { n: bombs }));
  if (rockets) parts.push(t('mult.rocket_now'));
  return parts;
}

function info(ds, view) {
  const mult = currentMultiplier(ds);
  // The round of this match (round_number keeps counting across matches and
  // abandoned deals: it names a round, it does not count them for the player).
  const items = [h('span', { class: 'round', text: t('table.round', { n: view.match_round ?? view.round_number }) })];
  if (ds.variant === 'duel') items.push(h('span', { class: 'handicap', text: t('table.handicap', { n: ds.robs }) }));
  const why = multiplierParts(ds).join(' · ');
  replace($('info'),
    h('div', { class: 'info-line' }, items),
    h('div', { class: 'mult-line', aria: { label: `${t('table.multiplier')} ×${mult}${why ? `: ${why}` : ''}` } },
      h('b', { class: 'mult', text: `×${mult}` }),
      h('span', { class: 'mult-why', text: why })));
}

function bottomCards(ds) {
  const el = $('bottom-cards');
  const cards = ds.bottomIds ? ds.bottomIds.map((id) => cardFace(id, 'mini')) : [0, 1, 2].map(() => cardBack('mini'));
  replace(el, cards);
  el.setAttribute('aria-label', ds.bottomIds
    ? t('table.bottom_shown', { cards: notationText(notationOf(ds.bottomIds)) })
    : t('table.bottom_hidden'));
  el.setAttribute('role', 'img');
}

function meBar(ds, view, handCount) {
  const active = ds.toAct === 0 && ds.phase !== 'over';
  replace($('me-info'),
    h('b', { class: 'name', text: seatName(0) }),
    roleBadge(ds, 0),
    winsAt(ds, 0),
    h('span', { class: 'count', text: t('table.cards_left', { n: handCount }) }),
    h('span', { class: 'score', text: scoreText(view, 0) }),
    active ? h('span', { class: 'turn', text: t('table.your_turn') }) : null);
  $('me-info').classList.toggle('active', active);
  $('me-info').parentElement.classList.toggle('active', active);
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
    return;
  }
  const key = JSON.stringify([n, language()]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const d = n.winning;
  const decided = d ? `${seatName(d.seat)}: ${actionLabel(d.action, { phase: 'bidding', called: d.called })}` : null;
  replace(el,
    decided ? h('p', { class: 'news-bid', text: decided }) : null,
    h('p', { class: 'news-who' }, h('b', { text: n.seat === 0 ? t('news.landlord_you') : t('news.landlord', { name: seatName(n.seat) }) })),
    h('div', { class: 'news-bottom', role: 'img', aria: { label: t('table.bottom_shown', { cards: notationText(notationOf(n.bottomIds)) }) } },
      n.bottomIds.map((id) => cardFace(id))));
}

/** Draw everything but the hand and the controls. */
export function renderTable({ view, ds, thinking, handCount }) {
  const board = $('board');
  board.className = `board ${ds.variant}`;
  $('seat-2').hidden = ds.variant === 'duel';
  $('zone-2').hidden = ds.variant === 'duel';
  for (let seat = 1; seat < ds.players; seat += 1) seatPanel(ds, view, seat, thinking);
  for (let seat = 0; seat < ds.players; seat += 1) zone(ds, seat);
  info(ds, view);
  bottomCards(ds);
  news(ds);
  meBar(ds, view, handCount);
}
