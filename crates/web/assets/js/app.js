// The entry point: routes the path to a page, links without reloads, and the
// language switch.

import { translatePage, setLang, onLang } from './i18n.js';
import { lobbyPage } from './lobby.js';
import { gamePage } from './game.js';
import { rulesPage } from './rules.js';
import { navigate } from './nav.js';

const main = document.getElementById('main');
let stop = null;

function route() {
  if (stop) stop();
  stop = null;
  window.scrollTo(0, 0);
  const path = location.pathname;
  let m;
  if ((m = /^\/game\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path))) stop = gamePage(main, m[1]);
  else if ((m = /^\/rules(?:\/([a-z]+))?\/?$/.exec(path))) stop = rulesPage(main, m[1] || null);
  else stop = lobbyPage(main);
}


document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-link]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
});

for (const b of document.querySelectorAll('[data-lang]')) b.addEventListener('click', () => setLang(b.dataset.lang));
onLang(() => translatePage());
window.addEventListener('popstate', route);
window.addEventListener('plateau:navigate', route);
translatePage();
route();
