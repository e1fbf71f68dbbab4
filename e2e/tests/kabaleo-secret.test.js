// Kabaleo: each player's secret colour is on their own page only: never on
// the other player's page or in the WebSocket frames it receives, nor in the
// spectator's, until the end, when every objective is revealed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, playAnyByClicks, until, shot } from '../lib.js';

const env = serverAndBrowser();

/** Every objective a frame carries, by seat, and whether it has a seed or standings. */
function secretsIn(frame) {
  const found = [];
  const walk = (v, key) => {
    if (Array.isArray(v)) {
      if (key === 'objectives') v.forEach((c, seat) => c !== null && found.push({ seat, colour: c }));
      else v.forEach((x) => walk(x, key));
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'standings' && x !== null) found.push({ standings: true });
        if (k === 'seed') found.push({ seed: x });
        walk(x, k);
      }
    }
  };
  walk(JSON.parse(frame), null);
  return found;
}

test('kabaleo: the secret colour stays with its player until the end', async () => {
  const ann = await newPlayer(env.browser, { name: 'Ann' });
  const bob = await newPlayer(env.browser, { name: 'Bob' });
  const eve = await newPlayer(env.browser);
  await ann.page.goto(env.server.url + '/');
  await ann.page.locator('.game-card[data-game="kabaleo"]').click();
  await ann.page.locator('select[name="seat-1"]').waitFor();
  await ann.page.locator('select[name="seat-1"]').selectOption('open');
  await ann.page.locator('[data-action="create"]').click();
  await ann.page.waitForURL(/\/game\//);
  const invite = await ann.page.locator('input[data-invite]').inputValue();
  // Nothing is dealt while a seat is open: Ann is told her colour will come.
  await ann.page.locator('[data-secret-pending]').waitFor();
  assert.equal(await ann.page.locator('[data-secret]').count(), 0);
  await bob.page.goto(invite);
  await bob.page.locator('[data-action="join"]').click();
  await until(() => bob.state && bob.state.you === 1 && bob.state.status === 'live', 'Bob seated');
  await eve.page.goto(invite);
  await until(() => eve.state && eve.state.status === 'live', 'the spectator');
  await until(() => ann.state.status === 'live', 'Ann sees the game live');

  const colourOf = async (p) => p.page.locator('[data-secret]').getAttribute('data-secret');
  const a = await colourOf(ann);
  const b = await colourOf(bob);
  assert.ok(a && b && a !== b, `two different secret colours: ${a} ${b}`);
  assert.equal(await eve.page.locator('[data-secret]').count(), 0);
  await shot(ann.page, 'kabaleo-player1-secret');
  await shot(bob.page, 'kabaleo-player2-secret');

  // Play the whole game by clicks.
  let guard = 0;
  while (ann.state.status === 'live' && guard++ < 80) {
    const p = ann.state.to_move === 0 ? ann : bob;
    await playAnyByClicks(p);
    await until(() => ann.state.ply === p.state.ply || ann.state.status !== 'live', 'Ann to see the move');
    if (guard === 6) {
      // Mid-game: what each page shows and what each socket carried.
      const annText = await ann.page.locator('main').innerText();
      const bobText = await bob.page.locator('main').innerText();
      assert.match(annText, /Your secret colour/);
      assert.equal((bobText.match(/Your secret colour: (\w+)/) || [])[1] !== undefined, true);
      assert.notEqual((annText.match(/Your secret colour: (\w+)/) || [])[1], (bobText.match(/Your secret colour: (\w+)/) || [])[1]);
    }
  }
  await until(() => eve.state.status === 'finished' && bob.state.status === 'finished', 'the end for everyone');

  // Before the end, the frames each one received carried only their own objective.
  const check = (p, seat, who) => {
    let fetched = 0;
    // What the page fetched over HTTP (the game, positions, records) before the end.
    // (What arrived in the last second before the end may already be the end's.)
    for (const r of p.responses) {
      if (!/\/api\/games\//.test(r.url) || (p.endedAt && r.at > p.endedAt - 1000)) continue;
      fetched += 1;
      let found;
      try {
        found = secretsIn(r.body);
      } catch {
        continue;
      }
      if (found.some((x) => x.standings)) continue;
      for (const x of found) {
        assert.ok(!('seed' in x), `${who} fetched the seed before the end: ${r.url}`);
        assert.ok(x.seat === seat, `${who} fetched seat ${x.seat}'s objective before the end: ${r.url}`);
      }
    }
    assert.ok(fetched > 0, `${who}'s page fetched the game`);
    let endSeen = false;
    for (const f of p.frames) {
      const found = secretsIn(f);
      const revealed = found.some((x) => x.standings);
      if (revealed) endSeen = true;
      if (endSeen) continue;
      for (const x of found) {
        assert.ok(!('seed' in x), `${who} received the seed before the end`);
        assert.ok(x.seat === seat, `${who} received seat ${x.seat}'s objective before the end: ${f.slice(0, 200)}`);
      }
    }
    assert.ok(endSeen, `${who} saw the end`);
  };
  check(ann, 0, 'Ann');
  check(bob, 1, 'Bob');
  check(eve, -1, 'the spectator');

  // At the end every objective is revealed, with the scoring.
  for (const p of [ann, bob, eve]) {
    await p.page.locator('.result table.scores tbody tr').nth(1).waitFor();
    assert.equal(await p.page.locator('[data-secret]').count(), 0);
  }
  const rows = await eve.page.locator('.result table.scores tbody tr').allInnerTexts();
  assert.ok(rows.some((r) => r.includes('Player 1')) && rows.some((r) => r.includes('Player 2')));
  await shot(eve.page, 'kabaleo-end-spectator');
  for (const p of [ann, bob, eve]) assert.deepEqual(p.errors, []);
  for (const p of [ann, bob, eve]) await p.context.close();
});
