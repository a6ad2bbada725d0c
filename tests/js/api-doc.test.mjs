// wasm/js/api-doc.json, the one description of the public API, against the live tp: every public name
// is described and every described name exists, every example runs, the generated types/*.d.ts are
// current, and a typed sample program compiles against them (tsc --noEmit).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { init } from '../../wasm/js/node.js';
import { generate, API_DOC } from '../../wasm/js/api-types.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = JSON.parse(fs.readFileSync(API_DOC, 'utf8'));
let tp;
before(async () => { tp = await init(); });

const nodeEntries = (list) => list.filter((e) => e.env !== 'browser');
const kindOf = (v) => (typeof v === 'function' ? (/^class\b/.test(Function.prototype.toString.call(v)) ? 'class' : 'function') : typeof v);

test('every name of tp and its namespaces is described, and every described name exists with its kind', () => {
  for (const [ns, list] of Object.entries(doc.namespaces)) {
    const obj = ns.split('.').slice(1).reduce((o, k) => o[k], tp);
    const nested = Object.keys(doc.namespaces).filter((c) => c.startsWith(`${ns}.`)).map((c) => c.split('.')[ns.split('.').length]);
    const live = Object.keys(obj).filter((k) => !nested.includes(k)).sort();
    const described = nodeEntries(list).map((e) => e.name).sort();
    assert.deepEqual(live, described, `${ns}: names in tp (left) and in api-doc.json (right)`);
    for (const e of nodeEntries(list)) {
      const want = e.kind === 'class' ? 'class' : e.kind === 'property' ? kindOf(obj[e.name]) : 'function';
      assert.equal(kindOf(obj[e.name]), want, `${ns}.${e.name} is a ${want}`);
    }
  }
});

test('every method and getter of Tensor and QuantizedTensor is described, and nothing else', () => {
  const publicNames = (proto, extra = []) => [...Object.getOwnPropertyNames(proto), ...extra]
    .filter((k) => k !== 'constructor' && !k.startsWith('_')).sort();
  assert.deepEqual(publicNames(tp.Tensor.prototype), doc.classes.Tensor.map((e) => e.name).sort());
  const q = tp.quant.quantize(tp.ones([2, 2]));
  assert.deepEqual(publicNames(tp.quant.QuantizedTensor.prototype, Object.keys(q)), doc.classes.QuantizedTensor.map((e) => e.name).sort());
  q.dispose();
});

test('every example runs in Node without an error', async () => {
  const AsyncFunction = (async () => {}).constructor;
  const all = [...Object.entries(doc.namespaces), ...Object.entries(doc.classes)]
    .flatMap(([where, list]) => nodeEntries(list).map((e) => [`${where}.${e.name}`, e.example]));
  assert.ok(all.length > 100, `${all.length} examples`);
  for (const [name, example] of all) {
    try {
      await new AsyncFunction('tp', example)(tp);
    } catch (e) {
      assert.fail(`the example of ${name} failed: ${example}\n${e.message}`);
    }
  }
});

test('types/*.d.ts are what wasm/js/api-types.mjs generates from api-doc.json', () => {
  for (const [rel, text] of Object.entries(generate(doc))) {
    assert.equal(fs.readFileSync(path.join(root, rel), 'utf8'), text, `${rel} is stale: run "node wasm/js/api-types.mjs"`);
  }
});

test('a typed sample program compiles against the declarations (tsc --noEmit), and its marked mistakes do not', () => {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tests/types/tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
});
