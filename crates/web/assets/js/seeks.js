// Finding an opponent, in the lobby: quick pairing (a game and a time
// control: the oldest compatible seek is taken, else one is posted), the live
// list of seeks with their Accept buttons, a form to post a seek, and the
// account's challenges (incoming: accept or decline; outgoing: cancel).
//
// The lobby socket (`/api/lobby/ws`) pushes the seeks on every change and
// tells the owner of a seek when it is matched (an account is known by its
// cookie; a guest follows its seeks by their tokens, in a `hello`), and an
// account's challenges; while it is down the lists are polled. A seek lives
// while a lobby socket of its owner follows it (and a little after): the
// server drops it when nobody waits for it any more.

import { api, tokens, playerName } from './api.js';
import { h, fill, toast } from './dom.js';
import { t, onLang } from './i18n.js';
import { variantName } from './names.js';
import { errorText } from './errors.js';
import { navigate } from './nav.js';
import { playerPath } from './session.js';
import { ratingText } from './ratings.js';
import { PRESETS, controlText, controlLong, controlPicker } from './clock.js';

/** Time controls alike. */
const sameClock = (a, b) => (!a && !b) || (!!a && !!b && a.initial === b.initial && a.increment === b.increment && a.days === b.days);

const MINE = 'plateau.seeks';
const POLL = 5000;

/** The seeks this browser posted: id -> token (a guest's secret; null for an account's). */
function readMine() {
  try {
    const v = JSON.parse(sessionStorage.getItem(MINE) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}
function writeMine(m) {
  sessionStorage.setItem(MINE, JSON.stringify(m));
}

/** The challenges sent from this tab and not yet answered (their ids). */
const SENT = 'plateau.challenges.sent';

function readSent() {
  try {
    const v = JSON.parse(sessionStorage.getItem(SENT) || '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** Note a challenge sent from this tab: when it is accepted, even before the lobby's socket is back, the tab enters its game. */
export function noteSentChallenge(id) {
  sessionStorage.setItem(SENT, JSON.stringify([...readSent().filter((x) => x !== id), id].slice(-20)));
}

function forgetSent(id) {
  sessionStorage.setItem(SENT, JSON.stringify(readSent().filter((x) => x !== id)));
}

/** Go to a game this browser now has a seat in. */
function enter(r) {
  const id = r.game || r.id;
  if (r.token) tokens.set(id, r.token);
  navigate(`/game/${id}`);
}

/** Whether a game of the catalogue can be sought (two seats). */
const twoSeats = (g) => g.min_seats <= 2 && g.max_seats >= 2;

export class SeeksPanel {
  /**
   * @param {object} o
   * @param {object[]} o.catalog the catalogue's games
   * @param {object|null} o.account the account logged in
   * @param {() => string} o.game the game chosen in the lobby
   */
  constructor({ catalog, account, game }) {
    this.catalog = catalog.filter(twoSeats);
    this.account = account;
    this.lobbyGame = game;
    this.seeks = null; // null: not known yet
    this.unavailable = false;
    this.challenges = null; // {incoming, outgoing}
    this.mine = readMine();
    this.presets = null; // the server's quick pairing presets, by game
    this.form = { game: null, clock: { initial: 300, increment: 3 }, rated: false, min: '', max: '' };
    this.formOpen = false;
    this.other = { game: null, clock: { initial: 180, increment: 2 }, open: false };
    this.el = h('section', { class: 'panel seeks-panel', 'data-seeks': '' });
    this.ws = null;
    this.stopped = false;
    this.timers = [];
  }

  start() {
    this.unLang = onLang(() => this.render(true));
    api('/api/quick').then((r) => {
      this.presets = r && r.presets && typeof r.presets === 'object' ? r.presets : null;
      this.render();
    }, () => {});
    this.load();
    this.loadChallenges();
    this.connect();
    this.timers.push(setInterval(() => this.poll(), POLL));
  }

  stop() {
    this.stopped = true;
    for (const x of this.timers) clearInterval(x);
    clearTimeout(this.retry);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    if (this.unLang) this.unLang();
  }

  setAccount(a) {
    this.account = a;
    if (!a) this.form.rated = false;
    this.loadChallenges();
    // The socket knows who it serves from its upgrade request.
    if (this.ws) this.ws.close();
    this.render(true);
  }

  // ------------------------------------------------------------ the server

  connect() {
    if (this.stopped || this.unavailable) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    let ws;
    try {
      ws = new WebSocket(`${proto}://${location.host}/api/lobby/ws`);
    } catch {
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.wsOpen = true;
      this.attempt = 0;
      this.hello();
    };
    ws.onmessage = (e) => {
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      this.onFrame(m);
    };
    ws.onclose = () => {
      this.wsOpen = false;
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      this.attempt = (this.attempt || 0) + 1;
      this.retry = setTimeout(() => this.connect(), Math.min(10000, 500 * 2 ** this.attempt));
    };
    ws.onerror = () => {};
  }

  /** Follow the guest's seeks on the socket (an account's are followed by its cookie). */
  hello() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    // The latest ten (a hello names ten at most).
    const seeks = Object.entries(this.mine).filter(([, tok]) => tok).map(([id, token]) => ({ id, token })).slice(-10);
    if (seeks.length) this.ws.send(JSON.stringify({ type: 'hello', seeks }));
  }

  /** A seek of ours: kept (for this tab), followed, checked once (matched in between?). */
  addMine(id, token) {
    this.mine[id] = token || null;
    writeMine(this.mine);
    this.hello();
  }

  onFrame(m) {
    switch (m.type) {
      case 'seeks':
        this.seeks = Array.isArray(m.seeks) ? m.seeks : [];
        this.forgetGone();
        this.render();
        break;
      case 'matched':
        this.matched(m);
        break;
      case 'challenge':
      case 'challenges':
        this.challengeFrame(m);
        break;
      default:
        break;
    }
  }

  /** Without the socket: the lists again, and whether a seek of ours was taken. */
  poll() {
    if (this.stopped || this.unavailable) return;
    if (!this.wsOpen) {
      this.load();
      for (const id of Object.keys(this.mine)) this.checkMine(id);
    }
    if (this.account && !this.wsOpen) this.loadChallenges();
  }

  async load() {
    try {
      const r = await api('/api/seeks');
      this.seeks = r.seeks || [];
      this.unavailable = false;
      this.forgetGone();
    } catch (e) {
      if (e.status === 404 || e.status === 405) this.unavailable = true;
    }
    this.render();
  }

  /** Forget the seeks of ours no longer listed (unless matched: the socket or a check says so). */
  forgetGone() {
    if (!this.seeks) return;
    for (const id of Object.keys(this.mine)) {
      if (!this.seeks.some((s) => s.id === id)) this.checkMine(id);
    }
  }

  async checkMine(id) {
    const token = this.mine[id];
    try {
      const r = await api(`/api/seeks/${encodeURIComponent(id)}`, { token: token || undefined });
      if (r.status === 'matched' && r.game) this.matched({ seek: id, ...r });
    } catch (e) {
      if (e.status === 404 || e.status === 410) this.dropMine(id);
    }
  }

  dropMine(id) {
    delete this.mine[id];
    writeMine(this.mine);
    this.render();
  }

  /** A seek of ours was taken: to the game. (Old news of other seeks are not followed.) */
  matched(m) {
    if (this.stopped || !m.game || (m.seek && !(m.seek in this.mine))) return;
    if (m.seek) this.dropMine(m.seek);
    toast(t('seek.matched'));
    enter(m);
  }

  async cancel(id) {
    try {
      await api(`/api/seeks/${encodeURIComponent(id)}`, { method: 'DELETE', token: this.mine[id] || undefined });
    } catch (e) {
      if (e.status !== 404) toast(errorText(e), 'error');
    }
    this.dropMine(id);
    this.load();
  }

  async accept(seek, button) {
    button.disabled = true;
    const body = {};
    const name = playerName.get().trim();
    if (name && !this.account) body.name = name.slice(0, 40);
    try {
      enter(await api(`/api/seeks/${encodeURIComponent(seek.id)}/accept`, { method: 'POST', body }));
    } catch (e) {
      toast(errorText(e), 'error');
      button.disabled = false;
      this.load();
    }
  }

  /** Quick pairing: a game at once (an older seek taken), or a seek of ours to wait on. */
  async quick(game, clock, button) {
    if (button) button.disabled = true;
    const body = { game, clock };
    const name = playerName.get().trim();
    if (name && !this.account) body.name = name.slice(0, 40);
    try {
      const r = await api('/api/quick', { method: 'POST', body });
      if (r.game) {
        enter(r);
        return;
      }
      if (r.id) {
        this.addMine(r.id, r.token);
        if (!this.wsOpen) this.checkMine(r.id);
      }
      this.load();
    } catch (e) {
      toast(errorText(e), 'error');
    }
    if (button) button.disabled = false;
    this.render();
  }

  async post(button, error) {
    const f = this.form;
    const body = { game: f.game || this.lobbyGame() };
    if (f.clock) body.clock = f.clock;
    if (f.rated && this.account) body.rated = true;
    if (f.min !== '') body.rating_min = Number(f.min);
    if (f.max !== '') body.rating_max = Number(f.max);
    const name = playerName.get().trim();
    if (name && !this.account) body.name = name.slice(0, 40);
    button.disabled = true;
    try {
      const r = await api('/api/seeks', { method: 'POST', body });
      this.addMine(r.id, r.token);
      this.formOpen = false;
      toast(t('seek.posted'));
      this.render(true);
      this.load();
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
      button.disabled = false;
    }
  }

  // ------------------------------------------------------------ challenges

  async loadChallenges() {
    if (!this.account) {
      this.challenges = null;
      this.render();
      return;
    }
    try {
      const r = await api('/api/challenges');
      this.challenges = { incoming: r.incoming || [], outgoing: r.outgoing || [] };
    } catch {
      this.challenges = null;
    }
    this.render();
  }

  /**
   * The account's challenges (`challenges`: all of them, on connect) or the
   * news of one (`challenge`: made, accepted with this player's seat and
   * token, declined, cancelled, expired).
   */
  challengeFrame(m) {
    if (m.type === 'challenges') {
      this.challenges = { incoming: m.incoming || [], outgoing: m.outgoing || [] };
      this.render();
      return;
    }
    const c = m.challenge || {};
    const me = this.account && this.account.name.toLowerCase();
    const outgoing = !!me && String(c.from || '').toLowerCase() === me;
    if (c.status === 'accepted' && m.game) {
      // News told again to a new socket (`again`): only the tab that sent
      // the challenge and has not entered its game yet goes to it.
      const sentHere = readSent().includes(c.id);
      forgetSent(c.id);
      if (m.again && !sentHere) return;
      if (outgoing) toast(t('chal.accepted', { who: c.to }));
      enter(m);
      return;
    }
    if (c.status !== 'open') forgetSent(c.id);
    if (c.status === 'declined' && outgoing) toast(t('chal.declined', { who: c.to }));
    const list = this.challenges || { incoming: [], outgoing: [] };
    const without = (xs) => xs.filter((x) => x.id !== c.id);
    list.incoming = without(list.incoming);
    list.outgoing = without(list.outgoing);
    if (c.status === 'open') (outgoing ? list.outgoing : list.incoming).push(c);
    this.challenges = list;
    this.render();
  }

  async answer(c, yes, button) {
    button.disabled = true;
    try {
      const r = await api(`/api/challenges/${encodeURIComponent(c.id)}/${yes ? 'accept' : 'decline'}`, { method: 'POST', body: {} });
      if (yes) {
        enter(r);
        return;
      }
    } catch (e) {
      toast(errorText(e), 'error');
    }
    this.loadChallenges();
  }

  async withdraw(c, button) {
    button.disabled = true;
    try {
      await api(`/api/challenges/${encodeURIComponent(c.id)}`, { method: 'DELETE' });
    } catch (e) {
      toast(errorText(e), 'error');
    }
    this.loadChallenges();
  }

  // ------------------------------------------------------------ drawing

  title(game) {
    const g = this.catalog.find((x) => x.name === game);
    return g ? g.title : game;
  }

  /**
   * Draw the panel: its forms once (again on a change of language or
   * account: a form being filled in keeps its focus when the lists change),
   * the lists and the seeks waiting on every change.
   */
  build() {
    this.parts = { challenges: h('div'), waiting: h('div'), quick: h('div'), list: h('div') };
    fill(this.el,
      h('h2', {}, t('seek.title')),
      this.parts.challenges,
      h('div', { class: 'quick' },
        h('h3', {}, t('seek.quick')),
        h('p', { class: 'help' }, t(this.account ? 'seek.quickHelpRated' : 'seek.quickHelpCasual')),
        this.parts.waiting, this.parts.quick, this.otherBox()),
      this.parts.list,
      this.formBox());
  }

  render(again = false) {
    if (this.stopped) return;
    if (this.unavailable) {
      fill(this.el);
      this.parts = null;
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    if (again || !this.parts) this.build();
    fill(this.parts.challenges, this.challengesBox());
    const [waiting, rows] = this.quickBox();
    fill(this.parts.waiting, waiting);
    fill(this.parts.quick, rows);
    fill(this.parts.list, this.listBox());
  }

  /** Whether a listed seek is ours (this tab's, or the account's). */
  isMine(s) {
    if (s.id in this.mine) return true;
    return !!(this.account && s.account && s.player && s.player.toLowerCase() === this.account.name.toLowerCase());
  }

  /** The presets of quick pairing for `game`: the server's, else the usual ones. */
  presetsOf(game) {
    const list = this.presets && Array.isArray(this.presets[game]) ? this.presets[game] : null;
    return list || PRESETS.map(([m, s]) => ({ initial: m * 60, increment: s }));
  }

  quickBox() {
    const mine = (this.seeks || []).filter((s) => this.isMine(s));
    const rows = this.catalog.map((g) => h('div', { class: 'quick-row', 'data-quick-game': g.name },
      h('span', { class: 'quick-game' }, g.title),
      h('span', { class: 'quick-presets' }, this.presetsOf(g.name).map((clock) => {
        const on = mine.some((s) => s.game === g.name && sameClock(s.clock, clock));
        const label = controlText(clock);
        return h('button', {
          type: 'button', class: on ? 'primary' : '', 'data-quick': label, 'aria-pressed': on ? 'true' : null,
          title: t('seek.quickTitle', { game: g.title, tc: controlLong(clock) }),
          disabled: on,
          onclick: (e) => this.quick(g.name, clock, e.currentTarget),
        }, label);
      }))));
    const waiting = mine.map((s) => h('div', { class: 'seek-waiting row', role: 'status', 'data-waiting': s.id },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('span', { class: 'grow' }, t('seek.waiting', { game: this.title(s.game), tc: controlText(s.clock) })),
      h('button', { type: 'button', 'data-action': 'cancel-seek', onclick: () => this.cancel(s.id) }, t('seek.cancel'))));
    return [waiting, rows];
  }

  /** Quick pairing on a time control of one's own. */
  otherBox() {
    const o = this.other;
    const game = o.game || (this.catalog.some((g) => g.name === this.lobbyGame()) ? this.lobbyGame() : this.catalog[0] && this.catalog[0].name);
    const go = h('button', { type: 'submit', class: 'primary', 'data-action': 'quick-other' }, t('seek.find'));
    const form = h('form', { class: 'quick-other' },
      h('label', { class: 'field' }, h('span', {}, t('lobby.game')),
        h('select', { name: 'quick-game', onchange: (e) => { o.game = e.target.value; } },
          this.catalog.map((g) => h('option', { value: g.name, selected: g.name === game }, g.title)))),
      h('div', { class: 'field' }, h('span', {}, t('tc.title')), controlPicker(o.clock, (c) => { o.clock = c; }, 'quick-clock')),
      h('div', { class: 'row' }, go));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.quick(o.game || game, o.clock, go);
    });
    const details = h('details', { class: 'seek-post', 'data-quick-other': '' }, h('summary', {}, t('seek.other')), form);
    details.open = o.open;
    details.addEventListener('toggle', () => { o.open = details.open; });
    return details;
  }

  listBox() {
    // Ours are above, each with its Cancel button.
    const list = this.seeks && this.seeks.filter((x) => !this.isMine(x));
    let body;
    if (list === null) body = h('p', { class: 'muted small' }, '…');
    else if (!list.length) body = h('p', { class: 'muted small', 'data-state': 'no-seeks' }, t('seek.none'));
    else {
      body = h('ul', { class: 'games-list seeks' }, list.map((s) => {
        const range = s.rating_min != null || s.rating_max != null
          ? ` · ${t('seek.range', { min: s.rating_min ?? '…', max: s.rating_max ?? '…' })}`
          : '';
        const who = s.account ? s.player : null;
        const needLogin = s.rated && !this.account;
        const action = h('button', {
          type: 'button', class: 'primary', 'data-action': 'accept-seek', disabled: needLogin,
          title: needLogin ? t('seek.ratedLogIn') : null,
          onclick: () => this.accept(s, action),
        }, t('seek.accept'));
        return h('li', { 'data-seek': s.id },
          h('div', { class: 'what' },
            h('strong', {}, this.title(s.game)), ' ', s.variant ? h('span', { class: 'muted small' }, variantName(s.game, s.variant)) : null,
            h('div', { class: 'who' },
              who ? h('a', { href: playerPath(who), 'data-link': '' }, s.player || who) : (s.player || t('rt.guest')),
              typeof s.rating === 'number' ? ` (${ratingText(s.rating, s.provisional)})` : '',
              ' · ', controlText(s.clock),
              ' · ', t(s.rated ? 'play.rated' : 'play.casual'),
              range)),
          action);
      }));
    }
    return h('div', { class: 'seek-list' }, h('h3', {}, t('seek.list')), body);
  }

  formBox() {
    const f = this.form;
    const game = f.game || this.lobbyGame();
    const error = h('p', { class: 'error small', role: 'alert', hidden: true });
    const submit = h('button', { type: 'submit', class: 'primary', 'data-action': 'post-seek' }, t('seek.post'));
    const form = h('form', { class: 'seek-form' },
      h('label', { class: 'field' }, h('span', {}, t('lobby.game')),
        h('select', { name: 'seek-game', onchange: (e) => { f.game = e.target.value; } },
          this.catalog.map((g) => h('option', { value: g.name, selected: g.name === game }, g.title)))),
      h('div', { class: 'field' }, h('span', {}, t('tc.title')), controlPicker(f.clock, (c) => { f.clock = c; }, 'seek-clock')),
      h('div', { class: 'field' },
        h('label', { class: 'check' }, h('input', {
          type: 'checkbox', name: 'seek-rated', checked: f.rated && !!this.account, disabled: !this.account,
          onchange: (e) => { f.rated = e.target.checked; },
        }), ' ', t('lobby.rated')),
        this.account ? null : h('p', { class: 'help' }, t('lobby.ratedLogIn'))),
      h('div', { class: 'field row' },
        h('label', { class: 'tc-num' }, h('span', {}, t('seek.min')), h('input', { type: 'number', name: 'seek-min', min: 0, max: 4000, step: 50, value: f.min, oninput: (e) => { f.min = e.target.value; } })),
        h('label', { class: 'tc-num' }, h('span', {}, t('seek.max')), h('input', { type: 'number', name: 'seek-max', min: 0, max: 4000, step: 50, value: f.max, oninput: (e) => { f.max = e.target.value; } }))),
      error,
      h('div', { class: 'row' }, submit));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.post(submit, error);
    });
    const details = h('details', { class: 'seek-post' }, h('summary', {}, t('seek.postTitle')), form);
    details.open = this.formOpen;
    details.addEventListener('toggle', () => { this.formOpen = details.open; });
    return details;
  }

  challengesBox() {
    const c = this.challenges;
    if (!this.account || !c || (!c.incoming.length && !c.outgoing.length)) return null;
    const line = (x) => [h('strong', {}, this.title(x.game)), ' · ', controlText(x.clock), ' · ', t(x.rated ? 'play.rated' : 'play.casual')];
    return h('div', { class: 'challenges', 'data-challenges': '' },
      h('h3', {}, t('chal.title')),
      h('ul', { class: 'games-list' },
        c.incoming.map((x) => {
          const yes = h('button', { type: 'button', class: 'primary', 'data-action': 'accept-challenge', onclick: () => this.answer(x, true, yes) }, t('chal.accept'));
          const no = h('button', { type: 'button', 'data-action': 'decline-challenge', onclick: () => this.answer(x, false, no) }, t('chal.decline'));
          return h('li', { 'data-challenge': x.id, class: 'incoming' },
            h('div', { class: 'what' }, t('chal.from'), ' ', h('a', { href: playerPath(x.from), 'data-link': '' }, x.from), h('div', { class: 'who' }, line(x))),
            yes, no);
        }),
        c.outgoing.map((x) => {
          const cancel = h('button', { type: 'button', 'data-action': 'withdraw-challenge', onclick: () => this.withdraw(x, cancel) }, t('seek.cancel'));
          return h('li', { 'data-challenge': x.id, class: 'outgoing' },
            h('div', { class: 'what' }, t('chal.to'), ' ', h('a', { href: playerPath(x.to), 'data-link': '' }, x.to), h('div', { class: 'who' }, line(x), ' · ', t('chal.waiting'))),
            cancel);
        })));
  }
}
