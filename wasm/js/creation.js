// Making tensors: from JS data (tp.tensor: numbers, nested arrays, typed arrays, tensors), constants
// (zeros, ones, full, eye), ranges, random draws, and from other tensors (stack, cat).
import { fail, describe } from './errors.js';
import { checkInt, checkNumber, checkShape, shapeArgs, shapeAndOptions, options, seedOf, MAX_DIMS } from './checks.js';

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
  const walk = (v, d, path) => {
    if (v instanceof Tensor) {
      const s = v._shape(op), want = shape.slice(d);
      if (s.length !== want.length || s.some((n, i) => n !== want[i]))
        fail(op, `ragged nested array: a tensor of shape [${s.join(', ')}] at [${path.join(', ')}], expected shape [${want.join(', ')}]`);
      for (const x of v.data()) values.push(x);
      return;
    }
    if (d === shape.length) {
      if (typeof v === 'number') values.push(v);
      else if (typeof v === 'boolean') values.push(v ? 1 : 0);
      else fail(op, `expected a number at [${path.join(', ')}], got ${describe(v)}`);
      return;
    }
    if (!Array.isArray(v)) fail(op, `ragged nested array: expected an array of length ${shape[d]} at [${path.join(', ')}], got ${describe(v)}`);
    if (v.length !== shape[d]) fail(op, `ragged nested array: length ${v.length} at [${path.join(', ')}], expected ${shape[d]}`);
    for (let i = 0; i < v.length; i++) walk(v[i], d + 1, [...path, i]);
  };
  walk(data, 0, []);
  return { shape, values };
}
function fromValues(rt, op, shape, values) {
  const { core, check, wrap } = rt;
  checkShape(op, shape);
  const n = shape.reduce((a, b) => a * b, 1);
  if (values.length !== n) fail(op, `${values.length} values do not fill shape [${shape.join(', ')}] (${n} elements)`);
  const id = core.empty(shape, op);
  check(op);
  if (n > 0) core.view(id).set(values);
  return wrap(id, op);
}

// tp.tensor(data, {shape, dtype}); op names the caller (an op's operand given as data).
export function fromData(rt, data, opts, op = 'tensor') {
  const { shape, dtype = 'float32' } = options(op, opts, ['shape', 'dtype']);
  if (dtype !== 'float32') fail(op, `dtype ${describe(dtype)} is not supported: tensors are float32`);
  if (shape !== undefined && shape !== null) checkShape(op, shape, { allowInfer: data instanceof rt.Tensor });
  if (data instanceof rt.Tensor) {
    data._id(op);  // a disposed tensor is refused under this op's name
    return shape ? data.reshape(shape) : data.clone();
  }
  if (typeof data === 'number' || typeof data === 'boolean') {
    if (shape && shape.length) fail(op, `a single number cannot fill shape [${shape.join(', ')}]; use tp.full`);
    return fromValues(rt, op, [], [Number(data)]);
  }
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) {
    const flat = data instanceof Float32Array ? data : Float32Array.from(data, Number);
    return fromValues(rt, op, shape ?? [flat.length], flat);
  }
  if (Array.isArray(data)) {
    const { shape: inferred, values } = flatten(rt, op, data);
    return fromValues(rt, op, shape ?? inferred, values);
  }
  fail(op, `cannot make a tensor from ${describe(data)}; pass a number, a (nested) array or a typed array`);
}

// tp's creation functions.
export function creation(rt) {
  const { core, wrap, withHandles, Tensor } = rt;
  function full(op, shape, value) {
    checkShape(op, shape);
    checkNumber(op, 'value', value);
    return wrap(core.full(shape, value, op), op);
  }
  function like(op, x) {
    if (!(x instanceof Tensor)) fail(op, `expects a tensor, got ${describe(x)}`);
    return x._shape(op);
  }
  function random(op, args) {
    const [shape, opts] = shapeAndOptions(op, args);
    checkShape(op, shape);
    const { seed } = options(op, opts, ['seed']);
    return wrap(core[op === 'randn' ? 'randn' : 'rand'](shape, ...seedOf(op, seed)), op);
  }
  return {
    tensor: (data, opts) => fromData(rt, data, opts),
    zeros: (...s) => full('zeros', shapeArgs(s), 0),
    ones: (...s) => full('ones', shapeArgs(s), 1),
    full: (shape, value) => full('full', shape, value),
    zerosLike: (x) => full('zerosLike', like('zerosLike', x), 0),
    onesLike: (x) => full('onesLike', like('onesLike', x), 1),
    eye(n, m = n) {
      checkInt('eye', 'n', n, { min: 0 });
      checkInt('eye', 'm', m, { min: 0 });
      return wrap(core.eye(n, m), 'eye');
    },
    arange(a, b, step = 1) {
      const [start, end] = b === undefined ? [0, a] : [a, b];
      checkNumber('arange', 'start', start);
      checkNumber('arange', 'end', end);
      checkNumber('arange', 'step', step);
      return wrap(core.arange(start, end, step), 'arange');
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
