// Reductions (sum, mean, amax, amin, median over a dim, a list of dims or all), cumsum and the vector
// norm behind x.norm and tp.linalg.norm's vector cases, with torch's rules for dims and keepdim.
import { fail, describe, asOp } from './errors.js';
import { checkInt, checkBool, options, wrapDims } from './checks.js';

// Op codes shared with cpp/include/tensorpad/ops.hpp (enum order).
const REDUCE = { sum: 0, mean: 1, amax: 2, amin: 3, median: 4 };

export function reductions(rt) {
  const { core, wrap, withHandles, tidy } = rt;
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
  function cumsum(x, dim) {
    checkInt('cumsum', 'dim', dim);
    return wrap(core.cumsum(x._id('cumsum'), dim), 'cumsum');
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
      return tidy(() => {
        const flat = wrap(core.permute(ix, [...rest, ...wrapped])).reshape([...rest.map((d) => shape[d]), count]);
        const r = wrap(core.vectorNorm(flat._id(op), ord, [-1], false));
        return keepdim ? r.reshape(shape.map((s, d) => (wrapped.includes(d) ? 1 : s))) : r;
      });
    }, ['norm', 'alloc', 'empty']));
  }
  return { reduce, cumsum, norm };
}
