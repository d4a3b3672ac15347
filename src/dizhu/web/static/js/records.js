// The player's records, kept in this browser: rounds played, rounds won and
// the best winning streak, for each variant and level. A round counts once,
// when its end is shown live (a reload of a finished round does not count it
// again: each round is known by its game and number).

import { h, replace, choices } from './dom.js';
import { levelName } from './format.js';
import { setting, setSetting } from './storage.js';
import { t } from './i18n.js';

const KEPT = 50; // recent rounds remembered to refuse counting one twice

function load() {
  const value = setting('records');
  return value && typeof value === 'object' ? value : { by: {}, seen: [] };
}

/** Count a finished round: {variant, level, won, round (a unique name)}. */
export function recordRound({ variant, level, won, round }) {
  const records = load();
  if (records.seen.includes(round)) return;
  records.seen = [...records.seen, round].slice(-KEPT);
  const key = `${variant}|${level}`;
  const r = records.by[key] || { played: 0, won: 0, streak: 0, best: 0 };
  r.played += 1;
  if (won) {
    r.won += 1;
    r.streak += 1;
    r.best = Math.max(r.best, r.streak);
  } else {
    r.streak = 0;
  }
  records.by[key] = r;
  setSetting('records', records);
}

/** {played, won, streak, best} of a variant at a level (zeros before the first round). */
export function recordOf(variant, level) {
  return load().by[`${variant}|${level}`] || { played: 0, won: 0, streak: 0, best: 0 };
}

/** The records as a table: a row per variant and level played. */
export function renderRecords(body) {
  const rows = [];
  for (const variant of choices('variant')) {
    for (const level of choices('level')) {
      const r = recordOf(variant, level);
      if (!r.played) continue;
      rows.push(h('tr', {},
        h('th', { scope: 'row', text: `${t(`variant.${variant}`)} · ${levelName(level)}` }),
        h('td', { text: String(r.played) }),
        h('td', { text: `${Math.round((100 * r.won) / r.played)}%` }),
        h('td', { text: String(r.best) })));
    }
  }
  replace(body, rows.length
    ? h('table', { class: 'records-table' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: t('records.game') }),
        h('th', { scope: 'col', text: t('records.played') }),
        h('th', { scope: 'col', text: t('records.win_rate') }),
        h('th', { scope: 'col', text: t('records.best_streak') }))),
      h('tbody', {}, rows))
    : h('p', { class: 'records-empty', text: t('records.none') }));
}
