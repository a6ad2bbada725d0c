// Elementwise arithmetic (tp.add ... tp.minimum and Tensor's unary methods), clamp, softmax and the
// products matmul and outer: each one call into the core, which broadcasts as torch does.
import { fail, describe } from './errors.js';
import { checkInt, checkNumber } from './checks.js';

// Op codes shared with cpp/include/tensorpad/ops.hpp (enum order).
const BINARY = { add: 0, sub: 1, mul: 2, div: 3, pow: 4, maximum: 5, minimum: 6 };
export const UNARY = {
  neg: 0, abs: 1, sqrt: 2, exp: 3, log: 4, square: 5, round: 6, relu: 7, sign: 8,
  sin: 9, cos: 10, tan: 11, tanh: 12, sigmoid: 13, erf: 14, expm1: 15, log1p: 16, rsqrt: 17, reciprocal: 18,
  floor: 19, ceil: 20, trunc: 21,
};

export function arithmetic(rt) {
  const { core, wrap, withHandles, Tensor } = rt;
  function binary(op, a, b) {
    if (typeof b === 'number' && a instanceof Tensor) return wrap(core.binaryScalar(BINARY[op], a._id(op), b), op);
    if (typeof a === 'number' && b instanceof Tensor) return wrap(core.scalarBinary(BINARY[op], a, b._id(op)), op);
    if (a === undefined || b === undefined) fail(op, `expects two operands, got ${describe(a)} and ${describe(b)}`);
    return withHandles(op, [a, b], (ia, ib) => wrap(core.binary(BINARY[op], ia, ib)));
  }
  function unary(op, x) {
    return withHandles(op, [x], (ix) => wrap(core.unary(UNARY[op], ix)));
  }
  // As torch: one bound may be null/undefined, not both (the core sets every element to max when min > max).
  function clamp(x, min, max) {
    if ((min === undefined || min === null) && (max === undefined || max === null))
      fail('clamp', "at least one of min and max must be given (as torch's clamp)");
    const lo = min ?? NaN, hi = max ?? NaN;
    checkNumber('clamp', 'min', lo);
    checkNumber('clamp', 'max', hi);
    return wrap(core.clamp(x._id('clamp'), lo, hi), 'clamp');
  }
  function softmax(x, dim) {
    if (dim === undefined) fail('softmax', 'dim is required (e.g. softmax(x, -1))');
    checkInt('softmax', 'dim', dim);
    return withHandles('softmax', [x], (ix) => wrap(core.softmax(ix, dim)));
  }
  function matmul(a, b) {
    return withHandles('matmul', [a, b], (ia, ib) => wrap(core.matmul(ia, ib)));
  }
  const outer = (a, b) => withHandles('outer', [a, b], (ia, ib) => wrap(core.outer(ia, ib)));
  return { binary, unary, clamp, softmax, matmul, outer };
}
