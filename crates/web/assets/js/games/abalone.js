// Abalone: the hexagon of 61 cells, rows A (bottom, Black's side) to I, the
// gutter around it with the marbles pushed out, the coordinates as printed.
// Clickable: every cell (`a1` … `i9`), marble or not.

import { h, s, board, spot, r3, gloss } from '../dom.js';
import { addStrings } from '../i18n.js';

addStrings({
  en: {
    'abalone.black': 'Black',
    'abalone.white': 'White',
    'abalone.pushed': '{who} pushed out {n} of {k}',
    'abalone.maxPlies': 'The game ends after {n} moves.',
    'abalone.repeated': 'This position has occurred {n} times (the third is a draw).',
    'abalone.cell.black': '{c}: black marble',
    'abalone.cell.white': '{c}: white marble',
    'abalone.cell.empty': '{c}: empty',
    'abalone.keys': 'Arrows: left and right along a row; up and down to the rows above and below (with Shift, the other diagonal).',
  },
  fr: {
    'abalone.black': 'Noir',
    'abalone.white': 'Blanc',
    'abalone.pushed': '{who} a éjecté {n} sur {k}',
    'abalone.maxPlies': 'La partie s’arrête après {n} coups.',
    'abalone.repeated': 'Cette position est apparue {n} fois (la troisième fois, c’est nulle).',
    'abalone.cell.black': '{c} : bille noire',
    'abalone.cell.white': '{c} : bille blanche',
    'abalone.cell.empty': '{c} : vide',
    'abalone.keys': 'Flèches : gauche et droite le long d’une rangée ; haut et bas vers les rangées voisines (avec Maj, l’autre diagonale).',
    'cat.abalone.summary': 'Poussez six billes adverses hors du plateau.',
    'cat.abalone.variant.standard': 'La position de la règle : rangées A–B et C3–C5 contre H–I et G5–G7.',
    'cat.abalone.variant.belgian-daisy': 'La position de tournoi : deux marguerites chacun.',
    'cat.abalone.variant.german-daisy': 'Deux marguerites chacun, plus au centre.',
    'cat.abalone.variant.alien': 'Des billes éparpillées dans le camp adverse.',
    'cat.abalone.variant.snakes': 'Deux longs serpents.',
    'cat.abalone.variant.domination': 'Des coins imbriqués.',
    'cat.abalone.option.layout': 'La position de départ.',
    'cat.abalone.option.position': 'Partir de cette position (forme texte : rangées I à A, b/w/chiffres, trait, billes éjectées par Noir et par Blanc).',
    'cat.abalone.option.marbles-to-win': 'Billes adverses à éjecter pour gagner.',
    'cat.abalone.option.max-plies': 'Arrêter la partie après ce nombre de coups : qui a éjecté le plus de billes gagne, égalité = nulle.',
  },
});

const SQ3 = Math.sqrt(3) / 2;
const ROWS = 'abcdefghi';
const PLAY_R = 4.62;
const GUTTER_R = 5.12;
const FRAME_R = 5.6;

/** The cells of row r (0 = A): numbers from..to. */
const rowSpan = (r) => [Math.max(1, r - 3), Math.min(9, r + 5)];

function hexagon(R) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k;
    pts.push(`${r3(R * Math.cos(a))},${r3(R * Math.sin(a))}`);
  }
  return pts.join(' ');
}

/** A point `d` along the perimeter of the hexagon of radius R, from vertex `v0`, turning `dir` (+1 or −1). */
function alongHex(R, v0, dir, d) {
  const corner = (k) => {
    const a = (Math.PI / 3) * (((k % 6) + 6) % 6);
    return [R * Math.cos(a), R * Math.sin(a)];
  };
  let k = v0;
  let left = d;
  for (;;) {
    const [x1, y1] = corner(k);
    const [x2, y2] = corner(k + dir);
    const len = Math.hypot(x2 - x1, y2 - y1);
    if (left <= len) return [x1 + ((x2 - x1) * left) / len, y1 + ((y2 - y1) * left) / len];
    left -= len;
    k += dir;
  }
}

function seatName(seat, name, t) {
  return t(seat === 0 ? 'abalone.black' : 'abalone.white');
}

function draw(view, ctx) {
  const flip = ctx.flip ? -1 : 1;
  const pos = (r, n) => [flip * (n - r / 2 - 3), flip * (-(r - 4) * SQ3)];
  const svg = board([-6.7, -5.95, 13.4, 11.9], 'Abalone');
  const defs = s('defs');
  const black = gloss(defs, 'ab-black', '#6e7f96', '#0b0f15');
  const white = gloss(defs, 'ab-white', '#ffffff', '#bfb6a3');
  svg.append(defs);
  svg.append(s('polygon', { points: hexagon(FRAME_R), fill: '#8a5a2b', stroke: '#5b3a19', 'stroke-width': 0.12 }));
  svg.append(s('polygon', { points: hexagon(GUTTER_R + 0.42), fill: '#6f4620' }));
  svg.append(s('polygon', { points: hexagon(PLAY_R), fill: '#d9b57a', stroke: '#a9814a', 'stroke-width': 0.06 }));

  // Pushed-out marbles in the gutter: those Black pushed out (white ones)
  // along Black's edge, those White pushed out (black ones) along White's.
  const k = view.marbles_to_win;
  const slot = 0.88;
  const trays = [
    { count: view.captured.black, fill: white, v0: 2, dir: -1, who: 0 }, // bottom edge, seen unflipped
    { count: view.captured.white, fill: black, v0: 5, dir: -1, who: 1 }, // top edge
  ];
  for (const tr of trays) {
    const shown = Math.min(14, Math.max(k, tr.count));
    for (let i = 0; i < shown; i++) {
      let [x, y] = alongHex(GUTTER_R, tr.v0, tr.dir, 0.7 + i * slot);
      x *= flip;
      y *= flip;
      if (i < tr.count) {
        svg.append(s('circle', { cx: r3(x), cy: r3(y), r: 0.38, fill: tr.fill, stroke: '#000', 'stroke-opacity': 0.35, 'stroke-width': 0.03, 'data-pushed': tr.who }));
      } else if (i < k) {
        svg.append(s('circle', { cx: r3(x), cy: r3(y), r: 0.3, fill: 'none', stroke: '#e9d3aa', 'stroke-opacity': 0.55, 'stroke-width': 0.04, 'stroke-dasharray': '0.1 0.08' }));
      }
    }
  }

  // Coordinates: letters at the left of each row, numbers at the foot of
  // each diagonal.
  for (let r = 0; r < 9; r++) {
    const [lo] = rowSpan(r);
    const [x, y] = pos(r, lo);
    svg.append(s('text', { x: r3(x - flip * 2.1), y: r3(y + 0.15), 'font-size': 0.42, 'text-anchor': 'middle', fill: '#5b3a19', 'font-weight': 700 }, ROWS[r].toUpperCase()));
  }
  for (let n = 1; n <= 9; n++) {
    const rmin = Math.max(0, n - 5);
    const [x, y] = pos(rmin, n);
    svg.append(s('text', { x: r3(x + flip * 1.05), y: r3(y + flip * 1.82 + 0.15), 'font-size': 0.42, 'text-anchor': 'middle', fill: '#5b3a19', 'font-weight': 700 }, String(n)));
  }

  const blacks = new Set(view.black);
  const whites = new Set(view.white);
  // Last move: the cells the mover's marbles left and reached.
  const from = new Set();
  const to = new Set();
  if (ctx.prev && ctx.prev.to_move) {
    const key = ctx.prev.to_move;
    const before = new Set(ctx.prev[key]);
    const after = new Set(view[key]);
    for (const c of before) if (!after.has(c)) from.add(c);
    for (const c of after) if (!before.has(c)) to.add(c);
  }
  for (let r = 0; r < 9; r++) {
    const [lo, hi] = rowSpan(r);
    for (let n = lo; n <= hi; n++) {
      const id = `${ROWS[r]}${n}`;
      const [x, y] = pos(r, n);
      const parts = [s('circle', { class: 'hit', cx: r3(x), cy: r3(y), r: 0.5 }),
        s('circle', { cx: r3(x), cy: r3(y), r: 0.4, fill: '#b38a50', stroke: '#8f6a35', 'stroke-width': 0.04 })];
      if (blacks.has(id) || whites.has(id)) {
        const isB = blacks.has(id);
        parts.push(s('circle', { cx: r3(x + 0.03), cy: r3(y + 0.05), r: 0.44, fill: '#000', opacity: 0.25 }));
        parts.push(s('circle', { class: 'marble', 'data-colour': isB ? 'black' : 'white', cx: r3(x), cy: r3(y), r: 0.44, fill: isB ? black : white, stroke: isB ? '#000' : '#8f8676', 'stroke-width': 0.025 }));
      }
      if (from.has(id)) parts.push(s('circle', { class: 'last-from', cx: r3(x), cy: r3(y), r: 0.2 }));
      if (to.has(id)) parts.push(s('circle', { class: 'last', cx: r3(x), cy: r3(y), r: 0.5 }));
      svg.append(spot(id, s('circle', { class: 'hl', cx: r3(x), cy: r3(y), r: 0.47 }), parts));
    }
  }
  return svg;
}

/** The cell `id` (`e5`) as row 0–8 and number 1–9, or null. */
function cellOf(id) {
  const m = /^([a-i])([1-9])$/.exec(String(id));
  if (!m) return null;
  const r = ROWS.indexOf(m[1]);
  const n = Number(m[2]);
  const [lo, hi] = rowSpan(r);
  return n >= lo && n <= hi ? [r, n] : null;
}

/**
 * The neighbour of a cell for an arrow key, on the hexagonal grid as drawn:
 * left and right along the row; up to the row above, towards the left (with
 * Shift, towards the right); down to the row below, towards the right (with
 * Shift, towards the left); so that up then down comes back. When the board
 * is turned (White's side), the screen's directions turn with it.
 */
function neighbour(id, key, shift, ctx) {
  const c = cellOf(id);
  if (!c) return undefined;
  const [r, n] = c;
  // Unturned steps (row, number) for each key.
  let steps = {
    ArrowLeft: [[0, -1]],
    ArrowRight: [[0, 1]],
    ArrowUp: shift ? [[1, 1], [1, 0]] : [[1, 0], [1, 1]],
    ArrowDown: shift ? [[-1, -1], [-1, 0]] : [[-1, 0], [-1, -1]],
  }[key];
  if (!steps) return undefined;
  if (ctx && ctx.flip) steps = steps.map(([dr, dn]) => [-dr, -dn]);
  for (const [dr, dn] of steps) {
    const to = `${ROWS[r + dr] || ''}${n + dn}`;
    if (cellOf(to)) return to;
  }
  return null;
}

function describe(id, view, t) {
  if (!cellOf(id)) return id;
  const c = id.toUpperCase();
  if ((view.black || []).includes(id)) return t('abalone.cell.black', { c });
  if ((view.white || []).includes(id)) return t('abalone.cell.white', { c });
  return t('abalone.cell.empty', { c });
}

function panel(view, ctx) {
  const t = ctx.t;
  const k = view.marbles_to_win;
  return h('div', {},
    h('div', { 'data-captured': 'black' }, t('abalone.pushed', { who: t('abalone.black'), n: view.captured.black, k })),
    h('div', { 'data-captured': 'white' }, t('abalone.pushed', { who: t('abalone.white'), n: view.captured.white, k })),
    view.max_plies ? h('div', { class: 'muted small' }, t('abalone.maxPlies', { n: view.max_plies })) : null,
    view.repetitions > 1 ? h('div', { class: 'muted small' }, t('abalone.repeated', { n: view.repetitions })) : null);
}

function result() {
  // The pushed-out counts are in the panel beside.
  return null;
}

export default {
  title: () => 'Abalone',
  seatColour: (seat) => (seat === 0 ? '#1c2330' : '#f4f1ea'),
  seatName,
  neighbour,
  describe,
  keys: (t) => t('abalone.keys'),
  draw,
  panel,
  result,
};
