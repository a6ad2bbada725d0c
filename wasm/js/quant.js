// tp.quant: symmetric absmax quantization (fakeQuant, quantize to int8 QuantizedTensor handles,
// matmulInt8) and relError, from cpp/include/tensorpad/quant.hpp (wasm/bind_nn.cpp). No math here.
//
//   tp.quant.fakeQuant(x, {bits = 8, perRow = false}), tp.quant.relError(approx, exact) → number
//       Symmetric absmax: scale = max|x| / (2^(bits-1) - 1) over the tensor (perRow: over each row of the
//       last dim), levels round(x / scale) half to even in -qmax..qmax, then times scale. NaN or Inf input
//       is an error, as in quantize.
//   tp.quant.quantize(x, {bits = 8, perRow = false}) → QuantizedTensor {q: Int8Array, scale: Float32Array,
//       shape, bits, perRow, dequantize(), dispose()}; released by tp.tidy and tp.dispose as a tensor is,
//       counted by tp.memory() as {quantized} (its bytes join {bytes})
//   tp.quant.matmulInt8(qa, qb)   qa (m,k), qb (n,k) → (m,n) float = dequant(qa) dequant(qb)ᵀ, as x Wᵀ
import { fail, describe } from './errors.js';
import { checkInt, checkBool, options } from './checks.js';

export function quant(rt) {
  const { core, wrap, check, withHandles, track, untrack } = rt;
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
  return {
    QuantizedTensor,
    fakeQuant(x, opts) {
      const { bits, perRow } = quantOpts('quant.fakeQuant', opts);
      return withHandles('quant.fakeQuant', [x], (ix) => wrap(core.quantFakeQuant(ix, bits, perRow)));
    },
    relError(approx, exact) {
      return withHandles('quant.relError', [approx, exact], (a, e) => { const r = core.quantRelError(a, e); check('quant.relError'); return r; });
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
}
