// Step-through replay of a finished round, from its events: every hand face
// up (the settle event reveals the starting hands), each seat's latest action,
// and a caption for the step. Arrow keys, Home/End and the buttons move.

import { $, focusFirst, h, replace, useStyle } from './dom.js';
import { cardRow, cardFace, cardBack } from './cardview.js';
import { foldEvents, lastDealIndex } from './tablestate.js';
import { playOrder } from './cards.js';
import { describeEvent, seatName } from './format.js';
import { actBubble, seatPosition } from './table.js';
import { t } from './i18n.js';

await useStyle(new URL('../css/replay.css', import.meta.url)); // not in the first load

/**
 * Where the seats overflow their own scrolling box (large text on a short computer screen, say),
 * the seat that acts in this step is brought whole into it: the box kept its place and hid the
 * player's own row, the one a review is about. A box that does not overflow is left alone.
 */
function keepInBox(box, row) {
  if (!row || box.scrollHeight <= box.clientHeight) return;
  const outer = box.getBoundingClientRect();
  const inner = row.getBoundingClientRect();
  if (inner.top < outer.top) box.scrollTop += inner.top - outer.top;
  else if (inner.bottom > outer.bottom) box.scrollTop += Math.min(inner.bottom - outer.bottom, inner.top - outer.top);
}

export class Replay {
  constructor() {
    this.el = $('replay');
    this.onClose = null;
    this.step = 0;
    // A modal dialog: the table behind is inert; Escape closes it like the button.
    this.el.addEventListener('close', () => {
      document.body.classList.remove('replaying');
      this.el.dispatchEvent(new CustomEvent('replay-close')); // the review lets go
      const back = this.onClose;
      this.onClose = null;
      if (back) back();
    });
    $('replay-close').addEventListener('click', () => this.close());
    $('replay-first').addEventListener('click', () => this.go(0));
    $('replay-prev').addEventListener('click', () => this.go(this.step - 1));
    $('replay-next').addEventListener('click', () => this.go(this.step + 1));
    $('replay-last').addEventListener('click', () => this.go(this.events.length - 1));
    this.el.addEventListener('keydown', (e) => {
      const moves = { ArrowLeft: -1, ArrowRight: 1 };
      if (e.key in moves) this.go(this.step + moves[e.key]);
      else if (e.key === 'Home') this.go(0);
      else if (e.key === 'End') this.go(this.events.length - 1);
      else return;
      e.preventDefault();
      e.stopPropagation();
    });
  }

  get open() {
    return this.el.open;
  }

  /**
   * Open on a finished round: `events` of the round, ending with settle;
   * `seating` {rules, me} as for foldEvents. `onClose` puts the keyboard back
   * where the replay was opened.
   */
  show(seating, events, onClose = null) {
    const settle = events[events.length - 1];
    this.seating = seating;
    this.events = events.slice(lastDealIndex(events)); // only the deal that was played
    this.initial = settle.initial_ids;
    this.step = 0;
    this.onClose = onClose;
    document.body.classList.add('replaying');
    this.render();
    if (!this.el.open) this.el.showModal();
    $('replay-next').focus();
  }

  close() {
    if (this.el.open) this.el.close();
  }

  go(step) {
    this.step = Math.max(0, Math.min(this.events.length - 1, step));
    this.render();
  }

  render() {
    const ds = foldEvents(this.seating, this.events, this.step + 1, { initialHands: this.initial });
    const ev = this.events[this.step];
    // Top to bottom as at the table: the seat after the player's last, the player at the bottom.
    const order = Array.from({ length: ds.players }, (_, i) => (ds.me + ds.players - 1 - i) % ds.players);
    const seats = order.map((seat) => {
      const act = ds.seatAct[seat];
      let action = null;
      if (act && act.type === 'play') action = cardRow(playOrder(act.cards), 'play-row');
      else if (act) action = actBubble(act, ds);
      const acting = ev && ev.seat === seat;
      return h('div', { class: `replay-seat pos-${seatPosition(ds, seat)}${acting ? ' acting' : ''}` },
        h('div', { class: 'who' }, h('b', { text: seatName(seat, ds) }),
          ds.landlord !== null ? h('span', { class: `role ${ds.landlord === seat ? 'landlord' : 'farmer'}`, text: t(ds.landlord === seat ? 'role.landlord' : 'role.farmer') }) : null,
          h('span', { class: 'n', text: t('table.cards_left', { n: ds.hands[seat].length }) })),
        h('div', { class: 'replay-hand' }, ds.hands[seat].length ? cardRow([...ds.hands[seat]].sort((a, b) => a - b), 'replay-row') : null),
        h('div', { class: 'replay-act' }, action));
    });
    const bottom = h('div', { class: 'replay-bottom' }, h('span', { text: t('table.bottom') }),
      ...(ds.bottomIds ? ds.bottomIds.map((id) => cardFace(id, 'mini')) : [0, 1, 2].map(() => cardBack('mini'))));
    replace($('replay-table'), bottom, seats);
    const called = ev && ev.type === 'bid' && ds.seatAct[ev.seat] ? ds.seatAct[ev.seat].called : false;
    $('replay-caption').textContent = ev ? describeEvent(ev, { called, table: ds }) : '';
    $('replay-step').textContent = t('replay.step', { i: this.step + 1, n: this.events.length });
    const held = this.el.contains(document.activeElement) ? document.activeElement : null;
    $('replay-first').disabled = $('replay-prev').disabled = this.step === 0;
    $('replay-next').disabled = $('replay-last').disabled = this.step === this.events.length - 1;
    // A pressed button disabled at an end would drop the keyboard to <body>, out of the dialog
    // whose keys step the replay: it goes to the way back instead.
    if (held && held.disabled) focusFirst(['replay-prev', 'replay-next', 'replay-close'].map((id) => $(id)));
    this.el.dispatchEvent(new CustomEvent('replay-step', { detail: this.step })); // the review follows
    // last, once the caption and the review below have taken their room from the seats' box
    keepInBox($('replay-table'), $('replay-table').querySelector('.replay-seat.acting'));
  }
}
