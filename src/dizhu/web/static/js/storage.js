// What the browser remembers between visits (localStorage): the current game's
// id and token, so a reload or a new tab resumes it, and the player's settings.
// Storage can be unavailable (private modes, quotas): every access is guarded
// and the game still works for the session.

const PREFIX = 'dizhu.';

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* storage full or blocked: nothing to do */
  }
}

/** {gameId, token, variant, level} of the game to resume, or null. */
export const savedGame = () => read('game', null);
export const saveGame = (game) => write('game', game);
export const forgetGame = () => { write('game', null); write('picked', null); };

/** The cards picked but not yet played ({gameId, version, ids}): a reload keeps them at that turn. */
export const savedPicked = () => read('picked', null);
export const savePicked = (picked) => write('picked', picked);

/** Puzzle progress ({solved, open, moves, variant}: puzzles.js), or null. */
export const savedPuzzles = () => read('puzzles', null);
export const savePuzzles = (progress) => write('puzzles', progress);

const DEFAULTS = {
  language: null, // null: follow the browser
  sort: 'asc',
  speed: 500, // ms a computer "thinks" before its action is shown
  autoInterval: 1000,
  classicCounter: false,
  variant: 'classic',
  level: 'normal',
  sound: true,
  smartSelect: true, // a tap while answering picks the smallest reply with that card
  coachSeen: false,
  records: null, // records.js
};

export function setting(name) {
  return read(`setting.${name}`, DEFAULTS[name]);
}

export function setSetting(name, value) {
  write(`setting.${name}`, value);
}
