// A rated game with a short clock between two accounts, in French: both sign
// up; the creation form offers rated games and clocks once logged in; then
// both ask quick pairing for Abalone on a clock of their own, ¼ minute + 1 s
// a move, and are paired (seats drawn at random). A few moves by clicking,
// then one lets the clock run out. Both see the loss on time and the new
// ratings; the winner's page shows the game and the rating chart. Then the
// chat between two players.
//
// The server runs behind a (pretended) proxy: quick pairing never pairs two
// requests from one address, and each browser context here says it is
// another client with its X-Forwarded-For header.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverWithAndBrowser, newPlayer, playAnyByClicks, until, shot, signUp, switchLanguage } from '../lib.js';

const env = serverWithAndBrowser(['--behind-proxy']);
let address = 10;

/** A player (a browser context) from an address of its own. */
async function player(opts) {
  const p = await newPlayer(env.browser, opts);
  address += 1;
  await p.context.setExtraHTTPHeaders({ 'X-Forwarded-For': `198.51.100.${address}` });
  return p;
}

/** A new player in the French interface, signed up as `name`. */
async function frenchAccount(name) {
  const p = await player();
  await p.page.goto(env.server.url + '/');
  await switchLanguage(p.page, 'fr');
  await signUp(p, env.server.url, name);
  return p;
}

/** Quick pairing on a clock of one's own: ¼ minute + `inc` seconds. */
async function quickCustom(p, game, inc) {
  await p.page.goto(env.server.url + '/');
  const other = p.page.locator('[data-quick-other]');
  await other.locator('summary').click();
  await other.locator('select[name="quick-game"]').selectOption(game);
  await other.locator('input[name="quick-clock-kind"][value="live"]').check();
  await other.locator('[data-preset="custom"]').click();
  await other.locator('input[name="quick-clock-minutes"]').fill('0.25');
  await other.locator('input[name="quick-clock-increment"]').fill(String(inc));
  await other.locator('[data-action="quick-other"]').click();
}

test('a rated game on a short clock, lost on time, in French: result, new ratings, the profile', async () => {
  const ann = await frenchAccount('anne');
  const bob = await frenchAccount('bruno');

  // Logged in, the creation form offers a rated game, and Ann plays under her account's name.
  await ann.page.goto(env.server.url + '/');
  await ann.page.locator('.game-card[data-game="abalone"]').click();
  await ann.page.locator('[data-playing-as="anne"]').waitFor();
  assert.equal(await ann.page.locator('input[name="name"]').count(), 0);
  await ann.page.locator('input[name="clock-kind"][value="corr"]').check();
  await ann.page.locator('select[name="clock-days"]').selectOption('2');
  await ann.page.locator('select[name="seat-1"]').waitFor();
  await ann.page.locator('select[name="seat-1"]').selectOption('open');
  await ann.page.locator('input[name="rated"]:not([disabled])').check();
  await until(async () => !(await ann.page.locator('[data-action="create"]').isDisabled()), 'the form to be valid');
  await shot(ann.page, 'rated-clock-create-fr');
  await ann.page.locator('[data-action="create"]').click();
  await ann.page.waitForURL(/\/game\//);
  await until(() => ann.state && ann.state.you === 0, 'Ann seated');
  assert.equal(ann.state.rated, true);
  assert.deepEqual(ann.state.clock, { days: 2 });
  await ann.page.locator('.game-meta [data-rated="true"]', { hasText: 'Classée' }).waitFor();
  await ann.page.locator('.game-meta .tc', { hasText: '2 jours par coup' }).waitFor();
  await ann.page.locator('[data-action="abort"]').click();
  await ann.page.locator('[data-action="abort"].confirm').click();
  await until(() => ann.state.status === 'aborted', 'the game aborted');

  // Quick pairing: Ann waits, Bob is paired with her at once.
  await quickCustom(ann, 'abalone', 1);
  await ann.page.locator('[data-waiting]', { hasText: '¼+1' }).waitFor();
  await shot(ann.page, 'rated-clock-quick-waiting-fr');
  await quickCustom(bob, 'abalone', 1);
  await ann.page.waitForURL(/\/game\//);
  await bob.page.waitForURL(/\/game\//);
  await until(() => ann.state && bob.state && ann.state.id === bob.state.id && ann.state.status === 'live', 'both in the game');
  assert.equal(ann.state.you + bob.state.you, 1);
  assert.equal(ann.state.rated, true);
  assert.deepEqual(ann.state.clock, { initial: 15, increment: 1 });
  // Black moves first.
  const [first, second] = ann.state.you === 0 ? [ann, bob] : [bob, ann];
  const firstName = first === ann ? 'anne' : 'bruno';
  for (const p of [ann, bob]) {
    await p.page.locator('.game-meta [data-rated="true"]', { hasText: 'Classée' }).waitFor();
    await p.page.locator('.game-meta [data-clock-control="¼+1"]').waitFor();
    // Each seat names its account, linked to its page.
    await p.page.locator('.seats a[href="/player/anne"]').waitFor();
    await p.page.locator('.seats a[href="/player/bruno"]').waitFor();
    assert.equal(await p.page.locator('.seats .clock[data-clock="0"]').innerText(), '00:15');
  }

  // A few moves by clicking; the first move is free.
  await playAnyByClicks(first);
  await playAnyByClicks(second);
  await playAnyByClicks(first);
  await playAnyByClicks(second);
  await playAnyByClicks(first);
  assert.equal(first.state.ply, 5);
  // White's clock runs, counts down on both pages, and warns under 20 s.
  await until(() => first.state.clock_running === 1, "White's clock to run");
  for (const p of [ann, bob]) {
    await p.page.locator('.seats .clock[data-clock="1"].running.low').waitFor();
  }
  const read = async () => second.page.locator('.seats .clock[data-clock="1"]').innerText();
  const shown = await read();
  await until(async () => (await read()) !== shown, 'the clock to count down');
  await second.page.locator('.seats .clock[data-clock="1"]', { hasText: /^00:0\d\.\d$/ }).waitFor({ timeout: 20000 });
  await shot(second.page, 'rated-clock-low-time-fr');

  // White lets the time run out: the server ends the game.
  for (const p of [ann, bob]) {
    await until(() => p.state.status === 'finished', 'the loss on time', 40000);
    await p.page.locator('.result[data-result="1-0"]').waitFor();
    assert.match(await p.page.locator('.result').innerText(), /temps écoulé/);
    assert.equal(p.state.result.reason, 'time');
    // The new ratings: before → after, with the change.
    await p.page.locator('.rating-changes tr[data-seat="0"]').waitFor();
    const win = await p.page.locator('.rating-changes tr[data-seat="0"]').innerText();
    const loss = await p.page.locator('.rating-changes tr[data-seat="1"]').innerText();
    assert.match(win, new RegExp(`${firstName}\\s+1500\\s+→\\s+1\\d{3}\\?\\s+\\+\\d+`));
    assert.match(loss, new RegExp(`${first === ann ? 'bruno' : 'anne'}\\s+1500\\s+→\\s+1\\d{3}\\?\\s+−\\d+`));
    assert.equal(await p.page.locator('.seats .clock[data-clock="1"]').innerText(), '00:00.0');
  }
  assert.match(await first.page.locator('.result h3').innerText(), /Vous gagnez/);
  await shot(first.page, 'rated-clock-won-on-time-fr');
  await shot(second.page, 'rated-clock-lost-on-time-fr');

  // The rating changes are there after a reload too.
  await second.page.reload();
  await second.page.locator('.rating-changes tr[data-seat="1"]').waitFor();

  // The winner's page: the game among the recent games, and the rating chart.
  const id = first.state.id;
  await first.page.locator('header [data-account="name"]').click();
  await first.page.waitForURL(new RegExp(`/player/${firstName}$`));
  await first.page.locator(`[data-section="recent"] li[data-id="${id}"]`).waitFor();
  await first.page.locator('.game-stats[data-game="abalone"] .rating-chart').waitFor();
  await first.page.locator(`.rating-chart a[data-game-id="${id}"]`).waitFor({ state: 'attached' });
  await first.page.locator('.game-stats[data-game="abalone"] [data-stat="rating"]', { hasText: /1\d{3}/ }).waitFor();
  await shot(first.page, 'rated-clock-profile-fr');
  for (const p of [ann, bob]) assert.deepEqual(p.errors, []);
  for (const p of [ann, bob]) await p.context.close();
});

test('chat: a message goes from one player to the other, as text; spectators in their own room; the switch hides it', async () => {
  const ann = await player({ name: 'Ann' });
  const bob = await player({ name: 'Bob' });
  await ann.page.goto(env.server.url + '/');
  await ann.page.locator('.game-card[data-game="abalone"]').click();
  await ann.page.locator('select[name="seat-1"]').waitFor();
  await ann.page.locator('select[name="seat-1"]').selectOption('open');
  await until(async () => !(await ann.page.locator('[data-action="create"]').isDisabled()), 'the form to be valid');
  await ann.page.locator('[data-action="create"]').click();
  await ann.page.waitForURL(/\/game\//);
  const invite = await ann.page.locator('input[data-invite]').inputValue();
  await bob.page.goto(invite);
  await bob.page.locator('[data-action="join"]').click();
  await until(() => bob.state && bob.state.you === 1, 'Bob seated');

  const text = 'Hello <b>Bob</b> & good luck';
  const input = ann.page.locator('.chat input[name="chat"]');
  assert.equal(await input.getAttribute('maxlength'), '300');
  await input.fill(text);
  await input.press('Enter');
  const line = bob.page.locator('.chat-log li', { hasText: 'good luck' });
  await line.waitFor();
  // Shown as typed: the markup is text, not HTML.
  assert.equal(await line.locator('.chat-text').innerText(), text);
  assert.equal(await bob.page.locator('.chat-log b').count(), 0);
  assert.match(await line.innerText(), /Ann/);
  await bob.page.locator('.chat input[name="chat"]').fill('Thanks!');
  await bob.page.locator('.chat [data-action="chat-send"]').click();
  await ann.page.locator('.chat-log li', { hasText: 'Thanks!' }).waitFor();
  await shot(bob.page, 'chat-players');

  // A spectator does not read the players' room, and must log in to write in the spectators' one.
  const eve = await player();
  await eve.page.goto(invite);
  await eve.page.locator('.chat[data-room="spectators"] [data-chat-login]').waitFor();
  assert.equal(await eve.page.locator('.chat-log li', { hasText: 'good luck' }).count(), 0);
  await signUp(eve, env.server.url, 'eve_watching');
  await eve.page.goto(invite);
  await eve.page.locator('.chat[data-room="spectators"] input[name="chat"]').fill('Nice game to watch');
  await eve.page.locator('.chat [data-action="chat-send"]').click();
  await eve.page.locator('.chat-log li', { hasText: 'Nice game to watch' }).locator('a[href="/player/eve_watching"]').waitFor();
  // The players do not read the spectators' room.
  await ann.page.locator('.chat input[name="chat"]').fill('Still here');
  await ann.page.locator('.chat input[name="chat"]').press('Enter');
  await bob.page.locator('.chat-log li', { hasText: 'Still here' }).waitFor();
  assert.equal(await bob.page.locator('.chat-log li', { hasText: 'Nice game' }).count(), 0);
  assert.equal(await eve.page.locator('.chat-log li', { hasText: 'Still here' }).count(), 0);
  await eve.context.close();

  // A message too long for the server is refused discreetly (the field stops at 300).
  await bob.page.locator('.chat input[name="chat"]').fill('x'.repeat(400));
  assert.equal((await bob.page.locator('.chat input[name="chat"]').inputValue()).length, 300);

  // After a reload the room's last messages are there (the welcome's chat).
  await bob.page.reload();
  await bob.page.locator('.chat-log li', { hasText: 'good luck' }).waitFor();
  // The switch turns the chat off, and it stays off.
  await bob.page.locator('.chat input[name="chat-on"]').uncheck();
  assert.equal(await bob.page.locator('.chat-log').count(), 0);
  await bob.page.reload();
  await bob.page.locator('.chat.off').waitFor();
  assert.equal(await bob.page.locator('.chat-log').count(), 0);
  await bob.page.locator('.chat input[name="chat-on"]').check();
  await bob.page.locator('.chat-log li', { hasText: 'Thanks!' }).waitFor();
  for (const p of [ann, bob]) assert.deepEqual(p.errors, []);
  for (const p of [ann, bob]) await p.context.close();
});
