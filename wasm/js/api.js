// The one place tp is assembled: createApi(core) makes the runtime (runtime.js), asks each module for
// its functions and lays out tp's whole public surface below. Modules receive what they use from one
// another as arguments, never through tp, so no module depends on the order of another's install.
//
//   runtime.js    errors from the core, handles (wrap, operands), tidy scopes, dispose, memory
//   stack.js      the core as runtime.js calls it: each call restores the WASM stack however it ends
//   calls.js      the core's ops as functions of their own, over its one generic entry (core.call)
//   tensor.js     the Tensor class (accessors, views; math methods call rt.ops)
//   checks.js     argument checks           creation.js   tp.tensor, zeros, ..., stack, cat
//   arithmetic.js elementwise, softmax, matmul, outer
//   reductions.js sum ... median, cumsum, the vector norm
//   compare.js    isclose, allclose
//   shaping.js    linspace, logspace, split, chunk, flatten, unflatten, squeeze, flip, roll, repeat, tile, tril, triu
//   statistics.js var, std, logsumexp, prod, cumprod, logSoftmax, einsum
//   indexing.js   argmax, argmin, max, min, topk, sort, argsort, gather, indexSelect, nn.embedding
//   logic.js      eq ... ge, where, maskedFill, logicalAnd/Or/Xor/Not, any, all
//   linalg.js  nn.js  quant.js  lora.js  synth.js  io.js  model.js   the namespaces tp.linalg, tp.nn, ...
//   safetensors-json.js  a safetensors header's JSON, read for io.js and model.js (the core checks it)
// No math in any of them: every operation is one call into the C++ core. Arguments are checked before
// that call (options by their known keys, shapes up to 16 dims), and an error names the op the user called.
import { TensorpadError } from './errors.js';
import { checkInt } from './checks.js';
import { createRuntime } from './runtime.js';
import { creation } from './creation.js';
import { arithmetic, UNARY } from './arithmetic.js';
import { shaping } from './shaping.js';
import { statistics } from './statistics.js';
import { indexing } from './indexing.js';
import { reductions } from './reductions.js';
import { compare } from './compare.js';
import { logic } from './logic.js';
import { linalg } from './linalg.js';
import { nn } from './nn.js';
import { quant } from './quant.js';
import { lora } from './lora.js';
import { synth } from './synth.js';
import { io } from './io.js';
import { modelApi } from './model.js';

// finalizers: false makes no FinalizationRegistry (see runtime.js): tensors are freed by dispose, tidy
// and the end of the instance.
export function createApi(core, { finalizers = true } = {}) {
  const rt = createRuntime(core, { finalizers });
  const math = arithmetic(rt), reduce = reductions(rt), close = compare(rt), lg = logic(rt);
  const shape = shaping(rt), stats = statistics(rt);
  const idx = indexing(rt, { maximum: (a, b) => math.binary('maximum', a, b), minimum: (a, b) => math.binary('minimum', a, b) });
  // What the Tensor class's methods call (x.add, x.sum, x.norm, ...).
  Object.assign(rt.ops, {
    binary: math.binary, unary: math.unary, clamp: math.clamp, softmax: math.softmax, matmul: math.matmul,
    reduce: reduce.reduce, cumsum: reduce.cumsum, norm: reduce.norm, logic: lg, ...shape, ...stats,
    argmax: idx.argmax, argmin: idx.argmin, max: idx.max, min: idx.min, topk: idx.topk, sort: idx.sort,
    argsort: idx.argsort, gather: idx.gather, indexSelect: idx.indexSelect,
  });
  const binary = (op) => (a, b) => math.binary(op, a, b);

  return {
    Tensor: rt.Tensor,
    TensorpadError,
    isTensor: (x) => x instanceof rt.Tensor,
    ...creation(rt),  // tensor, zeros, ones, full, zerosLike, onesLike, eye, arange, randn, rand, manualSeed, stack, cat

    add: binary('add'),
    sub: binary('sub'),
    mul: binary('mul'),
    div: binary('div'),
    pow: binary('pow'),
    maximum: binary('maximum'),
    minimum: binary('minimum'),
    matmul: math.matmul,
    outer: math.outer,
    softmax: math.softmax,
    isclose: (a, b, opts) => close.isclose('isclose', a, b, opts),
    allclose: close.allclose,
    // Elementwise functions as torch.exp(x) & co. (also methods: x.exp()).
    ...Object.fromEntries(Object.keys(UNARY).map((op) => [op, (x) => math.unary(op, x)])),
    linspace: shape.linspace,
    logspace: shape.logspace,
    split: shape.split,
    chunk: shape.chunk,
    flatten: shape.flatten,
    unflatten: shape.unflatten,
    squeeze: shape.squeeze,
    unsqueeze: shape.unsqueeze,
    flip: shape.flip,
    roll: shape.roll,
    tile: shape.tile,
    tril: shape.tril,
    triu: shape.triu,
    var: stats.var,
    std: stats.std,
    logsumexp: stats.logsumexp,
    prod: stats.prod,
    cumprod: stats.cumprod,
    logSoftmax: stats.logSoftmax,
    einsum: stats.einsum,
    argmax: idx.argmax,
    argmin: idx.argmin,
    max: idx.max,
    min: idx.min,
    topk: idx.topk,
    sort: idx.sort,
    argsort: idx.argsort,
    gather: idx.gather,
    indexSelect: idx.indexSelect,
    eq: lg.eq, ne: lg.ne, lt: lg.lt, le: lg.le, gt: lg.gt, ge: lg.ge,
    where: lg.where,
    logicalAnd: lg.logicalAnd, logicalOr: lg.logicalOr, logicalXor: lg.logicalXor, logicalNot: lg.logicalNot,

    linalg: linalg(rt, { vectorNorm: reduce.norm }),
    nn: { ...nn(rt), embedding: idx.embedding },
    quant: quant(rt),
    lora: lora(rt),
    synth: synth(rt),
    io: io(rt),
    model: modelApi(rt),

    tidy: rt.tidy,
    dispose: rt.dispose,
    memory: rt.liveMemory,
    // Threads the GEMM splits large products over: more than 1 only with the pthreads core (browser,
    // crossOriginIsolated page); elsewhere it stays 1. Results do not depend on it.
    setNumThreads(n) {
      checkInt('setNumThreads', 'n', n, { min: 1 });
      return core.setThreads ? core.setThreads(n) : 1;
    },
    getNumThreads: () => (core.getThreads ? core.getThreads() : 1),
  };
}
