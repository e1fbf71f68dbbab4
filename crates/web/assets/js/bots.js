// The bots, in the lobby: accounts played by programs (`GET /api/bots`),
// each with whether it is online (a lobby socket of its program is open),
// its rating per game, the games it plays, its description, and a
// "Challenge" button that opens the challenge form of a player's page
// (challenge.js) for that bot, limited to its games. The list is read again
// every 15 s; a bot whose line did not change keeps its element, so that a
// challenge form being filled stays open.

import { api } from './api.js';
import { h, fill } from './dom.js';
import { t, onLang } from './i18n.js';
import { playerPath } from './session.js';
import { games, titleOf, ratingText } from './ratings.js';
import { challengeBox } from './challenge.js';

const POLL = 15000;

export class BotsPanel {
  constructor() {
    this.el = h('section', { class: 'panel bots-panel', 'data-section': 'bots', hidden: true });
    this.bots = [];
    this.catalog = [];
    this.items = new Map();
    this.timer = null;
  }

  start() {
    this.unLang = onLang(() => { this.items.clear(); this.render(); });
    games().then((c) => { this.catalog = c; this.items.clear(); this.render(); });
    this.load();
    this.timer = setInterval(() => this.load(), POLL);
  }

  stop() {
    clearInterval(this.timer);
    if (this.unLang) this.unLang();
  }

  async load() {
    try {
      const r = await api('/api/bots');
      this.bots = Array.isArray(r.bots) ? r.bots : [];
    } catch {
      return; // keep the last list
    }
    this.render();
  }

  render() {
    // No bot on this server: no section.
    this.el.hidden = this.bots.length === 0;
    if (!this.bots.length) {
      fill(this.el);
      return;
    }
    const list = h('ul', { class: 'games-list bots', 'data-list': 'bots' });
    const seen = new Map();
    for (const b of this.bots) {
      const key = JSON.stringify(b);
      let li = this.items.get(b.name);
      if (!li || li.dataset.key !== key) li = this.item(b, key);
      seen.set(b.name, li);
      list.append(li);
    }
    this.items = seen;
    fill(this.el, h('h2', {}, t('bots.title')), h('p', { class: 'help' }, t('bots.help')), list);
  }

  item(b, key) {
    const s = b.settings || {};
    const plays = (s.games || []).map((g) => titleOf(this.catalog, g)).join(', ');
    const ratings = Object.entries(b.ratings || {}).map(([g, r]) =>
      h('span', { class: 'bot-rating', 'data-game': g }, `${titleOf(this.catalog, g)} ${ratingText(r.rating, r.provisional)}`));
    const kinds = [s.rated ? t('bots.rated') : null, s.casual ? t('bots.casual') : null].filter(Boolean).join(' · ');
    const li = h('li', { 'data-bot': b.name, 'data-online': String(!!b.online) },
      h('div', { class: 'what' },
        h('div', { class: 'row' },
          h('span', { class: `dot${b.online ? ' on' : ''}`, role: 'img', 'aria-label': t(b.online ? 'bots.online' : 'bots.offline'), title: t(b.online ? 'bots.online' : 'bots.offline') }),
          h('a', { href: playerPath(b.name), 'data-link': '' }, h('strong', {}, b.name)),
          h('span', { class: 'badge bot' }, t('prof.bot'))),
        s.description ? h('div', { class: 'who bot-description' }, s.description) : null,
        h('div', { class: 'who' }, t('bots.plays', { games: plays }), kinds ? ` · ${kinds}` : ''),
        h('div', { class: 'who' }, ratings.length ? ratings.reduce((acc, x, i) => (i ? [...acc, ' · ', x] : [x]), []) : t('prof.unrated'),
          ` · ${t('bots.played', { n: b.played || 0 })}`)),
      challengeBox(b.name, false, s.games || null));
    li.dataset.key = key;
    return li;
  }
}
