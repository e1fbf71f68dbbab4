// An engine of someone else's, as a bot (issue 17): the small engine in
// Python of crates/engine/fixtures/ (it speaks the engine protocol and knows
// no rules) is connected to the server by `plateau bot`; a person challenges
// it from the lobby's Bots section in the browser; the bot accepts, the
// lobby enters the game, and the bot answers each of the person's moves
// until the person resigns; the bot logs the game and writes its record.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverAndBrowser, newPlayer, until, shot, makeBot, signUp, playAnyByClicks, BIN, ROOT } from '../lib.js';

const env = serverAndBrowser();

test('a protocol engine plays as a bot: challenged from the lobby, it accepts and answers every move', async () => {
  const token = await makeBot(env.server, 'PyBot_e2e', { games: ['abalone'], clocks: ['none'] });
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plateau-e2e-bot-'));
  const engine = `python3 ${path.join(ROOT, 'crates', 'engine', 'fixtures', 'random_engine.py')}`;
  const bot = spawn(BIN, ['bot', '--server', env.server.url, '--token', token, '--engine', engine, '--games', 'abalone', '--movetime', '200', '--log-dir', logDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: 'info' },
  });
  let log = '';
  bot.stdout.on('data', (d) => { log += d; });
  bot.stderr.on('data', (d) => { log += d; });
  try {
    await until(async () => (await env.server.api('/api/bots')).bots.some((b) => b.name === 'PyBot_e2e' && b.online), 'the bot to be online', 60000)
      .catch((e) => { throw new Error(`${e.message}\n${log}`); });

    const p = await newPlayer(env.browser);
    await signUp(p, env.server.url, 'Human_e2e');
    await p.page.goto(env.server.url + '/');
    const li = p.page.locator('[data-section="bots"] li[data-bot="PyBot_e2e"]');
    await li.waitFor();
    assert.equal(await li.getAttribute('data-online'), 'true');
    await li.locator('[data-action="challenge"]').click();
    const form = li.locator('.challenge-form');
    await form.locator('input[name="challenge-clock-kind"][value="none"]').check();
    await form.locator('input[name="challenge-rated"]').uncheck();
    await form.locator('[data-action="send-challenge"]').click();

    // The bot accepts: the lobby enters the game.
    await until(() => /\/game\//.test(p.page.url()), 'the lobby to enter the game', 60000)
      .catch(async (e) => { await shot(p.page, 'bot-engine-lobby'); throw new Error(`${e.message}\n${log}`); });
    await until(() => p.state && p.state.status === 'live', 'the game to be live', 30000);
    const me = p.state.you;
    assert.notEqual(me, null);
    const bots = p.state.seats.filter((s) => s.seat !== me);
    assert.equal(bots[0].player, 'PyBot_e2e');

    // Three moves of the person by clicks; the bot answers each (it is my
    // turn again only once it has moved).
    for (let i = 0; i < 3; i++) {
      await playAnyByClicks(p).catch((e) => { throw new Error(`${e.message}\n${log}`); });
    }
    await until(() => p.state.to_move === me, 'the bot to answer my third move', 30000);
    // Moves alternate in Abalone: six plies with three of mine are three of the bot's.
    assert.ok(p.state.ply >= 6, `ply ${p.state.ply}`);
    await shot(p.page, 'bot-engine-game');

    // The person resigns; the game is over, the bot won.
    await p.page.locator('[data-action="resign"]').click();
    await p.page.locator('[data-action="resign"].confirm').click();
    await until(() => p.state.status === 'finished', 'the end of the game', 30000);
    assert.deepEqual(p.state.result.winners, [1 - me]);

    // The bot logged it and wrote its record.
    await until(() => fs.readdirSync(logDir).some((f) => f.endsWith('.txt')), 'the record in the log directory', 30000)
      .catch((e) => { throw new Error(`${e.message}\n${log}`); });
    const file = fs.readdirSync(logDir).find((f) => f.endsWith('.txt'));
    const record = fs.readFileSync(path.join(logDir, file), 'utf8');
    assert.match(record, /\[Game "abalone"\]/);
    assert.match(record, /\[Termination "resignation"\]/);
    assert.deepEqual(p.errors, []);
  } finally {
    bot.kill('SIGTERM');
    fs.rmSync(logDir, { recursive: true, force: true });
  }
});
