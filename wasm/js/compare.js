// tp.isclose and tp.allclose: |a - b| <= atol + rtol |b| elementwise with broadcasting, as torch,
// and equalNan.
import { asOp } from './errors.js';
import { checkNumber, checkBool, options } from './checks.js';

export function compare(rt, { binary }) {
  const { core, wrap, check, withHandles, tidy } = rt;
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
      return tidy(() => {
        const close = wrap(core.isclose(ia, ib, rtol, atol));
        const nanA = binary('sub', 1, wrap(core.isclose(ia, ia, 0, 0))), nanB = binary('sub', 1, wrap(core.isclose(ib, ib, 0, 0)));
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
  return { isclose, allclose };
}
