// tp.nn, tp.quant, tp.lora, tp.synth and the rotations of tp.linalg (hadamard, fwht, randomOrthogonal,
// blockDiag): the LLM building blocks of cpp/include/tensorpad/nn.hpp and quant.hpp. No math here:
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
//   tp.linalg.hadamard(n), tp.linalg.fwht(x, {block}), tp.linalg.randomOrthogonal(n, {seed}),
//   tp.linalg.blockDiag(...mats)   (as torch.block_diag: a 0-d block is 1x1, a 1-d block one row)
//   tp.quant.fakeQuant(x, {bits = 8, perRow = false}), tp.quant.relError(approx, exact) → number
//       Symmetric absmax: scale = max|x| / (2^(bits-1) - 1) over the tensor (perRow: over each row of the
//       last dim), levels round(x / scale) half to even in -qmax..qmax, then times scale. NaN or Inf input
//       is an error, as in quantize.
//   tp.quant.quantize(x, {bits = 8, perRow = false}) → QuantizedTensor {q: Int8Array, scale: Float32Array,
//       shape, bits, perRow, dequantize(), dispose()}; released by tp.tidy and tp.dispose as a tensor is,
//       counted by tp.memory() as {quantized} (its bytes join {bytes})
//   tp.quant.matmulInt8(qa, qb)   qa (m,k), qb (n,k) → (m,n) float = dequant(qa) dequant(qb)ᵀ, as x Wᵀ
//   tp.lora.params(dOut, dIn, r) → number, tp.lora.merge(W, A, B, {alpha = r, r = A.shape[0]})
//   tp.synth.activations({tokens = 512, dim = 1024, outliers = 6, outlierScale = 50, seed = 0})

export function installNn(tp, rt) {
  const { core, wrap, check, withHandles, checkInt, checkNumber, checkBool, options, fail, describe, Tensor, track, untrack, MAX_DIMS } = rt;

  // An option left out travels to the core as NaN ("use the default"), so a NaN the caller passes must
  // be refused here, not read as left out.
  const optNumber = (op, name, v) => {
    if (v === undefined || v === null) return NaN;
    if (Number.isNaN(checkNumber(op, name, v))) fail(op, `${name} must be a number, got NaN`);
    return v;
  };
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
  function number(op, r) {
    check(op);
    return r;
  }

  // ---- tp.nn ----------------------------------------------------------------------------------------
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

  tp.nn = {
    ...(tp.nn ?? {}),
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

  // ---- tp.linalg rotations ------------------------------------------------------------------------------
  tp.linalg ??= {};
  Object.assign(tp.linalg, {
    hadamard(n) {
      checkInt('linalg.hadamard', 'n', n, { min: 0 });
      return wrap(core.linalgHadamard(n), 'linalg.hadamard');
    },
    fwht(x, opts) {
      const op = 'linalg.fwht';
      const o = options(op, opts, ['block']);
      const block = o.block === undefined ? 0 : checkInt(op, 'block', o.block, { min: 1 });
      return withHandles(op, [x], (ix) => wrap(core.linalgFwht(ix, block)));
    },
    randomOrthogonal(n, opts) {
      const op = 'linalg.randomOrthogonal';
      checkInt(op, 'n', n, { min: 1 });
      const o = options(op, opts, ['seed']);
      return wrap(core.linalgRandomOrthogonal(n, ...rt.seedOf(op, o.seed)), op);
    },
    blockDiag(...mats) {
      const op = 'linalg.blockDiag';
      if (mats.length === 1 && Array.isArray(mats[0]) && mats[0].some((m) => m instanceof Tensor)) mats = mats[0];
      return withHandles(op, mats, (...ids) => wrap(core.linalgBlockDiag(ids)));
    },
  });

  // ---- tp.quant ------------------------------------------------------------------------------------
  const qRegistry = rt.finalizers ? new FinalizationRegistry((id) => core.quantRelease(id)) : null;
  // int8 levels and their scale(s), kept in the WebAssembly heap for matmulInt8. A handle like a tensor:
  // tidy scopes, tp.dispose and tp.memory know it (rt.addHandleType below).
  class QuantizedTensor {
    #id;
    constructor(id, bits, perRow) {
      this.#id = id;
      this.bits = bits;
      this.perRow = perRow;
      this.shape = core.quantShape(id);
      check();
    }
    _id(op) {
      if (this.#id === 0) fail(op, 'this quantized tensor was disposed (use after dispose)');
      return this.#id;
    }
    get isDisposed() { return this.#id === 0; }
    /** The int8 levels, row-major (a copy). */
    get q() { const r = core.quantLevels(this._id('quant.q')); check('quant.q'); return r; }
    /** The scale per row (perRow) or the single scale, as a Float32Array. */
    get scale() {
      const t = wrap(core.quantScale(this._id('quant.scale')), 'quant.scale');
      const s = t.data();
      t.dispose();
      return s;
    }
    dequantize() { return wrap(core.quantDequantize(this._id('quant.dequantize')), 'quant.dequantize'); }
    dispose() {
      if (this.#id === 0) return;
      core.quantRelease(this.#id);
      qRegistry?.unregister(this);
      untrack(this);
      this.#id = 0;
    }
    toString() { return `QuantizedTensor(int${this.bits}, shape [${this.shape.join(', ')}], ${this.perRow ? 'per row' : 'per tensor'})`; }
  }
  rt.addHandleType({
    name: 'quantized',
    type: QuantizedTensor,
    memory: () => ({ count: core.quantLive(), bytes: core.quantLiveBytes() }),
  });
  function quantOpts(op, opts) {
    const o = options(op, opts, ['bits', 'perRow']);
    const { bits = 8, perRow = false } = o;
    checkInt(op, 'bits', bits, { min: 2, max: 16 });
    checkBool(op, 'perRow', perRow);
    return { bits, perRow };
  }
  tp.quant = {
    ...(tp.quant ?? {}),
    QuantizedTensor,
    fakeQuant(x, opts) {
      const { bits, perRow } = quantOpts('quant.fakeQuant', opts);
      return withHandles('quant.fakeQuant', [x], (ix) => wrap(core.quantFakeQuant(ix, bits, perRow)));
    },
    relError(approx, exact) {
      return withHandles('quant.relError', [approx, exact], (a, e) => number('quant.relError', core.quantRelError(a, e)));
    },
    quantize(x, opts) {
      const { bits, perRow } = quantOpts('quant.quantize', opts);
      if (bits > 8) fail('quant.quantize', `bits must be <= 8 for int8 storage, got ${bits} (fakeQuant takes up to 16)`);
      return withHandles('quant.quantize', [x], (ix) => {
        const id = core.quantQuantize(ix, bits, perRow);
        check();
        const q = new QuantizedTensor(id, bits, perRow);
        qRegistry?.register(q, id, q);
        track(q);
        return q;
      });
    },
    matmulInt8(qa, qb) {
      const op = 'quant.matmulInt8';
      if (!(qa instanceof QuantizedTensor) || !(qb instanceof QuantizedTensor))
        fail(op, `expects two QuantizedTensors from tp.quant.quantize, got ${describe(qa)} and ${describe(qb)}`);
      return wrap(core.quantMatmulInt8(qa._id(op), qb._id(op)), op);
    },
  };

  // ---- tp.lora, tp.synth ----------------------------------------------------------------------------------
  tp.lora = {
    params(dOut, dIn, r) {
      const op = 'lora.params';
      checkInt(op, 'dOut', dOut, { min: 1 });
      checkInt(op, 'dIn', dIn, { min: 1 });
      checkInt(op, 'r', r, { min: 1 });
      return number(op, core.loraParams(dOut, dIn, r));
    },
    merge(W, A, B, opts) {
      const op = 'lora.merge';
      const o = options(op, opts, ['alpha', 'r']);
      const alpha = optNumber(op, 'alpha', o.alpha);
      const r = o.r === undefined || o.r === null ? NaN : checkInt(op, 'r', o.r, { min: 1 });
      return withHandles(op, [W, A, B], (w, a, b) => wrap(core.loraMerge(w, a, b, alpha, r)));
    },
  };

  tp.synth = {
    ...(tp.synth ?? {}),
    /**
     * LLM-like activations (tokens, dim) with a few large outlier channels — synthetic, not from a model.
     * Ordinary channel c: s_c·z with z ~ N(0,1) and s_c = exp(0.3·g_c); outlier channel k (k = 0..outliers-1,
     * chosen by seed): ±m_k·(1 + 0.1 z) with m_k = outlierScale / (1 + 0.5 k), a fixed sign per channel.
     */
    activations(opts) {
      const op = 'synth.activations';
      const o = options(op, opts, ['tokens', 'dim', 'outliers', 'outlierScale', 'seed']);
      const { tokens = 512, dim = 1024, outliers = 6, outlierScale = 50, seed = 0 } = o;
      checkInt(op, 'tokens', tokens, { min: 1 });
      checkInt(op, 'dim', dim, { min: 1 });
      checkInt(op, 'outliers', outliers, { min: 0 });
      checkNumber(op, 'outlierScale', outlierScale);
      checkInt(op, 'seed', seed, { min: 0, max: Number.MAX_SAFE_INTEGER });
      return wrap(core.synthActivations(tokens, dim, outliers, outlierScale, seed), op);
    },
  };
}
