// The player's hand: layout, selection by tap/click or by dragging across
// cards, and keyboard selection. It only knows card ids; what a selection
// means is the controller's business (onChange is called on every change).

import { cardFace } from './cardview.js';
import { sortCards } from './cards.js';
import { cardName } from './format.js';
import { t } from './i18n.js';

// Card proportions and how much of each card must stay visible to stay easy
// to read and to hit with a finger.
const RATIO = 1.4;
const MIN_STEP = 24; // px of each card left uncovered, at the very least
const MAX_STEP_RATIO = 0.6; // never spread cards wider than this much of a card
const ROW_SHOW = 0.78; // short screens' two rows: this much of the upper row shows above the lower
const ROW_SHOW_TIGHT = 0.56; // ... with the counter open (a shorter board): the rank always shows, a
// picked card of the lower row may cover the suit under it
const TALL = 700; // px of screen height from which two rows sit apart
const RESERVE = 20; // the hand's height is kept for this many cards (a landlord's hand)

export class HandView {
  /**
   * onChange(selection) after every change; smart(id) may answer a tap on one
   * card (nothing else picked) with the ids to pick instead, or null;
   * run(ids) likewise a drag that picked the cards `ids` (nothing else picked).
   */
  constructor(el, { onChange = () => {}, smart = () => null, run = () => null } = {}) {
    this.el = el;
    this.onChange = onChange;
    this.smart = smart;
    this.run = run;
    this.tight = false;
    this.ids = [];
    this.selected = new Set();
    this.cursor = 0;
    this.enabled = false;
    this.drag = null;
    this.highlight = new Set(); // cards of a hint, shown until the selection changes
    this.fresh = new Set(); // the bottom cards just taken as landlord
    this.dealing = false; // set by the controller: the next render deals the cards in
    this.dealTimer = null;
    el.addEventListener('pointerdown', (e) => this.pointerDown(e));
    el.addEventListener('pointermove', (e) => this.pointerMove(e));
    el.addEventListener('pointerup', () => this.pointerUp());
    el.addEventListener('pointercancel', () => this.pointerUp());
    el.addEventListener('keydown', (e) => this.keyDown(e));
    // The cursor shows for keyboard focus, not after a click elsewhere hands
    // the focus back to the hand.
    el.addEventListener('focus', () => this.el.classList.toggle('has-focus', this.el.matches(':focus-visible')));
    el.addEventListener('keydown', () => this.el.classList.add('has-focus'), { capture: true });
    el.addEventListener('blur', () => this.el.classList.remove('has-focus'));
    // Text selection and the long-press menu would fight the drag gesture.
    el.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  /** Show `ids` in `sortMode` order; keeps the selection of cards still held. */
  render(ids, sortMode, enabled) {
    this.ids = sortCards(ids, sortMode);
    this.enabled = enabled;
    for (const id of [...this.selected]) if (!this.ids.includes(id)) this.selected.delete(id);
    this.cursor = Math.min(this.cursor, Math.max(0, this.ids.length - 1));
    this.el.replaceChildren(...this.ids.map((id, i) => {
      const face = cardFace(id, 'hcard');
      face.removeAttribute('role');
      face.setAttribute('role', 'option');
      face.id = `hand-card-${id}`;
      face.dataset.index = String(i);
      face.style.setProperty('--i', String(i)); // the deal's stagger (CSSOM, allowed by the CSP)
      return face;
    }));
    if (this.dealing) {
      // A short deal: the cards fly in one after another (css: .hand.deal).
      this.dealing = false;
      this.el.classList.add('deal');
      clearTimeout(this.dealTimer);
      this.dealTimer = setTimeout(() => this.el.classList.remove('deal'), 40 * this.ids.length + 400);
    }
    this.el.setAttribute('aria-label', t('hand.label', { n: this.ids.length }));
    this.el.classList.toggle('disabled', !enabled);
    this.refresh();
    this.layout();
  }

  /** Update classes/ARIA for selection, cursor and hint highlight. */
  refresh() {
    for (const card of this.el.children) {
      const id = Number(card.dataset.id);
      const on = this.selected.has(id);
      card.classList.toggle('selected', on);
      card.classList.toggle('hinted', this.highlight.has(id));
      card.classList.toggle('fresh', this.fresh.has(id));
      card.classList.toggle('cursor', Number(card.dataset.index) === this.cursor);
      card.setAttribute('aria-selected', on ? 'true' : 'false');
      card.setAttribute('aria-label', cardName(id));
    }
    const active = this.el.children[this.cursor];
    if (active) this.el.setAttribute('aria-activedescendant', active.id);
    else this.el.removeAttribute('aria-activedescendant');
  }

  /** The counter open above the table takes height from a short screen's board: two rows of
   * cards then overlap more, so that the plays on the board keep their room. */
  setTight(tight) {
    if (tight === this.tight) return;
    this.tight = tight;
    this.layout();
  }

  /**
   * Size and place the cards for the space available: one row when each card
   * can keep at least MIN_STEP px visible, otherwise two rows (narrow phones
   * holding up to 20 cards), and smaller cards only as a last resort.
   *
   * Two rows sit one whole card (plus the lift) apart when the screen is tall
   * enough, so a picked card of the lower row never covers the upper row's
   * corner; on short screens they overlap, but by less than the corner index.
   * The height is the one a full hand (RESERVE cards) needs, so the buttons
   * above the hand stay put as it empties down to one row.
   */
  layout() {
    const cards = [...this.el.children];
    const n = cards.length;
    const width = this.el.clientWidth || window.innerWidth;
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    // As large as the screen allows: a fifth of a phone's width, a seventh of
    // a short landscape screen's height, 100px at most.
    const base = Math.max(42, Math.min(vw / 4.5, vh / 7, 100));
    const stepFor = (perRow, w) => (perRow > 1 ? (width - w) / (perRow - 1) : w);
    const fit = (count) => {
      let cw = base;
      let rows = 1;
      if (count > 1 && stepFor(count, cw) < MIN_STEP) {
        rows = 2;
        while (cw > 36 && stepFor(Math.ceil(count / 2), cw) < MIN_STEP) cw -= 2;
      }
      return { cw, rows };
    };
    const { cw, rows } = fit(n);
    const full = fit(Math.max(n, RESERVE));
    const ch = cw * RATIO;
    const perRow = rows === 1 ? n : Math.ceil(n / 2);
    const step = Math.min(stepFor(perRow, cw), cw * MAX_STEP_RATIO);
    const lift = Math.round(ch * 0.2);
    // Apart when there is room (a tall phone), else overlapping by less than the index.
    const apart = vh >= TALL;
    const show = this.tight ? ROW_SHOW_TIGHT : ROW_SHOW;
    const rowGap = (c) => (apart ? c * RATIO + Math.round(c * RATIO * 0.2) : c * RATIO * show);
    const heightOf = (c, r) => Math.ceil(Math.round(c * RATIO * 0.2) + c * RATIO + (r - 1) * rowGap(c));
    const height = Math.max(heightOf(cw, rows), heightOf(full.cw, full.rows));
    // Fewer rows than the reserved height: the cards keep to the bottom, near the thumb.
    const top = height - heightOf(cw, rows);
    this.el.style.setProperty('--cw', `${cw}px`);
    // The corner index must fit in the strip each card leaves visible ("10"
    // is the widest rank), so crowded hands get a smaller index.
    const strip = n > 1 ? step : cw;
    this.el.style.setProperty('--card-font', `${Math.min(cw * 0.36, (strip - 4) / 1.3)}px`);
    this.el.style.setProperty('--lift', `${lift}px`);
    this.el.style.height = `${height}px`;
    cards.forEach((card, i) => {
      const row = rows === 1 ? 0 : Number(i >= perRow);
      const col = row ? i - perRow : i;
      const inRow = row ? n - perRow : perRow;
      const rowWidth = (inRow - 1) * step + cw;
      card.style.left = `${Math.round((width - rowWidth) / 2 + col * step)}px`;
      card.style.top = `${Math.round(top + lift + row * rowGap(cw))}px`;
      card.style.zIndex = String(i + 1);
    });
    this.rows = rows;
  }

  // ---- selection

  selection() {
    return this.ids.filter((id) => this.selected.has(id));
  }

  setSelection(ids, { highlight = false } = {}) {
    this.selected = new Set(ids.filter((id) => this.ids.includes(id)));
    this.highlight = highlight ? new Set(this.selected) : new Set();
    this.refresh();
    this.onChange(this.selection());
  }

  clear() {
    this.setSelection([]);
  }

  toggle(id, on = !this.selected.has(id)) {
    if (on) this.selected.add(id);
    else this.selected.delete(id);
    this.highlight.clear();
    this.refresh();
    this.onChange(this.selection());
  }

  // ---- pointer: tap toggles; dragging paints the first card's new state

  cardAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const card = el && el.closest('.hcard');
    return card && this.el.contains(card) ? card : null;
  }

  pointerDown(e) {
    if (!this.enabled || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const card = e.target.closest('.hcard');
    if (!card) return;
    e.preventDefault();
    const id = Number(card.dataset.id);
    const select = !this.selected.has(id);
    this.drag = { select, seen: new Set([id]), pointer: e.pointerId };
    this.cursor = Number(card.dataset.index);
    try {
      this.el.setPointerCapture(e.pointerId);
    } catch {
      /* synthetic events have no capturable pointer */
    }
    this.toggle(id, select);
  }

  pointerMove(e) {
    if (!this.drag || e.pointerId !== this.drag.pointer) return;
    const card = this.cardAt(e.clientX, e.clientY);
    if (!card) return;
    // A quick swipe skips cards between two pointer events: the cards of the
    // same row in between were crossed too.
    const from = this.cursor;
    const to = Number(card.dataset.index);
    if (from === to) return;
    const cards = this.el.children;
    const step = to > from ? 1 : -1;
    const sameRow = cards[from] && cards[from].style.top === card.style.top;
    for (let i = sameRow ? from + step : to; i !== to + step; i += step) {
      this.cursor = i;
      this.paint(cards[i]);
    }
    this.cursor = to;
    this.refresh();
  }

  /** The drag reaches `card`: it takes the drag's state, once. */
  paint(card) {
    const id = Number(card.dataset.id);
    if (this.drag.seen.has(id)) return;
    this.drag.seen.add(id);
    this.toggle(id, this.drag.select);
  }

  pointerUp() {
    const drag = this.drag;
    this.drag = null;
    if (!drag || !drag.select) return;
    const only = [...this.selected].every((id) => drag.seen.has(id)); // nothing picked besides
    // A tap (not a drag) that picked one card: smart selection may widen it to a reply.
    if (drag.seen.size === 1 && this.selected.size === 1) {
      const [id] = drag.seen;
      const pick = this.selected.has(id) ? this.smart(id) : null;
      if (pick && pick.length > 1) this.setSelection(pick);
    } else if (drag.seen.size > 1 && only) {
      // A drag across a run: the longest straight among the cards crossed.
      const pick = this.run(this.ids.filter((id) => drag.seen.has(id)));
      if (pick) this.setSelection(pick);
    }
  }

  // ---- keyboard (focus on the hand): arrows move, Space/X/Up/Down select

  moveCursor(delta) {
    if (!this.ids.length) return;
    this.cursor = Math.max(0, Math.min(this.ids.length - 1, this.cursor + delta));
    this.refresh();
  }

  toggleCursor(on) {
    const id = this.ids[this.cursor];
    if (id !== undefined && this.enabled) this.toggle(id, on);
  }

  keyDown(e) {
    const handled = this.handleKey(e.key, true);
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  /** Keys for moving and selecting; `focused` is true when the hand has focus. */
  handleKey(key, focused = false) {
    switch (key) {
      case 'ArrowLeft': this.moveCursor(-1); return true;
      case 'ArrowRight': this.moveCursor(1); return true;
      case 'Home': if (!focused) return false; this.cursor = 0; this.refresh(); return true;
      case 'End': if (!focused) return false; this.cursor = this.ids.length - 1; this.refresh(); return true;
      case 'ArrowUp': this.toggleCursor(true); return true;
      case 'ArrowDown': this.toggleCursor(false); return true;
      case 'x': case 'X': this.toggleCursor(); return true;
      case ' ': if (!focused) return false; this.toggleCursor(); return true;
      default: return false;
    }
  }
}
