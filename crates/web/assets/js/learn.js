// Learn (`/learn`, `/learn/{game}`): each game's short course, a sequence of
// small positions with one goal each, played on the real board with the same
// drawing modules and gestures as games. The page knows no rule and no
// answer: the server lists the lessons (`GET /api/learn`: each step's set-up
// as a record, its seat and goal), builds each position (`POST
// /api/position`) and judges each move (`POST /api/learn/{game}/{lesson}/
// {step}`): right (the success text, then the next step), or wrong (the
// rules' message for an illegal move, else the step's explanation; the step
// starts again). Progress is kept in this browser (localStorage).

import { api } from './api.js';
import { h, fill } from './dom.js';
import { t, onLang, getLang } from './i18n.js';
import { drawing } from './games/index.js';
import { errorText } from './errors.js';
import { drawCtx, boardLayout } from './position.js';

const KEY = 'plateau.learn';

/** The steps done, as a set of `game/lesson/step`. */
function progress() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '[]');
    return new Set(Array.isArray(v) ? v : []);
  } catch {
    return new Set();
  }
}

function markDone(key) {
  const done = progress();
  done.add(key);
  try {
    localStorage.setItem(KEY, JSON.stringify([...done]));
  } catch {
    // Storage full or refused: progress is not kept, the lesson goes on.
  }
}

/** A `{en, fr}` text in the page's language. */
const tr = (x) => (x ? x[getLang()] || x.en || '' : '');

let cache = null;
function lessons() {
  if (!cache) {
    cache = api('/api/learn');
    cache.catch(() => {
      cache = null;
    });
  }
  return cache;
}

/** The Learn page: the list of games, or one game's course. */
export function learnPage(root, game) {
  const page = game ? new Course(root, game) : new Chooser(root);
  page.start();
  return () => page.stop();
}

class Chooser {
  constructor(root) {
    this.root = root;
    this.games = null;
    this.error = null;
    this.stopped = false;
  }

  start() {
    this.unLang = onLang(() => this.render());
    this.render();
    lessons().then((g) => {
      this.games = Array.isArray(g) ? g : [];
      this.render();
    }, (e) => {
      this.error = errorText(e);
      this.render();
    });
  }

  stop() {
    this.stopped = true;
    if (this.unLang) this.unLang();
  }

  render() {
    if (this.stopped) return;
    document.title = `${t('learn.title')} – Plateau`;
    const done = progress();
    fill(this.root, h('div', { class: 'panel narrow learn-games' },
      h('h1', {}, t('learn.title')),
      h('p', { class: 'muted' }, t('learn.intro')),
      this.error ? h('p', { class: 'error', role: 'alert' }, this.error) : null,
      this.games === null ? h('p', { class: 'muted' }, '…')
        : h('ul', { class: 'plain-list' }, this.games.map((g) => {
          const keys = g.lessons.flatMap((l) => l.steps.map((_, i) => `${g.game}/${l.id}/${i}`));
          const n = keys.filter((k) => done.has(k)).length;
          const title = drawing(g.game).title ? drawing(g.game).title(t) : g.title;
          return h('li', {},
            h('a', { href: `/learn/${g.game}`, 'data-link': '', 'data-game': g.game }, title),
            ' ', h('span', { class: 'muted small' }, t('learn.progress', { k: n, n: keys.length })));
        }))));
  }
}

class Course {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.draw = drawing(game);
    this.course = null; // this game's entry of GET /api/learn
    this.at = null; // {lesson, step}: indexes
    this.pos = null; // the position shown
    this.state = 'loading'; // loading | ready | busy | right | wrong | finished | error
    this.message = null; // {en, fr} or a plain string
    this.seq = 0;
    this.stopped = false;
  }

  async start() {
    this.unLang = onLang(() => this.render());
    this.layout();
    this.render();
    try {
      const all = await lessons();
      if (this.stopped) return;
      this.course = (all || []).find((g) => g.game === this.game);
      if (!this.course) {
        this.state = 'error';
        this.message = t('learn.none');
        this.render();
        return;
      }
      const done = progress();
      this.at = this.firstUndone(done) || { lesson: 0, step: 0 };
      await this.load();
    } catch (e) {
      if (this.stopped) return;
      this.state = 'error';
      this.message = errorText(e);
      this.render();
    }
  }

  stop() {
    this.stopped = true;
    if (this.unLang) this.unLang();
  }

  key(at) {
    return `${this.game}/${this.course.lessons[at.lesson].id}/${at.step}`;
  }

  firstUndone(done) {
    const ls = this.course.lessons;
    for (let l = 0; l < ls.length; l++) {
      for (let s = 0; s < ls[l].steps.length; s++) if (!done.has(this.key({ lesson: l, step: s }))) return { lesson: l, step: s };
    }
    return null;
  }

  nextAt() {
    const ls = this.course.lessons;
    const { lesson, step } = this.at;
    if (step + 1 < ls[lesson].steps.length) return { lesson, step: step + 1 };
    if (lesson + 1 < ls.length) return { lesson: lesson + 1, step: 0 };
    return null;
  }

  get step() {
    return this.course.lessons[this.at.lesson].steps[this.at.step];
  }

  layout() {
    const own = {
      goal: h('div', { class: 'panel learn-goal', 'data-goal': '' }),
      message: h('div', { class: 'learn-message', role: 'status', 'aria-live': 'polite' }),
      actions: h('div', { class: 'actions' }),
      list: h('div', { class: 'panel learn-list' }),
      extra: h('div'),
    };
    const { el, interaction } = boardLayout(this, {
      kind: 'learn',
      top: own.goal,
      aside: [own.message, own.actions, own.extra, own.list],
      onMove: (mv) => this.try(mv),
    });
    this.el = { ...el, ...own };
    this.interaction = interaction;
  }


  /** Show the current step's position, ready for the learner's move. */
  async load() {
    const seq = ++this.seq;
    this.state = 'loading';
    this.message = null;
    this.pos = null;
    this.interaction.setLegal(null);
    this.render();
    try {
      const p = await api('/api/position', { method: 'POST', body: { record: this.step.record } });
      if (seq !== this.seq || this.stopped) return;
      this.pos = p;
      this.state = 'ready';
      this.interaction.setLegal(p.to_move === this.step.seat ? p.legal : null);
      this.render();
    } catch (e) {
      if (seq !== this.seq || this.stopped) return;
      this.state = 'error';
      this.message = errorText(e);
      this.render();
    }
  }

  async try(mv) {
    if (this.state !== 'ready' && this.state !== 'wrong') return;
    const seq = ++this.seq;
    const lesson = this.course.lessons[this.at.lesson];
    this.state = 'busy';
    this.interaction.setBusy(true);
    this.render();
    try {
      const path = `/api/learn/${encodeURIComponent(this.game)}/${encodeURIComponent(lesson.id)}/${this.at.step}`;
      const r = await api(path, { method: 'POST', body: { move: mv } });
      if (seq !== this.seq || this.stopped) return;
      this.message = r.message;
      if (r.right) {
        markDone(this.key(this.at));
        this.state = this.nextAt() ? 'right' : 'finished';
        this.prev = this.pos;
        if (r.position) this.pos = r.position;
        this.interaction.setLegal(null);
      } else {
        // The step starts again: its position is still the one shown.
        this.state = 'wrong';
        this.reason = r.reason;
        this.interaction.setLegal(this.pos && this.pos.to_move === this.step.seat ? this.pos.legal : null);
      }
      this.render();
    } catch (e) {
      if (seq !== this.seq || this.stopped) return;
      this.state = 'wrong';
      this.message = errorText(e);
      this.interaction.setLegal(this.pos ? this.pos.legal : null);
      this.render();
    }
  }

  go(at) {
    this.at = at;
    this.prev = null;
    this.load();
  }

  render() {
    if (!this.el || this.stopped) return;
    const title = this.draw.title ? this.draw.title(t) : this.game;
    this.el.title.textContent = `${t('learn.title')} · ${title}`;
    document.title = `${t('learn.title')} – Plateau`;
    this.renderGoal();
    this.renderBoard();
    this.renderMessage();
    this.renderActions();
    this.renderList();
  }

  renderGoal() {
    if (!this.course || !this.at) {
      fill(this.el.goal, this.state === 'error' ? null : h('span', { class: 'muted' }, '…'));
      return;
    }
    const lesson = this.course.lessons[this.at.lesson];
    fill(this.el.goal,
      h('div', { class: 'small muted' }, t('learn.stepOf', { lesson: tr(lesson.title), k: this.at.step + 1, n: lesson.steps.length })),
      h('p', { class: 'learn-goal-text' }, tr(this.step.goal)));
    this.el.goal.dataset.step = `${lesson.id}/${this.at.step}`;
  }

  renderBoard() {
    const p = this.pos;
    if (!p) {
      fill(this.el.board);
      return;
    }
    const ctx = drawCtx(p, this.prev || null, t, this.step.seat);
    ctx.flip = this.step.seat === 1 && (p.seats || []).length === 2;
    const svg = this.draw.draw(p.view, ctx);
    fill(this.el.board, svg);
    this.interaction.attach(svg);
    // What the game's own panels say: the learner's secret (Kabaleo's
    // colour), scores and stocks.
    const secret = this.draw.secret ? this.draw.secret(p.view, ctx) : null;
    const panel = this.draw.panel ? this.draw.panel(p.view, ctx) : null;
    fill(this.el.extra, ...[secret, panel].filter(Boolean).map((el) => h('div', { class: 'panel' }, el)));
  }

  renderMessage() {
    const m = this.message;
    const text = m == null ? '' : typeof m === 'string' ? m : tr(m);
    const cls = { right: 'ok', finished: 'ok', wrong: 'error', error: 'error' }[this.state] || '';
    const lead = this.state === 'right' || this.state === 'finished' ? t('learn.right')
      : this.state === 'wrong' ? (this.reason === 'illegal' ? t('learn.illegal') : t('learn.wrong')) : null;
    fill(this.el.message, text
      ? h('div', { class: ['panel', 'learn-msg', cls], 'data-learn-state': this.state },
        lead ? h('strong', {}, lead, ' ') : null, text,
        this.state === 'wrong' ? h('div', { class: 'small muted' }, t('learn.again')) : null)
      : null);
    this.el.message.dataset.state = this.state;
  }

  renderActions() {
    const next = this.course && this.at ? this.nextAt() : null;
    fill(this.el.actions,
      this.state === 'right' && next
        ? h('button', { type: 'button', class: 'primary', 'data-action': 'next-step', onclick: () => this.go(next) }, t('learn.next'))
        : null,
      this.state === 'finished'
        ? [h('p', { 'data-learn-finished': '' }, t('learn.finished')),
          h('a', { class: 'button', href: '/learn', 'data-link': '' }, t('learn.others'))]
        : null,
      this.state === 'right' || this.state === 'finished'
        ? h('button', { type: 'button', 'data-action': 'replay-step', onclick: () => this.go(this.at) }, t('learn.replay'))
        : null);
  }

  renderList() {
    if (!this.course) {
      fill(this.el.list);
      return;
    }
    const done = progress();
    fill(this.el.list,
      h('h3', {}, t('learn.lessons')),
      h('ol', { class: 'learn-lessons' }, this.course.lessons.map((l, li) => h('li', {},
        h('div', {}, tr(l.title)),
        h('ol', { class: 'learn-steps' }, l.steps.map((_, si) => {
          const at = { lesson: li, step: si };
          const current = this.at && this.at.lesson === li && this.at.step === si;
          const ok = done.has(this.key(at));
          return h('li', {},
            h('button', {
              type: 'button',
              class: ['linklike', current ? 'current' : ''],
              'data-step': `${l.id}/${si}`,
              'data-done': ok ? 'true' : 'false',
              'aria-current': current ? 'step' : null,
              onclick: () => this.go(at),
            }, t('learn.step', { k: si + 1 }), ok ? ' ✓' : ''));
        }))))));
  }
}
