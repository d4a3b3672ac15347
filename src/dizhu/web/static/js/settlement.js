// The settlement sheet: who won, every multiplier and where it came from, each
// seat's remaining cards face up, the round's points and the running totals,
// the match winner(s), the deal code with "replay this deal", and the buttons
// for what comes next.

import { h, replace, LANDSCAPE_PHONE } from './dom.js';
import { cardRow } from './cardview.js';
import { seatName, playChips, levelName, winnerSentence, labelled, signed, figure } from './format.js';
import { choices } from './dom.js';
import { t } from './i18n.js';

/** One line per factor of the score, in the engine's order. */
export function breakdownLines(result, table) {
  const lines = [];
  for (const entry of result.breakdown || []) {
    switch (entry.source) {
      case 'bid':
        lines.push([t('mult.bid', { n: entry.factor })]);
        break;
      case 'robs':
        lines.push([t('mult.robs', { n: entry.count, factor: entry.factor })]);
        break;
      case 'bomb':
      case 'rocket':
        lines.push([...labelled(t(`mult.${entry.source}`, { name: seatName(entry.seat, table) })), playChips(entry.play), ' ×2']);
        break;
      case 'spring':
      case 'anti_spring':
        lines.push([t(`mult.${entry.source}`)]);
        break;
      default:
        lines.push([`${entry.source} ×${entry.factor}`]);
    }
  }
  // With two farmers, the landlord wins or pays both their shares.
  if (table.players > 2) lines.push([t('mult.total_classic', { p: result.multiplier, double: result.multiplier * (table.players - 1) })]);
  else lines.push([t('mult.total_duel', { p: result.multiplier })]);
  return lines;
}

/**
 * Fill `body`. handlers: replay(), close(), anotherRound(), newMatch(),
 * replayDeal(level), and review() if the round can be reviewed.
 */
export function renderSettlement(body, { view, table, result, handlers, replayLevel = null }) {
  const mine = result.points[table.me];
  const players = result.points.length;
  const matchOver = view.match_over;
  const headline = mine > 0 ? t('settle.you_win') : t('settle.you_lose');
  const who = winnerSentence(result, { players });
  // One line per player, and under it the cards they still held, face up.
  const rows = [];
  for (let seat = 0; seat < players; seat += 1) {
    const landlord = seat === result.landlord;
    const left = (result.hand_ids || [])[seat] || [];
    rows.push(h('tr', { class: `player${seat === table.me ? ' me' : ''}` },
      h('th', { scope: 'row' }, h('span', { class: 'name', text: seatName(seat, table) }), ' ',
        h('small', { class: `role ${landlord ? 'landlord' : 'farmer'}`, text: t(landlord ? 'role.landlord' : 'role.farmer') })),
      h('td', { class: 'n-left', text: left.length ? t('table.cards_left', { n: left.length }) : t('settle.out') }),
      h('td', { class: `pts ${result.points[seat] > 0 ? 'plus' : 'minus'}`, text: signed(result.points[seat]) }),
      h('td', { class: 'total', text: figure(view.totals[seat]) })));
    if (left.length) {
      rows.push(h('tr', { class: 'hand-line' }, h('td', { colspan: '4' }, cardRow([...left].sort((a, b) => a - b), 'settle-row'))));
    }
  }
  const winners = (view.winners || []).map((seat) => seatName(seat, table)).join(t('settle.and'));
  const newMatch = (cls) => h('button', { type: 'button', class: cls, dataset: { ctl: 'new-match' }, text: t('menu.new_match'), on: { click: handlers.newMatch } });
  const levelSelect = h('select', { class: 'replay-level', aria: { label: t('settle.replay_level') } },
    choices('level').map((level) => h('option', { value: level, text: levelName(level), selected: level === (replayLevel || view.level) })));
  // The way on, in a row of its own that stays at the sheet's bottom edge while the rest scrolls
  // (on a phone it was below the fold): another round, or a new match once this one is won. On a
  // landscape phone the other buttons join it there (screens.css).
  const wayOn = h('div', { class: 'row buttons way-on' },
    matchOver ? newMatch('btn primary')
      : h('button', { type: 'button', class: 'btn primary', dataset: { ctl: 'another-round' }, text: t('settle.another_round'), on: { click: handlers.anotherRound } }));
  const foot = h('div', { class: 'settle-foot' },
    h('div', { class: 'row buttons' },
      h('button', { type: 'button', class: 'btn', dataset: { ctl: 'replay' }, text: t('settle.replay'), on: { click: handlers.replay } }),
      handlers.review ? h('button', { type: 'button', class: 'btn', dataset: { ctl: 'review' }, text: t('review.open'), on: { click: handlers.review } }) : null,
      h('button', { type: 'button', class: 'btn', dataset: { ctl: 'view-table' }, text: t('settle.view_table'), on: { click: handlers.close } }),
      matchOver ? null : newMatch('btn')),
    wayOn);
  replace(body,
    h('header', { class: `settle-head ${mine > 0 ? 'win' : 'lose'}` },
      h('h2', { id: 'settle-title', text: headline }),
      h('p', { class: 'who', text: who }),
      result.spring ? h('p', { class: 'badge', text: t('settle.spring') }) : null,
      result.anti_spring ? h('p', { class: 'badge', text: t('settle.anti_spring') }) : null),
    matchOver ? h('p', { class: 'match-winner', role: 'status', text: t('settle.match_winner', { names: winners }) }) : null,
    h('section', { class: 'breakdown', aria: { label: t('settle.multiplier') } },
      h('h3', { text: t('settle.multiplier') }),
      h('ul', {}, breakdownLines(result, table).map((parts) => h('li', {}, parts)))),
    h('table', { class: 'scores' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: t('settle.player') }),
        h('th', { scope: 'col', text: t('settle.cards_left') }),
        h('th', { scope: 'col', text: t('settle.points') }),
        h('th', { scope: 'col', text: t('settle.total') }))),
      h('tbody', {}, rows)),
    // The rule of the match while it goes on; once won, the winners' line above says it all.
    view.target && !matchOver ? h('p', { class: 'target', text: t('settle.target', { n: view.target }) }) : null,
    foot);
  const share = result.deal_code ? dealSection(result.deal_code, levelSelect, handlers) : null;
  arrange = () => placeShare(body, foot, wayOn, share);
  arrange();
}

// The deal code sits where it is drawn, so that the tab order and a screen reader meet it there,
// before the way on's bar at the sheet's end: on a landscape phone the bar holds every button and
// the code comes before them all; elsewhere it follows the other buttons, inside the foot.
let arrange = () => {};
LANDSCAPE_PHONE.addEventListener('change', () => arrange());

function placeShare(body, foot, wayOn, share) {
  if (!share) return;
  const focused = share.contains(document.activeElement) ? document.activeElement : null;
  if (LANDSCAPE_PHONE.matches) body.insertBefore(share, foot);
  else foot.insertBefore(share, wayOn);
  if (focused && document.activeElement !== focused) focused.focus({ preventScroll: true }); // (a move blurs it)
}

/** The deal code: copy it or a link to it, and play the deal again (at a chosen level). */
function dealSection(code, levelSelect, handlers) {
  const done = h('span', { class: 'copied', role: 'status' });
  const copy = (text) => async () => {
    done.textContent = '';
    done.textContent = (await handlers.copy(text)) ? t('settle.copied') : t('settle.copy_failed');
  };
  const link = handlers.link ? handlers.link(code) : null;
  return h('section', { class: 'deal-share' },
    h('h3', { text: t('settle.deal_code') }),
    h('p', { class: 'code' }, h('code', { text: code })),
    h('div', { class: 'row copy' },
      h('button', { type: 'button', class: 'btn', dataset: { ctl: 'copy-code' }, text: t('settle.copy_code'), on: { click: copy(code) } }),
      link ? h('button', { type: 'button', class: 'btn', dataset: { ctl: 'copy-link' }, text: t('settle.copy_link'), on: { click: copy(link) } }) : null,
      link ? h('a', { class: 'deal-link', href: link, text: t('settle.link') }) : null,
      done),
    h('p', { class: 'note', text: t('settle.deal_note') }),
    h('div', { class: 'row' }, levelSelect,
      h('button', { type: 'button', class: 'btn', dataset: { ctl: 'replay-deal' }, text: t('settle.replay_deal'), on: { click: () => handlers.replayDeal(levelSelect.value) } })));
}
