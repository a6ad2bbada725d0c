// tp.isclose and tp.allclose: |a - b| <= atol + rtol |b| elementwise with broadcasting, and equalNan, as
// torch (the rule is the core's isclose, cpp/src/compare.cpp).
import { asOp } from './errors.js';
import { checkNumber, checkBool, options } from './checks.js';

export function compare(rt) {
  const { core, wrap, check, withHandles } = rt;
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
    return withHandles(op, [a, b], (ia, ib) => asOp(op, () => wrap(core.isclose(ia, ib, rtol, atol, equalNan)),
      ['isclose', 'alloc', 'empty']));
  }
  function allclose(a, b, opts) {
    const op = 'allclose';
    const { rtol, atol, equalNan } = closeOptions(op, opts);
    return withHandles(op, [a, b], (ia, ib) => asOp(op, () => {
      const r = core.allclose(ia, ib, rtol, atol, equalNan);
      check();
      return r;
    }, ['isclose', 'alloc', 'empty']));
  }
  return { isclose, allclose };
}
