// Puzzle mode (残局): endgames with every hand face up, where the player's side
// wins against perfect defence. The server replays the player's moves and
// answers every other seat with the exact solver (docs/API.md, "Puzzles"), so
// all the browser keeps is the list of the player's own moves per puzzle, and
// which puzzles are solved: in localStorage, written after every accepted move,
// so a reload lands back on the same position.

import { $, focusFirst, h, replace, svgPath, useStyle } from './dom.js';
import { t, onLanguageChange, usePart } from './i18n.js';
import { idsForNotation, notationOf, rankOf, ranksOfNotation } from './cards.js';
import { cardFace } from './cardview.js';
import { labelled, playChips, reasonParts } from './format.js';
import { savedPuzzles, savePuzzles } from './storage.js';

// The screen's words and styles come with this module, not in the first load.
await Promise.all([usePart('puzzle'), useStyle(new URL('../css/puzzles.css', import.meta.url))]);

const LEVELS = ['easy', 'medium', 'hard', 'expert'];

// ---- progress in this browser

function loadProgress() {
  const data = savedPuzzles(); // unreadable or blocked storage reads as null: start afresh
  if (data && typeof data === 'object') {
    return { solved: data.solved || {}, open: data.open || null, moves: data.moves || {}, variant: data.variant || 'classic' };
  }
  return { solved: {}, open: null, moves: {}, variant: 'classic' };
}

// storage full or blocked: progress lasts for this visit
const saveProgress = () => savePuzzles(progress);

let progress = loadProgress();
let home = () => {};
let wired = false; // initPuzzles ran
let list = null; // the server's puzzle summaries
let state = null; // the current puzzle's state
let selected = new Set();
let explanation = null; // the line shown, or null

// ---- talking to the server

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error?.message || response.statusText);
    error.code = data.error?.code || 'generic';
    error.params = data.error?.params || {};
    error.status = response.status;
    throw error;
  }
  return data;
}

// ---- the screen

function screen() {
  let el = $('puzzle-screen');
  if (el) return el;
  el = h('main', { id: 'puzzle-screen', class: 'screen puzzles', hidden: true },
    h('header', { class: 'pz-top' },
      h('button', { type: 'button', class: 'btn', id: 'pz-back', text: t('puzzle.home'), on: { click: back } }),
      h('h2', { id: 'pz-title' })),
    h('section', { id: 'pz-list', class: 'pz-list' }),
    h('section', { id: 'pz-board', class: 'pz-board', hidden: true }));
  document.body.append(el);
  return el;
}

function show() {
  for (const id of ['start-screen', 'table-screen']) $(id).hidden = true;
  screen().hidden = false;
  document.body.dataset.screen = 'puzzles';
}

function back() {
  if (state) {
    state = null;
    progress.open = null;
    saveProgress();
    renderList();
    return;
  }
  screen().hidden = true;
  progress.open = null;
  saveProgress();
  home();
  $('puzzles-btn')?.focus({ preventScroll: true }); // back on the button that opened the puzzles
}

/**
 * Draw the screen anew with `draw`, the keyboard on the same control again (by its id, or a card's
 * or a puzzle's id): each press redraws the screen, which dropped the focus to <body>. True when
 * the control pressed is there to take it back; false when it is gone or cannot take it.
 */
function keepingFocus(draw) {
  const el = document.activeElement;
  const inside = el && el !== document.body && screen().contains(el);
  const key = !inside ? null : el.id ? `#${el.id}` : el.dataset.id ? `[data-id="${el.dataset.id}"]` : null;
  draw();
  if (!focusFirst([key && screen().querySelector(key)])) return inside ? null : false;
  return true;
}

/** Open the list of puzzles (the first press of the button, before the module was loaded). */
export async function openPuzzleList() {
  await openList();
}

async function openList() {
  show();
  state = null;
  if (!list) list = (await call('GET', '/api/puzzles')).puzzles;
  renderList();
  screen().querySelector('.pz-tabs [aria-selected=true]')?.focus({ preventScroll: true });
}

function renderList() {
  document.body.dataset.puzzle = 'list';
  $('pz-board').hidden = true;
  const el = $('pz-list');
  el.hidden = false;
  $('pz-back').textContent = t('puzzle.home');
  $('pz-title').textContent = t('puzzle.title');
  const variant = progress.variant;
  const mine = list.filter((p) => p.variant === variant);
  const solved = mine.filter((p) => progress.solved[p.id]).length;
  const tabs = h('div', { class: 'pz-tabs', role: 'tablist' },
    ['classic', 'duel'].map((v) => h('button', {
      type: 'button', class: `btn${v === variant ? ' primary' : ''}`, role: 'tab', 'aria-selected': String(v === variant),
      id: `pz-tab-${v}`, text: t(`variant.${v}`), on: { click: () => { progress.variant = v; saveProgress(); keepingFocus(renderList); } },
    })));
  const sections = LEVELS.map((level) => {
    const items = mine.filter((p) => p.difficulty === level);
    return h('section', { class: 'pz-level' },
      h('h3', { text: t(`puzzle.level.${level}`) }),
      h('div', { class: 'pz-grid' }, items.map((p) => h('button', {
        type: 'button', class: `pz-item${progress.solved[p.id] ? ' solved' : ''}`, dataset: { id: p.id },
        on: { click: () => start(p.id, progress.solved[p.id] ? [] : progress.moves[p.id] || []) },
      },
      h('b', { text: t('puzzle.number', { n: Number(p.id.slice(-3)) }) }),
      // each part whole on a narrow tile ("14 / cards" split): a break only at the separator
      h('small', {}, h('span', { class: 'pz-part', text: t(`role.${p.role}`) }), '\u00a0· ',
        h('span', { class: 'pz-part', text: t('puzzle.cards', { n: p.hand }) })),
      progress.solved[p.id] ? tick() : null))));
  });
  replace(el, h('p', { class: 'pz-intro', text: t('puzzle.intro') }),
    tabs, h('p', { class: 'pz-count', text: t('puzzle.progress', { n: solved, total: mine.length }) }), sections);
}

/** The solved mark: drawn, not a font's symbol (some systems show those as empty boxes). */
function tick() {
  return svgPath('M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z', { label: t('puzzle.solved_mark'), className: 'pz-tick' });
}

async function start(id, moves = []) {
  show();
  try {
    state = moves.length ? await call('POST', `/api/puzzles/${id}/play`, { moves }) : await call('GET', `/api/puzzles/${id}`);
  } catch (error) {
    // a saved line the server no longer accepts (the puzzles changed): start the puzzle over
    if (!moves.length) throw error;
    state = await call('GET', `/api/puzzles/${id}`);
  }
  drawNew();
}

/** A new position from the server: nothing picked, no explanation, saved and drawn; once over, the
 * keyboard goes on from the verdict's button (the board was drawn anew), not from the page's top. */
function drawNew() {
  selected = new Set();
  explanation = null;
  remember();
  const kept = keepingFocus(renderBoard);
  if (state.status !== 'playing') $(state.status === 'solved' ? 'pz-next' : 'pz-again')?.focus({ preventScroll: true });
  else if (kept === null) $('pz-hand').querySelector('.pz-card')?.focus({ preventScroll: true }); // a new position: its hand
}

function remember() {
  progress.open = state.id;
  progress.moves[state.id] = state.moves;
  if (state.status === 'solved') progress.solved[state.id] = { points: state.points };
  saveProgress();
}

// ---- the board

function seatLabel(seat) {
  if (seat === state.seat) return t('puzzle.you', { role: t(`role.${seat === state.landlord ? 'landlord' : 'farmer'}`) });
  if (seat === state.partner) return t('puzzle.partner');
  if (seat === state.landlord) return t('puzzle.opponent_landlord');
  const farmers = [];
  for (let s = 1; s < state.players; s += 1) {
    const other = (state.seat + s) % state.players;
    if (other !== state.landlord && other !== state.seat) farmers.push(other);
  }
  return farmers.length > 1 ? t('puzzle.opponent_farmer_n', { n: farmers.indexOf(seat) + 1 }) : t('puzzle.opponent_farmer');
}

function actionChips(action) {
  if (action === 'pass') return h('span', { class: 'pz-pass', text: t('puzzle.passes') });
  const text = action.slice(5);
  const ranks = ranksOfNotation(text);
  const bomb = text === 'BR' || (ranks.length === 4 && ranks.every((r) => r === ranks[0]));
  return h('span', {}, playChips(text), bomb ? h('small', { class: 'pz-doubles', text: t('puzzle.doubles') }) : null);
}

function lineList(steps, className, role) {
  return h('ol', { class: className, role }, steps.map(([seat, action]) => h('li', {},
    h('span', { class: 'pz-who', text: t('said.who', { name: seatLabel(seat) }) }), actionChips(action))));
}

/** The player's last move and every move after it. */
function recentMoves() {
  for (let i = state.history.length - 1; i >= 0; i -= 1) {
    if (state.history[i][0] === state.seat) return state.history.slice(i);
  }
  return [];
}

function goalText() {
  const role = state.seat === state.landlord ? 'landlord' : 'farmer';
  const parts = [t(state.players === 2 ? `puzzle.goal.${role}_duel` : `puzzle.goal.${role}`)];
  if (state.handicap && role === 'farmer') parts.push(t('puzzle.goal.handicap', { n: state.handicap }));
  return parts.join(' ');
}

function renderBoard() {
  // for tests and styles: which puzzle, how it stands, how many of the player's moves
  document.body.dataset.puzzle = `${state.id}:${state.status}:${state.moves.length}`;
  $('pz-list').hidden = true;
  const board = $('pz-board');
  board.hidden = false;
  board.classList.toggle('moved', state.moves.length > 0);
  $('pz-back').textContent = t('puzzle.back');
  // number, variant, difficulty: a narrow screen breaks the line between them, never inside one
  const title = [t('puzzle.number', { n: Number(state.id.slice(-3)) }), t(`variant.${state.variant}`),
    t(`puzzle.level.${state.difficulty}`)];
  replace($('pz-title'), ...title.flatMap((part, i) => [i ? '\u00a0· ' : null, h('span', { class: 'pz-part', text: part })]));
  const others = [];
  for (let s = 1; s < state.players; s += 1) others.push((state.seat + s) % state.players);
  const seats = others.map((seat) => h('div', { class: `pz-seat${seat === state.partner ? ' partner' : ''}`, dataset: { seat: String(seat) } },
    h('div', { class: 'pz-name' }, h('b', { text: seatLabel(seat) }),
      h('small', { text: t('puzzle.cards', { n: ranksOfNotation(state.hands[seat]).length }) }),
      // the duel farmer's handicap line: it wins at this many cards
      state.handicap && seat !== state.landlord ? h('small', { text: t('puzzle.wins_at', { n: state.handicap }) }) : null),
    h('div', { class: 'pz-cards' }, idsForNotation(state.hands[seat]).map((id) => cardFace(id, 'mini')))));
  const last = state.trick.last;
  // The player's move and the defence's answers to it: once those passes end a trick, the trick
  // box says only "your lead", and what just happened was folded away in "Moves so far".
  const recent = recentMoves();
  // (an unstyled list is no list to Safari's reader: the role says it is one)
  const recentLine = recent.length ? h('section', { class: 'pz-recent', id: 'pz-recent', aria: { labelledby: 'pz-recent-title' } },
    h('h3', { id: 'pz-recent-title', text: t('puzzle.recent') }), lineList(recent, 'pz-line', 'list')) : null;
  // a play the last moves do not hold: the one the player passed on, from before its move
  const lastListed = last && recent.some(([seat, action]) => seat === last[0] && action === `play ${last[1]}`);
  const trick = h('div', { class: 'pz-trick', id: 'pz-trick' },
    last ? [h('span', { class: 'pz-who', text: t('said.who', { name: seatLabel(last[0]) }) }), playChips(last[1])]
      : h('span', { text: state.status === 'playing' ? t('puzzle.you_lead') : '' }));
  const playing = state.status === 'playing';
  const hand = h('div', { class: 'pz-hand', id: 'pz-hand', role: 'group', aria: { label: t('puzzle.your_hand') } },
    idsForNotation(state.hands[state.seat]).map((id) => h('button', {
      type: 'button', class: `pz-card${selected.has(id) ? ' selected' : ''}`, 'aria-pressed': String(selected.has(id)),
      disabled: !playing, dataset: { id: String(id) },
      on: { click: () => { if (selected.has(id)) selected.delete(id); else selected.add(id); keepingFocus(renderBoard); } },
    }, cardFace(id))));
  const canPass = playing && state.legal_actions.includes('pass');
  // once over, the moves' buttons go (greyed out, they only crowded the way on)
  const actions = h('div', { class: 'pz-actions' },
    playing ? [
      h('button', { type: 'button', class: 'btn primary', id: 'pz-play', disabled: !selected.size, text: t('puzzle.play'), on: { click: playSelected } }),
      h('button', { type: 'button', class: 'btn', id: 'pz-pass', disabled: !canPass, text: t('puzzle.pass'), on: { click: () => send('pass') } }),
      h('button', { type: 'button', class: 'btn', id: 'pz-hint', text: t('puzzle.hint'), on: { click: hint } })] : null,
    h('button', { type: 'button', class: 'btn', id: 'pz-solution', text: t('puzzle.solution'), on: { click: solution } }),
    // a failed puzzle says "start again" in its verdict, where a phone's eye already is
    state.status === 'failed' ? null : h('button', { type: 'button', class: 'btn', id: 'pz-retry', text: t('puzzle.retry'), on: { click: () => start(state.id) } }));
  // What is given (the goal, the other hands), then the play: side by side on a landscape phone
  replace(board,
    h('div', { class: 'pz-given' },
      h('p', { class: 'pz-goal', text: goalText() }),
      state.partner !== null ? h('p', { class: 'pz-note', id: 'pz-partner-note', text: t('puzzle.partner_note') }) : null,
      h('p', { class: 'pz-note', text: t('puzzle.defence_note') }),
      h('div', { class: 'pz-seats' }, seats)),
    recentLine,
    h('div', { class: 'pz-play' },
      // once over, the trick box would only repeat the last moves (or be empty)
      playing || !recentLine || (last && !lastListed) ? trick : null,
      result(),
      h('p', { class: 'pz-status', id: 'pz-status', role: 'status' }),
      hand,
      actions),
    explanation ? h('section', { class: 'pz-explain', id: 'pz-explain' }, h('h3', { text: t('puzzle.explain_title') }),
      h('p', { text: t('puzzle.explain_intro') }), lineList(explanation, 'pz-line')) : null,
    state.history.length ? h('details', { class: 'pz-history' }, h('summary', { text: t('puzzle.history') }),
      lineList(state.history, 'pz-line')) : null);
}

function result() {
  // the verdict is spoken (role status); its button and the line after it are not part of it
  if (state.status === 'solved') {
    return h('div', { class: 'pz-result win', id: 'pz-result' },
      h('p', { class: 'pz-verdict', role: 'status' }, h('b', { text: t('puzzle.solved') }), ' ',
        t(state.points >= state.best ? 'puzzle.points_best' : 'puzzle.points', { n: state.points, best: state.best })),
      h('div', { class: 'pz-then' }, h('button', { type: 'button', class: 'btn primary', id: 'pz-next', text: t('puzzle.next'), on: { click: next } })));
  }
  if (state.status === 'failed') {
    return h('div', { class: 'pz-result loss', id: 'pz-result' },
      h('p', { class: 'pz-verdict', role: 'status' }, h('b', { text: t('puzzle.failed') }), ' ', t('puzzle.failed_why')),
      h('div', { class: 'pz-then' }, h('button', { type: 'button', class: 'btn primary', id: 'pz-again', text: t('puzzle.retry'), on: { click: () => start(state.id) } })),
      // spaces, not margins, around "or": at a line's start a space goes, a margin stays
      state.missed?.length ? h('p', { class: 'pz-missed' }, ...labelled(t('puzzle.missed')),
        state.missed.map((a, i) => [i ? [' ', h('span', { class: 'pz-or', text: t('puzzle.or') }), ' '] : null, actionChips(a)])) : null,
      state.refutation?.length ? [h('p', { text: t('puzzle.refutation') }), lineList(state.refutation, 'pz-line')] : null);
  }
  return null;
}

/** The line under the trick: a hint, or (kind 'error') a refusal's reason, drawn and spoken as the table's errors. */
function status(parts, kind = '') {
  const el = $('pz-status');
  el.className = `pz-status ${kind}`.trim();
  if (kind === 'error') el.setAttribute('aria-live', 'assertive');
  else el.removeAttribute('aria-live');
  replace(el, parts);
}

async function send(action) {
  // The server lists the legal moves. A play not among them is judged by the engine
  // (/check, a 200 answer: no refused request), and its reason shown as the table shows it.
  if (!state.legal_actions.includes(action)) {
    let verdict = null;
    try {
      verdict = await call('POST', `/api/puzzles/${state.id}/check`, { moves: state.moves, action });
    } catch (error) {
      status(reasonParts(error.code, error.params), 'error');
      return;
    }
    if (!verdict.legal) {
      status(reasonParts(verdict.error.code, verdict.error.params || {}), 'error');
      return;
    }
  }
  const moves = [...state.moves, action];
  try {
    state = await call('POST', `/api/puzzles/${state.id}/play`, { moves });
  } catch (error) {
    status(reasonParts(error.code, error.params), 'error');
    return;
  }
  drawNew();
}

function playSelected() {
  if (!selected.size) return;
  send(`play ${notationOf([...selected])}`);
}

async function hint() {
  let action;
  try {
    ({ action } = await call('POST', `/api/puzzles/${state.id}/hint`, { moves: state.moves }));
  } catch (error) {
    status(reasonParts(error.code, error.params), 'error');
    return;
  }
  selected = new Set();
  if (action !== 'pass') {
    // pick cards of the hinted ranks from the hand
    const want = ranksOfNotation(action.slice(5));
    const ids = idsForNotation(state.hands[state.seat]);
    for (const rank of want) {
      const id = ids.find((i) => !selected.has(i) && rankOf(i) === rank);
      if (id !== undefined) selected.add(id);
    }
  }
  keepingFocus(renderBoard);
  status([t('puzzle.hint_is'), ' ', actionChips(action)]);
}

async function solution() {
  let answer;
  try {
    answer = await call('POST', `/api/puzzles/${state.id}/solution`, { moves: state.moves });
  } catch (error) {
    status(reasonParts(error.code, error.params), 'error');
    return;
  }
  explanation = answer.from_here || answer.from_start;
  keepingFocus(renderBoard);
  $('pz-explain')?.scrollIntoView({ block: 'nearest' });
}

function next() {
  const mine = list.filter((p) => p.variant === state.variant);
  const after = mine.slice(mine.findIndex((p) => p.id === state.id) + 1).find((p) => !progress.solved[p.id]);
  if (after) start(after.id);
  else back();
}

/**
 * Wire the start screen's Puzzles button; reopen the puzzle a reload interrupted.
 * `goHome` shows the start screen again.
 */
export async function initPuzzles({ goHome }) {
  if (wired) return;
  wired = true;

  home = goHome;
  screen();
  $('puzzles-btn')?.addEventListener('click', () => openList().catch(() => {}));
  onLanguageChange(() => {
    if (screen().hidden) return;
    if (state) keepingFocus(renderBoard);
    else if (list) keepingFocus(renderList);
  });
  if (progress.open) {
    try {
      list = (await call('GET', '/api/puzzles')).puzzles;
      await start(progress.open, progress.moves[progress.open] || []);
    } catch {
      progress.open = null;
      saveProgress();
    }
  }
}
