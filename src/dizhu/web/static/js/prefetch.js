// The first script the page runs (index.html loads it apart, `async`): the dictionary of the
// player's language starts downloading while the table's modules still arrive, instead of
// once they have all come and main.js asks for it (a round trip saved on a slow network).

import { detectLanguage, isLanguage, prefetchLanguage } from './i18n.js';
import { setting } from './storage.js';

/** The language to show: the one chosen in the menu, else the browser's. */
export function playerLanguage() {
  const chosen = setting('language');
  return isLanguage(chosen) ? chosen : detectLanguage();
}

prefetchLanguage(playerLanguage());
