// The Tensor class of one tp instance: a tensor of one dtype held in the core by an integer handle. Its
// accessors, its conversions (to, float, ...; data, item, toArray, toString) and its views and reshapes
// call the core directly; its math methods call the op functions of the other modules through rt.ops.
import { fail } from './errors.js';
import { checkInt, checkShape, shapeArgs } from './checks.js';
import { formatTensor } from './format.js';
import { DTYPES, dtypeCode } from './dtype.js';

export function tensorClass(rt) {
  const { core, wrap, check, registry, untrack, ops } = rt;
  return class Tensor {
    #id;
    #shape = null;
    #dtype = null;
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
    get dtype() {
      if (!this.#dtype) {
        this.#dtype = DTYPES[core.dtype(this._id('dtype'))];
        check('dtype');
      }
      return this.#dtype;
    }
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

    // A copy of the elements: Float32Array (float32, and float16/bfloat16 widened), Float64Array (float64,
    // and int64: exact within ±2^53), Int32Array, Int16Array, Int8Array, Uint8Array (uint8, bool as 0/1).
    data() { const r = core.copyOut(this._id('data')); check(); return r; }
    item() {
      const r = core.item(this._id('item'));
      check('item');
      return this.dtype === 'bool' ? r !== 0 : r;
    }
    // Nested JS arrays of numbers (booleans for a bool tensor), as torch's tolist().
    toArray() {
      this._id('toArray');
      const shape = this._shape('toArray'), raw = this.data();
      const flat = this.dtype === 'bool' ? Array.from(raw, (v) => v !== 0) : raw;
      if (shape.length === 0) return flat[0];
      // An empty tensor is nested empty arrays, as torch's tolist(); [2^40, 0] would be 2^40 of them.
      let arrays = 0;
      for (let d = 0, rows = 1; d < shape.length && rows > 0; rows *= shape[d++]) arrays += rows;
      if (arrays > 2 ** 29) fail('toArray', `a tensor of shape [${shape.join(', ')}] would be ${arrays} nested arrays (at most 2^29)`);
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
      return formatTensor(this.shape, this.data(), this.dtype);
    }
    [Symbol.for('nodejs.util.inspect.custom')]() { return this.toString(); }

    // dtype conversions, as torch: a copy converted (itself when the dtype is already its own, as torch's
    // .to returns self; here a new handle on the same storage, so disposing either leaves the other).
    to(dtype) {
      const name = dtype instanceof Tensor ? dtype.dtype : dtype;
      return wrap(core.to(this._id('to'), dtypeCode('to', name)), 'to');
    }
    float() { return this.to('float32'); }
    double() { return this.to('float64'); }
    half() { return this.to('float16'); }
    bfloat16() { return this.to('bfloat16'); }
    int() { return this.to('int32'); }
    long() { return this.to('int64'); }
    bool() { return this.to('bool'); }

    // elementwise
    add(o) { return ops.binary('add', this, o); }
    sub(o) { return ops.binary('sub', this, o); }
    mul(o) { return ops.binary('mul', this, o); }
    div(o) { return ops.binary('div', this, o); }
    pow(o) { return ops.binary('pow', this, o); }
    maximum(o) { return ops.binary('maximum', this, o); }
    minimum(o) { return ops.binary('minimum', this, o); }
    neg() { return ops.unary('neg', this); }
    abs() { return ops.unary('abs', this); }
    sqrt() { return ops.unary('sqrt', this); }
    exp() { return ops.unary('exp', this); }
    log() { return ops.unary('log', this); }
    square() { return ops.unary('square', this); }
    round() { return ops.unary('round', this); }
    relu() { return ops.unary('relu', this); }
    sign() { return ops.unary('sign', this); }
    sin() { return ops.unary('sin', this); }
    cos() { return ops.unary('cos', this); }
    tan() { return ops.unary('tan', this); }
    tanh() { return ops.unary('tanh', this); }
    sigmoid() { return ops.unary('sigmoid', this); }
    erf() { return ops.unary('erf', this); }
    expm1() { return ops.unary('expm1', this); }
    log1p() { return ops.unary('log1p', this); }
    rsqrt() { return ops.unary('rsqrt', this); }
    reciprocal() { return ops.unary('reciprocal', this); }
    floor() { return ops.unary('floor', this); }
    ceil() { return ops.unary('ceil', this); }
    trunc() { return ops.unary('trunc', this); }
    clamp(min, max) { return ops.clamp(this, min, max); }
    eq(o) { return ops.logic.eq(this, o); }
    ne(o) { return ops.logic.ne(this, o); }
    lt(o) { return ops.logic.lt(this, o); }
    le(o) { return ops.logic.le(this, o); }
    gt(o) { return ops.logic.gt(this, o); }
    ge(o) { return ops.logic.ge(this, o); }
    maskedFill(mask, value) { return ops.logic.maskedFill(this, mask, value); }
    logicalNot() { return ops.logic.logicalNot(this); }

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
    flatten(startDim, endDim) { return ops.flatten(this, startDim, endDim); }
    unflatten(dim, sizes) { return ops.unflatten(this, dim, sizes); }
    unsqueeze(dim) { return ops.unsqueeze(this, dim); }
    squeeze(dim) { return ops.squeeze(this, dim); }
    split(sizes, dim) { return ops.split(this, sizes, dim); }
    chunk(chunks, dim) { return ops.chunk(this, chunks, dim); }
    flip(...dims) { return ops.flip(this, ...dims); }
    roll(shifts, dims) { return ops.roll(this, shifts, dims); }
    repeat(...reps) { return ops.repeat(this, ...reps); }
    tile(...reps) { return ops.tile(this, ...reps); }
    tril(diagonal) { return ops.tril(this, diagonal); }
    triu(diagonal) { return ops.triu(this, diagonal); }
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
    sum(dim, opts) { return ops.reduce('sum', this, dim, opts); }
    mean(dim, opts) { return ops.reduce('mean', this, dim, opts); }
    amax(dim, opts) { return ops.reduce('amax', this, dim, opts); }
    amin(dim, opts) { return ops.reduce('amin', this, dim, opts); }
    median(dim, opts) { return ops.reduce('median', this, dim, opts); }
    any(dim, opts) { return ops.logic.any(this, dim, opts); }
    all(dim, opts) { return ops.logic.all(this, dim, opts); }
    cumsum(dim) { return ops.cumsum(this, dim); }
    var(dim, opts) { return ops.var(this, dim, opts); }
    std(dim, opts) { return ops.std(this, dim, opts); }
    prod(dim, opts) { return ops.prod(this, dim, opts); }
    cumprod(dim) { return ops.cumprod(this, dim); }
    logsumexp(dim, opts) { return ops.logsumexp(this, dim, opts); }
    logSoftmax(dim) { return ops.logSoftmax(this, dim); }
    argmax(dim, opts) { return ops.argmax(this, dim, opts); }
    argmin(dim, opts) { return ops.argmin(this, dim, opts); }
    max(dim, opts) { return ops.max(this, dim, opts); }
    min(dim, opts) { return ops.min(this, dim, opts); }
    topk(k, opts) { return ops.topk(this, k, opts); }
    sort(dim, opts) { return ops.sort(this, dim, opts); }
    argsort(dim, opts) { return ops.argsort(this, dim, opts); }
    gather(dim, index) { return ops.gather(this, dim, index); }
    indexSelect(dim, index) { return ops.indexSelect(this, dim, index); }
    softmax(dim) { return ops.softmax(this, dim); }
    norm(ord, dim, opts) { return ops.norm(this, ord, dim, opts); }

    // products
    matmul(b) { return ops.matmul(this, b); }
  };
}
