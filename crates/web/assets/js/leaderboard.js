// The leaderboards (/leaderboard, /leaderboard/{game}): per game, the players
// with a settled rating, best first.

import { api } from './api.js';
import { h, fill } from './dom.js';
import { t, onLang } from './i18n.js';
import { playerPath } from './session.js';
import { games, titleOf, ratingText } from './ratings.js';

const LAST = 'plateau.leaderboard';

/** Show the leaderboard of `game` (or the last one seen) in `root`; returns a function that stops it. */
export function leaderboardPage(root, game) {
  let stopped = false;
  let catalog = null;
  let current = game;
  const boards = new Map(); // game → {players} | {error}
  const tabsBox = h('div');
  const tableBox = h('div', { id: 'leaderboard-panel', role: 'tabpanel' });

  /** Mark the tab picked (in place: a focused tab keeps the focus). */
  const markTabs = () => {
    for (const b of tabsBox.querySelectorAll('[role="tab"]')) {
      const on = b.dataset.tab === current;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
    }
  };

  const renderTabs = () => {
    if (!catalog) return;
    const tabs = catalog.map((g) => h('button', {
      type: 'button', role: 'tab', id: `lb-tab-${g.name}`, 'aria-controls': 'leaderboard-panel',
      'aria-selected': String(g.name === current), tabindex: g.name === current ? 0 : -1, 'data-tab': g.name,
      onclick: () => pick(g.name),
    }, g.title));
    const list = h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('lb.games') }, tabs);
    // Arrow keys move between the tabs (and pick them), as a tab list does.
    list.addEventListener('keydown', (e) => {
      const i = catalog.findIndex((g) => g.name === current);
      let j = null;
      if (e.key === 'ArrowRight' || e.key === 'ArrowDown') j = (i + 1) % catalog.length;
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') j = (i - 1 + catalog.length) % catalog.length;
      else if (e.key === 'Home') j = 0;
      else if (e.key === 'End') j = catalog.length - 1;
      if (j === null) return;
      e.preventDefault();
      pick(catalog[j].name);
      const tab = tabsBox.querySelector(`[data-tab="${catalog[j].name}"]`);
      if (tab) tab.focus();
    });
    fill(tabsBox, list);
  };

  const renderTable = () => {
    if (!catalog) return;
    const title = titleOf(catalog, current);
    tableBox.setAttribute('aria-labelledby', `lb-tab-${current}`);
    const b = boards.get(current);
    let body;
    if (!b) body = h('p', { class: 'muted' }, '…');
    else if (b.error) {
      body = h('p', { class: b.error.status === 404 ? 'muted' : 'error', 'data-state': 'unavailable' },
        b.error.status === 404 ? t('lb.unavailable') : b.error.message);
    } else if (!b.players.length) body = h('p', { class: 'muted', 'data-state': 'empty' }, t('lb.empty', { game: title }));
    else {
      body = h('div', { class: 'table-wrap' }, h('table', { class: 'scores leaderboard' },
        h('caption', { class: 'sr-only' }, t('lb.of', { game: title })),
        h('thead', {}, h('tr', {},
          h('th', { class: 'num', scope: 'col' }, t('lb.rank')),
          h('th', { scope: 'col' }, t('lb.player')),
          h('th', { class: 'num', scope: 'col' }, t('prof.rating')),
          h('th', { class: 'num', scope: 'col', title: t('prof.rdHelp') }, t('prof.rd')),
          h('th', { class: 'num', scope: 'col' }, t('prof.games')))),
        h('tbody', {}, b.players.map((p) => h('tr', { 'data-player': p.name },
          h('td', { class: 'num' }, String(p.rank)),
          h('td', {},
            h('a', { href: playerPath(p.name), 'data-link': '' }, p.name),
            p.computer ? h('span', { class: 'badge computer' }, t('prof.computer')) : null),
          h('td', { class: 'num strong' }, ratingText(p.rating, false)),
          h('td', { class: 'num' }, typeof p.deviation === 'number' ? String(Math.round(p.deviation)) : '–'),
          h('td', { class: 'num' }, String(p.games ?? '')))))));
    }
    fill(tableBox, h('h2', {}, t('lb.of', { game: title })), body, h('p', { class: 'help' }, t('lb.help')));
  };

  const load = async (g) => {
    if (boards.has(g) && !boards.get(g).error) return;
    try {
      const r = await api(`/api/leaderboard/${encodeURIComponent(g)}?limit=100`);
      boards.set(g, { players: r.players || [] });
    } catch (e) {
      boards.set(g, { error: e });
    }
    if (!stopped && g === current) renderTable();
  };

  const pick = (g) => {
    if (g === current && boards.has(g)) return;
    current = g;
    localStorage.setItem(LAST, g);
    const path = `/leaderboard/${encodeURIComponent(g)}`;
    if (location.pathname !== path) history.replaceState(null, '', path);
    markTabs();
    renderTable();
    load(g);
  };

  const render = () => {
    if (stopped) return;
    document.title = `${t('lb.title')} – Plateau`;
    if (!catalog) {
      fill(root, h('p', { class: 'muted' }, '…'));
      return;
    }
    fill(root, h('section', { class: 'panel leaderboard-page' }, h('h1', {}, t('lb.title')), tabsBox, tableBox));
    renderTabs();
    renderTable();
  };

  const unLang = onLang(render);
  render();
  (async () => {
    const list = await games();
    if (stopped) return;
    if (!list.length) {
      fill(root, h('p', { class: 'error' }, t('lb.noCatalog')));
      return;
    }
    catalog = list;
    const last = localStorage.getItem(LAST);
    if (!catalog.some((g) => g.name === current)) current = catalog.some((g) => g.name === last) ? last : catalog[0].name;
    render();
    pick(current);
  })();
  return () => { stopped = true; unLang(); };
}
