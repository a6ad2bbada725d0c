// Making tensors: from JS data (tp.tensor: numbers, nested arrays, typed arrays, tensors), constants
// (zeros, ones, full, eye), ranges, random draws, and from other tensors (stack, cat).
import { fail, describe } from './errors.js';
import { checkInt, checkNumber, checkShape, shapeAndOptions, options, seedOf, MAX_DIMS } from './checks.js';
import { DTYPES, dtypeName, dtypeOfTypedArray } from './dtype.js';

// Nested arrays → {shape, values}, refusing ragged or non-numeric input with its position. A tensor
// may stand for a sub-array of its shape (torch's tensor([t1, t2]) of 0-d tensors, here any equal shape).
function flatten(rt, op, data) {
  const { Tensor } = rt;
  const shape = [];
  for (let v = data; ; v = v[0]) {
    if (v instanceof Tensor) { shape.push(...v._shape(op)); break; }
    if (!Array.isArray(v)) break;
    if (shape.length === MAX_DIMS) fail(op, `arrays nested more than ${MAX_DIMS} deep: at most ${MAX_DIMS} dims are supported`);
    shape.push(v.length);
  }
  const values = [];
  // What the leaves are, for the inferred dtype: booleans only give bool, numbers float32, and
  // tensors alone their promoted dtype (bool < integers < floats, as torch.tensor([t1, t2])).
  const kinds = { number: false, boolean: false, tensors: [] };
  const walk = (v, d, path) => {
    if (v instanceof Tensor) {
      const s = v._shape(op), want = shape.slice(d);
      if (s.length !== want.length || s.some((n, i) => n !== want[i]))
        fail(op, `ragged nested array: a tensor of shape [${s.join(', ')}] at [${path.join(', ')}], expected shape [${want.join(', ')}]`);
      for (const x of v.data()) values.push(Number(x));
      kinds.tensors.push(v.dtype);
      return;
    }
    if (d === shape.length) {
      if (typeof v === 'number') { values.push(v); kinds.number = true; }
      else if (typeof v === 'boolean') { values.push(v ? 1 : 0); kinds.boolean = true; }
      else fail(op, `expected a number at [${path.join(', ')}], got ${describe(v)}`);
      return;
    }
    if (!Array.isArray(v)) fail(op, `ragged nested array: expected an array of length ${shape[d]} at [${path.join(', ')}], got ${describe(v)}`);
    if (v.length !== shape[d]) fail(op, `ragged nested array: length ${v.length} at [${path.join(', ')}], expected ${shape[d]}`);
    for (let i = 0; i < v.length; i++) walk(v[i], d + 1, [...path, i]);
  };
  walk(data, 0, []);
  let dtype = kinds.number ? 'float32' : kinds.boolean ? 'bool' : 'float32';
  if (kinds.tensors.length && !kinds.number && !kinds.boolean) dtype = kinds.tensors.reduce(promoteNames);
  return { shape, values, dtype };
}
// torch.promote_types on names (the core's promote_types, for tp.tensor of tensors only).
function promoteNames(a, b) {
  if (a === b) return a;
  if (a === 'bool') return b;
  if (b === 'bool') return a;
  const fa = /float/.test(a), fb = /float/.test(b);
  if (fa !== fb) return fa ? a : b;
  if (fa) return a === 'float64' || b === 'float64' ? 'float64' : 'float32';
  if (a === 'uint8' || b === 'uint8') { const s = a === 'uint8' ? b : a; return s === 'int8' ? 'int16' : s; }
  const bits = (t) => Number(t.replace(/\D/g, ''));
  return bits(a) >= bits(b) ? a : b;
}
// A new tensor of dtype holding values (an array or typed array), converted as Tensor.to converts:
// written straight into a float32 tensor or one of the typed array's own dtype, else into a float64
// tensor that the core converts (3.7 -> int32 3, 2 -> bool true, NaN -> int32 -2^31 as torch on x86).
function fromValues(rt, op, shape, values, dtype = 'float32') {
  const { core, check, wrap } = rt;
  checkShape(op, shape);
  const n = shape.reduce((a, b) => a * b, 1);
  if (values.length !== n) fail(op, `${values.length} values do not fill shape [${shape.join(', ')}] (${n} elements)`);
  const direct = dtype === 'float32' || dtype === 'float64' || dtypeOfTypedArray(values) === dtype;
  const id = core.emptyAs(shape, DTYPES.indexOf(direct ? dtype : 'float64'), op);
  check(op);
  if (n > 0) core.view(id).set(values);
  if (direct) return wrap(id, op);
  const out = core.to(id, DTYPES.indexOf(dtype));
  core.release(id);
  return wrap(out, op);
}

// tp.tensor(data, {shape, dtype}); op names the caller (an op's operand given as data).
// dtype: given, or inferred as torch infers it where JS can tell: booleans give bool, a typed array its
// own dtype (Float64Array float64, Int32Array int32, Uint8Array uint8, ...), numbers float32 (JS cannot
// tell 1 from 1.0, so integers do not give int64 as in torch), a tensor keeps its dtype.
export function fromData(rt, data, opts, op = 'tensor') {
  const { shape, dtype: given } = options(op, opts, ['shape', 'dtype']);
  const dtype = given === undefined || given === null ? undefined : dtypeName(op, given);
  if (shape !== undefined && shape !== null) checkShape(op, shape, { allowInfer: data instanceof rt.Tensor });
  if (data instanceof rt.Tensor) {
    data._id(op);  // a disposed tensor is refused under this op's name
    const t = shape ? data.reshape(shape) : data.clone();
    if (!dtype || dtype === t.dtype) return t;
    try { return t.to(dtype); } finally { t.dispose(); }
  }
  if (typeof data === 'number' || typeof data === 'boolean') {
    if (shape && shape.length) fail(op, `a single number cannot fill shape [${shape.join(', ')}]; use tp.full`);
    return fromValues(rt, op, [], [Number(data)], dtype ?? (typeof data === 'boolean' ? 'bool' : 'float32'));
  }
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) {
    const own = dtypeOfTypedArray(data);
    const flat = own ? data : Float64Array.from(data, Number);
    return fromValues(rt, op, shape ?? [flat.length], flat, dtype ?? own ?? 'float32');
  }
  if (Array.isArray(data)) {
    const { shape: inferred, values, dtype: inferredDtype } = flatten(rt, op, data);
    return fromValues(rt, op, shape ?? inferred, values, dtype ?? inferredDtype);
  }
  fail(op, `cannot make a tensor from ${describe(data)}; pass a number, a (nested) array or a typed array`);
}

// tp's creation functions.
export function creation(rt) {
  const { core, wrap, withHandles, Tensor } = rt;
  // value converted to dtype (default float32, or bool for a boolean value, as torch.full infers).
  function full(op, shape, value, opts) {
    checkShape(op, shape);
    const { dtype } = options(op, opts, ['dtype']);
    if (typeof value !== 'boolean') checkNumber(op, 'value', value);
    const name = dtype === undefined || dtype === null ? (typeof value === 'boolean' ? 'bool' : 'float32') : dtypeName(op, dtype);
    return wrap(core.full(shape, Number(value), DTYPES.indexOf(name), op), op);
  }
  // A *Like's shape and, unless opts name another, dtype.
  function like(op, x, opts) {
    if (!(x instanceof Tensor)) fail(op, `expects a tensor, got ${describe(x)}`);
    const { dtype } = options(op, opts, ['dtype']);
    return [x._shape(op), { dtype: dtype ?? x.dtype }];
  }
  function random(op, args) {
    const [shape, opts] = shapeAndOptions(op, args);
    checkShape(op, shape);
    const { seed } = options(op, opts, ['seed']);
    return wrap(core[op === 'randn' ? 'randn' : 'rand'](shape, ...seedOf(op, seed)), op);
  }
  return {
    tensor: (data, opts) => fromData(rt, data, opts),
    // zeros([2, 3], {dtype}) or zeros(2, 3, {dtype}); ones alike.
    zeros: (...args) => { const [s, o] = shapeAndOptions('zeros', args); return full('zeros', s, 0, o); },
    ones: (...args) => { const [s, o] = shapeAndOptions('ones', args); return full('ones', s, 1, o); },
    full: (shape, value, opts) => full('full', shape, value, opts),
    zerosLike: (x, opts) => { const [s, o] = like('zerosLike', x, opts); return full('zerosLike', s, 0, o); },
    onesLike: (x, opts) => { const [s, o] = like('onesLike', x, opts); return full('onesLike', s, 1, o); },
    eye(n, m = n) {
      checkInt('eye', 'n', n, { min: 0 });
      checkInt('eye', 'm', m, { min: 0 });
      return wrap(core.eye(n, m), 'eye');
    },
    // arange(end), arange(start, end), arange(start, end, step), each with optional {dtype} last.
    arange(...args) {
      const last = args[args.length - 1];
      const opts = last !== null && typeof last === 'object' && !Array.isArray(last) ? args.pop() : undefined;
      const { dtype } = options('arange', opts, ['dtype']);
      const [a, b, step = 1] = args;
      const [start, end] = b === undefined ? [0, a] : [a, b];
      checkNumber('arange', 'start', start);
      checkNumber('arange', 'end', end);
      checkNumber('arange', 'step', step);
      const code = DTYPES.indexOf(dtype === undefined || dtype === null ? 'float32' : dtypeName('arange', dtype));
      return wrap(core.arange(start, end, step, code), 'arange');
    },
    // randn([2, 3], {seed}) or randn(2, 3, {seed}), options optional; rand alike.
    randn: (...args) => random('randn', args),
    rand: (...args) => random('rand', args),
    manualSeed(seed) {
      checkInt('manualSeed', 'seed', seed, { min: 0, max: Number.MAX_SAFE_INTEGER });
      core.manualSeed(seed);
    },
    stack(list, dim = 0) {
      if (!Array.isArray(list)) fail('stack', `expects an array of tensors, got ${describe(list)}`);
      checkInt('stack', 'dim', dim);
      return withHandles('stack', list, (...ids) => wrap(core.stack(ids, dim)));
    },
    cat(list, dim = 0) {
      if (!Array.isArray(list)) fail('cat', `expects an array of tensors, got ${describe(list)}`);
      checkInt('cat', 'dim', dim);
      return withHandles('cat', list, (...ids) => wrap(core.cat(ids, dim)));
    },
  };
}
