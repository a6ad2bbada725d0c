// tp.model in Chromium: Playwright sets a checkpoint folder's files (tests/fixtures/models/qwen3-gqa-bf16:
// config.json, model.safetensors, tokenizer.json, tokenizer_config.json) on an <input type=file>; the page
// loads them with tp.model.load(input.files) (Blob.slice reads, the tokenizer bundled, no request off the
// page) and must compute the numpy reference's logits and captures within the fixture's tolerance, its
// prompt ids and greedy ids, and free everything on dispose.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { init } from '../../wasm/js/node.js';
import { scriptPage, root } from './helpers.mjs';

const name = 'qwen3-gqa-bf16';
const folder = path.join(root, 'tests/fixtures/models', name);
const ex = JSON.parse(fs.readFileSync(path.join(root, 'tests/fixtures/models/expect', `${name}.json`), 'utf8'));
const checked = ['layers.1.attn.k', 'layers.2.mlp.act', 'norm'];
let harness, page;

const PAGE_SCRIPT = `
import { init } from './wasm/js/browser.js';
window.run = async (ids, prompt, capture, maxNewTokens) => {
  const tp = await init();
  const before = tp.memory();
  const progress = [];
  const model = await tp.model.load(document.querySelector('#files').files, { onProgress: (p) => progress.push(p.tensors) });
  const layers = [];
  const { logits, captures } = await model.forward(ids, { capture, logits: 'all', onProgress: (p) => layers.push(p.step) });
  const out = {
    architecture: model.config.architecture, progress: progress.length, layers,
    logits: Array.from(logits.data()),
    captures: Object.fromEntries(Object.entries(captures).map(([k, t]) => [k, { shape: t.shape, data: Array.from(t.data()) }])),
    encoded: model.tokenizer.encode(prompt),
    greedy: (await model.generate(ids, { maxNewTokens })).ids,
    dtypes: [...new Set(model.weights.map((w) => w.dtype))],
  };
  tp.dispose(logits, captures);
  model.dispose();
  out.sameMemory = JSON.stringify(tp.memory()) === JSON.stringify(before);
  return out;
};
`;

before(async () => {
  harness = await scriptPage(PAGE_SCRIPT, { body: '<input type="file" id="files" multiple>' });
  page = harness.page;
  await page.waitForFunction(() => typeof window.run === 'function');
});
after(async () => { await harness?.close(); });

test('a model folder picked as Files runs in Chromium and matches the numpy reference forward', async () => {
  await page.setInputFiles('#files', fs.readdirSync(folder).map((f) => path.join(folder, f)));
  const got = await page.evaluate(([ids, prompt, capture, n]) => window.run(ids, prompt, capture, n),
    [ex.ids, ex.prompt, checked, ex.greedy.maxNewTokens]);
  assert.equal(got.architecture, 'Qwen3ForCausalLM');
  assert.deepEqual(got.dtypes, ['BF16']);
  assert.ok(got.progress > 0);
  assert.deepEqual(got.layers, [1, 2, 3, 4, 5]);
  assert.deepEqual(got.encoded, ex.ids);
  assert.deepEqual(got.greedy, ex.greedy.ids);
  assert.ok(got.sameMemory, 'tp.memory() is back where it was after dispose');

  const tp = await init();
  const ref = await tp.io.openSafetensors(path.join(root, 'tests/fixtures/models/expect', ex.tensorsFile));
  const { atol, rtol } = ex.tolerance;
  for (const cap of [...checked, 'logits']) {
    const want = await ref.get(cap);
    const ours = cap === 'logits' ? got.logits : got.captures[cap].data;
    if (cap !== 'logits') assert.deepEqual(got.captures[cap].shape, want.shape, cap);
    const w = want.data();
    assert.equal(ours.length, w.length, cap);
    for (let i = 0; i < w.length; i++) {
      assert.ok(Math.abs(ours[i] - w[i]) <= atol + rtol * Math.abs(w[i]), `${cap}[${i}]: ${ours[i]} vs ${w[i]}`);
    }
    want.dispose();
  }
  await ref.close();
  assert.deepEqual(harness.log.errors, []);
  assert.deepEqual(harness.log.foreign, []);
});
