// A tiny stand-in for the tp API (TP_STUB=1 builds only), so the page can be developed without the WASM.
class Tensor {
  constructor(shape, data) { this._shape = shape; this._data = Float32Array.from(data); }
  get shape() { return [...this._shape]; }
  data() { return this._data.slice(); }
  toArray() {
    const s = this._shape, d = this._data;
    const build = (k, off) => (k === s.length ? d[off] : Array.from({ length: s[k] }, (_, i) => build(k + 1, off + i * s.slice(k + 1).reduce((a, b) => a * b, 1))));
    return build(0, 0);
  }
  toString() { return `tensor(${JSON.stringify(this.toArray())})`; }
  sum() { return new Tensor([], [this._data.reduce((a, b) => a + b, 0)]); }
  item() { return this._data[0]; }
}
const shapeOf = (x) => (Array.isArray(x) ? [x.length, ...shapeOf(x[0])] : []);
export async function init() {
  return {
    Tensor,
    tensor: (x) => new Tensor(shapeOf(x), [x].flat(Infinity)),
    arange: (a, b) => { const [s, e] = b === undefined ? [0, a] : [a, b]; return new Tensor([e - s], Array.from({ length: e - s }, (_, i) => s + i)); },
    matmul(a, b) {
      const [m, k] = a.shape, n = b.shape[1], A = a._data, B = b._data, C = new Float32Array(m * n);
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) for (let p = 0; p < k; p++) C[i * n + j] += A[i * k + p] * B[p * n + j];
      return new Tensor([m, n], C);
    },
    randn: (shape) => new Tensor(shape, Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => Math.random() * 2 - 1)),
    linalg: { norm: (t) => new Tensor([], [Math.hypot(...t._data)]) },
  };
}
