// The one-line status under the trick: whose turn it is and what to do, or a
// transient message (an illegal play's reason, a hint's reason) that stays
// until the player does something else.

import { $, h, replace } from './dom.js';
import { t, tParts } from './i18n.js';
import { playChips, seatName } from './format.js';

/**
 * Call-and-rob bidding (duel), our turn: what the opponent just did decides the question
 * (they called: rob?; they robbed, our call or our rob: rob back?).
 */
function duelPrompt(ds) {
  if (!ds.called) return t('status.call');
  const last = ds.bids.length ? ds.bids[ds.bids.length - 1] : null;
  const name = seatName(last ? last[0] : (ds.me + 1) % ds.players, ds);
  // n: the handicap after a rob, the cards the farmer would then win holding
  return t(last && last[1] === 'rob' ? 'status.rob_back' : 'status.rob', { name, n: ds.robs + 1 });
}

/** What the table says when nothing special has happened. */
export function promptParts(ds, myTurn, thinking, onlyPass = false) {
  const parts = basicPrompt(ds, myTurn, thinking, onlyPass);
  // After a throw-in, say so until someone bids in the new deal.
  if (ds.redealt && ds.phase === 'bidding') return [h('span', { class: 'redeal', text: t('status.redeal') }), ...parts];
  return parts;
}

function basicPrompt(ds, myTurn, thinking, onlyPass) {
  if (ds.phase === 'over') return [t('status.over')];
  if (thinking !== null && thinking !== undefined && thinking !== ds.me) return [t('status.thinking', { name: seatName(thinking, ds) })];
  if (!myTurn) return ds.toAct === ds.me ? [] : [t('status.waiting', { name: seatName(ds.toAct, ds) })];
  if (ds.phase === 'bidding') {
    if (ds.rules.bidding === 'rob') return [duelPrompt(ds)];
    return [ds.highest ? t('status.bid_higher', { n: ds.highest }) : t('status.bid')];
  }
  if (!ds.lastPlay) return [t('status.lead')];
  // Nothing in the hand beats it (the server offers only the pass): say so, not "beat it".
  return tParts(onlyPass ? 'status.cannot_beat' : 'status.beat', { play: ds.lastPlay.play, name: seatName(ds.lastPlay.seat, ds) },
    (name, value) => (name === 'play' ? playChips(value) : value));
}

/** The words a screen reader finds in `node` (what is aria-hidden left out). */
export function spokenText(node) {
  const copy = node.cloneNode(true);
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent.replace(/\s+/g, ' ').trim();
}

// Whether the message laid over the prompt reaches past the line: on a short phone it then grows
// over the player's own line, which steps back (and stays when a one-line message fits).
let spill = null;
function watchSpill(el, over) {
  spill = spill || new ResizeObserver(() => {
    const top = el.querySelector('.msg.over');
    el.classList.toggle('spills', Boolean(top) && top.offsetHeight > el.clientHeight + 1);
  });
  spill.disconnect();
  el.classList.remove('spills');
  if (!over) return;
  spill.observe(el);
  spill.observe(over);
}

/**
 * Show `message` ({kind: 'error'|'hint'|'info', parts}) or, without one, the
 * prompt. `parts` is a function, called at every render, so that a message
 * shown before a change of language is redrawn in the new one. The line is
 * redrawn only when its words change. It is not a live region itself (a
 * computer "thinking" is no news, and two polite regions would talk over each
 * other): errors are spoken assertively, and a hint or
 * the prompt of the player's turn goes to the one polite region, #announce.
 */
export function renderStatus(message, prompt, { myTurn = false } = {}) {
  const el = $('status');
  const kind = message ? message.kind : '';
  const said = prompt.length ? h('span', { class: 'msg' }, ...prompt) : null;
  const content = message
    ? h('span', { class: 'msg over' }, message.kind === 'hint' ? h('b', { class: 'tag', text: t('status.hint_tag') }) : null, ...message.parts())
    : said;
  const text = content ? spokenText(content) : '';
  const key = `${kind}|${text}`;
  // A message is laid over the prompt, which keeps its place unseen: the line keeps the prompt's
  // height, so a hint or an error, however many lines, never moves the table.
  const held = message && said ? said.textContent : '';
  if (el.dataset.key === key && el.dataset.held === held) return;
  el.dataset.held = held;
  if (held) {
    said.classList.add('held');
    said.setAttribute('aria-hidden', 'true');
  }
  if (el.dataset.key === key) {
    // Only the prompt under the message changed: the message stays, and is not said again.
    const old = el.querySelector(':scope > .held');
    if (old) old.remove();
    if (held) el.prepend(said);
    return;
  }
  el.dataset.key = key;
  el.className = `status ${kind}`.trim();
  el.setAttribute('aria-live', kind === 'error' ? 'assertive' : 'off');
  replace(el, held ? said : null, content);
  watchSpill(el, message ? content : null);
  if (kind === 'hint' || kind === 'info' || (!message && myTurn)) {
    const live = $('announce');
    if (live && text) live.textContent = text;
  }
}
