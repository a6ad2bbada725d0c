// wasm/tools/reorder-functions.mjs, the cores' last build step: it moves functions, so a module must
// behave exactly as before (every call, table slot and export reaching the same code) and keep every
// body but for the remapped function indices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reorderFunctions } from '../../wasm/tools/reorder-functions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// ---- a small module written byte by byte ----
const leb = (v) => { const o = []; do { let x = v & 0x7f; v >>>= 7; if (v) x |= 0x80; o.push(x); } while (v); return o; };
const vec = (items) => [...leb(items.length), ...items.flat()];
const str = (s) => vec([...Buffer.from(s)]);
const section = (id, payload) => [id, ...leb(payload.length), ...payload];
const body = (code) => { const b = [0, ...code, 0x0b]; return [...leb(b.length), ...b]; };  // no locals
const I32 = 0x7f, CONST = 0x41, ADD = 0x6a, MUL = 0x6c, CALL = 0x10, GET = 0x20;
const c = (v) => [CONST, ...leb(v)];  // non-negative constants under 2^31

// Function 0 is the import env.twice; 1 and 3 are alike (a long run of the same arithmetic), 2 differs,
// so that the greedy order (nothing pinned) puts 3 right after 1 and every later index moves.
const arith = (k) => [...c(1000), ...Array.from({ length: 12 }, (_, i) => [...c(7 + i), ADD, ...c(3), MUL]).flat(), ...c(k), ADD];
const funcs = [
  { type: 0, code: arith(1) },                                             // 1
  { type: 0, code: [...c(5), ...c(6), MUL] },                              // 2: 30
  { type: 0, code: arith(2) },                                             // 3
  { type: 1, code: [CALL, 3, CALL, 1, ADD, GET, 0, ADD, CALL, 0] },        // 4: twice(f3 + f1 + x)
  { type: 0, code: [...c(1), 0x11, 0, 0] },                                // 5: table[1]() (call_indirect type 0)
  { type: 0, code: [CALL, 2, CALL, 2, ADD] },                              // 6: f2 + f2
];
const module = Buffer.from([
  0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  ...section(1, vec([[0x60, 0, 1, I32], [0x60, 1, I32, 1, I32]])),
  ...section(2, vec([[...str('env'), ...str('twice'), 0, 1]])),
  ...section(3, vec(funcs.map((f) => [f.type]))),
  ...section(4, vec([[0x70, 0, 2]])),
  ...section(7, vec([['run', 4], ['viaTable', 5], ['f1', 1], ['f2', 2], ['f3', 3], ['sum2', 6]].map(([n, i]) => [...str(n), 0, i]))),
  ...section(9, vec([[0, ...c(0), 0x0b, ...vec([[2], [3]])]])),  // table = [f2, f3]
  ...section(10, vec(funcs.map((f) => body(f.code)))),
]);

const run = (bytes) => {
  const { exports: e } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { twice: (x) => 2 * x } });
  return { run: [0, 5, -9].map((x) => e.run(x)), viaTable: e.viaTable(), f1: e.f1(), f2: e.f2(), f3: e.f3(), sum2: e.sum2() };
};

// The code section's bodies, in order.
function bodies(bytes) {
  const u = (i) => { let r = 0, s = 0, x; do { x = bytes[i++]; r |= (x & 0x7f) << s; s += 7; } while (x & 0x80); return [r, i]; };
  for (let i = 8; i < bytes.length;) {
    const id = bytes[i];
    const [n, start] = u(i + 1);
    if (id === 10) {
      let [count, j] = u(start);
      const out = [];
      for (; count > 0; count--) { const [m, k] = u(j); out.push(Buffer.from(bytes.subarray(k, k + m))); j = k + m; }
      return out;
    }
    i = start + n;
  }
  return [];
}

test('reorderFunctions moves alike functions together and the module computes the same', () => {
  assert.ok(WebAssembly.validate(module));
  const { bytes, order, imported } = reorderFunctions(module, { pin: 0 });
  assert.equal(imported, 1);
  assert.deepEqual(order.slice(0, 2), [1, 3], 'f3, alike to f1, comes right after it');
  assert.notDeepEqual(order, [1, 2, 3, 4, 5, 6]);
  assert.ok(WebAssembly.validate(bytes));
  const before = run(module), after = run(bytes);
  assert.deepEqual(after, before);
  // Closed forms, so that a tool that broke both modules alike would still fail.
  const f = (k) => [1000, ...Array.from({ length: 12 }, (_, i) => i)].reduce((a, i) => (a + 7 + i) * 3) + k;
  assert.equal(before.f1, f(1));
  assert.equal(before.viaTable, f(2));
  assert.deepEqual(before.run, [0, 5, -9].map((x) => (2 * (f(2) + f(1) + x)) | 0));  // i32 wraps
  assert.equal(before.sum2, 60);
  // Bodies without calls are byte for byte where the order says; the others differ only in length by LEB.
  const old = bodies(module), now = bodies(bytes);
  order.forEach((was, pos) => {
    if (!funcs[was - 1].code.includes(CALL)) assert.deepEqual(now[pos], old[was - 1], `function ${was}`);
    else assert.equal(now[pos].length, old[was - 1].length, `function ${was}`);
  });
});

test('with the default pin, a module of fewer than 128 functions keeps its order', () => {
  const { bytes, order } = reorderFunctions(module);
  assert.deepEqual(order, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(bytes, module);
});

test('the built core reorders into a valid module of the same size and functions', (t) => {
  const file = path.join(root, 'build', 'wasm', 'node', 'tensorpad_core.wasm');
  if (!fs.existsSync(file)) return t.skip('build/wasm/node is not built');
  const core = fs.readFileSync(file);
  const { bytes, order, imported } = reorderFunctions(core);
  assert.ok(WebAssembly.validate(bytes));
  assert.deepEqual([...order].sort((a, b) => a - b), order.map((_, k) => imported + k));
  assert.deepEqual(bodies(bytes).map((b) => b.length).sort(), bodies(core).map((b) => b.length).sort());
  // The same bytes at every build.
  assert.deepEqual(reorderFunctions(core).bytes, bytes);
});
