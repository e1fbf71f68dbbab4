// Kabaleo: the locations (a base and its pile: height and top colour), every
// player's stock, and the reader's own secret colour (never the others').
// Clickable: each location (`loc:7`) and the colours of one's own stock
// (`stock:R`).

import { h, s, board, spot, r3 } from '../dom.js';
import { addStrings } from '../i18n.js';

addStrings({
  en: {
    'kabaleo.player': 'Player {n}',
    'kabaleo.colour.R': 'red', 'kabaleo.colour.O': 'orange', 'kabaleo.colour.Y': 'yellow',
    'kabaleo.colour.G': 'green', 'kabaleo.colour.B': 'blue', 'kabaleo.colour.V': 'violet',
    'kabaleo.secret': 'Your secret colour: {c}',
    'kabaleo.secretHelp': 'Nobody else sees it until the end. Make it show on the most locations.',
    'kabaleo.secretPending': 'The colours are dealt when every seat is taken: yours will show here then.',
    'kabaleo.left': '{n} pieces left',
    'kabaleo.showing': 'Locations showing each colour (covered ones in brackets):',
    'kabaleo.golden': 'Golden rule: no piece on the location just played.',
    'kabaleo.forbidden': 'forbidden now (golden rule)',
    'kabaleo.decided.most locations': 'most locations',
    'kabaleo.decided.tie-break: most covered locations': 'tie-break: most covered locations',
    'kabaleo.decided.tie-break: highest pile': 'tie-break: the highest pile',
    'kabaleo.decided.shared win': 'shared win',
    'kabaleo.place': 'Place',
    'kabaleo.who': 'Player',
    'kabaleo.colour': 'Colour',
    'kabaleo.locations': 'Loc.',
    'kabaleo.covered': 'Cov.',
    'kabaleo.highest': 'Pile',
    'kabaleo.locationsLong': 'Locations showing the colour',
    'kabaleo.coveredLong': 'Covered locations showing the colour (first tie-break)',
    'kabaleo.highestLong': 'Height of the highest pile the colour tops (second tie-break)',
    'kabaleo.decided': 'Decided by: {d}',
    'kabaleo.location': 'location {n}',
    'kabaleo.describeLoc': 'location {n}: shows {c}, {k} pieces on it',
    'kabaleo.describeStock': 'your {c} pieces: {k}',
  },
  fr: {
    'kabaleo.player': 'Joueur {n}',
    'kabaleo.colour.R': 'rouge', 'kabaleo.colour.O': 'orange', 'kabaleo.colour.Y': 'jaune',
    'kabaleo.colour.G': 'vert', 'kabaleo.colour.B': 'bleu', 'kabaleo.colour.V': 'violet',
    'kabaleo.secret': 'Votre couleur secrète : {c}',
    'kabaleo.secretHelp': 'Personne d’autre ne la voit avant la fin. Faites-la apparaître sur le plus d’emplacements.',
    'kabaleo.secretPending': 'Les couleurs sont distribuées quand toutes les places sont prises : la vôtre s’affichera ici.',
    'kabaleo.left': 'il reste {n} pions',
    'kabaleo.showing': 'Emplacements montrant chaque couleur (couverts entre parenthèses) :',
    'kabaleo.golden': 'Règle d’or : pas de pion sur l’emplacement qui vient d’être joué.',
    'kabaleo.forbidden': 'interdit maintenant (règle d’or)',
    'kabaleo.decided.most locations': 'le plus d’emplacements',
    'kabaleo.decided.tie-break: most covered locations': 'départage : le plus d’emplacements couverts',
    'kabaleo.decided.tie-break: highest pile': 'départage : la plus haute pile',
    'kabaleo.decided.shared win': 'victoire partagée',
    'kabaleo.place': 'Rang',
    'kabaleo.who': 'Joueur',
    'kabaleo.colour': 'Couleur',
    'kabaleo.locations': 'Empl.',
    'kabaleo.covered': 'Couv.',
    'kabaleo.highest': 'Pile',
    'kabaleo.locationsLong': 'Emplacements montrant la couleur',
    'kabaleo.coveredLong': 'Emplacements couverts montrant la couleur (premier départage)',
    'kabaleo.highestLong': 'Hauteur de la plus haute pile que la couleur surmonte (second départage)',
    'kabaleo.decided': 'Décidé par : {d}',
    'kabaleo.location': 'emplacement {n}',
    'kabaleo.describeLoc': 'emplacement {n} : montre {c}, {k} pions dessus',
    'kabaleo.describeStock': 'vos pions {c} : {k}',
    'cat.kabaleo.summary': 'Chacun a une couleur secrète : faites-la apparaître sur le plus d’emplacements.',
    'cat.kabaleo.variant.standard': '2 joueurs, 4 couleurs, pions distribués au hasard',
    'cat.kabaleo.variant.3-players': '3 joueurs, 5 couleurs, pions distribués au hasard',
    'cat.kabaleo.variant.4-players': '4 joueurs, les 6 couleurs, pions distribués au hasard',
    'cat.kabaleo.variant.even': '2 joueurs, 4 couleurs, 3 pions de chaque couleur chacun',
    'cat.kabaleo.variant.3-players-even': '3 joueurs, 5 couleurs, 2 pions de chaque couleur chacun',
    'cat.kabaleo.option.players': 'le nombre de joueurs (2, 3 ou 4) ; couleurs en jeu = joueurs + 2',
    'cat.kabaleo.option.deal': 'random : pions mélangés et distribués (2 à 4 joueurs) ; even : les mêmes pions pour chacun (2 ou 3 joueurs)',
    'cat.kabaleo.option.colours': 'les couleurs en jeu, en lettres parmi R O Y G B V (par ex. RYBV), joueurs + 2 ; auto = les premières',
    'cat.kabaleo.option.golden-rule': 'un joueur ne peut pas jouer sur l’emplacement où le pion précédent a été posé',
  },
});

/** The colours, by letter. */
export const COLOURS = { R: '#d7372b', O: '#f08a1c', Y: '#f4cc1d', G: '#2f9a48', B: '#2a68cf', V: '#8446c0' };
const DARK = { R: '#8e1b13', O: '#a85607', Y: '#a88a00', G: '#1b6130', B: '#163f86', V: '#55277f' };
const SEATS = ['#5b6b7f', '#a0522d', '#2e7d32', '#7b1fa2'];

const colourName = (c, t) => t(`kabaleo.colour.${c}`);

function chip(c) {
  return h('span', { class: 'chip', style: `background:${COLOURS[c]}` });
}

/** One piece of a pile seen from the side, centred at (x, y). */
function disc(x, y, rx, ry, thick, c) {
  return [
    s('rect', { x: r3(x - rx), y: r3(y), width: r3(2 * rx), height: thick, fill: DARK[c] }),
    s('ellipse', { cx: r3(x), cy: r3(y + thick), rx, ry, fill: DARK[c] }),
    s('ellipse', { cx: r3(x), cy: r3(y), rx, ry, fill: COLOURS[c], stroke: DARK[c], 'stroke-width': 0.03 }),
  ];
}

function draw(view, ctx) {
  const t = ctx.t;
  const cols = Math.max(1, view.colours.length);
  const n = view.locations.length;
  const rows = Math.ceil(n / cols);
  const W = 2.2;
  const H = 2.6;
  const seats = view.stocks.length;
  const stockTop = rows * H + 0.4;
  const stockH = 1.25;
  const width = Math.max(cols * W, 2.9 + cols * 1.2);
  const height = stockTop + seats * stockH + 0.2;
  const svg = board([-0.2, -0.2, width + 0.4, height + 0.4], 'Kabaleo');
  view.locations.forEach((loc, i) => {
    const x = (i % cols) * W;
    const y = Math.floor(i / cols) * H;
    const forbidden = view.forbidden_location === loc.number;
    const last = view.last_location === loc.number;
    const parts = [s('rect', { x: r3(x + 0.06), y: r3(y + 0.06), width: W - 0.12, height: H - 0.12, rx: 0.18, fill: '#fbf8f1', stroke: '#cfc5b1', 'stroke-width': 0.04 })];
    // The base: a coloured plate.
    const cx = x + W / 2;
    const baseY = y + H - 0.62;
    parts.push(s('rect', { x: r3(cx - 0.82), y: r3(baseY - 0.1), width: 1.64, height: 0.34, rx: 0.08, fill: DARK[loc.base] }));
    parts.push(s('rect', { x: r3(cx - 0.82), y: r3(baseY - 0.22), width: 1.64, height: 0.3, rx: 0.08, fill: COLOURS[loc.base], stroke: DARK[loc.base], 'stroke-width': 0.03, 'data-base': loc.base }));
    // The pile, bottom to top.
    const height = loc.pile.length;
    const step = height <= 6 ? 0.2 : 1.2 / height;
    loc.pile.forEach((c, k) => {
      parts.push(...disc(cx, baseY - 0.3 - k * step, 0.58, 0.2, Math.min(0.14, step * 0.7), c));
    });
    // What it shows, large, at the top.
    parts.push(s('circle', { cx: r3(x + W - 0.42), cy: r3(y + 0.42), r: 0.24, fill: COLOURS[loc.shows], stroke: DARK[loc.shows], 'stroke-width': 0.04, 'data-shows': loc.shows }));
    parts.push(s('text', { x: r3(x + 0.26), y: r3(y + 0.5), 'font-size': 0.34, 'font-weight': 700, fill: '#3a3a3a' }, String(loc.number)));
    if (height > 0) {
      parts.push(s('text', { x: r3(x + 0.26), y: r3(y + 0.92), 'font-size': 0.3, fill: '#5f6670', 'data-height': height }, `×${height}`));
    }
    if (forbidden) {
      parts.push(s('rect', { x: r3(x + 0.06), y: r3(y + 0.06), width: W - 0.12, height: H - 0.12, rx: 0.18, fill: 'rgba(60,60,60,.35)' }));
      parts.push(s('text', { x: r3(cx), y: r3(y + H / 2), 'font-size': 0.8, 'text-anchor': 'middle', fill: '#b3261e', 'font-weight': 700 }, '✕'));
      parts.push(s('title', {}, t('kabaleo.forbidden')));
    } else {
      parts.push(s('title', {}, t('kabaleo.location', { n: loc.number })));
    }
    if (last) parts.push(s('rect', { class: 'last', x: r3(x + 0.1), y: r3(y + 0.1), width: W - 0.2, height: H - 0.2, rx: 0.16 }));
    const g = spot(`loc:${loc.number}`, s('rect', { class: 'hl', x: r3(x + 0.08), y: r3(y + 0.08), width: W - 0.16, height: H - 0.16, rx: 0.16 }), parts);
    g.dataset.shows = loc.shows;
    g.dataset.height = String(height);
    svg.append(g);
  });
  // The stocks.
  view.stocks.forEach((st, i) => {
    const y = stockTop + i * stockH;
    const mine = ctx.you === st.seat;
    const toMove = view.seat_to_move === st.seat;
    svg.append(s('rect', { x: 0.06, y: r3(y), width: r3(width - 0.12), height: stockH - 0.15, rx: 0.15, fill: toMove ? '#e9f5ec' : '#f3eee3', stroke: mine ? '#1f6f8b' : '#d9d0bf', 'stroke-width': mine ? 0.06 : 0.03 }));
    svg.append(s('circle', { cx: 0.42, cy: r3(y + 0.55), r: 0.2, fill: SEATS[st.seat % 4] }));
    svg.append(s('text', { x: 0.72, y: r3(y + 0.5), 'font-size': 0.32, 'font-weight': 700, fill: '#1f2328' }, `${toMove ? '▶ ' : ''}${t('kabaleo.player', { n: st.seat + 1 })}`));
    svg.append(s('text', { x: 0.72, y: r3(y + 0.88), 'font-size': 0.26, fill: '#5f6670' }, t('kabaleo.left', { n: st.total })));
    view.colours.forEach((c, k) => {
      const x = 2.9 + k * 1.2 + 0.45;
      const count = st.pieces[c] ?? 0;
      const parts = [
        s('circle', { cx: r3(x), cy: r3(y + 0.55), r: 0.34, fill: count ? COLOURS[c] : '#fff', stroke: DARK[c], 'stroke-width': 0.05, opacity: count ? 1 : 0.45 }),
        s('text', { x: r3(x), y: r3(y + 0.67), 'font-size': 0.34, 'text-anchor': 'middle', 'font-weight': 700, fill: count ? (c === 'Y' || c === 'O' ? '#2b2100' : '#fff') : '#888', 'data-count': count }, String(count)),
        s('title', {}, `${colourName(c, t)} × ${count}`),
      ];
      if (mine) svg.append(spot(`stock:${c}`, s('circle', { class: 'hl', cx: r3(x), cy: r3(y + 0.55), r: 0.47 }), parts));
      else svg.append(s('g', { 'data-stock': `${st.seat}:${c}` }, parts));
    });
  });
  return svg;
}

function secret(view, ctx) {
  const t = ctx.t;
  if (ctx.you === null || ctx.you === undefined || view.pieces_left === 0) return null;
  if (!ctx.dealt) {
    // Nothing is dealt before every seat is taken (so nobody can read a
    // colour and leave): say so.
    return h('div', { class: 'secret', 'data-secret-pending': '' }, h('div', { class: 'small muted' }, t('kabaleo.secretPending')));
  }
  const c = view.objectives && view.objectives[ctx.you];
  if (!c) return null;
  return h('div', { class: 'secret', 'data-secret': c },
    h('span', { class: 'chip', style: `background:${COLOURS[c]};width:1.6rem;height:1.6rem` }),
    h('div', {}, h('strong', {}, t('kabaleo.secret', { c: colourName(c, t) })), h('div', { class: 'small muted' }, t('kabaleo.secretHelp'))));
}

function panel(view, ctx) {
  const t = ctx.t;
  const counts = view.colours.map((c) => h('span', { style: 'margin-right:.7rem;white-space:nowrap', 'data-colour': c }, chip(c), ` ${view.locations_per_colour[c]} (${view.covered_per_colour[c]})`));
  return h('div', {},
    h('div', { class: 'small' }, t('kabaleo.showing')),
    h('div', {}, counts),
    view.golden_rule ? h('div', { class: 'small muted' }, t('kabaleo.golden')) : null);
}

function result(view, ctx) {
  const t = ctx.t;
  if (!view.standings) return null;
  const rows = [...view.standings].sort((a, b) => a.place - b.place || a.seat - b.seat);
  return h('div', {},
    view.decided_by ? h('div', { class: 'small' }, t('kabaleo.decided', { d: t(`kabaleo.decided.${view.decided_by}`, {}, view.decided_by) })) : null,
    h('div', { style: 'overflow-x:auto' }, h('table', { class: 'scores' },
      h('thead', {}, h('tr', {}, h('th', {}, t('kabaleo.place')), h('th', {}, t('kabaleo.who')), h('th', {}, t('kabaleo.colour')),
        h('th', { class: 'num', title: t('kabaleo.locationsLong') }, t('kabaleo.locations')),
        h('th', { class: 'num', title: t('kabaleo.coveredLong') }, t('kabaleo.covered')),
        h('th', { class: 'num', title: t('kabaleo.highestLong') }, t('kabaleo.highest')))),
      h('tbody', {}, rows.map((r) => h('tr', { class: r.winner ? 'winner' : '', 'data-seat': r.seat },
        h('td', {}, String(r.place)),
        h('td', { style: 'white-space:nowrap' }, t('kabaleo.player', { n: r.seat + 1 }), r.seat === ctx.you ? ` (${t('seat.you')})` : ''),
        h('td', { style: 'white-space:nowrap' }, chip(r.colour), ` ${colourName(r.colour, t)}`),
        h('td', { class: 'num' }, String(r.locations)),
        h('td', { class: 'num' }, String(r.covered)),
        h('td', { class: 'num' }, String(r.highest_pile))))))));
}

function describe(id, view, t, ctx) {
  let m = /^loc:(\d+)$/.exec(id);
  if (m) {
    const loc = view.locations.find((l) => String(l.number) === m[1]);
    if (loc) return t('kabaleo.describeLoc', { n: loc.number, c: colourName(loc.shows, t), k: loc.pile.length });
  }
  m = /^stock:([A-Z])$/.exec(id);
  if (m) {
    const st = view.stocks.find((x) => x.seat === ctx.you);
    return t('kabaleo.describeStock', { c: colourName(m[1], t), k: st ? st.pieces[m[1]] ?? 0 : 0 });
  }
  return id;
}

export default {
  title: () => 'Kabaleo',
  describe,
  seatColour: (seat) => SEATS[seat % 4],
  seatName: (seat, name, t) => t('kabaleo.player', { n: seat + 1 }),
  label: (id, t) => (id === 'pass' ? t('play.pass') : id),
  draw,
  secret,
  panel,
  result,
  // A secret's value (an objective colour) as the analysis shows it.
  secretColour: (c) => COLOURS[c],
  secretName: (c, t) => colourName(c, t),
};
