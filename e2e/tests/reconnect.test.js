// The connection state is shown and recovers by itself: the server is killed
// (kill -9) in the middle of a game and started again; the page reconnects
// with its last version and the game goes on. While the connection is lost, a
// banner says so over the board, which stays readable.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, playAnyByClicks, until, shot } from '../lib.js';

const env = serverAndBrowser();

test('the page reconnects by itself after the server is killed and restarted', async () => {
  const p = await newPlayer(env.browser, { name: 'Ann' });
  const created = await env.server.api('/api/games', {
    method: 'POST',
    body: { game: 'abalone', seats: [{ kind: 'human' }, { kind: 'computer', player: 'ai:1' }], name: 'Ann' },
  });
  await p.page.addInitScript(([id, token]) => {
    const all = JSON.parse(localStorage.getItem('plateau.tokens') || '{}');
    all[id] = token;
    localStorage.setItem('plateau.tokens', JSON.stringify(all));
  }, [created.id, created.token]);
  await p.page.goto(`${env.server.url}/game/${created.id}`);
  await p.page.locator('.conn[data-state="open"]').waitFor();
  await playAnyByClicks(p);
  await until(() => p.state.ply === 2, 'the computer to answer');

  await env.server.kill();
  await p.page.locator('.conn[data-state="reconnecting"]').waitFor();
  // Said clearly over the board, which stays as it was (the two moves on it).
  const banner = p.page.locator('[data-offline]');
  await banner.waitFor();
  assert.match(await banner.innerText(), /Connection lost/);
  assert.equal(await banner.getAttribute('role'), 'alert');
  assert.ok(await p.page.locator('svg.board').isVisible());
  assert.equal(await p.page.locator('svg.board .marble').count(), 28);
  await shot(p.page, 'reconnecting');
  await env.server.spawn();
  await p.page.locator('.conn[data-state="open"]').waitFor({ timeout: 20000 });
  await banner.waitFor({ state: 'hidden' });
  assert.equal(p.state.ply, 2);
  await playAnyByClicks(p);
  await until(() => p.state.ply === 4, 'the computer to answer after the restart');
  assert.equal(await p.page.locator('.moves li').count(), 4);
  // The browser goes offline (a phone in a tunnel): said at once, then back.
  await p.context.setOffline(true);
  await banner.waitFor();
  assert.ok(await p.page.locator('svg.board').isVisible());
  await p.context.setOffline(false);
  await p.page.locator('.conn[data-state="open"]').waitFor({ timeout: 20000 });
  await banner.waitFor({ state: 'hidden' });
  assert.deepEqual(p.errors, []);
  await p.context.close();
});
