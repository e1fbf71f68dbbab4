// Abraxas: the frame of 9×9 cells over the sheet of red dots, the plate of
// 8×8 holes in its corner (the sheet shows through the holes), red stones and
// blue stop stones, what shows red, the lines the last push made. Clickable:
// every cell (`d4`) and one's own stop stones (`stop`); `take` and `pass` are
// buttons.

import { h, s, board, spot, r3, gloss } from '../dom.js';
import { addStrings } from '../i18n.js';

addStrings({
  en: {
    'abraxas.p': 'Player {n}',
    'abraxas.reserve': 'Red stones in the reserve: {n}',
    'abraxas.taken': '{who}: {n} of {k} stones taken, {s} stop stones in hand',
    'abraxas.phase.place': 'Placing',
    'abraxas.phase.score': 'Scoring the lines made',
    'abraxas.phase.interlude': 'Interlude: the opponent may place a stop stone',
    'abraxas.phase.over': 'Game over',
    'abraxas.plate': 'The plate stands {where}.',
    'abraxas.where.bottom-left': 'bottom left', 'abraxas.where.bottom-right': 'bottom right',
    'abraxas.where.top-right': 'top right', 'abraxas.where.top-left': 'top left',
    'abraxas.lines': 'Lines made by the last push: {n}; still to score: {m}.',
    'abraxas.do.place': 'Click an empty hole to place a red stone (or select your stop stones first).',
    'abraxas.do.move': 'The reserve is empty: select one of the red stones, then an empty hole (or use a stop stone).',
    'abraxas.do.score': 'Select the stones to take from a line, then click “Take”.',
    'abraxas.do.interlude': 'You may place a stop stone (select them, then a hole), or pass.',
    'abraxas.take': 'Take these stones',
    'abraxas.take.h': 'Take (from the row)',
    'abraxas.take.v': 'Take (from the column)',
    'abraxas.take.d': 'Take (from the a1–i9 diagonal)',
    'abraxas.take.a': 'Take (from the i1–a9 diagonal)',
    'abraxas.stop': 'Stop stone',
    'abraxas.stops': 'stop stones',
    'abraxas.takenEnd': '{who}: {n} of {k} stones taken',
  },
  fr: {
    'abraxas.p': 'Joueur {n}',
    'abraxas.reserve': 'Pions rouges dans la réserve : {n}',
    'abraxas.taken': '{who} : {n} pions pris sur {k}, {s} pions d’arrêt en main',
    'abraxas.phase.place': 'Pose',
    'abraxas.phase.score': 'Décompte des lignes formées',
    'abraxas.phase.interlude': 'Intermède : l’adversaire peut poser un pion d’arrêt',
    'abraxas.phase.over': 'Partie terminée',
    'abraxas.plate': 'La plaque est {where}.',
    'abraxas.where.bottom-left': 'en bas à gauche', 'abraxas.where.bottom-right': 'en bas à droite',
    'abraxas.where.top-right': 'en haut à droite', 'abraxas.where.top-left': 'en haut à gauche',
    'abraxas.lines': 'Lignes formées par la dernière poussée : {n} ; encore à décompter : {m}.',
    'abraxas.do.place': 'Cliquez sur un trou vide pour poser un pion rouge (ou sélectionnez d’abord vos pions d’arrêt).',
    'abraxas.do.move': 'La réserve est vide : sélectionnez un pion rouge, puis un trou vide (ou utilisez un pion d’arrêt).',
    'abraxas.do.score': 'Sélectionnez les pions à prendre dans une ligne, puis cliquez sur « Prendre ».',
    'abraxas.do.interlude': 'Vous pouvez poser un pion d’arrêt (sélectionnez-les, puis un trou), ou passer.',
    'abraxas.take': 'Prendre ces pions',
    'abraxas.take.h': 'Prendre (dans la rangée)',
    'abraxas.take.v': 'Prendre (dans la colonne)',
    'abraxas.take.d': 'Prendre (dans la diagonale a1–i9)',
    'abraxas.take.a': 'Prendre (dans la diagonale i1–a9)',
    'abraxas.stop': 'Pion d’arrêt',
    'abraxas.stops': 'pions d’arrêt',
    'abraxas.takenEnd': '{who} : {n} pions pris sur {k}',
    'cat.abraxas.summary': 'Formez des lignes de quatre cercles rouges pendant que la plaque tourne.',
    'cat.abraxas.option.sheet': 'la feuille de points : level-1 … level-6, une feuille en ligne (9 rangées de o et . séparées par /, la rangée 9 d’abord), ou le chemin d’un fichier',
    'cat.abraxas.option.plate-start': 'où est la plaque au départ',
    'cat.abraxas.option.removal': 'les trois cercles restants ne doivent pas se toucher (remaining-not-adjacent), ou les pions pris ne doivent pas être voisins (removed-not-adjacent)',
    'cat.abraxas.option.stones-to-win': 'pions rouges à détenir pour gagner',
    'cat.abraxas.option.max-plies': 'coups (de toute sorte) après lesquels la partie est nulle',
  },
});

const FILES = 'abcdefghi';
const STOP = ['#1b4aa0', '#3fa0e0'];
const OFFSET = { 'bottom-left': [0, 0], 'bottom-right': [1, 0], 'top-right': [1, 1], 'top-left': [0, 1] };

const cellFR = (c) => [FILES.indexOf(c[0]), Number(c.slice(1)) - 1];
const name = (f, r) => `${FILES[f]}${r + 1}`;

function draw(view, ctx) {
  const t = ctx.t;
  const flip = ctx.flip;
  // Centre of the cell at file f, rank index r.
  const at = (f, r) => (flip ? [8 - f + 0.5, r + 0.5] : [f + 0.5, 8 - r + 0.5]);
  const svg = board([-0.75, -0.2, 10.0, 11.55], 'Abraxas');
  const defs = s('defs');
  const red = gloss(defs, 'ax-red', '#ff8a7a', '#a3150b');
  const stops = [gloss(defs, 'ax-stop0', '#6f9be8', '#0d2b6b'), gloss(defs, 'ax-stop1', '#b6e3ff', '#1f78b8')];
  svg.append(defs);
  // The frame and the sheet.
  svg.append(s('rect', { x: -0.12, y: -0.12, width: 9.24, height: 9.24, rx: 0.2, fill: '#6d5a45' }));
  svg.append(s('rect', { x: 0, y: 0, width: 9, height: 9, fill: '#f3ecdc' }));
  for (let f = 0; f < 9; f++) {
    for (let r = 0; r < 9; r++) {
      const [x, y] = at(f, r);
      svg.append(s('rect', { x: r3(x - 0.5), y: r3(y - 0.5), width: 1, height: 1, fill: 'none', stroke: '#e0d6c1', 'stroke-width': 0.02 }));
    }
  }
  for (const c of view.dots) {
    const [x, y] = at(...cellFR(c));
    // A printed dot: flat, smaller than a stone.
    svg.append(s('circle', { cx: x, cy: y, r: 0.2, fill: '#e0281a', 'data-dot': c }));
  }
  // The plate: a panel with 64 holes (the sheet shows through).
  const [ox, oy] = OFFSET[view.plate] || [0, 0];
  let d = '';
  {
    const corners = [at(ox, oy), at(ox + 7, oy), at(ox + 7, oy + 7), at(ox, oy + 7)];
    const xs = corners.map((p) => p[0]);
    const ys = corners.map((p) => p[1]);
    const x0 = Math.min(...xs) - 0.5;
    const y0 = Math.min(...ys) - 0.5;
    d += `M${x0 - 0.04},${y0 - 0.04}h8.08v8.08h-8.08z`;
    for (let f = ox; f < ox + 8; f++) {
      for (let r = oy; r < oy + 8; r++) {
        const [x, y] = at(f, r);
        d += `M${r3(x - 0.4)},${r3(y)}a0.4,0.4 0 1,0 0.8,0a0.4,0.4 0 1,0 -0.8,0z`;
      }
    }
  }
  svg.append(s('path', { d, fill: 'rgba(96,118,140,.78)', 'fill-rule': 'evenodd', stroke: '#3e5266', 'stroke-width': 0.06, 'data-plate': view.plate }));
  // Lines made by the last push, under the stones.
  const lineMark = (cells, cls, attrs) => {
    const a = at(...cellFR(cells[0]));
    const b = at(...cellFR(cells[cells.length - 1]));
    return s('line', { class: cls, x1: a[0], y1: a[1], x2: b[0], y2: b[1], 'stroke-linecap': 'round', 'pointer-events': 'none', ...attrs });
  };
  for (const l of view.lines_made || []) svg.append(lineMark(l, 'line-made', { stroke: '#8e5cf7', 'stroke-width': 0.92, 'stroke-opacity': 0.42 }));
  const redStones = new Set(view.red_stones);
  const stopAt = new Map();
  view.stop_stones.forEach((cells, seat) => cells.forEach((c) => stopAt.set(c, seat)));
  const redCircles = new Set(view.red_circles);
  // The last move's cells, where the push has carried them.
  const last = new Set();
  const lastFrom = new Set();
  if (ctx.last && ctx.prev && ctx.last !== 'pass') {
    const [px, py] = OFFSET[ctx.prev.plate] || [0, 0];
    const shift = (c) => {
      const [f, r] = cellFR(c);
      return name(f + ox - px, r + oy - py);
    };
    const m = ctx.last.toLowerCase();
    if (m.startsWith('x:')) {
      for (const c of m.slice(2).split('/')[0].split(',')) lastFrom.add(c.trim());
    } else if (m.startsWith('b:')) {
      last.add(shift(m.slice(2)));
    } else if (m.includes('-')) {
      const [a, b] = m.split('-');
      lastFrom.add(shift(a));
      last.add(shift(b));
    } else {
      last.add(shift(m));
    }
  }
  for (let f = 0; f < 9; f++) {
    for (let r = 0; r < 9; r++) {
      const id = name(f, r);
      const [x, y] = at(f, r);
      const parts = [s('rect', { class: 'hit', x: r3(x - 0.5), y: r3(y - 0.5), width: 1, height: 1 })];
      if (redStones.has(id)) {
        parts.push(s('circle', { cx: r3(x + 0.03), cy: r3(y + 0.05), r: 0.36, fill: '#000', opacity: 0.3 }));
        parts.push(s('circle', { class: 'stone red', cx: x, cy: y, r: 0.37, fill: red, stroke: '#6b0d06', 'stroke-width': 0.04 }));
      } else if (stopAt.has(id)) {
        const seat = stopAt.get(id);
        parts.push(s('circle', { cx: r3(x + 0.03), cy: r3(y + 0.05), r: 0.36, fill: '#000', opacity: 0.3 }));
        parts.push(s('rect', { class: 'stone stop', 'data-seat': seat, x: r3(x - 0.3), y: r3(y - 0.3), width: 0.6, height: 0.6, rx: 0.1, transform: `rotate(45 ${x} ${y})`, fill: stops[seat], stroke: '#0a1f4d', 'stroke-width': 0.03 }));
        parts.push(s('text', { x, y: r3(y + 0.11), 'font-size': 0.3, 'text-anchor': 'middle', fill: '#fff', 'font-weight': 700 }, String(seat + 1)));
      }
      if (redCircles.has(id)) parts.push(s('circle', { class: 'red-circle', cx: x, cy: y, r: 0.45, fill: 'none', stroke: '#d81e12', 'stroke-width': 0.035, 'stroke-opacity': 0.7 }));
      if (lastFrom.has(id)) parts.push(s('circle', { class: 'last-from', cx: x, cy: y, r: 0.3 }));
      if (last.has(id)) parts.push(s('circle', { class: 'last', cx: x, cy: y, r: 0.46 }));
      svg.append(spot(id, s('circle', { class: 'hl', cx: x, cy: y, r: 0.44 }), parts));
    }
  }
  for (const l of view.lines_to_score || []) svg.append(lineMark(l, 'line-pending', { stroke: '#e8590c', 'stroke-width': 0.08, 'stroke-dasharray': '0.2 0.12' }));
  // Coordinates.
  for (let f = 0; f < 9; f++) {
    const [x] = at(f, 0);
    svg.append(s('text', { x, y: 9.55, 'font-size': 0.34, 'text-anchor': 'middle', fill: '#5f6670' }, FILES[f]));
  }
  for (let r = 0; r < 9; r++) {
    const [, y] = at(0, r);
    svg.append(s('text', { x: -0.4, y: r3(y + 0.12), 'font-size': 0.34, 'text-anchor': 'middle', fill: '#5f6670' }, String(r + 1)));
  }
  // Stop stones in hand, below the board; one's own are the `stop` id.
  [0, 1].forEach((seat) => {
    const x0 = seat === 0 ? 0 : 4.6;
    const y0 = 9.85;
    const n = view.stops_in_hand[seat];
    const parts = [s('rect', { x: x0, y: y0, width: 4.4, height: 1.3, rx: 0.18, fill: '#efe8d8', stroke: '#cfc5b1', 'stroke-width': 0.03 }),
      s('text', { x: x0 + 0.2, y: y0 + 0.42, 'font-size': 0.3, fill: '#3a3a3a', 'font-weight': 700 }, `${t('abraxas.p', { n: seat + 1 })} · ${t('abraxas.taken.short', { n: view.taken[seat], k: view.stones_to_win }, `${view.taken[seat]}/${view.stones_to_win}`)}`)];
    for (let i = 0; i < 3; i++) {
      const cx = x0 + 0.6 + i * 0.8;
      const cy = y0 + 0.88;
      if (i < n) {
        parts.push(s('rect', { x: r3(cx - 0.22), y: r3(cy - 0.22), width: 0.44, height: 0.44, rx: 0.08, transform: `rotate(45 ${r3(cx)} ${r3(cy)})`, fill: stops[seat], stroke: '#0a1f4d', 'stroke-width': 0.03 }));
      } else {
        parts.push(s('rect', { x: r3(cx - 0.22), y: r3(cy - 0.22), width: 0.44, height: 0.44, rx: 0.08, transform: `rotate(45 ${r3(cx)} ${r3(cy)})`, fill: 'none', stroke: '#b9ad95', 'stroke-width': 0.03, 'stroke-dasharray': '0.06 0.05' }));
      }
    }
    // The red stones taken, as a count by a stone.
    parts.push(s('circle', { cx: x0 + 3.05, cy: y0 + 0.88, r: 0.28, fill: red }));
    parts.push(s('text', { x: x0 + 3.45, y: y0 + 0.99, 'font-size': 0.32, fill: '#3a3a3a', 'font-weight': 700, 'data-taken': seat }, `×${view.taken[seat]}`));
    if (ctx.you === seat) svg.append(spot('stop', s('rect', { class: 'hl', x: x0 + 0.05, y: y0 + 0.05, width: 4.3, height: 1.2, rx: 0.16 }), parts));
    else svg.append(s('g', {}, parts));
  });
  return svg;
}

function panel(view, ctx) {
  const t = ctx.t;
  const who = (seat) => t('abraxas.p', { n: seat + 1 });
  return h('div', {},
    h('div', { 'data-phase': view.phase }, h('strong', {}, t(`abraxas.phase.${view.phase}`))),
    h('div', { class: 'small' }, t('abraxas.reserve', { n: view.reserve })),
    [0, 1].map((seat) => h('div', { class: 'small', 'data-seat': seat }, t('abraxas.taken', { who: who(seat), n: view.taken[seat], k: view.stones_to_win, s: view.stops_in_hand[seat] }))),
    h('div', { class: 'small muted' }, t('abraxas.plate', { where: t(`abraxas.where.${view.plate}`) })),
    (view.lines_made || []).length ? h('div', { class: 'small' }, t('abraxas.lines', { n: view.lines_made.length, m: (view.lines_to_score || []).length })) : null);
}

function prompt(view, ctx) {
  const t = ctx.t;
  if (ctx.you === null || ctx.you === undefined) return null;
  if (view.phase === 'score') return t('abraxas.do.score');
  if (view.phase === 'interlude') return t('abraxas.do.interlude');
  if (view.phase === 'place') return view.reserve > 0 ? t('abraxas.do.place') : t('abraxas.do.move');
  return null;
}

function label(id, t) {
  if (id === 'pass') return t('play.pass');
  if (id === 'stop') return t('abraxas.stop');
  if (id === 'take') return t('abraxas.take');
  if (id.startsWith('take/')) return t(`abraxas.take.${id.slice(5)}`, {}, id);
  return id;
}

function result(view, ctx) {
  const t = ctx.t;
  return h('div', {},
    [0, 1].map((seat) => h('div', { class: 'small' }, t('abraxas.takenEnd', { who: t('abraxas.p', { n: seat + 1 }), n: view.taken[seat], k: view.stones_to_win }))));
}

export default {
  title: () => 'Abraxas',
  seatColour: (seat) => STOP[seat],
  seatName: (seat, nm, t) => t('abraxas.p', { n: seat + 1 }),
  label,
  draw,
  panel,
  prompt,
  result,
};
