// Sound effects, synthesised with the Web Audio API (no sound files to
// download): a tap for a play, a soft knock for a pass, a thump and noise for
// a bomb, a rising sweep for the rocket, a chime when it is the player's turn,
// a short phrase for the end of a round. A switch in the menu turns them off,
// and the choice is remembered (storage.js).

import { setting, setSetting } from './storage.js';

let context = null;

export function soundOn() {
  return setting('sound') !== false;
}

export function setSound(on) {
  setSetting('sound', !!on);
}

/** The audio context, made on first use (browsers allow sound after a gesture). */
function audio() {
  if (!context) {
    // Before the player's first tap or key (a resumed game whose computers play on), the browser
    // would refuse the context and warn in the console: stay silent until then.
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return null;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

/** One note: `freq` Hz (gliding to `to`), from `at` seconds for `length`, with a quick fade. */
function note(ac, freq, at, length, { type = 'sine', gain = 0.12, to = null } = {}) {
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  const start = ac.currentTime + at;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, start + length);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(ac.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A burst of noise (the bomb's blast), low-passed so it rumbles rather than hisses. */
function noise(ac, at, length, gain = 0.25) {
  const buffer = ac.createBuffer(1, Math.ceil(ac.sampleRate * length), ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const source = ac.createBufferSource();
  const filter = ac.createBiquadFilter();
  const amp = ac.createGain();
  filter.type = 'lowpass';
  filter.frequency.value = 900;
  amp.gain.value = gain;
  source.buffer = buffer;
  source.connect(filter).connect(amp).connect(ac.destination);
  source.start(ac.currentTime + at);
}

const SOUNDS = {
  play: (ac) => note(ac, 660, 0, 0.08, { type: 'triangle', gain: 0.1 }),
  pass: (ac) => note(ac, 220, 0, 0.1, { type: 'sine', gain: 0.08 }),
  turn: (ac) => { note(ac, 784, 0, 0.12); note(ac, 1047, 0.1, 0.18); },
  bomb: (ac) => { note(ac, 120, 0, 0.5, { type: 'sine', gain: 0.3, to: 40 }); noise(ac, 0, 0.6); },
  rocket: (ac) => { note(ac, 200, 0, 0.6, { type: 'sawtooth', gain: 0.08, to: 1600 }); noise(ac, 0.45, 0.5, 0.2); },
  plane: (ac) => note(ac, 300, 0, 0.7, { type: 'triangle', gain: 0.1, to: 900 }),
  spring: (ac) => [523, 659, 784, 1047].forEach((f, i) => note(ac, f, i * 0.09, 0.25, { type: 'triangle' })),
  win: (ac) => [523, 659, 784].forEach((f, i) => note(ac, f, i * 0.12, 0.3, { type: 'triangle' })),
  lose: (ac) => [392, 330, 262].forEach((f, i) => note(ac, f, i * 0.14, 0.3, { type: 'sine' })),
};

/** Play the named effect, unless the player turned sound off. */
export function playSound(name) {
  if (!soundOn() || !(name in SOUNDS)) return;
  // What was asked for last (tests read it; nothing plays in a page without audio).
  document.body.dataset.sound = name;
  const ac = audio();
  if (!ac) return;
  try {
    SOUNDS[name](ac);
  } catch {
    /* an audio device that refuses: the game goes on silently */
  }
}
