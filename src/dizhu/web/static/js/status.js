// The one-line status under the trick: whose turn it is and what to do, or a
// transient message (an illegal play's reason, a hint's reason) that stays
// until the player does something else.

import { $, h, replace } from './dom.js';
import { t, tParts } from './i18n.js';
import { playChips, seatName } from './format.js';

/**
 * Duel bidding, our turn: what the opponent just did decides the question
 * (they called: rob?; they robbed, our call or our rob: rob back?).
 */
function duelPrompt(ds) {
  if (!ds.called) return t('status.call');
  const last = ds.bids.length ? ds.bids[ds.bids.length - 1] : null;
  const name = last ? seatName(last[0]) : seatName(1);
  return t(last && last[1] === 'rob' ? 'status.rob_back' : 'status.rob', { name, n: ds.robs });
}

/** What the table says when nothing special has happened. */
export function promptParts(ds, myTurn, thinking) {
  const parts = basicPrompt(ds, myTurn, thinking);
  // After a throw-in, say so until someone bids in the new deal.
  if (ds.redealt && ds.phase === 'bidding') return [h('span', { class: 'redeal', text: t('status.redeal') }), ...parts];
  return parts;
}

function basicPrompt(ds, myTurn, thinking) {
  if (ds.phase === 'over') return [t('status.over')];
  if (thinking !== null && thinking !== undefined && thinking !== 0) return [t('status.thinking', { name: seatName(thinking) })];
  if (!myTurn) return ds.toAct === 0 ? [] : [t('status.waiting', { name: seatName(ds.toAct) })];
  if (ds.phase === 'bidding') {
    if (ds.variant === 'duel') return [duelPrompt(ds)];
    return [ds.highest ? t('status.bid_higher', { n: ds.highest }) : t('status.bid')];
  }
  if (!ds.lastPlay) return [t('status.lead')];
  return tParts('status.beat', { play: ds.lastPlay.play, name: seatName(ds.lastPlay.seat) },
    (name, value) => (name === 'play' ? playChips(value) : value));
}

/**
 * Show `message` ({kind: 'error'|'hint'|'info', parts}) or, without one, the
 * prompt. Errors are announced assertively to screen readers.
 */
export function renderStatus(message, prompt) {
  const el = $('status');
  if (message) {
    el.className = `status ${message.kind}`;
    el.setAttribute('aria-live', message.kind === 'error' ? 'assertive' : 'polite');
    const label = message.kind === 'hint' ? h('b', { class: 'tag', text: t('status.hint_tag') }) : null;
    replace(el, h('span', { class: 'msg' }, label, ...message.parts));
  } else {
    el.className = 'status';
    el.setAttribute('aria-live', 'polite');
    replace(el, prompt.length ? h('span', { class: 'msg' }, ...prompt) : '');
  }
}
