// Accounts in the browser (issue 15): the header's account area, signing up,
// logging out and in, changing the password, personal access tokens, a
// player's page, the leaderboard and "My games", in English and in French, on
// a desktop and on a phone width. The pages are reached by the links of the
// interface (no reload), as a person would.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, until, shot } from '../lib.js';

const env = serverAndBrowser();

const header = (page) => page.locator('header.top');
const account = (page, what) => page.locator(`#account [data-account="${what}"]`);

/** Fill and send the log in or sign-up form of the page shown. */
async function sendCredentials(page, name, password, confirm = password) {
  await page.locator('form input[name="name"]').fill(name);
  await page.locator('form input[name="password"]').fill(password);
  if (await page.locator('form input[name="confirm"]').count()) await page.locator('form input[name="confirm"]').fill(confirm);
  await page.locator('form button[type="submit"]').click();
}

/** The error line of a form, once it shows something. */
async function formError(page, form = 'form') {
  const err = page.locator(`${form} .form-error`);
  await until(async () => (await err.isVisible()) && (await err.textContent()).trim() !== '', 'an error under the form');
  return (await err.textContent()).trim();
}

/**
 * Open `path` in a fresh page load. The tests and their pages share one client
 * address, which the server allows 20 requests a second (bursts of 100), and a
 * page load asks for about 30 files: the pause lets the allowance fill up
 * again after the steps before.
 */
async function load(page, path) {
  await new Promise((r) => setTimeout(r, 2500));
  await page.goto(env.server.url + path);
}

/** Whether the server answers `path` (the endpoints of issue 15 may not be there yet). */
test('sign up, log out, log in, change the password, tokens, profile and leaderboard, in English and French', async () => {
  const p = await newPlayer(env.browser);
  await p.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  const { page } = p;
  const name = 'Ann_e2e';
  await load(page, '/');

  // A guest: "Log in" and "Sign up" in the header.
  await account(page, 'login').waitFor();
  assert.equal((await account(page, 'login').textContent()).trim(), 'Log in');
  assert.equal((await account(page, 'signup').textContent()).trim(), 'Sign up');
  assert.equal(await account(page, 'logout').count(), 0);

  // Sign up: passwords that differ are caught before sending; then the account is made.
  await account(page, 'signup').click();
  await page.waitForURL(/\/signup/);
  await page.locator('h1', { hasText: 'Create an account' }).waitFor();
  await sendCredentials(page, name, 'first-pass-1', 'first-pass-2');
  assert.match(await formError(page), /not the same/);
  await sendCredentials(page, 'no', 'first-pass-1');
  assert.match(await formError(page), /3 to 20|name/i, 'the API says what is wrong with the name');
  await shot(page, 'accounts-signup-error');
  await sendCredentials(page, name, 'first-pass-1');
  // Back where the link was followed from: the lobby.
  await page.waitForURL((u) => u.pathname === '/');
  await account(page, 'name').waitFor();
  assert.equal((await account(page, 'name').textContent()).trim(), name);
  assert.equal(await account(page, 'name').getAttribute('href'), `/player/${name}`);
  assert.equal((await account(page, 'logout').textContent()).trim(), 'Log out');
  assert.equal(await account(page, 'login').count(), 0);
  const me = await page.evaluate(() => fetch('/api/session').then((r) => r.json()));
  assert.equal(me.name, name);

  // Log out, then a taken name and a wrong password are refused in words.
  await account(page, 'logout').click();
  await account(page, 'login').waitFor();
  assert.equal(await page.evaluate(() => fetch('/api/session').then((r) => r.status)), 401);
  await account(page, 'signup').click();
  await page.locator('h1', { hasText: 'Create an account' }).waitFor();
  await sendCredentials(page, name.toLowerCase(), 'other-pass-1');
  assert.match(await formError(page), /taken/);
  await page.locator('.account-page a[href^="/login"]').click();
  await page.locator('h1', { hasText: 'Log in' }).waitFor();
  await sendCredentials(page, name, 'wrong-pass-1');
  assert.match(await formError(page), /wrong name or password/);

  // Log in with the keyboard: the name field has the focus, Tab, Enter.
  await page.locator('form input[name="name"]').fill('');
  await page.locator('form input[name="password"]').fill('');
  await page.locator('form input[name="name"]').focus();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.name), 'password');
  await page.keyboard.type('first-pass-1');
  await page.keyboard.press('Enter');
  await account(page, 'name').waitFor();
  assert.equal((await account(page, 'name').textContent()).trim(), name);

  // The account page: change the password (a wrong old one is refused).
  await account(page, 'settings').click();
  await page.waitForURL(/\/account$/);
  const pw = page.locator('form[data-form="password"]');
  await pw.waitFor();
  await pw.locator('input[name="old"]').fill('not-my-password');
  await pw.locator('input[name="new"]').fill('second-pass-2');
  await pw.locator('input[name="new-again"]').fill('second-pass-2');
  await pw.locator('button[type="submit"]').click();
  assert.match(await formError(page, 'form[data-form="password"]'), /old password is wrong/);
  await pw.locator('input[name="old"]').fill('first-pass-1');
  await pw.locator('button[type="submit"]').click();
  await until(async () => /password is changed/.test(await pw.locator('.ok').textContent()), 'the password to be changed');
  assert.equal(await pw.locator('input[name="old"]').inputValue(), '');

  // A personal access token: created with a label, shown once with a warning and a copy button.
  const tf = page.locator('form[data-form="token"]');
  await tf.locator('input[name="label"]').fill('e2e bot');
  await tf.locator('button[type="submit"]').click();
  const fresh = page.locator('.new-token');
  await fresh.waitFor();
  const secret = await fresh.locator('input').inputValue();
  assert.match(secret, /^pat_[\w-]{43}$/);
  assert.match(await fresh.locator('.warning').textContent(), /only this once/);
  await fresh.locator('[data-action="copy-token"]').click();
  await page.locator('.toast', { hasText: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
  await until(async () => (await page.locator('.token-list li').count()) === 1, 'the token to be listed');
  assert.match(await page.locator('.token-list li').textContent(), /e2e bot/);
  // The token acts as the account.
  assert.equal((await env.server.api('/api/session', { token: secret })).name, name);
  await shot(page, 'accounts-token-created');
  // "I have copied it" hides the secret for good.
  await fresh.locator('button', { hasText: 'I have copied it' }).click();
  assert.equal(await page.locator('.new-token').count(), 0);
  assert.equal(await page.locator(`input[value="${secret}"]`).count(), 0);

  // Revoke it: a first click asks, a second revokes; the token no longer works.
  const revoke = page.locator('.token-list [data-action="revoke"]');
  await revoke.click();
  assert.match(await revoke.textContent(), /Click again/);
  await revoke.click();
  await page.locator('[data-state="no-tokens"]').waitFor();
  await assert.rejects(env.server.api('/api/session', { token: secret }), /401/);

  // The password changed: log out, log in with the new one.
  await account(page, 'logout').click();
  await account(page, 'login').click();
  await page.locator('h1', { hasText: 'Log in' }).waitFor();
  await sendCredentials(page, name, 'second-pass-2');
  await account(page, 'name').waitFor();

  // The profile, from the name in the header.
  await account(page, 'name').click();
  await page.waitForURL(new RegExp(`/player/${name}$`));
  await page.locator(`.profile[data-player="${name}"] h1`, { hasText: name }).waitFor();
  assert.match(await page.locator('.profile-head').textContent(), /Member since/);
  await page.locator('.profile-head a[href="/account"]').waitFor();
  await shot(page, 'accounts-profile');

  // The leaderboard: a tab per game of the catalogue; the page says what it has.
  await header(page).locator('a[href="/leaderboard"]').click();
  await page.waitForURL(/\/leaderboard/);
  const tabs = page.locator('.leaderboard-page [role="tab"]');
  await tabs.first().waitFor();
  const catalog = (await env.server.api('/api/catalog')).games;
  assert.equal(await tabs.count(), catalog.length);
  await page.locator('#leaderboard-panel :is(table.leaderboard, [data-state])').first().waitFor();
  // The arrow keys move between the tabs.
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  await until(async () => (await tabs.nth(1).getAttribute('aria-selected')) === 'true', 'the second tab to be picked');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.tab), catalog[1].name);
  await page.waitForURL(new RegExp(`/leaderboard/${catalog[1].name}$`));
  await page.locator('#leaderboard-panel h2', { hasText: catalog[1].title }).waitFor();
  await shot(page, 'accounts-leaderboard');

  // "My games" from the header.
  await account(page, 'games').click();
  await page.waitForURL(/\/games$/);
  await page.locator('.my-games h1', { hasText: 'My games' }).waitFor();
  await page.locator('.my-games :is([data-section="live"], [data-state])').first().waitFor();

  // In French: the header, the leaderboard, the profile, the account page, the log in page.
  await page.locator('header [data-lang="fr"]').click();
  await until(async () => (await account(page, 'logout').textContent()).trim() === 'Se déconnecter', 'the header in French');
  assert.equal((await account(page, 'games').textContent()).trim(), 'Mes parties');
  assert.equal((await header(page).locator('a[href="/leaderboard"]').textContent()).trim(), 'Classement');
  await page.locator('.my-games h1', { hasText: 'Mes parties' }).waitFor();
  await header(page).locator('a[href="/leaderboard"]').click();
  await page.locator('.leaderboard-page h1', { hasText: 'Classement' }).waitFor();
  await page.locator('#leaderboard-panel .help', { hasText: 'Seuls les classements établis' }).waitFor();
  await account(page, 'name').click();
  await page.locator('.profile-head', { hasText: 'Membre depuis' }).waitFor();
  await page.locator('.profile-head a', { hasText: 'Réglages du compte' }).click();
  await page.locator('.account-page h2', { hasText: 'Changer le mot de passe' }).waitFor();
  await page.locator('.account-page h2', { hasText: 'Jetons d’accès personnels' }).waitFor();
  await shot(page, 'accounts-account-fr');
  await account(page, 'logout').click();
  await account(page, 'login').waitFor();
  assert.equal((await account(page, 'login').textContent()).trim(), 'Se connecter');
  await account(page, 'login').click();
  await page.locator('h1', { hasText: 'Connexion' }).waitFor();
  await sendCredentials(page, name, 'first-pass-1');
  assert.match(await formError(page), /Nom ou mot de passe incorrect/);
  await page.locator('header [data-lang="en"]').click();

  assert.deepEqual(p.errors, []);
  await p.context.close();
});

test('on a phone: the header and the account pages fit the width; a guest is asked to log in', async () => {
  const p = await newPlayer(env.browser, { width: 390, height: 844, locale: 'fr-FR' });
  const { page } = p;
  await load(page, '/account');
  // French from the browser's language; a guest is offered to log in.
  await page.locator('[data-state="guest"]', { hasText: 'Connectez-vous' }).waitFor();
  await page.locator('.account-page a[href="/login?next=/account"]').click();
  await page.locator('h1', { hasText: 'Connexion' }).waitFor();
  await page.locator('.account-page a[href^="/signup"]').click();
  await page.locator('h1', { hasText: 'Créer un compte' }).waitFor();
  await sendCredentials(page, 'Bea-phone', 'phone-pass-1');
  // Back to the page that asked.
  await page.waitForURL(/\/account$/);
  await page.locator('form[data-form="token"]').waitFor();
  await account(page, 'name').waitFor();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width} pixels wide`);
  for (const what of ['games', 'name', 'settings', 'logout']) {
    const box = await account(page, what).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${what} is on the screen`);
  }
  await shot(page, 'accounts-phone-account-fr');
  await page.locator('header a[href="/leaderboard"]').click();
  await page.locator('#leaderboard-panel :is(table.leaderboard, [data-state])').first().waitFor();
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
  await shot(page, 'accounts-phone-leaderboard-fr');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

test('a page for a name nobody has says so; the header links follow the session', async () => {
  const p = await newPlayer(env.browser);
  const { page } = p;
  await load(page, '/player/nobody_here');
  await page.locator('[data-state="not-found"]', { hasText: 'There is no player named “nobody_here”' }).waitFor();
  // "Log in" from a page comes back to it.
  assert.equal(await account(page, 'login').getAttribute('href'), `/login?next=${encodeURIComponent('/player/nobody_here')}`);
  await load(page, '/games');
  await page.locator('[data-state="guest"]').waitFor();
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

/** Create a game from the page (with its session, if any) and keep its seat token as the lobby does. */
async function createFromPage(page, body) {
  return page.evaluate(async (b) => {
    const res = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    const r = await res.json();
    if (!res.ok) throw new Error(JSON.stringify(r));
    const all = JSON.parse(localStorage.getItem('plateau.tokens') || '{}');
    all[r.id] = r.token;
    localStorage.setItem('plateau.tokens', JSON.stringify(all));
    return { id: r.id, token: r.token };
  }, body);
}

/** Play the first legal move of the seat of `token` (from the test, over HTTP). */
async function playFirst(id, token) {
  const st = await env.server.api(`/api/games/${id}`, { token });
  assert.ok(st.legal_moves && st.legal_moves.length, `no move for this seat: ${JSON.stringify(st)}`);
  await env.server.api(`/api/games/${id}/action`, { method: 'POST', token, body: { type: 'move', move: st.legal_moves[0], version: st.version } });
}

/** Wait until game `id` has `ply` moves (polled gently). */
async function untilPly(id, ply) {
  for (let i = 0; ; i++) {
    if ((await env.server.api(`/api/games/${id}`)).ply >= ply) return;
    if (i === 100) throw new Error(`game ${id} never reached move ${ply}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Resign a seat of a game against a computer with its token, once both have
 * moved (a rated game ended before every seat moved changes no rating). */
async function resign(game) {
  await playFirst(game.id, game.token);
  await untilPly(game.id, 2);
  await env.server.api(`/api/games/${game.id}/action`, { method: 'POST', token: game.token, body: { type: 'resign' } });
  // Polled gently: the test's requests share the page's allowance per address.
  for (let i = 0; ; i++) {
    if ((await env.server.api(`/api/games/${game.id}`)).status === 'finished') return;
    if (i === 50) throw new Error(`game ${game.id} is not over`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('signing up hands the guest games kept in the browser to the account', async () => {
  const p = await newPlayer(env.browser, { name: 'Cid' });
  const { page } = p;
  await load(page, '/');
  await account(page, 'signup').waitFor();
  const game = await createFromPage(page, { game: 'abalone', seats: [{ kind: 'human' }, { kind: 'computer', player: 'ai:1' }], name: 'Cid' });
  await resign(game);
  // The browser sends its seat tokens when the account is made.
  const claim = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/account/claim');
  await account(page, 'signup').click();
  await page.locator('h1', { hasText: 'Create an account' }).waitFor();
  await sendCredentials(page, 'Cid_claims', 'claim-pass-1');
  const sent = JSON.parse((await claim).postData());
  assert.deepEqual(sent, { games: [{ id: game.id, token: game.token }] });
  await account(page, 'name').waitFor();
  assert.deepEqual(p.errors, []);
  // The game is the account's now: in "My games", finished, lost; and in the profile's results.
  await account(page, 'games').click();
  const item = page.locator(`[data-section="finished"] li[data-id="${game.id}"]`);
  await item.waitFor();
  assert.equal(await item.locator('[data-outcome]').getAttribute('data-outcome'), 'loss');
  await shot(page, 'accounts-my-games-claimed');
  await account(page, 'name').click();
  await page.locator('.game-stats[data-game="abalone"] [data-stat="results"]', { hasText: '0 / 0 / 1' }).waitFor();
  await page.locator(`[data-section="recent"] li[data-id="${game.id}"]`).waitFor();
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

test('a rated game: the profile shows the provisional rating, the chart point links to the game; My games and the computer page', async () => {
  const p = await newPlayer(env.browser);
  const { page } = p;
  await load(page, '/signup');
  await sendCredentials(page, 'Dee_rated', 'rated-pass-1');
  await account(page, 'name').waitFor();
  // A live rated game first, then the finished one.
  const live = await createFromPage(page, { game: 'colorito', rated: true, seats: [{ kind: 'computer', player: 'ai:1' }, { kind: 'human' }] });
  const game = await createFromPage(page, { game: 'abalone', rated: true, seats: [{ kind: 'human' }, { kind: 'computer', player: 'ai:1' }] });
  await resign(game);

  await account(page, 'name').click();
  const card = page.locator('.game-stats[data-game="abalone"]');
  await card.waitFor();
  // One rated game: a provisional rating, marked "?" with its explanation.
  const rating = card.locator('[data-stat="rating"] .rating');
  assert.match(await rating.textContent(), /^\d+\?$/);
  assert.match(await rating.getAttribute('title'), /Provisional/);
  assert.equal((await card.locator('[data-stat="games"] .stat-value').textContent()).trim(), '1');
  assert.match(await card.locator('[data-stat="rd"] .stat-value').textContent(), /^\d+$/);
  assert.equal((await card.locator('[data-stat="results"] .stat-value').textContent()).replace(/\s+/g, ' ').trim(), '0 / 0 / 1');
  // The chart: rating ticks, and one point that says its rating and links to the game.
  const chart = card.locator('svg.rating-chart');
  assert.ok((await chart.locator('.axes text').count()) >= 3);
  const point = chart.locator(`a[href="/game/${game.id}"]`);
  assert.equal(await point.count(), 1);
  assert.match(await point.locator('title').textContent(), /\d+ \(RD \d+\)/);
  // The recent games: the game, lost, its rating change with a sign.
  const recent = page.locator(`[data-section="recent"] li[data-id="${game.id}"]`);
  assert.equal(await recent.locator('[data-outcome]').getAttribute('data-outcome'), 'loss');
  assert.match(await recent.locator('.delta').textContent(), /^[−-]\d+$/);
  assert.match(await recent.locator('.opponents').textContent(), /computer, level 1/);
  await shot(page, 'accounts-profile-rated');
  // In French, the provisional mark and the words follow.
  await page.locator('header [data-lang="fr"]').click();
  await card.locator('.stat-label', { hasText: 'Classement' }).waitFor();
  assert.match(await card.locator('[data-stat="rating"] .rating').getAttribute('title'), /provisoire/);
  assert.equal((await recent.locator('[data-outcome]').textContent()).trim(), 'Défaite');
  await shot(page, 'accounts-profile-rated-fr');
  await page.locator('header [data-lang="en"]').click();
  // The point is a link for the keyboard too.
  await card.locator('svg.rating-chart a').focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`/game/${game.id}$`));

  // My games: the live rated game, then the finished one with its change.
  await account(page, 'games').click();
  const liveItem = page.locator(`[data-section="live"] li[data-id="${live.id}"]`);
  await liveItem.waitFor();
  const done = page.locator(`[data-section="finished"] li[data-id="${game.id}"]`);
  await done.waitFor();
  assert.match(await done.locator('.delta').textContent(), /^[−-]\d+$/);
  // Colorito's computer moves first: once it has, the badge says it is our turn.
  await until(async () => {
    await page.locator('[data-action="refresh"]').click();
    return (await liveItem.locator('[data-your-turn]').count()) === 1;
  }, 'the "Your turn" badge', 30000);
  assert.equal((await liveItem.locator('[data-your-turn]').textContent()).trim(), 'Your turn');
  await shot(page, 'accounts-my-games');

  // The computer level is a player with a page of its own.
  await liveItem.locator('.opponents a', { hasText: 'computer, level 1' }).click();
  await page.waitForURL(/\/player\/computer-1$/);
  await page.locator('.profile-head [data-computer="true"]', { hasText: 'Computer' }).waitFor();
  await page.locator('.game-stats[data-game="abalone"]').waitFor();
  // Its page offers a game against it (no challenge: it answers at once).
  await page.locator('[data-action="challenge"]', { hasText: 'Play this level' }).click();
  await page.locator('form.challenge-form select[name="challenge-game"]').selectOption('abalone');
  await page.locator('[data-action="send-challenge"]').click();
  await page.waitForURL(/\/game\/[A-Za-z0-9_-]+$/);
  const newGame = page.url().split('/').pop();
  const st = await env.server.api(`/api/games/${newGame}`);
  assert.equal(st.rated, true);
  assert.equal(st.seats[1].spec, 'ai:1');
  assert.equal(st.seats[0].account, 'Dee_rated');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

/** Make accounts from a page of their own, each with a personal access token for the test's API calls. */
async function accountsWithTokens(names) {
  const p = await newPlayer(env.browser);
  await load(p.page, '/rules');
  const out = {};
  for (const name of names) {
    out[name] = await p.page.evaluate(async (n) => {
      const post = (path, body) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        .then(async (r) => { const d = await r.json(); if (!r.ok) throw new Error(JSON.stringify(d)); return d; });
      await post('/api/accounts', { name: n, password: `${n}-password` });
      return (await post('/api/account/tokens', { label: 'e2e' })).token;
    }, name);
  }
  await p.context.close();
  return out;
}

test('the leaderboard ranks settled ratings; a long history draws one point a game', async () => {
  const tok = await accountsWithTokens(['Lea_top', 'Max_top']);
  // Rated games between two accounts (Max resigns three in four) until both ratings are settled.
  const ids = [];
  let board;
  do {
    const i = ids.length;
    const g = await env.server.api('/api/games', { method: 'POST', token: tok.Lea_top, body: { game: 'abalone', rated: true } });
    const j = await env.server.api(`/api/games/${g.id}/join`, { method: 'POST', token: tok.Max_top, body: {} });
    // Each moves once (a game ended before that is not rated), then one resigns.
    await playFirst(g.id, g.token);
    await playFirst(g.id, j.token);
    const loser = i % 4 === 3 ? g.token : j.token;
    await env.server.api(`/api/games/${g.id}/action`, { method: 'POST', token: loser, body: { type: 'resign' } });
    ids.push(g.id);
    // At a pace under the server's requests per address, to keep the page's share.
    await new Promise((r) => setTimeout(r, 250));
    board = ids.length >= 12 ? await env.server.api('/api/leaderboard/abalone') : { players: [] };
  } while (board.players.length < 2 && ids.length < 40);
  assert.deepEqual(board.players.map((x) => x.name), ['Lea_top', 'Max_top'], 'both ratings settled');
  const n = ids.length;
  const losses = Math.floor(n / 4);

  const p = await newPlayer(env.browser);
  const { page } = p;
  await load(page, '/leaderboard/abalone');
  const rows = page.locator('table.leaderboard tbody tr');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 2);
  assert.equal(await rows.nth(0).getAttribute('data-player'), 'Lea_top');
  const cells = await rows.nth(0).locator('td').allTextContents();
  assert.equal(cells[0], '1');
  assert.equal(cells[2], String(Math.round(board.players[0].rating)));
  assert.equal(cells[4], String(n));
  await shot(page, 'accounts-leaderboard-ranked');
  // Another game's tab is empty, and says so; back to Abalone with the keyboard.
  await page.locator('[role="tab"][data-tab="kabaleo"]').click();
  await page.locator('#leaderboard-panel [data-state="empty"]').waitFor();
  await page.keyboard.press('Home');
  await rows.first().waitFor();

  // The leader's page, from the board: a settled rating (no "?"), a point for each game, linking to it.
  await rows.nth(0).locator('a[href="/player/Lea_top"]').click();
  const card = page.locator('.game-stats[data-game="abalone"]');
  await card.waitFor();
  assert.match(await card.locator('[data-stat="rating"] .rating').textContent(), /^\d+$/);
  assert.equal(await card.locator('[data-stat="rating"] .rating').getAttribute('title'), null);
  assert.equal((await card.locator('[data-stat="results"] .stat-value').textContent()).replace(/\s+/g, ' ').trim(), `${n - losses} / 0 / ${losses}`);
  const points = card.locator('svg.rating-chart .points a');
  assert.equal(await points.count(), n);
  for (const [i, id] of ids.entries()) assert.equal(await points.nth(i).getAttribute('href'), `/game/${id}`);
  const ticks = (await card.locator('svg.rating-chart .axes text').allTextContents()).filter((x) => /^\d+$/.test(x)).map(Number);
  assert.ok(ticks.length >= 3 && ticks.every((v, i) => i === 0 || v > ticks[i - 1]), `rating ticks ${ticks}`);
  assert.equal(await page.locator('[data-section="recent"] li').count(), Math.min(n, 20));
  await shot(page, 'accounts-profile-history');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});
