// Keyboard and screen readers, typed moves, translated names (issue 22):
// - an Abalone game against the computer, created in the lobby and played to
//   a push-out by the keyboard alone (no pointer or mouse event reaches the
//   page): Tab to the board, arrows over the hexagonal grid, Space to select,
//   Enter to play; the last move is announced in a live region;
// - a Colorito move typed in the notation field (and a wrong one refused);
// - the French lobby shows no identifier where a translated name exists.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer, myTurn, until, shot, switchLanguage } from '../lib.js';

const env = serverAndBrowser();

/** Press Tab until the focused element matches `selector` (at most `max` presses). */
async function tabTo(page, selector, max = 120) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((sel) => !!document.activeElement && document.activeElement.matches(sel), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Whether the focused element shows its focus (an outline, or the board's highlight). */
async function focusVisible(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return false;
    const st = getComputedStyle(el);
    if (st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0) return true;
    const hl = el.querySelector && el.querySelector('.hl');
    return !!hl && getComputedStyle(hl).stroke !== 'none';
  });
}

// The test's own model of the board's keys (the hexagonal grid, Black's side
// down): cell (row 0-8 for a-i, number 1-9) and the step of each key.
const ROWS = 'abcdefghi';
const onBoard = (r, n) => r >= 0 && r < 9 && n >= Math.max(1, r - 3) && n <= Math.min(9, r + 5);
const KEYS = [
  ['ArrowLeft', 0, -1], ['ArrowRight', 0, 1], ['ArrowUp', 1, 0], ['Shift+ArrowUp', 1, 1],
  ['ArrowDown', -1, 0], ['Shift+ArrowDown', -1, -1],
];
const cell = (id) => [ROWS.indexOf(id[0]), Number(id.slice(1))];
const hexDistance = ([r1, n1], [r2, n2]) => {
  const dr = r2 - r1;
  const dn = n2 - n1;
  return (Math.abs(dr) + Math.abs(dn) + Math.abs(dr - dn)) / 2;
};

const focusedId = (page) => page.evaluate(() => document.activeElement && document.activeElement.getAttribute('data-id'));

/** Move the board's focus to `target` with the arrow keys, checking each step lands where the model says. */
async function arrowTo(page, target) {
  for (let guard = 0; guard < 20; guard++) {
    const at = await focusedId(page);
    assert.ok(at, 'the focus is on the board');
    if (at === target) return;
    const [r, n] = cell(at);
    const d = hexDistance([r, n], cell(target));
    const step = KEYS.find(([, dr, dn]) => onBoard(r + dr, n + dn) && hexDistance([r + dr, n + dn], cell(target)) < d);
    await page.keyboard.press(step[0]);
    assert.equal(await focusedId(page), `${ROWS[r + step[1]]}${n + step[2]}`, `${step[0]} from ${at}`);
  }
  throw new Error(`could not reach ${target}`);
}

/** Make the move of gesture `g` by keyboard: each selected marble (Space), then the target (Enter). */
async function keyMove(p, g) {
  const before = p.state.ply;
  for (const id of g.select) {
    await arrowTo(p.page, id);
    await p.page.keyboard.press('Space');
    await p.page.locator(`svg.board [data-id="${id}"].selected`).waitFor();
  }
  await arrowTo(p.page, g.targets[0]);
  assert.match(await p.page.evaluate(() => document.activeElement.getAttribute('aria-label')), /destination/);
  await p.page.keyboard.press('Enter');
  await until(() => p.state.ply > before, `${g.move} to be played`);
}

// Black: c3 (free to wander), f6, h8, h9, i8 around White's i9, which cannot
// move; White's a5 is far. Once f6 steps to g7, g7-h8 pushes i9 out: one
// marble wins.
const POSITION = '3bw/4bb/7/4b3/9/8/2b4/6/4w b 0 0';

test('abalone against the computer, by the keyboard alone, to a push-out', async () => {
  const p = await newPlayer(env.browser, { name: 'Kim' });
  const { page } = p;
  // Count every pointer and mouse event the page receives.
  await page.addInitScript(() => {
    window.__pointer = 0;
    for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'mousemove', 'pointermove']) {
      window.addEventListener(type, () => { window.__pointer += 1; }, true);
    }
  });
  await page.goto(env.server.url + '/');
  // The lobby by keyboard: the game's card, the options, the seats, the button.
  await tabTo(page, '.game-card[data-game="abalone"]');
  assert.ok(await focusVisible(page), 'the focused card shows it');
  await page.keyboard.press('Enter');
  await page.locator('.game-card[data-game="abalone"][aria-pressed="true"]').waitFor();
  await tabTo(page, 'details.options > summary');
  await page.keyboard.press('Enter');
  await tabTo(page, 'input[name="opt-position"]');
  await page.keyboard.type(POSITION);
  await tabTo(page, 'input[name="opt-marbles-to-win"]');
  await page.keyboard.type('1');
  await tabTo(page, 'select[name="seat-1"]');
  // A select takes its value from the keyboard (no pointer): the first computer level.
  await page.locator('select[name="seat-1"]').selectOption('ai:1');
  await tabTo(page, '[data-action="create"]:not([disabled])');
  assert.ok(await focusVisible(page), 'the focused button shows it');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/game\//);
  await until(() => p.state && p.state.status === 'live', 'the game');

  // The board: one stop of the Tab key, described to assistive technology.
  await myTurn(p);
  await tabTo(page, 'svg.board [data-id]');
  assert.equal(await page.locator('svg.board').getAttribute('role'), 'group');
  assert.match(await page.locator('svg.board').getAttribute('aria-label'), /Abalone/);
  assert.equal(await page.locator('svg.board [data-id="f6"]').getAttribute('aria-label'), 'F6: black marble, can be selected');
  assert.equal(await page.locator('svg.board [data-id="i9"]').getAttribute('aria-label'), 'I9: white marble');
  assert.equal(await page.locator('svg.board [data-id="e5"]').getAttribute('aria-label'), 'E5: empty');
  assert.equal(await page.locator('svg.board [tabindex="0"]').count(), 1, 'one element of the board in the Tab order');
  assert.ok(await focusVisible(page), 'the focused cell shows it');
  // Escape clears a selection.
  await arrowTo(page, 'c3');
  await page.keyboard.press('Space');
  await page.locator('svg.board [data-id="c3"].selected').waitFor();
  await page.keyboard.press('Escape');
  await until(async () => (await page.locator('svg.board .selected').count()) === 0, 'the selection cleared');

  // Two quiet moves of the wandering marble, then f6 to g7, then the push.
  let wanderer = 'c3';
  const plan = ['quiet', 'quiet', 'f6g7', 'g7h8'];
  for (const step of plan) {
    await myTurn(p);
    // The focus stayed on the board while it was drawn anew (the move, the computer's answer).
    assert.ok(await page.evaluate(() => !!document.activeElement && !!document.activeElement.closest('svg.board')), 'the focus is still on the board');
    let g;
    if (step === 'quiet') {
      g = p.legal.find((m) => m.select.length === 1 && m.select[0] === wanderer && m.targets[0] !== 'g7');
      wanderer = g.targets[0];
    } else {
      g = p.legal.find((m) => m.move === step);
      assert.ok(g, `${step} is legal: ${p.legal.map((m) => m.move).join(' ')}`);
    }
    await keyMove(p, g);
    if (step !== 'g7h8') {
      // The computer answers, and the live region says so.
      await until(() => p.state.to_move === p.state.you || p.state.status !== 'live', 'the computer to answer');
      await until(async () => /White .*played/.test(await page.locator('[data-announce]').innerText()), 'the computer\'s move announced');
    }
  }
  await until(() => p.state.status === 'finished', 'the end');
  await page.locator('.result').getByText('You win').waitFor();
  assert.equal(await page.locator('svg.board [data-pushed="0"]').count(), 1, 'one white marble pushed out');
  assert.match(await page.locator('[data-announce]').innerText(), /played g7h8/);
  await shot(page, 'abalone-keyboard-pushout');
  assert.equal(await page.evaluate(() => window.__pointer), 0, 'no pointer or mouse event');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

test('colorito: a move typed in the notation field', async () => {
  const p = await newPlayer(env.browser, { name: 'Lou' });
  const { page } = p;
  await page.goto(env.server.url + '/');
  await page.locator('.game-card[data-game="colorito"]').click();
  await page.locator('select[name="seat-1"]').waitFor();
  await page.locator('select[name="seat-0"]').selectOption('me');
  await page.locator('select[name="seat-1"]').selectOption('ai:1');
  await page.locator('[data-action="create"]').click();
  await page.waitForURL(/\/game\//);
  await myTurn(p);
  const input = page.locator('form[data-notation] input[name="move"]');
  // The field offers the legal moves.
  assert.equal(await page.locator('form[data-notation] datalist option').count(), p.legal.length);
  // A text that names no legal move is refused on the page.
  await input.fill('zz99');
  await input.press('Enter');
  await page.locator('.toast.error').getByText('is not a legal move here').waitFor();
  assert.equal(p.state.ply, 0);
  // A legal move, typed as its notation says (spaces around it are fine).
  const mv = p.legal[Math.floor(p.legal.length / 2)].move;
  await input.fill(`  ${mv} `);
  await input.press('Enter');
  await until(() => p.state.ply >= 1, 'the typed move to be played');
  assert.equal(await page.locator('.moves li').first().innerText(), mv);
  await until(() => p.state.to_move === p.state.you || p.state.status !== 'live', 'the computer to answer');
  await shot(page, 'colorito-typed-move');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

test('the French lobby names variants, options and values in French', async () => {
  const cat = (await env.server.api('/api/catalog')).games;
  const p = await newPlayer(env.browser, { locale: 'fr-FR' });
  const { page } = p;
  await page.goto(env.server.url + '/');
  await switchLanguage(page, 'fr');
  for (const g of cat) {
    await page.locator(`.game-card[data-game="${g.name}"]`).click();
    if (!(await page.locator('details.options').evaluate((d) => d.open))) await page.locator('details.options > summary').click();
    await page.locator(`label[data-option="${g.options[0].name}"]`).waitFor();
    // Every variant and every choice value has a French name (hand-written in
    // names.js): an identifier shown is one the interface should have named.
    const ids = new Set([
      ...g.variants.map((v) => v.name),
      ...g.options.map((o) => o.name),
      ...g.options.flatMap((o) => (o.kind.type === 'choice' ? o.kind.values : [])),
    ]);
    const shown = await page.evaluate(() => {
      const form = document.querySelector('.lobby section.panel');
      const out = [];
      for (const el of form.querySelectorAll('select option, label.field > span, [data-option] > span')) out.push(el.textContent.trim());
      for (const el of form.querySelectorAll('input[placeholder]')) out.push(el.getAttribute('placeholder'));
      return out;
    });
    for (const text of shown) {
      assert.ok(!ids.has(text), `${g.name}: the identifier "${text}" is shown in the French lobby`);
      for (const id of ids) {
        // Not inside a sentence either ("Par défaut : belgian-daisy").
        if (id.includes('-')) assert.ok(!text.includes(id), `${g.name}: "${text}" shows the identifier ${id}`);
      }
    }
  }
  // Names checked by hand.
  await page.locator('.game-card[data-game="abalone"]').click();
  const variants = await page.locator('select[name="variant"] option').allInnerTexts();
  assert.ok(variants.includes('Marguerite belge'), variants.join(', '));
  assert.equal(await page.locator('label[data-option="marbles-to-win"] > span').innerText(), 'Billes à éjecter pour gagner');
  await page.locator('.game-card[data-game="abraxas"]').click();
  const removal = await page.locator('select[name="opt-removal"] option').allInnerTexts();
  assert.ok(removal.includes('Les pierres retirées ne se touchent pas'), removal.join(', '));
  // The identifiers stay in what is sent: the select's values.
  assert.deepEqual(await page.locator('select[name="opt-removal"] option').evaluateAll((os) => os.map((o) => o.value)),
    ['', 'remaining-not-adjacent', 'removed-not-adjacent']);
  await shot(page, 'lobby-french-names');
  assert.deepEqual(p.errors, []);
  await p.context.close();
});

test('the lobby\'s lists by keyboard: one tab stop, the arrows between the tabs', async () => {
  const p = await newPlayer(env.browser);
  const { page } = p;
  await page.goto(env.server.url + '/');
  await page.locator('[data-tab="open"]').waitFor();
  await tabTo(page, '[role="tab"][aria-selected="true"]');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.tab), 'open');
  assert.ok(await focusVisible(page));
  await page.keyboard.press('ArrowRight');
  await page.locator('[data-tab="live"][aria-selected="true"]').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.tab), 'live');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.locator('[data-tab="finished"][aria-selected="true"]').waitFor();
  assert.equal(await page.locator('[role="tab"][tabindex="0"]').count(), 1);
  assert.deepEqual(p.errors, []);
  await p.context.close();
});
