// Positions the server builds for the pages that are not a live game (the
// analysis board, puzzles, the engine's move of an analysed game):
// `POST /api/position` replays a set-up and moves, or a record, and answers
// the view, whose turn it is and the legal moves with their gestures. The
// page knows no rule: it only keeps the list of moves.

import { api } from './api.js';

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
