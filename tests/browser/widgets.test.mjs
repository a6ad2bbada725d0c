// The chapter's seven widgets in Chromium (demo chapter of the built site): each is driven by mouse and
// keyboard, and what it shows is checked against the same computation run by the core in Node. Saves a
// screenshot of each widget to build/screenshots/ and prints the update time per interaction it measured.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { init } from 'tensorpad';
import os from 'node:os';
import { root, dist, launch, openPage, typeInto, waitForState } from './helpers.mjs';
import { createServer } from '../../web/server.mjs';
import { analyse } from '../../web/widgets/grid2x2.js';
import { approximate } from '../../web/widgets/rank-image.js';
import { spectra } from '../../web/widgets/sv-decay.js';
import { attend } from '../../web/widgets/attention-flow.js';
import { project } from '../../web/widgets/dot-projection.js';
import { energy } from '../../web/widgets/energy-curve.js';
import { rotate } from '../../web/widgets/rotation-quant.js';

const WIDGETS = ['grid2x2', 'rank-image', 'sv-decay', 'attention-flow', 'dot-projection', 'energy-curve', 'rotation-quant'];
const shots = path.join(root, 'build', 'screenshots');
let srv, copy, browser, context, page, log, tp;
const timings = Object.fromEntries(WIDGETS.map((w) => [w, []]));

const W = (name) => page.locator(`[data-testid=widget-${name}]`);
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol * (1 + Math.abs(b)), `${msg}: ${a} vs ${b}`);

/** Waits until the widget finished the update caused by the action; records the time it measured. */
async function interact(name, action) {
  const before = Number(await W(name).getAttribute('data-updates') ?? 0);
  await action();
  await page.waitForFunction(([n, b]) => {
    const el = document.querySelector(`[data-testid=widget-${n}]`);
    return el && Number(el.dataset.updates ?? 0) > b && el.dataset.state === 'ready';
  }, [name, before], { timeout: 30000 });
  timings[name].push(Number(await W(name).getAttribute('data-update-ms')));
}

async function shot(name, file = name) {
  const widget = page.locator(`[data-testid=widget][data-widget=${name}]`);
  await widget.scrollIntoViewIfNeeded();
  await widget.screenshot({ path: path.join(shots, `${file}.png`) });
}

before(async () => {
  fs.mkdirSync(shots, { recursive: true });
  tp = await init();
  // A private copy of the built site, so a rebuild of web/dist during the run cannot pull it away.
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('web/dist is not built: run "node web/build.mjs" first');
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-widgets-'));
  fs.cpSync(dist, copy, { recursive: true });
  const server = createServer(copy);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  srv = { base: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  ({ page, log } = await openPage(context, srv.base));
  await page.goto(`${srv.base}?chapter=demo&lang=en`);
  for (const name of WIDGETS) {
    await page.waitForFunction((n) => {
      const el = document.querySelector(`[data-testid=widget-${n}]`);
      return el && el.dataset.state === 'ready' && Number(el.dataset.updates ?? 0) > 0;
    }, name, { timeout: 60000 });
  }
});

after(async () => {
  // Every update the widgets finished: the first computation at load, and drags (where intermediate positions coalesce).
  const all = await page?.evaluate(() => globalThis.__tpwTimings ?? {}).catch(() => ({})) ?? {};
  for (const [id, t] of Object.entries(all)) {
    const sorted = [...t].sort((a, b) => a - b);
    console.log(`  all updates ${id.replace('widget-', '').padEnd(15)} n=${String(t.length).padStart(3)}  median ${sorted[sorted.length >> 1].toFixed(1)} ms  p90 ${sorted[Math.floor(sorted.length * 0.9)].toFixed(1)} ms`);
  }
  const rows = Object.entries(timings).filter(([, t]) => t.length).map(([name, t]) => {
    const sorted = [...t].sort((a, b) => a - b);
    return `  ${name.padEnd(15)} n=${String(t.length).padStart(2)}  median ${sorted[sorted.length >> 1].toFixed(1)} ms  max ${sorted[sorted.length - 1].toFixed(1)} ms`;
  });
  console.log(`update time per interaction (input event → drawn, measured in the page):\n${rows.join('\n')}`);
  await context?.close();
  await browser?.close();
  await srv?.close();
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

test('every widget renders, has a screen-reader description and raises no console error', async () => {
  for (const name of WIDGETS) {
    const container = page.locator(`[data-testid=widget][data-widget=${name}]`);
    const descId = await container.getAttribute('aria-describedby');
    const text = await page.locator(`#${descId}`).textContent();
    assert.ok(text.length > 40, `${name} describes itself: ${text}`);
    assert.equal(await W(name).locator('.widget-error:not([hidden])').count(), 0, `${name} shows no error`);
  }
  assert.deepEqual(log.foreign, []);
  assert.deepEqual(log.errors, []);
});

test('grid2x2: typed [[2,0],[0,0]] shows determinant 0, [[0,1],[1,0]] shows −1; drag and keys agree with tp', async () => {
  const set = async (m) => {
    for (const [k, v] of Object.entries({ a: m[0][0], b: m[0][1], c: m[1][0], d: m[1][1] })) {
      await interact('grid2x2', () => page.fill(`[data-testid=grid2x2-${k}]`, String(v)));
    }
  };
  await set([[2, 0], [0, 0]]);
  const det = page.locator('[data-testid=grid2x2-det]');
  assert.equal(Number(await det.getAttribute('data-value')), 0);
  assert.match(await det.textContent(), /det M = 0\.000 — .*collapses/);
  assert.equal(tp.linalg.det(tp.tensor([[2, 0], [0, 0]])).item(), 0);
  await shot('grid2x2', 'grid2x2-singular');

  await set([[0, 1], [1, 0]]);
  assert.equal(Number(await det.getAttribute('data-value')), -1);
  assert.match(await det.textContent(), /det M = −1\.000 — .*flips/);
  assert.match(await page.locator('[data-testid=grid2x2-eig]').textContent(), /λ = 1\.000: \(0\.707, 0\.707\); λ = −1\.000: \(0\.707, −0\.707\)/);

  // Keyboard: the tip of î moves by 0.1 per arrow key, 1 with Shift.
  await page.focus('[data-testid=grid2x2-handle-i]');
  await interact('grid2x2', () => page.keyboard.press('ArrowRight'));
  await interact('grid2x2', () => page.keyboard.press('Shift+ArrowUp'));
  let m = JSON.parse(await W('grid2x2').getAttribute('data-matrix'));
  assert.deepEqual(m, [[0.1, 1], [2, 0]]);
  close(Number(await det.getAttribute('data-value')), analyse(tp, m).det, 1e-5, 'det after keys');

  // Mouse: drag the tip of ĵ.
  const handle = page.locator('[data-testid=grid2x2-handle-j]');
  const box = await handle.boundingBox();
  await interact('grid2x2', async () => {
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2 + 45, { steps: 8 });
    await page.mouse.up();
  });
  m = JSON.parse(await W('grid2x2').getAttribute('data-matrix'));
  assert.notDeepEqual(m, [[0.1, 1], [2, 0]], 'dragging ĵ changed the matrix');
  assert.equal(m[0][0], 0.1);
  close(Number(await det.getAttribute('data-value')), analyse(tp, m).det, 1e-5, 'det after drag');

  // Play animates from the identity and ends on M.
  await set([[1, 1], [-1, 1.5]]);
  await page.click('[data-testid=grid2x2-play]');
  await page.waitForTimeout(500);
  await shot('grid2x2', 'grid2x2-playing');
  await page.waitForFunction(() => document.querySelector('[data-testid=grid2x2-play]').textContent.startsWith('Play'), null, { timeout: 5000 });
  await set([[1, 0.5], [0.25, 1.25]]);
  await shot('grid2x2');
});

test('grid2x2: an emptied box is marked invalid and said so; M keeps its last valid entry, shown again on blur', async () => {
  const a = page.locator('[data-testid=grid2x2-a]');
  const note = page.locator('[data-testid=grid2x2-invalid]');
  const before = await W('grid2x2').getAttribute('data-matrix');
  const updates = await W('grid2x2').getAttribute('data-updates');
  await a.fill('');
  assert.equal(await a.getAttribute('aria-invalid'), 'true');
  assert.equal(await a.getAttribute('aria-describedby'), await note.getAttribute('id'));
  assert.ok(await note.isVisible(), 'the message is shown');
  assert.match(await note.textContent(), /^a is not a number: M keeps a = 1\.00$/);
  assert.notEqual(await a.evaluate((el) => getComputedStyle(el).outlineStyle), 'none', 'the box is outlined');
  await page.waitForTimeout(100);
  assert.equal(await W('grid2x2').getAttribute('data-matrix'), before, 'M is unchanged');
  assert.equal(await W('grid2x2').getAttribute('data-updates'), updates, 'nothing was recomputed');
  await shot('grid2x2', 'grid2x2-invalid');
  await page.keyboard.press('Tab');
  assert.equal(await a.inputValue(), '1');
  assert.equal(await a.getAttribute('aria-invalid'), null);
  assert.ok(await note.isHidden());
  // Typing a number again clears the mark and updates M.
  await a.fill('');
  await interact('grid2x2', () => a.fill('1.5'));
  assert.equal(await a.getAttribute('aria-invalid'), null);
  assert.ok(await note.isHidden());
  assert.deepEqual(JSON.parse(await W('grid2x2').getAttribute('data-matrix')), [[1.5, 0.5], [0.25, 1.25]]);
  await interact('grid2x2', () => a.fill('1'));
});

test('rank-image: rank 32 has a smaller error than rank 1, both as tp computes them; the rank reaches the cells', async () => {
  const slider = page.locator('[data-testid=rank-image-k]');
  const errorAt = async () => Number(await page.locator('[data-testid=rank-image-error]').getAttribute('data-value'));
  await slider.focus();
  await interact('rank-image', () => page.keyboard.press('Home'));
  assert.equal(await W('rank-image').getAttribute('data-k'), '1');
  const e1 = await errorAt();
  await shot('rank-image', 'rank-image-k1');
  await interact('rank-image', () => page.keyboard.press('End'));
  assert.equal(await W('rank-image').getAttribute('data-k'), '32');
  const e32 = await errorAt();
  assert.ok(e32 < e1, `error at rank 32 (${e32}) < error at rank 1 (${e1})`);
  close(e1, approximate(tp, { k: 1, rows: 96, cols: 128 }).error, 1e-4, 'rank-1 error');
  close(e32, approximate(tp, { k: 32, rows: 96, cols: 128 }).error, 1e-4, 'rank-32 error');
  assert.equal(await page.locator('[data-testid=rank-image-stored]').getAttribute('data-stored'), String(32 * (96 + 128 + 1)));
  for (let i = 0; i < 5; i++) await interact('rank-image', () => page.keyboard.press('ArrowLeft'));
  assert.equal(await W('rank-image').getAttribute('data-k'), '27');
  // The bars are σ_1 … σ_32, the slider's range: a click on any of them chooses its k.
  const bars = page.locator('[data-testid=rank-image-sigma] rect');
  assert.equal(await bars.count(), Number(await slider.getAttribute('max')), 'one bar per k the slider can choose');
  await interact('rank-image', () => bars.nth(29).click());
  assert.equal(await W('rank-image').getAttribute('data-k'), '30');
  assert.equal(await slider.inputValue(), '30');
  assert.equal(await bars.nth(29).getAttribute('fill'), '#0072b2', 'bar 30 is kept');
  assert.equal(await bars.nth(30).getAttribute('fill'), '#80868b', 'bar 31 is not');
  await interact('rank-image', () => bars.last().click());
  assert.equal(await W('rank-image').getAttribute('data-k'), '32');
  // Mouse: a click on the slider's track.
  const box = await slider.boundingBox();
  await interact('rank-image', () => page.mouse.click(box.x + box.width * 0.3, box.y + box.height / 2));
  const k = Number(await W('rank-image').getAttribute('data-k'));
  assert.ok(k >= 7 && k <= 13, `clicking at 30% of the track chooses a small k (${k})`);
  close(await errorAt(), approximate(tp, { k, rows: 96, cols: 128 }).error, 1e-4, `rank-${k} error`);
  await shot('rank-image');

  // The cell below reads M and rank.
  const id = await page.locator('[data-testid=cell]', { hasText: 'typeof M' }).getAttribute('data-cell-id');
  await page.locator(`[data-testid=cell][data-cell-id="${id}"] .cm-content`).click();
  await page.keyboard.press('Control+Enter');
  await waitForState(page, id);
  const out = await page.locator(`[data-testid=cell][data-cell-id="${id}"] [data-testid=cell-output]`).textContent();
  assert.match(out, new RegExp(`rank\\W+${k}\\b`), out);
  assert.match(out, /\[\[1,0\.5\],\[0\.25,1\.25\]\]/, out);
});

test('sv-decay: the three spectra match tp.linalg.svdvals; size and read-out by keyboard and mouse', async () => {
  await interact('sv-decay', () => page.selectOption('[data-testid=sv-decay-size]', '64'));
  assert.equal(await W('sv-decay').getAttribute('data-n'), '64');
  const ref = spectra(tp, { n: 64, rank: 8, noise: 0.5, ell: 0.1, seed: 7 });
  for (const k of ['lowRank', 'gauss', 'kernel']) {
    const key = `data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-last`;
    close(Number(await W('sv-decay').getAttribute(key)), ref[k][63], 1e-3, `${k} σ_n/σ_1`);
  }
  assert.ok(ref.kernel[40] < ref.lowRank[40] && ref.lowRank[40] < ref.gauss[40], 'kernel falls fastest, Gaussian slowest');
  const plot = page.locator('[data-testid=sv-decay-plot]');
  await plot.focus();
  await page.keyboard.press('End');
  assert.match(await page.locator('[data-testid=sv-decay-readout]').textContent(), /at i = 64/);
  await page.keyboard.press('ArrowLeft');
  assert.match(await page.locator('[data-testid=sv-decay-readout]').textContent(), /at i = 63/);
  const box = await plot.boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
  assert.match(await page.locator('[data-testid=sv-decay-readout]').textContent(), /at i = \d+:/);
  await interact('sv-decay', () => page.selectOption('[data-testid=sv-decay-size]', '128'));
  await interact('sv-decay', () => page.selectOption('[data-testid=sv-decay-size]', '256'));
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.5);
  await shot('sv-decay');
});

test('attention-flow: the bars sum to 1, future tokens get 0; hover, click and arrow keys choose the query', async () => {
  const sum = page.locator('[data-testid=attention-flow-sum]');
  const weights = async () => JSON.parse(await sum.getAttribute('data-weights'));
  const tokens = page.locator('[data-testid=attention-flow-token]');
  const ref = attend(tp, await refArgs());
  for (let q = 0; q < 6; q++) {
    await tokens.nth(q).click();
    assert.equal(await sum.getAttribute('data-query'), String(q));
    const w = await weights();
    close(Number(await sum.getAttribute('data-sum')), 1, 1e-6, `query ${q}: the weights sum to 1`);
    close(w.reduce((a, b) => a + b, 0), 1, 1e-6, `query ${q}: the bars sum to 1`);
    for (let j = q + 1; j < 6; j++) assert.equal(w[j], 0, `query ${q}: future token ${j} gets 0`);
    for (let j = 0; j <= q; j++) close(w[j], ref.weights[q][j], 1e-6, `query ${q}, key ${j}`);
  }
  // "she" reads mostly "Alice".
  const she = await weights();
  assert.ok(she[0] > 0.5, `she → Alice ${she[0]}`);
  assert.match(await page.locator('[data-testid=attention-flow-illustrative]').textContent(), /Illustrative weights/);
  // Keyboard: arrows move the (pinned) query.
  await tokens.nth(5).focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await sum.getAttribute('data-query'), '3');
  assert.deepEqual((await weights()).slice(4), [0, 0]);
  // Hover previews another query; leaving returns to the pinned one.
  await tokens.nth(1).hover();
  assert.equal(await sum.getAttribute('data-query'), '1');
  await page.mouse.move(5, 5);
  assert.equal(await sum.getAttribute('data-query'), '3');
  timings['attention-flow'].push(Number(await W('attention-flow').getAttribute('data-update-ms')));
  // The score scale goes through the core again: sharper, still a distribution.
  const scale = page.locator('[data-testid=attention-flow-scale]');
  await scale.focus();
  await interact('attention-flow', () => page.keyboard.press('End'));
  const sharp = await weights();
  close(sharp.reduce((a, b) => a + b, 0), 1, 1e-6, 'scale 3: sums to 1');
  const sharpRef = attend(tp, { ...(await refArgs()), scale: 3 });
  for (let j = 0; j <= 3; j++) close(sharp[j], sharpRef.weights[3][j], 1e-6, `scale 3, key ${j}`);
  await interact('attention-flow', () => page.keyboard.press('Home'));
  await interact('attention-flow', () => page.keyboard.press('ArrowRight'));
  await interact('attention-flow', () => page.keyboard.press('ArrowRight'));
  await interact('attention-flow', () => page.keyboard.press('ArrowRight'));
  await tokens.nth(3).click();
  await shot('attention-flow');
});

// The widget's illustrative scores and values, read from its module so both sides use the same numbers.
async function refArgs() {
  const src = fs.readFileSync(path.join(root, 'web/widgets/attention-flow.js'), 'utf8');
  const grab = (name) => JSON.parse(new RegExp(`const ${name} = (\\[[\\s\\S]*?\\]);`).exec(src)[1].replace(/\/\/.*$/gm, '').replace(/,\s*\]/g, ']'));
  return { scores: grab('SCORES'), values: grab('VALUES'), scale: 1 };
}

test('dot-projection: dragging and arrow keys give tp\'s dot product, cosine and projection length', async () => {
  const out = page.locator('[data-testid=dot-projection-readout]');
  const check = async (what) => {
    const a = (await W('dot-projection').getAttribute('data-a')).split(',').map(Number);
    const b = (await W('dot-projection').getAttribute('data-b')).split(',').map(Number);
    const r = project(tp, { a, b });
    close(Number(await out.getAttribute('data-dot')), r.dot, 1e-6, `${what}: a·b`);
    close(Number(await out.getAttribute('data-cosine')), r.cosine, 1e-6, `${what}: cosine`);
    close(Number(await out.getAttribute('data-length')), r.length, 1e-6, `${what}: projection length`);
    return { a, b };
  };
  await check('initial');
  await page.focus('[data-testid=dot-projection-handle-b]');
  await interact('dot-projection', () => page.keyboard.press('Shift+ArrowUp'));
  await interact('dot-projection', () => page.keyboard.press('ArrowLeft'));
  const { b } = await check('keys');
  assert.deepEqual(b, [1.4, 3]);
  const handle = page.locator('[data-testid=dot-projection-handle-a]');
  const box = await handle.boundingBox();
  await interact('dot-projection', async () => {
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2 - 20, { steps: 10 });
    await page.mouse.up();
  });
  const { a } = await check('drag');
  // A long drag: updates coalesce (latest wins), the last position is the one shown.
  const boxB = await page.locator('[data-testid=dot-projection-handle-b]').boundingBox();
  await interact('dot-projection', async () => {
    await page.mouse.move(boxB.x + boxB.width / 2, boxB.y + boxB.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 40; i++) await page.mouse.move(boxB.x + boxB.width / 2 + 2 * i, boxB.y + boxB.height / 2 + i);
    await page.mouse.up();
  });
  await check('long drag');
  assert.notDeepEqual(a, [3, 1]);
  // Perpendicular vectors score 0.
  await page.focus('[data-testid=dot-projection-handle-a]');
  for (const key of ['ArrowLeft', 'ArrowRight']) await interact('dot-projection', () => page.keyboard.press(key));
  await shot('dot-projection');
});

test('energy-curve: random matrix and a loaded tensor (with its random twin) agree with tp; 90% point and ranks read out', async () => {
  const el = W('energy-curve');
  const ref = energy(tp, { key: 'r', random: [768, 256], seed: 0 });
  assert.equal(Number(await el.getAttribute('data-k90')), ref.main.k90);
  const e = JSON.parse(await el.getAttribute('data-energy'));
  close(e[32], ref.main.e[31], 1e-5, 'energy at rank 32');
  close(e[128], ref.main.e[127], 1e-5, 'energy at rank 128');
  assert.equal(e[512], undefined, 'rank 512 does not exist for 768×256');
  assert.match(await page.locator('[data-testid=energy-curve-source] option:checked').textContent(), /768×256 \(smaller, quicker; not the table's\)/);
  // The rank slider reads the curve without the worker: keys, then the mouse over the plot.
  const slider = page.locator('[data-testid=energy-curve-k]');
  const readout = page.locator('[data-testid=energy-curve-readout]');
  assert.equal(await slider.getAttribute('max'), '256');
  await W('energy-curve').scrollIntoViewIfNeeded();
  await slider.focus();
  await interact('energy-curve', () => page.keyboard.press('Home'));
  for (let i = 0; i < 10; i++) await interact('energy-curve', () => page.keyboard.press('ArrowRight'));
  assert.match(await readout.textContent(), /rank 11: /);
  assert.equal(await slider.getAttribute('aria-valuetext'), `rank 11: ${(100 * ref.main.e[10]).toFixed(2)}%`);
  const plot = page.locator('[data-testid=energy-curve-plot]');
  const box = await plot.boundingBox();
  await interact('energy-curve', () => page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5));
  const hovered = Number(await el.getAttribute('data-k'));
  assert.ok(hovered > 11, `hovering the plot moves the rank (${hovered})`);
  assert.equal(await slider.inputValue(), String(hovered));
  assert.match(await readout.textContent(), new RegExp(`rank ${hovered}: `));

  // The chapter's matrix: 3072×1024 with seed 0, the energy-random cell's (its first computation is timed).
  await interact('energy-curve', () => page.selectOption('[data-testid=energy-curve-source]', 'random:3072x1024'));
  const firstMs = Number(await el.getAttribute('data-update-ms'));
  const big = energy(tp, { key: 'big', random: [3072, 1024], seed: 0 });
  assert.equal(Number(await el.getAttribute('data-k90')), big.main.k90);
  const eBig = JSON.parse(await el.getAttribute('data-energy'));
  for (const [k, table] of [[32, 7.2], [128, 25.7], [512, 73.9]]) {
    close(eBig[k], big.main.e[k - 1], 1e-5, `3072×1024 energy at rank ${k}`);
    assert.ok(Math.abs(100 * eBig[k] - table) < 0.1, `rank ${k}: ${100 * eBig[k]}% is the chapter's table's ${table}%`);
  }
  assert.equal(await page.locator('[data-testid=energy-curve-table] tr[data-rank="128"] td').nth(1).textContent(), '25.76%');
  assert.equal(await slider.getAttribute('max'), '1024');
  // Slider moves after the computation only redraw the cursor: no worker computation.
  const computations = await el.getAttribute('data-computations');
  const moves = [];
  await slider.focus();
  for (const key of ['PageUp', 'PageUp', 'ArrowRight', 'ArrowLeft', 'End', 'Home', 'PageUp']) {
    await interact('energy-curve', () => page.keyboard.press(key));
    moves.push(Number(await el.getAttribute('data-update-ms')));
  }
  const k = Number(await el.getAttribute('data-k'));
  assert.match(await readout.textContent(), new RegExp(`rank ${k}: ${(100 * big.main.e[k - 1]).toFixed(2)}%`));
  console.log(`  measured: energy-curve 3072×1024 first computation ${firstMs} ms; slider moves ${moves.join(', ')} ms`);
  assert.equal(await el.getAttribute('data-computations'), computations, 'slider moves ask the worker for nothing');
  // Back to a matrix seen before: drawn from the page's cache, no "computing" state.
  await interact('energy-curve', () => page.selectOption('[data-testid=energy-curve-source]', 'random:768x256'));
  assert.equal(Number(await el.getAttribute('data-k90')), ref.main.k90);
  assert.equal(await page.locator('[data-testid=energy-curve-status]').textContent(), '');
  await interact('energy-curve', () => page.selectOption('[data-testid=energy-curve-source]', 'random:3072x1024'));
  assert.equal(await el.getAttribute('data-computations'), computations, 'a matrix seen before is drawn from the cache');
  assert.equal(Number(await el.getAttribute('data-k90')), big.main.k90);

  // A tensor bound under `weights` (as the weights feature does) appears as a source.
  const id = await page.locator('[data-testid=cell]', { hasText: 'typeof M' }).getAttribute('data-cell-id');
  // A stand-in for a real weight: low rank plus noise, so its curve rises faster than its random twin's.
  const make = 'tp.randn([300, 8], { seed: 4 }).matmul(tp.randn([8, 200], { seed: 5 })).mul(0.02).add(tp.randn([300, 200], { seed: 6 }).mul(0.03))';
  await typeInto(page, id, `const weights = { W: ${make} };\nweights.W.shape`);
  await page.keyboard.press('Control+Enter');
  await waitForState(page, id);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=energy-curve-source] option')].some((o) => o.value === 'tensor:weights.W'), null, { timeout: 10000 });
  await interact('energy-curve', () => page.selectOption('[data-testid=energy-curve-source]', 'tensor:weights.W'));
  const W2 = new Function('tp', `return ${make};`)(tp);
  const refT = energy(tp, { key: 't', path: 'weights.W', seed: 0 }, { weights: { W: W2 } });
  assert.equal(Number(await el.getAttribute('data-k90')), refT.main.k90);
  assert.equal(await page.locator('[data-testid=energy-curve-table] tr').first().locator('th').count(), 3, 'a column for the random twin');
  assert.ok(refT.main.k90 < refT.compare.k90, 'the low-rank-plus-noise weight needs a smaller rank than its random twin');
  await plot.scrollIntoViewIfNeeded();
  const at = await plot.boundingBox();
  await interact('energy-curve', () => page.mouse.move(at.x + at.width * 0.3, at.y + at.height * 0.5));
  await shot('energy-curve');
  await interact('energy-curve', () => page.selectOption('[data-testid=energy-curve-source]', 'random:768x256'));
});

test('rotation-quant: both rotations lower max/median and the W8A8/W4A4 errors, as tp computes them', async () => {
  const row = (r) => page.locator(`[data-testid=rotation-quant-table] tr[data-rotation=${r}]`);
  const read = async (r) => Object.fromEntries(await Promise.all(['peak', 'w8a8', 'w4a4'].map(async (k) => [k, Number(await row(r).getAttribute(`data-${k}`))])));
  // Every row of the comparison is computed at load, before any rotation is chosen.
  assert.equal(await W('rotation-quant').getAttribute('data-rotation'), 'none');
  for (const r of ['none', 'random', 'hadamard']) {
    assert.ok(Number(await row(r).getAttribute('data-peak')) > 0, `the ${r} row has its numbers at load`);
    assert.doesNotMatch(await row(r).textContent(), /…/, `the ${r} row shows no placeholder`);
  }
  assert.equal(await page.locator('[data-testid=rotation-quant-legend]').textContent(), 'max |x| over tokens: ▮ before (no rotation)');
  await interact('rotation-quant', () => page.click('[data-testid=rotation-quant-random]'));
  await page.focus('[data-testid=rotation-quant-random]');
  await interact('rotation-quant', () => page.keyboard.press('ArrowDown'));
  assert.equal(await W('rotation-quant').getAttribute('data-rotation'), 'hadamard');
  const none = await read('none'), random = await read('random'), hadamard = await read('hadamard');
  for (const [name, r] of [['random', random], ['hadamard', hadamard]]) {
    assert.ok(r.peak < none.peak, `${name} lowers max/median: ${r.peak} < ${none.peak}`);
    assert.ok(r.w8a8 < none.w8a8, `${name} lowers the W8A8 error`);
    assert.ok(r.w4a4 < none.w4a4, `${name} lowers the W4A4 error`);
  }
  const args = { tokens: 256, dim: 512, out: 256, block: 128, seed: 0 };
  for (const [name, r] of [['none', none], ['random', random], ['hadamard', hadamard]]) {
    const x = rotate(tp, { ...args, rotation: name });
    close(r.peak, x.peak, 1e-3, `${name} max/median`);
    close(r.w8a8, x.w8a8, 1e-3, `${name} W8A8`);
    close(r.w4a4, x.w4a4, 1e-3, `${name} W4A4`);
  }
  await interact('rotation-quant', () => page.keyboard.press('ArrowUp'));
  await interact('rotation-quant', () => page.keyboard.press('ArrowDown'));
  assert.equal(await page.locator('[data-testid=rotation-quant-legend]').textContent(), 'max |x| over tokens: ▮ before (no rotation), ▮ after');
  await shot('rotation-quant');
  assert.deepEqual(log.errors, []);
});

test('after Restart the widgets compute again in the fresh worker', async () => {
  await page.click('[data-testid=restart]');
  const slider = page.locator('[data-testid=rank-image-k]');
  await slider.focus();
  await interact('rank-image', () => page.keyboard.press('Home'));
  close(Number(await page.locator('[data-testid=rank-image-error]').getAttribute('data-value')), approximate(tp, { k: 1, rows: 96, cols: 128 }).error, 1e-4, 'rank-1 error after restart');
  await page.focus('[data-testid=grid2x2-handle-i]');
  await interact('grid2x2', () => page.keyboard.press('ArrowLeft'));
  for (const name of WIDGETS) assert.equal(await W(name).locator('.widget-error:not([hidden])').count(), 0, `${name} shows no error`);
  assert.deepEqual(log.errors, []);
});

test('energy-curve in the linear-algebra chapter starts on the table\'s 3072×1024 matrix and agrees with it', async () => {
  const la = await openPage(context, srv.base);
  try {
    await la.page.goto(`${srv.base}?chapter=linear-algebra&lang=en`);
    const el = la.page.locator('[data-testid=widget-energy-curve]');
    await la.page.waitForFunction(() => {
      const w = document.querySelector('[data-testid=widget-energy-curve]');
      return w && w.dataset.state === 'ready' && w.dataset.k90;
    }, null, { timeout: 60000 });
    assert.equal(await la.page.locator('[data-testid=energy-curve-source]').inputValue(), 'random:3072x1024');
    // The rows of the chapter's table (random column), as the energy-random cell computes them.
    const e = JSON.parse(await el.getAttribute('data-energy'));
    for (const [k, table] of [[32, 7.2], [128, 25.7], [512, 73.9]]) {
      assert.ok(Math.abs(100 * e[k] - table) < 0.1, `rank ${k}: ${100 * e[k]}% vs the table's ${table}%`);
    }
    const first = await la.page.evaluate(() => globalThis.__tpwTimings['widget-energy-curve'][0]);
    console.log(`  measured: energy-curve 3072×1024 at load, request → drawn ${first.toFixed(1)} ms`);
    assert.deepEqual(la.log.errors, []);
  } finally {
    await la.page.close();
  }
});

// Latin words a Chinese reader sees on purpose: the example sentence's tokens, terms the Chinese chapter
// itself uses (query, value, token), names (Hadamard, softmax, the Shift key) and math (exp, det, max).
const LATIN_OK = new Set(['Alice', 'dropped', 'the', 'glass', 'because', 'she', 'query', 'value', 'token', 'Hadamard',
  'softmax', 'exp', 'det', 'max', 'Shift']);

test('the Chinese chapter shows the widgets and the page shell in Chinese', async () => {
  const zh = await openPage(context, srv.base);
  try {
    await zh.page.goto(`${srv.base}?chapter=demo&lang=zh`);
    for (const name of WIDGETS) {
      await zh.page.waitForFunction((n) => {
        const el = document.querySelector(`[data-testid=widget-${n}]`);
        return el && el.dataset.state === 'ready' && Number(el.dataset.updates ?? 0) > 0;
      }, name, { timeout: 60000 });
    }
    assert.match(await zh.page.locator('[data-testid=grid2x2-det]').textContent(), /行列式/);
    assert.match(await zh.page.locator('[data-testid=attention-flow-illustrative]').textContent(), /示意/);
    // The strings a reviewer found in English.
    assert.equal(await zh.page.locator('.skip-link').textContent(), '跳到正文');
    assert.equal(await zh.page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.match(await zh.page.locator('noscript').evaluate((el) => el.textContent), /<p lang="zh-CN">Tensorpad 需要 JavaScript/);
    assert.match(await zh.page.locator('[data-testid=attention-flow-svg] text').first().textContent(), /^a_j（query「she」的权重）$/);
    assert.equal(await zh.page.locator('[data-testid=rotation-quant-legend]').textContent(), '各 token 上的 max |x|: ▮ 旋转前');
    assert.match(await zh.page.locator('[data-testid=rank-image-sigma] text').textContent(), /对数坐标/);
    // Everything else a widget shows or says (text, labels, descriptions): no English word left.
    for (const name of WIDGETS) {
      const words = await zh.page.locator(`[data-testid=widget][data-widget=${name}]`).evaluate((el) => {
        const texts = [document.getElementById(el.getAttribute('aria-describedby'))?.textContent ?? ''];
        for (const n of el.querySelectorAll('*')) {
          for (const a of ['aria-label', 'aria-valuetext', 'title', 'placeholder']) texts.push(n.getAttribute(a) ?? '');
          for (const c of n.childNodes) if (c.nodeType === Node.TEXT_NODE) texts.push(c.textContent);
        }
        return texts.join(' ').match(/[A-Za-z][\w.]*/g) ?? [];
      });
      // Identifiers and math (A_k, gate_proj, tp.synth.activations) and one- or two-letter symbols are not words.
      const english = [...new Set(words)].filter((w) => w.length > 2 && !/[_.\d]/.test(w) && !LATIN_OK.has(w));
      assert.deepEqual(english, [], `${name} shows English words to a Chinese reader`);
    }
    assert.deepEqual(zh.log.errors, []);
  } finally {
    await zh.page.close();
  }
});
