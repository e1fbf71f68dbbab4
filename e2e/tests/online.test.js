// An online game between two browsers joined through the invite link, played
// to its end (Abalone, marbles-to-win=1), with a spectator following it; then
// a rematch with the seats swapped; draw offers and resignation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, playMove, until, shot } from '../lib.js';

const env = serverAndBrowser();

// Black's line e5-f6 walks up to push White's corner marble i9 off the board.
const POSITION = '4w/6/7/4b3/4b4/8/7/6/4w b 0 0';

async function createOpen(page, game, options = {}) {
  await page.goto(env.server.url + '/');
  await page.locator(`.game-card[data-game="${game}"]`).click();
  if (Object.keys(options).length) await page.locator('details.options summary').click();
  for (const [k, v] of Object.entries(options)) {
    // Typed in two goes with a pause: the form keeps the field (and its focus) while the server checks it.
    const field = page.locator(`[name="opt-${k}"]`);
    const text = String(v);
    await field.click();
    await field.pressSequentially(text.slice(0, 1));
    await page.waitForTimeout(400);
    await page.keyboard.type(text.slice(1));
    assert.equal(await field.inputValue(), text);
  }
  await page.locator('select[name="seat-1"]').waitFor();
  await page.locator('select[name="seat-0"]').selectOption('me');
  await page.locator('select[name="seat-1"]').selectOption('open');
  // The configuration is checked by the server before it can be created.
  await until(async () => !(await page.locator('[data-action="create"]').isDisabled()), 'the form to be valid');
  await page.waitForTimeout(300);
  await page.locator('[data-action="create"]').click();
  await page.waitForURL(/\/game\//);
  const invite = await page.locator('input[data-invite]').inputValue();
  assert.match(invite, /\/game\/[\w-]+$/);
  return invite;
}

async function join(p, invite) {
  await p.page.goto(invite);
  await p.page.locator('[data-action="join"]').click();
  await until(() => p.state && p.state.you === 1, 'the seat to be taken');
}

test('abalone online: two players through the invite link, to the end, with a spectator; then a rematch', async () => {
  const ann = await newPlayer(env.browser, { name: 'Ann' });
  const bob = await newPlayer(env.browser, { name: 'Bob', locale: 'fr-FR' });
  const eve = await newPlayer(env.browser, { width: 390, height: 844 });
  const invite = await createOpen(ann.page, 'abalone', { position: POSITION, 'marbles-to-win': 1 });
  await until(() => ann.state && ann.state.you === 0, 'Ann seated');
  assert.equal(ann.state.status, 'open');
  await join(bob, invite);
  await until(() => ann.state.status === 'live', 'the game to start for Ann');
  // A spectator opens the same link: the game is live, there is no seat to take.
  await eve.page.goto(invite);
  await until(() => eve.state && eve.state.status === 'live', 'the spectator to see the game');
  assert.equal(eve.state.you, null);
  assert.equal(await eve.page.locator('[data-action="join"]').count(), 0);
  await eve.page.locator('.statusbar', { hasText: 'You are watching' }).waitFor();
  // The players see that someone watches.
  await ann.page.locator('[data-spectators="1"]').waitFor();
  await bob.page.locator('[data-spectators="1"]').waitFor();
  // Bob's page is in French (his browser's language).
  await bob.page.locator('.turn', { hasText: 'Au tour de' }).waitFor();

  await playMove(ann, 'e5f6');
  await playMove(bob, 'a5a4');
  await playMove(ann, 'f6g7');
  // The spectator follows: the moves so far, the last one marked.
  await eve.page.locator('.moves li').nth(2).waitFor();
  assert.deepEqual(await eve.page.locator('.moves li').allInnerTexts(), ['e5f6', 'a5a4', 'f6g7']);
  await shot(eve.page, 'abalone-spectator-phone');
  await playMove(bob, 'a4a5');
  await shot(ann.page, 'abalone-online-before-push');
  await playMove(ann, 'g7h8');

  for (const p of [ann, bob, eve]) {
    await until(() => p.state.status === 'finished', 'the end');
    await p.page.locator('.result[data-result="1-0"]').waitFor();
  }
  assert.match(await ann.page.locator('.result h3').innerText(), /You win/);
  assert.match(await bob.page.locator('.result h3').innerText(), /Noir \(Ann\) gagne/);
  assert.match(await eve.page.locator('.result h3').innerText(), /Black \(Ann\) wins/);
  await eve.page.locator('[data-pushed="0"]').first().waitFor();
  await shot(ann.page, 'abalone-online-won');
  await shot(eve.page, 'abalone-online-spectator-end');

  // Replay: back to the start and forth again.
  await eve.page.locator('.moves button[data-ply="1"]').click();
  await eve.page.locator('.viewing').waitFor();
  await eve.page.keyboard.press('ArrowRight');
  await eve.page.locator('.moves button.current[data-ply="2"]').waitFor();
  await eve.page.keyboard.press('End');
  await eve.page.locator('.moves button.current[data-ply="5"]').waitFor();

  // Rematch: both ask; the seats are swapped.
  await ann.page.locator('[data-action="rematch"]').click();
  await bob.page.locator('[data-action="rematch"]', { hasText: 'Accepter' }).click();
  await ann.page.locator('[data-action="to-rematch"]').click();
  await until(() => ann.state && ann.state.id !== eve.state.id && ann.state.you === 1, 'Ann in the rematch, now White');
  await bob.page.locator('[data-action="to-rematch"]').click();
  await until(() => bob.state && bob.state.id === ann.state.id && bob.state.you === 0, 'Bob in the rematch, now Black');
  assert.equal(ann.state.status, 'live');
  for (const p of [ann, bob, eve]) assert.deepEqual(p.errors, []);
  for (const p of [ann, bob, eve]) await p.context.close();
});

test('draw offers and resignation', async () => {
  const ann = await newPlayer(env.browser, { name: 'Ann' });
  const bob = await newPlayer(env.browser, { name: 'Bob' });
  let invite = await createOpen(ann.page, 'abalone');
  // Bob finds the game in the lobby's open games and joins from there.
  const id = invite.split('/').pop();
  await bob.page.goto(env.server.url + '/');
  await bob.page.locator(`.games-list li[data-id="${id}"] [data-action="join"]`).click();
  await bob.page.waitForURL(/\/game\//);
  await until(() => bob.state && bob.state.you === 1, 'Bob seated from the lobby');
  await until(() => ann.state.status === 'live', 'the game to start');
  // Now the game is in the live list, to watch.
  const eve = await newPlayer(env.browser);
  await eve.page.goto(env.server.url + '/');
  await eve.page.locator('[data-tab="live"]').click();
  await eve.page.locator(`.games-list[data-list="live"] li[data-id="${id}"] a`).click();
  await until(() => eve.state && eve.state.id === id && eve.state.you === null, 'Eve watching from the lobby');
  await eve.context.close();
  await ann.page.locator('[data-action="offer_draw"]').click();
  await bob.page.locator('[data-action="decline_draw"]').click();
  await until(() => ann.state.draw_offers.length === 0, 'the offer declined');
  await ann.page.locator('[data-action="offer_draw"]').click();
  await bob.page.locator('[data-action="accept_draw"]').click();
  await ann.page.locator('.result[data-result="1/2-1/2"]').waitFor();
  // The finished game is in the lobby, to replay.
  const zoe = await newPlayer(env.browser);
  await zoe.page.goto(env.server.url + '/');
  await zoe.page.locator('[data-tab="finished"]').click();
  await zoe.page.locator(`.games-list[data-list="finished"] li[data-id="${id}"] a`).click();
  await zoe.page.locator('.result[data-result="1/2-1/2"]').waitFor();
  await zoe.context.close();

  // A second game: Bob resigns (a click, then a click to confirm).
  const carl = await newPlayer(env.browser, { name: 'Carl' });
  invite = await createOpen(carl.page, 'colorito');
  const dan = await newPlayer(env.browser, { name: 'Dan' });
  await join(dan, invite);
  await until(() => carl.state.status === 'live', 'the game to start');
  // Resigning needs one move played; Red (Carl) plays any move.
  await until(() => carl.legal && carl.legal.length, 'Carl to move');
  await playMove(carl, carl.legal[0].move);
  await dan.page.locator('[data-action="resign"]').click();
  await dan.page.locator('[data-action="resign"].confirm').click();
  await carl.page.locator('.result[data-result="1-0"]').waitFor();
  assert.match(await carl.page.locator('.result').innerText(), /resignation/);
  for (const p of [ann, bob, carl, dan]) assert.deepEqual(p.errors, []);
  for (const p of [ann, bob, carl, dan]) await p.context.close();
});
