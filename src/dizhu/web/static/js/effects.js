// The big moments of a round, shown across the middle of the table: a bomb,
// the rocket, a plane, a spring and an anti-spring. The words name what
// happened (the screen-reader news already says it, so this is hidden from
// them); with prefers-reduced-motion the banner appears and fades without
// moving (css/table.css).

import { $ } from './dom.js';
import { kindName } from './format.js';
import { playSound } from './sound.js';
import { t } from './i18n.js';

const SHOWN_FOR = 1400; // ms

// Kinds of play with an effect, and the sound each makes.
const PLAY_EFFECTS = {
  bomb: 'bomb',
  rocket: 'rocket',
  plane: 'plane',
  plane_single: 'plane',
  plane_pair: 'plane',
};

let timer = null;
let endsAt = 0; // when the banner on show goes (performance.now())

function show(kind, text, byMe = false) {
  const el = $('effect');
  if (!el) return;
  el.textContent = text;
  el.className = `effect effect-${kind}`;
  el.classList.toggle('by-me', byMe); // (where the player's own play lies, css/table.css)
  el.hidden = false;
  // Restart the animation when two effects follow each other.
  void el.offsetWidth;
  el.classList.add('run');
  clearTimeout(timer);
  timer = setTimeout(() => { el.hidden = true; }, SHOWN_FOR);
  endsAt = performance.now() + SHOWN_FOR;
}

/** How long the banner on show has still to go, in ms (0: none is shown). */
export function effectRemaining() {
  return $('effect') && !$('effect').hidden ? Math.max(0, endsAt - performance.now()) : 0;
}

/** The effect (and sound) of a round event as it is shown at the seat `me`. */
export function effectOf(ev, me = 0) {
  if (ev.type === 'play' && ev.kind in PLAY_EFFECTS) {
    const sound = PLAY_EFFECTS[ev.kind];
    show(sound, kindName(ev.kind), ev.seat === me);
    playSound(sound);
    return sound;
  }
  if (ev.type === 'settle' && (ev.spring || ev.anti_spring)) {
    const kind = ev.spring ? 'spring' : 'anti-spring';
    show(kind, t(ev.spring ? 'settle.spring' : 'settle.anti_spring'));
    playSound('spring');
    return kind;
  }
  if (ev.type === 'play') playSound('play');
  else if (ev.type === 'pass') playSound('pass');
  return null;
}

/** Take the banner down (a new round, a new game). */
export function clearEffect() {
  clearTimeout(timer);
  const el = $('effect');
  if (el) el.hidden = true;
}
