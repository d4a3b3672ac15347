// The action bar. Buttons are created once and then shown, hidden or disabled
// from the game state, so keyboard focus survives re-renders. Only actions in
// the server's legal_actions are ever offered.

import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { actionLabel } from './format.js';

export const INTERVALS = [500, 1000, 2000, 3000];
const BID_ACTIONS = ['pass', 'bid 1', 'bid 2', 'bid 3', 'call', 'rob'];

export class Controls {
  /** `handlers`: play, pass, hint, sort, bid(action), autoToggle, interval(ms), results, next. */
  constructor(el, toolsEl, handlers) {
    this.el = el;
    this.handlers = handlers;
    const button = (name, cls, onClick) => h('button', { type: 'button', class: `btn ${cls}`, dataset: { ctl: name }, on: { click: onClick } });
    this.sort = button('sort', 'tool', () => handlers.sort());
    this.auto = button('auto', 'tool auto', () => handlers.autoToggle());
    this.interval = h('select', { class: 'interval', dataset: { ctl: 'interval' }, on: { change: () => handlers.interval(Number(this.interval.value)) } });
    this.hint = button('hint', 'tool hint', () => handlers.hint());
    this.pass = button('pass', 'action pass', () => handlers.pass());
    this.play = button('play', 'action primary play', () => handlers.play());
    this.bids = new Map(BID_ACTIONS.map((a) => [a, button(`bid-${a.replace(' ', '-')}`, `action bid${a === 'pass' ? '' : ' primary'}`, () => handlers.bid(a))]));
    // After a round: reopen the results, or go on.
    this.results = button('results', 'action', () => handlers.results());
    this.next = button('next-round', 'action primary', () => handlers.next());
    // Tools sit in the player's bar; the actions get the whole row below it.
    this.tools = toolsEl;
    replace(toolsEl, this.sort, this.auto, this.interval);
    this.actions = h('div', { class: 'actions' }, this.hint, ...this.bids.values(), this.pass, this.play);
    this.over = h('div', { class: 'actions over-actions' }, this.results, this.next);
    replace(el, this.actions, this.over);
    this.state = null;
  }

  /** Relabel (language change) and apply the latest state. */
  relabel() {
    this.sort.textContent = t('ctl.sort');
    this.hint.textContent = t('ctl.hint');
    this.hint.title = t('ctl.hint_key');
    this.pass.textContent = t('act.pass');
    this.pass.title = t('ctl.pass_key');
    this.play.textContent = t('ctl.play');
    this.results.textContent = t('menu.results');
    this.play.title = t('ctl.play_key');
    this.interval.setAttribute('aria-label', t('ctl.interval'));
    this.interval.title = t('ctl.interval'); // said on hover too: "1 s" alone does not say what it paces
    const chosen = this.interval.value;
    replace(this.interval, INTERVALS.map((ms) => h('option', { value: String(ms), text: t('ctl.seconds', { n: ms / 1000 }) })));
    if (chosen) this.interval.value = chosen;
    if (this.state) this.update(this.state);
  }

  /**
   * state: {phase, legal (array of action texts, empty unless it is our turn),
   * called (duel bidding), selection (count), auto (bool), interval (ms),
   * busy (a request or an animation is running), suggested (hinted action),
   * table (the display state: the bidding style names the buttons)}
   */
  update(state) {
    this.state = state;
    const { phase, legal, selection, auto, busy, suggested } = state;
    const myTurn = legal.length > 0 && !busy;
    const bidding = phase === 'bidding';
    this.interval.value = String(state.interval);
    // The sort button says which order the hand is in now.
    const order = t(`sort.${state.sortMode || 'asc'}`);
    this.sort.title = t('ctl.sort_key', { order });
    this.sort.setAttribute('aria-label', order);
    this.auto.textContent = auto ? t('ctl.auto_stop') : t('ctl.auto');
    this.auto.title = t('ctl.auto_key');
    this.auto.setAttribute('aria-pressed', auto ? 'true' : 'false');
    this.auto.classList.toggle('on', auto);
    this.hint.disabled = !myTurn;
    this.sort.disabled = phase === 'over';
    for (const [action, btn] of this.bids) {
      btn.hidden = !(bidding && legal.includes(action));
      btn.disabled = !myTurn;
      btn.textContent = actionLabel(action, { phase: 'bidding', called: state.called, table: state.table });
      btn.classList.toggle('suggested', bidding && suggested === action);
    }
    const playing = phase === 'playing';
    this.pass.hidden = !(playing && legal.includes('pass'));
    this.pass.disabled = !myTurn;
    this.pass.classList.toggle('suggested', playing && suggested === 'pass');
    this.play.hidden = !playing;
    this.play.disabled = !myTurn || selection === 0;
    this.el.classList.toggle('waiting', !myTurn);
    const over = phase === 'over';
    this.tools.hidden = over;
    this.actions.hidden = over;
    this.over.hidden = !over;
    this.next.textContent = state.matchOver ? t('menu.new_match') : t('settle.another_round');
  }
}
