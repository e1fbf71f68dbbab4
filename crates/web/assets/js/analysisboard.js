// The analysis board (`/analysis/{game}`): a position from a game's start
// (a variant chosen), from a finished game (`?game=ID`) or from a record
// pasted in; moves played by pointing (the legal gestures of each position
// come from the server), back and forth through the line; a live engine
// evaluation and best line from `POST /api/analyse`, the previous request
// aborted whenever the position changes (the server then stops searching).

import { api } from './api.js';
import { h, fill, toast } from './dom.js';
import { t, onLang } from './i18n.js';
import { variantName, optionName, valueName } from './names.js';
import { drawing } from './games/index.js';
import { errorText } from './errors.js';
import { Positions, positionBody, recordTags, drawCtx, boardLayout } from './position.js';
import { drawMove } from './analysis.js';
import { games as catalogGames } from './ratings.js';
import { navigate } from './nav.js';

const SEARCH_MS = 1000;

/** Show the analysis board of `game` (or the list of games) in `root`. */
export function analysisPage(root, game) {
  if (!game) return chooser(root);
  const page = new Board(root, game);
  page.start();
  return () => page.stop();
}

function chooser(root) {
  let stopped = false;
  const draw = (list) => {
    if (stopped) return;
    fill(root, h('div', { class: 'panel narrow analysis-board-chooser' },
      h('h1', {}, t('anb.title')),
      h('p', { class: 'muted' }, t('anb.choose')),
      h('ul', { class: 'plain-list' }, list.map((g) => h('li', {},
        h('a', { href: `/analysis/${g.name}`, 'data-link': '', 'data-game': g.name }, g.title))))));
  };
  let list = [];
  catalogGames().then((l) => {
    list = l;
    draw(list);
  });
  const un = onLang(() => draw(list));
  return () => {
    stopped = true;
    un();
  };
}

class Board {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.draw = drawing(game);
    this.base = { game, variant: null, options: {} };
    this.line = [];
    this.cur = 0;
    this.seq = 0;
    this.pos = null; // the position shown
    this.prev = null;
    this.evalCtl = null;
    this.evaluation = null; // {key, result | error | pending}
    this.stopped = false;
    this.info = null; // the game in the catalogue
    this.source = null; // the finished game loaded, if any
    this.flip = false; // the board turned round
  }

  async start() {
    this.unLang = onLang(() => this.render());
    this.keys = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keys);
    this.layout();
    const list = await catalogGames();
    if (this.stopped) return;
    this.info = list.find((g) => g.name === this.game) || null;
    if (!this.info && list.length) {
      fill(this.root, h('div', { class: 'panel' }, h('h1', {}, t('anb.title')), h('p', { class: 'error' }, t('anb.noGame', { game: this.game }))));
      return;
    }
    const q = new URLSearchParams(location.search);
    const from = q.get('game');
    const puzzle = q.get('puzzle');
    if (from) {
      await this.loadGame(from);
    } else if (puzzle) {
      await this.loadPuzzle(puzzle);
    } else {
      if (q.get('variant')) this.base.variant = q.get('variant');
      this.reset();
    }
  }

  stop() {
    this.stopped = true;
    if (this.evalCtl) this.evalCtl.abort();
    if (this.unLang) this.unLang();
    document.removeEventListener('keydown', this.keys);
  }

  /** A new line from `base`. */
  reset(line = [], cur = 0) {
    this.positions = new Positions(this.base);
    this.line = line;
    this.cur = cur;
    this.show();
  }

  async loadGame(id) {
    try {
      const r = await api(`/api/games/${encodeURIComponent(id)}/record`);
      if (this.stopped) return;
      this.source = id;
      this.base = { tags: recordTags(r.text) };
      this.reset(r.moves || [], 0);
    } catch (e) {
      toast(errorText(e), 'error');
      this.reset();
    }
  }

  /** A puzzle's position (its record), the line from there empty. */
  async loadPuzzle(id) {
    try {
      const pz = await api(`/api/puzzles/id/${encodeURIComponent(id)}`);
      const p = await api('/api/position', { method: 'POST', body: { record: pz.record } });
      if (this.stopped) return;
      this.base = { tags: recordTags(pz.record) };
      const moves = p.moves || [];
      this.reset(moves, moves.length);
    } catch (e) {
      toast(errorText(e), 'error');
      this.reset();
    }
  }

  async loadRecord(text) {
    const tags = recordTags(text);
    try {
      // The server reads the record: its set-up and its moves.
      const p = await api('/api/position', { method: 'POST', body: { record: text } });
      if (this.stopped) return;
      if (p.game !== this.game) {
        navigate(`/analysis/${p.game}`);
        return;
      }
      this.source = null;
      this.base = tags.some((x) => /^\[Game\s/.test(x)) ? { tags } : { game: p.game, variant: p.variant, options: {} };
      this.reset(p.moves || [], 0);
      toast(t('anb.loaded', { n: (p.moves || []).length }));
    } catch (e) {
      toast(errorText(e), 'error');
    }
  }

  // ------------------------------------------------------------- layout

  layout() {
    const own = {
      status: h('div', { class: 'statusbar' }),
      engine: h('div', { class: 'panel engine', 'data-engine': '' }),
      extra: h('div'),
      moves: h('div', { class: 'panel' }),
      source: h('div', { class: 'panel' }),
    };
    const { el, interaction } = boardLayout(this, {
      kind: 'analysis-board',
      top: own.status,
      aside: [own.engine, own.extra, own.moves, own.source],
      onMove: (mv) => this.play(mv),
    });
    this.el = { ...el, ...own };
    this.interaction = interaction;
  }


  render() {
    if (!this.el) return;
    const title = this.draw.title ? this.draw.title(t) : (this.info ? this.info.title : this.game);
    this.el.title.textContent = `${t('anb.title')} · ${title}`;
    document.title = `${t('anb.title')} – Plateau`;
    this.renderStatus();
    this.renderBoard();
    this.renderEngine();
    this.renderMoves();
    this.renderSource();
  }

  renderStatus() {
    const p = this.pos;
    let text = '';
    if (!p) text = t('game.loading');
    else if (p.result) text = t('anb.over', { result: p.result });
    else if (p.to_move !== null && p.to_move !== undefined) text = t('anb.toMove', { who: this.seatLabel(p.to_move) });
    fill(this.el.status, h('span', { class: 'turn' }, text),
      h('span', { class: 'muted small', 'data-ply': this.cur }, t('anb.ply', { n: this.cur, total: this.line.length })));
  }

  seatLabel(seat) {
    const name = this.pos && this.pos.seats ? this.pos.seats[seat] : `#${seat + 1}`;
    return this.draw.seatName ? this.draw.seatName(seat, name, t) : name;
  }

  renderBoard() {
    const p = this.pos;
    if (!p) return;
    const ctx = drawCtx(p, this.prev, t);
    ctx.flip = this.flip;
    const svg = this.draw.draw(p.view, ctx);
    fill(this.el.board, svg);
    this.interaction.attach(svg);
    const e = this.evaluation;
    if (e && e.key === this.key() && e.result && e.result.best) {
      const g = (p.legal || []).find((m) => m.move === e.result.best);
      drawMove(svg, e.result.best, g || null);
    }
    const el = this.draw.panel ? this.draw.panel(p.view, drawCtx(p, this.prev, t)) : null;
    fill(this.el.extra, ...(el ? [h('div', { class: 'panel' }, el)] : []));
  }

  renderEngine() {
    const e = this.evaluation;
    const parts = [h('h3', {}, t('anb.engine'))];
    // The position shown, unless another is being loaded.
    const p = this.pos && Array.isArray(this.pos.moves) && this.pos.moves.join(' ') === this.key() ? this.pos : null;
    if (p && p.result) {
      parts.push(h('p', { class: 'muted' }, t('anb.over', { result: p.result })));
    } else if (!e || e.key !== this.key() || e.pending) {
      parts.push(h('p', { class: 'muted', 'data-engine-state': 'thinking' }, t('anb.thinking')));
    } else if (e.error) {
      parts.push(h('p', { class: 'error small', 'data-engine-state': 'error' }, e.error));
    } else {
      const r = e.result;
      parts.push(h('div', { class: 'engine-score', 'data-engine-state': 'done', 'data-score': r.score ?? '' },
        h('strong', {}, r.score ?? ''), r.depth ? h('span', { class: 'muted small' }, ` ${t('anb.depth', { d: r.depth })}`) : null));
      if (Array.isArray(r.values)) {
        parts.push(h('div', { class: 'engine-values' }, r.values.map((v, i) => h('div', { class: 'value-row', 'data-seat': i },
          h('span', { class: 'chip', style: `background:${this.draw.seatColour(i, p && p.view)}` }), ' ',
          h('span', { class: 'grow' }, this.seatLabel(i)),
          h('span', { class: 'value-bar' }, h('span', { style: `width:${Math.round(((v + 1) / 2) * 100)}%;background:${this.draw.seatColour(i, p && p.view)}` })),
          h('span', { class: 'num small' }, v.toFixed(2))))));
      }
      if (r.best) {
        parts.push(h('p', {}, t('an.best', { move: '' }),
          h('button', { type: 'button', class: 'linkish', 'data-best': r.best, onclick: () => this.play(r.best) }, r.best)));
      }
      if (r.line && r.line.length) parts.push(h('p', { class: 'small muted', 'data-line': '' }, t('anb.line', { line: r.line.join(' ') })));
    }
    fill(this.el.engine, ...parts);
  }

  renderMoves() {
    const ol = h('ol');
    this.line.forEach((mv, i) => {
      ol.append(h('li', {}, h('button', { type: 'button', class: i + 1 === this.cur ? 'current' : '', 'data-ply': i + 1, onclick: () => this.go(i + 1) }, mv)));
    });
    const box = h('div', { class: 'moves' }, this.line.length ? ol : h('p', { class: 'muted small', style: 'padding:.4rem' }, t('moves.none')));
    const n = this.line.length;
    const nav = h('div', { class: 'nav-buttons' },
      h('button', { type: 'button', title: t('nav.first'), 'aria-label': t('nav.first'), disabled: this.cur === 0, onclick: () => this.go(0) }, '«'),
      h('button', { type: 'button', title: t('nav.prev'), 'aria-label': t('nav.prev'), 'data-nav': 'prev', disabled: this.cur === 0, onclick: () => this.go(this.cur - 1) }, '‹'),
      h('button', { type: 'button', title: t('nav.next'), 'aria-label': t('nav.next'), 'data-nav': 'next', disabled: this.cur >= n, onclick: () => this.go(this.cur + 1) }, '›'),
      h('button', { type: 'button', title: t('anb.end'), 'aria-label': t('anb.end'), disabled: this.cur >= n, onclick: () => this.go(n) }, '»'),
      h('button', {
        type: 'button', title: t('anb.flip'), 'aria-label': t('anb.flip'), 'aria-pressed': String(this.flip), 'data-action': 'flip',
        onclick: () => {
          this.flip = !this.flip;
          this.renderBoard();
          this.renderMoves();
        },
      }, '⇅'));
    fill(this.el.moves, h('h3', {}, t('game.moves')), box, nav);
    const on = box.querySelector('.current');
    if (on) on.scrollIntoView({ block: 'nearest' });
  }

  /**
   * The game's options as the catalogue lists them (Abalone's position text
   * among them: the position editor of a game that has one); empty fields
   * keep the variant's values.
   */
  optionFields() {
    const opts = (this.info && this.info.options) || [];
    const cur = this.base.options || {};
    return opts.map((o) => {
      const k = o.kind || {};
      const name = `opt-${o.name}`;
      let input;
      if (k.type === 'bool') {
        input = h('select', { name, 'data-option': o.name },
          h('option', { value: '' }, t('lobby.default', { v: String(o.default) })),
          h('option', { value: 'true', selected: cur[o.name] === true }, t('lobby.on')),
          h('option', { value: 'false', selected: cur[o.name] === false }, t('lobby.off')));
      } else if (k.type === 'choice') {
        input = h('select', { name, 'data-option': o.name },
          h('option', { value: '' }, t('lobby.default', { v: String(o.default) })),
          (k.values || []).map((v) => h('option', { value: v, selected: cur[o.name] === v }, valueName(this.game, o.name, v))));
      } else {
        input = h('input', {
          type: k.type === 'int' || k.type === 'optional_int' ? 'number' : 'text', name, 'data-option': o.name,
          placeholder: o.default === null || o.default === undefined ? '' : valueName(this.game, o.name, o.default),
          value: cur[o.name] === undefined ? '' : String(cur[o.name]),
        });
      }
      input.dataset.kind = k.type || 'text';
      return h('label', { class: 'field' }, h('span', { class: 'small' }, optionName(this.game, o.name)), input, h('span', { class: 'help' }, o.help || ''));
    });
  }

  /** The options filled in the form. */
  readOptions(box) {
    const out = {};
    for (const el of box.querySelectorAll('[data-option]')) {
      const v = el.value.trim();
      if (!v) continue;
      const kind = el.dataset.kind;
      if (kind === 'bool') out[el.dataset.option] = v === 'true';
      else if (kind === 'int' || kind === 'optional_int') out[el.dataset.option] = Number(v);
      else out[el.dataset.option] = v;
    }
    return out;
  }

  renderSource() {
    const variants = this.info ? this.info.variants : [];
    const select = h('select', { name: 'variant', 'aria-label': t('lobby.variant') },
      variants.map((v) => h('option', { value: v.name, selected: v.name === (this.base.variant || (variants[0] && variants[0].name)) }, variantName(this.game, v.name))));
    const fields = this.optionFields();
    const optBox = fields.length ? h('details', { class: 'options', open: Object.keys(this.base.options || {}).length > 0 }, h('summary', {}, t('lobby.options')), fields) : null;
    const area = h('textarea', { name: 'record', rows: 4, placeholder: t('anb.pastePlaceholder'), 'aria-label': t('anb.paste') });
    fill(this.el.source,
      h('h3', {}, t('anb.position')),
      this.source ? h('p', { class: 'small' }, t('anb.fromGame'), ' ', h('a', { href: `/game/${this.source}`, 'data-link': '' }, this.source)) : null,
      h('div', { class: 'field' }, h('span', {}, t('lobby.variant')),
        h('div', { class: 'row' }, h('div', { class: 'grow' }, select),
          h('button', {
            type: 'button', 'data-action': 'new-line',
            onclick: () => {
              this.source = null;
              this.base = { game: this.game, variant: select.value || null, options: optBox ? this.readOptions(optBox) : {} };
              this.reset();
            },
          }, t('anb.fromStart')))),
      optBox,
      h('div', { class: 'field' }, h('span', {}, t('anb.paste')), area,
        h('button', { type: 'button', 'data-action': 'load-record', onclick: () => area.value.trim() && this.loadRecord(area.value) }, t('anb.load'))),
      h('p', { class: 'small' }, h('a', { href: `/rules/${this.game}`, 'data-link': '' }, t('act.rules'))));
  }

  // ------------------------------------------------------------- positions

  key() {
    return this.line.slice(0, this.cur).join(' ');
  }

  go(k) {
    this.cur = Math.max(0, Math.min(this.line.length, k));
    this.show();
  }

  play(mv) {
    if (this.line[this.cur] === mv) {
      this.cur += 1;
    } else {
      this.line = this.line.slice(0, this.cur).concat([mv]);
      this.cur += 1;
    }
    this.show();
  }

  async show() {
    const seq = ++this.seq;
    const moves = this.line.slice(0, this.cur);
    // The previous search is of no use any more.
    if (this.evalCtl) this.evalCtl.abort();
    this.evalCtl = null;
    this.renderMoves();
    this.renderStatus();
    this.renderEngine();
    this.interaction.setBusy(true);
    let p;
    let prev = null;
    try {
      [p, prev] = await Promise.all([this.positions.get(moves), this.cur > 0 ? this.positions.get(moves.slice(0, -1)) : null]);
    } catch (e) {
      if (seq !== this.seq || this.stopped) return;
      toast(errorText(e), 'error');
      this.interaction.setBusy(false);
      // An illegal line (a record that does not replay): back to the start.
      if (this.cur > 0) {
        this.line = this.line.slice(0, this.cur - 1);
        this.cur -= 1;
        this.show();
      }
      return;
    }
    if (seq !== this.seq || this.stopped) return;
    this.pos = p;
    this.prev = prev;
    this.interaction.setLegal(p.result ? null : p.legal);
    this.render();
    if (!p.result) this.evaluate(moves);
  }

  async evaluate(moves) {
    const key = moves.join(' ');
    const ctl = new AbortController();
    this.evalCtl = ctl;
    this.evaluation = { key, pending: true };
    this.renderEngine();
    try {
      const body = { ...positionBody(this.base, moves), time_ms: SEARCH_MS };
      const r = await api('/api/analyse', { method: 'POST', body, signal: ctl.signal });
      if (ctl.signal.aborted || this.stopped) return;
      this.evaluation = { key, result: r || {} };
    } catch (e) {
      if (ctl.signal.aborted || this.stopped) return;
      this.evaluation = { key, error: errorText(e) };
    }
    if (this.evalCtl === ctl) this.evalCtl = null;
    this.renderEngine();
    this.renderBoard();
    this.interaction.refresh();
  }

  onKey(e) {
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    if (e.key === 'ArrowLeft') { this.go(this.cur - 1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { this.go(this.cur + 1); e.preventDefault(); }
    else if (e.key === 'Home') { this.go(0); e.preventDefault(); }
    else if (e.key === 'End') { this.go(this.line.length); e.preventDefault(); }
  }
}
