// Positions the server builds for the pages that are not a live game (the
// analysis board, puzzles, the engine's move of an analysed game):
// `POST /api/position` replays a set-up and moves, or a record, and answers
// the view, whose turn it is and the legal moves with their gestures. The
// page knows no rule: it only keeps the list of moves.

import { api } from './api.js';
import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { Interaction } from './interact.js';

/** The tag lines of a record (`[Name "value"]`), without its moves. */
export function recordTags(text) {
  return String(text || '').split(/\r?\n/).map((l) => l.trim()).filter((l) => /^\[.*\]$/.test(l) && !/^\[Result\s/.test(l));
}

/** A record of the same set-up as `tags` with the moves `moves` (no result yet). */
export function recordWith(tags, moves) {
  return `${tags.join('\n')}\n\n${moves.join(' ')} *\n`;
}

/**
 * Where a line of moves starts: `{game, variant, options}` for a game's
 * start, or `{tags}` for a record's set-up (seed, options, deal). The body
 * of `/api/position` (and `/api/analyse`) for `moves` from there.
 */
export function positionBody(base, moves) {
  if (base.tags) return { record: recordWith(base.tags, moves) };
  const b = { game: base.game, moves };
  if (base.variant) b.variant = base.variant;
  if (base.options && Object.keys(base.options).length) b.options = base.options;
  return b;
}

/** The position after `moves` from `base` (see `positionBody`). */
export function fetchPosition(base, moves, signal) {
  return api('/api/position', { method: 'POST', body: positionBody(base, moves), signal });
}

/** A cache of positions by their moves. */
export class Positions {
  constructor(base) {
    this.base = base;
    this.map = new Map();
  }

  get(moves, signal) {
    const key = moves.join(' ');
    if (!this.map.has(key)) {
      const p = fetchPosition(this.base, moves, signal);
      this.map.set(key, p);
      p.catch(() => this.map.delete(key));
      // Keep the cache bounded.
      if (this.map.size > 400) this.map.delete(this.map.keys().next().value);
    }
    return this.map.get(key);
  }
}

/** What a drawing module needs to draw a position `p` (`prev`: the one before). */
export function drawCtx(p, prev, t, you) {
  return {
    you: you === undefined ? p.to_move : you,
    seats: (p.seats || []).map((name, seat) => ({ seat, name })),
    flip: false,
    prev: prev ? prev.view : null,
    last: p.last_move || null,
    toMove: p.to_move,
    t,
    live: true,
    dealt: true,
  };
}

/**
 * The layout of a page that shows one board outside a live game (the
 * analysis board, a puzzle, a lesson) in `page.root`: a title, `top` above
 * the board, the board with its gesture bar and hint, and the `aside`
 * panels; and the pointing interaction, whose labels come from the game's
 * drawing module (`page.draw`) and whose moves go to `onMove`. `kind` is the
 * page's class (`puzzle`). Returns the shared elements (`title`, `board`,
 * `bar`, `hint`) and the interaction.
 */
export function boardLayout(page, { kind, top, aside, onMove }) {
  const el = {
    title: h('h1', { class: 'game-title' }),
    board: h('div', { class: 'board-holder' }),
    bar: h('div', { class: 'gesture-bar' }),
    hint: h('div', { class: 'hint', 'aria-live': 'polite' }),
  };
  const interaction = new Interaction({
    bar: el.bar,
    hint: el.hint,
    t,
    label: (id) => (page.draw && page.draw.label && page.draw.label(id, t)) || id,
    onMove,
  });
  fill(page.root,
    h('div', { class: 'game-head' }, el.title),
    h('div', { class: `game ${kind}`, 'data-game': page.game },
      h('div', { class: 'board-col' },
        h('div', { class: 'board-wrap' }, top, el.board, el.bar, el.hint)),
      h('aside', {}, ...aside)));
  return { el, interaction };
}
