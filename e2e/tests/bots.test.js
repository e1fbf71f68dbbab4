// Bots in the browser (issue 17): a bot account, made by its program with an
// access token, is listed in the lobby's "Bots" section (online or not, what
// it plays, its description); its "Challenge" button opens the challenge form
// of a player's page limited to the bot's games; a challenge the bot's
// settings leave out shows the server's refusal, one it takes is sent; the
// bot's page has the BOT badge.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, until, shot, makeBot } from '../lib.js';

const env = serverAndBrowser();

test('a bot is listed in the lobby and challenged from it; its page has the BOT badge', async () => {
  await makeBot(env.server, 'Robo_e2e', { games: ['abalone', 'colorito'], clocks: ['none', 'live'], description: 'Plays its first legal move.' });
  const p = await newPlayer(env.browser);
  const { page } = p;
  await page.goto(env.server.url + '/signup');
  await page.locator('form input[name="name"]').fill('Zoe_e2e');
  await page.locator('form input[name="password"]').fill('correct horse');
  if (await page.locator('form input[name="confirm"]').count()) await page.locator('form input[name="confirm"]').fill('correct horse');
  await page.locator('form button[type="submit"]').click();
  await page.locator('#account [data-account="logout"]').waitFor();
  await new Promise((r) => setTimeout(r, 2000));
  await page.goto(env.server.url + '/');

  // Listed: offline (no lobby socket of its program), what it plays, its description.
  const bot = page.locator('[data-section="bots"] li[data-bot="Robo_e2e"]');
  await bot.waitFor();
  assert.equal(await bot.getAttribute('data-online'), 'false');
  assert.match(await bot.textContent(), /Plays Abalone, Colorito/);
  assert.match(await bot.textContent(), /Plays its first legal move\./);
  await bot.locator('.badge.bot').waitFor();

  // Its challenge form offers its games only; a correspondence clock is refused by its settings.
  await bot.locator('[data-action="challenge"]').click();
  const form = bot.locator('.challenge-form');
  assert.deepEqual(await form.locator('select[name="challenge-game"] option').allTextContents(), ['Abalone', 'Colorito']);
  await form.locator('input[name="challenge-clock-kind"][value="corr"]').check();
  await form.locator('[data-action="send-challenge"]').click();
  const error = form.locator('.error');
  await error.waitFor();
  assert.match(await error.textContent(), /does not take correspondence clocks/);
  await shot(page, 'bots-lobby');

  // Without a clock it takes: the challenge is sent, and waits in the lobby.
  await form.locator('input[name="challenge-clock-kind"][value="none"]').check();
  await form.locator('input[name="challenge-rated"]').uncheck();
  await form.locator('[data-action="send-challenge"]').click();
  await page.locator('.challenges li.outgoing', { hasText: 'Robo_e2e' }).waitFor();
  assert.deepEqual(p.errors.filter((e) => !/status of 40[19]/.test(e)), []);

  // Its page.
  await new Promise((r) => setTimeout(r, 2000));
  await page.goto(env.server.url + '/player/Robo_e2e');
  await page.locator('.profile-head .badge.bot').waitFor();
  await until(async () => /Plays its first legal move\./.test(await page.locator('[data-bot-info]').textContent()), 'the description');
  assert.match(await page.locator('[data-bot-info]').textContent(), /offline/);
});
