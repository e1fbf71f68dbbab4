// The drawing of a game the interface does not know: the view as text; every
// move is a button (its gesture's targets are not on any board).

import { h, s, board } from '../dom.js';

export default {
  seatColour: (seat) => ['#1f6f8b', '#e8590c', '#2e7d32', '#8a4cc2'][seat % 4],
  draw(view) {
    const svg = board([0, 0, 10, 2], 'board');
    svg.append(s('text', { x: 5, y: 1.2, 'text-anchor': 'middle', 'font-size': 0.6 }, '—'));
    return svg;
  },
  panel(view) {
    return h('pre', { class: 'small', style: 'white-space:pre-wrap;max-height:20rem;overflow:auto' }, JSON.stringify(view, null, 1));
  },
};
