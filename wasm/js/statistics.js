// torch's reductions beyond sum ... median (cpp/include/tensorpad/ops_extra.hpp, bound in
// wasm/bind_ops.cpp): var, std and logsumexp over a dim, a list of dims or all; prod and cumprod;
// logSoftmax; and einsum. Arguments checked here, the math in the core.
import { fail, describe } from './errors.js';
import { checkInt, checkBool, checkNumber, options } from './checks.js';
import { dimList } from './shaping.js';

export function statistics(rt) {
  const { core, wrap, withHandles, Tensor } = rt;
  const on = (op, x, fn) => withHandles(op, [x], (ix) => wrap(fn(ix)));
  function keepdimOf(op, opts, extra = []) {
    const o = options(op, opts, ['keepdim', ...extra]);
    checkBool(op, 'keepdim', o.keepdim ?? false);
    return o;
  }
  // var/std: correction 1 (Bessel's) unless given, as torch.
  function spread(op, x, dim, opts) {
    const o = keepdimOf(op, opts, ['correction']);
    const correction = checkNumber(op, 'correction', o.correction ?? 1);
    const dims = dimList(op, 'dim', dim);
    const fn = op === 'var' ? core.variance : core.stdDev;  // embind cannot name a function "var"
    return on(op, x, (ix) => fn(ix, dims, correction, o.keepdim ?? false));
  }
  return {
    var: (x, dim, opts) => spread('var', x, dim, opts),
    std: (x, dim, opts) => spread('std', x, dim, opts),
    logsumexp(x, dim, opts) {
      const { keepdim = false } = keepdimOf('logsumexp', opts);
      const dims = dimList('logsumexp', 'dim', dim);
      return on('logsumexp', x, (ix) => core.logsumexp(ix, dims, keepdim));
    },
    // torch.prod: every element, or one dim.
    prod(x, dim, opts) {
      const { keepdim = false } = keepdimOf('prod', opts);
      if (dim === undefined || dim === null) return on('prod', x, (ix) => core.prodAll(ix));
      if (Array.isArray(dim)) fail('prod', `reduces one dim or all of them, not a list of dims (got ${describe(dim)})`);
      checkInt('prod', 'dim', dim);
      return on('prod', x, (ix) => core.prod(ix, dim, keepdim));
    },
    cumprod(x, dim) {
      checkInt('cumprod', 'dim', dim);
      return on('cumprod', x, (ix) => core.cumprod(ix, dim));
    },
    logSoftmax(x, dim) {
      if (dim === undefined) fail('logSoftmax', 'dim is required (e.g. logSoftmax(x, -1))');
      checkInt('logSoftmax', 'dim', dim);
      return on('logSoftmax', x, (ix) => core.logSoftmax(ix, dim));
    },
    // tp.einsum('ij,jk->ik', a, b) or tp.einsum('ij,jk->ik', [a, b]), as torch.
    einsum(equation, ...operands) {
      if (typeof equation !== 'string') fail('einsum', `the equation must be a string, got ${describe(equation)}`);
      if (operands.length === 1 && Array.isArray(operands[0]) && operands[0].some((o) => o instanceof Tensor)) operands = operands[0];
      if (operands.length === 0) fail('einsum', 'expects at least one operand');
      return withHandles('einsum', operands, (...ids) => wrap(core.einsum(equation, ids)));
    },
  };
}
