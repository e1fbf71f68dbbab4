// The game page: the board, the moves, the seats, the result and the actions
// of one game, kept live by the game's WebSocket.

import { api, tokens, playerName, ApiError, localSeats } from './api.js';
import { variantName } from './names.js';
import { h, s as svgEl, clear, toast, fill } from './dom.js';
import { t, onLang, levelLabel } from './i18n.js';
import { Interaction } from './interact.js';
import { drawing } from './games/index.js';
import { GameClocks, controlText, controlLong, isCorrespondence, TICK_MS } from './clock.js';
import { ChatPanel, CHAT_ERRORS } from './chat.js';
import { moveSound, tickSound, soundSwitch } from './sounds.js';
import { ratingText, changeEl } from './ratings.js';
import { getSession, onSession, playerPath } from './session.js';
import { errorText } from './errors.js';
import { GameAnalysis } from './analysis.js';

const BACKOFF = [250, 1000, 2000, 4000, 8000];

/** Pass and play, games with secrets: the board hidden while no seat of this screen is to move. */
const VEIL = -1;

/**
 * The socket of a seat held at this screen that is not the one shown (pass
 * and play): it keeps the seat present at the table (so that nobody may
 * claim against it) and reconnects by itself; what it receives is not shown
 * (the page shows one seat's view at a time, through its own socket).
 */
class SeatLink {
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.lastHeard = Date.now();
  }

  start() {
    if (this.stopped) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(this.id)}/ws`);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token: this.token, gestures: false }));
    ws.onmessage = (e) => {
      this.lastHeard = Date.now();
      this.attempt = 0;
      // A token the server no longer knows: nothing to keep present.
      if (typeof e.data === 'string' && e.data.includes('"bad_token"')) this.stop();
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.stopped) return;
      this.ws = null;
      this.retry = setTimeout(() => this.start(), BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)]);
      this.attempt += 1;
    };
    ws.onerror = () => {};
    clearInterval(this.ping);
    this.ping = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.lastHeard > 35000) this.ws.close();
      else this.ws.send(JSON.stringify({ type: 'ping' }));
    }, 10000);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.ping);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

/** The gestures of a state or update (old servers: moves as targets only). */
function legalOf(m) {
  if (Array.isArray(m.legal)) return m.legal;
  if (Array.isArray(m.legal_moves)) return m.legal_moves.map((mv) => ({ move: mv, select: [], targets: [mv] }));
  return null;
}

/** The events that change the position: a new turn begins. */
const TURN_EVENTS = new Set(['move', 'join', 'leave', 'takeback']);

/** A small clock face. */
function clockIcon() {
  const line = { fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6, 'stroke-linecap': 'round' };
  return svgEl('svg', { class: 'icon', viewBox: '0 0 20 20', width: 15, height: 15, 'aria-hidden': 'true', focusable: 'false' },
    svgEl('circle', { cx: 10, cy: 11, r: 7, ...line }), svgEl('path', { d: 'M10 7v4l2.5 2M8 2.5h4', ...line }));
}

/** Show the game `id` in `root`; returns a function that stops it. */
export function gamePage(root, id) {
  const page = new GamePage(root, id);
  page.start();
  return () => page.stop();
}

class GamePage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.token = tokens.get(id);
    this.ownToken = this.token;
    this.local = new Map(); // pass and play: seat -> token of every seat held at this screen
    this.links = []; // their sockets (SeatLink), one per local seat
    this.passTo = null; // a seat the device is being passed to (games with secrets): nothing shown until confirmed
    this.st = null; // the state as the server last described it
    this.history = [];
    this.movers = [];
    this.legal = null;
    this.prevLive = null; // the view one move before the live position
    this.viewing = null; // a ply being looked at, or null for the live position
    this.positions = new Map(); // ply -> {view, last_move, to_move}
    this.ws = null;
    this.conn = 'connecting';
    this.attempt = 0;
    this.stopped = false;
    this.timers = [];
    this.lastHeard = Date.now();
    this.pendingAction = null;
    this.confirming = null;
    this.account = null; // the account logged in, if any
    this.ratings = null; // a rated game's rating changes, once over
    this.offset = null; // this browser's clock minus the server's, in ms (estimated)
    this.turnAt = 0; // when the position last changed (server's ms), as far as known
    this.lastTick = null;
  }

  async start() {
    fill(this.root, h('p', { class: 'muted' }, t('game.loading')));
    this.unLang = onLang(() => {
      this.render();
      if (this.chat) this.chat.render();
    });
    this.keys = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keys);
    this.onOnline = () => this.reconnectSoon(0);
    window.addEventListener('online', this.onOnline);
    // The browser knows it is offline: say so at once (the socket may take a while to notice).
    this.onOffline = () => {
      if (this.conn === 'open') this.setConn('reconnecting');
    };
    window.addEventListener('offline', this.onOffline);
    this.clocks = new GameClocks(this.root, { onTick: (seat, ms) => this.tick(seat, ms) });
    this.sound = soundSwitch();
    this.unSession = onSession((a) => {
      this.account = a;
      this.renderChat();
    });
    getSession().then((a) => {
      this.account = a;
      this.renderChat();
    });
    try {
      let s = await this.fetchState();
      s = await this.findLocalSeats(s);
      this.applyState(s, true);
    } catch (e) {
      fill(this.root, h('div', { class: 'panel' },
        h('h1', {}, t('game.notFound')),
        h('p', { class: 'error' }, e.message),
        h('p', {}, h('a', { href: '/', 'data-link': '' }, t('nav.back')))));
      return;
    }
    this.connect();
    for (const l of this.links) l.start();
    this.timers.push(setInterval(() => this.heartbeat(), 10000));
    this.timers.push(setInterval(() => this.renderClaim(), 500));
  }

  stop() {
    this.stopped = true;
    for (const x of this.timers) clearInterval(x);
    clearTimeout(this.retry);
    if (this.ws) this.ws.close();
    if (this.unLang) this.unLang();
    if (this.unSession) this.unSession();
    if (this.clocks) this.clocks.stop();
    if (this.sound) this.sound.detach();
    if (this.analysis) this.analysis.stop();
    if (this.interaction) this.interaction.detach();
    for (const l of this.links) l.stop();
    document.removeEventListener('keydown', this.keys);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
  }

  /** Whether several seats of this game are played at this screen. */
  get passAndPlay() {
    return this.local.size > 1;
  }

  /** Whether the game hides something from some seats (Kabaleo's colours): the device is then passed behind a screen. */
  get secretive() {
    return !!(this.draw && this.draw.secret);
  }

  /**
   * Pass and play: the seats of every token this browser keeps for the game
   * (asked of the server, one token at a time: a token says its seat), their
   * sockets, and the seat shown first (the one to move, if it is here). Returns
   * the state as the seat shown sees it.
   */
  async findLocalSeats(s) {
    const list = localSeats.get(this.id);
    if (list.length < 2) return s;
    for (const tok of list) {
      try {
        const x = tok === this.token ? s : await api(`/api/games/${encodeURIComponent(this.id)}`, { token: tok });
        if (typeof x.you === 'number') this.local.set(x.you, tok);
      } catch {
        /* a token no longer valid: not a seat here */
      }
    }
    if (this.local.size < 2) {
      this.local.clear();
      return s;
    }
    this.links = [...this.local.values()].map((tok) => new SeatLink(this.id, tok));
    const first = s.status === 'live' && this.local.has(s.to_move) ? s.to_move : s.you;
    if (typeof first === 'number' && this.local.has(first) && this.local.get(first) !== this.token) {
      this.token = this.local.get(first);
      s = await api(`/api/games/${encodeURIComponent(this.id)}`, { token: this.token });
    }
    // A game with secrets starts behind the screen too: whoever holds the device now may not be that player.
    if (s.status === 'live' && drawing(s.game).secret) this.passTo = s.you;
    return s;
  }

  /**
   * Pass and play: when the turn comes to another seat held here, show that
   * seat (its token, its socket, its view); in a game with secrets, behind the
   * pass screen until that player says they hold the device.
   */
  followTurn() {
    const s = this.st;
    if (!this.passAndPlay || !s || s.status !== 'live' || typeof s.to_move !== 'number') return;
    if (!this.local.has(s.to_move)) {
      // Others play (a computer, a remote player): in a game with secrets the
      // last local player's view is hidden meanwhile (the device may change hands).
      if (this.secretive && this.passTo === null && this.switching === undefined) {
        this.passTo = VEIL;
        this.render();
      }
      return;
    }
    if (s.to_move === s.you) {
      if (this.passTo === VEIL) {
        this.passTo = s.you;
        this.render();
      }
      return;
    }
    if (this.switching === s.to_move) return;
    const seat = s.to_move;
    this.switching = seat;
    this.token = this.local.get(seat);
    if (this.secretive) this.passTo = seat;
    // Nothing of the previous seat's view is kept: the positions it fetched, the selection.
    this.positions.clear();
    this.prevLive = null;
    this.shown = null;
    this.viewing = null;
    if (this.interaction) this.interaction.setLegal(null);
    this.legal = null;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = null;
      old.onmessage = null;
      old.close();
    }
    clearTimeout(this.retry);
    // Another seat's socket, not a lost connection.
    this.conn = 'connecting';
    this.attempt = 0;
    this.connect();
    this.render();
  }

  /** The player the device was passed to has it: show their view. */
  confirmPass() {
    if (this.passTo === null || !this.st || this.st.you !== this.passTo) return;
    this.passTo = null;
    this.render();
    const board = this.el && this.el.board.querySelector('svg.board [tabindex="0"]');
    if (board) board.focus({ preventScroll: true });
  }

  async fetchState() {
    try {
      return await api(`/api/games/${encodeURIComponent(this.id)}`, { token: this.token });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'bad_token' && this.token) {
        tokens.forget(this.id);
        this.token = null;
        return api(`/api/games/${encodeURIComponent(this.id)}`);
      }
      throw e;
    }
  }

  // ---------------------------------------------------------------- socket

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(this.id)}/ws`);
    this.ws = ws;
    this.setConn(this.attempt === 0 && !this.st ? 'connecting' : this.conn === 'open' ? 'reconnecting' : this.conn);
    ws.onopen = () => {
      const hello = { type: 'hello' };
      if (this.token) hello.token = this.token;
      if (this.st) hello.version = this.st.version;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      this.lastHeard = Date.now();
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      this.onFrame(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      this.setConn('reconnecting');
      this.reconnectSoon(BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)]);
      this.attempt += 1;
    };
    ws.onerror = () => {};
  }

  reconnectSoon(ms) {
    if (this.stopped) return;
    clearTimeout(this.retry);
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) && ms > 0) return;
    this.retry = setTimeout(() => {
      if (this.ws) {
        const old = this.ws;
        this.ws = null;
        old.onclose = null;
        old.close();
      }
      this.connect();
    }, ms);
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > 35000) {
      // Nothing heard for too long: the connection is dead.
      this.ws.close();
      return;
    }
    this.ws.send(JSON.stringify({ type: 'ping' }));
  }

  setConn(c) {
    this.conn = c;
    const el = this.root.querySelector('.conn');
    if (el) {
      el.dataset.state = c;
      el.textContent = t(`conn.${c}`);
    }
    this.renderOffline();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return Promise.resolve();
    }
    // No socket: the same action over HTTP (with the seat's token, or as the account logged in).
    if (!this.token && !this.account) return Promise.reject(new ApiError(0, 'offline', t('conn.reconnecting')));
    return api(`/api/games/${encodeURIComponent(this.id)}/action`, { method: 'POST', body: msg, token: this.token || undefined })
      .catch((e) => {
        toast(errorText(e), 'error');
        if (e.data && e.data.state) this.applyState(e.data.state, false);
        this.interaction && this.interaction.setBusy(false);
      });
  }

  onFrame(m) {
    switch (m.type) {
      case 'welcome':
        this.attempt = 0;
        this.setConn('open');
        for (const e of m.events || []) {
          this.takeRatings(e);
          this.noteTurn(e);
        }
        if (this.switching !== undefined && m.state && m.state.you === this.switching) this.switching = undefined;
        this.applyState(m.state, false);
        if (this.chat) this.chat.replace(m.chat);
        break;
      case 'chat':
        if (this.chat) this.chat.add(m);
        break;
      case 'update':
        this.applyUpdate(m);
        break;
      case 'state':
        this.applyState(m.state, false);
        break;
      case 'presence':
        if (this.st && this.st.seats[m.seat]) {
          const seat = this.st.seats[m.seat];
          seat.online = m.online;
          // Gone since now (as the server counts time).
          seat.gone_since = m.online ? null : this.serverNow();
          this.renderSeats();
          this.renderClaim();
        }
        break;
      case 'spectators':
        if (this.st) {
          this.st.spectators = m.count;
          this.renderSeats();
        }
        break;
      case 'error':
        if (m.code === 'bad_token') {
          tokens.forget(this.id);
          this.token = null;
          toast(t('game.badToken'), 'error');
          return;
        }
        if (CHAT_ERRORS.has(m.code) && this.chat) {
          this.chat.showError(m);
          return;
        }
        toast(errorText(m), 'error');
        if (m.state) this.applyState(m.state, false);
        else if (this.interaction) this.interaction.setBusy(false);
        break;
      default:
        break;
    }
  }

  // ---------------------------------------------------------------- state

  applyState(s, first) {
    if (typeof s.turn_since === 'number') this.turnAt = Math.max(this.turnAt, s.turn_since);
    const before = this.st;
    this.st = s;
    if (Array.isArray(s.history)) {
      this.history = s.history.slice();
      this.movers = (s.movers || []).slice();
    } else if (this.history.length !== s.ply) {
      this.fetchHistory();
    }
    this.legal = legalOf(s);
    if (!before || before.ply !== s.ply) this.prevLive = null;
    if (before && before.status !== 'finished' && s.status === 'finished') this.positions.clear();
    // After a takeback the positions past the new end are no more.
    if (before && s.ply < before.ply) this.positions.clear();
    if (!Array.isArray(s.takeback_offers)) s.takeback_offers = [];
    if (s.result && Array.isArray(s.result.ratings)) this.ratings = s.result.ratings;
    if (first || !this.root.querySelector('.game')) this.layout();
    this.clocks.set(s.clock, s.clocks, s.clock_running);
    if (s.status !== 'live') this.passTo = null;
    // The game starts (its last seat taken): the colours are dealt now, behind the screen.
    if (before && before.status === 'open' && s.status === 'live' && this.passAndPlay && this.secretive) this.passTo = VEIL;
    this.render();
    if (!this.prevLive && s.ply > 0) this.loadPrevLive();
    this.followTurn();
  }

  applyUpdate(m) {
    const s = this.st;
    if (!s || m.version <= s.version) return;
    const evs = m.events || [];
    if (evs.length && evs[0].version !== s.version + 1) {
      // A gap: ask for everything again.
      this.send({ type: 'sync' });
      return;
    }
    const oldView = s.view;
    let moves = 0;
    let undone = false;
    const now = Date.now();
    for (const e of evs) {
      if (typeof e.at === 'number') this.offset = this.offset === null ? now - e.at : Math.min(this.offset, now - e.at);
      if (e.kind === 'move') {
        this.history.push(e.move);
        this.movers.push(e.seat);
        moves += 1;
      } else if (e.kind === 'takeback') {
        const n = Math.min(Number(e.plies) || 0, this.history.length);
        this.history.length -= n;
        this.movers.length = Math.min(this.movers.length, this.history.length);
        undone = true;
      }
      this.takeRatings(e);
      this.noteTurn(e);
    }
    const wasFinished = s.status === 'finished';
    const wasOpen = s.status === 'open';
    Object.assign(s, {
      version: m.version, ply: m.ply, status: m.status, to_move: m.to_move,
      draw_offers: m.draw_offers || [], view: m.view,
      takeback_offers: m.takeback_offers || [],
    });
    if ('clocks' in m) s.clocks = m.clocks;
    if ('clock_running' in m) s.clock_running = m.clock_running;
    if ('result' in m) s.result = m.result;
    if ('spectators' in m) s.spectators = m.spectators;
    if ('dealt' in m) s.dealt = m.dealt;
    if (m.seats) s.seats = m.seats;
    if (m.rematch) s.rematch = m.rematch;
    if (m.rematch_offers) s.rematch_offers = m.rematch_offers;
    for (const e of evs) {
      if (e.kind === 'rematch_offer' && !s.rematch_offers.includes(e.seat)) s.rematch_offers.push(e.seat);
    }
    this.legal = legalOf(m);
    if (moves === 1 && !undone) this.prevLive = oldView;
    else if (moves > 1 || undone) this.prevLive = null;
    if (undone) {
      this.positions.clear();
      if (this.viewing !== null && this.viewing > this.history.length) this.viewing = null;
    }
    if (!wasFinished && s.status === 'finished') this.positions.clear();
    if (this.history.length !== s.ply) this.fetchHistory();
    this.clocks.set(s.clock, s.clocks, s.clock_running);
    if (s.status !== 'live') this.passTo = null;
    if (wasOpen && s.status === 'live' && this.passAndPlay && this.secretive) this.passTo = VEIL;
    this.render();
    if (moves || undone) moveSound();
    for (const e of evs) if (e.kind !== 'move') this.announce(e);
    const lastMove = [...evs].reverse().find((e) => e.kind === 'move');
    if (lastMove) this.say(t('a11y.moved', { who: this.seatLabel(lastMove.seat), move: lastMove.move }));
    if (!this.prevLive && s.ply > 0) this.loadPrevLive();
    this.followTurn();
  }

  /** Say `text` to assistive technology (the live region). */
  say(text) {
    if (!this.el || !this.el.live) return;
    // A new node, so that the same words twice are said twice.
    fill(this.el.live, h('span', {}, text));
  }

  announce(e) {
    const name = (seat) => this.seatLabel(seat);
    const mine = this.st && (e.seat === this.st.you || e.seat === this.joinedSeat);
    switch (e.kind) {
      case 'join': if (!mine) toast(t('ev.join', { who: name(e.seat) })); break;
      case 'leave': if (!mine) toast(t('ev.leave', { who: name(e.seat) })); break;
      case 'draw_offer': if (!mine) toast(t('ev.drawOffer', { who: name(e.seat) })); break;
      case 'draw_decline': toast(t('ev.drawDecline', { who: name(e.seat) })); break;
      case 'resign': toast(t('ev.resign', { who: name(e.seat) })); break;
      case 'abort': toast(t('ev.abort')); break;
      case 'rematch_offer': if (!mine) toast(t('ev.rematchOffer', { who: name(e.seat) })); break;
      case 'takeback_offer': if (!mine) toast(t('ev.takebackOffer', { who: name(e.seat) })); break;
      case 'takeback_decline': toast(t('ev.takebackDecline', { who: name(e.seat) })); break;
      case 'takeback': toast(e.plies === 1 ? t('ev.takebackOne') : t('ev.takeback', { n: e.plies })); break;
      case 'flag': toast(t('ev.flag', { who: name(e.seat) })); break;
      case 'claim': toast(t(e.draw ? 'ev.claimDraw' : 'ev.claimWin', { who: name(e.seat) })); break;
      default: break;
    }
  }

  /** When a turn began: the time of the last event that changed the position. */
  noteTurn(e) {
    if (e && TURN_EVENTS.has(e.kind) && typeof e.at === 'number') this.turnAt = Math.max(this.turnAt, e.at);
  }

  /** Keep the rating changes of a `game_over` event (rated games). */
  takeRatings(e) {
    if (e && e.kind === 'game_over' && Array.isArray(e.ratings)) this.ratings = e.ratings;
  }

  /** The server's time now (ms since 1970), as well as this browser can tell. */
  serverNow() {
    return Date.now() - (this.offset || 0);
  }

  /** The running clock's time: the ticking of one's own last seconds. */
  tick(seat, ms) {
    const s = this.st;
    if (!s || seat !== s.you || s.status !== 'live' || isCorrespondence(s.clock) || ms <= 0 || ms >= TICK_MS) {
      this.lastTick = null;
      return;
    }
    const sec = Math.ceil(ms / 1000);
    if (sec !== this.lastTick) {
      this.lastTick = sec;
      tickSound();
    }
  }

  async fetchHistory() {
    try {
      const r = await api(`/api/games/${encodeURIComponent(this.id)}/record`, { token: this.token });
      this.history = r.moves || [];
      this.movers = r.movers || [];
      this.renderMoves();
    } catch {
      /* the next update will try again */
    }
  }

  async position(ply) {
    if (this.positions.has(ply)) return this.positions.get(ply);
    const token = this.token;
    const p = await api(`/api/games/${encodeURIComponent(this.id)}/position?ply=${ply}`, { token });
    // Pass and play: what one seat fetched is not kept for another.
    if (token !== this.token) throw new ApiError(0, 'switched', 'the seat shown changed');
    this.positions.set(ply, p);
    return p;
  }

  async loadPrevLive() {
    const ply = this.st.ply;
    try {
      const p = await this.position(ply - 1);
      if (this.st.ply === ply) {
        this.prevLive = p.view;
        if (this.viewing === null) this.renderBoard();
      }
    } catch {
      /* no last-move marks */
    }
  }

  // ---------------------------------------------------------------- navigation

  go(ply) {
    const n = this.history.length;
    if (ply === null || ply >= n) {
      this.viewing = null;
      clearTimeout(this.goTimer);
      this.render();
      return;
    }
    ply = Math.max(0, ply);
    this.viewing = ply;
    // Show the choice at once; fetch the position when the steps stop (a
    // held arrow key makes many).
    this.renderStatus();
    this.renderMoves();
    clearTimeout(this.goTimer);
    this.goTimer = setTimeout(() => this.load(ply), this.positions.has(ply) ? 0 : 60);
  }

  async load(ply) {
    try {
      const [p, prev] = await Promise.all([this.position(ply), ply > 0 ? this.position(ply - 1) : null]);
      if (this.viewing !== ply) return;
      this.shown = { view: p.view, prev: prev && prev.view, last: p.last_move, toMove: p.to_move, ply };
    } catch (e) {
      if (this.viewing !== ply) return;
      toast(e.message, 'error');
      this.viewing = null;
    }
    this.render();
  }

  step(d) {
    const n = this.history.length;
    const cur = this.viewing === null ? n : this.viewing;
    this.go(Math.min(n, Math.max(0, cur + d)));
  }

  onKey(e) {
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    if (e.target && e.target.closest && e.target.closest('svg.board')) return;
    if (e.defaultPrevented) return;
    if (e.key === 'ArrowLeft') { this.step(-1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { this.step(1); e.preventDefault(); }
    else if (e.key === 'Home') { this.go(0); e.preventDefault(); }
    else if (e.key === 'End') { this.go(null); e.preventDefault(); }
  }

  // ---------------------------------------------------------------- rendering

  layout() {
    const d = drawing(this.st.game);
    this.draw = d;
    this.el = {
      title: h('h1', { class: 'game-title' }),
      meta: h('div', { class: 'game-meta' }),
      claim: h('div', { class: 'claim' }),
      status: h('div', { class: 'statusbar' }),
      board: h('div', { class: 'board-holder' }),
      bar: h('div', { class: 'gesture-bar' }),
      hint: h('div', { class: 'hint', 'aria-live': 'polite' }),
      live: h('div', { class: 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'true', 'data-announce': '' }),
      offline: h('div', { class: 'offline hidden', role: 'alert', 'data-offline': '' }),
      pass: h('div', { class: 'pass-screen hidden', 'data-pass': '' }),
      notation: h('form', { class: 'notation', 'data-notation': '' }),
      keys: h('p', { class: 'help keys-help' }),
      viewing: h('div', { class: 'viewing hidden' }),
      secret: h('div'),
      seats: h('div', { class: 'panel' }),
      extra: h('div'),
      result: h('div'),
      moves: h('div', { class: 'panel' }),
      actions: h('div', { class: 'panel' }),
    };
    this.chat = new ChatPanel({
      send: (text) => this.sendChat(text),
      seatName: (i) => (this.st && this.st.seats[i] ? this.seatLabel(i) : `#${i + 1}`),
      colour: (i) => d.seatColour(i, this.st.view),
    });
    this.interaction = new Interaction({
      bar: this.el.bar,
      hint: this.el.hint,
      t,
      label: (id) => (d.label && d.label(id, t)) || id,
      onMove: (mv) => this.playMove(mv),
      describe: (id) => this.describeCell(id),
      neighbour: (id, key, shift) => (d.neighbour ? d.neighbour(id, key, shift, this.ctx(this.boardView())) : undefined),
      boardLabel: () => t('a11y.board', { game: this.draw.title ? this.draw.title(t) : this.st.title }),
    });
    if (this.analysis) this.analysis.stop();
    this.analysis = new GameAnalysis(this);
    fill(this.root, 
      h('div', { class: 'game-head' }, this.el.title, this.el.meta),
      h('div', { class: 'game', 'data-game': this.st.game },
        h('div', { class: 'board-col' },
          this.el.boardHeading = h('h2', { class: 'sr-only' }),
          this.el.pass,
          this.el.offline,
          this.el.secret,
          this.el.boardWrap = h('div', { class: 'board-wrap' }, this.el.status, this.el.viewing, this.el.board, this.el.bar, this.el.hint, this.el.notation, this.el.keys),
          this.el.live),
        h('aside', {}, this.el.sideHeading = h('h2', { class: 'sr-only' }), this.el.result, this.analysis.el, this.el.seats, this.el.extra, this.el.moves, this.el.actions, this.chat.el)),
    );
  }

  /** Send a chat message; false when there is no socket to send it on. */
  sendChat(text) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type: 'chat', text }));
    return true;
  }

  playMove(mv) {
    this.send({ type: 'move', move: mv, version: this.st.version });
  }

  /** The view the board shows now (a past position, or the live one). */
  boardView() {
    return this.viewing !== null && this.shown && this.shown.ply === this.viewing ? this.shown.view : this.st.view;
  }

  /** What an element of the board is, in words (its drawing says, else its id and its title). */
  describeCell(id) {
    const view = this.boardView();
    if (this.draw.describe) return this.draw.describe(id, view, t, this.ctx(view));
    const el = this.interaction && this.interaction.element(id);
    const title = el && el.querySelector('title');
    const stone = el && el.querySelector('.stone');
    const what = [];
    if (title && title.textContent && title.textContent !== id) what.push(title.textContent);
    if (stone) what.push(t(stone.classList.contains('red') ? 'a11y.redStone' : 'a11y.stopStone'));
    return what.length ? `${id}: ${what.join(', ')}` : id;
  }

  /** The move typed in the game's notation: the legal move it names (spaces and case aside), or the text as typed. */
  typedMove(text) {
    const norm = (x) => String(x).replace(/\s+/g, '').toLowerCase();
    const want = norm(text);
    const legal = this.legal || [];
    const hit = legal.find((g) => g.move === text.trim()) || legal.find((g) => norm(g.move) === want);
    return hit ? hit.move : text.trim();
  }

  renderNotation() {
    const s = this.st;
    const mine = this.viewing === null && s.status === 'live' && s.to_move === s.you && s.you !== null && s.you !== undefined && this.passTo === null;
    const form = this.el.notation;
    if (s.status !== 'live' || s.you === null || s.you === undefined) {
      fill(form);
      form.classList.add('hidden');
      return;
    }
    form.classList.remove('hidden');
    let input = form.querySelector('input');
    if (!input) {
      const list = h('datalist', { id: `moves-${this.id}` });
      input = h('input', { type: 'text', name: 'move', autocomplete: 'off', spellcheck: 'false', list: list.id, 'aria-describedby': `notation-help-${this.id}` });
      const button = h('button', { type: 'submit', 'data-action': 'type-move' });
      const label = h('label', { for: `move-input-${this.id}`, class: 'small' });
      input.id = `move-input-${this.id}`;
      form.onsubmit = (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text || !this.interaction || this.interaction.busy) return;
        const mv = this.typedMove(text);
        if (!(this.legal || []).some((g) => g.move === mv)) {
          toast(t('notation.unknown', { move: text }), 'error');
          return;
        }
        input.value = '';
        this.interaction.setBusy(true);
        this.playMove(mv);
      };
      fill(form, label, h('div', { class: 'row' }, input, button), list, h('p', { class: 'help', id: `notation-help-${this.id}` }));
    }
    const [label, , list, help] = [form.querySelector('label'), null, form.querySelector('datalist'), form.querySelector('.help')];
    label.textContent = t('notation.label');
    form.querySelector('button').textContent = t('notation.play');
    help.textContent = this.notationHelp || t('notation.help');
    input.disabled = !mine;
    form.querySelector('button').disabled = !mine;
    const moves = mine ? (this.legal || []).slice(0, 400).map((g) => g.move) : [];
    if (list.dataset.key !== moves.join(' ')) {
      list.dataset.key = moves.join(' ');
      fill(list, moves.map((m) => h('option', { value: m })));
    }
  }

  /** The pass screen (pass and play, games with secrets): nothing of any seat's view shows behind it. */
  renderPass() {
    const passing = this.passTo !== null && this.st.status === 'live';
    this.el.pass.classList.toggle('hidden', !passing);
    this.el.boardWrap.classList.toggle('hidden', passing);
    this.el.secret.classList.toggle('hidden', passing);
    if (!passing) {
      fill(this.el.pass);
      return false;
    }
    fill(this.el.board);
    fill(this.el.secret);
    fill(this.el.bar);
    if (this.passTo === VEIL) {
      const mover = this.st.to_move;
      fill(this.el.pass,
        h('h2', { class: 'pass-title' }, t('pass.veil')),
        h('p', {}, typeof mover === 'number' ? t('pass.veilHelp', { who: this.seatLabel(mover) }) : ''));
      return true;
    }
    const who = this.seatLabel(this.passTo);
    const ready = this.st.you === this.passTo;
    const button = h('button', { type: 'button', class: 'primary big', 'data-action': 'pass-ready', disabled: !ready, onclick: () => this.confirmPass() },
      ready ? t('pass.ready', { who }) : t('pass.wait'));
    fill(this.el.pass,
      h('h2', { class: 'pass-title' }, t('pass.title', { who })),
      h('p', {}, t('pass.help', { who })),
      button);
    if (ready && (!document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected)) button.focus({ preventScroll: true });
    return true;
  }

  /** A lost connection, said clearly over the board (which stays as it was last known). */
  renderOffline() {
    if (!this.el) return;
    const lost = this.conn === 'reconnecting' || this.conn === 'closed';
    this.el.offline.classList.toggle('hidden', !lost);
    this.el.board.classList.toggle('stale', lost);
    if (lost) {
      fill(this.el.offline, h('strong', {}, t('offline.title')), ' ', t('offline.help'));
    } else {
      fill(this.el.offline);
    }
  }

  seatLabel(seat) {
    const s = this.st && this.st.seats[seat];
    if (!s) return `#${seat + 1}`;
    const name = this.draw && this.draw.seatName ? this.draw.seatName(seat, s.name, t) : s.name;
    return s.player ? `${name} (${s.player})` : name;
  }

  seatKind(s) {
    if (s.kind === 'computer') {
      const m = /^ai:(\d)$/.exec(s.spec || '');
      return m ? t('seat.level', { n: m[1], label: levelLabel(Number(m[1])) }) : t('seat.computer', { spec: s.spec || '' });
    }
    if (s.open) return t('seat.open');
    return s.player || t('seat.person');
  }

  render() {
    if (!this.st || !this.el) return;
    const s = this.st;
    // A rematch keeps each player's token (in another seat).
    if (s.rematch && this.token && !tokens.get(s.rematch)) tokens.set(s.rematch, this.ownToken || this.token);
    // And every seat at this screen keeps its token there too (pass and play).
    if (s.rematch && this.passAndPlay && localSeats.get(s.rematch).length === 0) localSeats.set(s.rematch, [...this.local.values()]);
    this.el.title.textContent = `${this.draw.title ? this.draw.title(t) : s.title} · ${t('game.variant', { v: variantName(s.game, s.variant) })}`;
    document.title = `${s.title} – Plateau`;
    this.el.boardHeading.textContent = t('a11y.boardHeading');
    this.el.sideHeading.textContent = t('a11y.sideHeading');
    this.renderOffline();
    const passing = this.renderPass();
    this.renderStatus();
    if (!passing) {
      this.renderBoard();
      this.renderSecret();
    }
    this.renderNotation();
    this.el.keys.textContent = s.status === 'live' && s.you !== null && s.you !== undefined
      ? `${t('keys.help')}${this.draw.keys ? ` ${this.draw.keys(t)}` : ''}` : '';
    this.renderResult();
    this.analysis.render();
    this.renderSeats();
    this.renderExtra();
    this.renderMoves();
    this.renderActions();
    this.renderMeta();
    this.renderChat();
  }

  /** Rated or casual, and the time control. */
  renderMeta() {
    const s = this.st;
    fill(this.el.meta,
      h('span', { class: ['badge', s.rated ? 'rated' : 'casual'], 'data-rated': String(!!s.rated) }, t(s.rated ? 'play.rated' : 'play.casual')),
      h('span', { class: 'tc', 'data-clock-control': s.clock ? controlText(s.clock) : 'none', title: controlLong(s.clock) }, clockIcon(), ' ', controlText(s.clock)));
  }

  /** The chat: the players' room for a seat, the spectators' for the others. */
  renderChat() {
    const s = this.st;
    if (!s || !this.chat) return;
    const me = s.you !== null && s.you !== undefined;
    const people = s.seats.filter((x) => x.kind !== 'computer').length;
    // A seat alone with computers has nobody to talk to; nor have players all at one screen.
    const remote = s.seats.filter((x, i) => x.kind !== 'computer' && !this.local.has(i)).length;
    this.chat.el.hidden = me && (people < 2 || (this.passAndPlay && remote === 0));
    if (me) this.chat.setRoom('players', true);
    else if (this.account) this.chat.setRoom('spectators', true);
    else this.chat.setRoom('spectators', false, 'chat.logIn');
  }

  /**
   * The claims against a player gone on their turn (live games without a
   * correspondence clock): once the seat to move has had no socket for the
   * claim time of its turn, the other players may claim the win or a draw;
   * the buttons show the countdown before.
   */
  renderClaim() {
    const s = this.st;
    const box = this.el && this.el.claim;
    if (!box) return;
    const me = s.you !== null && s.you !== undefined;
    const mover = s.to_move;
    const seat = typeof mover === 'number' ? s.seats[mover] : null;
    const gone = me && s.status === 'live' && !isCorrespondence(s.clock) && seat && mover !== s.you
      && seat.kind !== 'computer' && !seat.open && !seat.online && typeof seat.gone_since === 'number';
    if (!gone) {
      if (box.firstChild) fill(box);
      box.dataset.state = 'none';
      return;
    }
    const after = typeof s.claim_after_ms === 'number' ? s.claim_after_ms : 60000;
    const readyAt = Math.max(seat.gone_since, this.turnAt) + after;
    const wait = Math.max(0, Math.ceil((readyAt - this.serverNow()) / 1000));
    const key = `${wait}|${mover}|${s.has_draws}`;
    if (box.dataset.key === key && box.firstChild) return;
    box.dataset.key = key;
    box.dataset.state = wait > 0 ? 'waiting' : 'ready';
    const who = this.seatLabel(mover);
    fill(box,
      h('p', { class: 'small' }, wait > 0 ? t('claim.gone', { who, n: wait }) : t('claim.goneLong', { who })),
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'primary', 'data-action': 'claim_victory', disabled: wait > 0, onclick: () => this.act('claim_victory') }, t('claim.victory')),
        s.has_draws ? h('button', { type: 'button', 'data-action': 'claim_draw', disabled: wait > 0, onclick: () => this.act('claim_draw') }, t('claim.draw')) : null));
  }

  ctx(view, prev, last, toMove) {
    return {
      you: this.st.you,
      seats: this.st.seats,
      // At one screen the board keeps its side whoever plays.
      flip: this.st.you === 1 && this.st.seats.length === 2 && !this.passAndPlay,
      prev,
      last,
      toMove,
      t,
      live: this.viewing === null,
      dealt: this.st.dealt !== false,
    };
  }

  renderStatus() {
    const s = this.st;
    const turn = h('span', { class: 'turn' });
    if (this.viewing !== null) {
      turn.textContent = t('nav.viewing', { n: this.viewing, total: this.history.length });
    } else if (s.status === 'open') {
      turn.textContent = t('turn.waiting');
    } else if (s.status === 'aborted') {
      turn.textContent = t('turn.aborted');
    } else if (s.status === 'finished') {
      turn.textContent = t('turn.over');
    } else if (s.to_move !== null && s.to_move !== undefined) {
      if (this.passAndPlay && this.local.has(s.to_move)) {
        // Pass and play: whose turn, in large letters.
        turn.textContent = t('turn.local', { who: this.seatLabel(s.to_move) });
        turn.classList.add('big');
        if (s.to_move === s.you && this.passTo === null) turn.classList.add('mine');
      } else if (s.to_move === s.you) {
        turn.textContent = t('turn.yours');
        turn.classList.add('mine');
      } else {
        turn.textContent = t('turn.of', { who: this.seatLabel(s.to_move) });
      }
    }
    const watching = s.you === null || s.you === undefined ? h('span', { class: 'muted small' }, t('game.watching')) : null;
    const conn = h('span', { class: 'conn', 'data-state': this.conn, role: 'status' }, t(`conn.${this.conn}`));
    // One's own clock by the turn too: on a phone the seats are below the board.
    const mine = s.you !== null && s.you !== undefined && Array.isArray(s.clocks) && s.status === 'live' && this.viewing === null
      ? h('span', { class: 'clock mini', 'data-clock': s.you, 'aria-hidden': 'true' })
      : null;
    fill(this.el.status, turn, mine, watching, conn, this.sound);
    if (mine) this.clocks.paint();
    // The banner of a past position.
    if (this.viewing !== null) {
      this.el.viewing.classList.remove('hidden');
      fill(this.el.viewing, 
        h('span', {}, t('nav.viewing', { n: this.viewing, total: this.history.length })),
        h('button', { type: 'button', onclick: () => this.go(null) }, t('nav.live')),
      );
    } else {
      this.el.viewing.classList.add('hidden');
    }
  }

  renderBoard() {
    const s = this.st;
    if (this.passTo !== null && s.status === 'live') {
      fill(this.el.board);
      return;
    }
    let svg;
    if (this.viewing !== null && this.shown && this.shown.ply === this.viewing) {
      const v = this.shown;
      svg = this.draw.draw(v.view, this.ctx(v.view, v.prev, v.last, v.toMove));
      this.interaction.setLegal(null);
    } else {
      const last = this.history.length ? this.history[this.history.length - 1] : null;
      svg = this.draw.draw(s.view, this.ctx(s.view, this.prevLive, last, s.to_move));
      const mine = this.viewing === null && s.status === 'live' && s.to_move === s.you && s.you !== null && s.you !== undefined;
      this.interaction.setLegal(mine ? this.legal : null);
    }
    fill(this.el.board, svg);
    this.interaction.attach(svg);
    if (this.analysis) this.analysis.markBoard(svg, this.viewing === null ? this.history.length : this.viewing);
    const prompt = this.viewing === null && this.draw.prompt ? this.draw.prompt(s.view, this.ctx(s.view)) : null;
    if (prompt && this.interaction.legal.length && this.interaction.sel.size === 0) {
      this.el.hint.textContent = prompt;
    }
  }

  renderSecret() {
    const s = this.st;
    if (this.passTo !== null && s.status === 'live') {
      fill(this.el.secret);
      return;
    }
    const el = this.draw.secret ? this.draw.secret(s.view, this.ctx(s.view)) : null;
    fill(this.el.secret, ...(el ? [el] : []));
  }

  renderResult() {
    const s = this.st;
    clear(this.el.result);
    if (s.status === 'aborted') {
      this.el.result.append(h('div', { class: 'panel result' }, h('h3', {}, t('result.aborted'))));
      return;
    }
    if (s.status !== 'finished' || !s.result) return;
    const r = s.result;
    const names = (r.winners || []).map((w) => this.seatLabel(w));
    let head;
    if (r.draw) head = t('result.draw');
    else if (s.you !== null && s.you !== undefined && r.winners.includes(s.you)) head = t('result.youWin');
    else if (names.length === 1) head = t('result.wins', { who: names[0] });
    else head = t('result.share', { who: names.join(', ') });
    const box = h('div', { class: 'panel result', 'data-result': r.result },
      h('h3', {}, head),
      h('div', { class: 'muted small' }, `${r.result} · ${t(`reason.${r.reason}`, {}, r.reason)}`));
    const extra = this.draw.result ? this.draw.result(s.view, this.ctx(s.view), r) : null;
    if (extra) box.append(extra);
    const ratings = this.ratings || (Array.isArray(r.ratings) ? r.ratings : null);
    if (s.rated && ratings && ratings.length) {
      box.append(h('table', { class: 'scores rating-changes', 'data-ratings': '' },
        h('caption', { class: 'small muted' }, t('play.newRatings')),
        h('tbody', {}, ratings.map((x) => {
          const d = Math.round(x.after) - Math.round(x.before);
          return h('tr', { 'data-seat': x.seat },
            h('td', {}, h('span', { class: 'chip', style: `background:${this.draw.seatColour(x.seat, s.view)}` }), ' ',
              h('a', { href: playerPath(x.account), 'data-link': '' }, x.account)),
            h('td', { class: 'num', 'data-before': Math.round(x.before) }, ratingText(x.before, false)),
            h('td', { class: 'num' }, '→'),
            h('td', { class: 'num', 'data-after': Math.round(x.after) }, ratingText(x.after, x.provisional)),
            h('td', { class: 'num' }, changeEl(d)));
        }))));
    }
    this.el.result.append(box);
  }

  renderSeats() {
    const s = this.st;
    if (!s || !this.el) return;
    const list = h('ul', { class: 'seats' });
    s.seats.forEach((seat, i) => {
      const live = s.status === 'live' && s.to_move === i;
      list.append(h('li', { class: live ? 'to-move' : '', 'data-seat': i },
        h('span', { class: 'arrow' }, live ? '▶' : ''),
        h('span', { class: 'swatch', style: `background:${this.draw.seatColour(i, s.view)}` }),
        h('span', { class: 'grow' },
          h('span', { class: 'name' }, this.draw.seatName ? this.draw.seatName(i, seat.name, t) : seat.name), ' ',
          i === s.you ? h('span', { class: 'you' }, t('seat.you')) : null,
          h('div', { class: 'kind' }, seat.account && seat.kind !== 'computer'
            ? h('a', { href: playerPath(seat.account), 'data-link': '', 'data-account': seat.account }, seat.account)
            : this.seatKind(seat))),
        Array.isArray(s.clocks) && seat.kind !== 'computer' ? h('span', { class: 'clock', 'data-clock': i, role: 'timer', 'aria-label': t('play.clockOf', { who: this.seatLabel(i) }) }) : null,
        h('span', { class: ['dot', seat.online ? 'on' : ''], title: seat.online ? t('seat.online') : t('seat.offline') })));
    });
    const watching = typeof s.spectators === 'number'
      ? h('div', { class: 'muted small', 'data-spectators': s.spectators, style: 'margin-top:.3rem' }, t('game.spectators', { n: s.spectators }))
      : null;
    fill(this.el.seats, h('h3', {}, t('game.seats')), list, watching);
    this.clocks.paint();
  }

  renderExtra() {
    const s = this.st;
    const view = this.viewing !== null && this.shown ? this.shown.view : s.view;
    const el = this.draw.panel ? this.draw.panel(view, this.ctx(view)) : null;
    fill(this.el.extra, ...(el ? [h('div', { class: 'panel' }, el)] : []));
  }

  renderMoves() {
    if (!this.el) return;
    const n = this.history.length;
    const cur = this.viewing === null ? n : this.viewing;
    const ol = h('ol');
    this.history.forEach((mv, i) => {
      const seat = this.movers[i];
      ol.append(h('li', {},
        h('button', { type: 'button', class: i + 1 === cur ? 'current' : '', 'data-ply': i + 1, onclick: () => this.go(i + 1) },
          h('span', { class: 'seatmark', style: `background:${this.draw.seatColour(seat, this.st.view)}` }), mv)));
    });
    const box = h('div', { class: 'moves' }, n ? ol : h('p', { class: 'muted small', style: 'padding:.4rem' }, t('moves.none')));
    const nav = h('div', { class: 'nav-buttons' },
      h('button', { type: 'button', title: t('nav.first'), 'aria-label': t('nav.first'), disabled: cur === 0, onclick: () => this.go(0) }, '«'),
      h('button', { type: 'button', title: t('nav.prev'), 'aria-label': t('nav.prev'), disabled: cur === 0, onclick: () => this.step(-1) }, '‹'),
      h('button', { type: 'button', title: t('nav.next'), 'aria-label': t('nav.next'), disabled: cur >= n, onclick: () => this.step(1) }, '›'),
      h('button', { type: 'button', title: t('nav.last'), 'aria-label': t('nav.last'), disabled: cur >= n, onclick: () => this.go(null) }, '»'));
    fill(this.el.moves, h('h3', {}, t('game.moves')), box, nav);
    if (this.analysis) this.analysis.markMoves(box);
    const on = box.querySelector('.current');
    if (on) on.scrollIntoView({ block: 'nearest' });
    else box.scrollTop = box.scrollHeight;
  }

  act(type, confirmKey) {
    if (confirmKey && this.confirming !== type) {
      this.confirming = type;
      this.renderActions();
      setTimeout(() => {
        if (this.confirming === type) {
          this.confirming = null;
          this.renderActions();
        }
      }, 4000);
      return;
    }
    this.confirming = null;
    if (type === 'rematch' && this.passAndPlay) {
      // Pass and play: everyone at this screen asks for the rematch, each seat with its own token.
      const others = [...this.local.entries()].filter(([seat]) => seat !== this.st.you);
      this.send({ type }).then(async () => {
        for (const [, token] of others) {
          try {
            await api(`/api/games/${encodeURIComponent(this.id)}/action`, { method: 'POST', body: { type }, token });
          } catch (e) {
            if (e.code !== 'already_offered' && e.code !== 'rematch_exists') toast(errorText(e), 'error');
          }
        }
        this.renderActions();
      });
      return;
    }
    this.send({ type }).then(() => this.renderActions());
  }

  async join(seat) {
    let name = playerName.get().trim();
    const body = {};
    if (name) body.name = name.slice(0, 40);
    if (seat !== undefined) body.seat = seat;
    try {
      const r = await api(`/api/games/${encodeURIComponent(this.id)}/join`, { method: 'POST', body });
      tokens.set(this.id, r.token);
      this.token = r.token;
      this.joinedSeat = r.seat;
      toast(t('game.joined'));
      // Say hello again with the token.
      if (this.ws) this.ws.close();
      else this.reconnectSoon(0);
    } catch (e) {
      toast(errorText(e), 'error');
    }
  }

  /** Takebacks (casual games): ask, or answer another seat's request. */
  takebackButtons(btns) {
    const s = this.st;
    if (s.rated) return;
    const offers = s.takeback_offers || [];
    const asker = offers.length ? offers[0] : null;
    if (asker !== null && asker !== s.you) {
      if (!offers.includes(s.you)) {
        btns.append(h('button', { type: 'button', class: 'primary', 'data-action': 'takeback_accept', onclick: () => this.act('takeback_accept') }, t('tb.accept', { who: this.seatLabel(asker) })));
        btns.append(h('button', { type: 'button', 'data-action': 'takeback_decline', onclick: () => this.act('takeback_decline') }, t('tb.decline')));
      } else {
        btns.append(h('button', { type: 'button', disabled: true }, t('tb.waiting')));
      }
    } else if (asker === s.you) {
      btns.append(h('button', { type: 'button', disabled: true, 'data-action': 'takeback_offer' }, t('tb.asked')));
    } else if (this.movers.includes(s.you)) {
      btns.append(h('button', { type: 'button', 'data-action': 'takeback_offer', onclick: () => this.act('takeback_offer') }, t('tb.ask')));
    }
  }

  renderActions() {
    const s = this.st;
    if (!s || !this.el) return;
    const me = s.you !== null && s.you !== undefined;
    const box = this.el.actions;
    const parts = [h('h3', {}, t('game.actions'))];
    const btns = h('div', { class: 'actions' });
    // Joining an open seat.
    if (!me && s.status === 'open') {
      s.seats.forEach((seat, i) => {
        if (seat.open) {
          btns.append(h('button', { type: 'button', class: 'primary', 'data-action': 'join', onclick: () => this.join(i) },
            t('game.take', { seat: this.draw.seatName ? this.draw.seatName(i, seat.name, t) : seat.name })));
        }
      });
    }
    if (me && s.status === 'live') {
      const others = s.draw_offers.filter((x) => x !== s.you);
      const computers = s.seats.some((x) => x.kind === 'computer');
      if (s.has_draws && !computers) {
        if (others.length) {
          btns.append(h('button', { type: 'button', class: 'primary', 'data-action': 'accept_draw', onclick: () => this.act('accept_draw') }, t('act.acceptDraw')));
          btns.append(h('button', { type: 'button', 'data-action': 'decline_draw', onclick: () => this.act('decline_draw') }, t('act.declineDraw')));
        } else if (s.draw_offers.includes(s.you)) {
          btns.append(h('button', { type: 'button', disabled: true }, t('act.drawOffered')));
        } else {
          btns.append(h('button', { type: 'button', 'data-action': 'offer_draw', onclick: () => this.act('offer_draw') }, t('act.offerDraw')));
        }
      }
      this.takebackButtons(btns);
      if (s.ply > 0) {
        const c = this.confirming === 'resign';
        btns.append(h('button', { type: 'button', class: ['danger', c ? 'confirm' : ''], 'data-action': 'resign', onclick: () => this.act('resign', true) }, c ? t('act.resignSure') : t('act.resign')));
      }
    }
    if (me && (s.status === 'open' || (s.status === 'live' && s.ply === 0))) {
      const c = this.confirming === 'abort';
      btns.append(h('button', { type: 'button', class: ['danger', c ? 'confirm' : ''], 'data-action': 'abort', onclick: () => this.act('abort', true) }, c ? t('act.abortSure') : t('act.abort')));
    }
    if (me && s.status === 'open') {
      btns.append(h('button', { type: 'button', 'data-action': 'leave', onclick: () => this.act('leave') }, t('act.leave')));
    }
    if (s.status === 'finished') {
      if (s.rematch) {
        btns.append(h('a', { class: 'button primary', href: `/game/${s.rematch}`, 'data-link': '', 'data-action': 'to-rematch' }, t('act.toRematch')));
      } else if (me) {
        const asked = (s.rematch_offers || []).includes(s.you);
        const others = (s.rematch_offers || []).filter((x) => x !== s.you);
        btns.append(h('button', { type: 'button', class: others.length ? 'primary' : '', disabled: asked, 'data-action': 'rematch', onclick: () => this.act('rematch') },
          asked ? t('act.rematchAsked') : others.length ? t('act.rematchAccept') : t('act.rematch')));
      }
    }
    btns.append(h('a', { class: 'button', href: `/api/games/${encodeURIComponent(this.id)}/record?format=text`, download: `plateau-${this.id}.txt` }, t('act.record')));
    btns.append(h('a', { class: 'button', href: `/rules/${s.game}`, 'data-link': '' }, t('act.rules')));
    parts.push(btns);
    parts.push(this.el.claim);
    this.renderClaim();
    if (s.status === 'open' || s.status === 'live') {
      const link = `${location.origin}/game/${this.id}`;
      const input = h('input', { type: 'text', readonly: true, value: link, 'aria-label': t('game.invite'), 'data-invite': '' });
      parts.push(h('div', { class: 'invite field' },
        h('span', {}, t('game.invite')),
        h('div', { class: 'row' }, h('div', { class: 'grow' }, input),
          h('button', {
            type: 'button', 'data-action': 'copy-invite',
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(link);
              } catch {
                input.select();
                document.execCommand && document.execCommand('copy');
              }
              toast(t('game.copied'));
            },
          }, t('game.copy'))),
        h('p', { class: 'help' }, s.status === 'open' ? t('game.inviteHelp') : t('game.watchHelp'))));
    }
    fill(box, ...parts);
  }
}
