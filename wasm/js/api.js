// The tp API over a loaded core module: a Tensor class on WASM-heap handles, torch-like functions,
// memory management (dispose, tidy, a FinalizationRegistry backstop) and one error type.
// No math here: every operation is one call into the C++ core. Arguments are checked before that call
// (options by their known keys, shapes up to 16 dims), and an error names the op the user called.
import { TensorpadError, fail, describe, renamed, asOp } from './errors.js';
import { formatTensor } from './format.js';
import { extensions } from './extensions.js';

// Op codes shared with cpp/include/tensorpad/ops.hpp (enum order).
const BINARY = { add: 0, sub: 1, mul: 2, div: 3, pow: 4, maximum: 5, minimum: 6 };
const UNARY = { neg: 0, abs: 1, sqrt: 2, exp: 3, log: 4, square: 5, round: 6, relu: 7, sign: 8 };
const REDUCE = { sum: 0, mean: 1, amax: 2, amin: 3, median: 4 };
const MAX_INDEX = 2 ** 31 - 1;
// The core's limit on dims (cpp/src/tensor.cpp), checked here where a shape is made, views included.
const MAX_DIMS = 16;

// finalizers: false leaves tensors to dispose, tidy and the end of the instance. Node's judge workers
// use it: Node 20 can abort (NodePlatform::ForIsolate check) when a worker that has pending
// FinalizationRegistry cleanups is torn down, and those workers live for one judgement.
export function createApi(core, { finalizers = true } = {}) {
  const registry = finalizers ? new FinalizationRegistry((id) => core.release(id)) : null;
  const scopes = []; // tidy scopes: each a Set of the tensors (and other handles) created inside it
  // Handle types beyond Tensor (tp.quant's QuantizedTensor) that tidy, tp.dispose and tp.memory treat
  // as they treat tensors; each {name, type, memory: () => ({count, bytes})}, added through
  // rt.addHandleType by the namespace that owns it. Their objects join scopes through rt.track.
  const handleTypes = [];
  const isHandle = (v) => v instanceof Tensor || handleTypes.some((h) => v instanceof h.type);
  const track = (obj) => { if (scopes.length) scopes[scopes.length - 1].add(obj); };
  const untrack = (obj) => { for (const s of scopes) s.delete(obj); };

  // ---- errors and argument checks ----------------------------------------------------------------
  // Throws the core's pending error, if any; given the op the user called, an error the core raised
  // under a helper's name ("alloc: out of memory ...") is reported under that op.
  function check(op) {
    if (!core.errorPending()) return;
    let message = core.takeError();
    if (/out of memory/.test(message)) {
      if (message.startsWith('out of memory')) message = `alloc: ${message}`; // std::bad_alloc names no op
      message += memoryAdvice();
    }
    throw renamed(new TensorpadError(message), op);
  }
  // Live handles per type ({tensors, quantized}) and the bytes of the WASM heap they hold together.
  function liveMemory() {
    const m = { tensors: core.liveHandles(), bytes: core.liveBytes() };
    for (const h of handleTypes) {
      const { count, bytes } = h.memory();
      m[h.name] = count;
      m.bytes += bytes;
    }
    return m;
  }
  // What an out-of-memory error adds: tensors are freed by dispose, tidy or (only between tasks, never
  // inside a running loop, and at a time of its choosing) the garbage collector, so a loop that drops its results runs out of heap.
  function memoryAdvice() {
    const { tensors, bytes } = liveMemory();
    const mb = (bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0);
    return ` (${tensors} live tensors hold ${mb} MB; the garbage collector frees unreachable tensors only ` +
      'some time after the running code returns, not at once, so free them as you go: t.dispose(), or ' +
      'tp.tidy(() => ...), which frees every tensor the function creates and does not return)';
  }
  // A list of dims → each wrapped to 0..ndim-1 as the core's wrap_dim does (a 0-d tensor takes 0 or -1, as
  // torch), each an integer, none named twice.
  function wrapDims(op, dims, ndim) {
    const lo = ndim === 0 ? -1 : -ndim, hi = ndim === 0 ? 0 : ndim - 1;
    const wrapped = dims.map((d) => {
      checkInt(op, 'dim', d);
      if (d < lo || d > hi) fail(op, `dim ${d} is out of range for a ${ndim}-d tensor (expected ${lo}..${hi})`);
      return d < 0 ? d + Math.max(ndim, 1) : d;
    });
    const twice = dims.find((_, i) => wrapped.indexOf(wrapped[i]) !== i);
    if (twice !== undefined) fail(op, `dim ${twice} appears twice in [${dims.join(', ')}]`);
    return wrapped;
  }
  function checkInt(op, name, v, { min = -MAX_INDEX, max = MAX_INDEX } = {}) {
    if (typeof v !== 'number' || !Number.isInteger(v)) fail(op, `${name} must be an integer, got ${describe(v)}`);
    if (v < min || v > max) fail(op, `${name} ${v} is out of range [${min}, ${max}]`);
    return v;
  }
  function checkNumber(op, name, v) {
    if (typeof v !== 'number') fail(op, `${name} must be a number, got ${describe(v)}`);
    return v;
  }
  const isIntegral = (d) => typeof d === 'number' && Number.isInteger(d) && Math.abs(d) <= Number.MAX_SAFE_INTEGER;
  function checkShape(op, shape, { allowInfer = false } = {}) {
    if (!Array.isArray(shape) || !shape.every(isIntegral)) fail(op, `shape must be an array of integers, got ${describe(shape)}`);
    if (shape.length > MAX_DIMS) fail(op, `${tooManyDims(shape)}; at most ${MAX_DIMS} are supported`);
    if (shape.some((d) => d < 0 && !(allowInfer && d === -1))) fail(op, `shape [${shape.join(', ')}] has a negative dimension`);
    return shape;
  }
  const tooManyDims = (shape) => `${shape.length <= 20 ? `shape [${shape.join(', ')}]` : 'the shape'} has ${shape.length} dims`;
  // Accepts f([2, 3]) and f(2, 3).
  const shapeArgs = (args) => (args.length === 1 && Array.isArray(args[0]) ? args[0] : args);
  // Accepts f([2, 3], opts) and f(2, 3, opts) (opts optional): [shape, opts].
  function shapeAndOptions(op, args) {
    if (Array.isArray(args[0])) {
      if (args.length > 2) fail(op, `expects (shape, options) or sizes, got ${args.length} arguments`);
      return [args[0], args[1]];
    }
    const last = args[args.length - 1];
    const opts = args.length > 1 && last !== null && typeof last === 'object' && !Array.isArray(last);
    return opts ? [args.slice(0, -1), last] : [args, undefined];
  }
  // An options object; given the known keys, a misspelt or unsupported key is an error, not a silent default.
  const options = (op, o, known) => {
    if (o === undefined || o === null) return {};
    if (typeof o !== 'object' || Array.isArray(o)) fail(op, `options must be an object, got ${describe(o)}`);
    if (known) {
      for (const k of Object.keys(o))
        if (!known.includes(k)) fail(op, `unknown option ${describe(k)} (expected one of ${known.join(', ')})`);
    }
    return o;
  };
  // A seed option: [seed, true] when given (an integer >= 0), [0, false] when left out (the core then
  // draws from its global generator, which tp.manualSeed sets).
  const seedOf = (op, seed) => {
    if (seed === undefined || seed === null) return [0, false];
    return [checkInt(op, 'seed', seed, { min: 0, max: Number.MAX_SAFE_INTEGER }), true];
  };
  const checkBool = (op, name, v) => {
    if (typeof v !== 'boolean') fail(op, `${name} must be a boolean, got ${describe(v)}`);
    return v;
  };

  // ---- handles -------------------------------------------------------------------------------------
  function wrap(id, op) {
    check(op);
    const t = new Tensor(id);
    registry?.register(t, id, t);
    track(t);
    return t;
  }
  // Runs fn with handles for each argument: tensors pass through, numbers and arrays become
  // temporary tensors that are released afterwards.
  // Errors the core raises under a helper's name are reported under op.
  function withHandles(op, args, fn) {
    const temps = [];
    try {
      const ids = args.map((a) => {
        if (a instanceof Tensor) return a._id(op);
        const t = tensor(a, {}, op);
        temps.push(t);
        return t._id(op);
      });
      return fn(...ids);
    } catch (e) {
      throw renamed(e, op);
    } finally {
      for (const t of temps) t.dispose();
    }
  }

  // ---- the Tensor class -----------------------------------------------------------------------------
  class Tensor {
    #id;
    #shape = null;
    constructor(id) {
      this.#id = id;
    }
    _id(op = 'tensor') {
      if (this.#id === 0) fail(op, 'this tensor was disposed (use after dispose)');
      return this.#id;
    }
    get isDisposed() { return this.#id === 0; }
    dispose() {
      if (this.#id === 0) return;
      core.release(this.#id);
      registry?.unregister(this);
      untrack(this);
      this.#id = 0;
    }

    // The shape, read once; op names the caller in the error for a disposed tensor.
    _shape(op = 'shape') {
      if (!this.#shape) {
        this.#shape = core.shape(this._id(op));
        check(op);
      }
      return [...this.#shape];
    }
    get shape() { return this._shape('shape'); }
    get dtype() { return 'float32'; }
    get ndim() { return this._shape('ndim').length; }
    dim() { return this._shape('dim').length; }
    get numel() { return this._shape('numel').reduce((a, b) => a * b, 1); }
    size(d) {
      const s = this._shape('size');
      if (d === undefined) return s;
      checkInt('size', 'dim', d);
      if (d < -s.length || d >= s.length) fail('size', `dim ${d} is out of range for a ${s.length}-d tensor`);
      return s[d < 0 ? d + s.length : d];
    }
    stride() { const r = core.strides(this._id('stride')); check(); return r; }
    isContiguous() { const r = core.isContiguous(this._id('isContiguous')); check(); return r; }

    data() { const r = core.copyOut(this._id('data')); check(); return r; }
    item() { const r = core.item(this._id('item')); check(); return r; }
    toArray() {
      this._id('toArray');
      const shape = this._shape('toArray'), flat = this.data();
      if (shape.length === 0) return flat[0];
      const build = (d, base) => {
        const n = shape[d], stride = shape.slice(d + 1).reduce((a, b) => a * b, 1);
        const out = new Array(n);
        for (let i = 0; i < n; i++) out[i] = d === shape.length - 1 ? flat[base + i] : build(d + 1, base + i * stride);
        return out;
      };
      return build(0, 0);
    }
    toString() {
      if (this.#id === 0) return 'tensor(<disposed>)';
      return formatTensor(this.shape, this.data());
    }
    [Symbol.for('nodejs.util.inspect.custom')]() { return this.toString(); }

    // elementwise
    add(o) { return binary('add', this, o); }
    sub(o) { return binary('sub', this, o); }
    mul(o) { return binary('mul', this, o); }
    div(o) { return binary('div', this, o); }
    pow(o) { return binary('pow', this, o); }
    maximum(o) { return binary('maximum', this, o); }
    minimum(o) { return binary('minimum', this, o); }
    neg() { return unary('neg', this); }
    abs() { return unary('abs', this); }
    sqrt() { return unary('sqrt', this); }
    exp() { return unary('exp', this); }
    log() { return unary('log', this); }
    square() { return unary('square', this); }
    round() { return unary('round', this); }
    relu() { return unary('relu', this); }
    sign() { return unary('sign', this); }
    // As torch: one bound may be null/undefined, not both; min > max sets every element to max.
    clamp(min, max) {
      if ((min === undefined || min === null) && (max === undefined || max === null))
        fail('clamp', "at least one of min and max must be given (as torch's clamp)");
      const lo = min ?? NaN, hi = max ?? NaN;
      checkNumber('clamp', 'min', lo);
      checkNumber('clamp', 'max', hi);
      return wrap(core.clamp(this._id('clamp'), lo > hi ? hi : lo, hi), 'clamp');
    }

    // layout
    get T() {
      this._id('T');
      const n = this._shape('T').length;
      if (n < 2) return this.clone();
      return this.permute([...Array(n).keys()].reverse());
    }
    transpose(d0 = -2, d1 = -1) {
      checkInt('transpose', 'dim0', d0);
      checkInt('transpose', 'dim1', d1);
      return wrap(core.transpose(this._id('transpose'), d0, d1), 'transpose');
    }
    permute(...dims) {
      dims = shapeArgs(dims);
      dims.forEach((d) => checkInt('permute', 'dim', d));
      return wrap(core.permute(this._id('permute'), dims), 'permute');
    }
    reshape(...shape) {
      shape = checkShape('reshape', shapeArgs(shape), { allowInfer: true });
      return wrap(core.reshape(this._id('reshape'), shape), 'reshape');
    }
    view(...shape) { return this.reshape(...shape); }
    flatten() { return this.reshape([-1]); }
    unsqueeze(d) {
      checkInt('unsqueeze', 'dim', d);
      const n = this._shape('unsqueeze').length;
      if (n >= MAX_DIMS) fail('unsqueeze', `a ${n}-d tensor cannot gain a dim: at most ${MAX_DIMS} dims are supported`);
      return wrap(core.unsqueeze(this._id('unsqueeze'), d), 'unsqueeze');
    }
    squeeze(d) {
      const s = this._shape('squeeze');
      if (d === undefined) return this.reshape(s.filter((n) => n !== 1));
      checkInt('squeeze', 'dim', d);
      if (s.length === 0 && (d === 0 || d === -1)) return this.clone(); // as torch: a 0-d tensor has dim 0 (and -1)
      const k = d < 0 ? d + s.length : d;
      if (k < 0 || k >= s.length) fail('squeeze', `dim ${d} is out of range for a ${s.length}-d tensor`);
      return s[k] === 1 ? this.reshape(s.filter((_, i) => i !== k)) : this.clone();
    }
    // -1 keeps a dim's size, as in torch; new dims go in front.
    expand(...shape) {
      shape = checkShape('expand', shapeArgs(shape), { allowInfer: true });
      const s = this._shape('expand'), lead = shape.length - s.length;
      shape = shape.map((n, i) => {
        if (n !== -1) return n;
        if (i < lead) fail('expand', `-1 keeps a dim's size, but dim ${i} of [${shape.join(', ')}] is a new leading dim`);
        return s[i - lead];
      });
      return wrap(core.expand(this._id('expand'), shape), 'expand');
    }
    select(dim, index) {
      checkInt('select', 'dim', dim);
      checkInt('select', 'index', index);
      return wrap(core.select(this._id('select'), dim, index), 'select');
    }
    narrow(dim, start, length) {
      checkInt('narrow', 'dim', dim);
      checkInt('narrow', 'start', start);
      checkInt('narrow', 'length', length);
      return wrap(core.narrow(this._id('narrow'), dim, start, length), 'narrow');
    }
    contiguous() { return wrap(core.contiguous(this._id('contiguous')), 'contiguous'); }
    clone() { return wrap(core.clone(this._id('clone')), 'clone'); }

    // reductions
    sum(dim, opts) { return reduce('sum', this, dim, opts); }
    mean(dim, opts) { return reduce('mean', this, dim, opts); }
    amax(dim, opts) { return reduce('amax', this, dim, opts); }
    amin(dim, opts) { return reduce('amin', this, dim, opts); }
    median(dim, opts) { return reduce('median', this, dim, opts); }
    cumsum(dim) { checkInt('cumsum', 'dim', dim); return wrap(core.cumsum(this._id('cumsum'), dim), 'cumsum'); }
    softmax(dim) { return softmax(this, dim); }
    norm(ord, dim, opts) { return norm(this, ord, dim, opts); }

    // products
    matmul(b) { return matmul(this, b); }
  }

  // ---- op helpers ---------------------------------------------------------------------------------
  function binary(op, a, b) {
    if (typeof b === 'number' && a instanceof Tensor) return wrap(core.binaryScalar(BINARY[op], a._id(op), b), op);
    if (typeof a === 'number' && b instanceof Tensor) return wrap(core.scalarBinary(BINARY[op], a, b._id(op)), op);
    if (a === undefined || b === undefined) fail(op, `expects two operands, got ${describe(a)} and ${describe(b)}`);
    return withHandles(op, [a, b], (ia, ib) => wrap(core.binary(BINARY[op], ia, ib)));
  }
  function unary(op, x) {
    return withHandles(op, [x], (ix) => wrap(core.unary(UNARY[op], ix)));
  }
  // dim: a dim, a list of dims, or none (undefined, null or [], as torch: every dim).
  function reduce(op, x, dim, opts) {
    const { keepdim = false } = options(op, opts, ['keepdim']);
    checkBool(op, 'keepdim', keepdim);
    const id = x._id(op);
    if (Array.isArray(dim) && dim.length === 0 && op !== 'median') dim = undefined;
    if (dim === undefined || dim === null) {
      if (!keepdim) return wrap(core.reduceAll(REDUCE[op], id), op);
      if (op === 'median') return tidyReshape(wrap(core.reduceAll(REDUCE[op], id), op), x.shape.map(() => 1));
      dim = [...Array(x.ndim).keys()];
    }
    // A median over several dims is not a median of medians.
    if (op === 'median' && Array.isArray(dim)) fail(op, 'reduces one dim or all of them, not a list of dims');
    if (!Array.isArray(dim)) {
      checkInt(op, 'dim', dim);
      return wrap(core.reduce(REDUCE[op], id, dim, keepdim), op);
    }
    // Several dims: reduce one at a time keeping dims, then drop them.
    const shape = x._shape(op), n = shape.length;
    const dims = wrapDims(op, dim, n);
    if (n === 0) return wrap(core.reduce(REDUCE[op], id, 0, keepdim), op);
    const empty = dims.find((d) => shape[d] === 0);
    if (empty !== undefined && (op === 'amax' || op === 'amin'))
      fail(op, `cannot reduce dim ${empty} of size 0 (shape [${shape.join(', ')}])`);
    let r = x;
    try {
      for (const d of dims) {
        const next = wrap(core.reduce(REDUCE[op], r._id(op), d, true), op);
        if (r !== x) r.dispose();
        r = next;
      }
    } catch (e) {
      if (r !== x) r.dispose(); // the partial result of a reduction that failed part-way
      throw e;
    }
    return keepdim ? r : tidyReshape(r, r.shape.filter((_, i) => !dims.includes(i)));
  }
  function tidyReshape(t, shape) {
    const r = t.reshape(shape);
    t.dispose();
    return r;
  }
  function matmul(a, b) {
    return withHandles('matmul', [a, b], (ia, ib) => wrap(core.matmul(ia, ib)));
  }
  function softmax(x, dim) {
    if (dim === undefined) fail('softmax', 'dim is required (e.g. softmax(x, -1))');
    checkInt('softmax', 'dim', dim);
    return withHandles('softmax', [x], (ix) => wrap(core.softmax(ix, dim)));
  }
  // torch.norm's rules: a vector norm of ord p (2 for 'fro', the default) over a dim, a list of dims,
  // or, with none, every element (a matrix flattened). keepdim keeps the reduced dims as 1. op names the
  // caller (tp.linalg.norm's vector norms).
  function norm(x, ord, dim, opts, op = 'norm') {
    const { keepdim = false } = options(op, opts, ['keepdim']);
    checkBool(op, 'keepdim', keepdim);
    return withHandles(op, [x], (ix) => asOp(op, () => {
      const shape = core.shape(ix);
      const all = (ord2) => {
        const r = wrap(core.vectorNorm(ix, ord2, [], false));
        return keepdim ? tidyReshape(r, shape.map(() => 1)) : r;
      };
      if (ord === undefined || ord === null) ord = 'fro';
      const dims = dim === undefined || dim === null ? [] : Array.isArray(dim) ? dim : [dim];
      dims.forEach((d) => checkInt(op, 'dim', d));
      if (ord === 'fro') {
        if (dims.length > 2) fail(op, `'fro' takes at most two dims, got [${dims.join(', ')}]`);
        ord = 2;
      }
      if (typeof ord !== 'number' || Number.isNaN(ord)) fail(op, `ord must be 1, 2, Infinity, -Infinity, a number or 'fro', got ${describe(ord)}`);
      if (dims.length === 0) return all(ord);
      if (dims.length === 1) return wrap(core.vectorNorm(ix, ord, dims, keepdim));
      // Several dims, as torch's vector_norm: those dims moved last and flattened into one.
      const wrapped = wrapDims(op, dims, shape.length);  // on a 0-d tensor, two dims always repeat one
      const rest = shape.map((_, d) => d).filter((d) => !wrapped.includes(d));
      const count = wrapped.reduce((p, d) => p * shape[d], 1);
      return tp.tidy(() => {
        const flat = wrap(core.permute(ix, [...rest, ...wrapped])).reshape([...rest.map((d) => shape[d]), count]);
        const r = wrap(core.vectorNorm(flat._id(op), ord, [-1], false));
        return keepdim ? r.reshape(shape.map((s, d) => (wrapped.includes(d) ? 1 : s))) : r;
      });
    }, ['norm', 'alloc', 'empty']));
  }
  // isclose/allclose's options, checked once for both.
  function closeOptions(op, opts) {
    const { rtol = 1e-5, atol = 1e-8, equalNan = false } = options(op, opts, ['rtol', 'atol', 'equalNan']);
    checkNumber(op, 'rtol', rtol);
    checkNumber(op, 'atol', atol);
    checkBool(op, 'equalNan', equalNan);
    return { rtol, atol, equalNan };
  }
  function isclose(op, a, b, opts) {
    const { rtol, atol, equalNan } = closeOptions(op, opts);
    return withHandles(op, [a, b], (ia, ib) => asOp(op, () => {
      if (!equalNan) return wrap(core.isclose(ia, ib, rtol, atol));
      // torch's equal_nan: two NaNs are close too. NaN is the one value not close to itself.
      return tp.tidy(() => {
        const close = wrap(core.isclose(ia, ib, rtol, atol));
        const nanA = tp.sub(1, wrap(core.isclose(ia, ia, 0, 0))), nanB = tp.sub(1, wrap(core.isclose(ib, ib, 0, 0)));
        return close.maximum(nanA.mul(nanB));
      });
    }, ['isclose', 'alloc', 'empty']));
  }
  function allclose(a, b, opts) {
    const op = 'allclose';
    const { rtol, atol, equalNan } = closeOptions(op, opts);
    if (equalNan) {  // every entry of isclose is 1 (the core's allclose against 1, exactly)
      const close = isclose(op, a, b, opts);
      try {
        return withHandles(op, [close, 1], (ic, one) => { const r = core.allclose(ic, one, 0, 0); check(op); return r; });
      } finally {
        close.dispose();
      }
    }
    return withHandles(op, [a, b], (ia, ib) => asOp(op, () => {
      const r = core.allclose(ia, ib, rtol, atol);
      check();
      return r;
    }, ['isclose', 'alloc', 'empty']));
  }

  // ---- creation -----------------------------------------------------------------------------------
  // Nested arrays → {shape, values}, refusing ragged or non-numeric input with its position. A tensor
  // may stand for a sub-array of its shape (torch's tensor([t1, t2]) of 0-d tensors, here any equal shape).
  function flatten(op, data) {
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
  function fromValues(op, shape, values) {
    checkShape(op, shape);
    const n = shape.reduce((a, b) => a * b, 1);
    if (values.length !== n) fail(op, `${values.length} values do not fill shape [${shape.join(', ')}] (${n} elements)`);
    const id = core.empty(shape, op);
    check(op);
    if (n > 0) core.view(id).set(values);
    return wrap(id, op);
  }
  function tensor(data, opts, op = 'tensor') {
    const { shape, dtype = 'float32' } = options(op, opts, ['shape', 'dtype']);
    if (dtype !== 'float32') fail(op, `dtype ${describe(dtype)} is not supported: tensors are float32`);
    if (shape !== undefined && shape !== null) checkShape(op, shape, { allowInfer: data instanceof Tensor });
    if (data instanceof Tensor) {
      data._id(op);  // a disposed tensor is refused under this op's name
      return shape ? data.reshape(shape) : data.clone();
    }
    if (typeof data === 'number' || typeof data === 'boolean') {
      if (shape && shape.length) fail(op, `a single number cannot fill shape [${shape.join(', ')}]; use tp.full`);
      return fromValues(op, [], [Number(data)]);
    }
    if (ArrayBuffer.isView(data) && !(data instanceof DataView)) {
      const flat = data instanceof Float32Array ? data : Float32Array.from(data, Number);
      return fromValues(op, shape ?? [flat.length], flat);
    }
    if (Array.isArray(data)) {
      const { shape: inferred, values } = flatten(op, data);
      return fromValues(op, shape ?? inferred, values);
    }
    fail(op, `cannot make a tensor from ${describe(data)}; pass a number, a (nested) array or a typed array`);
  }
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

  // ---- tp ------------------------------------------------------------------------------------------
  const tp = {
    Tensor,
    TensorpadError,
    isTensor: (x) => x instanceof Tensor,
    tensor: (data, opts) => tensor(data, opts),
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

    add: (a, b) => binary('add', a, b),
    sub: (a, b) => binary('sub', a, b),
    mul: (a, b) => binary('mul', a, b),
    div: (a, b) => binary('div', a, b),
    pow: (a, b) => binary('pow', a, b),
    maximum: (a, b) => binary('maximum', a, b),
    minimum: (a, b) => binary('minimum', a, b),
    matmul,
    outer: (a, b) => withHandles('outer', [a, b], (ia, ib) => wrap(core.outer(ia, ib))),
    softmax,
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
    isclose: (a, b, opts) => isclose('isclose', a, b, opts),
    allclose,
    linalg: { norm },

    tidy(fn) {
      if (typeof fn !== 'function') fail('tidy', `expects a function, got ${describe(fn)}`);
      const scope = new Set();
      scopes.push(scope);
      let result;
      try {
        result = fn();
      } finally {
        scopes.pop();
        const keep = new Set();
        const collect = (v) => {
          if (isHandle(v)) keep.add(v);
          else if (Array.isArray(v)) v.forEach(collect);
          else if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) Object.values(v).forEach(collect);
        };
        collect(result);
        for (const t of scope) if (!keep.has(t)) t.dispose();
        // What survives belongs to the enclosing scope, if any.
        if (scopes.length) for (const t of keep) if (scope.has(t)) scopes[scopes.length - 1].add(t);
      }
      if (result && typeof result.then === 'function') fail('tidy', 'fn must be synchronous (it returned a promise)');
      return result;
    },
    dispose(...xs) {
      const walk = (v) => {
        if (isHandle(v)) v.dispose();
        else if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === 'object') Object.values(v).forEach(walk);
      };
      xs.forEach(walk);
    },
    memory: liveMemory,
    // Threads the GEMM splits large products over: more than 1 only with the pthreads core (browser,
    // crossOriginIsolated page); elsewhere it stays 1. Results do not depend on it.
    setNumThreads(n) {
      checkInt('setNumThreads', 'n', n, { min: 1 });
      return core.setThreads ? core.setThreads(n) : 1;
    },
    getNumThreads: () => (core.getThreads ? core.getThreads() : 1),
  };

  // Namespaces from other files (linalg, nn, quant, io, ...) install themselves with these helpers.
  const addHandleType = (h) => handleTypes.push(h);
  const rt = { core, wrap, check, withHandles, wrapDims, checkInt, checkNumber, checkShape, checkBool, seedOf, options, fail, describe, asOp,
    Tensor, track, untrack, addHandleType, MAX_DIMS, finalizers };
  for (const install of extensions) install(tp, rt);
  return tp;
}
