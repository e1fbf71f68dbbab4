// The computer analysis of a finished game, on its page: the button that asks
// for it (then the queue's progress), the evaluation chart over the plies,
// the marks of the move list (?! inaccuracy, ? mistake, ?? blunder) with the
// better move, the engine's move drawn on the board for the position shown,
// each seat's summary, and, for a game with secrets (Kabaleo), each seat's
// chances and the beliefs about each secret as the game went on.
//
// No rule of any game here: the values, moves and judgements are the
// server's; the engine's move is drawn by its gesture when the server gives
// one, else by the board's cells named in its notation.

import { api } from './api.js';
import { h, s, fill } from './dom.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';
import { Positions, recordTags } from './position.js';

const POLL_MS = 1000;
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The sign of a judgement (`?!`, `?`, `??`). */
export const markOf = (j) => MARKS[j] || '';

/**
 * The ids of the board's elements named in a move's notation, in order:
 * at each place of the text, the longest id drawn on the board that starts
 * there (the games name cells the way their notation does).
 */
export function idsInMove(svg, move) {
  const ids = [...new Set([...svg.querySelectorAll('[data-id]')].map((e) => e.getAttribute('data-id')))]
    .filter((x) => x.length > 1)
    .sort((a, b) => b.length - a.length);
  const out = [];
  const text = String(move || '');
  let i = 0;
  while (i < text.length) {
    const id = ids.find((x) => text.startsWith(x, i));
    if (id) {
      out.push(id);
      i += id.length;
    } else {
      i += 1;
    }
  }
  return out;
}

/** The centre of a board element (in the SVG's coordinates), if drawn. */
function centre(svg, id) {
  const g = svg.querySelector(`[data-id="${CSS.escape(id)}"]`);
  const hl = g && (g.querySelector('.hl') || g);
  try {
    const b = hl.getBBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  } catch {
    return null;
  }
}

/**
 * Draw `move` on the board `svg`: its selected elements and its target
 * marked (`best-sel`, `best-target`), and an arrow from the selection to the
 * target. `gesture` ({select, targets}) when known; else the ids named in the
 * move. Returns whether anything was drawn.
 */
export function drawMove(svg, move, gesture, cls = 'best') {
  let select;
  let target;
  if (gesture && (gesture.select || gesture.targets)) {
    select = gesture.select || [];
    target = (gesture.targets || [])[0];
  } else {
    const ids = idsInMove(svg, move);
    if (!ids.length) return false;
    target = ids[ids.length - 1];
    select = ids.slice(0, -1);
  }
  const onBoard = (id) => id && svg.querySelector(`[data-id="${CSS.escape(id)}"]`);
  for (const id of select) {
    const g = onBoard(id);
    if (g) g.classList.add(`${cls}-sel`);
  }
  const tg = onBoard(target);
  if (tg) tg.classList.add(`${cls}-target`);
  // The arrow: from the middle of the selection to the target.
  const from = select.map((id) => centre(svg, id)).filter(Boolean);
  const to = target ? centre(svg, target) : null;
  if (from.length && to) {
    const x = from.reduce((a, p) => a + p[0], 0) / from.length;
    const y = from.reduce((a, p) => a + p[1], 0) / from.length;
    if (Math.hypot(to[0] - x, to[1] - y) > 0.01) {
      svg.append(s('line', { class: `${cls}-arrow`, x1: x, y1: y, x2: to[0], y2: to[1], 'data-move': move }));
    }
  }
  return !!(tg || from.length);
}

/** Each position's values (0..=n) from the plies' `before` and the last `after`. */
export function positionValues(a) {
  const out = a.plies.map((p) => p.before);
  if (a.plies.length) out.push(a.plies[a.plies.length - 1].after);
  return out;
}

/**
 * An SVG chart of series over the plies 0..n: `series` is a list of
 * `{values: [..], colour, area}`, values within `lo..hi`; `onPick(ply)` when
 * a point is clicked; `marks` (ply → judgement, or [judgement, seat] for
 * a dot on that seat's line) as coloured dots.
 */
export function lineChart({ series, lo, hi, n, onPick, marks = new Map(), current = null, label, cls = 'eval-chart', height = 120, background }) {
  const W = 600;
  const H = height;
  const pad = 6;
  const x = (k) => pad + (n > 0 ? (k / n) * (W - 2 * pad) : 0);
  const y = (v) => pad + (1 - (Math.max(lo, Math.min(hi, v)) - lo) / (hi - lo)) * (H - 2 * pad);
  const svg = s('svg', { class: ['chart', cls], viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, preserveAspectRatio: 'none' });
  svg.append(s('rect', { x: 0, y: 0, width: W, height: H, class: 'chart-bg', style: background ? `fill:${background}` : null }));
  if (lo < 0 && hi > 0) svg.append(s('line', { class: 'chart-zero', x1: 0, x2: W, y1: y(0), y2: y(0) }));
  for (const ser of series) {
    const pts = ser.values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    if (ser.area) {
      svg.append(s('polygon', { class: 'chart-area', points: `${x(0)},${y(lo)} ${pts} ${x(ser.values.length - 1)},${y(lo)}`, fill: ser.colour }));
    }
    svg.append(s('polyline', { class: 'chart-line', points: pts, stroke: ser.colour, 'data-seat': ser.seat }));
  }
  if (current !== null) svg.append(s('line', { class: 'chart-cursor', x1: x(current), x2: x(current), y1: 0, y2: H, 'data-cursor': current }));
  for (const [k, mark] of marks) {
    // A mark is a judgement, on the first line or on the line of `seat`.
    const [j, seat] = Array.isArray(mark) ? mark : [mark, null];
    const ser = series.find((x) => x.seat === seat) || series[0];
    const v = ser ? ser.values[k] : 0;
    svg.append(s('circle', { class: ['chart-mark', j], cx: x(k), cy: y(v), r: 4, 'data-mark': k }));
  }
  if (onPick) {
    // One band per ply, the whole height: easy to hit.
    for (let k = 0; k <= n; k++) {
      const w = n > 0 ? (W - 2 * pad) / n : W;
      svg.append(s('rect', {
        class: 'chart-hit', x: x(k) - w / 2, y: 0, width: w, height: H, 'data-ply': k,
        onclick: () => onPick(k),
      }, s('title', {}, t('an.ply', { n: k }))));
    }
  }
  return svg;
}

/** The analysis panel of a game page (`page` is the GamePage). */
export class GameAnalysis {
  constructor(page) {
    this.page = page;
    this.el = h('div', { class: 'panel analysis', 'data-analysis': '' });
    this.status = null; // the server's last answer
    this.asked = false;
    this.stopped = false;
    this.timer = null;
    this.gestures = new Map(); // ply -> {move: gesture} when the server gives them
    this.openObservers = new Set([0]); // the beliefs shown (Kabaleo)
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  get analysis() {
    return this.status && this.status.status === 'done' ? this.status.analysis : null;
  }

  url() {
    return `/api/games/${encodeURIComponent(this.page.id)}/analysis`;
  }

  /** Called whenever the page draws: reads the state once the game is over. */
  render() {
    const st = this.page.st;
    if (!st || st.status !== 'finished') {
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    if (!this.asked) {
      this.asked = true;
      this.poll(false);
    }
    this.paint();
  }

  async poll(post) {
    if (this.stopped) return;
    clearTimeout(this.timer);
    try {
      this.status = await api(this.url(), post ? { method: 'POST', token: this.page.token || undefined } : { token: this.page.token || undefined });
      this.error = null;
    } catch (e) {
      this.error = errorText(e);
      if (post) this.status = this.status || { status: 'none' };
    }
    if (this.stopped) return;
    const s = this.status && this.status.status;
    if (s === 'queued' || s === 'running') this.timer = setTimeout(() => this.poll(false), POLL_MS);
    this.paint();
    if (s === 'done') {
      // The marks of the moves and the engine's move on the board.
      this.page.renderMoves();
      this.page.renderBoard();
    }
  }

  /** The ply shown on the page (0..n). */
  shownPly() {
    const p = this.page;
    return p.viewing === null ? p.history.length : p.viewing;
  }

  paint() {
    if (this.el.hidden) return;
    const st = this.status || { status: 'none' };
    const head = h('h3', {}, t('an.title'));
    const parts = [head];
    if (this.error) parts.push(h('p', { class: 'error small', role: 'alert' }, this.error));
    switch (st.status) {
      case 'queued':
        parts.push(h('p', { class: 'muted', 'data-analysis-status': 'queued' }, t('an.queued', { n: st.position ?? 0 })));
        break;
      case 'running':
        parts.push(h('p', { class: 'muted', 'data-analysis-status': 'running' }, t('an.running', { k: st.done ?? 0, n: st.total ?? '?' })),
          h('progress', { max: st.total || 1, value: st.done || 0 }));
        break;
      case 'failed':
        parts.push(h('p', { class: 'error', 'data-analysis-status': 'failed' }, t('an.failed', { e: st.error || '' })));
        break;
      case 'done':
        parts.push(...this.body(st.analysis));
        break;
      default:
        parts.push(h('p', { class: 'muted small' }, t('an.help')),
          h('button', { type: 'button', class: 'primary', 'data-action': 'analyse', onclick: () => this.poll(true) }, t('an.ask')));
    }
    const st0 = this.page.st;
    parts.push(h('p', { class: 'small' }, h('a', { href: `/analysis/${st0.game}?game=${encodeURIComponent(this.page.id)}`, 'data-link': '', 'data-action': 'to-board' }, t('an.toBoard'))));
    fill(this.el, ...parts);
  }

  seatColour(seat) {
    return this.page.draw.seatColour(seat, this.page.st.view);
  }

  body(a) {
    const out = [];
    const n = a.plies.length;
    const values = positionValues(a);
    const seats = this.page.st.seats.length;
    const marks = new Map(a.plies.filter((p) => p.judgement).map((p) => [p.ply, seats === 2 ? p.judgement : [p.judgement, p.seat]]));
    const go = (k) => this.page.go(k >= n ? null : k);
    const cur = this.shownPly();
    if (values.length) {
      let series;
      let caption;
      if (seats === 2) {
        series = [{ values: values.map((v) => v[0]), colour: this.seatColour(0), seat: 0, area: true }];
        caption = t('an.chart2', { who: this.page.seatLabel(0) });
      } else {
        series = Array.from({ length: seats }, (_, i) => ({ values: values.map((v) => v[i]), colour: this.seatColour(i), seat: i }));
        caption = t('an.chartN');
      }
      out.push(h('figure', { class: 'chart-box' },
        lineChart({ series, lo: -1, hi: 1, n, onPick: go, marks, current: cur, label: caption, background: seats === 2 ? this.seatColour(1) : null }),
        h('figcaption', { class: 'small muted' }, caption)));
    }
    // The best move of the position shown.
    const here = a.plies[cur];
    if (here && here.best) {
      out.push(h('p', { class: 'small', 'data-best': here.best }, t('an.best', { move: here.best }),
        here.line && here.line.length > 1 ? h('span', { class: 'muted' }, ` (${here.line.join(' ')})`) : null));
    }
    // Each seat's summary.
    out.push(h('table', { class: 'scores analysis-summary' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { class: 'num', title: t('an.inaccuracies') }, '?!'),
        h('th', { class: 'num', title: t('an.mistakes') }, '?'), h('th', { class: 'num', title: t('an.blunders') }, '??'),
        h('th', { class: 'num' }, t('an.avgLoss')))),
      h('tbody', {}, a.seats.map((x) => h('tr', { 'data-seat': x.seat },
        h('td', {}, h('span', { class: 'chip', style: `background:${this.seatColour(x.seat)}` }), ' ', this.page.seatLabel(x.seat)),
        h('td', { class: 'num', 'data-inaccuracies': x.inaccuracies }, x.inaccuracies),
        h('td', { class: 'num', 'data-mistakes': x.mistakes }, x.mistakes),
        h('td', { class: 'num', 'data-blunders': x.blunders }, x.blunders),
        h('td', { class: 'num', title: t('an.avgLossHelp') }, x.average_loss.toFixed(2)))))));
    // The marked moves with the better one.
    const judged = a.plies.filter((p) => p.judgement);
    if (judged.length) {
      out.push(h('ul', { class: 'judged small' }, judged.map((p) => h('li', { 'data-judged': p.ply, class: p.judgement },
        h('button', { type: 'button', class: 'linkish', onclick: () => go(p.ply - 1) },
          `${p.ply}. ${p.played}${markOf(p.judgement)}`),
        ' ', t(`an.${p.judgement}`), p.best ? ` · ${t('an.better', { move: p.best })}` : ''))));
    } else {
      out.push(h('p', { class: 'small muted' }, t('an.clean')));
    }
    if (a.hidden) out.push(...this.hidden(a.hidden, n, go, cur));
    out.push(h('p', { class: 'small muted' }, t('an.engine', { spec: a.spec })));
    return out;
  }

  /** Kabaleo: chances over the game, and beliefs about each secret. */
  hidden(hd, n, go, cur) {
    const seats = hd.secrets.length;
    const out = [h('h4', {}, t('an.chances'))];
    out.push(h('figure', { class: 'chart-box' },
      lineChart({
        series: Array.from({ length: seats }, (_, i) => ({ values: hd.chances.map((c) => c[i]), colour: this.seatColour(i), seat: i })),
        lo: 0, hi: 1, n, onPick: go, current: cur, label: t('an.chances'), cls: 'chances-chart', background: '#c4cad1',
      }),
      h('figcaption', { class: 'small muted' }, t('an.chancesHelp'))));
    out.push(h('h4', {}, t('an.beliefs')), h('p', { class: 'small muted' }, t('an.beliefsHelp')));
    const d = this.page.draw;
    const colour = (v) => (d.secretColour && d.secretColour(hd.values[v])) || SPARE[v % SPARE.length];
    const valueName = (v) => (v === undefined || v === null ? '?' : (d.secretName && d.secretName(hd.values[v], t)) || hd.values[v]);
    out.push(h('div', { class: 'legend small' }, hd.values.map((name, v) => h('span', { 'data-value': name }, h('span', { class: 'chip', style: `background:${colour(v)}` }), ' ', valueName(v)))));
    for (let obs = 0; obs < seats; obs++) {
      // Which observers are open survives the panel being drawn again.
      const box = h('details', { class: 'beliefs', 'data-observer': obs, open: this.openObservers.has(obs) },
        h('summary', {}, t('an.beliefsOf', { who: this.page.seatLabel(obs) })));
      box.addEventListener('toggle', () => {
        if (box.open) this.openObservers.add(obs);
        else this.openObservers.delete(obs);
      });
      for (let seat = 0; seat < seats; seat++) {
        if (seat === obs) continue;
        const rows = hd.beliefs.map((b) => (b[obs] && b[obs][seat]) || []);
        box.append(h('div', { class: 'belief-row' },
          h('div', { class: 'small' }, t('an.aboutSecret', { who: this.page.seatLabel(seat), secret: valueName(hd.secrets[seat]) })),
          stackedBars(rows, colour, go, cur, t('an.beliefsAbout', { who: this.page.seatLabel(seat) }))));
      }
      out.push(box);
    }
    return out;
  }

  /** Marks on the move list (called after the page draws it). */
  markMoves(box) {
    const a = this.analysis;
    if (!a) return;
    for (const p of a.plies) {
      if (!p.judgement) continue;
      const b = box.querySelector(`button[data-ply="${p.ply}"]`);
      if (!b || b.querySelector('.mark')) continue;
      b.append(h('span', { class: ['mark', p.judgement], 'data-mark': p.judgement, title: t(`an.${p.judgement}`) }, markOf(p.judgement)));
      if (p.best) b.parentNode.append(h('span', { class: 'better small muted', 'data-better': p.best }, ` ${t('an.better', { move: p.best })}`));
    }
    // The chart's cursor follows the position shown.
    this.paint();
  }

  /**
   * The engine's move on the board for the position `ply` shown: by its
   * gesture in that position (asked of the server once), meanwhile by the
   * cells its notation names.
   */
  markBoard(svg, ply) {
    const a = this.analysis;
    if (!a) return;
    const here = a.plies[ply];
    if (!here || !here.best) return;
    const known = this.gestures.get(ply);
    drawMove(svg, here.best, known || null);
    if (known === undefined) this.fetchGesture(ply, here.best);
  }

  async fetchGesture(ply, best) {
    this.gestures.set(ply, null);
    try {
      if (!this.positions) {
        const r = await api(`/api/games/${encodeURIComponent(this.page.id)}/record`, { token: this.page.token || undefined });
        this.positions = new Positions({ tags: recordTags(r.text) });
        this.moves = r.moves || [];
      }
      const p = await this.positions.get(this.moves.slice(0, ply));
      const g = (p.legal || []).find((m) => m.move === best);
      if (!g || this.stopped) return;
      this.gestures.set(ply, g);
      if (this.shownPly() === ply) this.page.renderBoard();
    } catch {
      /* the cells named in the move stay marked */
    }
  }
}

/** Colours for a secret's values when the drawing module has none. */
const SPARE = ['#1f6f8b', '#e8590c', '#2e7d32', '#8a4cc2', '#795548', '#607d8b'];

/** One stacked bar per ply: the probabilities of each value. */
function stackedBars(rows, colour, onPick, cur, label) {
  const n = rows.length;
  const W = 600;
  const H = 34;
  const w = W / Math.max(1, n);
  const svg = s('svg', { class: 'chart beliefs-chart', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': label });
  rows.forEach((probs, k) => {
    let y = 0;
    const g = s('g', { 'data-ply': k, onclick: () => onPick(k) });
    probs.forEach((p, v) => {
      const hgt = Math.max(0, Math.min(1, p)) * H;
      if (hgt > 0.01) g.append(s('rect', { x: k * w, y, width: w + 0.3, height: hgt, fill: colour(v) }));
      y += hgt;
    });
    g.append(s('title', {}, `${t('an.ply', { n: k })}: ${probs.map((p) => `${Math.round(p * 100)}%`).join(' · ')}`));
    svg.append(g);
  });
  if (cur !== null && cur < n) svg.append(s('rect', { class: 'chart-cursor-box', x: cur * w, y: 0, width: w, height: H }));
  return svg;
}
