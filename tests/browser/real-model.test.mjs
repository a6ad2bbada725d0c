// The linear-algebra chapter with a loaded model, in Chromium. (1) The attention-flow figure switches to a
// model's real attention when a `model` appears in the cells' scope: a stand-in model declared by a cell
// (known weights: layer 0 spreads each query evenly over the visible tokens, layer 1's head 0 reads only
// the first token and head 1 only itself) drives the layer and head choosers, and removing it brings the
// illustrative figure back. (2) Once tp.model exists in the build: the tiny Qwen3 fixture's files chosen on
// "Use your own model" load as `model`, and the chapter's three real-model cells print their tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useSiteAndBrowser, openPage, cell, runCell, waitForState, root } from './helpers.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

async function withChapter(fn) {
  const context = await browser.newContext();
  const { page, log } = await openPage(context, srv.base);
  try {
    await page.goto(`${srv.base}?chapter=linear-algebra&lang=en`);
    await page.locator('[data-testid=weights-drop]').waitFor();
    await page.waitForFunction(() => document.querySelector('#app')?.dataset.kernel === 'ready', null, { timeout: 60000 });
    await fn(page);
    assert.deepEqual(log.foreign, [], 'no request may leave the origin');
    assert.deepEqual(log.errors, [], 'no console error');
  } finally {
    await context.close();
  }
}

// A stand-in with tp.model's interface, built from tp ops in a cell.
const STAND_IN = `const model = {
  config: { architecture: 'StandInForTest', numLayers: 2, numHeads: 2, numKvHeads: 1 },
  tokenizer: { encode: (text) => text.split(' ').map((_, i) => 10 + i), decode: (ids) => 'w' + ids[0] },
  async forward(ids, { capture }) {
    const T = ids.length, captures = {};
    const rows = (f) => Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => f(i, j)));
    const even = rows((i, j) => (j <= i ? 1 / (i + 1) : 0));
    const first = rows((i, j) => (j === 0 ? 1 : 0)), self = rows((i, j) => (i === j ? 1 : 0));
    for (const name of capture) {
      const layer = Number(name.split('.')[1]);
      if (name.endsWith('.weights')) captures[name] = tp.tensor(layer === 0 ? [even, even] : [first, self]);
      else captures[name] = tp.tensor([Array.from({ length: T }, (_, j) => [j, 2 * j, 3 * j, 4 * j])]);
    }
    return { logits: null, captures };
  },
  dispose() {},
};
print('stand-in model ready')`;

const widget = (page) => page.locator('[data-testid=widget-attention-flow]');
const shownWeights = async (page) => JSON.parse(await widget(page).locator('[data-testid=attention-flow-sum]').getAttribute('data-weights'));

test('attention-flow shows a loaded model\'s real attention, with a layer and head chooser, and goes back without one', async () => {
  await withChapter(async (page) => {
    await widget(page).scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('[data-testid=widget-attention-flow]')?.dataset.state === 'ready');
    assert.equal(await widget(page).locator('[data-testid=attention-flow-model]').isHidden(), true);
    assert.match(await runCell(page, 'attn-mix', STAND_IN), /stand-in model ready/);

    const chooser = widget(page).locator('[data-testid=attention-flow-model]');
    await chooser.waitFor({ state: 'visible', timeout: 15000 });
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=attention-flow-token]')].map((b) => b.textContent).join(' ') === 'w10 w11 w12 w13 w14 w15');
    assert.match(await widget(page).locator('[data-testid=attention-flow-illustrative]').textContent(), /StandInForTest/);
    // Layer 1 of 2 is chosen first (the middle), head 0: every query reads the first token only.
    assert.equal(await chooser.locator('[data-testid=attention-flow-layer]').inputValue(), '1');
    assert.deepEqual(await shownWeights(page), [1, 0, 0, 0, 0, 0]);
    await chooser.locator('[data-testid=attention-flow-head]').selectOption('1');
    await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid=attention-flow-sum]').dataset.weights)[5] === 1);
    await chooser.locator('[data-testid=attention-flow-layer]').selectOption('0');
    await page.waitForFunction(() => Math.abs(JSON.parse(document.querySelector('[data-testid=attention-flow-sum]').dataset.weights)[0] - 1 / 6) < 1e-6);
    // c = the mixture of the first three value channels: the mean of j, 2j, 3j over j = 0..5.
    assert.match(await widget(page).locator('[data-testid=attention-flow-sum]').textContent(), /c = \(2\.500, 5\.000, 7\.500\)/);
    await widget(page).locator('[data-testid=attention-flow-token][data-index="2"]').click();
    assert.deepEqual((await shownWeights(page)).map((w) => +w.toFixed(4)), [0.3333, 0.3333, 0.3333, 0, 0, 0]);

    assert.match(await runCell(page, 'attn-mix', "const model = null; print('gone')"), /gone/);
    await chooser.waitFor({ state: 'hidden', timeout: 15000 });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=attention-flow-token]')[0]?.textContent === 'Alice');
    assert.match(await widget(page).locator('[data-testid=attention-flow-illustrative]').textContent(), /Illustrative/);
  });
});

const hasModelApi = fs.existsSync(path.join(root, 'wasm', 'js', 'model.js'));

test('a model folder chosen on "Use your own model" loads as model, and the chapter\'s real-model cells print its tables', { skip: !hasModelApi && 'tp.model has not landed yet' }, async () => {
  const dir = path.join(root, 'tests', 'fixtures', 'models', 'qwen3-gqa-bf16');
  const files = fs.readdirSync(dir).map((n) => path.join(dir, n));
  await withChapter(async (page) => {
    await page.setInputFiles('[data-testid=weights-input]', files);
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.querySelector('[data-testid=weights-drop]').dataset.model), null, { timeout: 60000 });
    assert.equal(await page.locator('[data-testid=weights-error]').textContent(), '');
    assert.match(await page.locator('[data-testid=model-status]').textContent(), /model = Qwen3ForCausalLM, 3 layers/);
    for (const [id, pattern] of [['model-tools', /model loaded: Qwen3ForCausalLM, 3 layers; measuring layer 1/],
      ['energy-model', /layer 1 gate_proj, 96×64/], ['kv-model', /1024 tokens of the passage/], ['rotate-model', /block Hadamard 8×8/]]) {
      await cell(page, id).scrollIntoViewIfNeeded();
      await cell(page, id).locator('[data-testid=cell-run]').click();
      await waitForState(page, id, ['done', 'error'], 120000);
      assert.equal(await cell(page, id).getAttribute('data-state'), 'done', `${id}: ${await cell(page, id).textContent()}`);
      // A table is drawn just after the cell's printed lines.
      await cell(page, id).locator('[data-testid=cell-output]').filter({ hasText: pattern }).waitFor({ timeout: 15000 });
    }
    await page.waitForFunction(() => !document.querySelector('[data-testid=attention-flow-model]')?.hidden, null, { timeout: 30000 });
  });
});
