// Colorito: the 10×10 board of coloured cells (the end ranks numbered), the
// numbered pieces; a piece's target (its own colour and number) lights up
// when the piece is pointed at. Clickable: every cell (`a1` … `j10`).

import { h, s, board, spot, r3 } from '../dom.js';
import { addStrings } from '../i18n.js';

addStrings({
  en: {
    'colorito.red': 'Red',
    'colorito.cellEmpty': '{c}: empty',
    'colorito.cellPiece': '{c}: {who} piece {n}',
    'colorito.blue': 'Blue',
    'colorito.moves': '{who}: {n} moves, {home} of 20 pieces home',
    'colorito.race': 'at least {n} steps to go',
    'colorito.maxMoves': 'A draw after {n} moves each.',
    'colorito.extra': '{who} makes the extra move: the same number of moves draws.',
    'colorito.score': 'Score of {who}: {v}',
    'colorito.exact': 'exact: the fewest moves {who} still needed',
    'colorito.bound': 'a bound: {who} needed at least {n} more moves (the search stopped there)',
    'colorito.never': '{who} could never have completed the set',
  },
  fr: {
    'colorito.red': 'Rouge',
    'colorito.cellEmpty': '{c} : vide',
    'colorito.cellPiece': '{c} : pion {who} {n}',
    'colorito.blue': 'Bleu',
    'colorito.moves': '{who} : {n} coups, {home} pions sur 20 arrivés',
    'colorito.race': 'encore au moins {n} pas',
    'colorito.maxMoves': 'Nulle après {n} coups chacun.',
    'colorito.extra': '{who} joue le coup supplémentaire : autant de coups, c’est nulle.',
    'colorito.score': 'Score de {who} : {v}',
    'colorito.exact': 'exact : le plus petit nombre de coups qu’il manquait à {who}',
    'colorito.bound': 'une borne : il manquait au moins {n} coups à {who} (la recherche s’est arrêtée là)',
    'colorito.never': '{who} n’aurait jamais pu compléter sa série',
    'cat.colorito.summary': 'Amenez vos vingt pions numérotés sur leurs cases d’arrivée, en sautant.',
    'cat.colorito.variant.standard': 'Le jeu complet : une case accueille un pion par sa couleur ou son numéro.',
    'cat.colorito.variant.just-colours': 'Pour débuter : les numéros sont ignorés ; un pion va sur n’importe quelle case de sa couleur dans sa rangée d’arrivée.',
    'cat.colorito.variant.strict': 'Plus difficile : dans un pas suivi de sauts, le pas aussi doit arriver sur une case accueillante.',
    'cat.colorito.option.first': 'Qui commence.',
    'cat.colorito.option.just-colours': 'Ignorer les numéros : accueil par la couleur seule ; l’arrivée est toute case de la couleur du pion dans sa rangée d’arrivée.',
    'cat.colorito.option.strict': 'Dans un pas suivi de sauts, le pas doit arriver sur une case qui accueille le pion.',
    'cat.colorito.option.max-moves': 'Nombre de coups par joueur après lequel la partie est nulle.',
    'cat.colorito.option.board': 'Un fichier de plateau à la place de la disposition par défaut (vide : celle par défaut).',
    'cat.colorito.option.score-nodes': 'Positions que la recherche du score du perdant peut explorer avant de donner une borne.',
  },
});

const FILES = 'abcdefghij';
const CELL = { R: '#f1a39a', Y: '#f6dd7e', D: '#8d9fd4', L: '#b3dbf2' };
const CELL_EDGE = { R: '#d97a6f', Y: '#d9b94a', D: '#6075b5', L: '#7fb9dc' };
const PIECE = { R: '#c62828', Y: '#f0bf00', D: '#183a8c', L: '#48addf' };
const INK = { R: '#fff', Y: '#3b2f00', D: '#fff', L: '#062c44' };
const RIM = { R: '#5e0b0b', Y: '#5e0b0b', D: '#08173d', L: '#08173d' };

const sideName = (side, t) => t(side === 'red' ? 'colorito.red' : 'colorito.blue');

function draw(view, ctx) {
  const t = ctx.t;
  const flip = ctx.flip;
  // Cell (file 0..9, rank 1..10) to the top-left corner of its square.
  const at = (f, rank) => (flip ? [9 - f, rank - 1] : [f, 10 - rank]);
  const svg = board([-0.8, -0.2, 11, 11.1], 'Colorito');
  svg.append(s('rect', { x: -0.08, y: -0.08, width: 10.16, height: 10.16, rx: 0.12, fill: '#3b3024' }));
  const pieces = view.pieces || {};
  // Where each piece label is printed on the board: its target.
  const cellOf = {};
  const from = new Set();
  const to = new Set();
  if (ctx.prev && ctx.prev.pieces) {
    const before = ctx.prev.pieces;
    for (const [c, p] of Object.entries(before)) if (pieces[c] !== p) from.add(c);
    for (const [c, p] of Object.entries(pieces)) if (before[c] !== p) to.add(c);
  }
  const groups = {};
  for (let rank = 10; rank >= 1; rank--) {
    const row = (view.layout[10 - rank] || '').split(/\s+/);
    for (let f = 0; f < 10; f++) {
      const label = row[f] || '';
      const colour = label[0] || 'R';
      const number = label.slice(1);
      const id = `${FILES[f]}${rank}`;
      if (number) cellOf[label] = id;
      const [x, y] = at(f, rank);
      const parts = [
        s('rect', { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, rx: 0.08, fill: CELL[colour] || '#ddd', stroke: CELL_EDGE[colour] || '#999', 'stroke-width': 0.04 }),
      ];
      if (number) {
        parts.push(s('text', { x: r3(x + 0.08), y: r3(y + 0.24), 'font-size': 0.2, fill: '#3a2d20', 'font-weight': 700 }, number));
      }
      const piece = pieces[id];
      if (piece) {
        const pc = piece[0];
        const home = piece === label;
        parts.push(s('circle', { cx: r3(x + 0.57), cy: r3(y + 0.6), r: 0.34, fill: '#000', opacity: 0.25 }));
        parts.push(s('circle', { class: 'piece', 'data-piece': piece, cx: r3(x + 0.55), cy: r3(y + 0.57), r: 0.34, fill: PIECE[pc], stroke: RIM[pc], 'stroke-width': 0.05 }));
        if (home) parts.push(s('circle', { cx: r3(x + 0.55), cy: r3(y + 0.57), r: 0.27, fill: 'none', stroke: '#fff', 'stroke-width': 0.04, 'stroke-dasharray': '0.06 0.05' }));
        parts.push(s('text', { x: r3(x + 0.55), y: r3(y + 0.685), 'font-size': 0.32, 'text-anchor': 'middle', 'font-weight': 700, fill: INK[pc] }, piece.slice(1)));
        parts.push(s('title', {}, piece));
      }
      if (from.has(id)) parts.push(s('rect', { class: 'last-from', x: x + 0.14, y: y + 0.14, width: 0.72, height: 0.72, rx: 0.1 }));
      if (to.has(id)) parts.push(s('rect', { class: 'last', x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.1 }));
      const g = spot(id, s('rect', { class: 'hl', x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.1 }), parts);
      if (piece) g.dataset.piece = piece;
      groups[id] = g;
      svg.append(g);
    }
  }
  // A piece's target lights up while the piece is pointed at.
  const goal = s('rect', { class: 'goal', 'aria-hidden': 'true', x: 0, y: 0, width: 1, height: 1, rx: 0.12, fill: 'none', stroke: '#ffffff', 'stroke-width': 0.1, visibility: 'hidden', 'pointer-events': 'none' });
  const goalRing = s('rect', { x: 0, y: 0, width: 1, height: 1, rx: 0.12, fill: 'none', stroke: '#111', 'stroke-width': 0.04, 'stroke-dasharray': '0.12 0.08', visibility: 'hidden', 'pointer-events': 'none' });
  svg.append(goal, goalRing);
  const show = (piece) => {
    const target = piece && cellOf[piece];
    for (const el of [goal, goalRing]) el.setAttribute('visibility', target ? 'visible' : 'hidden');
    if (!target) return;
    const [x, y] = at(FILES.indexOf(target[0]), Number(target.slice(1)));
    for (const el of [goal, goalRing]) {
      el.setAttribute('x', x);
      el.setAttribute('y', y);
    }
    // Said in words by the piece's own label (its target), not by this mark.
    goal.dataset.target = piece;
  };
  svg.addEventListener('pointerover', (e) => {
    const g = e.target.closest && e.target.closest('[data-piece]');
    if (g) show(g.dataset.piece);
  });
  svg.addEventListener('pointerout', (e) => {
    const g = e.target.closest && e.target.closest('[data-piece]');
    if (g && !g.contains(e.relatedTarget)) {
      const sel = svg.querySelector('.selected[data-piece]');
      show(sel ? sel.dataset.piece : null);
    }
  });
  svg.addEventListener('focusin', (e) => {
    const g = e.target.closest && e.target.closest('[data-piece]');
    if (g) show(g.dataset.piece);
  });
  // Coordinates.
  for (let f = 0; f < 10; f++) {
    const [x] = at(f, 1);
    svg.append(s('text', { x: r3(x + 0.5), y: 10.6, 'font-size': 0.36, 'text-anchor': 'middle', fill: '#5f6670' }, FILES[f]));
  }
  for (let rank = 1; rank <= 10; rank++) {
    const [, y] = at(0, rank);
    svg.append(s('text', { x: -0.45, y: r3(y + 0.62), 'font-size': 0.36, 'text-anchor': 'middle', fill: '#5f6670' }, String(rank)));
  }
  return svg;
}

function panel(view, ctx) {
  const t = ctx.t;
  const line = (side) => h('div', { 'data-side': side },
    h('span', { class: 'chip', style: `background:${side === 'red' ? PIECE.R : PIECE.D}` }), ' ',
    t('colorito.moves', { who: sideName(side, t), n: view.moves[side], home: view.home[side] }),
    view.race && view.race[side] !== null && view.race[side] !== undefined && !view.winner
      ? h('span', { class: 'muted small' }, ` · ${t('colorito.race', { n: view.race[side] })}`) : null);
  return h('div', {}, line('red'), line('blue'),
    view.extra_move && view.side_to_move ? h('div', { class: 'small' }, t('colorito.extra', { who: sideName(view.side_to_move, t) })) : null,
    h('div', { class: 'muted small' }, t('colorito.maxMoves', { n: view.max_moves })));
}

function result(view, ctx) {
  const t = ctx.t;
  const parts = [];
  parts.push(h('div', { class: 'small' }, t('colorito.moves', { who: sideName('red', t), n: view.moves.red, home: view.home.red })));
  parts.push(h('div', { class: 'small' }, t('colorito.moves', { who: sideName('blue', t), n: view.moves.blue, home: view.home.blue })));
  const sc = view.score;
  if (sc) {
    const who = sideName(sc.side, t);
    let v;
    let note;
    if (sc.value === null || sc.value === undefined) {
      v = '—';
      note = t('colorito.never', { who });
    } else if (sc.exact) {
      v = String(sc.value).replace('-', '−');
      note = t('colorito.exact', { who });
    } else {
      v = `≤ ${String(sc.value).replace('-', '−')}`;
      note = t('colorito.bound', { who, n: -sc.value });
    }
    parts.push(h('div', { class: 'score', 'data-exact': String(!!sc.exact), title: sc.text },
      h('strong', {}, t('colorito.score', { who, v })), h('div', { class: 'muted small' }, note)));
  }
  return h('div', {}, parts);
}

function describe(id, view, t) {
  const piece = view.pieces && view.pieces[id];
  if (!piece) return t('colorito.cellEmpty', { c: id });
  return t('colorito.cellPiece', { c: id, who: t(piece[0] === 'R' ? 'colorito.red' : 'colorito.blue'), n: piece.slice(1) });
}

export default {
  describe,
  title: () => 'Colorito',
  seatColour: (seat) => (seat === 0 ? PIECE.R : PIECE.D),
  seatName: (seat, name, t) => t(seat === 0 ? 'colorito.red' : 'colorito.blue'),
  label: (id, t) => (id === 'pass' ? t('play.pass') : id),
  draw,
  panel,
  result,
};
