// tp.nn: attention (scaled dot-product, multi-head with GQA), layerNorm, rmsNorm, relu, gelu, silu and
// rotary position embeddings, the LLM building blocks of cpp/include/tensorpad/nn.hpp. No math here:
// options are checked, tensors passed as handles, and the core does the work (wasm/bind_nn.cpp).
//
//   tp.nn.scaledDotProductAttention(Q, K, V, {causal, mask, scale, returnWeights, enableGqa})
//                                                                                  → output | {output, weights}
//       Q [..., Hq, n, d], K/V [..., Hkv, m, d]. enableGqa: true (torch's enable_gqa) lets Hkv < Hq divide
//       Hq: query head h reads K/V head floor(h / (Hq/Hkv)), without copying K/V. Without it differing
//       head counts are a broadcasting error that says so (Hkv = 1 broadcasts either way: MQA), because
//       a silent grouping of, say, a batch dim would hide a shape mistake.
//       mask broadcasts to [..., n, m]. Nested arrays of booleans are torch's boolean mask: true attends,
//       false is excluded (as -inf); a float mask (numbers or a tensor, which is always float32) is added to
//       the scaled scores, as in torch. A query row whose every key is excluded (by mask or causal) gives
//       zeros, not NaN (as torch 2.5's _safe_softmax); a NaN score makes its row NaN. causal and mask may
//       be given together (both apply), where torch refuses the pair. multiHeadAttention takes no mask
//       (causal only).
//   tp.nn.multiHeadAttention(X, {Wq, Wk, Wv, Wo, heads, kvHeads = heads, causal})   → X Wq ... concat(heads) Wo
//       Wq (dModel, heads*dh), Wk/Wv (dModel, kvHeads*dh): kvHeads < heads is GQA.
//   tp.nn.layerNorm(x, {weight, bias, eps = 1e-5}), tp.nn.rmsNorm(x, {weight, eps = 1e-6})   over the last dim
//       (rmsNorm's 1e-6 is Llama's config value; torch's F.rms_norm defaults to float32's eps, 1.19e-7)
//   tp.nn.relu(x), tp.nn.gelu(x, {approximate: 'none' (erf, torch's default) | 'tanh'}), tp.nn.silu(x)
//   tp.nn.ropeMatrix(pos, dim, {theta = 10000})    (dim, dim) R with x @ R rotating pairs by pos·θ^(-2i/dim)
//       The pairs are adjacent, (x[2i], x[2i+1]), as RoFormer and GPT-J; HF Llama's rotate_half pairs
//       x[i] with x[i + dim/2] (permute the dims to compare with a checkpoint laid out that way).
//   tp.nn.applyRope(x, positions, {theta})         x [..., n, dim], positions n numbers (array or 1-d tensor;
//                                                  default 0..n-1)
import { fail, describe } from './errors.js';
import { checkInt, checkNumber, checkBool, options, optNumber, MAX_DIMS } from './checks.js';

export function nn(rt) {
  const { core, wrap, check, withHandles, Tensor } = rt;

  // Runs fn with handles for the given operands. The first `required` must be given (a missing one is
  // refused as any non-tensor is); a later one left out (undefined/null) becomes handle 0.
  function withOptional(op, required, args, fn) {
    const absent = (a, i) => i >= required && (a === undefined || a === null);
    const present = args.filter((a, i) => !absent(a, i));
    return withHandles(op, present, (...ids) => {
      let n = 0;
      return fn(...args.map((a, i) => (absent(a, i) ? 0 : ids[n++])));
    });
  }

  // A mask of JS booleans is torch's boolean mask: true attends (0), false is excluded (-inf). Any other
  // mask (numbers, a tensor) is added to the scores as it is.
  function attentionMask(op, mask) {
    if (!Array.isArray(mask)) return mask;
    let bools = 0, others = 0;
    const map = (v, depth) => {
      if (Array.isArray(v)) {
        if (depth === MAX_DIMS) fail(op, `mask: arrays nested more than ${MAX_DIMS} deep`);
        return v.map((x) => map(x, depth + 1));
      }
      if (typeof v === 'boolean') { bools++; return v ? 0 : -Infinity; }
      others++;
      return v;
    };
    const out = map(mask, 0);
    if (bools && others) fail(op, 'mask mixes booleans and numbers: pass booleans (true = attend) or an additive float mask');
    return bools ? out : mask;
  }
  function scaledDotProductAttention(Q, K, V, opts) {
    const op = 'nn.scaledDotProductAttention';
    const o = options(op, opts, ['causal', 'mask', 'scale', 'returnWeights', 'enableGqa']);
    const { causal = false, mask, scale, returnWeights = false, enableGqa = false } = o;
    checkBool(op, 'causal', causal);
    checkBool(op, 'returnWeights', returnWeights);
    checkBool(op, 'enableGqa', enableGqa);
    const s = optNumber(op, 'scale', scale);
    return withOptional(op, 3, [Q, K, V, attentionMask(op, mask)], (q, k, v, m) => {
      const r = core.nnAttention(q, k, v, m, s, causal, returnWeights, enableGqa);
      check();
      const output = wrap(r[0]);
      return returnWeights ? { output, weights: wrap(r[1]) } : output;
    });
  }

  function multiHeadAttention(X, opts) {
    const op = 'nn.multiHeadAttention';
    const o = options(op, opts, ['Wq', 'Wk', 'Wv', 'Wo', 'heads', 'kvHeads', 'causal']);
    const { Wq, Wk, Wv, Wo, heads = 1, kvHeads = heads, causal = false } = o;
    for (const [name, w] of Object.entries({ Wq, Wk, Wv, Wo }))
      if (w === undefined || w === null) fail(op, `option ${name} (a weight matrix) is required`);
    checkInt(op, 'heads', heads, { min: 1 });
    checkInt(op, 'kvHeads', kvHeads, { min: 1 });
    checkBool(op, 'causal', causal);
    return withHandles(op, [X, Wq, Wk, Wv, Wo], (x, q, k, v, w) =>
      wrap(core.nnMultiHeadAttention(x, q, k, v, w, heads, kvHeads, causal)));
  }

  function layerNorm(x, opts) {
    const op = 'nn.layerNorm';
    const o = options(op, opts, ['weight', 'bias', 'eps']);
    const eps = optNumber(op, 'eps', o.eps);
    return withOptional(op, 1, [x, o.weight, o.bias], (ix, w, b) => wrap(core.nnLayerNorm(ix, w, b, eps)));
  }
  function rmsNorm(x, opts) {
    const op = 'nn.rmsNorm';
    const o = options(op, opts, ['weight', 'eps']);
    const eps = optNumber(op, 'eps', o.eps);
    return withOptional(op, 1, [x, o.weight], (ix, w) => wrap(core.nnRmsNorm(ix, w, eps)));
  }
  function gelu(x, opts) {
    const op = 'nn.gelu';
    const o = options(op, opts, ['approximate']);
    const { approximate = 'none' } = o;
    if (approximate !== 'none' && approximate !== 'tanh')
      fail(op, `approximate must be 'none' (erf) or 'tanh', got ${describe(approximate)}`);
    return withHandles(op, [x], (ix) => wrap(core.nnGelu(ix, approximate)));
  }
  function theta(op, opts) {
    const o = options(op, opts, ['theta']);
    return o.theta === undefined ? 10000 : checkNumber(op, 'theta', o.theta);
  }
  function ropeMatrix(pos, dim, opts) {
    const op = 'nn.ropeMatrix';
    checkNumber(op, 'pos', pos);
    checkInt(op, 'dim', dim, { min: 1 });
    return wrap(core.nnRopeMatrix(pos, dim, theta(op, opts)), op);
  }
  function applyRope(x, positions, opts) {
    const op = 'nn.applyRope';
    const th = theta(op, opts);
    let pos = positions;
    // No positions: the rows are tokens 0, 1, ..., n-1 (n = x.shape[-2], or 1 for a single vector).
    if (pos === undefined || pos === null) {
      const s = x instanceof Tensor ? x._shape(op) : [];
      pos = Array.from({ length: s.length >= 2 ? s[s.length - 2] : 1 }, (_, i) => i);
    }
    if (pos instanceof Tensor) {
      if (pos.ndim !== 1) fail(op, `positions must be an array of numbers or a 1-d tensor, got a tensor of shape [${pos.shape.join(', ')}]`);
      pos = Array.from(pos.data());
    } else if (ArrayBuffer.isView(pos)) pos = Array.from(pos);
    if (!Array.isArray(pos) || pos.some((p) => typeof p !== 'number'))
      fail(op, `positions must be an array of numbers or a 1-d tensor, got ${describe(positions)}`);
    const bad = pos.findIndex((p) => !Number.isFinite(p));
    if (bad >= 0) fail(op, `positions must be finite, got ${pos[bad]} at index ${bad}`);
    return withHandles(op, [x], (ix) => wrap(core.nnApplyRope(ix, pos, th)));
  }

  return {
    scaledDotProductAttention,
    multiHeadAttention,
    layerNorm,
    rmsNorm,
    relu: (x) => withHandles('nn.relu', [x], (ix) => wrap(core.nnRelu(ix))),
    gelu,
    silu: (x) => withHandles('nn.silu', [x], (ix) => wrap(core.nnSilu(ix))),
    ropeMatrix,
    applyRope,
  };
}
