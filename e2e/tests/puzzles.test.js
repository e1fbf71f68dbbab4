// Puzzles (issue 19): an Abalone puzzle from the built-in set, a wrong move
// reported, a hint, then the puzzle solved by clicks (the solution read from
// the set the server ships, by the id the page shows).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serverAndBrowser, newPlayer, until, shot, ROOT } from '../lib.js';

const env = serverAndBrowser();

const SET = JSON.parse(fs.readFileSync(path.join(ROOT, 'crates', 'abalone', 'puzzles.json'), 'utf8'));

/** The JSON bodies of the page's answers from `/api/position` (oldest first). */
function positions(p) {
  return p.responses.filter((r) => new URL(r.url).pathname === '/api/position').map((r) => {
    try {
      return JSON.parse(r.body);
    } catch {
      return null;
    }
  }).filter((x) => x && Array.isArray(x.moves));
}

/** The position the page shows after `moves`, as the server described it. */
async function positionAfter(p, moves) {
  const key = moves.join(' ');
  return until(() => positions(p).find((x) => x.moves.join(' ') === key), `the position after ${moves.length} moves`);
}

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

test('puzzles: the list, a wrong move reported, a hint, a puzzle solved by clicks', async () => {
  assert.ok(SET.length > 0, 'the built-in Abalone puzzles');
  const p = await newPlayer(env.browser);
  await p.page.goto(`${env.server.url}/`);
  await p.page.locator('header a[href="/puzzles"]').click();
  await p.page.locator('.puzzle-sets a[data-game="abalone"]').click();
  await p.page.waitForURL(/\/puzzles\/abalone$/);
  const idEl = p.page.locator('[data-puzzle-id]');
  await idEl.waitFor();
  const id = await idEl.getAttribute('data-puzzle-id');
  const puzzle = SET.find((x) => x.id === id);
  assert.ok(puzzle, `puzzle ${id} is in the built-in set`);
  // The next puzzle's answer never carries the solution.
  const next = p.responses.find((r) => new URL(r.url).pathname === '/api/puzzles/abalone/next');
  assert.ok(next && !/solution/.test(next.body), 'no solution sent');

  const start = positions(p)[0].moves;
  await p.page.locator('svg.board').waitFor();
  const first = await positionAfter(p, start);
  assert.equal(first.to_move, puzzle.seat);

  // A wrong move: any other legal move.
  const wrong = first.legal.find((m) => m.move !== puzzle.solution[0]);
  await clickGesture(p.page, wrong);
  await p.page.locator('[data-puzzle-state="wrong"]').waitFor();
  await shot(p.page, 'puzzle-wrong');
  await p.page.locator('[data-action="retry"]').click();

  // A hint: what to select for the first move.
  await p.page.locator('[data-action="hint"]').click();
  const want = first.legal.find((m) => m.move === puzzle.solution[0]);
  await p.page.locator('svg.board .hinted').first().waitFor({ state: 'attached' });
  const hinted = await p.page.locator('svg.board .hinted').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  assert.deepEqual(hinted.sort(), [...want.select].sort());

  // The solution: the solver's moves by clicks, the replies shown.
  const played = [];
  for (let i = 0; i < puzzle.solution.length; i += 2) {
    const here = await positionAfter(p, start.concat(played));
    const g = here.legal.find((m) => m.move === puzzle.solution[i]);
    assert.ok(g, `${puzzle.solution[i]} is legal`);
    await clickGesture(p.page, g);
    played.push(puzzle.solution[i]);
    if (i + 1 < puzzle.solution.length) {
      played.push(puzzle.solution[i + 1]);
      await positionAfter(p, start.concat(played));
    }
  }
  await p.page.locator('[data-puzzle-state="solved"]').waitFor();
  await shot(p.page, 'puzzle-solved');
  // The first attempt counted (failed: the wrong move); solving after it is practice.
  await p.page.locator('[data-attempts="1"][data-solves="0"]').waitFor();
  // The analysis board opens the puzzle's position, with the engine.
  await p.page.locator('[data-action="to-board"]').click();
  await p.page.waitForURL(/\/analysis\/abalone\?puzzle=/);
  await p.page.locator('[data-engine-state="done"]').waitFor({ timeout: 30000 });
  assert.equal(await p.page.locator(`.moves button[data-ply="${start.length}"].current`).count(), 1);
  await p.page.goBack();
  // The next puzzle.
  await p.page.locator('[data-action="next-puzzle"]').click();
  await until(async () => (await p.page.locator('[data-puzzle-id]').count()) && (await p.page.locator('[data-puzzle-state="solved"]').count()) === 0, 'the next puzzle');
  assert.deepEqual(p.errors, []);
});
