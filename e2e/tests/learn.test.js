// Learn (issue 19): for each game, the first lesson completed by clicks on
// the real board, after one wrong move explained. The moves that reach each
// goal are written here from the lessons of each game's crate
// (`crates/<game>/src/lessons.rs`): the page itself is never told them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, until, shot } from '../lib.js';

const env = serverAndBrowser();

/** Each game's first lesson: per step, one move that reaches the goal. */
const FIRST = {
  abalone: { id: 'moving', right: ['a1b2', 'b1b2c1'] },
  colorito: { id: 'jumps', right: ['c1-g3'] },
  kabaleo: { id: 'colours', right: ['R2', 'O1'] },
  abraxas: { id: 'lines', right: ['b5'] },
};
/** Each game's first step: every move that reaches the goal (the wrong one is any other). */
const FIRST_ACCEPT = {
  abalone: ['a1b2', 'a2b3', 'a3b3', 'a3b4', 'a4b4', 'a5b5', 'c3c4', 'c5c4'],
  colorito: ['c1-g3', 'c3-g3'],
  kabaleo: ['R2', 'R3', 'R4', 'R6', 'R7', 'R8', 'R10', 'R11', 'R12', 'R14', 'R15', 'R16'],
  abraxas: ['b5', 'f5'],
};

/** The positions the page asked the server for (newest last). */
function positions(p) {
  return p.responses.filter((r) => new URL(r.url).pathname === '/api/position').map((r) => {
    try {
      return JSON.parse(r.body);
    } catch {
      return null;
    }
  }).filter((x) => x && Array.isArray(x.legal));
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

/** The legal gestures of the position the page shows now (the `n`-th asked). */
async function legalNow(p, n) {
  const pos = await until(() => positions(p)[n], `position ${n + 1}`);
  assert.ok(pos.legal.length > 0, 'the learner has moves');
  return pos.legal;
}

for (const game of Object.keys(FIRST)) {
  test(`${game}: the first lesson completed by clicks, a wrong move explained`, async () => {
    const p = await newPlayer(env.browser);
    const { page } = p;
    await page.goto(`${env.server.url}/`);
    await page.locator('header a[href="/learn"]').click();
    await page.locator(`.learn-games a[data-game="${game}"]`).click();
    await page.waitForURL(new RegExp(`/learn/${game}$`));
    const lesson = FIRST[game];
    const shown = async (locator) => locator.waitFor({ timeout: 10000 }).catch(async (e) => {
      // What the page showed instead, for the failure's report.
      console.log('the page:', await page.locator('main').innerHTML().then((x) => x.slice(0, 3000)), p.errors, p.responses.map((r) => r.url));
      throw e;
    });
    await shown(page.locator('svg.board'));
    await shown(page.locator(`[data-goal][data-step="${lesson.id}/0"]`));

    // A wrong move: legal, but not one that reaches the goal.
    let legal = await legalNow(p, 0);
    const wrong = legal.find((g) => !FIRST_ACCEPT[game].includes(g.move));
    assert.ok(wrong, 'a legal move that misses the goal');
    await clickGesture(page, wrong);
    const msg = page.locator('[data-learn-state="wrong"]');
    await msg.waitFor();
    const explained = await msg.textContent();
    assert.match(explained, /legal/, `the step's explanation: ${explained}`);
    await shot(page, `learn-${game}-wrong`);

    // The same step again, then every step of the lesson by clicks.
    let asked = 1;
    for (let i = 0; i < lesson.right.length; i++) {
      if (i > 0) {
        await page.locator('[data-action="next-step"]').click();
        await page.locator(`[data-goal][data-step="${lesson.id}/${i}"]`).waitFor();
        legal = await legalNow(p, asked);
        asked += 1;
      }
      const g = legal.find((x) => x.move === lesson.right[i]);
      assert.ok(g, `${lesson.right[i]} is legal in step ${i + 1}`);
      await clickGesture(page, g);
      await page.locator('[data-learn-state="right"], [data-learn-state="finished"]').waitFor();
      await until(async () => (await page.locator(`button[data-step="${lesson.id}/${i}"]`).getAttribute('data-done')) === 'true', 'the step marked done');
    }
    await shot(page, `learn-${game}-done`);
    // Progress is kept: the list of games counts the steps done.
    await page.goto(`${env.server.url}/learn`);
    await page.locator(`.learn-games a[data-game="${game}"]`).waitFor();
    const count = await page.locator('.learn-games li', { hasText: '' }).filter({ has: page.locator(`a[data-game="${game}"]`) }).textContent();
    assert.match(count, new RegExp(`${lesson.right.length} of \\d+ steps done`));
    assert.deepEqual(p.errors, []);
    await p.context.close();
  });
}
