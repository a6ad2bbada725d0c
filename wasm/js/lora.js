// tp.lora: the parameter count of a rank-r adapter and the merge W + (alpha/r) B A (cpp/include/tensorpad/nn.hpp).
//
//   tp.lora.params(dOut, dIn, r) → number, tp.lora.merge(W, A, B, {alpha = r, r = A.shape[0]})
import { checkInt, options, optNumber } from './checks.js';

export function lora(rt) {
  const { core, wrap, check, withHandles } = rt;
  return {
    params(dOut, dIn, r) {
      const op = 'lora.params';
      checkInt(op, 'dOut', dOut, { min: 1 });
      checkInt(op, 'dIn', dIn, { min: 1 });
      checkInt(op, 'r', r, { min: 1 });
      const n = core.loraParams(dOut, dIn, r);
      check(op);
      return n;
    },
    merge(W, A, B, opts) {
      const op = 'lora.merge';
      const o = options(op, opts, ['alpha', 'r']);
      const alpha = optNumber(op, 'alpha', o.alpha);
      const r = o.r === undefined || o.r === null ? NaN : checkInt(op, 'r', o.r, { min: 1 });
      return withHandles(op, [W, A, B], (w, a, b) => wrap(core.loraMerge(w, a, b, alpha, r)));
    },
  };
}
