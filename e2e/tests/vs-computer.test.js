// For each game: a game against the computer, created in the lobby and
// played by clicks for several moves, the computer answering each time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, playAnyByClicks, dragMove, myTurn, until, shot } from '../lib.js';

const env = serverAndBrowser();

/** Create a game in the lobby: this game, me in the first seat, computers (level 1) elsewhere. */
async function createInLobby(page, game, { variant } = {}) {
  await page.goto(env.server.url + '/');
  await page.locator(`.game-card[data-game="${game}"]`).click();
  if (variant) await page.locator('select[name="variant"]').selectOption(variant);
  await page.locator('select[name="seat-0"]').waitFor();
  const seats = await page.locator('select[name^="seat-"]').count();
  await page.locator('select[name="seat-0"]').selectOption('me');
  for (let i = 1; i < seats; i++) await page.locator(`select[name="seat-${i}"]`).selectOption('ai:1');
  await page.locator('[data-action="create"]').click();
  await page.waitForURL(/\/game\//);
  await page.locator('svg.board').waitFor();
}

for (const [game, moves] of [['abalone', 4], ['colorito', 4], ['kabaleo', 4], ['abraxas', 4]]) {
  test(`${game}: a game against the computer, played by clicks`, async () => {
    const p = await newPlayer(env.browser, { name: 'Tester' });
    const { page } = p;
    await createInLobby(page, game);
    await until(() => p.state, 'the welcome');
    for (let i = 0; i < moves; i++) {
      await myTurn(p);
      const one = p.legal.find((m) => m.select.length === 1 && m.targets.length === 1);
      // Abalone's first move is dragged (a marble to where it goes).
      if (game === 'abalone' && i === 0 && one) await dragMove(p, one.move);
      else await playAnyByClicks(p);
      const mine = p.state.ply;
      // The computer answers (or the game is over).
      await until(() => p.state.ply > mine || p.state.status !== 'live' || p.state.to_move === p.state.you, 'the computer to answer');
      if (p.state.status !== 'live') break;
    }
    const history = await page.locator('.moves li').count();
    assert.ok(history >= 2 * Math.min(moves, 2), `moves listed: ${history}`);
    await shot(page, `${game}-vs-computer`);
    // What a selection offers: click the middle selectable element.
    if (p.state.status === 'live' && p.state.to_move === p.state.you) {
      const sel = page.locator('svg.board [data-id].selectable');
      const n = await sel.count();
      if (n) {
        await sel.nth(Math.floor(n / 2)).click();
        await shot(page, `${game}-vs-computer-selected`);
      }
    }
    // The same page on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(100);
    await shot(page, `${game}-vs-computer-phone`);
    assert.deepEqual(p.errors, []);
    await p.context.close();
  });
}
