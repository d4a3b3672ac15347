// The rules page. Its structure (sections, the table of the 14 kinds with
// drawn examples, the keyboard shortcuts) lives here; every word comes from
// the translation files (keys rules.*, i18n/rules/), written for this site.

import { h, replace, useStyle } from './dom.js';
import { cardRow } from './cardview.js';
import { idsForNotation } from './cards.js';
import { kindName } from './format.js';
import { t, usePart } from './i18n.js';

// The page's words and styles come with this module, not in the first load.
await Promise.all([usePart('rules'), useStyle(new URL('../css/rules.css', import.meta.url))]);

// [section key, number of paragraphs]
const SECTIONS = [
  ['about', 2],
  ['cards', 3],
  ['bidding', 3],
  ['play', 3],
  ['kinds', 2],
  ['beating', 3],
  ['scoring', 4],
  ['match', 2],
  ['duel', 6],
  ['site', 5],
];

// The 14 kinds with an example each (notation; suits are drawn for show).
export const KIND_EXAMPLES = [
  ['single', 'A'],
  ['pair', 'KK'],
  ['trio', '777'],
  ['trio_single', '777A'],
  ['trio_pair', '777AA'],
  ['straight', '34567'],
  ['pair_chain', '334455'],
  ['plane', '333444'],
  ['plane_single', '33344458'],
  ['plane_pair', '3334445588'],
  ['four_two_single', '666639'],
  ['four_two_pair', '66663399'],
  ['bomb', '3333'],
  ['rocket', 'BR'],
];

export const SHORTCUTS = [
  ['Enter', 'keys.play'],
  ['P / Space', 'keys.pass'],
  ['H', 'keys.hint'],
  ['S', 'keys.sort'],
  ['A', 'keys.auto'],
  ['← →', 'keys.move'],
  ['↑ ↓ X', 'keys.toggle'],
  ['Esc', 'keys.clear'],
  ['1 2 3 0', 'keys.bid'],
  ['C R N', 'keys.call'],
  ['?', 'keys.help'],
  ['← → Home End', 'keys.replay'],
  ['[ ]', 'keys.review'],
];

function kindsTable() {
  // Roles said outright: on a phone the rows stack (rules.css), and a table drawn as blocks
  // loses them in some browsers.
  return h('table', { class: 'kinds', role: 'table' },
    h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' },
      h('th', { scope: 'col', role: 'columnheader', text: t('rules.kinds.col_kind') }),
      h('th', { scope: 'col', role: 'columnheader', text: t('rules.kinds.col_shape') }),
      h('th', { scope: 'col', role: 'columnheader', text: t('rules.kinds.col_example') }))),
    h('tbody', { role: 'rowgroup' }, KIND_EXAMPLES.map(([kind, example]) => h('tr', { role: 'row' },
      h('th', { scope: 'row', role: 'rowheader', text: kindName(kind) }),
      h('td', { role: 'cell', text: t(`rules.kind.${kind}`) }),
      h('td', { role: 'cell' }, cardRow(idsForNotation(example), 'rules-row'))))));
}

function shortcutsTable() {
  return h('table', { class: 'shortcuts' },
    h('tbody', {}, SHORTCUTS.map(([keys, label]) => h('tr', {},
      h('th', { scope: 'row' }, h('kbd', { text: keys })),
      h('td', { text: t(label) })))));
}

export function renderRules(el) {
  const sections = SECTIONS.map(([name, paragraphs]) => {
    const body = [];
    for (let i = 1; i <= paragraphs; i += 1) body.push(h('p', { text: t(`rules.${name}.p${i}`) }));
    if (name === 'kinds') body.push(kindsTable());
    if (name === 'site') body.push(h('h4', { text: t('rules.keys_title') }), shortcutsTable());
    return h('section', { id: `rules-${name}` }, h('h3', { text: t(`rules.${name}.h`) }), body);
  });
  const toc = h('nav', { class: 'toc', aria: { label: t('rules.contents') } },
    SECTIONS.map(([name]) => h('a', { href: `#rules-${name}`, text: t(`rules.${name}.h`) })));
  replace(el, toc, sections);
}
