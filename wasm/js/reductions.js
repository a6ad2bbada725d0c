// Reductions (sum, mean, amax, amin, median over a dim, a list of dims or all), cumsum and the vector
// norm behind x.norm and tp.linalg.norm's vector cases: arguments checked here, the math in the core.
import { fail, describe, asOp } from './errors.js';
import { checkInt, checkBool, options } from './checks.js';

// Op codes shared with cpp/include/tensorpad/ops.hpp (enum order).
const REDUCE = { sum: 0, mean: 1, amax: 2, amin: 3, median: 4 };

export function reductions(rt) {
  const { core, wrap, withHandles } = rt;
  // dim: a dim, a list of dims, or none (undefined, null or [], as torch: every dim). The core wraps the
  // dims, refuses repeats and reduces several dims as one line (reduce_dims in cpp/src/reduce_dims.cpp).
  function reduce(op, x, dim, opts) {
    const { keepdim = false } = options(op, opts, ['keepdim']);
    checkBool(op, 'keepdim', keepdim);
    const id = x._id(op);
    // torch's median takes one dim or none: a median over several dims is not a median of medians.
    if (op === 'median' && Array.isArray(dim)) fail(op, 'reduces one dim or all of them, not a list of dims');
    if (dim === undefined || dim === null) dim = [];
    if (!Array.isArray(dim)) {
      checkInt(op, 'dim', dim);
      return wrap(core.reduce(REDUCE[op], id, dim, keepdim), op);
    }
    dim.forEach((d) => checkInt(op, 'dim', d));
    return wrap(core.reduceDims(REDUCE[op], id, dim, keepdim), op);
  }
  function cumsum(x, dim) {
    checkInt('cumsum', 'dim', dim);
    return wrap(core.cumsum(x._id('cumsum'), dim), 'cumsum');
  }
  // torch.norm's rules: a vector norm of ord p (2 for 'fro', the default) over a dim, a list of dims,
  // or, with none, every element (a matrix flattened); keepdim keeps the reduced dims as 1 (the core's
  // vector_norm, cpp/src/reduce_dims.cpp). op names the caller (tp.linalg.norm's vector norms).
  function norm(x, ord, dim, opts, op = 'norm') {
    const { keepdim = false } = options(op, opts, ['keepdim']);
    checkBool(op, 'keepdim', keepdim);
    return withHandles(op, [x], (ix) => asOp(op, () => {
      if (ord === undefined || ord === null) ord = 'fro';
      const dims = dim === undefined || dim === null ? [] : Array.isArray(dim) ? dim : [dim];
      dims.forEach((d) => checkInt(op, 'dim', d));
      if (ord === 'fro') {
        if (dims.length > 2) fail(op, `'fro' takes at most two dims, got [${dims.join(', ')}]`);
        ord = 2;
      }
      if (typeof ord !== 'number' || Number.isNaN(ord)) fail(op, `ord must be 1, 2, Infinity, -Infinity, a number or 'fro', got ${describe(ord)}`);
      return wrap(core.vectorNorm(ix, ord, dims, keepdim));
    }, ['norm', 'alloc', 'empty']));
  }
  return { reduce, cumsum, norm };
}
