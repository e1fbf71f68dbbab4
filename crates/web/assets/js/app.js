// The entry point: routes the path to a page, links without reloads, and the
// language switch.

import { translatePage, setLang, onLang, t } from './i18n.js';
import { lobbyPage } from './lobby.js';
import { gamePage } from './game.js';
import { rulesPage } from './rules.js';
import { navigate } from './nav.js';
import { mountAccountArea } from './session.js';
import { h, fill } from './dom.js';

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
  else if ((m = /^\/(login|signup)\/?$/.exec(path))) stop = lazy(() => import('./account.js'), (x) => x.loginPage(main, m[1]));
  else if (/^\/account\/?$/.test(path)) stop = lazy(() => import('./account.js'), (x) => x.accountPage(main));
  else if (/^\/games\/?$/.test(path)) stop = lazy(() => import('./mygames.js'), (x) => x.myGamesPage(main));
  else if ((m = /^\/player\/([^/]{1,64})\/?$/.exec(path))) stop = lazy(() => import('./profile.js'), (x) => x.profilePage(main, decoded(m[1])));
  else if ((m = /^\/analysis(?:\/([a-z0-9_-]+))?\/?$/.exec(path))) stop = lazy(() => import('./analysisboard.js'), (x) => x.analysisPage(main, m[1] || null));
  else if ((m = /^\/puzzles(?:\/([a-z0-9_-]+))?\/?$/.exec(path))) stop = lazy(() => import('./puzzles.js'), (x) => x.puzzlesPage(main, m[1] || null));
  else if ((m = /^\/learn(?:\/([a-z0-9_-]+))?\/?$/.exec(path))) stop = lazy(() => import('./learn.js'), (x) => x.learnPage(main, m[1] || null));
  else if ((m = /^\/leaderboard(?:\/([a-z0-9_-]+))?\/?$/.exec(path))) stop = lazy(() => import('./leaderboard.js'), (x) => x.leaderboardPage(main, m[1] || null));
  else stop = lobbyPage(main);
}

/**
 * A page whose module is loaded when first shown (the account and player
 * pages: the game pages do not load them): `load()` imports it, `start(module)`
 * shows it and returns its stop function.
 */
function lazy(load, start) {
  let stopped = false;
  let inner = null;
  fill(main, h('p', { class: 'muted' }, '…'));
  load().then((x) => {
    if (!stopped) inner = start(x);
  }, (e) => {
    if (!stopped) fill(main, h('p', { class: 'error', role: 'alert' }, t('err.network'), ' ', String(e && e.message || e)));
  });
  return () => {
    stopped = true;
    if (inner) inner();
  };
}

/** A path segment decoded (as it is when it is malformed). */
function decoded(seg) {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-link]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  // An SVG link's href is an SVGAnimatedString.
  const url = new URL(typeof a.href === 'string' ? a.href : a.getAttribute('href'), location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
});

for (const b of document.querySelectorAll('[data-lang]')) b.addEventListener('click', () => setLang(b.dataset.lang));
onLang(() => translatePage());
window.addEventListener('popstate', route);
window.addEventListener('plateau:navigate', route);
translatePage();
mountAccountArea(document.getElementById('account'));
route();
