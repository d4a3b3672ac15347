// The post-round review (docs/REVIEW.md): the replay of the round, with the
// human's decisions marked on a timeline by grade and, at each one, what the
// move made was worth against the best move found, why, and what was best with
// every card face up. The server computes it; this module asks for it, shows
// the progress, and follows the replay's steps.

import { focusFirst, h, replace, svgPath, useStyle } from './dom.js';
import { lastDealIndex } from './tablestate.js';
import { actionLabel, figure as formatFigure, hintParts, labelled, signed, spacedAfter } from './format.js';
import { t, usePart } from './i18n.js';

// The review's words and styles come with this module, not in the first load; the replay's
// styles first, as review.css builds on them (this module may load before replay.js).
await Promise.all([usePart('review'), ...['replay', 'review'].map((name) => useStyle(new URL(`../css/${name}.css`, import.meta.url)))]);

const GRADES = ['good', 'inaccuracy', 'mistake', 'blunder'];
const POLL_MS = 600;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class ReviewPanel {
  /** `replay`: the Replay whose steps the review follows (it tells of them by events). */
  constructor(replay) {
    this.replay = replay;
    this.panel = null;
    this.opening = null;
    replay.el.addEventListener('replay-step', () => this.render());
    replay.el.addEventListener('replay-close', () => this.detach());
    replay.el.addEventListener('keydown', (e) => {
      // [ and ] jump between decisions; the replay's own keys step through every event.
      if (!this.review || (e.key !== '[' && e.key !== ']')) return;
      e.preventDefault();
      this.jump(e.key === ']' ? 1 : -1);
    });
  }

  /**
   * Open the replay of a finished round with its review: `number` is the round's
   * number, `seating` {rules, me} as for the replay, `onClose` as the replay's.
   */
  async open({ api, seating, events, number, onClose = null }) {
    const opening = {};
    this.opening = opening; // a late answer for an earlier opening is dropped
    Object.assign(this, { api, seating, events, number, review: null, progress: null, error: null });
    this.offset = lastDealIndex(events);
    this.panel = h('section', { class: 'review-panel', id: 'review', aria: { labelledby: 'review-title' } });
    this.replay.el.insertBefore(this.panel, this.replay.el.querySelector('.replay-nav'));
    this.replay.el.classList.add('reviewing');
    this.setState('loading');
    this.replay.show(seating, events, onClose);
    // Where the whole overlay scrolls (a phone upright), the panel is under the replay's seats:
    // its progress, then its first decision, are brought into sight (else "Review" seemed to open
    // the replay alone). Beside the replay (a landscape phone, a desktop) it is in sight already.
    const under = getComputedStyle(this.replay.el).overflowY === 'auto';
    if (under) this.panel.scrollIntoView({ block: 'nearest' });
    try {
      let answer = await api.review(number, true);
      while (answer.status !== 'done') {
        if (this.opening !== opening) return;
        this.progress = answer.progress;
        this.render();
        await sleep(POLL_MS);
        answer = await api.review(number, false);
      }
      if (this.opening !== opening) return;
      this.review = answer.review;
      this.setState('done');
      const first = this.review.decisions[0];
      if (first && this.replay.step === 0) {
        if (under) this.goToStep(first.event - this.offset);
        else this.replay.go(first.event - this.offset);
      }
      else this.render();
    } catch (err) {
      if (this.opening !== opening) return;
      this.error = err;
      this.setState('error');
      this.render();
    }
  }

  setState(state) {
    this.replay.el.dataset.review = state;
  }

  detach() {
    this.opening = null;
    if (this.panel) this.panel.remove();
    this.panel = null;
    this.review = null;
    this.replay.el.classList.remove('reviewing');
    delete this.replay.el.dataset.review;
  }

  /** The decision shown at the replay's step (its index), or -1. */
  current() {
    if (!this.review) return -1;
    return this.review.decisions.findIndex((d) => d.event - this.offset === this.replay.step);
  }

  goTo(index) {
    const d = this.review.decisions[index];
    if (d) this.goToStep(d.event - this.offset);
  }

  jump(direction) {
    const target = this.jumpTarget(direction);
    if (target !== undefined) this.goToStep(target);
  }

  /** Go to a decision the player picked, and bring its explanation into sight (on a phone it is
   * under the replay's seats, out of the screen). */
  goToStep(step) {
    this.replay.go(step);
    const detail = this.panel && this.panel.querySelector('.review-detail');
    if (!detail) return;
    const panel = this.panel;
    const line = panel.querySelector('.review-line');
    if (!line || getComputedStyle(panel).overflowY === 'visible') { // (a phone's page scrolls instead)
      panel.style.removeProperty('--room');
      detail.scrollIntoView({ block: 'nearest' });
      // ... but not so far that the seats go under the title bar that stays at the top: the end
      // of a long explanation may wait below (a scroll away), the play it is about may not
      const head = this.replay.el.querySelector('.replay-head');
      const seat = this.replay.el.querySelector('.replay-seat');
      const over = head && seat ? head.getBoundingClientRect().bottom - seat.getBoundingClientRect().top : 0;
      if (over > 0) this.replay.el.scrollTop -= over;
      return;
    }
    // Where the panel scrolls on its own (beside the replay on a landscape phone, under it on a
    // computer) scrolled just enough it cut the title or the counts in half: it scrolls to the
    // marks' line instead, what goes out of sight above going whole. The room to scroll that far
    // is the panel's (--room), which a step's new explanation does not take away.
    const box = panel.getBoundingClientRect();
    const shown = detail.getBoundingClientRect();
    if (shown.top >= box.top && shown.bottom <= box.bottom) return;
    const top = line.getBoundingClientRect().top - box.top - panel.clientTop + panel.scrollTop;
    const room = parseFloat(panel.style.getPropertyValue('--room')) || 0;
    const short = panel.clientHeight - (panel.scrollHeight - room - top);
    panel.style.setProperty('--room', `${Math.max(0, Math.ceil(short))}px`);
    panel.scrollTop = top;
  }

  render() {
    if (!this.panel) return;
    // The panel is drawn anew at each step: keep the keyboard focus on the same control.
    const focused = this.panel.contains(document.activeElement) ? document.activeElement : null;
    const again = focused && (focused.dataset.decision !== undefined ? `[data-decision="${focused.dataset.decision}"]`
      : focused.dataset.ctl ? `[data-ctl="${focused.dataset.ctl}"]` : null);
    this.draw();
    // The last (first) decision reached, its button is disabled: the way back among the
    // decisions, rather than the replay's step by step.
    if (focused) {
      focusFirst([again && this.panel.querySelector(again), ...['review-prev', 'review-next']
        .map((ctl) => this.panel.querySelector(`[data-ctl=${ctl}]`)), this.replay.el.querySelector('#replay-next')]);
    }
  }

  draw() {
    const title = h('h3', { id: 'review-title', text: t('review.title') });
    if (this.error) {
      const limited = this.error.status === 429;
      replace(this.panel, title, h('p', { class: 'review-status', role: 'status', text: t(limited ? 'review.limited' : 'review.failed') }));
      return;
    }
    if (!this.review) {
      const { done = 0, total = 0 } = this.progress || {};
      replace(this.panel, title,
        h('p', { class: 'review-status', role: 'status', text: t('review.working', { done, total }) }),
        h('progress', { class: 'review-progress', max: String(Math.max(1, total)), value: String(done), aria: { label: t('review.title') } }));
      return;
    }
    const decisions = this.review.decisions;
    if (!decisions.length) {
      replace(this.panel, title, h('p', { class: 'review-status', text: t('review.none') }));
      return;
    }
    const at = this.current();
    const counts = this.review.counts;
    replace(this.panel, title,
      h('p', { class: 'review-counts' }, GRADES.map((g) => h('span', { class: `review-chip grade-${g}`, text: `${t(`review.grade.${g}`)} ${counts[g]}` }))),
      h('div', { class: 'review-line' },
        h('button', { type: 'button', class: 'btn icon review-step', dataset: { ctl: 'review-prev' }, aria: { label: t('review.prev') }, disabled: this.jumpTarget(-1) === undefined, on: { click: () => this.jump(-1) } }, svgPath('M15.4 4.6 16.8 6l-6 6 6 6-1.4 1.4L8 12z')),
        h('ol', { class: 'review-timeline', aria: { label: t('review.timeline') }, on: { scroll: (e) => moreMarks(e.target) } },
          decisions.map((d, i) => h('li', {},
            h('button', {
              type: 'button',
              class: `review-mark grade-${d.grade}${i === at ? ' current' : ''}`,
              dataset: { decision: String(i), grade: d.grade },
              aria: { label: t('review.mark', { i: i + 1, grade: t(`review.grade.${d.grade}`) }), current: i === at ? 'step' : null },
              text: String(i + 1),
              on: { click: () => this.goTo(i) },
            })))),
        h('button', { type: 'button', class: 'btn icon review-step', dataset: { ctl: 'review-next' }, aria: { label: t('review.next') }, disabled: this.jumpTarget(1) === undefined, on: { click: () => this.jump(1) } }, svgPath('M8.6 4.6 7.2 6l6 6-6 6 1.4 1.4L16 12z'))),
      at >= 0 ? this.detail(decisions[at]) : h('p', { class: 'review-hint', text: t('review.pick') }));
    // Where the marks scroll sideways (a landscape phone), the current one is brought to the middle.
    const timeline = this.panel.querySelector('.review-timeline');
    const current = timeline.querySelector('.current');
    if (current && timeline.scrollWidth > timeline.clientWidth) {
      const [box, mark] = [timeline, current].map((el) => el.getBoundingClientRect());
      timeline.scrollLeft += mark.left + mark.width / 2 - (box.left + box.width / 2);
    }
    moreMarks(timeline);
  }

  /** The replay step of the next (1) or previous (-1) decision from here, if any. */
  jumpTarget(direction) {
    const steps = this.review.decisions.map((d) => d.event - this.offset);
    const here = this.replay.step;
    return direction > 0 ? steps.find((s) => s > here) : [...steps].reverse().find((s) => s < here);
  }

  /** What one decision was worth, the better move and why, and the face-up figure. */
  detail(d) {
    const table = { players: this.seating.rules.players, me: this.seating.me, rules: this.seating.rules };
    // a play with its kind, as the replay's caption names it ("Single 3", not "3")
    const label = (f) => actionLabel(f.action, { phase: d.phase, called: this.called(d), table, kind: f.kind });
    const figure = (f) => t('review.figure', { points: signed(f.points, 1), chance: Math.round(100 * f.win_chance) });
    const thresholds = this.review.thresholds;
    const tag = (text) => { const [words, gap] = labelled(text); return [h('span', { class: 'review-label', text: words }), gap]; };
    return h('div', { class: 'review-detail', aria: { live: 'polite' } },
      h('p', { class: `review-grade grade-${d.grade}` },
        h('b', { text: t(`review.grade.${d.grade}`) }),
        d.loss > 0 ? spacedAfter(t('review.loss', { loss: plain(d.loss), n: Math.round(d.loss * 100) / 100 })) : null),
      h('p', {}, ...tag(t('review.made')), h('b', { text: label(d.made) }), `\u00a0— ${figure(d.made)}`),
      d.better ? h('p', {}, ...tag(t('review.best')), h('b', { text: label(d.best) }), `\u00a0— ${figure(d.best)}`) : null,
      h('p', { class: 'review-why' }, ...tag(t('review.why')), hintParts(d.reason.key, d.reason.params, table)),
      // Face up, the move made may be the best as well, at another figure (the true deal, not the
      // average over deals): said so, rather than the same move named twice with two figures.
      d.face_up_best.action === d.made.action
        ? h('p', { class: 'review-faceup' },
          ...tag(t('review.face_up_same')), t('review.face_up_points', { points: signed(d.face_up_best.points, 1) }))
        : h('p', { class: 'review-faceup' },
          ...tag(t('review.face_up')), h('b', { text: label(d.face_up_best) }),
          `\u00a0— ${t('review.face_up_points', { points: signed(d.face_up_best.points, 1) })}`),
      h('details', { class: 'review-about' },
        h('summary', { text: t('review.about') }),
        h('p', { text: t('review.about_text', { inaccuracy: plain(thresholds.inaccuracy), mistake: plain(thresholds.mistake), blunder: plain(thresholds.blunder) }) })));
  }

  /** Duel bidding: whether someone had called before this decision (a pass is then "no rob"). */
  called(d) {
    let called = false;
    for (const ev of this.events.slice(this.offset, d.event)) if (ev.type === 'bid' && ev.action === 'call') called = true;
    return called;
  }
}

/** A loss or a threshold: up to two decimals, none when they are zeros. */
const plain = (x) => formatFigure(x, { upTo: 2 });

/**
 * Which ends of a sideways-scrolling row of marks have more marks past them (data-more: "start",
 * "end", both or none): only those fade out, so a row at its start shows its first mark whole.
 */
function moreMarks(timeline) {
  const past = timeline.scrollWidth - timeline.clientWidth;
  const more = [timeline.scrollLeft > 1 ? 'start' : '', timeline.scrollLeft < past - 1 ? 'end' : ''].filter(Boolean);
  timeline.dataset.more = more.join(' ');
}
