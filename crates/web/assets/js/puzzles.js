// Puzzles (`/puzzles/{game}`, Abalone and Abraxas): a position from
// computer self-play where one line wins; the solver plays by pointing, each
// move checked by the server (`POST /api/puzzles/id/{id}/move`), the
// opponent's reply shown after it; a hint (what to select next), the
// puzzle's rating and how often it was solved, and the next puzzle.

import { api, sleep } from './api.js';
import { h, fill } from './dom.js';
import { t, onLang } from './i18n.js';
import { drawing } from './games/index.js';
import { errorText } from './errors.js';
import { Positions, recordTags, drawCtx, boardLayout } from './position.js';
import { drawMove } from './analysis.js';
import { games as catalogGames, titleOf } from './ratings.js';

/** How long the solver's move is shown before the reply. */
const REPLY_MS = 600;

/** Show a puzzle of `game` (or the list of puzzle sets) in `root`. */
export function puzzlesPage(root, game) {
  if (!game) return chooser(root);
  const page = new PuzzlePage(root, game);
  page.start();
  return () => page.stop();
}

function chooser(root) {
  let stopped = false;
  let sets = null;
  let list = [];
  let error = null;
  const draw = () => {
    if (stopped) return;
    fill(root, h('div', { class: 'panel narrow puzzle-sets' },
      h('h1', {}, t('pz.title')),
      h('p', { class: 'muted' }, t('pz.intro')),
      error ? h('p', { class: 'error' }, error) : null,
      sets === null ? h('p', { class: 'muted' }, '…')
        : h('ul', { class: 'plain-list' }, sets.map((x) => h('li', {},
          h('a', { href: `/puzzles/${x.game}`, 'data-link': '', 'data-game': x.game }, titleOf(list, x.game)),
          ' ', h('span', { class: 'muted small' }, t('pz.count', { n: x.count })))))));
  };
  draw();
  Promise.all([api('/api/puzzles'), catalogGames()]).then(([s, l]) => {
    sets = Array.isArray(s) ? s : [];
    list = l;
    draw();
  }, (e) => {
    error = errorText(e);
    sets = [];
    draw();
  });
  const un = onLang(draw);
  return () => {
    stopped = true;
    un();
  };
}

class PuzzlePage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.draw = drawing(game);
    this.puzzle = null;
    this.played = []; // moves since the puzzle's position, both sides
    this.pos = null;
    this.prev = null;
    this.state = 'loading'; // loading | solving | wrong | solved | error
    this.message = null;
    this.hint = null; // the gesture of the hint
    this.seq = 0;
    this.stopped = false;
  }

  async start() {
    this.unLang = onLang(() => this.render());
    this.layout();
    const id = new URLSearchParams(location.search).get('id');
    await this.load(id);
  }

  stop() {
    this.stopped = true;
    if (this.unLang) this.unLang();
  }

  async load(id) {
    this.state = 'loading';
    this.message = null;
    this.render();
    try {
      const p = id
        ? await api(`/api/puzzles/id/${encodeURIComponent(id)}`)
        : await api(`/api/puzzles/${encodeURIComponent(this.game)}/next`);
      if (this.stopped) return;
      this.puzzle = p;
      if (p.your_rating) this.me = p.your_rating;
      // The puzzle's position: its record replayed by the server.
      const start = await api('/api/position', { method: 'POST', body: { record: p.record } });
      if (this.stopped) return;
      this.positions = new Positions({ tags: recordTags(p.record) });
      this.startMoves = start.moves || [];
      this.played = [];
      this.hint = null;
      this.state = 'solving';
      await this.show();
    } catch (e) {
      if (this.stopped) return;
      this.state = 'error';
      this.message = errorText(e);
      this.render();
    }
  }

  layout() {
    const own = {
      status: h('div', { class: 'statusbar' }),
      info: h('div', { class: 'panel puzzle-info' }),
      message: h('div', { class: 'puzzle-message', role: 'status', 'aria-live': 'polite' }),
      extra: h('div'),
    };
    const { el, interaction } = boardLayout(this, {
      kind: 'puzzle',
      top: own.status,
      aside: [own.message, own.info, own.extra],
      onMove: (mv) => this.try(mv),
    });
    this.el = { ...el, ...own };
    this.interaction = interaction;
  }


  render() {
    if (!this.el) return;
    const title = this.draw.title ? this.draw.title(t) : this.game;
    this.el.title.textContent = `${t('pz.title')} · ${title}`;
    document.title = `${t('pz.title')} – Plateau`;
    this.renderStatus();
    this.renderBoard();
    this.renderInfo();
    this.renderMessage();
  }

  seatLabel(seat) {
    const name = this.pos && this.pos.seats ? this.pos.seats[seat] : `#${seat + 1}`;
    return this.draw.seatName ? this.draw.seatName(seat, name, t) : name;
  }

  renderStatus() {
    const p = this.puzzle;
    fill(this.el.status, p && this.pos
      ? h('span', { class: 'turn' }, t('pz.youPlay', { who: this.seatLabel(p.seat) }))
      : h('span', { class: 'turn' }, this.state === 'loading' ? t('pz.loading') : ''));
  }

  renderBoard() {
    const p = this.pos;
    if (!p) {
      fill(this.el.board);
      return;
    }
    const ctx = drawCtx(p, this.prev, t, this.puzzle.seat);
    // The solver's side at the bottom, as on a game's page.
    ctx.flip = this.puzzle.seat === 1 && (p.seats || []).length === 2;
    const svg = this.draw.draw(p.view, ctx);
    fill(this.el.board, svg);
    this.interaction.attach(svg);
    if (this.hint && this.state === 'solving') {
      for (const id of this.hint.select || []) {
        const g = svg.querySelector(`[data-id="${CSS.escape(id)}"]`);
        if (g) g.classList.add('hinted');
      }
    }
    if (this.state === 'wrong' && this.expected && this.reveal) {
      const g = (this.pos.legal || []).find((m) => m.move === this.expected);
      drawMove(svg, this.expected, g || null, 'solution');
    }
    const el = this.draw.panel ? this.draw.panel(p.view, drawCtx(p, this.prev, t)) : null;
    fill(this.el.extra, ...(el ? [h('div', { class: 'panel' }, el)] : []));
  }

  renderInfo() {
    const p = this.puzzle;
    if (!p) {
      fill(this.el.info);
      return;
    }
    const solving = this.state === 'solving';
    fill(this.el.info,
      h('h3', {}, t('pz.puzzle')),
      h('dl', { class: 'facts small' },
        h('dt', {}, t('pz.id')), h('dd', { 'data-puzzle-id': p.id }, p.id),
        h('dt', {}, t('pz.rating')), h('dd', { 'data-puzzle-rating': '' }, typeof p.rating === 'number' ? String(Math.round(p.rating)) : '–'),
        h('dt', {}, t('pz.played')), h('dd', { 'data-attempts': p.attempts ?? 0, 'data-solves': p.solves ?? 0 }, t('pz.solves', { k: p.solves ?? 0, n: p.attempts ?? 0 })),
        h('dt', {}, t('pz.theme')), h('dd', {}, t(`pz.theme.${p.theme}`, {}, p.theme)),
        h('dt', {}, t('pz.length')), h('dd', {}, String(p.length ?? '')),
        this.me ? [h('dt', {}, t('pz.yours')), h('dd', { 'data-your-rating': '' }, String(Math.round(this.me.rating)), this.me.games ? '' : '?')] : null),
      p.tried ? h('p', { class: 'small muted' }, t('pz.tried')) : null,
      h('div', { class: 'actions' },
        h('button', { type: 'button', 'data-action': 'hint', disabled: !solving || !!this.hint, onclick: () => this.askHint() }, t('pz.hint')),
        this.state === 'wrong' ? h('button', { type: 'button', 'data-action': 'retry', onclick: () => this.retry() }, t('pz.retry')) : null,
        this.state === 'wrong' && this.expected && !this.reveal
          ? h('button', { type: 'button', 'data-action': 'solution', onclick: () => { this.reveal = true; this.message = t('pz.solution', { move: this.expected }); this.render(); } }, t('pz.showSolution'))
          : null,
        h('button', { type: 'button', class: this.state === 'solved' || this.state === 'wrong' ? 'primary' : '', 'data-action': 'next-puzzle', onclick: () => this.next() }, t('pz.next')),
        // The engine's help only once the attempt is decided.
        this.state === 'solved' || this.state === 'wrong'
          ? h('a', { class: 'button', href: this.boardLink(), 'data-link': '', 'data-action': 'to-board' }, t('pz.analyse')) : null));
  }

  boardLink() {
    return `/analysis/${this.game}?puzzle=${encodeURIComponent(this.puzzle.id)}`;
  }

  renderMessage() {
    const m = this.message;
    const cls = { solved: 'ok', wrong: 'error', right: 'ok', error: 'error' }[this.state] || '';
    fill(this.el.message, m ? h('div', { class: ['panel', 'puzzle-msg', cls], 'data-puzzle-state': this.state }, m) : null);
    this.el.message.dataset.state = this.state;
  }

  async show() {
    const seq = ++this.seq;
    const moves = this.startMoves.concat(this.played);
    try {
      const [p, prev] = await Promise.all([this.positions.get(moves), moves.length ? this.positions.get(moves.slice(0, -1)) : null]);
      if (seq !== this.seq || this.stopped) return;
      this.pos = p;
      this.prev = prev;
      const mine = this.state === 'solving' && p.to_move === this.puzzle.seat && !p.result;
      this.interaction.setLegal(mine ? p.legal : null);
      this.render();
    } catch (e) {
      if (seq !== this.seq || this.stopped) return;
      this.state = 'error';
      this.message = errorText(e);
      this.render();
    }
  }

  async try(mv) {
    const p = this.puzzle;
    try {
      const r = await api(`/api/puzzles/id/${encodeURIComponent(p.id)}/move`, { method: 'POST', body: { moves: this.played, move: mv } });
      if (this.stopped) return;
      this.rated(r);
      if (!r.right) {
        this.state = 'wrong';
        this.reveal = false;
        this.expected = r.expected || null;
        this.message = t('pz.wrong', { move: mv });
        await this.show();
        return;
      }
      this.played.push(mv);
      this.hint = null;
      if (r.solved) {
        this.state = 'solved';
        this.message = t('pz.solved');
        await this.show();
        return;
      }
      this.message = t('pz.right');
      await this.show();
      if (r.reply) {
        // The solver's move first, then the reply.
        await sleep(REPLY_MS);
        if (this.stopped) return;
        this.played.push(r.reply);
        this.message = t('pz.replied', { move: r.reply });
        await this.show();
      }
    } catch (e) {
      this.message = errorText(e);
      this.render();
      this.interaction.setBusy(false);
    }
  }

  async askHint() {
    try {
      const url = `/api/puzzles/id/${encodeURIComponent(this.puzzle.id)}/hint`;
      try {
        this.hint = await api(url, { method: 'POST', body: { moves: this.played } });
      } catch (e) {
        // A server that takes no body: the hint of the puzzle's next move as it counts it.
        if (e.status !== 400) throw e;
        this.hint = await api(url, { method: 'POST' });
      }
      this.rated(this.hint);
      this.message = t('pz.hinted');
      this.render();
    } catch (e) {
      this.message = errorText(e);
      this.render();
    }
  }

  /** The ratings after a decided first attempt (the server says so). */
  rated(r) {
    if (!r || !r.rated) return;
    if (r.your_rating) this.me = r.your_rating;
    if (typeof r.puzzle_rating === 'number') this.puzzle.rating = r.puzzle_rating;
    // The puzzle's counts, this attempt included.
    const id = this.puzzle.id;
    api(`/api/puzzles/id/${encodeURIComponent(id)}`).then((x) => {
      if (this.stopped || !this.puzzle || this.puzzle.id !== id) return;
      Object.assign(this.puzzle, { attempts: x.attempts, solves: x.solves, rating: x.rating });
      this.renderInfo();
    }, () => {});
  }

  retry() {
    this.state = 'solving';
    this.expected = null;
    this.message = t('pz.again');
    this.show();
  }

  next() {
    const url = `/puzzles/${this.game}`;
    if (location.search) history.replaceState(null, '', url);
    this.load(null);
  }
}
