// A player's page (/player/{name}): per game the rating, its deviation, the
// games played and their results, a chart of the rating's history (inline
// SVG), and the player's recent games.

import { api } from './api.js';
import { h, s, fill } from './dom.js';
import { t, onLang } from './i18n.js';
import { variantName } from './names.js';
import { getSession } from './session.js';
import { challengeBox } from './challenge.js';
import { games, titleOf, ratingEl, dateText, changeEl, outcomeEl, opponentsEl, movesText } from './ratings.js';

/** Show the page of player `name` in `root`; returns a function that stops it. */
export function profilePage(root, name) {
  let stopped = false;
  let data = null;
  let error = null;
  let catalog = [];
  let me = null;
  const render = () => {
    if (stopped) return;
    if (error) {
      document.title = `${t('prof.notFound')} – Plateau`;
      fill(root, h('section', { class: 'panel narrow' },
        h('h1', {}, error.status === 404 ? t('prof.notFound') : t('prof.error')),
        h('p', { 'data-state': 'not-found' }, error.status === 404 ? t('prof.noSuch', { name }) : error.message),
        h('p', {}, h('a', { href: '/leaderboard', 'data-link': '' }, t('lb.title')))));
      return;
    }
    if (!data) {
      fill(root, h('p', { class: 'muted' }, '…'));
      return;
    }
    document.title = `${data.name} – Plateau`;
    fill(root, profileView(data, catalog, me && me.name.toLowerCase() === data.name.toLowerCase()));
  };
  const unLang = onLang(render);
  render();
  (async () => {
    const [p, list, session] = await Promise.all([
      api(`/api/players/${encodeURIComponent(name)}`).catch((e) => { error = e; return null; }),
      games(),
      getSession(),
    ]);
    data = p;
    catalog = list;
    me = session;
    render();
  })();
  return () => { stopped = true; unLang(); };
}

/** What a bot's page says of it: online or not, its description, what it plays. */
function botInfo(info, catalog) {
  if (!info) return null;
  const s = info.settings || {};
  const plays = (s.games || []).map((g) => titleOf(catalog, g)).join(', ');
  return h('div', { class: 'bot-info', 'data-bot-info': '' },
    h('p', { class: 'row' },
      h('span', { class: `dot${info.online ? ' on' : ''}`, role: 'img', 'aria-label': t(info.online ? 'bots.online' : 'bots.offline') }),
      t(info.online ? 'bots.online' : 'bots.offline'), ' · ', t('prof.botHelp')),
    s.description ? h('p', { class: 'bot-description' }, s.description) : null,
    h('p', { class: 'muted' }, t('bots.plays', { games: plays })));
}

function profileView(p, catalog, mine) {
  const ratings = p.ratings || {};
  const results = p.results || {};
  const history = p.history || {};
  const recent = Array.isArray(p.recent) ? p.recent : null;
  // Every game the player has something in, in the catalogue's order.
  const names = new Set([...Object.keys(ratings), ...Object.keys(results), ...Object.keys(history)]);
  const order = catalog.map((g) => g.name).filter((g) => names.has(g));
  for (const g of names) if (!order.includes(g)) order.push(g);

  const head = h('section', { class: 'panel profile-head' },
    h('h1', {},
      h('span', { class: 'player-name' }, p.name),
      p.computer ? h('span', { class: 'badge computer', 'data-computer': 'true' }, t('prof.computer')) : null,
      p.bot ? h('span', { class: 'badge bot', 'data-bot': 'true' }, t('prof.bot')) : null),
    p.computer
      ? h('p', { class: 'muted' }, t('prof.computerHelp'))
      : (p.created_at ? h('p', { class: 'muted' }, t('prof.since', { date: dateText(p.created_at) })) : null),
    p.bot ? botInfo(p.bot_info, catalog) : null,
    mine ? h('p', {}, h('a', { href: '/account', 'data-link': '' }, t('prof.settings')), ' · ', h('a', { href: '/games', 'data-link': '' }, t('acct.myGames'))) : null,
    mine ? null : challengeBox(p.name, p.computer, p.bot && p.bot_info && p.bot_info.settings ? p.bot_info.settings.games : null));

  const cards = order.map((g) => gameCard(g, titleOf(catalog, g), ratings[g], results[g], history[g] || []));
  const perGame = cards.length
    ? h('div', { class: 'profile-games' }, cards)
    : h('section', { class: 'panel' }, h('p', { class: 'muted', 'data-state': 'no-games' }, t('prof.noGames')));

  let recentBox = null;
  if (recent) {
    recentBox = h('section', { class: 'panel', 'data-section': 'recent' },
      h('h2', {}, t('prof.recent')),
      recent.length
        ? h('ul', { class: 'games-list recent' }, recent.map((g) => recentItem(g, catalog)))
        : h('p', { class: 'muted' }, t('prof.noRecent')));
  }
  return h('div', { class: 'profile', 'data-player': p.name }, head, perGame, recentBox);
}

function stat(label, value, attrs = {}) {
  return h('div', { class: 'stat', ...attrs }, h('span', { class: 'stat-label' }, label), h('span', { class: 'stat-value' }, value));
}

function gameCard(game, title, rating, results, history) {
  const stats = h('div', { class: 'stats' });
  if (rating) {
    stats.append(
      stat(t('prof.rating'), ratingEl(rating.rating, rating.provisional), { 'data-stat': 'rating' }),
      stat(t('prof.rd'), typeof rating.deviation === 'number' ? String(Math.round(rating.deviation)) : '–', { 'data-stat': 'rd', title: t('prof.rdHelp') }),
      stat(t('prof.games'), String(rating.games ?? 0), { 'data-stat': 'games', title: t('prof.gamesHelp') }));
  } else {
    stats.append(stat(t('prof.rating'), h('span', { class: 'muted' }, t('prof.unrated')), { 'data-stat': 'rating' }));
  }
  if (results) {
    const w = results.wins ?? 0, d = results.draws ?? 0, l = results.losses ?? 0;
    stats.append(stat(t('prof.results'),
      h('span', { class: 'wdl', 'aria-label': t('prof.wdlLong', { w, d, l }) },
        h('span', { class: 'w', title: t('rt.win') }, String(w)), ' / ',
        h('span', { class: 'd', title: t('rt.draw') }, String(d)), ' / ',
        h('span', { class: 'l', title: t('rt.loss') }, String(l))),
      { 'data-stat': 'results', title: t('prof.wdl') }));
  }
  return h('section', { class: 'panel game-stats', 'data-game': game },
    h('h2', {}, h('a', { href: `/leaderboard/${encodeURIComponent(game)}`, 'data-link': '', title: t('lb.of', { game: title }) }, title)),
    stats,
    history.length ? chart(title, history) : null);
}

/** A step for about `n` ticks over `span` points: 1, 2 or 5 times a power of ten. */
function niceStep(span, n) {
  const raw = Math.max(span / n, 1);
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/**
 * The rating after each rated game as an SVG chart: rating ticks on the left,
 * one point a game (in order), joined by a line; each point says when, the
 * rating and the change, and links to the game.
 */
export function chart(title, history) {
  // As wide as the page allows (up to 560 units), so that the text stays legible on a phone.
  const W = Math.round(Math.min(560, Math.max(300, document.documentElement.clientWidth - 70)));
  const H = 220, L = 50, R = 14, T = 12, B = 28;
  const ys = history.map((x) => x.rating);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 40) { const mid = (hi + lo) / 2; lo = mid - 20; hi = mid + 20; }
  const step = niceStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const n = history.length;
  const x = (i) => (n === 1 ? L + (W - L - R) / 2 : L + (i * (W - L - R)) / (n - 1));
  const y = (r) => T + ((hi - r) * (H - T - B)) / (hi - lo);
  const r1 = (v) => Math.round(v * 10) / 10;

  const svg = s('svg', {
    class: 'rating-chart', viewBox: `0 0 ${W} ${H}`, role: 'group',
    'aria-label': t('prof.chartLabel', { game: title, n }),
    preserveAspectRatio: 'xMidYMid meet',
  });
  svg.append(s('desc', {}, t('prof.chartDesc')));
  const axes = s('g', { class: 'axes' });
  // The first and the last game's dates under the axis (with the time when they are a day apart or less).
  const sameDay = n > 1 && history[n - 1].at - history[0].at < 86400000;
  for (let v = lo; v <= hi + 1e-9; v += step) {
    axes.append(
      s('line', { class: 'grid', x1: L, x2: W - R, y1: r1(y(v)), y2: r1(y(v)) }),
      s('text', { x: L - 6, y: r1(y(v)) + 5, 'text-anchor': 'end' }, String(Math.round(v))));
  }
  axes.append(
    s('line', { class: 'axis', x1: L, x2: L, y1: T, y2: H - B }),
    s('line', { class: 'axis', x1: L, x2: W - R, y1: H - B, y2: H - B }),
    s('text', { x: L, y: H - 8, 'text-anchor': 'start' }, dateText(history[0].at, sameDay)));
  if (n > 1) axes.append(s('text', { x: W - R, y: H - 8, 'text-anchor': 'end' }, dateText(history[n - 1].at, sameDay)));
  svg.append(axes);
  svg.append(s('polyline', { class: 'line', points: history.map((p, i) => `${r1(x(i))},${r1(y(p.rating))}`).join(' ') }));
  const points = s('g', { class: 'points' });
  history.forEach((p, i) => {
    const prev = i ? history[i - 1].rating : null;
    const delta = prev === null ? '' : ` (${Math.round(p.rating) - Math.round(prev) >= 0 ? '+' : '\u2212'}${Math.abs(Math.round(p.rating) - Math.round(prev))})`;
    const label = t('prof.point', { date: dateText(p.at, true), rating: Math.round(p.rating), rd: Math.round(p.deviation ?? 0) }) + delta;
    const dot = s('circle', { cx: r1(x(i)), cy: r1(y(p.rating)), r: n > 60 ? 3 : 4.5 });
    const hit = s('circle', { class: 'hit', cx: r1(x(i)), cy: r1(y(p.rating)), r: 10 });
    const el = p.game_id
      ? s('a', { href: `/game/${encodeURIComponent(p.game_id)}`, 'data-link': '', 'aria-label': label, 'data-game-id': p.game_id }, s('title', {}, label), hit, dot)
      : s('g', {}, s('title', {}, label), hit, dot);
    points.append(el);
  });
  svg.append(points);
  return h('figure', { class: 'chart' }, svg, h('figcaption', { class: 'small muted' }, t('prof.chartCaption')));
}

function recentItem(g, catalog) {
  const date = g.updated_at ?? g.created_at;
  return h('li', { 'data-id': g.id },
    h('div', { class: 'what' },
      h('strong', {}, g.title || titleOf(catalog, g.game)), ' ',
      g.variant ? h('span', { class: 'muted small' }, variantName(g.game, g.variant)) : null,
      h('div', { class: 'who' }, opponentsEl(g)),
      h('div', { class: 'who' }, date ? dateText(date) : '', g.moves !== undefined ? ` · ${movesText(g.moves)}` : '')),
    h('div', { class: 'end' },
      h('span', { class: 'result-cell' }, outcomeEl(g.outcome), ' ', changeEl(g.rating_change)),
      h('a', { class: 'button', href: `/game/${encodeURIComponent(g.id)}`, 'data-link': '' }, t('prof.view'))));
}
