// Translations: one JSON dictionary per language in ../i18n/, flat keys
// ("ctl.play", "reason.too_weak") with {param} placeholders. Static markup
// names its text with data-i18n / data-i18n-aria / data-i18n-title and is
// refreshed on every language change; dynamic views call t() when they render.
// The words of a screen most visits never open (the puzzles, the review, the rules) are a
// part of their own, ../i18n/<part>/<language>.json, fetched with its module
// (usePart) and then with every language chosen later.

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'ja', name: '日本語' },
  { code: 'zh-Hans', name: '简体中文' },
  { code: 'zh-Hant', name: '繁體中文' },
];
const CODES = LANGUAGES.map((l) => l.code);

let current = 'en';
let dict = {};
let english = {};
const cache = new Map();
const parts = new Set(); // the parts asked for so far (usePart)
const listeners = new Set();

/** The best supported language for a list of browser language tags. */
export function detectLanguage(tags = navigator.languages || [navigator.language]) {
  for (const raw of tags) {
    const tag = String(raw || '').toLowerCase();
    if (tag.startsWith('ja')) return 'ja';
    if (tag.startsWith('zh')) {
      // Traditional script: explicit Hant, or the regions that write it.
      if (/hant|-tw|-hk|-mo/.test(tag)) return 'zh-Hant';
      return 'zh-Hans';
    }
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}

export function isLanguage(code) {
  return CODES.includes(code);
}

// Relative to this module, so the dictionaries come from the same versioned
// (immutable) prefix as the scripts.
function load(code, part = null) {
  const name = part ? `${part}/${code}` : code;
  if (!cache.has(name)) {
    // High priority: the first screen waits for it, not for the table's modules still coming.
    cache.set(name, fetch(new URL(`../i18n/${name}.json`, import.meta.url), { priority: 'high' }).then((response) => {
      if (!response.ok) throw new Error(`cannot load language ${name}`);
      return response.json();
    }).catch((err) => {
      cache.delete(name); // a failed load is tried again next time
      throw err;
    }));
  }
  return cache.get(name);
}

/** Start downloading a language's dictionary (setLanguage then finds it on its way). */
export function prefetchLanguage(code) {
  if (isLanguage(code)) load(code).catch(() => { /* setLanguage asks again and reports it */ });
}

/** Switch language: load its dictionary, relabel the page, tell listeners. */
export async function setLanguage(code) {
  if (!isLanguage(code)) code = 'en';
  // Every language has every key (tests/ui/test_translations.py): English, the
  // fallback for a missing one, is not worth a second download.
  const base = await load(code);
  let wanted;
  let more;
  do { // a part asked for meanwhile is fetched too
    wanted = [...parts];
    more = await Promise.all(wanted.map((part) => load(code, part)));
  } while (wanted.length !== parts.size);
  dict = Object.assign({}, base, ...more);
  english = code === 'en' ? dict : english;
  current = code;
  plurals = new Intl.PluralRules(code);
  document.documentElement.lang = code;
  applyStatic(document);
  document.title = t('app.title');
  for (const fn of listeners) fn(code);
}

/**
 * The words of one part of the site (../i18n/<part>/<language>.json) added to the
 * dictionary: a lazy module awaits this before it renders; a later language change
 * loads the part with the rest of the new language.
 */
export async function usePart(part) {
  parts.add(part);
  const code = current;
  const words = await load(code, part);
  if (current !== code) return; // the language changed meanwhile: setLanguage took the part in
  dict = { ...dict, ...words };
  if (code === 'en') english = dict;
}

export function language() {
  return current;
}

export function onLanguageChange(fn) {
  listeners.add(fn);
}

let plurals = new Intl.PluralRules('en');

/**
 * The template for `key`: a count {n} picks the variant of its plural
 * category in the language (Intl.PluralRules: `key.one`, `key.few`…) when the
 * dictionary has one ("1 card", not "1 cards"); otherwise `key` itself.
 */
function template(key, params) {
  if ('n' in params) {
    // {n} may come formatted with its sign ("+1", "−1": figure() writes a true minus, U+2212)
    const count = Number(String(params.n).replace('\u2212', '-'));
    const variant = `${key}.${plurals.select(count)}`;
    if (variant in dict) return dict[variant];
  }
  return dict[key] ?? english[key] ?? key;
}

/** A count with its noun in the current language: plural('count.cards', 1) = "1 card". */
export function plural(key, n) {
  return t(key, { n });
}

/** The text for `key` with {param} placeholders filled. */
export function t(key, params = {}) {
  const template_ = template(key, params);
  return template_.replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match));
}

/**
 * Like t(), but returns a list of strings and nodes: `render(name, value)` may
 * turn a parameter into an element (card chips in messages, for instance).
 */
export function tParts(key, params = {}, render = (name, value) => String(value)) {
  const text = template(key, params);
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    parts.push(text.slice(last, match.index));
    const name = match[1];
    parts.push(name in params ? render(name, params[name]) : match[0]);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((p) => p !== '');
}

/** Relabel every element under `root` that names its text with data-i18n*. */
export function applyStatic(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.setAttribute('title', t(el.dataset.i18nTitle));
}
