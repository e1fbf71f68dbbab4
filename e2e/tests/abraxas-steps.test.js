// Moves made of several choices, guided step by step: an Abraxas removal
// (select the stones of a line, then "Take") and the interlude's stop stone
// (select one's stop stones, then a hole). The game is brought to a line
// through the API; the choices are made by clicks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, until, shot } from '../lib.js';

const env = serverAndBrowser();

// On the level-6 sheet, these moves bring Player 1 to score a line of six
// where three of its four stones are taken, in four possible ways.
const MOVES = ['g8', 'e2', 'c8', 'g8', 'f5', 'x:h7', 'pass', 'g4', 'x:g6', 'pass', 'f2', 'b2', 'b8', 'h7', 'f7', 'f2',
  'g2', 'x:h7', 'pass', 'f5', 'g4', 'x:f2', 'pass', 'a2', 'x:f4', 'pass', 'a8', 'f2', 'x:h3', 'pass', 'e7', 'x:e2',
  'x:d3', 'pass', 'e4'];

async function seated(id, token, name) {
  const p = await newPlayer(env.browser, { name });
  await p.page.addInitScript(([gid, tok]) => localStorage.setItem('plateau.tokens', JSON.stringify({ [gid]: tok })), [id, token]);
  await p.page.goto(`${env.server.url}/game/${id}`);
  await until(() => p.state, 'the welcome');
  return p;
}

test('abraxas: a removal and an interlude stop stone, step by step', async () => {
  const c = await env.server.api('/api/games', { method: 'POST', body: { game: 'abraxas', variant: 'level-6', seats: [{ kind: 'human' }, { kind: 'human' }], name: 'Ann' } });
  const j = await env.server.api(`/api/games/${c.id}/join`, { method: 'POST', body: { name: 'Bob' } });
  const tokens = [c.token, j.token];
  for (const mv of MOVES) {
    const s = await env.server.api(`/api/games/${c.id}`);
    await env.server.api(`/api/games/${c.id}/action`, { method: 'POST', token: tokens[s.to_move], body: { type: 'move', move: mv, version: s.version } });
  }
  const ann = await seated(c.id, c.token, 'Ann');
  const bob = await seated(c.id, j.token, 'Bob');
  await until(() => ann.legal && ann.legal.length === 4, 'the four ways to take');
  assert.equal(ann.state.view.phase, 'score');
  const { page } = ann;
  // The lines just made are drawn; "Take" waits for a whole choice.
  await page.locator('.line-made').first().waitFor({ state: 'attached' });
  const take = page.locator('.gesture-bar [data-gesture="take"]');
  assert.equal(await take.isDisabled(), true);
  const choice = ann.legal[0];
  for (const [i, cell] of choice.select.entries()) {
    await page.locator(`svg.board [data-id="${cell}"]`).click();
    await page.locator(`svg.board [data-id="${cell}"].selected`).waitFor();
    if (i < choice.select.length - 1) assert.equal(await take.isDisabled(), true, 'Take before the choice is whole');
  }
  await shot(page, 'abraxas-removal-chosen');
  assert.equal(await take.isDisabled(), false);
  await take.click();
  await until(() => ann.state.ply === MOVES.length + 1, 'the stones taken');
  assert.equal(ann.state.view.taken[0] > 0, true);

  // The interlude: Bob may place a stop stone (no push) or pass.
  await until(() => bob.legal && bob.legal.some((m) => m.move === 'pass'), 'the interlude for Bob');
  assert.equal(bob.state.view.phase, 'interlude');
  await bob.page.locator('.gesture-bar [data-gesture="pass"]').waitFor();
  await bob.page.locator('svg.board [data-id="stop"].selectable').click();
  const hole = bob.page.locator('svg.board [data-id].target').first();
  const cell = await hole.getAttribute('data-id');
  await shot(bob.page, 'abraxas-interlude-stop-selected');
  await hole.click();
  await until(() => bob.state.ply === MOVES.length + 2, 'the stop stone placed');
  assert.ok(bob.state.view.stop_stones[1].includes(cell), `a stop stone of Player 2 on ${cell}`);
  await ann.page.locator('.moves li').nth(MOVES.length + 1).waitFor();
  assert.equal((await ann.page.locator('.moves li').last().innerText()).trim(), `b:${cell}`);
  await shot(ann.page, 'abraxas-after-interlude');
  for (const p of [ann, bob]) assert.deepEqual(p.errors, []);
  for (const p of [ann, bob]) await p.context.close();
});
