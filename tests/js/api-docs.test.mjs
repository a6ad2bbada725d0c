// Completion and hover docs come from the one API description (wasm/js/api-doc.json): every name the
// editor completes on tp, its namespaces and a tensor has an entry with a signature (or type) and a
// line of doc, so the editor cannot offer a function it cannot document; options objects list their keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from 'tensorpad';
import { indexDocs, docFor, signatureLine, optionKeys } from '../../web/src/api-docs.js';
import { completionsFor } from '../../web/runtime/kernel-worker.js';
import { createScope } from '../../web/runtime/cells.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const index = indexDocs(JSON.parse(fs.readFileSync(path.join(root, 'wasm/js/api-doc.json'), 'utf8')));

test('every name completed on tp, its namespaces and a tensor has a signature and a line of doc', async () => {
  const tp = await init();
  globalThis.tp = tp;
  const scope = createScope({ x: tp.ones([2, 2]) });
  const missing = [];
  for (const path of ['tp', 'tp.linalg', 'tp.nn', 'tp.quant', 'tp.lora', 'tp.synth', 'tp.io', 'x']) {
    const { items, owner } = completionsFor(path, scope);
    assert.equal(owner, path === 'x' ? 'Tensor' : path);
    for (const { label } of items) {
      const entry = docFor(index, owner, label);
      if (!entry || !entry.doc || !signatureLine(entry)) missing.push(`${owner}.${label}`);
    }
  }
  assert.deepEqual(missing, [], 'completed names with no description in wasm/js/api-doc.json');
});

test('an options object\'s keys come from the signature, literal or named', () => {
  assert.deepEqual(optionKeys(index, docFor(index, 'Tensor', 'sum'), 1), ['keepdim']);
  assert.deepEqual(optionKeys(index, docFor(index, 'tp.linalg', 'norm'), 3), ['keepdim']);
  const allclose = docFor(index, 'tp', 'allclose');
  assert.deepEqual(optionKeys(index, allclose, 2).sort(), ['atol', 'equalNan', 'rtol']);
  assert.deepEqual(optionKeys(index, docFor(index, 'Tensor', 'matmul'), 0), []);
});
