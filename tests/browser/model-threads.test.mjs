// tp.model on the pthreads core (build/wasm/web-mt, a crossOriginIsolated page): the forward splits every
// large op over the threads (projections, row-wise ops, attention by K/V head group and query block, lm_head's one row),
// and must give the same bits on 1, 2 and 3 threads for every capture and the logits; its profile shows the
// helper thread working in the large ops; and on 2 threads the fixture model still matches the numpy
// reference forward (tests/fixtures/models/expect) within the fixture's tolerance.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { init } from '../../wasm/js/node.js';
import { buildSite } from '../bench/gemm-browser.mjs';
import { createServer } from '../../web/server.mjs';
import { writeRandomQwen3, qwen3Config } from '../fixtures/models/random-checkpoint.mjs';
import { launch, openPage, root } from './helpers.mjs';

const fixture = 'qwen3-gqa-bf16';
const ex = JSON.parse(fs.readFileSync(path.join(root, 'tests/fixtures/models/expect', `${fixture}.json`), 'utf8'));
// Large enough that every op of the forward passes the split threshold at 300 tokens (2*m*n*k >= 2^24 for
// the products, 65,536 operations for the others), small enough to run in a second.
const mid = qwen3Config({ vocab_size: 2048, hidden_size: 256, intermediate_size: 768, num_hidden_layers: 2,
  num_attention_heads: 4, num_key_value_heads: 2, head_dim: 64 });
const T = 300;

const WORKER = `
import { init } from 'tensorpad';
const files = async (dir, names) => Promise.all(names.map(async (n) => new File([await (await fetch(dir + n)).arrayBuffer()], n)));
const bitsOf = (t) => Array.from(new Uint32Array(t.data().buffer));
self.onmessage = async ({ data }) => {
  try {
    const tp = await init();
    const model = await tp.model.load(await files('./mid/', ['config.json', 'model.safetensors']));
    const ids = Array.from({ length: ${T} }, (_, i) => (i * 37 + 5) % ${mid.vocab_size});
    const runs = [];
    for (const threads of [1, 2, 3]) {
      tp.setNumThreads(threads);
      // Every capture but attn.weights (which takes the kernel's unfused path).
      const all = await model.forward(ids, { logits: 'all', capture: ['embed', 'layers.*.input', 'layers.*.attn.q', 'layers.*.attn.k', 'layers.*.attn.v', 'layers.*.mlp.*', 'norm'], profile: true });
      const last = await model.forward(ids.slice(0, 7));  // lm_head on one row: the matrix-vector split
      runs.push({ threads: tp.getNumThreads(), profile: all.profile,
        bits: [bitsOf(all.logits), bitsOf(last.logits), ...Object.values(all.captures).map(bitsOf)] });
      tp.dispose(all.logits, all.captures, last.logits);
    }
    model.dispose();
    tp.setNumThreads(2);
    const small = await tp.model.load(await files('./fixture/', ${JSON.stringify(fs.readdirSync(path.join(root, 'tests/fixtures/models', fixture)))}));
    const { logits } = await small.forward(${JSON.stringify(ex.ids)}, { logits: 'all' });
    const fixtureLogits = Array.from(logits.data());
    logits.dispose();
    small.dispose();
    const same = runs.slice(1).map((r) => r.bits.length === runs[0].bits.length && r.bits.every((b, i) => b.length === runs[0].bits[i].length && b.every((x, j) => x === runs[0].bits[i][j])));
    self.postMessage({ flavor: tp.coreFlavor, fallback: tp.threadsFallback ?? null, threads: runs.map((r) => r.threads),
      arrays: runs[0].bits.length, same, profile: runs[1].profile, fixtureLogits });
  } catch (e) {
    self.postMessage({ error: String(e?.stack ?? e) });
  }
};
`;

let dir, server, browser;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-model-threads-'));
  await buildSite(dir, { worker: WORKER });
  writeRandomQwen3(path.join(dir, 'mid'), mid, { seed: 3 });
  fs.cpSync(path.join(root, 'tests/fixtures/models', fixture), path.join(dir, 'fixture'), { recursive: true });
  server = createServer(dir);  // COOP/COEP: the page is crossOriginIsolated and gets the pthreads core
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the pthreads core gives the forward\'s logits and captures the same bits on 1, 2 and 3 threads, with the helper working in every large op', async () => {
  const base = `http://127.0.0.1:${server.address().port}/`;
  const context = await browser.newContext();
  const { page, log } = await openPage(context, base);
  let got;
  try {
    await page.goto(base);
    await page.waitForFunction(() => window.ready === true);
    got = await page.evaluate(() => new Promise((resolve) => {
      const w = new Worker('./bench-worker.js', { type: 'module' });
      w.onmessage = ({ data }) => resolve(data);
      w.onerror = (e) => resolve({ error: `worker error: ${e.message}` });
      w.postMessage({});
    }));
    assert.deepEqual(log.errors, [], 'no console error');
  } finally {
    await context.close();
  }
  assert.equal(got.error, undefined, got.error);
  assert.equal(got.flavor, 'web-mt', `fallback: ${got.fallback}`);
  assert.deepEqual(got.threads, [1, 2, 3]);
  // 2 sets of logits, embed, norm and 6 captures in each of 2 layers.
  assert.equal(got.arrays, 2 + 2 + 2 * 6);
  assert.deepEqual(got.same, [true, true], '2 and 3 threads give the bits of 1 thread');
  const helper = Object.fromEntries(got.profile.map((p) => [p.op, p.helperMs]));
  for (const op of ['qkv_proj', 'attention', 'o_proj', 'gate_up_proj', 'swiglu', 'down_proj', 'lm_head']) {
    assert.ok(helper[op] > 0, `the helper thread worked in ${op}: ${JSON.stringify(got.profile)}`);
  }

  // The numpy reference forward, on 2 threads.
  const tp = await init();
  const ref = await tp.io.openSafetensors(path.join(root, 'tests/fixtures/models/expect', ex.tensorsFile));
  const want = await ref.get('logits');
  const w = want.data();
  assert.equal(got.fixtureLogits.length, w.length);
  const { atol, rtol } = ex.tolerance;
  for (let i = 0; i < w.length; i++) {
    assert.ok(Math.abs(got.fixtureLogits[i] - w[i]) <= atol + rtol * Math.abs(w[i]), `logits[${i}]: ${got.fixtureLogits[i]} vs ${w[i]}`);
  }
  want.dispose();
  await ref.close();
});
