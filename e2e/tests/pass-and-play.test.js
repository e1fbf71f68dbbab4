// Pass and play (issue 22): a 3-player Kabaleo game with all three seats at
// one screen, played to the end in one page. Between turns the page shows a
// "pass the device" screen that hides the board and every secret; behind it,
// each player sees only their own colour. The colours are read from the
// server with each seat's token (an independent source), and every screen is
// checked against them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, until, shot, signUp } from '../lib.js';

const env = serverAndBrowser();

/** The game's id, from the page's address. */
const gameId = (page) => new URL(page.url()).pathname.split('/').pop();

/** Click what the page highlights until a move is made (no use of the socket's frames: several sockets are open here). */
async function playByClicks(page, server, id) {
  const before = (await server.api(`/api/games/${id}`)).ply;
  for (let i = 0; i < 20; i++) {
    const targets = page.locator('svg.board [data-id].target, .gesture-bar button.primary[data-gesture]');
    const n = await targets.count();
    if (n) {
      await targets.nth(Math.floor(Math.random() * n)).click();
      await until(async () => (await server.api(`/api/games/${id}`)).ply > before, 'the move to be played');
      return;
    }
    const sel = page.locator('svg.board [data-id].selectable, .gesture-bar button[aria-pressed="false"]:not([disabled])');
    const k = await sel.count();
    if (!k) throw new Error('nothing to click');
    await sel.nth(Math.floor(Math.random() * k)).click();
  }
  throw new Error('no move after 20 clicks');
}

/** What the page shows of the secret colours: the [data-secret] elements and the "Your secret colour" sentences. */
async function secretsShown(page) {
  const attrs = await page.locator('[data-secret]').evaluateAll((els) => els.map((e) => e.getAttribute('data-secret')));
  const text = await page.locator('main').innerText();
  const said = [...text.matchAll(/Your secret colour: (\w+)/g)].map((m) => m[1]);
  return { attrs, said };
}

const NAMES = { R: 'red', O: 'orange', Y: 'yellow', G: 'green', B: 'blue', V: 'violet' };

test('pass and play: three Kabaleo players at one screen, each seeing only their own colour', async () => {
  const p = await newPlayer(env.browser, { name: 'Ann' });
  const { page } = p;
  await page.goto(env.server.url + '/');
  await page.locator('.game-card[data-game="kabaleo"]').click();
  await page.locator('select[name="variant"]').selectOption('3-players');
  await page.locator('select[name="seat-2"]').waitFor();
  await page.locator('select[name="seat-0"]').selectOption('me');
  await page.locator('select[name="seat-1"]').selectOption('here');
  await page.locator('select[name="seat-2"]').selectOption('here');
  await page.locator('input[name="here-name-1"]').fill('Bob');
  await page.locator('input[name="here-name-2"]').fill('Cy');
  // Several people at one screen: a casual game.
  assert.equal(await page.locator('input[name="rated"]').isDisabled(), true);
  await shot(page, 'pass-and-play-lobby');
  await page.locator('[data-action="create"]').click();
  await page.waitForURL(/\/game\//);
  const id = gameId(page);

  // The seats' tokens the browser keeps, and each seat's colour as the server tells that seat.
  const list = await page.evaluate((gid) => JSON.parse(localStorage.getItem('plateau.local'))[gid], id);
  assert.equal(list.length, 3);
  const colour = {};
  for (const tok of list) {
    const s = await env.server.api(`/api/games/${id}`, { token: tok });
    assert.equal(typeof s.you, 'number');
    colour[s.you] = s.view.objectives[s.you];
  }
  assert.deepEqual(Object.keys(colour).sort(), ['0', '1', '2']);
  assert.equal(new Set(Object.values(colour)).size, 3, `three colours: ${JSON.stringify(colour)}`);
  const pub = await env.server.api(`/api/games/${id}`);
  assert.equal(pub.status, 'live');
  assert.deepEqual(pub.seats.map((x) => x.player), ['Ann', 'Bob', 'Cy']);
  // Every local seat is present at the table (its own socket).
  await until(async () => (await env.server.api(`/api/games/${id}`)).seats.every((x) => x.online), 'the three seats online');

  let passes = 0;
  let turns = 0;
  let shown = false;
  for (let guard = 0; guard < 200; guard++) {
    const s = await env.server.api(`/api/games/${id}`);
    if (s.status !== 'live') break;
    // The page has every move so far (its list of moves).
    await until(async () => (await page.locator('.moves li').count()) === s.ply, `the page to show move ${s.ply}`);
    // The pass screen, or the board of the seat to move.
    await until(async () => (await page.locator('[data-pass]:not(.hidden) [data-action="pass-ready"]:not([disabled])').count()) > 0
      || (await page.locator('.turn.mine').count()) > 0
      || (await env.server.api(`/api/games/${id}`)).ply !== s.ply, 'the pass screen or a board to play on');
    if ((await env.server.api(`/api/games/${id}`)).ply !== s.ply) continue;
    if (await page.locator('[data-pass]:not(.hidden)').count()) {
      // Behind the pass screen: no board, no secret, no colour said.
      passes += 1;
      assert.equal(await page.locator('svg.board').count(), 0, 'the pass screen hides the board');
      const { attrs, said } = await secretsShown(page);
      assert.deepEqual(attrs, [], 'no secret behind the pass screen');
      assert.deepEqual(said, [], 'no colour said behind the pass screen');
      const title = await page.locator('[data-pass] h2').innerText();
      assert.match(title, new RegExp(`Pass the device to Player ${s.to_move + 1}`));
      if (passes === 2) await shot(page, 'pass-and-play-pass-screen');
      await page.locator('[data-action="pass-ready"]').click();
      await page.locator('.turn.mine').waitFor();
    }
    // The seat to move plays, seeing its own colour and nobody else's.
    const { attrs, said } = await secretsShown(page);
    assert.deepEqual(attrs, [colour[s.to_move]], `seat ${s.to_move} sees only its colour (shown: ${attrs})`);
    assert.deepEqual(said, [NAMES[colour[s.to_move]]]);
    const big = page.locator('.turn.big.mine');
    assert.match(await big.innerText(), new RegExp(`Player ${s.to_move + 1}`));
    if (!shown) {
      await shot(page, 'pass-and-play-turn');
      shown = true;
    }
    await playByClicks(page, env.server, id);
    turns += 1;
  }
  const end = await env.server.api(`/api/games/${id}`);
  assert.equal(end.status, 'finished');
  assert.ok(turns >= 6, `turns played: ${turns}`);
  // A pass screen before every turn (the first one too: whoever holds the device may not be that player).
  assert.equal(passes, turns, `pass screens ${passes}, turns ${turns}`);
  // The end: every colour revealed with the scoring, no pass screen.
  await page.locator('.result table.scores tbody tr').nth(2).waitFor();
  assert.equal(await page.locator('[data-pass]:not(.hidden)').count(), 0);
  await shot(page, 'pass-and-play-end');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

test('pass and play mixes with computer and remote seats', async () => {
  // Kabaleo for four: two seats at this screen, a computer, and an invited person in another browser.
  const ann = await newPlayer(env.browser, { name: 'Ann' });
  const dan = await newPlayer(env.browser, { name: 'Dan' });
  await ann.page.goto(env.server.url + '/');
  await ann.page.locator('.game-card[data-game="kabaleo"]').click();
  await ann.page.locator('select[name="variant"]').selectOption('4-players');
  await ann.page.locator('select[name="seat-3"]').waitFor();
  await ann.page.locator('select[name="seat-0"]').selectOption('me');
  await ann.page.locator('select[name="seat-1"]').selectOption('here');
  await ann.page.locator('select[name="seat-2"]').selectOption('ai:1');
  await ann.page.locator('select[name="seat-3"]').selectOption('open');
  await ann.page.locator('[data-action="create"]').click();
  await ann.page.waitForURL(/\/game\//);
  const id = gameId(ann.page);
  await dan.page.goto(`${env.server.url}/game/${id}`);
  await dan.page.locator('[data-action="join"]').click();
  await until(async () => (await env.server.api(`/api/games/${id}`)).status === 'live', 'the game to start');
  const list = await ann.page.evaluate((gid) => JSON.parse(localStorage.getItem('plateau.local'))[gid], id);
  const colour = {};
  for (const tok of list) {
    const s = await env.server.api(`/api/games/${id}`, { token: tok });
    colour[s.you] = s.view.objectives[s.you];
  }
  assert.deepEqual(Object.keys(colour).sort(), ['0', '1']);
  // Two rounds: each local seat plays twice behind its screen; Dan plays on his page; the computer answers.
  let localTurns = 0;
  let veiled = 0;
  for (let guard = 0; guard < 60 && localTurns < 4; guard++) {
    const s = await env.server.api(`/api/games/${id}`);
    if (s.status !== 'live') break;
    await until(async () => (await ann.page.locator('.moves li').count()) >= s.ply && (await dan.page.locator('.moves li').count()) >= s.ply, `the pages to show move ${s.ply}`);
    if ((await env.server.api(`/api/games/${id}`)).ply !== s.ply) continue;
    if (s.to_move === 3 || s.to_move === 2) {
      // While nobody at Ann's screen is to move, her page hides the board and every colour.
      if (s.ply > 0) {
        await ann.page.locator('[data-pass]:not(.hidden)').waitFor();
        assert.equal(await ann.page.locator('svg.board').count(), 0);
        assert.equal(await ann.page.locator('[data-secret]').count(), 0);
        veiled += 1;
      }
    }
    if (s.to_move === 3) {
      await until(async () => (await dan.page.locator('.turn.mine').count()) > 0, 'Dan\'s turn on his page');
      // Dan's page shows his own colour only, never a local seat's.
      const d = await secretsShown(dan.page);
      assert.equal(d.attrs.length, 1);
      assert.ok(!Object.values(colour).includes(d.attrs[0]), 'Dan never sees a local seat\'s colour');
      await playByClicks(dan.page, env.server, id);
      continue;
    }
    if (s.to_move === 2) {
      await until(async () => (await env.server.api(`/api/games/${id}`)).ply > s.ply, 'the computer');
      continue;
    }
    await until(async () => (await ann.page.locator('[data-pass]:not(.hidden) [data-action="pass-ready"]:not([disabled])').count()) > 0
      || (await ann.page.locator('.turn.mine').count()) > 0, 'the pass screen or the board');
    if (await ann.page.locator('[data-pass]:not(.hidden)').count()) {
      assert.equal(await ann.page.locator('svg.board').count(), 0);
      await ann.page.locator('[data-action="pass-ready"]').click();
      await ann.page.locator('.turn.mine').waitFor();
    }
    const a = await secretsShown(ann.page);
    assert.deepEqual(a.attrs, [colour[s.to_move]]);
    await playByClicks(ann.page, env.server, id);
    localTurns += 1;
  }
  assert.equal(localTurns, 4);
  assert.ok(veiled >= 1, `the board hidden on others' turns: ${veiled}`);
  // The other seats saw Ann's page's seats online all along.
  const s = await env.server.api(`/api/games/${id}`);
  assert.ok(s.seats[0].online && s.seats[1].online);
  assert.deepEqual(ann.errors, []);
  assert.deepEqual(dan.errors, []);
  await ann.context.close();
  await dan.context.close();
});

test('pass and play without secrets: two Abalone players at one screen, no pass screen, then a rematch', async () => {
  const p = await newPlayer(env.browser, { name: 'Ann' });
  const { page } = p;
  await page.goto(env.server.url + '/');
  await page.locator('.game-card[data-game="abalone"]').click();
  await page.locator('select[name="seat-1"]').waitFor();
  await page.locator('select[name="seat-0"]').selectOption('me');
  await page.locator('select[name="seat-1"]').selectOption('here');
  await page.locator('input[name="here-name-1"]').fill('Bob');
  await page.locator('[data-action="create"]').click();
  await page.waitForURL(/\/game\//);
  const id = gameId(page);
  // Whether row A is drawn below row I (read in one go: the board is drawn anew at each turn).
  const aBelowI = () => page.evaluate(() => {
    const y = (c) => document.querySelector(`svg.board [data-id="${c}"]`).getBoundingClientRect().y;
    return y('a1') > y('i5');
  });
  for (let ply = 0; ply < 4; ply++) {
    await until(async () => (await page.locator('.moves li').count()) === ply, `the page to show move ${ply}`);
    const s = await env.server.api(`/api/games/${id}`);
    assert.equal(s.to_move, ply % 2);
    await page.locator('.turn.big.mine').waitFor();
    assert.match(await page.locator('.turn.big.mine').innerText(), ply % 2 ? /White \(Bob\)/ : /Black \(Ann\)/);
    // No secret, no pass screen; the board keeps its side (row A at the bottom) for both.
    assert.equal(await page.locator('[data-pass]:not(.hidden)').count(), 0);
    assert.ok(await aBelowI(), 'row A at the bottom');
    await playByClicks(page, env.server, id);
  }
  await until(async () => (await page.locator('.moves li').count()) === 4, 'the page to show move 4');
  // The player to move resigns; the rematch asked once for both seats at this screen.
  await page.locator('[data-action="resign"]').click();
  await page.locator('[data-action="resign"].confirm').click();
  await page.locator('[data-action="rematch"]').click();
  await page.locator('[data-action="to-rematch"]').click();
  await page.waitForURL((u) => !u.pathname.endsWith(id));
  const next = gameId(page);
  const list = await page.evaluate((gid) => JSON.parse(localStorage.getItem('plateau.local'))[gid], next);
  assert.equal(list.length, 2);
  const r = await env.server.api(`/api/games/${next}`);
  assert.equal(r.status, 'live');
  assert.equal(r.rematch_of, id);
  // The seats swapped: Bob plays Black now, at the same screen.
  assert.deepEqual(r.seats.map((x) => x.player), ['Bob', 'Ann']);
  await page.locator('.turn.big.mine').waitFor();
  assert.match(await page.locator('.turn.big.mine').innerText(), /Black \(Bob\)/);
  await playByClicks(page, env.server, next);
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

test('pass and play when logged in: the account holds its seat, the others at the screen are guests', async () => {
  const p = await newPlayer(env.browser);
  const { page } = p;
  await signUp(p, env.server.url, 'hostess');
  await page.goto(env.server.url + '/');
  await page.locator('.game-card[data-game="colorito"]').click();
  await page.locator('select[name="seat-1"]').waitFor();
  await page.locator('select[name="seat-0"]').selectOption('me');
  await page.locator('select[name="seat-1"]').selectOption('here');
  await page.locator('[data-action="create"]').click();
  await page.waitForURL(/\/game\//);
  const id = gameId(page);
  const s = await env.server.api(`/api/games/${id}`);
  assert.equal(s.status, 'live');
  assert.equal(s.rated, false);
  assert.equal(s.seats[0].account, 'hostess');
  assert.ok(!s.seats[1].account, 'the other seat is a guest\'s');
  assert.equal(s.seats[1].player, 'Player 2');
  // Both seats are played from this page.
  for (let ply = 0; ply < 2; ply++) {
    await until(async () => (await page.locator('.moves li').count()) === ply, `the page to show move ${ply}`);
    await page.locator('.turn.big.mine').waitFor();
    await playByClicks(page, env.server, id);
  }
  assert.deepEqual(p.errors, []);
  await p.context.close();
});
