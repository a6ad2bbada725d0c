// A model's forward in a chapter cell, in Chromium: the cell shows a progress bar (layers done of all, the
// tokens), and Interrupt stops the forward between two layers while the worker, every variable and the
// loaded model stay (the reader must not have to load a 1.2 GB model again). The model is a random Qwen3 of
// 40 layers written on the fly (tests/fixtures/models/random-checkpoint.mjs), and the forward reads 3000
// tokens, so it runs for seconds; the test clicks Interrupt once the bar shows two layers done and then
// reads where it stopped from the bar (no timed assertion: a layer takes what it takes).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useSiteAndBrowser, openPage, cell, runCell, typeInto, waitForState } from './helpers.mjs';
import { writeRandomQwen3, qwen3Config } from '../fixtures/models/random-checkpoint.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

const LAYERS = 40, TOKENS = 3000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-deep-qwen3-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
writeRandomQwen3(dir, qwen3Config({ num_hidden_layers: LAYERS }));

const progress = (page, id) => cell(page, id).locator('[data-testid=cell-progress]');
const data = (page, id) => progress(page, id).evaluate((el) => ({ ...el.dataset, hidden: el.hidden, text: el.textContent }));

test('a forward in a cell shows its layers on a progress bar, and Interrupt stops it between layers keeping the worker and the model', async () => {
  const context = await browser.newContext();
  const { page, log } = await openPage(context, srv.base);
  try {
    await page.goto(`${srv.base}?chapter=linear-algebra&lang=en`);
    await page.locator('[data-testid=weights-drop]').waitFor();
    await page.waitForFunction(() => document.querySelector('#app')?.dataset.kernel === 'ready', null, { timeout: 60000 });
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    await page.setInputFiles('[data-testid=weights-input]', fs.readdirSync(dir).map((n) => path.join(dir, n)));
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.querySelector('[data-testid=weights-drop]').dataset.model), null, { timeout: 60000 });
    assert.match(await page.locator('[data-testid=model-status]').textContent(), new RegExp(`Qwen3ForCausalLM, ${LAYERS} layers`));

    const id = 'model-tools';
    await cell(page, id).scrollIntoViewIfNeeded();
    await typeInto(page, id, [
      `const ids = Array.from({ length: ${TOKENS} }, (_, i) => (7 * i) % 64);`,
      'const held = JSON.stringify(tp.memory());',
      'let result = null;',
      'result = await model.forward(ids, { capture: "layers.*.attn.k" });',
    ].join('\n'));
    await page.keyboard.press('Control+Enter');
    await waitForState(page, id, ['running']);
    // The bar appears with the forward and counts its layers.
    await page.waitForFunction(([cid]) => {
      const el = document.querySelector(`[data-testid=cell][data-cell-id="${cid}"] [data-testid=cell-progress]`);
      return el && !el.hidden && Number(el.dataset.layer) >= 2;
    }, [id], { timeout: 120000 });
    const during = await data(page, id);
    assert.equal(during.op, 'model.forward');
    assert.equal(during.layers, String(LAYERS));
    assert.match(during.text, new RegExp(`model\\.forward: \\d+ of ${LAYERS} layers done · ${TOKENS} tokens`));
    assert.equal(await progress(page, id).locator('progress').getAttribute('max'), String(LAYERS + 2));

    await page.click('[data-testid=interrupt]');
    await waitForState(page, id, ['error'], 120000);
    const notice = page.locator('[data-testid=interrupt-notice]');
    assert.equal(await notice.getAttribute('data-state-kept'), 'true', await notice.textContent());
    assert.equal(await cell(page, id).locator('[data-testid=cell-error]').textContent(), 'Interrupted: the cell stopped here; variables are kept.');
    const stopped = await data(page, id);
    assert.equal(stopped.state, 'stopped');
    assert.ok(Number(stopped.layer) < LAYERS, `the forward stopped between layers (${stopped.layer} of ${LAYERS} done)`);
    assert.match(stopped.text, /stopped by Interrupt/);

    // The same worker and model: the cell's variables are there, the interrupted forward left no tensor
    // behind, and the model runs again.
    const out = await runCell(page, 'energy-model', [
      'const same = JSON.stringify(tp.memory()) === held;',
      'const again = await model.forward([1, 2, 3], { capture: "layers.0.attn.k" });',
      'const kept = [result === null, same, model.config.numLayers, again.captures["layers.0.attn.k"].shape.join("x")];',
      'tp.dispose(again.logits, again.captures);',
      'print(kept.join(" "));',
    ].join('\n'));
    assert.equal(await cell(page, 'energy-model').getAttribute('data-state'), 'done', out);
    assert.match(out, new RegExp(`^true true ${LAYERS} 1x3x16`));
    const short = await data(page, 'energy-model');
    assert.equal(short.state, 'done');
    assert.equal(short.layer, String(LAYERS), 'a finished forward shows every layer done');
    assert.deepEqual(log.errors, [], 'no console error');
    assert.deepEqual(log.foreign, [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
});
