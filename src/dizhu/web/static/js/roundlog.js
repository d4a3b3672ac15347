// "This round and the match": the tricks of the round on the table (who
// played what, in order), and a ledger of the match's finished rounds with
// each seat's points and the running totals (from GET …/rounds).

import { h, replace } from './dom.js';
import { foldEvents, lastDealIndex } from './tablestate.js';
import { seatName, saidBy, playChips, actionLabel, signed, figure } from './format.js';
import { t } from './i18n.js';

/**
 * The round's tricks: [{lines: [[seat, text or chips], ...]}], the bidding
 * first. Events are those of the table so far (`shown` of them).
 */
export function tricksOf(seating, events) {
  const round = events.slice(lastDealIndex(events));
  const table = foldEvents(seating, []);
  const tricks = [];
  let current = { bidding: true, moves: [] };
  let called = false;
  for (const ev of round) {
    if (ev.type === 'bid') {
      current.moves.push({ seat: ev.seat, parts: [actionLabel(ev.action, { phase: 'bidding', called, table })] });
      if (ev.action === 'call') called = true;
    } else if (ev.type === 'landlord') {
      if (current.moves.length) tricks.push(current);
      current = { bidding: false, moves: [] };
    } else if (ev.type === 'play') {
      current.moves.push({ seat: ev.seat, parts: [playChips(ev.play)] });
    } else if (ev.type === 'pass') {
      current.moves.push({ seat: ev.seat, parts: [t('act.pass')] });
    } else if (ev.type === 'trick') {
      tricks.push(current);
      current = { bidding: false, moves: [] };
    }
  }
  if (current.moves.length) tricks.push(current);
  return tricks;
}

/** The finished rounds of the match on the table, oldest first (all pages of …/rounds). */
export async function matchRounds(api, view) {
  const rounds = [];
  let offset = 0;
  for (let page = 0; page < 20 && offset !== null; page += 1) {
    const answer = await api.rounds(offset);
    rounds.push(...answer.rounds);
    offset = answer.next_offset;
  }
  const match = rounds.length ? rounds[rounds.length - 1].match : null;
  // A new match with no round finished yet has no ledger.
  const finishedHere = (view.match_round ?? 1) - (view.observation.phase === 'over' ? 0 : 1);
  if (finishedHere <= 0) return []; // (and slice(-0) would be the whole list)
  return rounds.filter((r) => r.match === match).slice(-finishedHere);
}

/** Fill `body`: the tricks, then the ledger (null while it loads or could not load). */
export function renderRoundLog(body, { table, events, ledger }) {
  const tricks = tricksOf(table, events);
  const players = Array.from({ length: table.players }, (_, seat) => seat);
  replace(body,
    h('h3', { text: t('log.tricks') }),
    tricks.length
      ? h('ul', { class: 'trick-list', role: 'list' }, tricks.map((trick, i) => h('li', { class: trick.bidding ? 'bidding' : '' },
        h('b', { class: 'trick-name', text: trick.bidding ? t('log.bidding') : t('log.trick', { n: tricks[0].bidding ? i : i + 1 }) }),
        h('ul', { role: 'list' }, trick.moves.map((move) => h('li', {}, saidBy(move.seat, table), ...move.parts))))))
      : h('p', { text: t('log.no_tricks') }),
    h('h3', { text: t('log.ledger') }),
    ledger === null ? h('p', { text: t('log.loading') })
      : ledger.length === 0 ? h('p', { text: t('log.no_rounds') })
        : h('table', { class: 'ledger' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('log.round') }),
            players.map((seat) => h('th', { scope: 'col', text: seatName(seat, table) })))),
          h('tbody', {}, ledger.map((round, i) => h('tr', {},
            h('th', { scope: 'row', text: String(i + 1) }),
            players.map((seat) => h('td', { text: `${signed(round.result.points[seat])} (${figure(round.totals[seat])})` })))))));
}
