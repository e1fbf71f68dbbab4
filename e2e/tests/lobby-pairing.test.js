// Finding an opponent in the lobby, and what two players do at the table
// besides moving: a guest posts a seek and another takes it from the live
// list; an account challenges another from its page and the other accepts in
// the lobby; in that casual game, a takeback asked, declined, asked again and
// accepted; then one player leaves on their turn and the other claims the
// game after the countdown.
//
// The server runs behind a (pretended) proxy, each browser context another
// client address (X-Forwarded-For): the lobby never pairs an address with
// itself.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithAndBrowser, newPlayer, playAnyByClicks, until, shot, signUp } from '../lib.js';

const env = serverWithAndBrowser(['--behind-proxy']);
let address = 10;

async function player(opts) {
  const p = await newPlayer(env.browser, opts);
  address += 1;
  await p.context.setExtraHTTPHeaders({ 'X-Forwarded-For': `203.0.113.${address}` });
  return p;
}

test('a seek posted by one guest, taken from the live list by another', async () => {
  const ann = await player({ name: 'Ann' });
  const bob = await player({ name: 'Bob' });
  await bob.page.goto(env.server.url + '/');
  await bob.page.locator('[data-state="no-seeks"]').waitFor();

  await ann.page.goto(env.server.url + '/');
  const form = ann.page.locator('details.seek-post:not([data-quick-other])');
  await form.locator('summary').click();
  await form.locator('select[name="seek-game"]').selectOption('colorito');
  await form.locator('input[name="seek-clock-kind"][value="live"]').check();
  await form.locator('[data-preset="5+3"]').click();
  // A guest's seek is casual.
  assert.equal(await form.locator('input[name="seek-rated"]').isDisabled(), true);
  await form.locator('[data-action="post-seek"]').click();
  await ann.page.locator('[data-waiting]', { hasText: 'Colorito' }).waitFor();

  // Bob's list is pushed by the lobby socket: no reload.
  const item = bob.page.locator('.seeks li', { hasText: 'Ann' });
  await item.waitFor();
  assert.match(await item.innerText(), /Colorito[\s\S]*5\+3[\s\S]*Casual/);
  await shot(bob.page, 'lobby-seek-listed');
  await item.locator('[data-action="accept-seek"]').click();
  await bob.page.waitForURL(/\/game\//);
  await ann.page.waitForURL(/\/game\//);
  await until(() => ann.state && bob.state && ann.state.id === bob.state.id && ann.state.status === 'live', 'both in the game');
  assert.equal(ann.state.you + bob.state.you, 1);
  assert.deepEqual(ann.state.clock, { initial: 300, increment: 3 });
  assert.equal(ann.state.rated, false);
  await ann.page.locator('.game-meta [data-rated="false"]').waitFor();
  // The seek is gone from the list.
  const eve = await player();
  await eve.page.goto(env.server.url + '/');
  await eve.page.locator('[data-state="no-seeks"]').waitFor();
  for (const p of [ann, bob, eve]) assert.deepEqual(p.errors, []);
  for (const p of [ann, bob, eve]) await p.context.close();
});

test('a challenge from a player page, accepted in the lobby; takebacks; a claim against a player gone', async () => {
  const carl = await player();
  const dana = await player();
  await signUp(carl, env.server.url, 'carl');
  await signUp(dana, env.server.url, 'dana');
  await dana.page.goto(env.server.url + '/');

  // Carl challenges Dana from her page: Abalone, no clock, casual.
  await carl.page.goto(env.server.url + '/player/dana');
  await carl.page.locator('[data-action="challenge"]').click();
  const form = carl.page.locator('.challenge-form');
  await form.locator('select[name="challenge-game"]').selectOption('abalone');
  await form.locator('input[name="challenge-clock-kind"][value="none"]').check();
  await form.locator('input[name="challenge-rated"]').uncheck();
  await shot(carl.page, 'challenge-form');
  await form.locator('[data-action="send-challenge"]').click();
  // Carl is taken to the lobby, where the challenge waits.
  await carl.page.locator('.challenges li.outgoing', { hasText: 'dana' }).waitFor();
  // Dana sees it come in, without a reload.
  const incoming = dana.page.locator('.challenges li.incoming', { hasText: 'carl' });
  await incoming.waitFor();
  await shot(dana.page, 'challenge-incoming');
  await incoming.locator('[data-action="accept-challenge"]').click();
  await dana.page.waitForURL(/\/game\//);
  await carl.page.waitForURL(/\/game\//);
  await until(() => carl.state && dana.state && carl.state.id === dana.state.id && carl.state.status === 'live', 'both in the game');
  assert.equal(carl.state.rated, false);
  assert.equal(carl.state.clock, null);
  await carl.page.locator('.game-meta [data-clock-control="none"]').waitFor();
  assert.equal(await carl.page.locator('.clock').count(), 0);
  const [first, second] = carl.state.you === 0 ? [carl, dana] : [dana, carl];

  // Takebacks: nothing to take back before one's own move.
  assert.equal(await first.page.locator('[data-action="takeback_offer"]').count(), 0);
  await playAnyByClicks(first);
  await first.page.locator('[data-action="takeback_offer"]').click();
  await second.page.locator('[data-action="takeback_decline"]').click();
  await until(() => first.state.takeback_offers.length === 0, 'the takeback declined');
  assert.equal(first.state.ply, 1);
  await first.page.locator('[data-action="takeback_offer"]').click();
  await first.page.locator('[data-action="takeback_offer"][disabled]').waitFor();
  await second.page.locator('[data-action="takeback_accept"]').click();
  for (const p of [first, second]) {
    await until(() => p.state.ply === 0, 'the move taken back');
    await p.page.locator('.moves p', { hasText: 'No move yet' }).waitFor();
  }
  await playAnyByClicks(first);
  await playAnyByClicks(second);
  // On the first player's turn the second leaves: nobody is claimed against on another's turn.
  await first.page.locator('.moves li').nth(1).waitFor();
  const gameUrl = second.page.url();
  const away = `.seats li[data-seat="${second.state.you}"] .dot`;
  await second.page.goto(env.server.url + '/rules');
  await first.page.locator(`${away}:not(.on)`).waitFor();
  assert.equal(await first.page.locator('.claim [data-action]').count(), 0);
  await second.page.goto(gameUrl);
  await first.page.locator(`${away}.on`).waitFor();
  await playAnyByClicks(first);

  // The second player leaves on their turn: the first may claim the game after a countdown.
  await second.context.close();
  const claim = first.page.locator('.claim[data-state="waiting"]');
  await claim.waitFor();
  assert.equal(await claim.locator('[data-action="claim_victory"]').isDisabled(), true);
  await shot(first.page, 'claim-countdown');
  await first.page.locator('.claim[data-state="ready"] [data-action="claim_victory"]:not([disabled])').waitFor({ timeout: 90000 });
  await first.page.locator('[data-action="claim_victory"]').click();
  await until(() => first.state.status === 'finished', 'the game claimed');
  assert.equal(first.state.result.reason, 'abandoned');
  assert.deepEqual(first.state.result.winners, [first.state.you]);
  await first.page.locator('.result h3', { hasText: 'You win' }).waitFor();
  await shot(first.page, 'claim-won');
  assert.deepEqual(first.errors, []);
  await first.context.close();
});
