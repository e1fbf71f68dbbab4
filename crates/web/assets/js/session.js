// Who is logged in (GET /api/session), the account area of the header, and
// what the browser hands over to an account when its user logs in: the seats
// it kept as a guest (POST /api/account/claim).

import { api, tokens } from './api.js';
import { h, fill, toast } from './dom.js';
import { t, onLang } from './i18n.js';
import { navigate } from './nav.js';

let current; // a promise of the account ({name, created_at, via}) or null
const listeners = new Set();

/** The account logged in (`{name, created_at, via}`), or null for a guest. */
export function getSession() {
  if (!current) current = load();
  return current;
}

async function load() {
  try {
    return await api('/api/session');
  } catch (e) {
    if (e.status !== 401) console.warn('plateau: the session could not be read:', e.message);
    return null;
  }
}

/** Ask the server again who is logged in (and tell every listener). */
export function refreshSession() {
  current = load();
  current.then(tell);
  return current;
}

/** Set the account logged in after a log in or a sign-up (or null after a log out). */
export function setSession(account) {
  current = Promise.resolve(account);
  tell(account);
}

function tell(account) {
  for (const f of [...listeners]) f(account);
}

/** Call `f(account)` on every change of session; returns the way to stop. */
export function onSession(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/**
 * Offer the account the games this browser played as a guest: their seat
 * tokens (the most recent 200). Finished, unrated games whose seat no account
 * holds become the account's. Failures are only logged.
 */
export async function claimGuestGames() {
  const ids = tokens.ids().slice(-200);
  const games = ids.map((id) => ({ id, token: tokens.get(id) })).filter((g) => g.token);
  if (!games.length) return [];
  try {
    const r = await api('/api/account/claim', { method: 'POST', body: { games } });
    return (r && r.claimed) || [];
  } catch (e) {
    console.warn('plateau: the guest games could not be claimed:', e.message);
    return [];
  }
}

/** Log out: end the session, then go to the lobby. */
export async function logOut() {
  try {
    await api('/api/session', { method: 'DELETE' });
  } catch (e) {
    toast(e.message, 'error');
    return;
  }
  setSession(null);
  toast(t('acct.loggedOut'));
  navigate('/');
}

/** A local path to go back to (`?next=/account`), or `fallback`. */
export function nextPath(fallback = '/') {
  const n = new URLSearchParams(location.search).get('next');
  return n && /^\/(?!\/)[^\\\s]*$/.test(n) ? n : fallback;
}

/** The path of a player's page. */
export const playerPath = (name) => `/player/${encodeURIComponent(name)}`;

/** Fill the header's account area, now and on every change of session or language. */
export function mountAccountArea(box) {
  let account = null;
  const draw = () => {
    const here = encodeURIComponent(location.pathname + location.search);
    const back = /^\/(login|signup)\/?$/.test(location.pathname) ? '' : `?next=${here}`;
    if (!account) {
      fill(box,
        h('a', { href: `/login${back}`, 'data-link': '', 'data-account': 'login' }, t('acct.logIn')),
        h('a', { href: `/signup${back}`, 'data-link': '', 'data-account': 'signup', class: 'signup' }, t('acct.signUp')));
      return;
    }
    fill(box,
      h('a', { href: '/games', 'data-link': '', 'data-account': 'games' }, t('acct.myGames')),
      h('a', { href: playerPath(account.name), 'data-link': '', 'data-account': 'name', class: 'who', title: t('acct.profileOf', { name: account.name }) }, account.name),
      h('a', { href: '/account', 'data-link': '', 'data-account': 'settings' }, t('acct.settings')),
      h('button', { type: 'button', class: 'linkish', 'data-account': 'logout', onclick: () => logOut() }, t('acct.logOut')));
  };
  onSession((a) => { account = a; draw(); });
  onLang(draw);
  // The "next" of the links follows the page.
  window.addEventListener('plateau:navigate', () => { if (!account) draw(); });
  window.addEventListener('popstate', () => { if (!account) draw(); });
  getSession().then((a) => { account = a; draw(); });
}
