// The lobby: create a game, join an open one, watch a live one, replay a
// finished one; seeks and challenges (seeks.js), the bots (bots.js).

import { api, tokens, playerName, localSeats } from './api.js';
import { variantName, optionName, valueName } from './names.js';
import { h, toast, fill } from './dom.js';
import { t, onLang, levelLabel, getLang } from './i18n.js';
import { drawing } from './games/index.js';
import { navigate } from './nav.js';
import { getSession, onSession, playerPath } from './session.js';
import { ratingText } from './ratings.js';
import { controlPicker, controlText } from './clock.js';
import { SeeksPanel } from './seeks.js';
import { BotsPanel } from './bots.js';
import { errorText } from './errors.js';

const LAST = 'plateau.lastGame';
const CLOCK = 'plateau.clock';

/** The time control chosen last (kept in localStorage), or null. */
function lastClock() {
  try {
    const c = JSON.parse(localStorage.getItem(CLOCK) || 'null');
    if (c && typeof c === 'object' && (Number.isInteger(c.days) || Number.isInteger(c.initial))) return c;
  } catch {
    /* none */
  }
  return null;
}

/** Show the lobby in `root`; returns a function that stops it. */
export function lobbyPage(root) {
  const page = new Lobby(root);
  page.start();
  return () => page.stop();
}

/** A catalogue text in the current language: the game's own translation, or the server's words. */
function catText(key, english) {
  const v = t(key, {}, '');
  return getLang() === 'en' || !v ? english : v;
}

class Lobby {
  constructor(root) {
    this.root = root;
    this.catalog = null;
    this.game = null;
    this.variant = null;
    this.options = {};
    this.seatChoice = [];
    this.localNames = [];
    this.setup = null;
    this.setupError = null;
    this.tab = 'open';
    this.lists = { open: [], live: [], finished: [] };
    this.next = { open: null, live: null, finished: null };
    this.timers = [];
    this.account = null;
    this.rated = false;
    this.clock = lastClock();
    this.createError = null;
  }

  async start() {
    document.title = 'Plateau';
    this.unLang = onLang(() => this.render());
    this.unSession = onSession((a) => {
      this.account = a;
      if (!a) this.rated = false;
      this.renderForm();
      if (this.seeks) this.seeks.setAccount(a);
    });
    fill(this.root, h('p', { class: 'muted' }, '…'));
    try {
      const [cat, account] = await Promise.all([api('/api/catalog'), getSession()]);
      this.catalog = cat.games;
      this.account = account;
    } catch (e) {
      fill(this.root, h('p', { class: 'error' }, e.message));
      return;
    }
    const last = localStorage.getItem(LAST);
    this.pick(this.catalog.find((g) => g.name === last) ? last : this.catalog[0].name, false);
    this.seeks = new SeeksPanel({ catalog: this.catalog, account: this.account, game: () => this.game });
    this.bots = new BotsPanel();
    this.render();
    this.refreshSetup();
    this.seeks.start();
    this.bots.start();
    this.loadLists();
    this.timers.push(setInterval(() => this.loadLists(), 10000));
  }

  stop() {
    for (const x of this.timers) clearInterval(x);
    clearTimeout(this.debounce);
    if (this.unLang) this.unLang();
    if (this.unSession) this.unSession();
    if (this.seeks) this.seeks.stop();
    if (this.bots) this.bots.stop();
  }

  get info() {
    return this.catalog.find((g) => g.name === this.game);
  }

  pick(game, refresh = true) {
    this.game = game;
    if (this.seeks) this.seeks.render();
    localStorage.setItem(LAST, game);
    this.variant = this.info.variants[0] ? this.info.variants[0].name : null;
    this.options = {};
    this.seatChoice = [];
    this.setup = null;
    if (refresh) {
      this.render();
      this.refreshSetup();
    }
  }

  /** Ask the server what this configuration gives (seats, or what is wrong). */
  refreshSetup() {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(async () => {
      const body = { game: this.game, options: this.sentOptions() };
      if (this.variant) body.variant = this.variant;
      try {
        this.setup = await api('/api/setup', { method: 'POST', body });
        this.setupError = null;
      } catch (e) {
        this.setupError = e.message;
      }
      const n = this.setup ? this.setup.seats.length : 0;
      while (this.seatChoice.length < n) this.seatChoice.push(this.seatChoice.length === 0 ? 'me' : 'ai:3');
      this.seatChoice.length = n;
      if (n && !this.seatChoice.includes('me') && this.seatChoice.some((c) => c === 'open')) this.seatChoice[this.seatChoice.indexOf('open')] = 'me';
      this.renderSeats();
    }, 150);
  }

  sentOptions() {
    const out = {};
    for (const [k, v] of Object.entries(this.options)) if (v !== '' && v !== undefined && v !== null) out[k] = v;
    return out;
  }

  /**
   * Why this game cannot be rated (a key of i18n), or null: rated games are
   * between accounts, with the creator seated, and set-ups of one's own
   * (a position, a board, a sheet: text and content options) are casual.
   */
  unratedWhy() {
    if (!this.account) return 'lobby.ratedLogIn';
    const custom = Object.keys(this.sentOptions()).some((k) => {
      const o = this.info.options.find((x) => x.name === k);
      return o && (o.kind.type === 'text' || o.kind.type === 'content');
    });
    if (custom) return 'lobby.ratedCustom';
    if (this.seatChoice.length && !this.seatChoice.includes('me')) return 'lobby.ratedSeated';
    if (this.seatChoice.includes('here')) return 'lobby.ratedHere';
    return null;
  }

  async create(button) {
    const seats = this.seatChoice.map((c) => (c.startsWith('ai:') ? { kind: 'computer', player: c } : { kind: 'human' }));
    const body = { game: this.game, options: this.sentOptions(), seats };
    if (this.variant) body.variant = this.variant;
    const me = this.seatChoice.indexOf('me');
    if (me >= 0) body.seat = me;
    const name = playerName.get().trim();
    if (name && !this.account) body.name = name.slice(0, 40);
    if (this.rated && !this.unratedWhy()) body.rated = true;
    if (this.clock) body.clock = this.clock;
    button.disabled = true;
    button.textContent = t('lobby.creating');
    this.createError = null;
    try {
      const r = await api('/api/games', { method: 'POST', body });
      if (r.token) tokens.set(r.id, r.token);
      // Pass and play: this browser takes the seats of the others at this
      // screen too (as guests: an account holds one seat of a game), and keeps
      // each seat's token.
      const here = this.seatChoice.map((c, i) => (c === 'here' ? i : -1)).filter((i) => i >= 0);
      if (here.length && r.token) {
        const list = [r.token];
        for (const i of here) {
          const who = (this.localNames[i] || '').trim() || t('lobby.hereName', { n: i + 1 });
          try {
            const j = await api(`/api/games/${encodeURIComponent(r.id)}/join`, { method: 'POST', body: { seat: i, name: who.slice(0, 40) }, guest: true });
            list.push(j.token);
          } catch (e) {
            // The game exists: go to it all the same (the seat stays open, to be taken from its page).
            toast(errorText(e), 'error');
          }
        }
        localSeats.set(r.id, list);
      }
      navigate(`/game/${r.id}`);
    } catch (e) {
      // The server's words, under the button.
      this.createError = errorText(e);
      this.renderSeats();
    }
  }

  async loadLists(status) {
    const which = status ? [status] : ['open', 'live', 'finished'];
    await Promise.all(which.map(async (st) => {
      try {
        const r = await api(`/api/games?status=${st}&limit=20`);
        this.lists[st] = r.games;
        this.next[st] = r.next;
      } catch {
        /* keep the last listing */
      }
    }));
    this.renderLists();
  }

  async more(st) {
    try {
      const r = await api(`/api/games?status=${st}&limit=20&cursor=${encodeURIComponent(this.next[st])}`);
      this.lists[st] = this.lists[st].concat(r.games);
      this.next[st] = r.next;
      this.renderLists();
    } catch (e) {
      toast(e.message, 'error');
    }
  }

  async joinGame(id) {
    const name = playerName.get().trim();
    try {
      const r = await api(`/api/games/${encodeURIComponent(id)}/join`, { method: 'POST', body: name ? { name: name.slice(0, 40) } : {} });
      tokens.set(id, r.token);
      navigate(`/game/${id}`);
    } catch (e) {
      toast(errorText(e), 'error');
      this.loadLists('open');
    }
  }

  render() {
    if (!this.catalog) return;
    this.formBox = h('div');
    this.listBox = h('div');
    fill(this.root, 
      h('div', { class: 'lobby' },
        h('section', { class: 'panel' }, h('h1', {}, t('lobby.new')), this.formBox),
        h('div', {}, this.seeks ? this.seeks.el : null, this.bots ? this.bots.el : null, h('section', { class: 'panel' }, this.listBox))),
    );
    if (this.seeks) this.seeks.render();
    this.renderForm();
    this.renderLists();
  }

  renderForm() {
    if (!this.formBox) return;
    const info = this.info;
    const g = info.name;
    const cards = h('div', { class: 'game-cards', role: 'group', 'aria-label': t('lobby.game') },
      this.catalog.map((c) => h('button', {
        type: 'button', class: 'game-card', 'aria-pressed': String(c.name === g), 'data-game': c.name,
        onclick: () => this.pick(c.name),
      },
      h('strong', {}, c.title),
      h('span', { class: 'small muted' }, catText(`cat.${c.name}.summary`, c.summary)))));

    const variant = info.variants.find((v) => v.name === this.variant);
    const variantField = info.variants.length ? h('label', { class: 'field' },
      h('span', {}, t('lobby.variant')),
      h('select', {
        name: 'variant',
        onchange: (e) => { this.variant = e.target.value; this.refreshSetup(); this.renderForm(); },
      }, info.variants.map((v) => h('option', { value: v.name, selected: v.name === this.variant }, variantName(g, v.name)))),
      variant ? h('p', { class: 'help' }, catText(`cat.${g}.variant.${variant.name}`, variant.help)) : null) : null;

    const presets = new Map((variant ? variant.options : []).map(([k, v]) => [k, v]));
    const options = h('details', { class: 'options' }, h('summary', {}, t('lobby.options')),
      info.options.map((o) => this.optionField(g, o, presets.get(o.name))));
    options.open = this.optionsOpen || Object.keys(this.sentOptions()).length > 0;
    options.addEventListener('toggle', () => { this.optionsOpen = options.open; });

    const name = this.account
      ? h('p', { class: 'field playing-as', 'data-playing-as': this.account.name }, t('lobby.playAs'), ' ',
        h('a', { href: playerPath(this.account.name), 'data-link': '' }, this.account.name))
      : h('label', { class: 'field' }, h('span', {}, t('lobby.name')),
        h('input', {
          type: 'text', name: 'name', maxlength: 40, value: playerName.get(), placeholder: t('lobby.namePlaceholder'),
          oninput: (e) => playerName.set(e.target.value),
        }));
    const clock = h('div', { class: 'field' }, h('span', {}, t('tc.title')),
      controlPicker(this.clock, (c) => {
        this.clock = c;
        localStorage.setItem(CLOCK, JSON.stringify(c));
      }, 'clock'));
    this.seatsBox = h('div');
    fill(this.formBox,
      cards,
      h('p', { class: 'small' }, h('a', { href: `/rules/${g}`, 'data-link': '' }, t('lobby.rules', { game: info.title }))),
      variantField, options, name, clock, this.seatsBox);
    this.renderSeats();
  }

  /** The seats, what is wrong with the configuration, and the button. */
  renderSeats() {
    if (!this.seatsBox) return;
    const info = this.info;
    const g = info.name;
    const seats = h('div', { class: 'seats-form' }, h('div', { class: 'field' }, h('span', {}, t('lobby.seats'))));
    if (this.setup && this.setup.game === g) {
      const d = drawing(g);
      this.setup.seats.forEach((seat, i) => {
        const choice = this.seatChoice[i];
        const sel = h('select', {
          name: `seat-${i}`,
          onchange: (e) => {
            const v = e.target.value;
            if (v === 'me') this.seatChoice = this.seatChoice.map((c) => (c === 'me' ? 'open' : c));
            this.seatChoice[i] = v;
            this.renderSeats();
          },
        },
        h('option', { value: 'me', selected: choice === 'me' }, t('lobby.me')),
        h('option', { value: 'here', selected: choice === 'here' }, t('lobby.here')),
        h('option', { value: 'open', selected: choice === 'open' }, t('lobby.open')),
        (info.levels || []).map((l) => h('option', { value: `ai:${l.level}`, selected: choice === `ai:${l.level}`, 'data-rating': typeof l.rating === 'number' ? Math.round(l.rating) : null },
          t('lobby.computer', { n: l.level, label: getLang() === 'en' ? l.label : levelLabel(l.level) }),
          typeof l.rating === 'number' ? ` · ${t('lobby.levelRating', { r: ratingText(l.rating, l.provisional) })}` : '')));
        const seatName = d.seatName ? d.seatName(i, seat.name, t) : seat.name;
        seats.append(h('label', { class: 'seat' },
          h('span', { class: 'row' }, h('span', { class: 'chip', style: `background:${d.seatColour(i, this.setup.view)}` }),
            seatName),
          sel));
        if (choice === 'here') {
          seats.append(h('label', { class: 'field here-name' },
            h('span', { class: 'small' }, t('lobby.hereNameOf', { seat: seatName })),
            h('input', {
              type: 'text', name: `here-name-${i}`, maxlength: 40, value: this.localNames[i] || '',
              placeholder: t('lobby.hereName', { n: i + 1 }),
              oninput: (e) => { this.localNames[i] = e.target.value; },
            })));
        }
      });
    }
    const humans = this.seatChoice.filter((c) => !c.startsWith('ai:')).length;
    const needMe = humans > 0 && !this.seatChoice.includes('me');
    const why = this.unratedWhy();
    if (why) this.rated = false;
    const rated = h('div', { class: 'field rated-field' },
      h('label', { class: 'check' },
        h('input', {
          type: 'checkbox', name: 'rated', checked: this.rated, disabled: !!why,
          onchange: (e) => { this.rated = e.target.checked; this.createError = null; this.renderSeats(); },
        }), ' ', h('strong', {}, t('lobby.rated'))),
      h('p', { class: 'help' }, why === 'lobby.ratedLogIn'
        ? [t(why), ' ', h('a', { href: '/login', 'data-link': '' }, t('acct.logIn')), ' · ', h('a', { href: '/signup', 'data-link': '' }, t('acct.signUp'))]
        : t(why || (this.rated ? 'lobby.ratedOn' : 'lobby.ratedHelp'))));
    const create = h('button', { type: 'button', class: 'primary', 'data-action': 'create', disabled: !this.setup || !!this.setupError || needMe }, t('lobby.create'));
    create.addEventListener('click', () => this.create(create));
    fill(this.seatsBox, seats,
      needMe ? h('p', { class: 'help' }, t('lobby.needMe')) : null,
      rated,
      this.setupError ? h('p', { class: 'error', role: 'alert' }, this.setupError) : null,
      this.createError ? h('p', { class: 'error', role: 'alert', 'data-create-error': '' }, this.createError) : null,
      h('div', { class: 'row', style: 'margin:.4rem 0' }, create));
  }

  optionField(game, o, preset) {
    const cur = this.options[o.name] ?? '';
    const dflt = preset ?? o.default;
    const set = (v) => { this.options[o.name] = v; this.refreshSetup(); };
    let input;
    const k = o.kind;
    if (k.type === 'choice' || k.type === 'bool') {
      const values = k.type === 'bool' ? ['true', 'false'] : k.values;
      input = h('select', { name: `opt-${o.name}`, onchange: (e) => set(e.target.value) },
        h('option', { value: '', selected: cur === '' }, t('lobby.default', { v: dflt === '' ? t('lobby.unset') : valueName(game, o.name, dflt) })),
        values.map((v) => h('option', { value: v, selected: String(cur) === v },
          k.type === 'bool' ? t(v === 'true' ? 'lobby.on' : 'lobby.off') : valueName(game, o.name, v))));
    } else if (k.type === 'int' || k.type === 'optional_int') {
      input = h('input', {
        type: 'number', name: `opt-${o.name}`, min: k.min, max: k.max, step: 1, value: cur,
        placeholder: t('lobby.default', { v: dflt === '' ? t('lobby.unset') : valueName(game, o.name, dflt) }),
        oninput: (e) => set(e.target.value === '' ? '' : Number(e.target.value)),
      });
    } else {
      input = h('input', {
        type: 'text', name: `opt-${o.name}`, value: cur,
        placeholder: t('lobby.default', { v: dflt === '' ? t('lobby.unset') : valueName(game, o.name, dflt) }),
        oninput: (e) => set(e.target.value),
      });
    }
    return h('label', { class: 'field', 'data-option': o.name }, h('span', {}, optionName(game, o.name)), input,
      h('p', { class: 'help' }, catText(`cat.${game}.option.${o.name}`, o.help)));
  }

  renderLists() {
    if (!this.listBox) return;
    // A tab that had the focus keeps it when the lists are drawn anew (every 10 s, and after a choice).
    const active = document.activeElement;
    const tabFocused = !!active && this.listBox.contains(active) && active.getAttribute('role') === 'tab';
    const order = ['open', 'live', 'finished'];
    const choose = (k, focus) => {
      this.tab = k;
      this.renderLists();
      this.loadLists(k);
      if (focus) this.listBox.querySelector(`[data-tab="${k}"]`).focus();
    };
    const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('lobby.games') },
      [['open', 'lobby.tabOpen'], ['live', 'lobby.tabLive'], ['finished', 'lobby.tabFinished']].map(([k, key]) => h('button', {
        type: 'button', role: 'tab', 'aria-selected': String(this.tab === k), 'data-tab': k,
        // One tab in the Tab order; the arrows go from tab to tab.
        tabindex: this.tab === k ? '0' : '-1',
        onclick: () => choose(k, false),
        onkeydown: (e) => {
          const d = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
          if (!d) return;
          e.preventDefault();
          choose(order[(order.indexOf(k) + d + order.length) % order.length], true);
        },
      }, `${t(key)} (${this.lists[k].length}${this.next[k] ? '+' : ''})`)));
    const games = this.lists[this.tab];
    const list = h('ul', { class: 'games-list', 'data-list': this.tab });
    for (const gm of games) list.append(this.gameItem(gm));
    const empty = { open: 'lobby.noneOpen', live: 'lobby.noneLive', finished: 'lobby.noneFinished' }[this.tab];
    fill(this.listBox, tabs,
      games.length ? list : h('p', { class: 'muted' }, t(empty)),
      this.next[this.tab] ? h('button', { type: 'button', onclick: () => this.more(this.tab) }, t('lobby.more')) : null);
    if (tabFocused) this.listBox.querySelector(`[data-tab="${this.tab}"]`).focus();
  }

  gameItem(gm) {
    const d = drawing(gm.game);
    const mine = tokens.get(gm.id) !== null;
    const who = gm.seats.map((s) => {
      const seatName = d.seatName ? d.seatName(s.seat, null, t) : `#${s.seat + 1}`;
      const lvl = /^ai:(\d)$/.exec(s.spec || '');
      const p = s.kind === 'computer' ? (lvl ? t('lobby.cpu', { n: lvl[1] }) : s.spec || 'computer') : s.open ? t('lobby.openSeat') : (s.player || t('seat.person'));
      return `${seatName}: ${p}`;
    }).join(' · ');
    let action;
    const link = (key, cls = '') => h('a', { class: `button ${cls}`, href: `/game/${gm.id}`, 'data-link': '' }, t(key));
    if (mine) action = link('lobby.resume', 'primary');
    else if (gm.status === 'open') {
      action = h('button', { type: 'button', class: 'primary', 'data-action': 'join', onclick: () => this.joinGame(gm.id) }, t('lobby.join'));
    } else if (gm.status === 'live') action = link('lobby.watch');
    else action = link('lobby.replay');
    return h('li', { 'data-id': gm.id },
      h('div', { class: 'what' },
        h('strong', {}, gm.title || gm.game), ' ', h('span', { class: 'muted small' }, variantName(gm.game, gm.variant)),
        h('div', { class: 'who' }, who),
        h('div', { class: 'who' }, t('lobby.moves', { n: gm.moves }), gm.result ? ` · ${gm.result}` : '', gm.termination ? ` (${t(`reason.${gm.termination}`, {}, gm.termination)})` : '',
          gm.rated ? ` · ${t('play.rated')}` : '', gm.clock ? ` · ${controlText(gm.clock)}` : '')),
      action);
  }
}
