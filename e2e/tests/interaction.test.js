// The shared interaction module alone, in the browser, on a made-up board:
// what is selectable, what the selection allows, buttons for ids that are not
// on the board, and that only a legal move is ever sent.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPlayer } from '../lib.js';

const env = serverAndBrowser();

test('interaction: select, then a target; several choices step by step; buttons off the board', async () => {
  const p = await newPlayer(env.browser);
  await p.page.goto(env.server.url + '/rules');
  const out = await p.page.evaluate(async () => {
    const { Interaction } = await import('/assets/js/interact.js');
    const NS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 10 1');
    for (const id of ['a', 'b', 'c', 'x', 'y', 'z']) {
      const g = document.createElementNS(NS, 'g');
      g.setAttribute('data-id', id);
      svg.append(g);
    }
    document.body.append(svg);
    const bar = document.createElement('div');
    const hint = document.createElement('div');
    document.body.append(bar, hint);
    const sent = [];
    const it = new Interaction({ bar, hint, onMove: (m) => sent.push(m), label: (id) => `L:${id}`, t: (k) => k });
    it.attach(svg);
    // a alone to x; a and b together to x or y; c to z; a click on z; pass.
    it.setLegal([
      { move: 'ax', select: ['a'], targets: ['x'] },
      { move: 'abx', select: ['a', 'b'], targets: ['x', 'y'] },
      { move: 'cz', select: ['c'], targets: ['z'] },
      { move: 'z', select: [], targets: ['z'] },
      { move: 'stop-y', select: ['stop'], targets: ['y'] },
      { move: 'pass', select: [], targets: ['pass'] },
    ]);
    const classes = () => Object.fromEntries([...svg.querySelectorAll('[data-id]')].map((e) => [e.getAttribute('data-id'), e.getAttribute('class') || '']));
    const buttons = () => [...bar.querySelectorAll('button')].map((b) => `${b.textContent}${b.disabled ? ' (off)' : ''}${b.classList.contains('primary') ? ' (target)' : ''}`);
    const steps = [];
    steps.push({ c: classes(), b: buttons() });
    it.click('x'); // not a target with nothing selected: clears
    it.click('b'); // b starts a selection (a move selects it)
    steps.push({ c: classes(), b: buttons() });
    it.click('a'); // a and b: x or y
    steps.push({ c: classes(), b: buttons() });
    it.click('b'); // back to a alone: x only
    steps.push({ c: classes(), b: buttons() });
    it.click('y'); // y is no target of {a}: cleared, nothing sent
    const afterY = sent.slice();
    it.click('a');
    it.click('x');
    return { steps, afterY, sent, busy: it.busy };
  });
  const [start, b, ab, a] = out.steps;
  // At the start: a, b, c selectable; z is a target of the empty selection.
  assert.match(start.c.a, /selectable/);
  assert.match(start.c.b, /selectable/);
  assert.match(start.c.c, /selectable/);
  assert.match(start.c.z, /target/);
  assert.doesNotMatch(start.c.x, /target|selectable/);
  assert.deepEqual(start.b, ['L:stop', 'L:pass (target)']);
  // b selected: a may be added; no target yet.
  assert.match(b.c.b, /selected/);
  assert.match(b.c.a, /selectable/);
  assert.doesNotMatch(b.c.c, /selectable/);
  assert.doesNotMatch(b.c.x, /target/);
  // a and b: x and y are targets.
  assert.match(ab.c.x, /target/);
  assert.match(ab.c.y, /target/);
  // a alone: x only, and b may be added again.
  assert.match(a.c.x, /target/);
  assert.doesNotMatch(a.c.y, /target/);
  assert.match(a.c.b, /selectable/);
  assert.deepEqual(out.afterY, []);
  assert.deepEqual(out.sent, ['ax']);
  assert.equal(out.busy, true);
  await p.context.close();
});
