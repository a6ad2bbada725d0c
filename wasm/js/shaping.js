// torch's ranges and shape ops beyond the basic views (cpp/include/tensorpad/ops_extra.hpp, bound in
// wasm/bind_ops.cpp): linspace, logspace; split, chunk, flatten, unflatten, squeeze (views); flip, roll,
// repeat, tile, tril, triu (copies). Arguments checked here, every rule in the core.
import { fail, describe } from './errors.js';
import { checkInt, checkNumber, shapeArgs, options, MAX_DIMS } from './checks.js';
import { dtypeCode } from './dtype.js';

// A dim or a list of dims as a list (each an integer); undefined/null as [].
function dimList(op, name, dims) {
  if (dims === undefined || dims === null) return [];
  const list = Array.isArray(dims) ? dims : [dims];
  list.forEach((d) => checkInt(op, name, d));
  return list;
}

function checkRange(op, start, end, steps) {
  checkNumber(op, 'start', start);
  checkNumber(op, 'end', end);
  checkInt(op, 'steps', steps, { min: 0 });
}

export function shaping(rt) {
  const { core, wrap, check, withHandles } = rt;
  const on = (op, x, fn) => withHandles(op, [x], (ix) => wrap(fn(ix)));
  // The handles of a list-returning op (split, chunk) as tensors.
  const many = (op, ids) => {
    check(op);
    return ids.map((id) => wrap(id, op));
  };
  // The dtype's code for the core (float32 unless given); the core computes each value in double.
  const codeOf = (op, dtype) => (dtype === undefined || dtype === null ? 0 : dtypeCode(op, dtype));
  return {
    // linspace(start, end, steps, {dtype}); logspace(start, end, steps, base = 10) or (..., {base, dtype}).
    linspace(start, end, steps, opts) {
      checkRange('linspace', start, end, steps);
      const { dtype } = options('linspace', opts, ['dtype']);
      return wrap(core.linspace(start, end, steps, codeOf('linspace', dtype)), 'linspace');
    },
    logspace(start, end, steps, base = 10) {
      checkRange('logspace', start, end, steps);
      let dtype;
      if (base !== null && typeof base === 'object') ({ base = 10, dtype } = options('logspace', base, ['base', 'dtype']));
      checkNumber('logspace', 'base', base);
      return wrap(core.logspace(start, end, steps, base, codeOf('logspace', dtype)), 'logspace');
    },
    // torch.split: a piece size, or a list of sizes that add up to the dim's size.
    split(x, sizes, dim = 0) {
      checkInt('split', 'dim', dim);
      if (Array.isArray(sizes)) {
        sizes.forEach((s) => checkInt('split', 'split size', s, { min: 0 }));
        return withHandles('split', [x], (ix) => many('split', core.splitSizes(ix, sizes, dim)));
      }
      if (typeof sizes !== 'number') fail('split', `expects a split size or a list of sizes, got ${describe(sizes)}`);
      checkInt('split', 'split size', sizes, { min: 0, max: Number.MAX_SAFE_INTEGER });
      return withHandles('split', [x], (ix) => many('split', core.split(ix, sizes, dim)));
    },
    chunk(x, chunks, dim = 0) {
      checkInt('chunk', 'chunks', chunks, { min: 1 });
      checkInt('chunk', 'dim', dim);
      return withHandles('chunk', [x], (ix) => many('chunk', core.chunk(ix, chunks, dim)));
    },
    flatten(x, startDim = 0, endDim = -1) {
      checkInt('flatten', 'startDim', startDim);
      checkInt('flatten', 'endDim', endDim);
      return on('flatten', x, (ix) => core.flatten(ix, startDim, endDim));
    },
    unflatten(x, dim, sizes) {
      checkInt('unflatten', 'dim', dim);
      if (!Array.isArray(sizes)) fail('unflatten', `sizes must be an array of integers, got ${describe(sizes)}`);
      sizes.forEach((s) => checkInt('unflatten', 'size', s, { min: -1, max: Number.MAX_SAFE_INTEGER }));
      return withHandles('unflatten', [x], (ix) => {
        const n = core.shape(ix).length - 1 + sizes.length;
        if (n > MAX_DIMS) fail('unflatten', `the result would have ${n} dims; at most ${MAX_DIMS} are supported`);
        return wrap(core.unflatten(ix, dim, sizes));
      });
    },
    unsqueeze(x, dim) {
      checkInt('unsqueeze', 'dim', dim);
      return withHandles('unsqueeze', [x], (ix) => {
        const n = core.shape(ix).length;
        if (n >= MAX_DIMS) fail('unsqueeze', `a ${n}-d tensor cannot gain a dim: at most ${MAX_DIMS} dims are supported`);
        return wrap(core.unsqueeze(ix, dim));
      });
    },
    // No dim: every size-1 dim; a dim or a list: those of them that have size 1.
    squeeze(x, dim) {
      const all = dim === undefined || dim === null;
      const dims = dimList('squeeze', 'dim', dim);
      return on('squeeze', x, (ix) => core.squeeze(ix, dims, all));
    },
    flip(x, ...dims) {
      dims = shapeArgs(dims);
      dims.forEach((d) => checkInt('flip', 'dim', d));
      return on('flip', x, (ix) => core.flip(ix, dims));
    },
    roll(x, shifts, dims) {
      const s = Array.isArray(shifts) ? shifts : [shifts];
      s.forEach((v) => checkInt('roll', 'shift', v, { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }));
      return on('roll', x, (ix) => core.roll(ix, s, dimList('roll', 'dim', dims)));
    },
    repeat(x, ...reps) {
      reps = shapeArgs(reps);
      reps.forEach((r) => checkInt('repeat', 'repeat', r, { min: 0 }));
      if (reps.length > MAX_DIMS) fail('repeat', `${reps.length} repeats would make ${reps.length} dims; at most ${MAX_DIMS} are supported`);
      return on('repeat', x, (ix) => core.repeat(ix, reps));
    },
    tile(x, ...reps) {
      reps = shapeArgs(reps);
      reps.forEach((r) => checkInt('tile', 'repeat', r, { min: 0 }));
      if (reps.length > MAX_DIMS) fail('tile', `${reps.length} repeats would make ${reps.length} dims; at most ${MAX_DIMS} are supported`);
      return on('tile', x, (ix) => core.tile(ix, reps));
    },
    tril(x, diagonal = 0) {
      checkInt('tril', 'diagonal', diagonal, { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
      return on('tril', x, (ix) => core.tril(ix, diagonal));
    },
    triu(x, diagonal = 0) {
      checkInt('triu', 'diagonal', diagonal, { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
      return on('triu', x, (ix) => core.triu(ix, diagonal));
    },
  };
}

export { dimList };
