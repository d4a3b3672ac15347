// A first game's guide: a few coach marks pointing at the hand, the buttons,
// the top bar and the menu, one at a time. Skippable; shown once by itself
// (remembered), and again from the menu.

import { $, h, replace } from './dom.js';
import { setting, setSetting } from './storage.js';
import { t } from './i18n.js';

// [element id to point at, text key]
const STEPS = [
  ['hand', 'coach.hand'],
  ['controls', 'coach.controls'],
  ['info', 'coach.info'],
  ['menu-btn', 'coach.menu'],
];

export class Coach {
  constructor() {
    this.el = $('coach');
    this.step = 0;
    this.el.addEventListener('close', () => {
      document.querySelectorAll('.coach-target').forEach((el) => el.classList.remove('coach-target'));
      setSetting('coachSeen', true);
    });
    window.addEventListener('resize', () => { if (this.el.open) this.place(); });
  }

  get open() {
    return this.el.open;
  }

  /** Start the guide unless the player has seen it (or `always`, from the menu). */
  maybeStart({ always = false } = {}) {
    if (!always && setting('coachSeen')) return false;
    this.step = 0;
    this.render();
    if (!this.el.open) this.el.showModal();
    this.el.querySelector('[data-ctl=coach-next]').focus();
    return true;
  }

  render() {
    const [, key] = STEPS[this.step];
    const last = this.step === STEPS.length - 1;
    replace(this.el,
      h('p', { class: 'coach-step', text: t('coach.step', { i: this.step + 1, n: STEPS.length }) }),
      h('p', { id: 'coach-text', class: 'coach-text', text: t(key) }),
      h('div', { class: 'row' },
        last ? null : h('button', { type: 'button', class: 'btn', dataset: { ctl: 'coach-skip' }, text: t('coach.skip'), on: { click: () => this.el.close() } }),
        h('button', { type: 'button', class: 'btn primary', dataset: { ctl: 'coach-next' }, text: last ? t('coach.done') : t('coach.next'), on: { click: () => this.next() } })));
    this.place();
  }

  next() {
    if (this.step >= STEPS.length - 1) {
      this.el.close();
      return;
    }
    this.step += 1;
    this.render();
    this.el.querySelector('[data-ctl=coach-next]').focus();
  }

  /** Put the mark beside its element (above it when it sits low on the screen). */
  place() {
    document.querySelectorAll('.coach-target').forEach((el) => el.classList.remove('coach-target'));
    const target = $(STEPS[this.step][0]);
    if (!target) return;
    target.classList.add('coach-target');
    const box = target.getBoundingClientRect();
    const below = box.top + box.height / 2 < window.innerHeight / 2;
    this.el.classList.toggle('below', below);
    this.el.classList.toggle('above', !below);
    // CSSOM (allowed by the CSP): the mark's place depends on the layout.
    if (below) {
      this.el.style.top = `${Math.round(Math.min(box.bottom + 10, window.innerHeight - 160))}px`;
      this.el.style.bottom = 'auto';
    } else {
      this.el.style.bottom = `${Math.round(Math.min(window.innerHeight - box.top + 10, window.innerHeight - 160))}px`;
      this.el.style.top = 'auto';
    }
  }
}
