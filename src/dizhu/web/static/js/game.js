// The game controller: owns the server view, the round's events and how many
// of them the table shows, and turns player input into API calls.
//
// The server answers each action with every event that followed it (the
// computers play before it answers). Rather than jumping to the end, the
// controller reveals those events one at a time, with a short "thinking"
// pause before each computer decision, so the player can follow the trick.

import { ApiError, requestId } from './api.js';
import { foldEvents, applyEvent, isDecision, lastDealIndex } from './tablestate.js';
import { renderTable } from './table.js';
import { renderCounter, counterAlwaysShown } from './counter.js';
import { renderStatus, promptParts } from './status.js';
import { reasonParts, hintParts, playChips, describeEvent, actionLabel, spacedAfter } from './format.js';
import { SORT_MODES, notationOf, rankOf, ranksOfNotation } from './cards.js';
import { setting, setSetting, savedPicked, savePicked } from './storage.js';
import { t } from './i18n.js';
import { $, h } from './dom.js';
// The effects, the sounds and the records are needed once play starts, not for the
// first screen: loaded then (import()), they keep the first visit small.
const effects = () => import('./effects.js');
const sound = (name) => { import('./sound.js').then((m) => m.playSound(name)); };

// How long the landlord's news stays before a computer landlord leads (on
// top of the usual thinking pause): long enough to read who it is and to see
// the bottom cards. Not an animation, so reduced motion keeps it.
const LANDLORD_HOLD = 1500;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Put a sentence in the visually hidden live region. */
function announce(text) {
  const el = $('announce');
  if (el && text) el.textContent = text;
}

export class Game {
  /**
   * ui: {hand: HandView, controls: Controls, onOver(game), onLost(error), held()}:
   * onOver shows the settlement, onLost handles a game the server no longer
   * knows, held() says auto-play must wait (a dialog is open).
   */
  constructor(ui) {
    this.ui = ui;
    this.api = null;
    this.view = null;
    this.events = [];
    this.shown = 0; // events shown on the table so far
    this.ds = null; // display state after `shown` events
    this.busy = false; // a request is in flight
    this.animating = false;
    this.thinking = null; // seat shown as thinking
    this.message = null; // transient status message
    this.suggested = null; // hinted bid/pass action
    this.auto = false;
    this.autoTimer = null;
    this.sortMode = setting('sort');
    this.handKey = '';
    // Bumped whenever the event list is replaced (new game, new round, full
    // refresh): an animation of the old list must stop instead of applying
    // stale events to the new table.
    this.generation = 0;
  }

  /** The variant's name (to ask the server for another game of it). */
  get variant() {
    return this.view ? this.view.variant : 'classic';
  }

  /** The variant's rules and the human's seat, as the view gives them. */
  get seating() {
    return { rules: this.view.rules, me: this.me };
  }

  get me() {
    return this.view.human_seat ?? 0;
  }

  /** The table as shown (the fold of the events shown so far); null before a game. */
  get table() {
    return this.ds;
  }

  /** The phase the table shows: bidding, playing, over; null before a game. */
  get phase() {
    return this.ds ? this.ds.phase : null;
  }

  /** The events the table shows so far (the round's log reads them: nothing not yet seen). */
  shownEvents() {
    return this.events.slice(0, this.shown);
  }

  /** Nothing in flight: no request, no events being revealed. */
  get idle() {
    return !this.busy && !this.animating;
  }

  /** Draw the hand anew at the next render (its cards' names change with the language). */
  redrawHand() {
    this.handKey = '';
  }

  /** All the round's events (for the replay and the review, once the round is over). */
  roundEvents() {
    return [...this.events];
  }

  get obs() {
    return this.view.observation;
  }

  /** Show a game (new or resumed). With `animate`, play its events in. */
  async begin(api, view, { animate = false } = {}) {
    this.stopAuto();
    this.api = api;
    this.view = view;
    this.generation += 1;
    this.events = [...view.events];
    this.message = null;
    this.suggested = null;
    this.handKey = '';
    const start = animate ? lastDealIndex(this.events) : this.events.length;
    this.shown = start;
    this.ds = foldEvents(this.seating, this.events, start);
    const picked = savedPicked(); // (before the clear below saves an empty pick over it)
    this.ui.hand.clear();
    this.render();
    // the cards the player had picked at this very turn, before a reload (or a closed tab)
    if (!animate && picked && picked.gameId === api.gameId && picked.version === view.version && this.myTurn()) {
      this.ui.hand.setSelection(picked.ids);
    }
    await this.pump();
  }

  // ---- what is shown

  /** The player's cards as of `shown`: the final hand, minus what is still to come. */
  handIds() {
    let ids = [...this.obs.hand_ids];
    for (const ev of this.events.slice(this.shown)) {
      if (ev.type === 'play' && ev.seat === this.me) ids.push(...ev.cards);
      if (ev.type === 'landlord' && ev.seat === this.me) ids = ids.filter((id) => !ev.bottom_ids.includes(id));
    }
    return ids;
  }

  /**
   * The totals as of what the table shows: the server's already count a
   * round whose last moves are still being revealed, which would give the
   * result away.
   */
  shownTotals() {
    const totals = this.view.totals || [];
    const pending = this.events.slice(this.shown).find((ev) => ev.type === 'settle');
    if (!pending) return totals;
    return totals.map((total, seat) => total - (pending.points[seat] || 0));
  }

  /** True when the table has caught up and the server waits for us. */
  myTurn() {
    return !this.busy && !this.animating && this.shown === this.events.length && this.obs.legal_actions.length > 0;
  }

  legal() {
    return this.myTurn() ? this.obs.legal_actions : [];
  }

  render() {
    if (!this.view || !this.ds) return;
    const ds = this.ds;
    const hand = this.handIds();
    renderTable({ view: { ...this.view, totals: this.shownTotals() }, ds, thinking: this.thinking, handCount: hand.length });
    const key = `${this.sortMode}|${[...hand].sort((a, b) => a - b).join(',')}`;
    const handEnabled = ds.phase !== 'over';
    if (key !== this.handKey || this.ui.hand.enabled !== handEnabled) {
      this.handKey = key;
      this.ui.hand.render(hand, this.sortMode, handEnabled);
    }
    this.ui.controls.update({
      table: ds,
      phase: ds.phase,
      legal: this.legal(),
      called: ds.called,
      selection: this.ui.hand.selection().length,
      auto: this.auto,
      interval: setting('autoInterval'),
      busy: this.busy || this.animating,
      suggested: this.suggested,
      matchOver: this.view.match_over,
      sortMode: this.sortMode,
    });
    const counter = $('counter');
    const always = counterAlwaysShown(this.view.rules);
    const chosen = Boolean(setting('classicCounter'));
    // Once the round is over the hands lie face up: a counter that still calls them unseen
    // would contradict the table.
    const over = ds.phase === 'over';
    const showCounter = !over && (always || chosen);
    counter.hidden = !showCounter;
    // by the setting, not by the counter shown: the hand does not jump when the round ends
    this.ui.hand.setTight(always || chosen);
    $('counter-btn').hidden = always || over;
    $('counter-btn').setAttribute('aria-pressed', String(chosen));
    if (showCounter) renderCounter(counter, this.view.rules, hand, ds.playedIds);
    const legal = this.legal();
    const onlyPass = legal.length === 1 && legal[0] === 'pass';
    renderStatus(this.message, promptParts(ds, this.myTurn(), this.thinking, onlyPass), { myTurn: this.myTurn() });
    // Hooks for tests and styling: phase, whose turn, and a progress stamp
    // that changes whenever another event is shown.
    document.body.dataset.phase = ds.phase;
    document.body.dataset.progress = `${this.view.round_number}:${this.shown}`;
    document.body.dataset.turn = this.myTurn() ? 'me' : 'other';
    if (this.ui.afterRender) this.ui.afterRender();
  }

  /** Reveal pending events one by one; then settle or let auto-play continue. */
  async pump() {
    if (this.animating) return; // the running loop picks up the new events
    this.animating = true;
    const generation = this.generation;
    let replaced = false;
    try {
      // A thrown-in deal (everyone passed) is skipped: its hands are gone.
      // (the fold's `redealt` says so on the table until somebody bids).
      const deal = lastDealIndex(this.events);
      if (deal > this.shown) {
        this.shown = deal;
        this.ds = foldEvents(this.seating, this.events, deal);
        announce(t('status.redeal'));
      }
      while (this.shown < this.events.length) {
        const ev = this.events[this.shown];
        const speed = Number(setting('speed'));
        if (isDecision(ev) && ev.seat !== this.me && speed > 0) {
          this.thinking = ev.seat;
          this.render();
          await sleep(speed);
          if (generation !== this.generation) {
            replaced = true;
            break;
          }
        }
        this.thinking = null;
        const called = this.ds.called;
        applyEvent(this.ds, ev);
        if (ev.type === 'deal') {
          effects().then((m) => m.clearEffect());
          this.ui.hand.dealing = true; // the next drawing of the hand deals it in
          this.handKey = ''; // (even when the hand's cards were already drawn)
        }
        // Mark the bottom cards we take as landlord until our first move.
        if (ev.type === 'landlord' && ev.seat === this.me) this.ui.hand.fresh = new Set(ev.bottom_ids);
        this.shown += 1;
        this.render();
        this.celebrate(ev);
        // Screen readers hear what the others do (the table itself is visual).
        if (ev.type !== 'deal' && !(isDecision(ev) && ev.seat === this.me)) announce(describeEvent(ev, { called, table: this.ds }));
        // The landlord is decided: leave the deciding bid, the name and the
        // bottom cards in view before the computers go on.
        if (ev.type === 'landlord' && this.shown < this.events.length) {
          await sleep(LANDLORD_HOLD + Number(setting('speed')));
          if (generation !== this.generation) {
            replaced = true;
            break;
          }
        }
      }
    } finally {
      this.animating = false;
      this.thinking = null;
    }
    if (replaced) return this.pump(); // start over on the new events
    this.render();
    if (this.myTurn()) sound('turn');
    if (this.ds.phase === 'over') {
      this.stopAuto();
      // A spring's banner, or the last play's bomb, is seen whole before the results cover it.
      const banner = (await effects()).effectRemaining();
      await sleep(Math.max(banner, Math.min(1200, 300 + Number(setting('speed')))));
      if (generation === this.generation && this.ds.phase === 'over') this.ui.onOver(this);
    } else {
      this.scheduleAuto();
    }
  }

  /** A round event just shown live: its effect and sound; a round's end counts in the records. */
  async celebrate(ev) {
    const round = { variant: this.variant, level: this.view.level, round: `${this.view.game_id}:${this.view.round_number}` };
    const effect = (await effects()).effectOf(ev, this.me);
    if (ev.type !== 'settle') return;
    const won = ev.points[this.me] > 0;
    if (!effect) sound(won ? 'win' : 'lose');
    (await import('./records.js')).recordRound({ ...round, won });
  }

  /** Take a server view: append its events (or start over on a new round). */
  async ingest(view, since) {
    const newRound = view.round_number !== this.view.round_number;
    const consistent = since === undefined || view.event_count === since + view.events.length;
    this.view = view;
    if (newRound || !consistent || since === 0) {
      if (since !== 0 && since !== undefined) {
        const full = await this.api.view(0);
        this.view = full;
        view = full;
      }
      this.generation += 1;
      this.events = [...view.events];
      this.shown = newRound ? lastDealIndex(this.events) : Math.min(this.shown, this.events.length);
      this.handKey = '';
      this.ds = foldEvents(this.seating, this.events, this.shown);
      if (newRound) {
        // Card ids repeat between deals: forget the old round's selection.
        this.ui.hand.selected.clear();
        this.ui.hand.highlight.clear();
        this.ui.hand.fresh.clear();
        this.message = null;
        this.suggested = null;
      }
    } else {
      this.events.push(...view.events);
    }
    await this.pump();
  }

  /** Send a mutating request; the thinking seat is the one after us. */
  async send(call, { sinceZero = false } = {}) {
    if (this.busy) return false;
    this.busy = true;
    const since = sinceZero ? 0 : this.events.length;
    this.thinking = this.ds.phase === 'over' ? null : (this.me + 1) % this.ds.players;
    this.render();
    let view;
    try {
      view = await call({ version: this.view.version, since, requestId: requestId() });
    } catch (err) {
      this.busy = false;
      this.thinking = null;
      await this.handleError(err);
      return false;
    }
    this.busy = false;
    this.thinking = null;
    await this.ingest(view, since);
    return true;
  }

  async handleError(err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'stale') {
      // Another tab (or a lost answer) moved the game on: show the truth.
      await this.refresh();
      this.message = { kind: 'info', parts: () => [t('error.stale')] };
    } else if (['unknown_game', 'wrong_token', 'missing_token'].includes(err.code)) {
      this.stopAuto();
      this.ui.onLost(err);
      return;
    } else {
      this.message = { kind: 'error', parts: () => reasonParts(err.code, err.params, this.ds) };
    }
    this.render();
  }

  /** Re-read the whole view (after a stale version or a resume). */
  async refresh() {
    const view = await this.api.view(0);
    this.view = view;
    this.generation += 1;
    this.events = [...view.events];
    this.shown = this.events.length;
    this.ds = foldEvents(this.seating, this.events);
    this.handKey = '';
    this.render();
  }

  // ---- player actions

  clearTransient() {
    this.message = null;
    this.suggested = null;
    this.ui.hand.highlight.clear();
    this.ui.hand.fresh.clear();
  }

  async play() {
    if (!this.myTurn() || this.ds.phase !== 'playing') return;
    const cards = this.ui.hand.selection();
    if (!cards.length) {
      this.message = { kind: 'error', parts: () => reasonParts('empty', {}, this.ds) };
      this.render();
      return;
    }
    const action = `play ${notationOf(cards)}`;
    if (!this.obs.legal_actions.includes(action)) {
      // Not among the plays the server offers: ask the engine why (a 200 answer;
      // /act would refuse it with a 422, which the console reports as a failure).
      // The rules stay in one place: the page never judges cards itself.
      let verdict = null;
      try {
        verdict = await this.api.check(action, cards);
      } catch {
        verdict = null; // could not ask: let /act give its answer
      }
      if (verdict && !verdict.legal) {
        this.message = { kind: 'error', parts: () => reasonParts(verdict.error.code, verdict.error.params || {}, this.ds) };
        this.render();
        return;
      }
    }
    this.clearTransient();
    const ok = await this.send((o) => this.api.act(action, cards, o));
    // Accepted: the cards left the hand. Refused: they stay selected.
    if (ok) this.ui.hand.clear();
  }

  async pass() {
    if (!this.myTurn() || !this.obs.legal_actions.includes('pass') || this.ds.phase !== 'playing') return;
    this.clearTransient();
    const ok = await this.send((o) => this.api.act('pass', null, o));
    if (ok) this.ui.hand.clear();
  }

  async bid(action) {
    if (!this.myTurn() || this.ds.phase !== 'bidding' || !this.obs.legal_actions.includes(action)) return;
    this.clearTransient();
    await this.send((o) => this.api.act(action, null, o));
  }

  /**
   * Suggest a move. Pressed again at the same turn, the next of the server's
   * ranked alternatives (best first; an answer without them has one).
   */
  async hint() {
    if (!this.myTurn() || this.busy) return;
    // Asking for advice takes the turn back from auto-play, whatever the advice (a pass, a bid).
    if (this.auto) this.stopAuto();
    const turn = `${this.view.version}:${this.shown}`;
    if (this.hints && this.hints.turn === turn) {
      this.hints.index = (this.hints.index + 1) % this.hints.options.length;
      this.showHint();
      return;
    }
    this.busy = true;
    this.render();
    let hint;
    try {
      hint = await this.api.hint(this.view.version);
    } catch (err) {
      this.busy = false;
      await this.handleError(err);
      return;
    } finally {
      this.busy = false;
    }
    const alternatives = Array.isArray(hint.alternatives) && hint.alternatives.length ? hint.alternatives : [hint];
    this.hints = { turn, index: 0, options: alternatives };
    this.showHint();
  }

  showHint() {
    const { index, options } = this.hints;
    const hint = options[index];
    const ds = this.ds;
    // The search's figures for every option it weighed, so the options compare (a reason that
    // carries a rate says them already); they run on after the reason, taking no line of their own.
    const withFigures = hint.figures && !('rate' in (hint.reason?.params || {}));
    const figures = () => (withFigures ? h('small', { class: 'hint-figures', text: spacedAfter(t('status.hint_figures', hint.figures)) }) : null);
    // Built at each render, so the words follow a change of language.
    const why = () => h('span', { class: 'why' }, ...(hint.reason ? hintParts(hint.reason.key, hint.reason.params || {}, ds) : []), figures());
    const count = () => (options.length > 1 ? h('small', { class: 'hint-count', text: t('status.hint_count', { i: index + 1, n: options.length }) }) : null);
    this.suggested = null;
    if (hint.action.startsWith('play ')) {
      this.ui.hand.setSelection(hint.cards || [], { highlight: true });
      this.message = { kind: 'hint', parts: () => [playChips(hint.action.slice(5)), why(), count()] };
    } else {
      this.ui.hand.setSelection([]);
      this.suggested = hint.action;
      // Name the suggested action (it is also lit up among the buttons).
      const label = () => actionLabel(hint.action, { phase: ds.phase, called: ds.called, table: ds });
      this.message = { kind: 'hint', parts: () => [h('b', { text: label() }), why(), count()] };
    }
    this.render();
  }

  /**
   * Smart selection: answering a play, a tap on one card picks the smallest
   * of the server's legal replies that holds a card of its rank (fewest cards;
   * among equals, the first the server lists). Null when none, or when off.
   */
  smartReply(id) {
    if (setting('smartSelect') === false || !this.myTurn() || this.ds.phase !== 'playing' || !this.ds.lastPlay) return null;
    const rank = rankOf(id);
    let best = null;
    for (const action of this.obs.legal_actions) {
      if (!action.startsWith('play ')) continue;
      const ranks = ranksOfNotation(action.slice(5));
      if (ranks.includes(rank) && (!best || ranks.length < best.length)) best = ranks;
    }
    if (!best) return null;
    const pool = this.handIds().filter((x) => x !== id);
    const picked = [id];
    const needed = [...best];
    needed.splice(needed.indexOf(rank), 1);
    for (const r of needed) {
      const at = pool.findIndex((x) => rankOf(x) === r);
      if (at < 0) return null;
      picked.push(pool.splice(at, 1)[0]);
    }
    return picked;
  }

  /**
   * Smart selection of a drag across `ids`: the longest of the server's legal
   * plays made of one card of each rank crossed, three cards or more (so a
   * straight: a single has one rank, a rocket two); among equals the lowest.
   * The cards are the ones crossed. Null when none, or when off.
   */
  smartRun(ids) {
    if (setting('smartSelect') === false || !this.myTurn() || this.ds.phase !== 'playing') return null;
    const crossed = new Map(); // rank -> the first card of it crossed
    for (const id of ids) if (!crossed.has(rankOf(id))) crossed.set(rankOf(id), id);
    let best = null;
    for (const action of this.obs.legal_actions) {
      if (!action.startsWith('play ')) continue;
      const ranks = ranksOfNotation(action.slice(5));
      if (ranks.length < 3 || new Set(ranks).size !== ranks.length || !ranks.every((r) => crossed.has(r))) continue;
      const better = !best || ranks.length > best.length || (ranks.length === best.length && Math.min(...ranks) < Math.min(...best));
      if (better) best = ranks;
    }
    return best && best.map((r) => crossed.get(r));
  }

  cycleSort() {
    const i = SORT_MODES.indexOf(this.sortMode);
    this.sortMode = SORT_MODES[(i + 1) % SORT_MODES.length];
    setSetting('sort', this.sortMode);
    this.render();
  }

  selectionChanged() {
    // Picking a card takes the turn back from auto-play: the player wants to choose.
    if (this.auto && this.ui.hand.selection().length) this.stopAuto();
    // A new selection makes an old error or hint message moot.
    if (this.message && this.message.kind !== 'info' && !this.ui.hand.highlight.size) this.message = null;
    if (this.api) savePicked({ gameId: this.api.gameId, version: this.view.version, ids: this.ui.hand.selection() });
    this.render();
  }

  // ---- auto-play: the server plays our turn at the chosen interval

  toggleAuto() {
    if (this.auto) this.stopAuto();
    else {
      this.auto = true;
      this.scheduleAuto();
    }
    this.render();
  }

  stopAuto() {
    this.auto = false;
    clearTimeout(this.autoTimer);
    this.autoTimer = null;
  }

  scheduleAuto() {
    clearTimeout(this.autoTimer);
    this.autoTimer = null;
    if (!this.auto || !this.view || this.ds.phase === 'over') return;
    if (!this.myTurn()) return; // pump() calls again once the table catches up
    this.autoTimer = setTimeout(async () => {
      this.autoTimer = null;
      if (!this.auto || !this.myTurn()) return;
      // Not behind a dialog (the menu, the rules...): the round went on unseen and ended there.
      if (this.ui.held()) {
        this.scheduleAuto();
        return;
      }
      this.clearTransient();
      const ok = await this.send((o) => this.api.autoplay(o));
      if (ok) this.ui.hand.clear();
      else {
        // Refused (the reason is on the table): hand control back.
        this.stopAuto();
        this.render();
      }
    }, Number(setting('autoInterval')));
  }

  setInterval(ms) {
    setSetting('autoInterval', ms);
    this.scheduleAuto();
  }

  // ---- between rounds

  async anotherRound() {
    return this.send((o) => this.api.anotherRound(o), { sinceZero: true });
  }

  async newGame() {
    return this.send((o) => this.api.newGame(o), { sinceZero: true });
  }

  async newMatch() {
    return this.send((o) => this.api.newMatch(o), { sinceZero: true });
  }

  /** The settle event of the round on the table, once it is over. */
  settleEvent() {
    for (let i = this.events.length - 1; i >= 0; i -= 1) if (this.events[i].type === 'settle') return this.events[i];
    return null;
  }

  roundInProgress() {
    return !!this.view && this.obs.phase !== 'over';
  }
}
