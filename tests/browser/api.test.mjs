// The tp API in Chromium: the browser build (ES6 core, bundled by esbuild) gives the same numbers as Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init } from 'tensorpad';
import { scriptPage, root } from './helpers.mjs';

let harness;

const PAGE_SCRIPT = `
import { init } from 'tensorpad';
window.run = async () => {
  const tp = await init();
  const A = tp.randn([4, 3], { seed: 1 }), B = tp.randn([3, 5], { seed: 2 });
  let outer = tp.zeros([4, 5]);
  for (let k = 0; k < 3; k++) outer = outer.add(tp.outer(A.select(1, k), B.select(0, k)));
  let error = null;
  try { A.matmul(tp.zeros([4, 5])); } catch (e) { error = e.name + ': ' + e.message; }
  return {
    product: Array.from(A.matmul(B).data()),
    viewsAgree: tp.allclose(outer, A.matmul(B), { atol: 1e-6 }),
    randnBits: Array.from(new Uint32Array(tp.randn([64], { seed: 42 }).data().buffer)),
    error,
    usableAfterError: tp.tensor([[1, 2], [3, 4]]).matmul(tp.tensor([[5, 6], [7, 8]])).toArray(),
  };
};
`;

before(async () => {
  harness = await scriptPage(PAGE_SCRIPT);
  await harness.page.waitForFunction(() => typeof window.run === 'function');
});

after(() => harness?.close());

test('the browser build computes the same product, RNG bits and errors as Node', async () => {
  const got = await harness.page.evaluate(() => window.run());
  const tp = await init();
  const A = tp.randn([4, 3], { seed: 1 }), B = tp.randn([3, 5], { seed: 2 });
  assert.deepEqual(got.product, Array.from(A.matmul(B).data()), 'product differs from Node');
  assert.equal(got.viewsAgree, true);
  const golden = JSON.parse(readFileSync(join(root, 'tests/fixtures/core/randn_seed42.json'), 'utf8')).bits;
  assert.deepEqual(got.randnBits.map((b) => b.toString(16).padStart(8, '0')), golden);
  assert.equal(got.error, 'TensorpadError: matmul: shapes [4, 3] and [4, 5] do not align (3 != 4)');
  assert.deepEqual(got.usableAfterError, [[19, 22], [43, 50]]);
  assert.deepEqual(harness.log.errors, []);
  assert.deepEqual(harness.log.foreign, []);
});
