// Time controls and clocks: how a time control and a remaining time read,
// the time control picker of the forms (none, live with presets or custom,
// correspondence), and the clocks of a game page counting down between the
// server's frames.
//
// A time control is what the server takes and gives back: `null` (none),
// `{initial, increment}` in seconds (live) or `{days}` (correspondence).

import { h } from './dom.js';
import { t } from './i18n.js';

/** The live presets offered: minutes + seconds added a move. */
export const PRESETS = [[1, 0], [3, 2], [5, 3], [10, 5], [15, 10]];
/** Days per move offered for correspondence games. */
export const DAYS = [1, 2, 3, 7];
/** Below this, a live clock shows its warning. */
export const LOW_MS = 20000;
/** Below this, the ticking of one's own clock is heard. */
export const TICK_MS = 10000;

/** Whether `c` is a correspondence control. */
export const isCorrespondence = (c) => !!c && typeof c.days === 'number';

/** Minutes as players write them: ¼, ½, ¾ or a number. */
function minutesText(seconds) {
  const m = seconds / 60;
  const frac = { 15: '¼', 30: '½', 45: '¾' }[seconds];
  if (frac) return frac;
  return Number.isInteger(m) ? String(m) : String(Math.round(m * 100) / 100);
}

/** A time control in a few characters: "5+3", "¼+1", "3 days a move", "no clock". */
export function controlText(c) {
  if (!c) return t('tc.none');
  if (isCorrespondence(c)) return t(c.days === 1 ? 'tc.day' : 'tc.days', { n: c.days });
  return `${minutesText(c.initial || 0)}+${c.increment || 0}`;
}

/** A time control said in words (for titles and screen readers). */
export function controlLong(c) {
  if (!c) return t('tc.none');
  if (isCorrespondence(c)) return controlText(c);
  return t('tc.liveLong', { m: minutesText(c.initial || 0), s: c.increment || 0 });
}

const pad = (n) => String(n).padStart(2, '0');

/**
 * A remaining time: mm:ss (h:mm:ss past an hour), with tenths under 10 s;
 * for correspondence, days and hours (hours and minutes under a day).
 */
export function clockText(ms, control) {
  ms = Math.max(0, ms);
  if (isCorrespondence(control) && ms >= 3600000) {
    const hours = Math.floor(ms / 3600000);
    if (hours >= 24) return t('tc.dh', { d: Math.floor(hours / 24), h: pad(hours % 24) });
    return t('tc.hm', { h: hours, m: pad(Math.floor(ms / 60000) % 60) });
  }
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `00:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(ms / 1000);
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
  return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}

/**
 * The time control picker: a choice of kind (none, live, correspondence),
 * then the presets (or minutes and seconds of one's own) or the days.
 * `value` is the control chosen so far; `onChange(control)` hears each
 * change. `name` prefixes the fields' names.
 */
export function controlPicker(value, onChange, name = 'clock') {
  const box = h('div', { class: 'tc-picker', 'data-picker': name });
  let kind = !value ? 'none' : isCorrespondence(value) ? 'corr' : 'live';
  let live = value && !isCorrespondence(value) ? { ...value } : { initial: 300, increment: 3 };
  let days = isCorrespondence(value) ? value.days : 3;
  let custom = kind === 'live' && !PRESETS.some(([m, s]) => m * 60 === live.initial && s === live.increment);
  const current = () => (kind === 'none' ? null : kind === 'corr' ? { days } : { initial: live.initial, increment: live.increment });
  const changed = () => {
    onChange(current());
    draw();
  };
  const draw = () => {
    const kinds = h('div', { class: 'tc-kinds', role: 'radiogroup', 'aria-label': t('tc.title') },
      [['none', 'tc.kindNone'], ['live', 'tc.kindLive'], ['corr', 'tc.kindCorr']].map(([k, key]) => h('label', { class: 'tc-kind' },
        h('input', {
          type: 'radio', name: `${name}-kind`, value: k, checked: kind === k,
          onchange: () => { kind = k; changed(); },
        }), ' ', t(key))));
    let detail = null;
    if (kind === 'live') {
      const presets = h('div', { class: 'tc-presets', role: 'group', 'aria-label': t('tc.presets') },
        PRESETS.map(([m, s]) => h('button', {
          type: 'button', class: 'tc-preset', 'data-preset': `${m}+${s}`,
          'aria-pressed': String(!custom && live.initial === m * 60 && live.increment === s),
          onclick: () => { custom = false; live = { initial: m * 60, increment: s }; changed(); },
        }, `${m}+${s}`)),
        h('button', {
          type: 'button', class: 'tc-preset', 'data-preset': 'custom', 'aria-pressed': String(custom),
          onclick: () => { custom = true; changed(); },
        }, t('tc.custom')));
      let fields = null;
      if (custom) {
        const minutes = h('input', {
          type: 'number', name: `${name}-minutes`, min: 0, max: 180, step: 0.25, value: live.initial / 60,
          'aria-label': t('tc.minutes'),
          oninput: (e) => {
            const v = Number(e.target.value);
            if (e.target.value !== '' && Number.isFinite(v) && v >= 0) {
              live.initial = Math.round(v * 60);
              onChange(current());
            }
          },
        });
        const inc = h('input', {
          type: 'number', name: `${name}-increment`, min: 0, max: 180, step: 1, value: live.increment,
          'aria-label': t('tc.increment'),
          oninput: (e) => {
            const v = Number(e.target.value);
            if (e.target.value !== '' && Number.isInteger(v) && v >= 0) {
              live.increment = v;
              onChange(current());
            }
          },
        });
        fields = h('div', { class: 'tc-custom row' },
          h('label', { class: 'tc-num' }, h('span', {}, t('tc.minutes')), minutes),
          h('span', { 'aria-hidden': 'true' }, '+'),
          h('label', { class: 'tc-num' }, h('span', {}, t('tc.increment')), inc));
      }
      detail = [presets, fields];
    } else if (kind === 'corr') {
      detail = h('label', { class: 'tc-days' }, h('span', {}, t('tc.daysPerMove')),
        h('select', { name: `${name}-days`, onchange: (e) => { days = Number(e.target.value); changed(); } },
          DAYS.map((d) => h('option', { value: d, selected: d === days }, t(d === 1 ? 'tc.day' : 'tc.days', { n: d })))));
    }
    box.replaceChildren(kinds, ...[detail].flat().filter(Boolean));
  };
  draw();
  return box;
}

/**
 * The clocks of a game page: the server's times (`clocks`, each seat's ms as
 * of its frame) and the seat whose clock runs, counted down locally every
 * 100 ms and set again by every frame. Elements `[data-clock="SEAT"]` under
 * `root` show them; `onTick(seat, ms)` hears the running clock's time.
 */
export class GameClocks {
  constructor(root, { onTick } = {}) {
    this.root = root;
    this.onTick = onTick;
    this.control = null;
    this.base = null; // {clocks, running, at}
    this.timer = null;
  }

  /** Take the times of a frame (`clocks` may be absent: no clock). */
  set(control, clocks, running) {
    this.control = control || null;
    this.base = Array.isArray(clocks) ? { clocks: clocks.slice(), running: running ?? null, at: performance.now() } : null;
    this.paint();
    if (this.base && this.base.running !== null && !this.timer) this.timer = setInterval(() => this.paint(), 100);
    if ((!this.base || this.base.running === null) && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** A seat's time now, in ms (null without clocks). */
  left(seat) {
    const b = this.base;
    if (!b || typeof b.clocks[seat] !== 'number') return null;
    const run = b.running === seat ? performance.now() - b.at : 0;
    return Math.max(0, b.clocks[seat] - run);
  }

  /** Draw every clock element. */
  paint() {
    if (!this.base) return;
    for (const el of this.root.querySelectorAll('[data-clock]')) {
      const seat = Number(el.dataset.clock);
      const ms = this.left(seat);
      if (ms === null) continue;
      const text = clockText(ms, this.control);
      if (el.textContent !== text) el.textContent = text;
      const running = this.base.running === seat;
      el.classList.toggle('running', running);
      el.classList.toggle('low', !isCorrespondence(this.control) && ms < LOW_MS);
      el.classList.toggle('out', ms <= 0);
    }
    const r = this.base.running;
    if (r !== null && this.onTick) this.onTick(r, this.left(r));
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
