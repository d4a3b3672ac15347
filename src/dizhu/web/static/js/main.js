// Entry point: loads the language, wires the screens, dialogs and keyboard,
// and resumes a saved game (a reload, a rotation or a reopened tab lands back
// on the same table).

import { $, canTakeFocus, h, replace, choices } from './dom.js';
import { GameApi, ApiError } from './api.js';
import { LANGUAGES, setLanguage, language, onLanguageChange, t } from './i18n.js';
import { playerLanguage } from './prefetch.js';
import { savedGame, saveGame, forgetGame, savedPuzzles, setting, setSetting } from './storage.js';
// Loaded when first needed (import()), so the first visit downloads less:
// the results, the replay and the rules page come after the first round or on request.
const lazy = {
  settlement: () => import('./settlement.js'),
  replay: () => import('./replay.js'),
  rules: () => import('./rules.js'),
  records: () => import('./records.js'),
  review: () => import('./review.js'),
  puzzles: () => import('./puzzles.js'),
};
import { levelName, reasonParts } from './format.js';
import { cardFace } from './cardview.js';

// The table (game.js, hand.js, controls.js and what they import) is not needed to draw the
// start screen: it loads beside it (index.html asks for its files early, at low priority) and
// is made by theTable() before the first table is shown. Until then these are null.
let game = null;
let hand = null;
let controls = null;
let counterAlwaysShown = null; // counter.js's, for the menu
let tableMade = null; // theTable()'s promise
let replay = null; // replay.js's Replay, made on first use
let review = null; // review.js's ReviewPanel, made with the replay on first use
let coach = null; // coach.js, loaded when the guide is first shown
let replayLevel = null; // the level chosen for replaying a deal, while the results stay open

// ---- screens, dialogs, toasts

function showScreen(name) {
  $('start-screen').hidden = name !== 'start';
  $('table-screen').hidden = name !== 'table';
  if ($('puzzle-screen')) $('puzzle-screen').hidden = true; // puzzles.js shows its own screen
  document.body.dataset.screen = name;
  // The control pressed went with the screen it was on, and the keyboard to <body> (or a hidden
  // button): it goes to the new screen's way on.
  if (name === 'start') {
    refreshStart();
    if (!$('start-screen').contains(document.activeElement) && !untouched()) {
      ($('continue-btn').hidden ? $('start-btn') : $('continue-btn')).focus({ preventScroll: true });
    }
  }
  if (name === 'table') {
    if (!$('table-screen').contains(document.activeElement)) focusHand();
    requestAnimationFrame(() => hand.layout()); // shown only once theTable() is done
  }
}

let toastTimer;
function toast(text) {
  const el = $('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

/** Ask a yes/no question in a modal; resolves true for yes. */
function confirmAction(text, yesLabel) {
  const dialog = $('confirm-dialog');
  $('confirm-text').textContent = text;
  $('confirm-yes').textContent = yesLabel || t('common.ok');
  return new Promise((resolve) => {
    const done = (answer) => {
      $('confirm-yes').onclick = null;
      $('confirm-no').onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    $('confirm-yes').onclick = () => done(true);
    $('confirm-no').onclick = () => done(false);
    dialog.onclose = () => done(false);
    dialog.showModal();
    $('confirm-no').focus();
  });
}

/**
 * Give the keyboard back to the hand after a tool or a dialog of the table:
 * Enter then plays the selected cards instead of pressing that button again.
 */
function focusHand() {
  if (document.body.dataset.screen !== 'table' || anyDialogOpen()) return;
  if (untouched()) return;
  // The round over, the hand is empty: the way on takes the keyboard (the empty hand drew a
  // focus box across the screen, over nothing).
  if (game && game.ds && game.ds.phase === 'over') {
    // The next round on its way, that button is about to go: the new round's first drawing
    // gives the keyboard to the hand (afterRender).
    if (game.busy) return;
    const next = $('controls').querySelector('[data-ctl=next-round]');
    if (next && next.offsetParent) {
      next.focus({ preventScroll: true });
      return;
    }
  }
  hand.el.focus({ preventScroll: true });
}

/**
 * A touch screen before its first touch or key: a page just (re)loaded draws the focus ring of
 * whatever a script focuses then (once the player has touched, it does not), and a phone has no
 * keys to need it.
 */
function untouched() {
  return !interacted && matchMedia('(pointer: coarse)').matches;
}
let interacted = false;
for (const type of ['pointerdown', 'keydown']) addEventListener(type, () => { interacted = true; }, { capture: true, once: true });

/** A dialog of the table closed: the results that waited behind it, else the keyboard to the hand. */
function afterDialog() {
  if (resultsWaiting && !anyDialogOpen() && document.body.dataset.screen === 'table' && game && game.ds
      && game.ds.phase === 'over') {
    resultsWaiting = false;
    showSettlement();
    return;
  }
  focusHand();
}
let resultsWaiting = false;

function anyDialogOpen() {
  return [...document.querySelectorAll('dialog')].some((d) => d.open); // the replay is one too
}

// ---- the start screen

function fillLanguageSelects() {
  for (const select of document.querySelectorAll('.language-select')) {
    replace(select, LANGUAGES.map(({ code, name }) => h('option', { value: code, text: name, lang: code })));
    select.value = language();
  }
}

function refreshStart() {
  const saved = savedGame();
  const button = $('continue-btn');
  button.hidden = !saved;
  // One way forward stands out: going on with the saved game when there is one.
  $('start-btn').classList.toggle('primary', !saved);
  if (saved) {
    const info = [t(`variant.${saved.variant}`), levelName(saved.level)];
    if (game?.view && game.view.game_id === saved.gameId) {
      info.push(t('table.round', { n: game.view.match_round ?? game.view.round_number }));
    }
    $('continue-info').textContent = info.join(' · ');
  }
  const form = $('start-form');
  form.elements.variant.value = setting('variant');
  form.elements.level.value = setting('level');
  $('start-language').value = language();
}

/** Is there a match worth keeping: a round being played, or points not yet settled by a match's end? */
function matchInProgress() {
  const saved = savedGame();
  if (!saved) return false;
  if (!game?.view || game.view.game_id !== saved.gameId) return true; // not loaded: assume so
  return game.roundInProgress() || (!game.view.match_over && game.view.totals.some((n) => n !== 0));
}

// Deal codes as the server makes them (docs/API.md): the variant, a dash, the code.
const DEAL_CODE = /^([a-z]+)-[A-Za-z0-9._:-]{1,128}$/;

/** A deal code from what was typed or pasted (a code, or a link ending in #deal=<code>); null if none. */
export function readDealCode(text, variants = choices('variant')) {
  let code = String(text || '').trim();
  const at = code.indexOf('#deal=');
  if (at >= 0) code = code.slice(at + 6);
  try {
    code = decodeURIComponent(code);
  } catch {
    return null;
  }
  const match = DEAL_CODE.exec(code);
  return match && variants.includes(match[1]) ? { code, variant: match[1] } : null;
}

/** The link that opens a deal on this site. */
export function dealLink(code) {
  return `${location.origin}${location.pathname}#deal=${encodeURIComponent(code)}`;
}

async function startNewGame({ variant, level, dealCode = null }) {
  // Leaving a match behind (its round or its points): ask first.
  if (matchInProgress()) {
    const [question, yes] = dealCode ? ['confirm.replay_deal', 'confirm.replay_deal_yes'] : ['confirm.abandon', 'confirm.abandon_yes'];
    if (!(await confirmAction(t(question), t(yes)))) return false;
  }
  say('start-error', null);
  try {
    await theTable();
    const { api, view } = await GameApi.create({ variant, level, language: language(), dealCode });
    saveGame({ gameId: api.gameId, token: api.token, variant, level });
    closeDialogs();
    showScreen('table');
    await game.begin(api, view, { animate: true });
    if (!setting('coachSeen')) await showGuide(); // the first game's guide, once
    return true;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const text = say('start-error',
      () => reasonParts(err.code, err.params).map((p) => (typeof p === 'string' ? p : p.textContent)).join(''));
    showScreen('start');
    toast(text);
    return false;
  }
}

/** Play the deal `code` (typed, pasted or from a #deal= link) at `level`. */
async function playDeal(text, level = setting('level')) {
  const deal = readDealCode(text);
  dealFault(deal ? null : () => t('start.bad_code'));
  if (!deal) return false;
  return startNewGame({ variant: deal.variant, level, dealCode: deal.code });
}

/** What is wrong with the typed deal code, said under the field itself (at the foot of the
 * screen, under the other buttons, a phone showed only the field's red edge); `words` makes it
 * in the current language; null: nothing. */
function dealFault(words) {
  const input = $('deal-input');
  if (words) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  say('deal-error', words);
  $('deal-error').hidden = !words;
  $('deal-help').hidden = Boolean(words);
  input.setAttribute('aria-describedby', words ? 'deal-error' : 'deal-help');
}

/** The start screen's messages, each kept as how to say it, so that a change of language,
 * whose selector is on that screen, says them again in the new one. */
const said = new Map();

/** Show in element `id` what `words()` says (null: nothing); returns the text. */
function say(id, words) {
  if (words) said.set(id, words);
  else said.delete(id);
  const text = words ? words() : '';
  $(id).textContent = text;
  return text;
}

/** Opened with …/#deal=<code>: offer that deal (after asking, if a match is in progress). */
async function openDealLink() {
  if (!location.hash.startsWith('#deal=')) return false;
  const text = location.hash;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  return playDeal(text);
}

/** Resume the saved game; false when there is none the server still knows. */
async function resume() {
  const saved = savedGame();
  if (!saved) return false;
  const api = new GameApi(saved.gameId, saved.token);
  try {
    const [view] = await Promise.all([api.view(0), theTable()]);
    showScreen('table');
    await game.begin(api, view);
    return true;
  } catch (err) {
    if (err instanceof ApiError && ['unknown_game', 'wrong_token', 'missing_token'].includes(err.code)) {
      forgetGame();
      say('start-error', () => t('error.unknown_game'));
      return false;
    }
    if (err instanceof ApiError) {
      say('start-error', () => t('error.network'));
      return false;
    }
    throw err;
  }
}

function gameLost() {
  forgetGame();
  closeDialogs();
  showScreen('start');
  say('start-error', () => t('error.unknown_game'));
}

// ---- settlement and replay

function closeDialogs() {
  for (const d of document.querySelectorAll('dialog')) if (d.open) d.close();
  if (replay && replay.open) replay.close();
}

async function showSettlement() {
  resultsWaiting = false;
  const { renderSettlement } = await lazy.settlement();
  const result = game.settleEvent();
  if (!result || game.roundInProgress()) return;
  const dialog = $('settle-dialog');
  renderSettlement($('settle-body'), {
    view: game.view,
    table: game.table,
    result,
    replayLevel,
    handlers: {
      replay: async () => {
        const shown = await theReplay();
        dialog.close();
        shown.show(game.seating, game.roundEvents(), () => backToResults('replay'));
      },
      review: async () => {
        if (!review) review = new (await lazy.review()).ReviewPanel(await theReplay());
        dialog.close();
        review.open({ api: game.api, seating: game.seating, events: game.roundEvents(), number: game.view.round_number,
                      onClose: () => backToResults('review') });
      },
      close: () => dialog.close(),
      anotherRound: async () => {
        dialog.close();
        await game.anotherRound();
      },
      newMatch: async () => {
        dialog.close();
        await game.newMatch();
      },
      replayDeal: async (level) => {
        dialog.close();
        replayLevel = level; // kept if the player thinks better of it
        if (!(await startNewGame({ variant: game.variant, level, dealCode: result.deal_code }))) showSettlement();
        else replayLevel = null;
      },
      copy: (text) => copyText(text),
      link: dealLink,
    },
  });
  if (!dialog.open) dialog.showModal();
  // Open at the headline: focusing the button must not scroll a short screen down to it. Untouched
  // (the results of a reload on a phone), the sheet itself holds the focus, with no ring to draw.
  const primary = dialog.querySelector('.btn.primary') || dialog.querySelector('.btn');
  if (untouched()) dialog.focus({ preventScroll: true });
  else if (primary) primary.focus({ preventScroll: true });
  dialog.scrollTop = 0;
}

/** The replay (replay.js), made on first use. */
async function theReplay() {
  if (!replay) replay = new (await lazy.replay()).Replay();
  return replay;
}

/** Closing the replay (or the review) comes back to the results, on the button that opened it. */
async function backToResults(opener) {
  await showSettlement();
  const back = $('settle-body').querySelector(`[data-ctl=${opener}]`);
  if (back) back.focus({ preventScroll: true });
}

/** Copy `text` to the clipboard; resolves true when it worked. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false; // no clipboard here (an insecure page, a refusal): the text stays selectable
  }
}

// ---- menu

function wireMenu() {
  const menu = $('menu-dialog');
  $('menu-btn').addEventListener('click', () => {
    $('menu-language').value = language();
    $('menu-speed').value = String(setting('speed'));
    $('menu-counter').checked = !!setting('classicCounter');
    $('menu-sound').checked = setting('sound') !== false; // sound.js reads the same setting
    $('menu-smart').checked = setting('smartSelect') !== false;
    $('menu-log').hidden = !game.view;
    $('menu-counter-row').hidden = !game.view || counterAlwaysShown(game.view.rules);
    $('menu-results').hidden = !game.view || game.roundInProgress();
    menu.showModal();
  });
  // (New game, New match and Home are the way on: results that waited behind the menu are passed by)
  $('menu-new-game').addEventListener('click', async () => {
    resultsWaiting = false;
    menu.close();
    if (game.roundInProgress() && !(await confirmAction(t('confirm.new_game'), t('confirm.new_game_yes')))) return;
    if (game.view && game.view.match_over) await game.newMatch();
    else await game.newGame();
  });
  $('menu-new-match').addEventListener('click', async () => {
    resultsWaiting = false;
    menu.close();
    if (!(await confirmAction(t('confirm.new_match'), t('confirm.new_match_yes')))) return;
    await game.newMatch();
  });
  $('menu-results').addEventListener('click', () => {
    menu.close();
    showSettlement();
  });
  $('menu-home').addEventListener('click', () => {
    resultsWaiting = false;
    menu.close();
    game.stopAuto();
    showScreen('start');
  });
  $('menu-rules').addEventListener('click', () => {
    menu.close();
    openRules();
  });
  $('menu-log').addEventListener('click', () => {
    menu.close();
    openRoundLog();
  });
  $('menu-records').addEventListener('click', async () => {
    menu.close();
    (await lazy.records()).renderRecords($('records-body'));
    $('records-dialog').showModal();
  });
  $('menu-guide').addEventListener('click', () => {
    menu.close();
    if (document.body.dataset.screen === 'table') showGuide({ always: true });
  });
  $('menu-sound').addEventListener('change', (e) => setSetting('sound', e.target.checked));
  $('menu-smart').addEventListener('change', (e) => setSetting('smartSelect', e.target.checked));
  $('menu-speed').addEventListener('change', (e) => setSetting('speed', Number(e.target.value)));
  $('menu-counter').addEventListener('change', (e) => {
    setSetting('classicCounter', e.target.checked);
    game.render();
  });
  $('counter-btn').addEventListener('click', () => {
    setSetting('classicCounter', !setting('classicCounter'));
    game.render(); // lays the hand out again too (HandView.setTight)
    focusHand();
  });
  $('rules-btn').addEventListener('click', openRules);
  // Closing a dialog of the table hands the keyboard back to the hand (the
  // browser would put it on the button that opened the dialog).
  for (const dialog of document.querySelectorAll('dialog')) dialog.addEventListener('close', afterDialog);
  $('start-rules-btn').addEventListener('click', openRules);
}

/** The guide (coach marks), its module loaded on first use: most visits never need it. */
async function showGuide(options = {}) {
  if (!coach) {
    const { Coach } = await import('./coach.js');
    coach = coach || new Coach();
  }
  coach.maybeStart(options);
}

/** The tricks of this round at once, then the match's ledger once the server sends it. */
async function openRoundLog() {
  const { renderRoundLog, matchRounds } = await import('./roundlog.js');
  const draw = (ledger) => renderRoundLog($('log-body'), { table: game.table, events: game.shownEvents(), ledger });
  draw(null);
  $('log-dialog').showModal();
  try {
    const ledger = await matchRounds(game.api, game.view);
    if ($('log-dialog').open) draw(ledger);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if ($('log-dialog').open) draw([]);
  }
}

async function openRules() {
  const { renderRules } = await lazy.rules();
  renderRules($('rules-body'));
  if (!$('rules-dialog').open) $('rules-dialog').showModal();
  $('rules-body').scrollTop = 0;
}

async function changeLanguage(code) {
  setSetting('language', code);
  await setLanguage(code);
  if (game?.api) game.api.setLanguage(code).catch(() => { /* the table works without it */ });
}

// ---- keyboard: shortcuts on the table when no dialog is open

function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (['SELECT', 'INPUT', 'TEXTAREA'].includes(target.tagName)) return;
  // ? opens the rules at any time on the table, over the results too.
  if (e.key === '?' && document.body.dataset.screen === 'table' && !$('rules-dialog').open && !$('replay').open) {
    e.preventDefault();
    openRules();
    return;
  }
  if (document.body.dataset.screen !== 'table' || anyDialogOpen()) return;
  // Enter or Space on a focused button presses that button, as usual.
  if (target.tagName === 'BUTTON' && (e.key === 'Enter' || e.key === ' ')) return;
  const phase = game.phase;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const act = (fn) => { e.preventDefault(); fn(); };
  if (phase === 'over') {
    if (key === 'Enter') act(showSettlement);
    return;
  }
  // Arrows and X work from anywhere on the table: they bring the focus (and
  // so the visible cursor) to the hand.
  if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'x', 'X'].includes(e.key) && target !== hand.el) hand.el.focus();
  if (hand.handleKey(e.key, target === hand.el)) {
    e.preventDefault();
    return;
  }
  if (phase === 'bidding') {
    const bids = { 1: 'bid 1', 2: 'bid 2', 3: 'bid 3', 0: 'pass', n: 'pass', p: 'pass', c: 'call', r: 'rob' };
    if (key in bids) return act(() => game.bid(bids[key]));
  }
  switch (key) {
    case 'Enter': return act(() => game.play());
    case ' ': case 'p': return act(() => game.pass());
    case 'h': return act(() => game.hint());
    case 's': return act(() => game.cycleSort());
    case 'a': return act(() => game.toggleAuto());
    case 'Escape': return act(() => hand.clear());
    default:
  }
}

// ---- boot

function drawLogo() {
  // A little fan of cards: both jokers and the four 2s.
  replace($('logo'), [52, 48, 49, 50, 51, 53].map((id) => cardFace(id, 'logo-card')));
}

/** The table's objects (game, hand, controls), their modules loaded on first use. */
function theTable() {
  tableMade ??= Promise.all([import('./hand.js'), import('./controls.js'), import('./game.js'), import('./counter.js')])
    .then(([{ HandView }, { Controls }, { Game }, counter]) => {
      counterAlwaysShown = counter.counterAlwaysShown;
      hand = new HandView($('hand'), { onChange: () => game.selectionChanged(), smart: (id) => game.smartReply(id),
                                        run: (ids) => game.smartRun(ids) });
      controls = new Controls($('controls'), $('tools'), {
        play: () => game.play(),
        pass: () => game.pass(),
        hint: () => game.hint(),
        sort: () => { game.cycleSort(); focusHand(); },
        bid: (action) => game.bid(action),
        autoToggle: () => { game.toggleAuto(); focusHand(); },
        interval: (ms) => game.setInterval(ms), // (the select keeps the keys: its arrows step it)
        results: () => showSettlement(),
        next: async () => {
          if (game.view.match_over) await game.newMatch();
          else await game.anotherRound();
        },
      });
      controls.relabel();
      game = new Game({
        hand,
        controls,
        // A control that vanished (a bid, Play once the turn is over, Another round) would leave
        // the keyboard on <body>, or on a hidden button until the browser notices: it goes back
        // to the hand.
        afterRender: () => {
          const el = document.activeElement;
          if (!el || el === document.body || !canTakeFocus(el)) focusHand();
        },
        // auto-play waits while a dialog is open; a round that ends behind one shows its results
        // once the dialog closes
        held: anyDialogOpen,
        onOver: () => {
          if (anyDialogOpen()) resultsWaiting = true;
          else showSettlement();
        },
        onLost: gameLost,
      });
    })
    .catch((err) => {
      tableMade = null; // a failed download is tried again on the next use
      throw err;
    });
  return tableMade;
}

async function boot() {
  await setLanguage(playerLanguage());
  fillLanguageSelects();
  drawLogo();
  wireMenu();

  onLanguageChange(() => {
    fillLanguageSelects();
    drawLogo();
    if (game) {
      controls.relabel();
      game.redrawHand(); // card names are spoken in the new language
      game.render();
    }
    if ($('rules-dialog').open) openRules();
    if ($('settle-dialog').open) showSettlement();
    if (replay && replay.open) replay.render();
    if (coach && coach.open) coach.render();
    if ($('records-dialog').open) lazy.records().then((m) => m.renderRecords($('records-body')));
    if (!$('start-screen').hidden) refreshStart();
    for (const [id, words] of said) $(id).textContent = words();
  });
  for (const select of document.querySelectorAll('.language-select')) {
    select.addEventListener('change', (e) => changeLanguage(e.target.value));
  }
  $('start-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const variant = e.target.elements.variant.value;
    const level = e.target.elements.level.value;
    setSetting('variant', variant);
    setSetting('level', level);
    startNewGame({ variant, level });
  });
  $('deal-form').addEventListener('submit', (e) => {
    e.preventDefault();
    playDeal($('deal-input').value, $('start-form').elements.level.value);
  });
  $('deal-input').addEventListener('input', () => dealFault(null));
  window.addEventListener('hashchange', () => { openDealLink(); });
  $('continue-btn').addEventListener('click', async () => {
    const saved = savedGame();
    if (game?.view && saved && game.view.game_id === saved.gameId) {
      showScreen('table');
      await game.refresh();
    } else if (!(await resume())) showScreen('start');
  });
  document.addEventListener('keydown', onKey);
  // Rotation and resizing change the room the hand has.
  let pending = false;
  const relayout = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      hand?.layout();
    });
  };
  window.addEventListener('resize', relayout);
  window.addEventListener('orientationchange', relayout);
  // Coming back to a tab that another tab may have moved on.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && game?.api && game.idle) {
      game.refresh().catch(() => {});
    }
  });

  document.body.classList.remove('loading');
  if (!savedGame()) theTable().catch(() => { /* tried again when a table is needed */ }); // made while the start screen is read
  const resumed = await resume();
  if (!resumed) showScreen('start');
  await startPuzzles();
  document.body.dataset.ready = 'true';
  await openDealLink();
}

/** Puzzle mode (puzzles.js), loaded on the first press of its button, or at once when
 * a reload interrupted a puzzle (its saved progress says so). */
async function startPuzzles() {
  const options = { goHome: () => showScreen('start') };
  if (savedPuzzles()?.open) {
    await (await lazy.puzzles()).initPuzzles(options);
    return;
  }
  const button = $('puzzles-btn');
  if (!button) return;
  button.addEventListener('click', async () => {
    const puzzles = await lazy.puzzles();
    await puzzles.initPuzzles(options);
    await puzzles.openPuzzleList();
  }, { once: true });
}

boot();
