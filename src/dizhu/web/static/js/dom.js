// Tiny DOM helpers shared by every view module. No framework: the UI is small
// enough that building elements directly keeps it fast and dependency-free.

/**
 * Build an element. `attrs` keys: `class`, `text`, `dataset` (object), `on`
 * (event map), `aria` (object of aria-* values), anything else becomes an
 * attribute (never `style`: the page's Content-Security-Policy forbids inline
 * style attributes, so styling goes through classes or el.style from JS).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'on') for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    else if (key === 'aria') for (const [name, v] of Object.entries(value)) el.setAttribute(`aria-${name}`, String(v));
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings, nested arrays; null/false skipped). */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : String(child));
  }
  return parent;
}

/**
 * A phone held sideways: the style sheets' `@media (orientation: landscape) and (max-height: 500px)`,
 * for the few layouts that also change the page's order (reading and tab order follow what is drawn).
 */
export const LANDSCAPE_PHONE = window.matchMedia('(orientation: landscape) and (max-height: 500px)');

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An inline <svg> showing one of the symbols defined in index.html. */
export function svgUse(symbolId, className) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', className);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const use = document.createElementNS(SVG_NS, 'use');
  use.setAttribute('href', `#${symbolId}`);
  svg.append(use);
  return svg;
}

/** An inline 24×24 <svg> drawing the path `d`: an image named `label`, or, without one, hidden
 * from screen readers (it adorns a control that has its own name). */
export function svgPath(d, { label = null, className = null } = {}) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  if (className) svg.setAttribute('class', className);
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
  }
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', d);
  svg.append(path);
  return svg;
}

/** Replace all children of `parent`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

export const $ = (id) => document.getElementById(id);

/** Whether `el` can hold the keyboard: it is drawn and not disabled. */
export function canTakeFocus(el) {
  return !!el && !el.disabled && el.getClientRects().length > 0;
}

/** Give the keyboard to the first of `els` that can take it (none: it stays where it is). */
export function focusFirst(els) {
  const el = els.find(canTakeFocus);
  if (el) el.focus({ preventScroll: true });
  return !!el;
}

/**
 * The values offered for a choice of the start screen ('variant', 'level'):
 * its radio buttons in index.html are the one list of them.
 */
export function choices(name) {
  return [...document.querySelectorAll(`#start-form input[name="${name}"]`)].map((input) => input.value);
}

const sheets = new Map();

/**
 * Add the style sheet at `url` (a URL relative to a module: the versioned prefix)
 * to the page once; resolves when it applies. For the styles of a screen that a
 * module loaded on demand draws, kept out of the first load's bundle.
 */
export function useStyle(url) {
  const href = String(url);
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((resolve, reject) => {
      const link = h('link', { rel: 'stylesheet', href });
      link.addEventListener('load', () => resolve(), { once: true });
      link.addEventListener('error', () => {
        sheets.delete(href);
        link.remove();
        reject(new Error(`cannot load ${href}`));
      }, { once: true });
      document.head.append(link);
    }));
  }
  return sheets.get(href);
}
