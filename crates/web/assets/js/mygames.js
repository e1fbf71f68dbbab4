// "My games" (/games): the games of the account logged in, live ones first
// (those waiting for its move marked), then the finished ones with their
// outcome and rating change.

import { api } from './api.js';
import { h, fill } from './dom.js';
import { t, onLang } from './i18n.js';
import { variantName } from './names.js';
import { getSession, setSession } from './session.js';
import { games, titleOf, dateText, changeEl, outcomeEl, opponentsEl, movesText } from './ratings.js';
import { errorText } from './account.js';

/** Show the account's games in `root`; returns a function that stops it. */
export function myGamesPage(root) {
  let stopped = false;
  let account;
  let list = null;
  let error = null;
  let catalog = [];
  let timer = null;

  const render = () => {
    if (stopped) return;
    document.title = `${t('my.title')} – Plateau`;
    if (account === undefined) {
      fill(root, h('p', { class: 'muted' }, '…'));
      return;
    }
    if (!account) {
      fill(root, h('section', { class: 'panel narrow' },
        h('h1', {}, t('my.title')),
        h('p', { 'data-state': 'guest' }, t('my.needLogin')),
        h('p', { class: 'row' },
          h('a', { class: 'button primary', href: '/login?next=/games', 'data-link': '' }, t('acct.logIn')),
          h('a', { class: 'button', href: '/signup?next=/games', 'data-link': '' }, t('acct.signUp')))));
      return;
    }
    let body;
    if (error) {
      body = h('section', { class: 'panel' }, h('p', { class: error.status === 404 ? 'muted' : 'error', 'data-state': 'unavailable' },
        error.status === 404 ? t('my.unavailable') : errorText(error)));
    } else if (!list) body = h('p', { class: 'muted' }, '…');
    else {
      const live = list.filter((g) => g.status === 'live' || g.status === 'open');
      const done = list.filter((g) => !(g.status === 'live' || g.status === 'open'));
      // The games waiting for this account's move come first.
      live.sort((a, b) => Number(!!b.your_turn) - Number(!!a.your_turn));
      body = [
        h('section', { class: 'panel', 'data-section': 'live' },
          h('h2', {}, t('my.live'), live.some((g) => g.your_turn) ? h('span', { class: 'badge turn-badge' }, t('my.turnCount', { n: live.filter((g) => g.your_turn).length })) : null),
          live.length ? h('ul', { class: 'games-list' }, live.map((g) => item(g, catalog))) : h('p', { class: 'muted' }, t('my.noLive'), ' ', h('a', { href: '/', 'data-link': '' }, t('my.newGame')))),
        h('section', { class: 'panel', 'data-section': 'finished' },
          h('h2', {}, t('my.finished')),
          done.length ? h('ul', { class: 'games-list' }, done.map((g) => item(g, catalog))) : h('p', { class: 'muted' }, t('my.noFinished'))),
      ];
    }
    fill(root, h('div', { class: 'my-games' },
      h('div', { class: 'row page-head' }, h('h1', { class: 'grow' }, t('my.title')),
        h('button', { type: 'button', 'data-action': 'refresh', onclick: () => load() }, t('my.refresh'))),
      body));
  };

  const load = async () => {
    try {
      list = (await api('/api/account/games')).games || [];
      error = null;
    } catch (e) {
      error = e;
      if (e.status === 401) {
        // The session has ended (logged out elsewhere, expired): say so everywhere.
        account = null;
        setSession(null);
      }
    }
    render();
  };

  const unLang = onLang(render);
  render();
  (async () => {
    [account, catalog] = await Promise.all([getSession(), games()]);
    if (stopped) return;
    render();
    if (!account) return;
    await load();
    // Keep "your turn" current while the page is open.
    if (!stopped && !(error && error.status === 404)) timer = setInterval(() => { if (document.visibilityState === 'visible') load(); }, 15000);
  })();
  return () => { stopped = true; clearInterval(timer); unLang(); };
}

function item(g, catalog) {
  const live = g.status === 'live' || g.status === 'open';
  const when = g.updated_at ?? g.created_at;
  let state;
  if (live) {
    state = g.your_turn
      ? h('span', { class: 'badge turn-badge', 'data-your-turn': 'true' }, t('my.yourTurn'))
      : h('span', { class: 'muted small' }, g.status === 'open' ? t('my.waitingPlayers') : t('my.theirTurn'));
  } else if (g.status === 'aborted') state = h('span', { class: 'muted small' }, t('my.aborted'));
  else state = h('span', { class: 'result-cell' }, outcomeEl(g.outcome), ' ', changeEl(g.rating_change));
  return h('li', { 'data-id': g.id, class: g.your_turn ? 'your-turn' : null },
    h('div', { class: 'what' },
      h('strong', {}, g.title || titleOf(catalog, g.game)), ' ',
      g.variant ? h('span', { class: 'muted small' }, variantName(g.game, g.variant)) : null,
      g.rated ? h('span', { class: 'badge rated' }, t('my.rated')) : null,
      h('div', { class: 'who' }, opponentsEl(g)),
      h('div', { class: 'who' }, movesText(g.moves), when ? ` · ${dateText(when, live)}` : '')),
    h('div', { class: 'end' },
      state,
      h('a', { class: ['button', live && g.your_turn && 'primary'], href: `/game/${encodeURIComponent(g.id)}`, 'data-link': '' },
        t(live ? (g.your_turn ? 'my.play' : 'my.open') : 'my.replay'))));
}
