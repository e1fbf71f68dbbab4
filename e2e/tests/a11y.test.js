// Accessibility (issue 22): axe-core (the npm package, injected into the page
// through Playwright) on the lobby, in English and French, and on each game's
// page against the computer (with the moves offered, so that the board's
// interactive elements are checked), and on a Kabaleo pass-and-play page
// behind its pass screen. No serious or critical violation is allowed; the
// counts by impact are printed (TAP comments) for the record.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { serverAndBrowser, newPlayer, myTurn, until, switchLanguage } from '../lib.js';

const env = serverAndBrowser();
// The page's Content-Security-Policy allows no inline script: axe's source is
// evaluated through the browser's debugging protocol instead of a script tag.
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Run axe on the page; the violations by impact, and the serious or critical ones described. */
async function audit(page, what) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  const r = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const res = await axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  const counts = { minor: 0, moderate: 0, serious: 0, critical: 0 };
  for (const v of r) counts[v.impact] = (counts[v.impact] || 0) + v.nodes;
  console.log(`axe ${what}: ${JSON.stringify(counts)}${r.length ? ` rules: ${r.map((v) => `${v.id}(${v.impact}, ${v.nodes})`).join(' ')}` : ''}`);
  const bad = r.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${what}: serious or critical violations`);
  return counts;
}

test('axe: the lobby, in English and in French', async () => {
  const p = await newPlayer(env.browser);
  await p.page.goto(env.server.url + '/');
  await p.page.locator('select[name="seat-0"]').waitFor();
  await p.page.locator('details.options > summary').click();
  await audit(p.page, 'lobby (en)');
  await switchLanguage(p.page, 'fr');
  await audit(p.page, 'lobby (fr)');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

for (const game of ['abalone', 'colorito', 'kabaleo', 'abraxas']) {
  test(`axe: the ${game} page against the computer, on the player's turn`, async () => {
    const p = await newPlayer(env.browser, { name: 'Axe' });
    const { page } = p;
    await page.goto(env.server.url + '/');
    await page.locator(`.game-card[data-game="${game}"]`).click();
    await page.locator('select[name="seat-1"]').waitFor();
    const seats = await page.locator('select[name^="seat-"]').count();
    await page.locator('select[name="seat-0"]').selectOption('me');
    for (let i = 1; i < seats; i++) await page.locator(`select[name="seat-${i}"]`).selectOption('ai:1');
    await page.locator('[data-action="create"]').click();
    await page.waitForURL(/\/game\//);
    await myTurn(p);
    // A selection made, so that selected elements and targets are checked too.
    const sel = page.locator('svg.board [data-id].selectable');
    if (await sel.count()) await sel.first().click();
    await audit(page, `${game} page`);
    assert.deepEqual(p.errors, []);
    await p.context.close();
  });
}

test('axe: a pass-and-play page behind its pass screen, then on a turn', async () => {
  const p = await newPlayer(env.browser, { name: 'Ann' });
  const { page } = p;
  await page.goto(env.server.url + '/');
  await page.locator('.game-card[data-game="kabaleo"]').click();
  await page.locator('select[name="seat-1"]').waitFor();
  await page.locator('select[name="seat-0"]').selectOption('me');
  await page.locator('select[name="seat-1"]').selectOption('here');
  await page.locator('[data-action="create"]').click();
  await page.waitForURL(/\/game\//);
  await page.locator('[data-action="pass-ready"]:not([disabled])').waitFor();
  await audit(page, 'kabaleo pass screen');
  await page.locator('[data-action="pass-ready"]').click();
  await until(async () => (await page.locator('.turn.mine').count()) > 0, 'the turn');
  await audit(page, 'kabaleo pass and play, on a turn');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});
