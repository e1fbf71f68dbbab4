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

import { h, fill } from './dom.js';

const setEq = (a, b) => a.size === b.length && b.every((x) => a.has(x));
const subset = (a, b) => [...a].every((x) => b.includes(x));

export class Interaction {
  /**
   * @param {object} o
   * @param {HTMLElement} o.bar where buttons for ids not on the board go
   * @param {HTMLElement} o.hint where the next step is said
   * @param {(move: string) => void} o.onMove called with the move's notation
   * @param {(id: string) => string} o.label a button's label for an id
   * @param {(key: string, p?: object) => string} o.t translations
   */
  constructor({ bar, hint, onMove, label, t }) {
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
    svg.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      const el = e.target.closest && e.target.closest('[data-id]');
      if (el) {
        e.preventDefault();
        this.click(el.getAttribute('data-id'));
      }
    });
    this.refresh();
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
        el.setAttribute('tabindex', clickable ? '0' : '-1');
        if (clickable) el.setAttribute('role', 'button');
        else el.removeAttribute('role');
      }
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
