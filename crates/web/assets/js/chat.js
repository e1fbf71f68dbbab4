// The chat of a game page: the players talk in the players' room, the
// spectators in theirs (logged in to write). Messages arrive on the game's
// WebSocket (`{"type": "chat", "room", "seat", "name", "text", "at"}`, and the
// room's last messages in the welcome's `chat`); every text is put in the page
// as text, never as HTML. A switch turns the chat off (kept in localStorage).

import { h, fill } from './dom.js';
import { t, has } from './i18n.js';
import { playerPath } from './session.js';

const KEY = 'plateau.chat';
/** The longest message, in characters (the server's limit). */
export const MAX_CHARS = 300;
const KEEP = 200;

/** Whether the chat is turned off. */
export const chatOff = () => localStorage.getItem(KEY) === 'off';

/** The error codes of the server that concern a chat message. */
export const CHAT_ERRORS = new Set(['bad_chat', 'chat_rate', 'chat_busy', 'chat_full', 'login_required', 'not_seated']);

export class ChatPanel {
  /**
   * @param {object} o
   * @param {(text: string) => boolean} o.send sends a message; false when it cannot be sent now
   * @param {(seat: number) => string} o.seatName a seat's name (Black, White…)
   * @param {(seat: number) => string} o.colour a seat's colour
   */
  constructor({ send, seatName, colour }) {
    this.send = send;
    this.seatName = seatName;
    this.colour = colour;
    this.messages = [];
    this.room = 'players';
    this.canWrite = false;
    this.reason = null; // why one cannot write: a key of i18n
    this.el = h('section', { class: 'panel chat', 'data-chat': '' });
    this.log = h('ol', { class: 'chat-log', 'aria-live': 'polite', 'aria-relevant': 'additions' });
    this.input = h('input', {
      type: 'text', name: 'chat', maxlength: MAX_CHARS, autocomplete: 'off', enterkeyhint: 'send',
    });
    this.error = h('p', { class: 'chat-error small', role: 'status', hidden: true });
    this.form = h('form', { class: 'chat-form row' }, h('div', { class: 'grow' }, this.input),
      h('button', { type: 'submit', 'data-action': 'chat-send' }));
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    this.toggle = h('input', { type: 'checkbox', name: 'chat-on', onchange: (e) => this.setOn(e.target.checked) });
    this.render();
  }

  /** The room this reader is in, and whether (and why not) they may write. */
  setRoom(room, canWrite, reason = null) {
    // Drawn again only when something changed: a field being typed in keeps its focus.
    if (this.drawn && room === this.room && canWrite === this.canWrite && reason === this.reason) return;
    this.drawn = true;
    const changed = room !== this.room;
    this.room = room;
    this.canWrite = canWrite;
    this.reason = reason;
    if (changed) this.messages = [];
    this.render();
  }

  /** The room's last messages (a welcome): they replace what was shown. */
  replace(list) {
    this.messages = (Array.isArray(list) ? list : []).filter((m) => !m.room || m.room === this.room).slice(-KEEP);
    this.renderLog(true);
  }

  /** A new message. */
  add(m) {
    if (m.room && m.room !== this.room) return;
    this.messages.push(m);
    if (this.messages.length > KEEP) this.messages.shift();
    this.renderLog(true);
  }

  /** A refusal of the server: said under the field, then gone. */
  showError(e) {
    const key = `chat.err.${e.code}`;
    this.error.textContent = has(key) ? t(key) : (e.message || t('chat.err.bad_chat'));
    this.error.hidden = false;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => { this.error.hidden = true; }, 6000);
  }

  setOn(on) {
    localStorage.setItem(KEY, on ? 'on' : 'off');
    this.render();
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    if (text.length > MAX_CHARS) {
      this.showError({ code: 'too_long' });
      return;
    }
    if (this.send(text)) {
      this.input.value = '';
      this.error.hidden = true;
    } else {
      this.showError({ code: 'offline' });
    }
  }

  render() {
    const off = chatOff();
    this.toggle.checked = !off;
    this.el.dataset.room = this.room;
    this.el.classList.toggle('off', off);
    this.input.placeholder = t('chat.placeholder');
    this.input.setAttribute('aria-label', t(this.room === 'players' ? 'chat.players' : 'chat.spectators'));
    this.form.querySelector('button').textContent = t('chat.send');
    const head = h('div', { class: 'chat-head row' },
      h('h3', { class: 'grow' }, t(this.room === 'players' ? 'chat.players' : 'chat.spectators')),
      h('label', { class: 'chat-switch small' }, this.toggle, ' ', t('chat.show')));
    if (off) {
      fill(this.el, head);
      return;
    }
    let write;
    if (this.canWrite) write = [this.form, this.error];
    else if (this.reason === 'chat.logIn') {
      const next = encodeURIComponent(location.pathname);
      write = h('p', { class: 'muted small', 'data-chat-login': '' }, t('chat.logIn'), ' ',
        h('a', { href: `/login?next=${next}`, 'data-link': '' }, t('acct.logIn')));
    } else write = this.reason ? h('p', { class: 'muted small' }, t(this.reason)) : null;
    fill(this.el, head, this.log, write);
    this.renderLog(false);
  }

  renderLog(scroll) {
    const items = this.messages.map((m) => {
      const who = typeof m.seat === 'number'
        ? h('span', { class: 'chat-who' },
          h('span', { class: 'chip', style: `background:${this.colour(m.seat)}` }), ' ',
          m.name || this.seatName(m.seat))
        : h('a', { class: 'chat-who', href: playerPath(m.name || ''), 'data-link': '' }, m.name || '?');
      const when = typeof m.at === 'number'
        ? h('time', { class: 'chat-at', datetime: new Date(m.at).toISOString() }, new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }))
        : null;
      // The text goes in as text: never parsed as HTML.
      const text = h('span', { class: 'chat-text' });
      text.textContent = String(m.text ?? '');
      return h('li', { 'data-seat': typeof m.seat === 'number' ? m.seat : null }, when, ' ', who, ': ', text);
    });
    fill(this.log, items.length ? items : h('li', { class: 'muted small chat-empty' }, t('chat.empty')));
    if (scroll) this.log.scrollTop = this.log.scrollHeight;
  }
}
