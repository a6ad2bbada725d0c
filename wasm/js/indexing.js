// torch's ops that return or take int64 indices (cpp/src/ops_index.cpp, bound in wasm/bind_ops.cpp):
// argmax/argmin, max/min over a dim ({values, indices}) or all, topk, sort, argsort, gather, indexSelect
// and tp.nn.embedding. Index operands given as JS arrays become int64 tensors, as torch.tensor([..]) does.
import { fail, describe } from './errors.js';
import { checkInt, checkBool, options } from './checks.js';
import { fromData } from './creation.js';

export function indexing(rt, { maximum, minimum }) {
  const { core, wrap, check, withHandles, Tensor } = rt;
  // torch's (values, indices) named tuple: an array [values, indices] that also has .values and .indices.
  const pair = (op, ids) => {
    check(op);
    const values = wrap(ids[0], op), indices = wrap(ids[1], op);
    return Object.assign([values, indices], { values, indices });
  };
  const keepdimOf = (op, opts) => {
    const { keepdim = false } = options(op, opts, ['keepdim']);
    return checkBool(op, 'keepdim', keepdim);
  };
  // An index operand: a tensor as it is, JS data as int64.
  const asIndex = (op, index, fn) => {
    if (index instanceof Tensor) return fn(index._id(op));
    const t = fromData(rt, index, { dtype: 'int64' }, op);
    try {
      return fn(t._id(op));
    } finally {
      t.dispose();
    }
  };
  function arg(op, x, dim, opts) {
    const keepdim = keepdimOf(op, opts);
    if (dim === undefined || dim === null) return withHandles(op, [x], (ix) => wrap(core[`${op}All`](ix)));
    checkInt(op, 'dim', dim);
    return withHandles(op, [x], (ix) => wrap(core[op](ix, dim, keepdim)));
  }
  // max(x) of all, max(x, dim, {keepdim}) → {values, indices}, max(x, other) elementwise (as torch).
  function extreme(op, x, dim, opts) {
    if (dim instanceof Tensor || Array.isArray(dim)) return (op === 'max' ? maximum : minimum)(x, dim);
    if (dim === undefined || dim === null) return withHandles(op, [x], (ix) => wrap(core[`${op}All`](ix)));
    const keepdim = keepdimOf(op, opts);
    checkInt(op, 'dim', dim);
    return withHandles(op, [x], (ix) => pair(op, core[`${op}Dim`](ix, dim, keepdim)));
  }
  // sort(x, dim = -1, {descending}) or sort(x, {dim, descending}).
  function sortArgs(op, dim, opts) {
    if (dim !== null && typeof dim === 'object' && !Array.isArray(dim)) {
      const { dim: d = -1, ...rest } = options(op, dim, ['dim', 'descending', 'stable']);
      return [d, sortOptions(op, d, rest)];
    }
    return [dim ?? -1, sortOptions(op, dim ?? -1, opts)];
  }
  function sortOptions(op, dim, opts) {
    const { descending = false, stable = true } = options(op, opts, ['descending', 'stable']);
    checkInt(op, 'dim', dim);
    checkBool(op, 'descending', descending);
    checkBool(op, 'stable', stable);  // always stable: a valid answer either way
    return descending;
  }
  return {
    argmax: (x, dim, opts) => arg('argmax', x, dim, opts),
    argmin: (x, dim, opts) => arg('argmin', x, dim, opts),
    max: (x, dim, opts) => extreme('max', x, dim, opts),
    min: (x, dim, opts) => extreme('min', x, dim, opts),
    topk(x, k, opts) {
      const op = 'topk';
      const { dim = -1, largest = true, sorted = true } = options(op, opts, ['dim', 'largest', 'sorted']);
      checkInt(op, 'k', k, { min: 0 });
      checkInt(op, 'dim', dim);
      checkBool(op, 'largest', largest);
      checkBool(op, 'sorted', sorted);
      return withHandles(op, [x], (ix) => pair(op, core.topk(ix, k, dim, largest)));
    },
    sort(x, dim, opts) {
      const [d, descending] = sortArgs('sort', dim, opts);
      return withHandles('sort', [x], (ix) => pair('sort', core.sort(ix, d, descending)));
    },
    argsort(x, dim, opts) {
      const [d, descending] = sortArgs('argsort', dim, opts);
      return withHandles('argsort', [x], (ix) => wrap(core.argsort(ix, d, descending)));
    },
    gather(x, dim, index) {
      checkInt('gather', 'dim', dim);
      return withHandles('gather', [x], (ix) => asIndex('gather', index, (ii) => wrap(core.gather(ix, dim, ii))));
    },
    indexSelect(x, dim, index) {
      checkInt('indexSelect', 'dim', dim);
      return withHandles('indexSelect', [x], (ix) => asIndex('indexSelect', index, (ii) => wrap(core.indexSelect(ix, dim, ii))));
    },
    embedding(ids, W) {
      if (W === undefined) fail('nn.embedding', `expects (ids, weight), got ${describe(ids)} and ${describe(W)}`);
      return withHandles('nn.embedding', [W], (iw) => asIndex('nn.embedding', ids, (ii) => wrap(core.nnEmbedding(ii, iw))));
    },
  };
}
