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
    case 'sum': case 'mean': case 'amax': case 'amin': case 'median': return x.x[c.op](a.dims ?? a.dim, { keepdim: a.keepdim });
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
    case 'norm': return a.dims ? x.x.norm(num(a.ord), a.dims, { keepdim: a.keepdim }) : tp.linalg.norm(x.x, num(a.ord), a.dim ?? undefined);
    case 'isclose': return tp.isclose(x.a, x.b, { rtol: a.rtol, atol: a.atol, equalNan: a.equal_nan });
    default: throw new Error(`no runner for fixture op ${c.op}`);
  }
}

test('every core op matches numpy on the committed fixtures', () => {
  const { cases } = fixture('core/ops.json');
  assert.ok(cases.length >= 160);
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

test('an out-of-memory error names the op called, says how much live tensors hold and how to free them', async () => {
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
  assert.throws(() => tq.ones([4]), (e) => e instanceof TensorpadError && e.op === 'ones' &&
    /^ones: out of memory allocating 4194304 bytes \(2 live tensors hold 6 MB; .*t\.dispose\(\).*tp\.tidy/.test(e.message));
  for (const [op, call] of [['matmul', () => held[1].matmul(held[0])], ['clone', () => held[0].clone()],
    ['add', () => tq.add(held[0], [1])], ['nn.relu', () => tq.nn.relu(held[1])]]) {
    failNext = true;
    assert.throws(call, (e) => e.op === op && e.message.startsWith(`${op}: out of memory allocating 4194304 bytes (`), op);
  }
  tq.dispose(held);
  assert.equal(tq.ones([2]).sum().item(), 2, 'the API stays usable');
});

test('init({finalizers: false}) makes no FinalizationRegistry (Node judge workers end without pending cleanups)', async () => {
  const Original = globalThis.FinalizationRegistry;
  let made = 0;
  globalThis.FinalizationRegistry = class extends Original {
    constructor(cleanup) { super(cleanup); made++; }
  };
  try {
    const plain = await init({ finalizers: false });
    assert.equal(plain.ones([2]).sum().item(), 2);
    assert.equal(made, 0);
    await init({ fresh: true });
    assert.ok(made > 0, 'the default keeps the garbage-collector backstop (tensors, quantized tensors)');
  } finally {
    globalThis.FinalizationRegistry = Original;
  }
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
  // torch: a cut is the item " ..."; 0..1000 stay integers (max/min = 1000), 0..1999 do not (1999 > 1000).
  assert.equal(tp.arange(1001).toString(), 'tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.], shape=[1001])');
  assert.equal(tp.arange(2000).toString(),
    'tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03, 1.9990e+03], shape=[2000])');
});

test("toString chooses integer, fixed or scientific notation by torch's rules, over finite non-zero values", () => {
  // The expected strings are what torch 2.x prints for torch.tensor(values) (torch/_tensor_str.py's _Formatter).
  const cases = [
    [[1e10, 1], 'tensor([1.0000e+10, 1.0000e+00])'],        // integers past 1e8
    [[3e38], 'tensor([3.0000e+38])'],
    [[1, 2000], 'tensor([1.0000e+00, 2.0000e+03])'],        // integers spanning more than 1000x
    [[1, 1000], 'tensor([   1., 1000.])'],
    [[0.5, 1000], 'tensor([5.0000e-01, 1.0000e+03])'],
    [[1e-5, 1], 'tensor([1.0000e-05, 1.0000e+00])'],        // below 1e-4
    [[123456.7, 0.001], 'tensor([1.2346e+05, 1.0000e-03])'],
    [[-0, 1], 'tensor([-0., 1.])'],
    [[0, -0], 'tensor([0., -0.])'],
    [[-0, 1.5], 'tensor([-0.0000, 1.5000])'],
    [[NaN, Infinity, -Infinity, 1], 'tensor([nan, inf, -inf, 1.])'], // width from the finite values only
    [[Infinity, -Infinity], 'tensor([inf, -inf])'],
    [[NaN, 1.5], 'tensor([   nan, 1.5000])'],
    [[0.03125, 0.09375], 'tensor([0.0312, 0.0938])'],       // exact ties round half to even, as Python's format
    [3.5, 'tensor(3.5000)'],
    [0, 'tensor(0.)'],
  ];
  for (const [values, want] of cases) assert.equal(tp.tensor(values).toString(), want, JSON.stringify(values));
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
  calls.push(['median of an empty dim', () => tp.zeros([2, 0]).median(1)]);
  calls.push(['tensor dtype complex64', () => tp.tensor([1], { dtype: 'complex64' })]);
  calls.push(['softmax of int32', () => tp.tensor([1, 2], { dtype: 'int32' }).softmax(0)]);
  calls.push(['item of many', () => good().item()]);
  calls.push(['matmul of scalars', () => tp.matmul(tp.tensor(1), tp.tensor(2))]);
  calls.push(['outer of matrices', () => tp.outer(good(), good())]);
  calls.push(['arange step 0', () => tp.arange(0, 5, 0)]);
  calls.push(['arange wrong way', () => tp.arange(5, 0, 1)]);
  calls.push(['arange huge', () => tp.arange(0, 1e12)]);
  calls.push(['eye negative', () => tp.eye(-2)]);
  calls.push(['clamp without bounds', () => good().clamp()]);
  calls.push(['clamp with nulls', () => good().clamp(null, null)]);
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

// ---- torch parity: options, error names, limits ----------------------------------------------------
test('an unknown option throws, naming the op, the key and the known keys, instead of being ignored', () => {
  tp.tidy(() => {
    const x = tp.tensor([[1, 2], [3, 4]]);
    const unknown = (fn, op, key, known) => assert.throws(fn, (e) => e instanceof TensorpadError &&
      e.message === `${op}: unknown option "${key}" (expected one of ${known})`);
    unknown(() => x.sum(0, { keepDim: true }), 'sum', 'keepDim', 'keepdim');
    unknown(() => x.amax(undefined, { keep: true }), 'amax', 'keep', 'keepdim');
    unknown(() => tp.randn([2], { Seed: 1 }), 'randn', 'Seed', 'seed');
    unknown(() => tp.rand(2, { sed: 1 }), 'rand', 'sed', 'seed');
    unknown(() => tp.allclose(x, x, { tol: 1 }), 'allclose', 'tol', 'rtol, atol, equalNan');
    unknown(() => tp.isclose(x, x, { equal_nan: true }), 'isclose', 'equal_nan', 'rtol, atol, equalNan');
    unknown(() => tp.tensor([1], { shpe: [1] }), 'tensor', 'shpe', 'shape, dtype');
    unknown(() => x.norm(2, 0, { keepDim: true }), 'norm', 'keepDim', 'keepdim');
    unknown(() => tp.linalg.norm(x, 2, 0, { keepDim: true }), 'linalg.norm', 'keepDim', 'keepdim');
    unknown(() => tp.io.saveNpy(x, { dtyp: 'F16' }), 'io.saveNpy', 'dtyp', 'dtype');
  });
});

test("isclose and allclose take {equalNan}, torch's equal_nan: NaN is close to NaN only when asked", () => {
  tp.tidy(() => {
    const a = tp.tensor([NaN, 1, NaN, 2, Infinity]), b = tp.tensor([NaN, 1, 0, NaN, Infinity]);
    assert.deepEqual(tp.isclose(a, b).toArray(), [false, true, false, false, true]);
    assert.deepEqual(tp.isclose(a, b, { equalNan: true }).toArray(), [true, true, false, false, true]);
    assert.deepEqual(tp.isclose([[NaN], [1]], [NaN, 1], { equalNan: true }).toArray(), [[true, false], [false, true]]);
    assert.equal(tp.allclose([NaN, 1], [NaN, 1]), false);
    assert.equal(tp.allclose([NaN, 1], [NaN, 1], { equalNan: true }), true);
    assert.equal(tp.allclose([NaN, 1], [NaN, 1.1], { equalNan: true }), false);
    assert.equal(tp.allclose([NaN, 1], [NaN, 1.1], { equalNan: true, rtol: 0.2 }), true);
    assert.equal(tp.allclose(tp.zeros([0]), tp.zeros([0]), { equalNan: true }), true);
    assert.throws(() => tp.allclose(a, b, { equalNan: 1 }), { message: 'allclose: equalNan must be a boolean, got 1' });
  });
  const before = tp.memory().tensors;
  assert.equal(tp.allclose([NaN], [NaN], { equalNan: true }), true);
  tp.isclose([NaN], [NaN], { equalNan: true }).dispose();
  assert.equal(tp.memory().tensors, before, 'equalNan leaves no tensor behind');
});

test('errors name the op the user called: allclose, toArray/ndim/T on a disposed tensor', () => {
  const t = tp.tensor([1, 2]);
  t.dispose();
  for (const [op, call] of [['toArray', () => t.toArray()], ['ndim', () => t.ndim], ['T', () => t.T],
    ['numel', () => t.numel], ['unsqueeze', () => t.unsqueeze(0)]])
    assert.throws(call, { message: `${op}: this tensor was disposed (use after dispose)` });
  tp.tidy(() => {
    for (const opts of [undefined, { equalNan: true }])
      assert.throws(() => tp.allclose(tp.tensor([1, 1, 1]), tp.tensor([1, 1]), opts), { message: /^allclose: shapes \[3\] and \[2\]/ });
  });
});

test('the 16-dim limit is checked where a shape is made: reshape, unsqueeze, tensor, expand', () => {
  const before = tp.memory().tensors;
  const one = tp.tensor([1]);
  assert.throws(() => one.reshape(Array(1000).fill(1)), { message: 'reshape: the shape has 1000 dims; at most 16 are supported' });
  assert.throws(() => one.reshape(Array(17).fill(1)), { message: /^reshape: shape \[1(, 1){16}\] has 17 dims; at most 16 are supported$/ });
  assert.throws(() => one.expand(Array(17).fill(1)), { message: /^expand: shape \[1(, 1){16}\] has 17 dims/ });
  const t16 = one.reshape(Array(16).fill(1));
  assert.equal(t16.ndim, 16);
  assert.throws(() => t16.unsqueeze(0), { message: 'unsqueeze: a 16-d tensor cannot gain a dim: at most 16 dims are supported' });
  let deep = 1;
  for (let i = 0; i < 17; i++) deep = [deep];
  assert.throws(() => tp.tensor(deep), { message: 'tensor: arrays nested more than 16 deep: at most 16 dims are supported' });
  // A new tensor's shape check inside an op is reported under that op, not the allocator's "empty".
  assert.throws(() => tp.stack([t16, t16]), { message: /^stack: shape \[2(, 1){16}\] has 17 dims/ });
  tp.dispose(one, t16);
  assert.equal(tp.memory().tensors, before);
});

test('malformed arguments raise TensorpadErrors, not raw JS errors: *Like of no tensor, deep or cyclic arrays, symbols', () => {
  const before = tp.memory().tensors;
  let deep = 1;
  for (let i = 0; i < 20000; i++) deep = [deep];
  const cyclic = [];
  cyclic.push(cyclic);
  for (const [name, call, message] of [
    ['zerosLike()', () => tp.zerosLike(), 'zerosLike: expects a tensor, got undefined'],
    ['onesLike(null)', () => tp.onesLike(null), 'onesLike: expects a tensor, got null'],
    ['zerosLike([1, 2])', () => tp.zerosLike([1, 2]), 'zerosLike: expects a tensor, got [1, 2]'],
    ['20000-deep array', () => tp.tensor(deep), /^tensor: arrays nested more than 16 deep/],
    ['cyclic array', () => tp.tensor(cyclic), /^tensor: arrays nested more than 16 deep/],
    ['symbol in zeros', () => tp.zeros(-1, Symbol('s')), 'zeros: shape must be an array of integers, got [-1, Symbol(s)]'],
    ['symbol in expand', () => tp.ones([2]).expand(-1, Symbol('s')), /^expand: shape must be an array of integers/],
    ['symbol as tensor', () => tp.tensor(Symbol('s')), /^tensor: cannot make a tensor from Symbol\(s\)/],
    ['symbol in a mask', () => tp.nn.scaledDotProductAttention(tp.ones([1, 2]), tp.ones([1, 2]), tp.ones([1, 2]), { mask: [[Symbol('s')]] }),
      /^nn\.scaledDotProductAttention: expected a number at \[0, 0\], got Symbol\(s\)/],
  ]) {
    tp.tidy(() => assert.throws(call, (e) => {
      assert.ok(e instanceof TensorpadError, `${name}: threw ${e?.name}: ${e?.message}`);
      if (typeof message === 'string') assert.equal(e.message, message, name);
      else assert.match(e.message, message, name);
      return true;
    }));
  }
  assert.equal(tp.memory().tensors, before);
});

test('a reduction over several dims that fails part-way leaves no tensor behind', () => {
  const x = tp.zeros([2, 0]);
  const before = tp.memory().tensors;
  assert.throws(() => x.amax([0, 1]), { message: /^amax: cannot reduce dim 1 of size 0/ });
  assert.throws(() => x.amin([1, 0], { keepdim: true }), { message: /^amin: cannot reduce dim 1 of size 0/ });
  assert.equal(tp.memory().tensors, before);
  x.dispose();
});

test('randn and rand take sizes as separate numbers too, like zeros and torch, with or without {seed}', () => {
  tp.tidy(() => {
    assert.deepEqual(tp.randn(2, 3).shape, [2, 3]);
    assert.deepEqual(tp.rand(4).shape, [4]);
    assert.deepEqual(tp.randn(2, 3, { seed: 5 }).toArray(), tp.randn([2, 3], { seed: 5 }).toArray());
    assert.deepEqual(tp.rand(3, { seed: 5 }).toArray(), tp.rand([3], { seed: 5 }).toArray());
    assert.throws(() => tp.randn({ seed: 1 }), { message: /^randn: shape must be an array of integers/ });
    assert.throws(() => tp.randn([2], { seed: 1 }, 3), { message: 'randn: expects (shape, options) or sizes, got 3 arguments' });
  });
});

test('clamp follows torch: min > max sets every element to max, NaN stays; no bound at all is an error', () => {
  tp.tidy(() => {
    const x = tp.tensor([-2, 0, 2, NaN]);
    assert.deepEqual(x.clamp(1, -1).toArray(), [-1, -1, -1, NaN]);
    assert.deepEqual(x.clamp(-1, 1).toArray(), [-1, 0, 1, NaN]);
    assert.deepEqual(x.clamp(null, 1).toArray(), [-2, 0, 1, NaN]);
    assert.deepEqual(x.clamp(0).toArray(), [0, 0, 2, NaN]);
    for (const call of [() => x.clamp(), () => x.clamp(null, undefined)])
      assert.throws(call, { message: "clamp: at least one of min and max must be given (as torch's clamp)" });
  });
});

test('expand takes -1 to keep a dim, as torch; not for a new leading dim', () => {
  tp.tidy(() => {
    const x = tp.tensor([[1], [2]]);
    assert.deepEqual(x.expand([-1, 3]).toArray(), [[1, 1, 1], [2, 2, 2]]);
    assert.deepEqual(x.expand(4, -1, -1).shape, [4, 2, 1]);
    assert.throws(() => x.expand(-1, 2, 3), { message: "expand: -1 keeps a dim's size, but dim 0 of [-1, 2, 3] is a new leading dim" });
  });
});

test('an empty dim list reduces every dim, as torch (not none, as numpy); median refuses it', () => {
  tp.tidy(() => {
    const x = tp.tensor([[1, 2], [3, 4]]);
    assert.deepEqual([x.sum([]).shape, x.sum([]).item()], [[], 10]);
    assert.equal(x.mean([]).item(), 2.5);
    assert.deepEqual(x.amax([], { keepdim: true }).toArray(), [[4]]);
    assert.equal(tp.tensor(3).sum([]).item(), 3);
    assert.throws(() => x.median([]), { message: 'median: reduces one dim or all of them, not a list of dims' });
  });
});

test('a 0-d tensor reduces over a dim list of 0 or -1, as over the single dim, as torch', () => {
  tp.tidy(() => {
    const s = tp.tensor(3);
    assert.deepEqual([s.sum([0]).shape, s.sum([0]).item()], [[], 3]);
    assert.deepEqual(s.amax([-1], { keepdim: true }).shape, []);
    assert.throws(() => s.sum([0, -1]), { message: 'sum: dim -1 appears twice in [0, -1]' });
    assert.throws(() => s.sum([1]), { message: 'sum: dim 1 is out of range for a 0-d tensor (expected -1..0)' });
  });
});

test('a sum over a dim list is one line summed in the core in double: 2^24 + 1 + 1 keeps both ones', () => {
  tp.tidy(() => {
    // Dim by dim in float32, 2^24 + 1 rounds back to 2^24 and both ones are lost.
    const x = tp.tensor([[16777216, 1], [1, 0]]);
    assert.equal(x.sum([0, 1]).item(), 16777218);
    assert.equal(x.sum([1, 0], { keepdim: true }).item(), 16777218);
    assert.equal(x.norm(1, [0, 1]).item(), 16777218);
  });
});

test('amax over a dim list with an empty dim names the shape the caller passed', () => {
  tp.tidy(() => {
    assert.throws(() => tp.zeros([3, 0]).amax([0, 1]), { message: 'amax: cannot reduce dim 1 of size 0 (shape [3, 0])' });
    assert.deepEqual(tp.zeros([3, 0]).sum([0, 1]).item(), 0);
  });
});

test('the median of an empty tensor is NaN, as torch; along an empty dim it is an error', () => {
  tp.tidy(() => {
    assert.ok(Number.isNaN(tp.zeros([0]).median().item()));
    const kept = tp.zeros([3, 0]).median(undefined, { keepdim: true });
    assert.deepEqual(kept.shape, [1, 1]);
    assert.ok(Number.isNaN(kept.item()));
    assert.throws(() => tp.zeros([3, 0]).median(1), { message: /^median: cannot reduce dim 1 of size 0/ });
  });
});

test("Tensor.norm follows torch.norm: a number p over every element (a matrix flattened), a dim or a dim list; 'fro' is p = 2", () => {
  tp.tidy(() => {
    const A = tp.tensor([[1, -2], [3, 4]]);
    assertClose(A.norm(2), tp.tensor(Math.sqrt(30)));
    assert.equal(A.norm(1).item(), 10);
    assert.equal(A.norm(Infinity).item(), 4);
    assertClose(A.norm(2, [0, 1]), tp.tensor(Math.sqrt(30)));
    assertClose(A.norm('fro', 1), tp.tensor([Math.sqrt(5), 5]));
    assertClose(A.norm(1, [1, 0], { keepdim: true }), tp.tensor([[10]]));
    // Over dims 0 and 2 of a [2, 3, 2] tensor of ones: four ones per entry of dim 1.
    assertClose(tp.ones([2, 3, 2]).norm(2, [0, -1]), tp.tensor([2, 2, 2]));
    assert.deepEqual(tp.ones([2, 3, 2]).norm(1, [0, 2], { keepdim: true }).shape, [1, 3, 1]);
    assert.throws(() => A.norm(2, [0, 0]), { message: 'norm: dim 0 appears twice in [0, 0]' });
    assert.throws(() => A.norm('fro', [0, 1, 0]), { message: "norm: 'fro' takes at most two dims, got [0, 1, 0]" });
  });
});

test('isclose and allclose take infinite tolerances, as torch; negative or NaN ones are refused', () => {
  tp.tidy(() => {
    const a = tp.tensor([1, 2, 3]);
    assert.equal(tp.allclose(a, a.mul(100), { atol: Infinity }), true);
    assert.deepEqual(tp.isclose(a, a.mul(100), { rtol: Infinity }).toArray(), [true, true, true]);
    assert.throws(() => tp.allclose(a, a, { atol: -1 }), { message: /^allclose: rtol and atol must be non-negative/ });
  });
});

test('cat skips 1-d empty tensors, as torch does for shape [0]; other empty shapes must match', () => {
  tp.tidy(() => {
    assert.deepEqual(tp.cat([tp.ones([2, 2]), tp.zeros([0])]).toArray(), [[1, 1], [1, 1]]);
    assert.deepEqual(tp.cat([tp.zeros([0]), tp.ones([1, 2]), tp.zeros([0])], 1).toArray(), [[1, 1]]);
    assert.deepEqual(tp.cat([tp.zeros([0]), tp.zeros([0])]).shape, [0]);
    assert.throws(() => tp.cat([tp.ones([2, 2]), tp.zeros([0, 3])]), { message: /^cat: tensor 1 has shape \[0, 3\]/ });
    assert.throws(() => tp.cat([tp.zeros([0]), tp.tensor(1)]), { message: 'cat: zero-dimensional tensors cannot be concatenated (tensor 1)' });
  });
});

test('errors name the op called: eye too large, tensor() and applyRope of a disposed tensor, matmul batch dims', () => {
  const d = tp.ones([2, 2]);
  d.dispose();
  assert.throws(() => tp.eye(100000), { message: /^eye: shape \[100000, 100000\] is too large/ });
  assert.throws(() => tp.tensor(d), { message: 'tensor: this tensor was disposed (use after dispose)' });
  assert.throws(() => tp.tensor(d, { shape: [4] }), { message: 'tensor: this tensor was disposed (use after dispose)' });
  assert.throws(() => tp.nn.applyRope(d), { message: 'nn.applyRope: this tensor was disposed (use after dispose)' });
  tp.tidy(() => assert.throws(() => tp.zeros([2, 2, 3]).matmul(tp.zeros([3, 3, 2])),
    { message: 'matmul: shapes [2, 2, 3] and [3, 3, 2] have batch dims that do not broadcast (2 vs 3)' }));
});

test('squeeze(0) and squeeze(-1) of a 0-d tensor return it, as torch; other dims are out of range', () => {
  tp.tidy(() => {
    const s = tp.tensor(7);
    assert.deepEqual([s.squeeze(0).shape, s.squeeze(0).item()], [[], 7]);
    assert.deepEqual(s.squeeze(-1).shape, []);
    assert.throws(() => s.squeeze(1), { message: /^squeeze: dim 1 is out of range for a 0-d tensor/ });  // the core's wrap_dim
  });
});

test('tensor() of a list of tensors (0-d as torch, or any equal shape) stacks them; ragged ones are refused', () => {
  tp.tidy(() => {
    assert.deepEqual(tp.tensor([tp.tensor(1), tp.tensor(2)]).toArray(), [1, 2]);
    assert.deepEqual(tp.tensor([tp.tensor([1, 2]), tp.tensor([3, 4])]).toArray(), [[1, 2], [3, 4]]);
    assert.deepEqual(tp.tensor([[tp.tensor(1), 2], [3, tp.tensor(4)]]).toArray(), [[1, 2], [3, 4]]);
    assert.deepEqual(tp.tensor([tp.tensor([1, 2]).T]).shape, [1, 2]);
    assert.throws(() => tp.tensor([tp.tensor([1, 2]), tp.tensor([3])]),
      { message: 'tensor: ragged nested array: a tensor of shape [1] at [1], expected shape [2]' });
  });
});
