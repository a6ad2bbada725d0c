// The tp API in Node: numpy fixtures, the chapter's three views of matmul, memory, RNG bits, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { init, TensorpadError } from 'tensorpad';

const tp = await init();
const fixture = (p) => JSON.parse(readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8'));
const num = (v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v);
const fromFixture = (j) => tp.tensor(Float32Array.from(j.data, num), { shape: j.shape });

function assertClose(got, want, { atol = 1e-5, rtol = 1e-5 } = {}) {
  assert.deepEqual(got.shape, want.shape, 'shapes differ');
  const g = got.data(), w = want.data();
  for (let i = 0; i < g.length; i++) {
    if (g[i] === w[i]) continue;
    assert.ok(Math.abs(g[i] - w[i]) <= atol + rtol * Math.abs(w[i]), `index ${i}: got ${g[i]}, want ${w[i]}`);
  }
}

function runFixtureCase(c) {
  const x = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, fromFixture(v)]));
  const a = c.args;
  switch (c.op) {
    case 'add': case 'sub': case 'mul': case 'div': case 'pow':
      return x.b.shape.length === 0 && c.op === 'pow' ? x.a.pow(x.b.item()) : x.a[c.op](x.b);
    case 'neg': case 'abs': case 'exp': case 'square': case 'sqrt': case 'log': case 'round':
      return x.x[c.op]();
    case 'clamp': return x.x.clamp(a.min, a.max);
    case 'sum': case 'mean': case 'amax': case 'amin': case 'median': return x.x[c.op](a.dim, { keepdim: a.keepdim });
    case 'cumsum': return x.x.cumsum(a.dim);
    case 'softmax': return tp.softmax(x.x, a.dim);
    case 'matmul': return tp.matmul(x.a, x.b);
    case 'outer': return tp.outer(x.a, x.b);
    case 'transpose': return x.x.transpose(a.dim0, a.dim1);
    case 'permute': return x.x.permute(a.dims);
    case 'reshape': return x.x.reshape(a.shape);
    case 'select': return x.x.select(a.dim, a.index);
    case 'narrow': return x.x.narrow(a.dim, a.start, a.length);
    case 'stack': return tp.stack([x.a, x.b], a.dim);
    case 'cat': return tp.cat([x.a, x.b], a.dim);
    case 'norm': return tp.linalg.norm(x.x, num(a.ord), a.dim ?? undefined);
    default: throw new Error(`no runner for fixture op ${c.op}`);
  }
}

test('every core op matches numpy on the committed fixtures', () => {
  const { cases } = fixture('core/ops.json');
  assert.ok(cases.length >= 60);
  for (const c of cases) {
    tp.tidy(() => {
      try {
        assertClose(runFixtureCase(c), fromFixture(c.expect));
      } catch (e) {
        e.message = `${c.op} ${JSON.stringify(c.args)}: ${e.message}`;
        throw e;
      }
    });
  }
});

test('the three views of matmul (dots, column mixes, outer products) agree with A.matmul(B)', () => {
  tp.tidy(() => {
    const A = tp.randn([4, 3], { seed: 1 }), B = tp.randn([3, 5], { seed: 2 });
    const C = A.matmul(B);
    // 1. every entry is a dot product of a row of A with a column of B
    const dots = tp.stack([0, 1, 2, 3].map((i) => tp.stack([0, 1, 2, 3, 4].map((j) => A.select(0, i).mul(B.select(1, j)).sum()))));
    // 2. every column of C mixes the columns of A with weights from a column of B
    const cols = tp.stack([0, 1, 2, 3, 4].map((j) => A.matmul(B.select(1, j))), 1);
    // 3. C is the sum over k of outer(A[:, k], B[k, :])
    let outer = tp.zeros([4, 5]);
    for (let k = 0; k < 3; k++) outer = outer.add(tp.outer(A.select(1, k), B.select(0, k)));
    for (const view of [dots, cols, outer]) assert.ok(tp.allclose(view, C, { atol: 1e-6 }));
  });
});

test('10,000 tidy iterations leave tp.memory() at its baseline', () => {
  const before = tp.memory();
  const keep = tp.ones([16]);
  for (let i = 0; i < 10000; i++) {
    const result = tp.tidy(() => {
      const a = tp.randn([16, 16]);
      return a.matmul(a.T).add(keep).sum(-1).softmax(0).mean();
    });
    result.dispose();
  }
  keep.dispose();
  assert.deepEqual(tp.memory(), before);
});

test('an out-of-memory error says how much live tensors hold and how to free them', async () => {
  // The real heap takes seconds to fill (4 GB), so a core whose next error is an allocation failure stands in.
  const { createApi } = await import('../../wasm/js/api.js');
  const dir = new URL('../../build/wasm/node/', import.meta.url);
  const factory = createRequire(import.meta.url)(fileURLToPath(new URL('tensorpad_core.js', dir)));
  const core = await factory({ wasmBinary: readFileSync(new URL('tensorpad_core.wasm', dir)), print() {}, printErr() {} });
  // Once failNext is set, the next operation allocates nothing and leaves an allocation failure pending.
  let failNext = false, pending = null;
  const passThrough = new Set(['liveHandles', 'liveBytes', 'release']);
  const failing = new Proxy(core, {
    get(target, key) {
      if (key === 'errorPending') return () => pending !== null || target.errorPending();
      if (key === 'takeError' && pending) return () => { const m = pending; pending = null; return m; };
      const v = target[key];
      if (typeof v !== 'function') return v;
      if (failNext && !passThrough.has(key)) {
        return () => { failNext = false; pending = 'alloc: out of memory allocating 4194304 bytes'; return 0; };
      }
      return v.bind(target);
    },
  });
  const tq = createApi(failing);
  const held = [tq.zeros([1024, 1024]), tq.zeros([512, 1024])]; // 6 MB
  failNext = true;
  assert.throws(() => tq.ones([4]), (e) => e instanceof TensorpadError && e.op === 'alloc' &&
    /^alloc: out of memory allocating 4194304 bytes \(2 live tensors hold 6 MB; .*t\.dispose\(\).*tp\.tidy/.test(e.message));
  tq.dispose(held);
  assert.equal(tq.ones([2]).sum().item(), 2, 'the API stays usable');
});

test('tidy keeps what fn returns (also inside arrays and objects) and disposes the rest', () => {
  const before = tp.memory().tensors;
  const { a, list } = tp.tidy(() => {
    tp.zeros([3]);
    return { a: tp.ones([2]), list: [tp.ones([1])] };
  });
  assert.equal(tp.memory().tensors, before + 2);
  assert.deepEqual(a.toArray(), [1, 1]);
  tp.dispose(a, list);
  assert.equal(tp.memory().tensors, before);
});

test('randn with seed 42 matches the committed bit patterns shared with the native build', () => {
  const { bits } = fixture('core/randn_seed42.json');
  const got = tp.randn([bits.length], { seed: 42 }).data();
  const gotBits = [...new Uint32Array(got.buffer)].map((b) => b.toString(16).padStart(8, '0'));
  assert.deepEqual(gotBits, bits);
});

test('manualSeed makes randn without a seed repeatable', () => {
  tp.manualSeed(5);
  const a = tp.randn([6]).data();
  tp.manualSeed(5);
  const b = tp.randn([6]).data();
  assert.deepEqual(a, b);
});

test('tensor() reads nested arrays, numbers and typed arrays, and refuses ragged input with its position', () => {
  assert.deepEqual(tp.tensor([[1, 2], [3, 4]]).shape, [2, 2]);
  assert.equal(tp.tensor(3.5).item(), 3.5);
  assert.deepEqual(tp.tensor(new Float32Array([1, 2, 3, 4, 5, 6]), { shape: [2, 3] }).toArray(), [[1, 2, 3], [4, 5, 6]]);
  assert.throws(() => tp.tensor([[1, 2], [3]]), { name: 'TensorpadError', message: 'tensor: ragged nested array: length 1 at [1], expected 2' });
  assert.throws(() => tp.tensor([1, 'a']), { message: 'tensor: expected a number at [1], got "a"' });
  assert.throws(() => tp.tensor([1, 2, 3], { shape: [2, 2] }), { message: 'tensor: 3 values do not fill shape [2, 2] (4 elements)' });
});

test('matmul names both shapes when they do not align', () => {
  assert.throws(() => tp.zeros([4, 3]).matmul(tp.zeros([4, 5])), {
    name: 'TensorpadError',
    message: 'matmul: shapes [4, 3] and [4, 5] do not align (3 != 4)',
  });
});

test('batched attention shapes [B, Nh, Sq, Dh] @ [B, Nh, Dh, Sk] give [B, Nh, Sq, Sk]', () => {
  tp.tidy(() => {
    const q = tp.randn([2, 4, 3, 8]), k = tp.randn([2, 4, 3, 8]);
    assert.deepEqual(q.matmul(k.transpose(-2, -1)).shape, [2, 4, 3, 3]);
  });
});

test('a disposed tensor refuses use with a clear error, and dispose twice is harmless', () => {
  const t = tp.ones([2]);
  t.dispose();
  t.dispose();
  assert.throws(() => t.add(1), { message: 'add: this tensor was disposed (use after dispose)' });
  assert.equal(t.toString(), 'tensor(<disposed>)');
});

test('toString prints like torch and summarises large tensors', () => {
  assert.equal(tp.tensor([[1, 2], [3, 4]]).toString(), 'tensor([[1., 2.],\n        [3., 4.]])');
  assert.equal(tp.tensor([0.5, -1.25]).toString(), 'tensor([ 0.5000, -1.2500])');
  const big = tp.arange(2000).toString();
  assert.match(big, /^tensor\(\[   0\.,    1\.,    2\., \.\.\., 1997\., 1998\., 1999\.\], shape=\[2000\]\)$/);
});

test('reductions accept negative dims, several dims, and keepdim', () => {
  tp.tidy(() => {
    const x = tp.arange(24).reshape(2, 3, 4);
    assert.deepEqual(x.sum(-1).shape, [2, 3]);
    assert.deepEqual(x.sum([0, 2]).toArray(), [60, 92, 124]);
    assert.deepEqual(x.mean(1, { keepdim: true }).shape, [2, 1, 4]);
    assert.equal(x.amax().item(), 23);
  });
});

// ---- a few hundred malformed calls -------------------------------------------------------------------
function malformedCalls() {
  const good = () => tp.ones([2, 3]);
  const badShapes = [[-1], [2.5], ['a'], [1e6, 1e6], [1e12], [NaN], null, 'abc', {}, [2, -3], [Infinity]];
  const badDims = [3, -4, 2.5, 'x', NaN, 1e10, [0, 0]];
  const calls = [];
  for (const s of badShapes) {
    for (const f of ['zeros', 'ones', 'randn', 'rand']) calls.push([`${f}(${JSON.stringify(s)})`, () => tp[f](s)]);
    if (JSON.stringify(s) !== "[-1]") calls.push([`reshape(${JSON.stringify(s)})`, () => good().reshape(s)]);
    calls.push([`full(${JSON.stringify(s)})`, () => tp.full(s, 1)]);
  }
  for (const d of badDims) {
    for (const m of ['sum', 'mean', 'amax', 'amin', 'cumsum', 'softmax', 'unsqueeze', 'squeeze'])
      calls.push([`${m}(${d})`, () => good()[m](d)]);
    calls.push([`transpose(${d}, 0)`, () => good().transpose(d, 0)]);
    calls.push([`select(${d}, 0)`, () => good().select(d, 0)]);
    calls.push([`select(0, ${d})`, () => good().select(0, d)]);
    calls.push([`narrow(1, ${d}, 1)`, () => good().narrow(1, d, 1)]);
    calls.push([`stack dim ${d}`, () => tp.stack([good(), good()], d)]);
    calls.push([`cat dim ${d}`, () => tp.cat([good(), good()], d)]);
    calls.push([`norm dim ${d}`, () => tp.linalg.norm(good(), 2, d)]);
    calls.push([`permute with ${d}`, () => good().permute([0, d])]);
  }
  for (const s of [[4], [4, 2], [3, 2, 2], [2, 2, 5], []])
    calls.push([`matmul [2,3]@${JSON.stringify(s)}`, () => good().matmul(tp.ones(s))]);
  const others = [[3], [4, 2], [3, 2, 2], [5, 3, 4], []];
  for (const s of others) {
    calls.push([`add [2,3]+${JSON.stringify(s)}`, () => (s.length && s.at(-1) !== 3 ? good().add(tp.ones(s)) : good().add('x'))]);
    calls.push([`cat with ${JSON.stringify(s)}`, () => tp.cat([good(), tp.ones(s)], 0)]);
    calls.push([`stack with ${JSON.stringify(s)}`, () => tp.stack([good(), tp.ones(s)])]);
  }
  const values = [undefined, null, 'str', {}, [1, [2]], () => 1, Symbol('s'), new DataView(new ArrayBuffer(4))];
  for (const v of values) {
    calls.push([`tensor(${String(v)})`, () => tp.tensor(v)]);
    calls.push([`mul by ${String(v)}`, () => good().mul(v)]);
    calls.push([`clamp(${String(v)}, 'a')`, () => good().clamp(v, 'a')]);
    calls.push([`randn seed ${String(v)}`, () => tp.randn([2], { seed: v ?? -1 })]);
    calls.push([`allclose opts ${String(v)}`, () => tp.allclose(good(), good(), { atol: v ?? 'x' })]);
  }
  calls.push(['cumsum(null)', () => good().cumsum(null)]);
  calls.push(['median over a dim list', () => good().median([0, 1])]);
  calls.push(['median of empty', () => tp.zeros([0]).median()]);
  calls.push(['tensor dtype int8', () => tp.tensor([1], { dtype: 'int8' })]);
  calls.push(['item of many', () => good().item()]);
  calls.push(['matmul of scalars', () => tp.matmul(tp.tensor(1), tp.tensor(2))]);
  calls.push(['outer of matrices', () => tp.outer(good(), good())]);
  calls.push(['arange step 0', () => tp.arange(0, 5, 0)]);
  calls.push(['arange wrong way', () => tp.arange(5, 0, 1)]);
  calls.push(['arange huge', () => tp.arange(0, 1e12)]);
  calls.push(['eye negative', () => tp.eye(-2)]);
  calls.push(['clamp min > max', () => good().clamp(2, 1)]);
  calls.push(['softmax without dim', () => tp.softmax(good())]);
  calls.push(['tidy of non-function', () => tp.tidy(3)]);
  calls.push(['amax of empty', () => tp.zeros([0]).amax()]);
  calls.push(['reshape two -1', () => good().reshape(-1, -1)]);
  calls.push(['permute repeats', () => good().permute(0, 0)]);
  calls.push(['expand bad', () => good().expand(4, 3)]);
  return calls;
}

test('hundreds of malformed calls each throw a TensorpadError naming the op, and the module stays usable', () => {
  const calls = malformedCalls();
  assert.ok(calls.length >= 200, `only ${calls.length} malformed calls`);
  const noise = [];
  const saved = { error: console.error, warn: console.warn, log: console.log };
  console.error = console.warn = console.log = (...a) => noise.push(a.join(' '));
  const before = tp.memory();
  try {
    for (const [name, call] of calls) {
      tp.tidy(() => {
        assert.throws(call, (e) => {
          assert.ok(e instanceof TensorpadError, `${name}: threw ${e?.name}: ${e?.message}`);
          assert.match(e.message, /^[\w.]+: \S/, `${name}: message "${e.message}" does not name the op`);
          return true;
        }, `${name} did not throw`);
      });
    }
  } finally {
    Object.assign(console, saved);
  }
  assert.deepEqual(noise, [], 'the core printed to the console');
  assert.deepEqual(tp.memory(), before, 'a malformed call leaked tensors');
  // Still usable: a real product after all those errors.
  assert.deepEqual(tp.tensor([[1, 2], [3, 4]]).matmul(tp.tensor([[5, 6], [7, 8]])).toArray(), [[19, 22], [43, 50]]);
});
