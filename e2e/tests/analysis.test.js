// Computer analysis (issue 19): a finished Abalone game with a deliberate
// blunder gets its analysis on its page (the blunder marked, the better move
// named, the chart drawn, the engine's move drawn on the board); the analysis
// board opens the same game, shows the engine's evaluation, plays a move by
// clicks and aborts the search of a position left.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, until, shot } from '../lib.js';

const env = serverAndBrowser();

// White (to move) has a marble on the corner i9, which Black's pair g7-h8
// pushes off the board (g7h8) unless it steps away first (i9i8); White's
// other marble is far, at a5. With one marble to win, moving a5 instead
// (a5a4) loses at once: the blunder. Then Black pushes out and wins.
const POSITION = '4w/4b1/4b2/8/9/8/7/6/4w w 0 0';
const BLUNDER = 'a5a4';
const PUSH = 'g7h8';

/** A game of two people (both seats held by the test), the moves played through the API. */
async function playedGame(moves) {
  const c = await env.server.api('/api/games', {
    method: 'POST',
    body: { game: 'abalone', options: { position: POSITION, 'marbles-to-win': 1 }, seats: [{ kind: 'human' }, { kind: 'human' }], name: 'Ann' },
  });
  const j = await env.server.api(`/api/games/${c.id}/join`, { method: 'POST', body: { name: 'Bob' } });
  const tokens = [c.token, j.token];
  for (const mv of moves) {
    const s = await env.server.api(`/api/games/${c.id}`);
    await env.server.api(`/api/games/${c.id}/action`, { method: 'POST', token: tokens[s.to_move], body: { type: 'move', move: mv, version: s.version } });
  }
  return { id: c.id, tokens };
}

/** The JSON bodies of the page's answers from `path` (newest last). */
function answers(p, path) {
  return p.responses.filter((r) => new URL(r.url).pathname === path).map((r) => {
    try {
      return JSON.parse(r.body);
    } catch {
      return null;
    }
  }).filter(Boolean);
}

/** Click the gesture of `g` ({select, targets}) on the board or its bar. */
async function clickGesture(page, g) {
  const click = async (id) => {
    const onBoard = page.locator(`svg.board [data-id="${id}"]`);
    if (await onBoard.count()) await onBoard.first().click();
    else await page.locator(`.gesture-bar [data-gesture="${id}"]`).click();
  };
  for (const id of g.select) await click(id);
  await page.locator(`svg.board [data-id="${g.targets[0]}"].target, .gesture-bar [data-gesture="${g.targets[0]}"].primary`).first().waitFor({ timeout: 5000 });
  await click(g.targets[0]);
}

test('analysis of a finished game: the blunder marked, the better move, the chart, the engine\'s move on the board', async () => {
  const { id, tokens } = await playedGame([BLUNDER]);
  const ann = await newPlayer(env.browser, { name: 'Ann' });
  await ann.page.addInitScript(([gid, tok]) => localStorage.setItem('plateau.tokens', JSON.stringify({ [gid]: tok })), [id, tokens[0]]);
  await ann.page.goto(`${env.server.url}/game/${id}`);
  await until(() => ann.state && ann.state.status === 'live', 'the live game');
  // No analysis while the game is played.
  assert.equal(await ann.page.locator('[data-action="analyse"]').count(), 0);
  const refused = await fetch(`${env.server.url}/api/games/${id}/analysis`, { method: 'POST' });
  assert.equal(refused.status, 409);

  // Black pushes out the marble: the game is over.
  const s = await env.server.api(`/api/games/${id}`);
  await env.server.api(`/api/games/${id}/action`, { method: 'POST', token: tokens[s.to_move], body: { type: 'move', move: PUSH, version: s.version } });
  await until(() => ann.state.status === 'finished', 'the end of the game');

  const ask = ann.page.locator('[data-action="analyse"]');
  await ask.waitFor();
  await ask.click();
  // Queued or running, then done (three positions at a bounded time each).
  await ann.page.locator('.analysis-summary').waitFor({ timeout: 180000 });
  const statuses = answers(ann, `/api/games/${id}/analysis`).map((a) => a.status);
  assert.ok(statuses.includes('done'), statuses.join(' '));
  const done = answers(ann, `/api/games/${id}/analysis`).find((a) => a.status === 'done').analysis;
  assert.equal(done.plies.length, 2);
  assert.equal(done.plies[0].played, BLUNDER);
  assert.equal(done.plies[0].judgement, 'blunder');
  assert.equal(done.plies[1].judgement, null, 'the winning push is the engine\'s own move');

  // The move list: the blunder marked ?? with the better move beside it.
  const mark = ann.page.locator('.moves button[data-ply="1"] .mark');
  await mark.waitFor();
  assert.equal(await mark.textContent(), '??');
  assert.equal(await mark.getAttribute('data-mark'), 'blunder');
  assert.equal(await ann.page.locator('.moves button[data-ply="2"] .mark').count(), 0);
  const better = ann.page.locator('.moves li [data-better]');
  assert.equal(await better.count(), 1);
  assert.notEqual(await better.getAttribute('data-better'), BLUNDER);
  // White's summary: one blunder; Black's: none.
  assert.equal(await ann.page.locator('.analysis-summary tr[data-seat="1"] [data-blunders]').textContent(), '1');
  assert.equal(await ann.page.locator('.analysis-summary tr[data-seat="0"] [data-blunders]').textContent(), '0');
  // The chart: a line over the three positions, the blunder's dot.
  const chart = ann.page.locator('svg.eval-chart');
  await chart.waitFor();
  const points = (await chart.locator('polyline.chart-line').getAttribute('points')).trim().split(/\s+/);
  assert.equal(points.length, 3);
  await chart.locator('.chart-mark.blunder').waitFor({ state: 'attached' });
  // After the push, Black (seat 0) has won: the line ends at the top.
  const yEnd = Number(points[2].split(',')[1]);
  const yStart = Number(points[0].split(',')[1]);
  assert.ok(yEnd < yStart, `the chart rises to Black's win (${points.join(' ')})`);

  // A click on the chart shows the position before the blunder, with the
  // engine's move drawn on the board.
  await chart.locator('.chart-hit[data-ply="0"]').click();
  await ann.page.locator('.viewing', { hasText: 'Position after move 0 of 2' }).waitFor();
  await ann.page.locator('svg.board .best-target').first().waitFor({ state: 'attached' });
  assert.ok(await ann.page.locator('svg.board .best-sel').count() >= 1);
  await ann.page.locator('[data-best]').first().waitFor();
  await shot(ann.page, 'analysis-game');

  // In French too.
  await ann.page.locator('header [data-lang="fr"]').click();
  await ann.page.locator('.analysis h3', { hasText: 'Analyse par l’ordinateur' }).waitFor();
  await ann.page.locator('header [data-lang="en"]').click();
  assert.deepEqual(ann.errors, []);
});

test('analysis board: a finished game loaded, the engine\'s evaluation, a move by clicks, searches aborted', async () => {
  const { id } = await playedGame([BLUNDER, PUSH]);
  const p = await newPlayer(env.browser);
  const aborted = [];
  p.page.on('requestfailed', (r) => {
    if (new URL(r.url()).pathname === '/api/analyse') aborted.push(r.failure() && r.failure().errorText);
  });
  // From the nav to the board of Abalone.
  await p.page.goto(`${env.server.url}/`);
  await p.page.locator('header a[href="/analysis"]').click();
  await p.page.locator('.analysis-board-chooser a[data-game="abalone"]').click();
  await p.page.waitForURL(/\/analysis\/abalone$/);
  await p.page.locator('svg.board').waitFor();
  await p.page.goto(`${env.server.url}/analysis/abalone?game=${id}`);
  await p.page.locator('.moves button[data-ply="2"]').waitFor();
  // The start of the game: the engine thinks, then answers.
  await p.page.locator('[data-engine-state="done"]').waitFor({ timeout: 30000 });
  // Forward and back quickly: the searches of the positions left are aborted.
  await p.page.locator('[data-nav="next"]').click();
  await p.page.locator('[data-nav="prev"]').click();
  await p.page.locator('[data-nav="next"]').click();
  await until(() => aborted.length >= 1, 'a search aborted');
  // After the blunder the engine sees the push that wins at once.
  await p.page.locator(`.engine [data-best="${PUSH}"]`).waitFor({ timeout: 30000 });
  await p.page.locator('[data-engine-state="done"]').waitFor();
  await p.page.locator('svg.board .best-target').first().waitFor({ state: 'attached' });
  await shot(p.page, 'analysis-board');
  // Play another move than the game's, by clicks: the line changes there.
  const here = answers(p, '/api/position').find((a) => a.ply === 1 && Array.isArray(a.legal) && a.legal.length);
  const other = here.legal.find((m) => m.move !== PUSH && m.select.length === 1);
  await clickGesture(p.page, other);
  await p.page.locator(`.moves button[data-ply="2"]`, { hasText: other.move }).waitFor();
  assert.equal(await p.page.locator('.moves li').count(), 2);
  await p.page.locator('[data-engine-state="done"]').waitFor({ timeout: 30000 });
  assert.deepEqual(p.errors, []);
});
