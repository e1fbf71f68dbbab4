// How moves are made by pointing, for every game: no rule of any game here.
//
// The server sends the deciding seat its legal moves, each with a gesture:
// `{move, select: [ids], targets: [ids]}`: select those ids (in any order),
// then click one of the targets. The drawing of each game tags its clickable
// SVG elements with the same ids (`data-id="e5"`). This module keeps the
// current selection, marks the elements that may be selected (`selectable`),
// the selected ones (`selected`) and the targets the selection allows
// (`target`), makes buttons for the ids that are not on the board (`pass`,
// `take`, `stop`), and sends the move whose gesture matches. Two legal moves
// never share a selection and a target (the conformance kit checks it), so a
// click on a target names one move.
//
// A click on an element:
// 1. a target of the current selection: the move is sent;
// 2. a selected element: it is deselected;
// 3. an element some move still allows with the current selection: added;
// 4. an element some move selects: the selection starts again from it;
// 5. anything else: the selection is cleared.
// A drag from a piece to a target is the same as a click on each.
//
// By keyboard: the board is one stop of the Tab key; the arrow keys move a
// focus over its elements (the drawing's `neighbour`, else the nearest element
// on the screen in that direction), Enter or Space is a click on the focused
// element, Escape clears the selection. Every element says what it is
// (`describe`) and what it offers (selectable, selected, a destination) to
// assistive technology.

import { h, fill } from './dom.js';

const setEq = (a, b) => a.size === b.length && b.every((x) => a.has(x));
const subset = (a, b) => [...a].every((x) => b.includes(x));

export class Interaction {
  /** The interactions whose boards are on the page. */
  static live = new Set();

  static watching = false;

  /**
   * @param {object} o
   * @param {HTMLElement} o.bar where buttons for ids not on the board go
   * @param {HTMLElement} o.hint where the next step is said
   * @param {(move: string) => void} o.onMove called with the move's notation
   * @param {(id: string) => string} o.label a button's label for an id
   * @param {(key: string, p?: object) => string} o.t translations
   */
  constructor({ bar, hint, onMove, label, t, describe, neighbour, boardLabel }) {
    this.describe = describe || ((id) => id);
    this.neighbour = neighbour || (() => undefined);
    this.boardLabel = boardLabel || (() => '');
    this.focusId = null;
    this.wantFocus = false;
    this.bar = bar;
    this.hint = hint;
    this.onMove = onMove;
    this.label = label;
    this.t = t;
    this.legal = [];
    this.sel = new Set();
    this.svg = null;
    this.busy = false;
    this.down = null;
  }

  /** The legal moves with their gestures (empty or null: nothing to do). */
  setLegal(legal) {
    this.legal = (legal || []).map((g) => ({ move: g.move, select: g.select || [], targets: g.targets || [] }));
    this.busy = false;
    // Keep what is still possible of the selection.
    if (!this.legal.some((g) => subset(this.sel, g.select))) this.sel = new Set();
    this.refresh();
  }

  /** A move was sent: wait for the server's answer. */
  setBusy(b) {
    this.busy = b;
    this.refresh();
  }

  /** The board was drawn anew: attach to it. */
  attach(svg) {
    this.svg = svg;
    svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    svg.addEventListener('keydown', (e) => this.key(e));
    svg.addEventListener('focusin', (e) => {
      const el = e.target.closest && e.target.closest('[data-id]');
      if (el) {
        this.focusId = el.getAttribute('data-id');
        this.wantFocus = true;
        this.roving();
      }
    });
    if (!Interaction.watching) {
      // Focus moved anywhere off a board: the board no longer takes it back
      // when it is drawn anew.
      Interaction.watching = true;
      document.addEventListener('focusin', (e) => {
        const on = e.target && e.target.closest && e.target.closest('svg.board');
        if (!on) for (const x of Interaction.live) x.wantFocus = false;
      });
    }
    for (const x of Interaction.live) if (x !== this && (!x.svg || !x.svg.isConnected)) Interaction.live.delete(x);
    Interaction.live.add(this);
    svg.setAttribute('role', 'group');
    const label = this.boardLabel();
    if (label) svg.setAttribute('aria-label', label);
    this.refresh();
    // Redrawn while a keyboard user was on it: the focus stays on the same element.
    if (this.wantFocus && (!document.activeElement || document.activeElement === document.body)) {
      const el = this.element(this.focusId);
      if (el) el.focus({ preventScroll: true });
    }
  }

  /** Stop following the focus (the page is left). */
  detach() {
    Interaction.live.delete(this);
  }

  element(id) {
    if (!this.svg || id === null) return null;
    for (const el of this.svg.querySelectorAll('[data-id]')) if (el.getAttribute('data-id') === id) return el;
    return null;
  }

  /** The keys of the board: arrows, Enter and Space, Escape. */
  key(e) {
    const el = e.target.closest && e.target.closest('[data-id]');
    if (e.key === 'Enter' || e.key === ' ') {
      if (el) {
        e.preventDefault();
        e.stopPropagation();
        this.click(el.getAttribute('data-id'));
      }
      return;
    }
    if (e.key === 'Escape') {
      if (this.sel.size) {
        e.preventDefault();
        e.stopPropagation();
        this.sel = new Set();
        this.refresh();
      }
      return;
    }
    if (!/^Arrow(Up|Down|Left|Right)$/.test(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    e.stopPropagation();
    const from = el ? el.getAttribute('data-id') : this.focusId;
    if (from === null) return;
    let to = this.neighbour(from, e.key, e.shiftKey);
    if (to === undefined) to = this.nearest(from, e.key);
    const next = to === null || to === undefined ? null : this.element(to);
    if (!next) return;
    this.focusId = to;
    this.wantFocus = true;
    this.roving();
    next.focus({ preventScroll: true });
  }

  /** The element nearest to `id` on the screen in the direction of an arrow key. */
  nearest(id, key) {
    const from = this.element(id);
    if (!from) return null;
    const centre = (el) => {
      const r = el.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    };
    const [x0, y0] = centre(from);
    const [dx, dy] = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
    let best = null;
    let score = Infinity;
    for (const el of this.svg.querySelectorAll('[data-id]')) {
      if (el === from) continue;
      const [x, y] = centre(el);
      const along = (x - x0) * dx + (y - y0) * dy;
      if (along <= 1) continue;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      const sc = along + 2.5 * across;
      if (sc < score) {
        score = sc;
        best = el.getAttribute('data-id');
      }
    }
    return best;
  }

  /** One element of the board in the Tab order: the focused one. */
  roving() {
    if (!this.svg) return;
    const els = [...this.svg.querySelectorAll('[data-id]')];
    if (!els.length) return;
    if (!els.some((el) => el.getAttribute('data-id') === this.focusId)) {
      const first = els.find((el) => el.classList.contains('target') || el.classList.contains('selected') || el.classList.contains('selectable')) || els[0];
      this.focusId = first.getAttribute('data-id');
    }
    for (const el of els) el.setAttribute('tabindex', el.getAttribute('data-id') === this.focusId ? '0' : '-1');
  }

  idAt(e) {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const g = el && el.closest && el.closest('[data-id]');
    return g && this.svg && this.svg.contains(g) ? g.getAttribute('data-id') : null;
  }

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const g = e.target.closest && e.target.closest('[data-id]');
    this.down = g ? g.getAttribute('data-id') : null;
  }

  pointerUp(e) {
    const from = this.down;
    this.down = null;
    if (from === null) return;
    const to = this.idAt(e) ?? from;
    if (to === from) {
      this.click(from);
      return;
    }
    // A drag: select where it started (unless already selected), then drop on
    // a target.
    if (!this.sel.has(from)) this.click(from);
    if (this.targets().has(to)) this.click(to);
  }

  /** Moves whose selection is the current one. */
  exact() {
    return this.legal.filter((g) => setEq(this.sel, g.select));
  }

  /** Targets the current selection allows. */
  targets() {
    const t = new Set();
    for (const g of this.exact()) for (const x of g.targets) t.add(x);
    return t;
  }

  /** Ids that may be added to the current selection. */
  selectable() {
    const out = new Set();
    for (const g of this.legal) {
      if (!subset(this.sel, g.select)) continue;
      for (const x of g.select) if (!this.sel.has(x)) out.add(x);
    }
    return out;
  }

  /** Handle a click on the element or button `id`. */
  click(id) {
    if (this.busy || this.legal.length === 0) return;
    if (this.targets().has(id)) {
      const g = this.exact().find((m) => m.targets.includes(id));
      this.sel = new Set();
      this.busy = true;
      this.refresh();
      this.onMove(g.move);
      return;
    }
    if (this.sel.has(id)) {
      this.sel.delete(id);
    } else if (this.selectable().has(id)) {
      this.sel.add(id);
    } else if (this.legal.some((g) => g.select.includes(id))) {
      this.sel = new Set([id]);
    } else {
      this.sel = new Set();
    }
    this.refresh();
  }

  /** Put the classes on the board, the buttons in the bar and the hint. */
  refresh() {
    const active = !this.busy && this.legal.length > 0;
    const targets = active ? this.targets() : new Set();
    const selectable = active ? this.selectable() : new Set();
    const onBoard = new Set();
    if (this.svg) {
      for (const el of this.svg.querySelectorAll('[data-id]')) {
        const id = el.getAttribute('data-id');
        onBoard.add(id);
        const sel = this.sel.has(id);
        el.classList.toggle('selected', active && sel);
        el.classList.toggle('target', targets.has(id));
        el.classList.toggle('selectable', !sel && !targets.has(id) && selectable.has(id));
        const clickable = active && (sel || targets.has(id) || selectable.has(id));
        el.setAttribute('role', 'button');
        el.setAttribute('aria-disabled', String(!clickable));
        let what = this.describe(id);
        if (active && sel) what += `, ${this.t('a11y.selected')}`;
        else if (targets.has(id)) what += `, ${this.t('a11y.target')}`;
        else if (active && selectable.has(id)) what += `, ${this.t('a11y.selectable')}`;
        // The words drawn inside (a number, a height) are in the label too, as
        // they are seen (speech and voice control find the element by them).
        // (Each ends with a space, which SVG does not draw, so that two of them
        // read as two words, not one: "10 10", not "1010".)
        const texts = [...el.querySelectorAll('text')];
        for (const x of texts) if (x.textContent && !/\s$/.test(x.textContent)) x.textContent += ' ';
        const drawn = texts.map((x) => x.textContent.trim()).filter(Boolean).join(' ');
        if (drawn && !what.includes(drawn)) what += ` – ${drawn}`;
        el.setAttribute('aria-label', what);
      }
      this.roving();
    }
    // Buttons: every id of a legal move that the board does not draw.
    fill(this.bar);
    if (active) {
      const ids = [];
      for (const g of this.legal) {
        for (const x of [...g.select, ...g.targets]) if (!onBoard.has(x) && !ids.includes(x)) ids.push(x);
      }
      for (const id of ids) {
        const isSelect = this.legal.some((g) => g.select.includes(id));
        const b = h('button', {
          type: 'button',
          class: targets.has(id) ? 'primary' : '',
          'data-gesture': id,
          onclick: () => this.click(id),
        }, this.label(id));
        if (isSelect) b.setAttribute('aria-pressed', String(this.sel.has(id)));
        b.disabled = !(targets.has(id) || selectable.has(id) || this.sel.has(id) || (isSelect && this.legal.some((g) => g.select.includes(id))));
        this.bar.append(b);
      }
      if (this.sel.size > 0) {
        this.bar.append(h('button', { type: 'button', 'data-gesture': '', onclick: () => { this.sel = new Set(); this.refresh(); } }, this.t('play.clear')));
      }
    }
    if (this.hint) {
      let text = '';
      if (this.busy) text = this.t('play.sending');
      else if (active) {
        if (this.sel.size === 0) text = this.t('play.start');
        else if (targets.size > 0 && selectable.size > 0) text = this.t('play.targetOrMore');
        else if (targets.size > 0) text = this.t('play.target');
        else text = this.t('play.more');
      }
      this.hint.textContent = text;
    }
  }
}
