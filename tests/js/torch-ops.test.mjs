// Every op of issue 22 against torch itself, through the JS API: the committed fixtures in
// tests/fixtures/torch/*.json (made by gen_*.py there with Debian's python3-torch; see cases.py for the
// format) are run case by case, and values, shapes and dtypes are compared: exactly for integers and
// bools, within the tolerance of TOLERANCE below for floats. Where torch raises, we must raise a
// TensorpadError. The summary printed at the end gives cases per op, mismatches and deliberate differences.
//
// Ops and dtypes that do not exist yet are on EXPECTED_MISSING_OPS / EXPECTED_MISSING_DTYPES: their cases
// are counted as waiting, never as passed, and a test fails as soon as one of them starts to exist (remove
// it from the list, and its cases run). So the lists only shrink, and always say what is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { init, TensorpadError } from 'tensorpad';

const tp = await init();
const dir = new URL('../fixtures/torch/', import.meta.url);
const groups = readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')));

// ---- what does not exist yet (shrinks as ops land; see the header) --------------------------------------
const EXPECTED_MISSING_DTYPES = [];
const EXPECTED_MISSING_OPS = [
];

// ---- how each fixture op is called through tp ------------------------------------------------------------
const T = tp.Tensor.prototype;
const method = (name) => (x, ...args) => x[name](...args);
// torch.f(x, ...) as tp.f(x, ...) when tp has it, else as x.f(...).
const fnOrMethod = (name) => (x, ...args) => (typeof tp[name] === 'function' ? tp[name](x, ...args) : x[name](...args));
const hasFnOrMethod = (name) => () => typeof tp[name] === 'function' || typeof T[name] === 'function';
const dimOpts = (name) => (x, dim, kw) => (dim === undefined ? x[name]() : x[name](dim, kw));
const probe = (f) => () => { try { return f(); } catch { return false; } };

const RUN = {};
const def = (names, has, run) => { for (const n of [names].flat()) RUN[n] = { has: has(n), run: run(n) }; };
const always = () => () => true;
// Creation with a {dtype} option (every creation case gives one; promoteTypes uses it too).
const withDtype = () => probe(() => tp.tidy(() => tp.zeros([1], { dtype: 'float32' }).shape.length === 1));
def(['add', 'sub', 'mul', 'div', 'pow', 'maximum', 'minimum'], always, (n) => (a, b) => tp[n](a, b));
// torch.promote_types(a, b) as tp.promoteTypes, else as the dtype of an actual add of one-element tensors.
def('promoteTypes', withDtype, () => (a, b) => (typeof tp.promoteTypes === 'function' ? tp.promoteTypes(a, b)
  : tp.add(tp.zeros([1], { dtype: a }), tp.zeros([1], { dtype: b })).dtype));
def(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr', 'where'], (n) => () => typeof tp[n] === 'function',
  (n) => (...args) => tp[n](...args));
def('logicalNot', hasFnOrMethod, fnOrMethod);
def('maskedFill', (n) => () => typeof T[n] === 'function', method);
def(['any', 'all', 'sum', 'mean', 'prod', 'amax', 'amin', 'logsumexp', 'argmax', 'argmin', 'max', 'min'],
  (n) => () => typeof T[n] === 'function', dimOpts);
def(['var', 'std'], (n) => () => typeof T[n] === 'function', dimOpts);
def('isclose', always, () => (a, b, kw = {}) =>
  tp.isclose(a, b, { rtol: kw.rtol, atol: kw.atol, equalNan: kw.equal_nan }));
def(['sin', 'cos', 'tan', 'tanh', 'sigmoid', 'erf', 'expm1', 'log1p', 'rsqrt', 'reciprocal', 'sign', 'floor', 'ceil',
  'trunc', 'neg', 'abs', 'sqrt', 'exp', 'log', 'square', 'round', 'relu'], (n) => () => typeof T[n] === 'function', method);
def(['cumsum', 'cumprod'], (n) => () => typeof T[n] === 'function', method);
def(['softmax', 'logSoftmax'], (n) => () => typeof tp[n] === 'function', (n) => (x, dim) => tp[n](x, dim));
def('topk', (n) => () => typeof T[n] === 'function', () => (x, k, kw) => x.topk(k, kw));
def(['sort', 'argsort'], (n) => () => typeof T[n] === 'function', (n) => (x, dim, kw) => x[n](dim, kw));
def(['gather', 'indexSelect'], hasFnOrMethod, fnOrMethod);
def('embedding', () => () => typeof tp.nn.embedding === 'function', () => (ids, W) => tp.nn.embedding(ids, W));
def(['flip', 'roll', 'split', 'chunk', 'tile', 'unflatten', 'tril', 'triu', 'squeeze', 'unsqueeze'],
  (n) => () => typeof T[n] === 'function', method);
def('repeat', (n) => () => typeof T[n] === 'function', () => (x, sizes) => x.repeat(...sizes));
// flatten() existed before issue 22 without start/end dims: it counts once flatten(1) keeps dim 0.
def('flatten', () => probe(() => tp.tidy(() => tp.zeros([2, 3, 4]).flatten(1).shape.length === 2)), method);
def(['zeros', 'ones'], withDtype, (n) => (shape, kw) => tp[n](shape, kw));
def('full', withDtype, () => (shape, v, kw) => tp.full(shape, v, kw));
def('tensor', withDtype, () => (v, kw) => tp.tensor(v, kw));
def('arange', withDtype, () => (...args) => tp.arange(...args));
def(['linspace', 'logspace'], (n) => () => typeof tp[n] === 'function', (n) => (...args) => tp[n](...args));
def('to', (n) => () => typeof T[n] === 'function', () => (x, dtype) => x.to(dtype));
def('einsum', () => () => typeof tp.einsum === 'function', () => (eq, ...xs) => tp.einsum(eq, ...xs));
def(['matrixPower', 'pinv', 'cond'], (n) => () => typeof tp.linalg[n] === 'function', (n) => (...args) => tp.linalg[n](...args));

const DTYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int32', 'int64', 'uint8', 'int8', 'bool'];
const hasDtype = (d) => d === 'float32' || probe(() => tp.tidy(() => tp.zeros([1], { dtype: d }).dtype === d))();

// ---- decoding (format in tests/fixtures/torch/cases.py) ----------------------------------------------------
const num = (v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v);
const isTensorJson = (v) => v !== null && typeof v === 'object' && 'dtype' in v && 'shape' in v && 'data' in v;
function decode(v) {
  if (isTensorJson(v)) {
    const data = v.data.map(num);
    return v.dtype === 'float32' && !tp.Tensor.prototype.to
      ? tp.tensor(Float32Array.from(data), { shape: v.shape })
      : tp.tensor(data, { shape: v.shape, dtype: v.dtype });
  }
  if (Array.isArray(v)) return v.map(decode);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
  return num(v);
}
// Every dtype a case touches: its tensors', its outputs', and dtype names given as arguments.
function dtypesOf(c) {
  const out = new Set();
  const walk = (v) => {
    if (isTensorJson(v)) out.add(v.dtype);
    else if (typeof v === 'string' && (DTYPES.includes(v) || v === 'int16')) out.add(v);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(c.args); walk(c.kw ?? {}); walk(c.out);
  return out;
}

// ---- comparison --------------------------------------------------------------------------------------------
const EPS = { float32: 2 ** -23, float64: 2 ** -52, float16: 2 ** -10, bfloat16: 2 ** -7 };
// Float tolerance per op class, in units of the output dtype's epsilon: |got - want| <= k (|want| + scale),
// scale being 0, or for sums, norms and decompositions the largest finite |input| (cancellation makes an
// error relative to the inputs, not the result). Integers and bools are always exact.
const CLASS = {};
const cls = (k, scaled, ops) => { for (const o of ops) CLASS[o] = { k, scaled }; };
cls(0, false, ['maximum', 'minimum', 'neg', 'abs', 'sign', 'floor', 'ceil', 'trunc', 'round', 'relu', 'amax', 'amin',
  'max', 'min', 'topk', 'sort', 'where', 'maskedFill', 'gather', 'indexSelect', 'embedding', 'flip', 'roll', 'split',
  'chunk', 'repeat', 'tile', 'flatten', 'unflatten', 'squeeze', 'unsqueeze', 'tril', 'triu', 'zeros', 'ones', 'full',
  'tensor', 'arange', 'to']);
cls(1, false, ['add', 'sub', 'mul', 'div', 'square', 'sqrt', 'reciprocal']);
cls(4, false, ['pow', 'sin', 'cos', 'tan', 'tanh', 'sigmoid', 'erf', 'expm1', 'log1p', 'rsqrt', 'exp', 'log',
  'linspace', 'logspace']);
cls(64, true, ['sum', 'mean', 'prod', 'var', 'std', 'logsumexp', 'cumsum', 'cumprod', 'softmax', 'logSoftmax', 'einsum']);
cls(2 ** 12, true, ['matrixPower', 'pinv', 'cond']);
const TOLERANCE = (op, dtype) => {
  const { k, scaled } = CLASS[op] ?? { k: 4, scaled: false };
  // f16/bf16 results are rounded from float32 work by torch and by us: one ulp apart at most, more
  // only where a reduction's order differs.
  const kk = dtype === 'float16' || dtype === 'bfloat16' ? Math.min(k, scaled ? 4 : 1) : k;
  return { k: kk, eps: EPS[dtype], scaled };
};

function scaleOf(args) {
  let m = 0;
  const walk = (v) => {
    if (isTensorJson(v)) for (const x of v.data) { const f = Math.abs(num(x)); if (Number.isFinite(f) && f > m) m = f; }
    else if (Array.isArray(v)) v.forEach(walk);
  };
  walk(args);
  return m;
}
const valuesOf = (t) => Array.from(t.data(), (v) => (typeof v === 'boolean' ? +v : Number(v)));
const dtypeOf = (t) => t.dtype ?? 'float32';

// Where we differ from torch on purpose, per op: (ours, torch) -> the reason, or undefined.
const DELIBERATE = {
  sign: (g, w) => (Number.isNaN(g) && w === 0 ? 'sign(NaN) is NaN as in numpy and IEEE (torch 1.13 gives 0)' : undefined),
};
// ... in the result dtype: (ours, torch) -> the reason, or undefined.
const anyAllUint8 = (g, w) => (g === 'bool' && w === 'uint8' ? 'any/all of uint8 give bool like every other dtype (torch 1.13 keeps uint8, a legacy rule)' : undefined);
const jsIntegers = (g, w) => (g === 'float32' && w === 'int64' ? 'JS cannot tell 5 from 5.0: creation from numbers is float32 unless {dtype} says otherwise (torch infers int64 from Python ints)' : undefined);
const DELIBERATE_DTYPE = { any: anyAllUint8, all: anyAllUint8, arange: jsIntegers };
// ... where torch returns and we raise: (case) -> the reason, or undefined.
const half = (c) => (c.args[0]?.dtype === 'float16' ? 'float16 ops that torch 1.13 has no CPU kernel for compute in float32 and round back' : undefined);
const DELIBERATE_ERROR = {
  where: (c) => (c.args[0]?.dtype === 'uint8' ? 'a uint8 condition is refused, it must be bool (torch 1.13 accepts uint8, deprecated)' : undefined),
  maskedFill: (c) => (c.args[1]?.dtype !== 'bool' ? 'a non-bool mask is refused (torch 1.13 accepts one of any dtype whose values are all 0 or 1)' : undefined),
};
// ... where torch raises and we return: (case) -> the reason, or undefined.
// torch 1.13's CPU has no float16 kernel for most float functions and reductions (nor a bfloat16 prod);
// ours compute in float32 (double for the reductions) and round back, as for bfloat16.
const noKernel = (c) => (/not implemented for '(Half|BFloat16)'/.test(c.error)
  ? `${c.args[0]?.dtype} ${c.op} computes in float32 and rounds back (torch 1.13 has no CPU kernel for it)` : undefined);
const DELIBERATE_RESULT = {
  sqrt: half, exp: half, log: half, round: half, relu: half, cumsum: half, softmax: half,
  ...Object.fromEntries(['sin', 'cos', 'tan', 'tanh', 'sigmoid', 'erf', 'expm1', 'log1p', 'rsqrt', 'floor', 'ceil',
    'trunc', 'prod', 'cumprod', 'logsumexp', 'logSoftmax'].map((op) => [op, noKernel])),
  topk: (c) => (/not implemented for 'Half'/.test(c.error) ? "topk works on float16 (torch 1.13's CPU kernel is not implemented for Half)" : undefined),
};
// topk's ties: we order equal values by position (a stable order); torch 1.13's CPU topk leaves their order
// unspecified. Accepted when the values match torch's and x at our indices holds those values.
function topkTie(c, got, deliberate) {
  if (c.op !== 'topk' || !Array.isArray(got)) return false;
  const x = decode(c.args[0]), dim = c.kw?.dim ?? -1;
  const values = got[0].toArray ? got[0] : null;
  if (!values || compare('topk', values, c.out[0], 0, [])) return false;
  const picked = x.gather(dim < 0 ? dim + x.ndim : dim, got[1]);
  const same = JSON.stringify(picked.toArray()) === JSON.stringify(values.toArray());
  if (same) deliberate.push('topk: ties are ordered by position (torch 1.13 leaves their order unspecified)');
  return same;
}

// Returns "" when got matches want, else what differs. `deliberate` collects accepted differences.
function compare(op, got, want, scale, deliberate, path = 'out') {
  if (isTensorJson(want)) {
    if (!(got instanceof tp.Tensor)) return `${path}: expected a tensor, got ${typeof got}`;
    let gd = dtypeOf(got);
    if (gd !== want.dtype) {
      // torch promotes uint8 with int8 to int16, a dtype we do not have: a wider int holds the same values.
      const why = DELIBERATE_DTYPE[op]?.(gd, want.dtype);
      if (why) deliberate.push(`${op}: ${why}`);
      else if (want.dtype === 'int16' && (gd === 'int32' || gd === 'int64')) deliberate.push(`${op}: int16 -> ${gd}`);
      else return `${path}: dtype ${gd}, torch ${want.dtype}`;
    }
    if (JSON.stringify(got.shape) !== JSON.stringify(want.shape))
      return `${path}: shape [${got.shape}], torch [${want.shape}]`;
    const round = want.dtype === 'float32' || want.dtype === 'bfloat16' ? Math.fround : (v) => v;
    const g = valuesOf(got), w = want.data.map((v) => round(num(v)));
    const tol = EPS[want.dtype] ? TOLERANCE(op, want.dtype) : null;
    for (let i = 0; i < w.length; i++) {
      if (g[i] === w[i] || (Number.isNaN(g[i]) && Number.isNaN(w[i]))) continue;
      const why = DELIBERATE[op]?.(g[i], w[i]);
      if (why) { deliberate.push(`${op}: ${why}`); continue; }
      const ok = tol && Number.isFinite(g[i]) && Number.isFinite(w[i]) &&
        Math.abs(g[i] - w[i]) <= tol.k * tol.eps * (Math.abs(w[i]) + (tol.scaled ? scale : 0));
      if (!ok) return `${path}[${i}]: ${g[i]}, torch ${w[i]}` + (tol ? ` (tolerance ${tol.k} eps)` : '');
    }
    return '';
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return `${path}: expected a list of ${want.length}, got ${typeof got}`;
    if (got.length !== want.length) return `${path}: ${got.length} parts, torch ${want.length}`;
    for (let i = 0; i < want.length; i++) {
      const m = compare(op, got[i], want[i], scale, deliberate, `${path}[${i}]`);
      if (m) return m;
    }
    return '';
  }
  if (want !== null && typeof want === 'object') {
    for (const k of Object.keys(want)) {
      const m = compare(op, got?.[k], want[k], scale, deliberate, `${path}.${k}`);
      if (m) return m;
    }
    return '';
  }
  const g = got instanceof tp.Tensor ? got.item() : got;
  return Object.is(num(want), g) || num(want) === g ? '' : `${path}: ${g}, torch ${want}`;
}

// Runs one case: 'pass', 'waiting' (its op or a dtype does not exist yet) or a mismatch description.
function runCase(c, missingOps, missingDtypes, deliberate) {
  if (missingOps.has(c.op)) return 'waiting';
  for (const d of dtypesOf(c)) if (missingDtypes.has(d) && d !== 'int16') return 'waiting';
  return tp.tidy(() => {
    let args;
    try {
      args = decode(c.args);
    } catch (e) {
      return `could not build the inputs: ${e.message}`;
    }
    const kw = c.kw ? decode(c.kw) : undefined;
    let got;
    try {
      got = RUN[c.op].run(...args, ...(kw ? [kw] : []));
    } catch (e) {
      if (c.error !== undefined) return e instanceof TensorpadError ? 'pass' : `threw ${e.name}, not a TensorpadError: ${e.message}`;
      const why = e instanceof TensorpadError && DELIBERATE_ERROR[c.op]?.(c);
      if (why) { deliberate.push(`${c.op}: ${why}`); return 'pass'; }
      return `threw ${e.message}`;
    }
    if (c.error !== undefined) {
      const why = DELIBERATE_RESULT[c.op]?.(c);
      if (why) { deliberate.push(`${c.op}: ${why}`); return 'pass'; }
      return `returned a result where torch raises "${c.error}"`;
    }
    const m = compare(c.op, got, c.out, scaleOf(c.args), deliberate);
    return !m || topkTie(c, got, deliberate) ? 'pass' : m;
  });
}

const allCases = groups.flatMap((g) => g.cases.map((c) => ({ ...c, group: g.group })));
const fixtureOps = [...new Set(allCases.map((c) => c.op))];

test('the fixtures hold at least 2000 torch cases, over every op of issue 22', () => {
  assert.ok(allCases.length >= 2000, `${allCases.length} cases`);
  for (const op of fixtureOps) assert.ok(RUN[op], `fixture op ${op} has no entry in RUN`);
});

test('the expected-missing lists say exactly which ops and dtypes do not exist yet', () => {
  for (const op of EXPECTED_MISSING_OPS) {
    assert.ok(RUN[op], `${op} is on EXPECTED_MISSING_OPS but no fixture uses it`);
    assert.ok(!RUN[op].has(), `${op} now exists: remove it from EXPECTED_MISSING_OPS in tests/js/torch-ops.test.mjs so its cases run`);
  }
  for (const op of fixtureOps)
    if (!EXPECTED_MISSING_OPS.includes(op)) assert.ok(RUN[op].has(), `${op} does not exist: tp has no such function`);
  for (const d of DTYPES) {
    if (EXPECTED_MISSING_DTYPES.includes(d))
      assert.ok(!hasDtype(d), `dtype ${d} now exists: remove it from EXPECTED_MISSING_DTYPES in tests/js/torch-ops.test.mjs`);
    else assert.ok(hasDtype(d), `dtype ${d} is not supported: tp.zeros([1], {dtype: '${d}'}) fails`);
  }
});

test('every torch case of every existing op and dtype matches torch (values, shapes, dtypes, errors)', () => {
  const missingOps = new Set(EXPECTED_MISSING_OPS), missingDtypes = new Set(EXPECTED_MISSING_DTYPES);
  const per = new Map(), mismatches = [], deliberate = [];
  const before = tp.memory();
  for (const c of allCases) {
    const row = per.get(c.op) ?? { pass: 0, waiting: 0, mismatch: 0 };
    per.set(c.op, row);
    const r = runCase(c, missingOps, missingDtypes, deliberate);
    if (r === 'pass' || r === 'waiting') row[r]++;
    else {
      row.mismatch++;
      mismatches.push(`${c.group}/${c.op} ${JSON.stringify(c.args).slice(0, 160)}${c.kw ? ' ' + JSON.stringify(c.kw) : ''}: ${r}`);
    }
  }
  const total = [...per.values()].reduce((s, r) => ({ pass: s.pass + r.pass, waiting: s.waiting + r.waiting, mismatch: s.mismatch + r.mismatch }),
    { pass: 0, waiting: 0, mismatch: 0 });
  const lines = [...per].map(([op, r]) => `  ${op.padEnd(13)} ${String(r.pass + r.waiting + r.mismatch).padStart(5)} cases: ` +
    `${r.pass} match${r.waiting ? `, ${r.waiting} waiting` : ''}${r.mismatch ? `, ${r.mismatch} MISMATCH` : ''}`);
  const kinds = [...new Set(deliberate)];
  console.log(`torch fixtures (${allCases.length} cases, ${fixtureOps.length} ops): ${total.pass} match, ` +
    `${total.waiting} waiting for a missing op or dtype, ${total.mismatch} mismatches\n${lines.join('\n')}\n` +
    `deliberate differences: ${kinds.length ? kinds.join('; ') : 'none met'}` +
    (mismatches.length ? `\nmismatches:\n  ${mismatches.filter((m) => !/\/(sub|isclose) /.test(m)).slice(0, 60).join('\n  ')}` : ''));
  assert.deepEqual(tp.memory(), before, 'the cases leaked tensors');
  assert.equal(mismatches.length, 0, `${mismatches.length} cases differ from torch:\n${mismatches.slice(0, 20).join('\n')}`);
});
