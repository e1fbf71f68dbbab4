// What the player pages share: the catalogue's game titles, ratings as
// players read them (whole points, "?" while provisional), dates, outcomes,
// rating changes and the other players of a game.

import { api } from './api.js';
import { h } from './dom.js';
import { t, getLang } from './i18n.js';
import { playerPath } from './session.js';

let catalog;

/** The catalogue's games (`[]` if it cannot be read). */
export function games() {
  if (!catalog) {
    catalog = api('/api/catalog').then((r) => r.games || []).catch(() => {
      catalog = null;
      return [];
    });
  }
  return catalog;
}

/** The title of game `name` in `list` (the catalogue), or the name. */
export function titleOf(list, name) {
  const g = (list || []).find((x) => x.name === name);
  return g ? g.title : name;
}

/** A rating as shown: whole points, then "?" when provisional. */
export function ratingText(r, provisional) {
  if (typeof r !== 'number' || !Number.isFinite(r)) return '–';
  return `${Math.round(r)}${provisional ? '?' : ''}`;
}

/** A rating as an element, with its tooltip when provisional. */
export function ratingEl(r, provisional, cls = 'rating') {
  return h('span', {
    class: [cls, provisional && 'provisional'],
    title: provisional ? t('rt.provisionalHelp') : null,
    'data-provisional': provisional ? 'true' : null,
  }, ratingText(r, provisional));
}

/** A date (ms since 1970) in the interface's language. */
export function dateText(ms, withTime = false) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  const opts = { year: 'numeric', month: 'short', day: 'numeric' };
  if (withTime) Object.assign(opts, { hour: '2-digit', minute: '2-digit' });
  return new Date(ms).toLocaleString(getLang() === 'fr' ? 'fr-FR' : 'en-GB', opts);
}

/** "1 move", "12 moves" in the interface's language. */
export function movesText(n) {
  const k = Number(n) || 0;
  return t(k === 1 || (k === 0 && getLang() === 'fr') ? 'rt.move1' : 'rt.moves', { n: k });
}

/** A rating change with its sign (+12, −8, ±0), or null when there is none. */
export function changeText(d) {
  if (typeof d !== 'number' || !Number.isFinite(d)) return null;
  const r = Math.round(d);
  if (r > 0) return `+${r}`;
  if (r < 0) return `\u2212${-r}`;
  return '±0';
}

/** A rating change as an element (empty when there is none). */
export function changeEl(d) {
  const text = changeText(d);
  if (text === null) return null;
  const r = Math.round(d);
  return h('span', { class: ['delta', r > 0 ? 'up' : r < 0 ? 'down' : 'same'], title: t('rt.changeHelp') }, text);
}

/** The outcome of a game for a player (`win`, `draw`, `loss`) as a badge. */
export function outcomeEl(outcome) {
  if (!outcome) return null;
  return h('span', { class: ['outcome', outcome], 'data-outcome': outcome }, t(`rt.${outcome}`, {}, outcome));
}

/** A seat of a listed game as text or a link: an account, a computer level, a guest. */
export function seatEl(s) {
  if (s.kind === 'computer') {
    // A computer's player is its spec (`ai:3`), in `spec` or in `player`.
    const spec = s.spec || s.player || '';
    const lvl = /^ai:(\d)$/.exec(spec);
    const label = lvl ? t('rt.computerLevel', { n: lvl[1] }) : (spec || t('rt.computer'));
    return lvl ? h('a', { href: playerPath(`computer-${lvl[1]}`), 'data-link': '' }, label) : h('span', {}, label);
  }
  if (s.open) return h('span', { class: 'muted' }, t('rt.openSeat'));
  // An account's seat: `account` is its name, or `true` with the name as `player`.
  const acct = typeof s.account === 'string' ? s.account : s.account === true ? s.player : null;
  if (acct) return h('a', { href: playerPath(acct), 'data-link': '' }, acct);
  return h('span', {}, s.player || t('rt.guest'));
}

/** The other seats of a game (`seats`) than `seat`, as elements joined by commas. */
export function opponentsEl(game) {
  const others = (game.seats || []).filter((s) => s.seat !== game.seat);
  const out = [];
  others.forEach((s, i) => {
    if (i) out.push(', ');
    out.push(seatEl(s));
  });
  return h('span', { class: 'opponents' }, out.length ? [t('rt.vs'), ' ', out] : '');
}
