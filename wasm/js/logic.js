// Comparisons (tp.eq ... tp.ge), tp.where, x.maskedFill, tp.logicalAnd/Or/Xor/Not and x.any/x.all: each
// one call into the core (cpp/src/ops_logic.cpp), which promotes, broadcasts and returns bool as torch.
// A JS number operand stays a number (torch's "weak" scalar: 2 is an int, 2.5 a float); arrays become tensors.
import { fail, describe } from './errors.js';
import { checkInt, checkBool, checkNumber, options } from './checks.js';

// Op codes shared with cpp/include/tensorpad/logic.hpp (enum order).
const COMPARE = { eq: 0, ne: 1, lt: 2, le: 3, gt: 4, ge: 5 };
const LOGIC = { logicalAnd: 0, logicalOr: 1, logicalXor: 2 };

export function logic(rt) {
  const { core, wrap, withHandles } = rt;
  // Runs fn(handleA, numberA, handleB, numberB): a number operand passes as handle 0 and its value.
  function mixed(op, a, b, fn, { twoNumbers = false } = {}) {
    for (const [name, v] of [['first operand', a], ['second operand', b]])
      if (v === undefined || v === null || typeof v === 'boolean' || typeof v === 'string')
        fail(op, `${name} must be a tensor, an array or a number, got ${describe(v)}`);
    const na = typeof a === 'number', nb = typeof b === 'number';
    if (na && nb && !twoNumbers) fail(op, `expects at least one tensor, got the numbers ${a} and ${b}`);
    const tensors = [a, b].filter((v) => typeof v !== 'number');
    return withHandles(op, tensors, (...ids) => {
      const ia = na ? 0 : ids.shift(), ib = nb ? 0 : ids.shift();
      return wrap(fn(ia, na ? a : 0, ib, nb ? b : 0), op);
    });
  }
  const compare = (op) => (a, b) => mixed(op, a, b, (ia, va, ib, vb) => core.compare(COMPARE[op], ia, va, ib, vb));
  function where(cond, a, b) {
    if (cond === undefined || a === undefined || b === undefined)
      fail('where', `expects (condition, a, b), got ${[cond, a, b].map(describe).join(', ')}`);
    return withHandles('where', [cond], (ic) => mixed('where', a, b, (ia, va, ib, vb) => core.where(ic, ia, va, ib, vb),
      { twoNumbers: true }));
  }
  function maskedFill(x, mask, value) {
    checkNumber('maskedFill', 'value', value);
    return withHandles('maskedFill', [x, mask], (ix, im) => wrap(core.maskedFill(ix, im, value), 'maskedFill'));
  }
  const logical = (op) => (a, b) => withHandles(op, [a, b], (ia, ib) => wrap(core.logical(LOGIC[op], ia, ib), op));
  const logicalNot = (x) => withHandles('logicalNot', [x], (ix) => wrap(core.logicalNot(ix), 'logicalNot'));
  // dim: one dim, a list of dims, or none (every dim), as the other reductions.
  const anyAll = (op) => (x, dim, opts) => {
    const { keepdim = false } = options(op, opts, ['keepdim']);
    checkBool(op, 'keepdim', keepdim);
    const dims = dim === undefined || dim === null ? [] : Array.isArray(dim) ? dim : [dim];
    dims.forEach((d) => checkInt(op, 'dim', d));
    return withHandles(op, [x], (ix) => wrap(core.anyAll(op === 'any', ix, dims, keepdim), op));
  };
  return {
    ...Object.fromEntries(Object.keys(COMPARE).map((op) => [op, compare(op)])),
    ...Object.fromEntries(Object.keys(LOGIC).map((op) => [op, logical(op)])),
    where, maskedFill, logicalNot, any: anyAll('any'), all: anyAll('all'),
  };
}
