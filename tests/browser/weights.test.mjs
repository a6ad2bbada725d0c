// "Use your own model" in Chromium (demo chapter of the built site): Playwright sets a small safetensors
// file (F32 64×32 and 16, BF16 8×4, written here) on the panel's file input; the panel lists the tensors
// with dtype and shape, filters them, binds one as weights.W (and another under a typed name), the cells
// that read `weights` re-run, the energy-curve widget offers the tensor, bad files are refused in the
// zone while the notebook keeps working, and a restart re-opens the file. Nothing leaves the origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useSiteAndBrowser, openPage, cell, typeInto, editorText, waitForState } from './helpers.mjs';
import { u8, safetensorsBytes } from '../fixtures/safetensors-bytes.mjs';
import { t } from '../../web/src/i18n.js';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

// ---- files made here ------------------------------------------------------------------------------

const GATE = 'model.layers.0.mlp.gate_proj.weight';
const NORM = 'model.layers.0.input_layernorm.weight';
const QPROJ = 'model.layers.1.self_attn.q_proj.weight';
// Values exact in float32 and bfloat16, so the sums the cells print are exact.
const gate = Float32Array.from({ length: 64 * 32 }, (_, i) => ((i % 13) - 6) * 0.5);
const norm = Float32Array.from({ length: 16 }, (_, i) => i + 1);
const qf = Float32Array.from({ length: 32 }, (_, i) => ((i % 5) - 2) * 0.25);
const qbf16 = Uint16Array.from(new Uint32Array(qf.buffer), (bits) => bits >>> 16);
const sum = (a) => a.reduce((s, v) => s + v, 0);
const model = safetensorsBytes([
  [GATE, 'F32', [64, 32], u8(gate)],
  [NORM, 'F32', [16], u8(norm)],
  [QPROJ, 'BF16', [8, 4], u8(qbf16)],
], { format: 'pt' });
// A v1.0 .npy of little-endian float32 in C order.
function npy(shape, data) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const pre = Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0, header.length & 255, header.length >> 8]);
  return Buffer.concat([pre, Buffer.from(header, 'latin1'), u8(data)]);
}
const emb = Float32Array.from({ length: 12 }, (_, i) => i - 5.5);
const file = (name, buffer) => ({ name, mimeType: 'application/octet-stream', buffer });

// ---- helpers --------------------------------------------------------------------------------------

async function withPage(fn, { chapter = 'demo', lang = 'en' } = {}) {
  const context = await browser.newContext();
  const { page, log } = await openPage(context, srv.base);
  try {
    await page.goto(`${srv.base}?chapter=${chapter}&lang=${lang}`);
    await page.locator('[data-testid=weights-drop]').waitFor();
    await page.waitForFunction(() => document.querySelector('#app')?.dataset.kernel === 'ready', null, { timeout: 30000 });
    await fn(page, log);
    assert.deepEqual(log.foreign, [], 'no request may leave the origin');
    assert.deepEqual(log.requests.filter((r) => r.method() !== 'GET').map((r) => `${r.method()} ${r.url()}`), [], 'nothing is uploaded');
    assert.deepEqual(log.errors, [], 'no console error');
  } finally {
    await context.close();
  }
}

const rows = (page) => page.locator('[data-testid=weights-row]');
const row = (page, name) => page.locator(`[data-testid=weights-row][data-name="${name}"]`);

async function choose(page, f) {
  await page.setInputFiles('[data-testid=weights-input]', f);
  await page.waitForFunction(() => ['open', 'error'].includes(document.querySelector('[data-testid=weights-drop]').dataset.state), null, { timeout: 15000 });
}

async function bind(page, name) {
  await row(page, name).locator('[data-testid=weights-bind]').click();
  await page.waitForFunction((n) => document.querySelector(`[data-testid=weights-row][data-name="${n}"]`)?.classList.contains('is-bound'), name, { timeout: 15000 });
}

/** Types a cell that prints weights.W's shape and sum into the demo's first cell and runs it. */
async function probeCell(page) {
  const id = await page.locator('[data-testid=cell]').first().getAttribute('data-cell-id');
  await typeInto(page, id, "print('W', weights.W.shape.join('x'), weights.W.sum().item())");
  await page.keyboard.press('Control+Enter');
  await waitForState(page, id);
  return id;
}
const output = (page, id) => cell(page, id).locator('[data-testid=cell-output]');

// ---- tests ----------------------------------------------------------------------------------------

// The panel's words are the reader's language (web/src/i18n.js); `§` stands for what is not checked here.
const said = (lang, key, vars) => t(lang, key, vars).split('§');

for (const lang of ['en', 'zh']) {
  test(`(${lang}) the panel lists the file's tensors with dtype and shape, filters them, and binds one as weights.W for the cells`, async () => {
    await withPage(async (page) => {
      // Keyboard reachable and labelled.
      const input = page.locator('[data-testid=weights-input]');
      assert.equal(await input.evaluate((el) => el.labels.length > 0 && el.tabIndex >= 0), true);
      assert.ok((await page.locator('[data-testid=weights-drop]').getAttribute('aria-describedby')).length > 0);

      await choose(page, file('model.safetensors', model));
      assert.equal(await page.locator('[data-testid=weights-drop]').getAttribute('data-state'), 'open');
      assert.equal(await rows(page).count(), 3);
      const listed = await rows(page).evaluateAll((els) => els.map((el) => [el.dataset.name,
        el.querySelector('[data-testid=weights-dtype]').textContent, el.querySelector('[data-testid=weights-shape]').textContent]));
      assert.deepEqual(listed, [[GATE, 'F32', '64×32'], [NORM, 'F32', '16'], [QPROJ, 'BF16', '8×4']]);
      assert.ok((await page.locator('[data-testid=weights-status]').textContent()).startsWith(said(lang, 'weightsOpened', { file: 'model.safetensors', format: 'safetensors', n: 3, size: '§' })[0]));
      assert.equal(await page.locator('[data-testid=weights-error]').isHidden(), true);

      // Filter: every word must match, case-insensitively.
      await page.fill('[data-testid=weights-filter]', 'Q_PROJ');
      assert.deepEqual(await rows(page).evaluateAll((els) => els.map((el) => el.dataset.name)), [QPROJ]);
      await page.fill('[data-testid=weights-filter]', 'layers.0 weight');
      assert.deepEqual(await rows(page).evaluateAll((els) => els.map((el) => el.dataset.name)), [GATE, NORM]);
      assert.equal(await page.locator('[data-testid=weights-count]').textContent(), t(lang, 'weightsCount', { n: 2, total: 3 }));
      await page.fill('[data-testid=weights-filter]', 'nothing-like-this');
      assert.equal(await rows(page).count(), 0);
      await page.fill('[data-testid=weights-filter]', '');
      assert.equal(await rows(page).count(), 3);

      // The BF16 tensor as weights.W (the default name); a cell reads it.
      assert.equal(await row(page, QPROJ).locator('[data-testid=weights-bind]').textContent(), t(lang, 'weightsUseAs', { as: 'W' }));
      await bind(page, QPROJ);
      const id = await probeCell(page);
      assert.equal(await cell(page, id).getAttribute('data-state'), 'done');
      assert.equal((await output(page, id).textContent()).trim(), `W 8x4 ${sum(qf)}`);

      // Binding another tensor as W re-runs that cell by itself.
      await bind(page, GATE);
      await page.waitForFunction(([cid, text]) => document.querySelector(`[data-testid=cell][data-cell-id="${cid}"] [data-testid=cell-output]`)?.textContent.trim() === text,
        [id, `W 64x32 ${sum(gate)}`], { timeout: 15000 });
      assert.equal(await row(page, QPROJ).getAttribute('class'), null, 'the replaced tensor is no longer marked');

      // Any name the reader types: weights.norm beside weights.W.
      await page.fill('[data-testid=weights-as]', 'norm');
      assert.equal(await row(page, NORM).locator('[data-testid=weights-bind]').textContent(), t(lang, 'weightsUseAs', { as: 'norm' }));
      await bind(page, NORM);
      const bound = await page.locator('[data-testid=weights-binding]').evaluateAll((els) => els.map((el) => [el.dataset.as, el.dataset.name]));
      assert.deepEqual(bound, [['W', GATE], ['norm', NORM]]);
      await typeInto(page, id, "print(Object.keys(weights).join(','), weights.norm.shape.join('x'), weights.norm.sum().item())");
      await page.keyboard.press('Control+Enter');
      await waitForState(page, id);
      assert.equal((await output(page, id).textContent()).trim(), `W,norm 16 ${sum(norm)}`);
      // A name cells cannot write after "weights." is refused before anything is read.
      await page.fill('[data-testid=weights-as]', '1x');
      assert.equal(await row(page, QPROJ).locator('[data-testid=weights-bind]').isDisabled(), true);
      assert.equal(await page.locator('[data-testid=weights-as]').getAttribute('aria-invalid'), 'true');
      await page.fill('[data-testid=weights-as]', 'W');

      // The energy-curve widget offers the bound 2-D tensors (weights.W, not the 1-D norm) and draws W.
      const option = page.locator('[data-testid=energy-curve-source] option[value="tensor:weights.W"]');
      await option.waitFor({ state: 'attached', timeout: 15000 });
      assert.match(await option.textContent(), /weights\.W\s?[(（]64×32[)）]/);
      assert.equal(await page.locator('[data-testid=energy-curve-source] option[value="tensor:weights.norm"]').count(), 0);
      const widget = page.locator('[data-testid=widget-energy-curve]');
      const updates = Number(await widget.getAttribute('data-updates') ?? 0);
      await page.selectOption('[data-testid=energy-curve-source]', 'tensor:weights.W');
      await page.waitForFunction((b) => {
        const el = document.querySelector('[data-testid=widget-energy-curve]');
        return Number(el.dataset.updates ?? 0) > b && el.dataset.state === 'ready';
      }, updates, { timeout: 30000 });
      assert.equal(await page.locator('[data-testid=energy-curve-table] tr').first().locator('th').count(), 3, 'W beside its random twin');
      assert.equal(await widget.locator('.widget-error:not([hidden])').count(), 0);

      // Removing a binding updates the cells' scope.
      await page.locator('[data-testid=weights-binding][data-as=norm] [data-testid=weights-unbind]').click();
      await page.locator('[data-testid=weights-binding][data-as=norm]').waitFor({ state: 'detached' });
      await typeInto(page, id, "Object.keys(weights).join(',')");
      await page.keyboard.press('Control+Enter');
      await waitForState(page, id);
      assert.match(await output(page, id).textContent(), /^\s*["']?W["']?\s*$/);
    }, { lang });
  });
}

test('the shards of a model open together: one list, each tensor read from its own file; a name in two shards is refused', async () => {
  const shard1 = safetensorsBytes([[GATE, 'F32', [64, 32], u8(gate)], [NORM, 'F32', [16], u8(norm)]], { format: 'pt' });
  const shard2 = safetensorsBytes([[QPROJ, 'BF16', [8, 4], u8(qbf16)]], { format: 'pt' });
  const index = Buffer.from(JSON.stringify({ metadata: {}, weight_map: { [GATE]: 'model-00001-of-00002.safetensors' } }));
  await withPage(async (page) => {
    // The index that comes with the shards is chosen too, as a reader would select the whole folder.
    await choose(page, [file('model-00001-of-00002.safetensors', shard1), file('model-00002-of-00002.safetensors', shard2),
      file('model.safetensors.index.json', index)]);
    assert.equal(await page.locator('[data-testid=weights-drop]').getAttribute('data-state'), 'open');
    assert.deepEqual(await rows(page).evaluateAll((els) => els.map((el) => el.dataset.name)), [GATE, NORM, QPROJ]);
    assert.match(await page.locator('[data-testid=weights-status]').textContent(),
      /model-00001-of-00002\.safetensors and 1 more: safetensors, 3 tensors/);
    // A tensor of the second shard, then one of the first, as weights.W.
    await bind(page, QPROJ);
    const id = await probeCell(page);
    assert.equal((await output(page, id).textContent()).trim(), `W 8x4 ${sum(qf)}`);
    await bind(page, GATE);
    await page.waitForFunction(([cid, text]) => document.querySelector(`[data-testid=cell][data-cell-id="${cid}"] [data-testid=cell-output]`)?.textContent.trim() === text,
      [id, `W 64x32 ${sum(gate)}`], { timeout: 15000 });
    // After a restart both shards are opened again and W is bound again from the right one.
    await page.click('[data-testid=restart]');
    await page.waitForFunction(() => /bound again: weights\.W/.test(document.querySelector('[data-testid=weights-status]').textContent), null, { timeout: 30000 });
    await page.keyboard.press('Escape');
    await cell(page, id).locator('[data-testid=cell-run]').click();
    await waitForState(page, id);
    assert.equal((await output(page, id).textContent()).trim(), `W 64x32 ${sum(gate)}`);
    // The same tensor name in two files: which one is meant is unknown, so nothing opens.
    await choose(page, [file('a.safetensors', shard1), file('b.safetensors', shard1)]);
    assert.equal(await page.locator('[data-testid=weights-drop]').getAttribute('data-state'), 'error');
    assert.match(await page.locator('[data-testid=weights-error]').textContent(), new RegExp(`tensor ${GATE.replaceAll('.', '\\.')} is in both a\\.safetensors and b\\.safetensors`));
  });
});

for (const lang of ['en', 'zh']) {
  test(`(${lang}) bad files are refused in the zone with a clear message; the notebook keeps working and a later good file opens`, async () => {
    await withPage(async (page) => {
      const drop = page.locator('[data-testid=weights-drop]');
      const error = page.locator('[data-testid=weights-error]');
      const cases = [
        ['truncated.safetensors', model.subarray(0, 100), /truncated\.safetensors.*(beyond|exceeds|ends|end|truncated|larger)/i],
        ['notes.txt', Buffer.from('these are not the weights you are looking for\n'.repeat(4)), /notes\.txt/],
        ['empty.safetensors', Buffer.alloc(0), /empty\.safetensors/],
        ['pytorch_model.bin', Buffer.from([0x50, 0x4b, 3, 4, ...Buffer.alloc(60)]), /pytorch_model\.bin/, t(lang, 'weightsOtherFormat')],
      ];
      for (const [name, bytes, re, more] of cases) {
        await choose(page, file(name, bytes));
        assert.equal(await drop.getAttribute('data-state'), 'error', name);
        assert.equal(await error.isVisible(), true, name);
        const text = await error.textContent();
        assert.match(text, re);
        const [before, between] = said(lang, 'weightsBadFile', { file: '§', msg: '§' });
        assert.ok(text.startsWith(`${before}${name}${between}`), `${name}: ${text}`);
        if (more) assert.ok(text.endsWith(more), `${name} names the formats that can be read: ${text}`);
        console.log(`  ${name}: ${text}`);
        assert.equal(await rows(page).count(), 0);
        assert.equal(await error.getAttribute('role'), 'alert');
      }
      // The rest of the page still works: a cell runs.
      const id = await page.locator('[data-testid=cell]').first().getAttribute('data-cell-id');
      await typeInto(page, id, 'tp.tensor([1, 2, 3]).sum().item()');
      await page.keyboard.press('Control+Enter');
      await waitForState(page, id);
      assert.equal(await cell(page, id).getAttribute('data-state'), 'done');
      assert.match(await output(page, id).textContent(), /6/);

      await choose(page, file('model.safetensors', model));
      assert.equal(await drop.getAttribute('data-state'), 'open');
      assert.equal(await error.isHidden(), true);
      assert.equal(await rows(page).count(), 3);
      await bind(page, GATE);
      const probe = await probeCell(page);
      assert.equal((await output(page, probe).textContent()).trim(), `W 64x32 ${sum(gate)}`);
    }, { lang });
  });
}

test('an .npy dropped on the zone is listed under its file name and binds like a safetensors tensor', async () => {
  await withPage(async (page) => {
    // A real drop event carrying a File, as a reader dragging it from their desktop would.
    const bytes = [...npy([3, 4], emb)];
    await page.evaluate((b) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(b)], 'embed.npy'));
      const zone = document.querySelector('[data-testid=weights-drop]');
      for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, bytes);
    await page.waitForFunction(() => document.querySelector('[data-testid=weights-drop]').dataset.state === 'open', null, { timeout: 15000 });
    const listed = await rows(page).evaluateAll((els) => els.map((el) => [el.dataset.name,
      el.querySelector('[data-testid=weights-dtype]').textContent, el.querySelector('[data-testid=weights-shape]').textContent]));
    assert.deepEqual(listed, [['embed', 'F32', '3×4']]);
    // By keyboard: the filter, Tab past the name box to the row's button, Enter.
    await page.focus('[data-testid=weights-filter]');
    await page.keyboard.type('emb');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'weights-as');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.closest('[data-testid=weights-row]')?.dataset.name), 'embed');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=weights-binding][data-as=W]').waitFor();
    const id = await probeCell(page);
    assert.equal((await output(page, id).textContent()).trim(), `W 3x4 ${sum(emb)}`);

    // A model file dropped on a code editor opens in the panel; the editor keeps its text.
    const before = await editorText(page, id);
    await page.evaluate((b) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(b)], 'model.safetensors'));
      const target = document.querySelector('[data-testid=cell] .cm-content');
      for (const type of ['dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [...model]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=weights-row]').length === 3, null, { timeout: 15000 });
    assert.equal(await editorText(page, id), before);
    assert.equal(await page.locator('[data-testid=weights-binding]').count(), 0, 'the previous file\'s tensors are unbound');
    await typeInto(page, id, "typeof weights");
    await page.keyboard.press('Control+Enter');
    await waitForState(page, id);
    assert.match(await output(page, id).textContent(), /undefined/);
  });
});

test('after Restart the kept file is opened again and weights.W bound again; an Interrupt that keeps the worker keeps them bound', async () => {
  await withPage(async (page) => {
    await choose(page, file('model.safetensors', model));
    await bind(page, QPROJ);
    await page.click('[data-testid=restart]');
    await page.waitForFunction(() => /opened again/.test(document.querySelector('[data-testid=weights-status]').textContent), null, { timeout: 15000 });
    assert.equal(await page.locator('[data-testid=weights-drop]').getAttribute('data-state'), 'open');
    const id = await probeCell(page);
    assert.equal((await output(page, id).textContent()).trim(), `W 8x4 ${sum(qf)}`);
    // Still usable after the restart: bind another tensor.
    await bind(page, GATE);
    await page.waitForFunction(([cid, text]) => document.querySelector(`[data-testid=cell][data-cell-id="${cid}"] [data-testid=cell-output]`)?.textContent.trim() === text,
      [id, `W 64x32 ${sum(gate)}`], { timeout: 15000 });

    // Interrupt a stuck cell: in this crossOriginIsolated page the loop stops and the worker lives on, so
    // the file and weights.W (now gate_proj) are still there without opening anything again.
    const stuck = await page.locator('[data-testid=cell]').nth(1).getAttribute('data-cell-id');
    await typeInto(page, stuck, 'while (true) {}');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction((cid) => document.querySelector(`[data-testid=cell][data-cell-id="${cid}"]`).dataset.state === 'running', stuck);
    await page.click('[data-testid=interrupt]');
    const notice = page.locator('[data-testid=interrupt-notice]');
    await notice.waitFor({ timeout: 15000 });
    assert.equal(await notice.getAttribute('data-state-kept'), 'true');
    await cell(page, id).locator('[data-testid=cell-run]').click();
    await waitForState(page, id);
    assert.equal((await output(page, id).textContent()).trim(), `W 64x32 ${sum(gate)}`);
  });
});

test('a 3 GiB file (sparse, one 3072×1024 BF16 tensor at its end) is listed and its tensor bound without reading the rest', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-weights-'));
  const big = path.join(dir, 'model.safetensors');
  try {
    // The header declares a 3 GiB filler tensor, then gate_proj; only the header and gate_proj are written.
    const NAME = 'model.layers.12.mlp.gate_proj.weight';
    const filler = 3 * 2 ** 30;
    const n = 3072 * 1024;
    const header = Buffer.from(JSON.stringify({
      'model.embed_tokens.weight': { dtype: 'BF16', shape: [filler / 2 / 1024, 1024], data_offsets: [0, filler] },
      [NAME]: { dtype: 'BF16', shape: [3072, 1024], data_offsets: [filler, filler + 2 * n] },
    }));
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(header.length));
    // BF16 of k/128 for k = i mod 256 (exact: 8 significant bits): a known sum.
    const tensor = Buffer.from(Uint16Array.from({ length: n }, (_, i) => new Uint32Array(Float32Array.of((i % 256) / 128).buffer)[0] >>> 16).buffer);
    const fd = fs.openSync(big, 'w');
    fs.writeSync(fd, Buffer.concat([len, header]), 0, 8 + header.length, 0);
    fs.writeSync(fd, tensor, 0, tensor.length, 8 + header.length + filler);
    fs.closeSync(fd);
    const expected = (n / 256) * ((255 * 256) / 2 / 128);
    await withPage(async (page) => {
      const t0 = Date.now();
      await choose(page, big);
      const listMs = Date.now() - t0;
      assert.equal(await page.locator('[data-testid=weights-drop]').getAttribute('data-state'), 'open');
      assert.match(await page.locator('[data-testid=weights-status]').textContent(), /2 tensors, 3\.2\d GB/);
      await page.fill('[data-testid=weights-filter]', 'gate_proj');
      const t1 = Date.now();
      await bind(page, NAME);
      const bindMs = Date.now() - t1;
      // Summed in double precision in the cell, so the check is exact.
      const id = await page.locator('[data-testid=cell]').first().getAttribute('data-cell-id');
      await typeInto(page, id, "let s = 0; for (const v of weights.W.data()) s += v;\nprint(weights.W.shape.join('x'), s)");
      await page.keyboard.press('Control+Enter');
      await waitForState(page, id);
      assert.equal((await output(page, id).textContent()).trim(), `3072x1024 ${expected}`);
      console.log(`  measured: 3 GiB file listed in ${listMs} ms; the 3072×1024 BF16 tensor read and bound in ${bindMs} ms`);
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the linear-algebra chapter: the panel sits before the real-model cell, which measures the bound weight', async () => {
  await withPage(async (page) => {
    const next = await page.locator('[data-testid=weights-panel]').evaluate((el) => el.nextElementSibling?.dataset.cellId);
    assert.equal(next, 'energy-random');
    await choose(page, file('model.safetensors', model));
    await bind(page, GATE);
    await cell(page, 'energy-random').locator('[data-testid=cell-run]').click();
    await waitForState(page, 'energy-random');
    assert.equal(await cell(page, 'energy-random').getAttribute('data-state'), 'done');
    assert.match(await output(page, 'energy-random').textContent(), /loaded weight 64×32:[\s\S]*rank  32: random [\d.]+%   loaded weight [\d.]+%/);
  }, { chapter: 'linear-algebra' });
});

test('a file of 10,000 tensors: the first 200 rows are drawn and the filter finds one at once', async () => {
  const header = {};
  let off = 0;
  for (let l = 0; l < 400; l++) {
    for (let p = 0; p < 25; p++) {
      header[`model.layers.${l}.part${p}.weight`] = { dtype: 'F32', shape: [4], data_offsets: [off, off + 16] };
      off += 16;
    }
  }
  const text = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(text.length));
  await withPage(async (page) => {
    const t0 = Date.now();
    await choose(page, file('many.safetensors', Buffer.concat([len, text, Buffer.alloc(off)])));
    const listMs = Date.now() - t0;
    assert.equal(await rows(page).count(), 200);
    assert.match(await page.locator('[data-testid=weights-count]').textContent(), /first 200 of 10000 tensors/);
    const t1 = Date.now();
    await page.fill('[data-testid=weights-filter]', 'layers.123. part7');
    assert.deepEqual(await rows(page).evaluateAll((els) => els.map((el) => el.dataset.name)), ['model.layers.123.part7.weight']);
    console.log(`  measured: 10,000 tensors listed in ${listMs} ms, filtered in ${Date.now() - t1} ms`);
  });
});
