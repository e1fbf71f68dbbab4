// Helpers of the browser tests: the real `plateau serve` on a free port with a
// temporary database, Debian's Chromium driven by playwright-core, and moves
// made by clicking what the page offers.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..');
export const ARTIFACTS = path.join(here, 'artifacts');
export const BIN = process.env.PLATEAU_BIN || path.join(ROOT, 'target', 'release', 'plateau');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

fs.mkdirSync(ARTIFACTS, { recursive: true });

/** A running `plateau serve`; `restart()` kills it (SIGKILL) and starts it again on the same port and database. */
export class Server {
  constructor(dir) {
    this.dir = dir;
    this.port = 0;
    this.proc = null;
    this.log = '';
  }

  static async start() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plateau-e2e-'));
    const s = new Server(dir);
    await s.spawn();
    return s;
  }

  spawn() {
    const args = ['serve', '--addr', `127.0.0.1:${this.port}`, '--db', `sqlite://${path.join(this.dir, 'plateau.sqlite')}`, '--ai-threads', '2', ...(this.extra || [])];
    const proc = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: 'warn' } });
    this.proc = proc;
    return new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}${this.log}`)), 20000);
      proc.stdout.on('data', (d) => {
        out += d;
        const m = /listening on http:\/\/(\S+):(\d+)/.exec(out);
        if (m && !this.url) {
          this.port = Number(m[2]);
          this.url = `http://127.0.0.1:${this.port}`;
        }
        if (m) {
          clearTimeout(timer);
          resolve(this);
        }
      });
      proc.stderr.on('data', (d) => {
        this.log += d;
      });
      proc.on('exit', (code) => {
        clearTimeout(timer);
        if (!this.url) reject(new Error(`the server exited (${code}):\n${out}${this.log}`));
      });
    });
  }

  /** Kill the server at once (kill -9). */
  kill() {
    if (!this.proc) return Promise.resolve();
    const p = this.proc;
    this.proc = null;
    return new Promise((r) => {
      p.once('exit', () => r());
      p.kill('SIGKILL');
    });
  }

  async restart() {
    await this.kill();
    await this.spawn();
  }

  async stop() {
    await this.kill();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Call the API from the test. */
  async api(p, { method = 'GET', body, token } = {}) {
    const headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(this.url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) throw new Error(`${p}: ${res.status} ${JSON.stringify(data)}`);
    return data;
  }
}

/** Debian's Chromium, headless, with a fresh profile. */
export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/**
 * The server and the browser of one test file: started before its tests,
 * stopped after them. Read `env.server` and `env.browser` inside the tests.
 */
export function serverAndBrowser() {
  const env = { server: undefined, browser: undefined };
  before(async () => {
    env.server = await Server.start();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/**
 * A page in a new browser context (its own storage: one player), recording
 * the WebSocket frames it receives and the errors of its scripts.
 */
export async function newPlayer(browser, { locale = 'en-US', width = 1280, height = 900, name } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale });
  const page = await context.newPage();
  const p = { context, page, frames: [], responses: [], errors: [], legal: null, state: null };
  page.on('response', async (res) => {
    if (!new URL(res.url()).pathname.startsWith('/api/')) return;
    try {
      p.responses.push({ url: res.url(), at: Date.now(), body: await res.text() });
    } catch {
      /* no body (a WebSocket upgrade) */
    }
  });
  page.on('pageerror', (e) => p.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource|WebSocket/.test(m.text())) p.errors.push(m.text());
  });
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      const text = String(payload);
      p.frames.push(text);
      try {
        const m = JSON.parse(text);
        const src = m.type === 'welcome' || m.type === 'state' ? m.state : m.type === 'update' ? m : m.type === 'error' ? m.state : null;
        if (src) {
          if ('legal' in src || 'legal_moves' in src) {
            p.legal = src.legal || src.legal_moves.map((mv) => ({ move: mv, select: [], targets: [mv] }));
          }
          else if (m.type !== 'error') p.legal = null;
          if (src.status === 'finished' && !p.endedAt) p.endedAt = Date.now();
          if (m.type !== 'update') p.state = src;
          else if (p.state) Object.assign(p.state, src);
        }
      } catch {
        /* not JSON */
      }
    });
  });
  if (name) {
    await page.addInitScript((n) => localStorage.setItem('plateau.name', n), name);
  }
  return p;
}

/** Wait until `f()` is true (polling), or fail with `what`. */
export async function until(f, what, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Wait until it is this player's turn on the page (its moves are offered). */
export async function myTurn(p, ms = 30000) {
  await until(async () => p.legal && p.legal.length > 0 && (await p.page.locator('.turn.mine').count()) > 0, 'my turn', ms);
}

async function clickId(page, id) {
  const onBoard = page.locator(`svg.board [data-id="${id}"]`);
  if (await onBoard.count()) {
    await onBoard.first().click();
  } else {
    await page.locator(`.gesture-bar [data-gesture="${id}"]`).click();
  }
}

/**
 * Make the move `text` by clicking: its gesture's selections, then a target.
 * Checks on the way that the page highlights what the gesture needs.
 */
export async function playMove(p, text) {
  await myTurn(p);
  const g = p.legal.find((m) => m.move === text);
  if (!g) throw new Error(`${text} is not among the legal moves: ${p.legal.map((m) => m.move).join(' ')}`);
  const before = p.state.ply;
  for (const id of g.select) {
    await clickId(p.page, id);
  }
  const target = g.targets[0];
  const t = p.page.locator(`svg.board [data-id="${target}"].target, .gesture-bar [data-gesture="${target}"].primary`);
  await t.first().waitFor({ timeout: 5000 });
  await clickId(p.page, target);
  await until(() => p.state && p.state.ply > before, `move ${text} to be played`);
}

/**
 * Make some legal move by clicking only what the page highlights: a target if
 * there is one, else a selectable element, else an enabled gesture button.
 * `pick(n)` chooses among n candidates (random by default).
 */
export async function playAnyByClicks(p, pick = (n) => Math.floor(Math.random() * n)) {
  await myTurn(p);
  const before = p.state.ply;
  for (let i = 0; i < 20; i++) {
    const targets = p.page.locator('svg.board [data-id].target, .gesture-bar button.primary[data-gesture]');
    const n = await targets.count();
    if (n) {
      await targets.nth(pick(n)).click();
      await until(() => p.state && p.state.ply > before, 'the move to be played');
      return;
    }
    const sel = p.page.locator('svg.board [data-id].selectable, .gesture-bar button[aria-pressed="false"]:not([disabled])');
    const k = await sel.count();
    if (!k) throw new Error('nothing to click');
    await sel.nth(pick(k)).click();
  }
  throw new Error('no move after 20 clicks');
}

/** Save a screenshot under artifacts/. */
export async function shot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Make `text` by dragging from its one selected element to its target. */
export async function dragMove(p, text) {
  await myTurn(p);
  const g = p.legal.find((m) => m.move === text);
  if (!g || g.select.length !== 1) throw new Error(`${text}: not a move of one piece`);
  const before = p.state.ply;
  const box = async (id) => p.page.locator(`svg.board [data-id="${id}"]`).first().boundingBox();
  const a = await box(g.select[0]);
  const b = await box(g.targets[0]);
  await p.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await p.page.mouse.down();
  await p.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await p.page.mouse.up();
  await until(() => p.state && p.state.ply > before, `move ${text} to be played by dragging`);
}

/** Switch the interface's language with the header's switch (`en` or `fr`). */
export async function switchLanguage(page, lang) {
  await page.locator(`header [data-lang="${lang}"]`).click();
  await page.locator(`html[lang="${lang}"]`).waitFor({ state: 'attached' });
}

/**
 * Create an account through the sign-up page (the browser is then logged in
 * to it); the header shows its name when done.
 */
export async function signUp(p, base, name, password = 'a long enough password') {
  await p.page.goto(`${base}/signup`);
  await p.page.locator('form.account-form input[name="name"]').fill(name);
  await p.page.locator('form.account-form input[name="password"]').fill(password);
  await p.page.locator('form.account-form input[name="confirm"]').fill(password);
  await p.page.locator('form.account-form button[type="submit"]').click();
  await p.page.locator(`header [data-account="name"]`, { hasText: name }).waitFor();
}

/**
 * A `plateau serve` started with more arguments than `Server`'s (such as
 * `--behind-proxy`, so that each browser context can be another client
 * address through its `X-Forwarded-For` header).
 */
export class ServerWith extends Server {
  constructor(dir, extra) {
    super(dir);
    this.extra = extra;
  }

  static async startWith(extra) {
    const s = new ServerWith(fs.mkdtempSync(path.join(os.tmpdir(), 'plateau-e2e-')), extra);
    await s.spawn();
    return s;
  }
}

/** `serverAndBrowser()` with a server started with `extra` arguments. */
export function serverWithAndBrowser(extra) {
  const env = { server: undefined, browser: undefined };
  before(async () => {
    env.server = await ServerWith.startWith(extra);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** A request as a program sends it: JSON, with a token or a cookie; the status, headers and body, whatever the status. */
export async function call(server, method, p, { body, token, cookie } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (cookie) {
    headers.cookie = cookie;
    headers.origin = server.url;
  }
  const res = await fetch(server.url + p, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
}

/** A bot, as its program makes it: an account, a token, then POST /api/account/bot; its token. */
export async function makeBot(server, name, settings) {
  const a = await call(server, 'POST', '/api/accounts', { body: { name, password: 'correct horse' } });
  if (a.status !== 201) throw new Error(`sign-up of ${name}: ${a.status} ${JSON.stringify(a.body)}`);
  const cookie = a.headers.get('set-cookie').split(';')[0];
  const t = await call(server, 'POST', '/api/account/tokens', { cookie, body: { label: 'bot' } });
  if (t.status !== 201) throw new Error(`token of ${name}: ${t.status} ${JSON.stringify(t.body)}`);
  const b = await call(server, 'POST', '/api/account/bot', { token: t.body.token, body: settings });
  if (b.status !== 200) throw new Error(`bot ${name}: ${b.status} ${JSON.stringify(b.body)}`);
  return t.body.token;
}
