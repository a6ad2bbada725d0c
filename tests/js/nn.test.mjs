// tp.nn, tp.linalg rotations, tp.quant, tp.lora, tp.synth through the JS API: the source's worked
// examples, agreement with compositions of primitives and with numpy (tests/fixtures/nn), and errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init } from 'tensorpad';

const tp = await init();
const fixtures = JSON.parse(readFileSync(new URL('../fixtures/nn/nn_fixtures.json', import.meta.url), 'utf8'));
const fx = (e) => tp.tensor(Float32Array.from(e.data), { shape: e.shape });

// Every |a - b| <= atol + rtol |b|, naming the first offender.
function assertClose(a, b, { atol = 1e-5, rtol = 1e-5 } = {}) {
  const A = a instanceof tp.Tensor ? a : tp.tensor(a);
  const B = b instanceof tp.Tensor ? b : tp.tensor(b);
  assert.deepEqual(A.shape, B.shape);
  const x = A.data(), y = B.data();
  for (let i = 0; i < x.length; i++) {
    if (!(Math.abs(x[i] - y[i]) <= atol + rtol * Math.abs(y[i])))
      assert.fail(`element ${i}: ${x[i]} vs ${y[i]} (atol ${atol}, rtol ${rtol})`);
  }
}

test('scaledDotProductAttention mixes v1, v2, v3 with 0.1/0.7/0.2 into (0.5, 1.9, 0.9)', () => {
  tp.tidy(() => {
    const V = tp.tensor([[1, 0, 2], [0, 3, 1], [2, -1, 0]]);
    const mask = [[Math.log(0.1), Math.log(0.7), Math.log(0.2)]];
    const { output, weights } = tp.nn.scaledDotProductAttention(tp.zeros(1, 4), tp.zeros(3, 4), V, { mask, returnWeights: true });
    assertClose(weights, [[0.1, 0.7, 0.2]], { atol: 1e-6 });
    assertClose(output, [[0.5, 1.9, 0.9]], { atol: 1e-6 });
  });
});

test("a mask of booleans is torch's boolean mask: true attends, false is excluded; fully excluded rows give zeros", () => {
  tp.tidy(() => {
    // Equal scores (Q = 0): each query averages the values of the keys it may attend to.
    const V = tp.tensor([[1, 0, 2], [0, 3, 1], [2, -1, 0]]), Q = tp.zeros(3, 4), K = tp.zeros(3, 4);
    const mask = [[true, false, true], [false, true, false], [false, false, false]];
    const { output, weights } = tp.nn.scaledDotProductAttention(Q, K, V, { mask, returnWeights: true });
    assertClose(weights, [[0.5, 0, 0.5], [0, 1, 0], [0, 0, 0]], { atol: 1e-6 });
    assertClose(output, [[1.5, -0.5, 1], [0, 3, 1], [0, 0, 0]], { atol: 1e-6 });
    // The same as torch's float equivalent (0 where true, -inf where false), broadcast over a batch.
    const q = tp.randn([2, 3, 4], { seed: 1 }), k = tp.randn([2, 3, 4], { seed: 2 }), v = tp.randn([2, 3, 2], { seed: 3 });
    const additive = mask.map((row) => row.map((b) => (b ? 0 : -Infinity)));
    assertClose(tp.nn.scaledDotProductAttention(q, k, v, { mask }), tp.nn.scaledDotProductAttention(q, k, v, { mask: additive }));
    // A float mask stays additive: 1 and 0 are added to the scores, not read as attend/exclude.
    const ones = tp.nn.scaledDotProductAttention(tp.zeros(1, 4), K, V, { mask: [[1, 0, 1]], returnWeights: true }).weights;
    assertClose(ones, [[Math.E / (2 * Math.E + 1), 1 / (2 * Math.E + 1), Math.E / (2 * Math.E + 1)]], { atol: 1e-6 });
    assert.throws(() => tp.nn.scaledDotProductAttention(Q, K, V, { mask: [[true, 0, 1]] }),
      { message: 'nn.scaledDotProductAttention: mask mixes booleans and numbers: pass booleans (true = attend) or an additive float mask' });
  });
});

test('causal attention weights: rows sum to 1, zeros above the diagonal', () => {
  tp.tidy(() => {
    const [Q, K, V] = [1, 2, 3].map((seed) => tp.randn([6, 4], { seed }));
    const { output, weights } = tp.nn.scaledDotProductAttention(Q, K, V, { causal: true, returnWeights: true });
    const w = weights.toArray();
    w.forEach((row, i) => {
      row.forEach((x, j) => { if (j > i) assert.equal(x, 0); });
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-6);
    });
    assertClose(tp.nn.scaledDotProductAttention(Q, K, V, { causal: true }), output, { atol: 1e-6 });
  });
});

test('attention equals softmax(QKᵀ/√d + M) V from tp primitives, batched and unbatched', () => {
  tp.tidy(() => {
    for (const [qs, ks, vs] of [[[9, 8], [11, 8], [11, 5]], [[2, 3, 70, 16], [2, 3, 70, 16], [2, 3, 70, 16]]]) {
      const Q = tp.randn(qs, { seed: 4 }), K = tp.randn(ks, { seed: 5 }), V = tp.randn(vs, { seed: 6 });
      const M = tp.randn([qs.at(-2), ks.at(-2)], { seed: 7 }).mul(0.5);
      const ref = tp.softmax(Q.matmul(K.transpose(-2, -1)).mul(1 / Math.sqrt(qs.at(-1))).add(M), -1).matmul(V);
      assertClose(tp.nn.scaledDotProductAttention(Q, K, V, { mask: M }), ref, { atol: 1e-5, rtol: 1e-4 });
    }
  });
});

test('attention and multiHeadAttention match numpy', () => {
  tp.tidy(() => {
    const a = fixtures.attention;
    const [q, k, v] = [a.q, a.k, a.v].map(fx);
    assertClose(tp.nn.scaledDotProductAttention(q, k, v, { mask: fx(a.mask) }), fx(a.out), { rtol: 1e-4 });
    assertClose(tp.nn.scaledDotProductAttention(q, k, v, { causal: true }), fx(a.out_causal), { rtol: 1e-4 });
    assertClose(tp.nn.scaledDotProductAttention(q, k, v, { scale: 0.5 }), fx(a.out_scale_half), { rtol: 1e-4 });
    const m = fixtures.mha;
    const out = tp.nn.multiHeadAttention(fx(m.x), { Wq: fx(m.wq), Wk: fx(m.wk), Wv: fx(m.wv), Wo: fx(m.wo), heads: m.heads, causal: true });
    assertClose(out, fx(m.out), { rtol: 1e-4 });
  });
});

// torch's repeat_interleave over the head dim (-3): each K/V head g times in a row (the explicit reference).
const repeatHeads = (t, g) => {
  const hd = t.ndim - 3, parts = [];
  for (let j = 0; j < t.shape[hd]; j++) for (let r = 0; r < g; r++) parts.push(t.narrow(hd, j, 1));
  return tp.cat(parts, hd);
};

test('attention with fewer K/V heads than query heads (GQA, MQA) matches numpy\'s repeat_interleave reference', () => {
  tp.tidy(() => {
    const g = fixtures.gqa;
    const [q, k, v] = [g.q, g.k, g.v].map(fx);  // 6 query heads, 2 K/V heads
    const gqa = { enableGqa: true };
    assertClose(tp.nn.scaledDotProductAttention(q, k, v, gqa), fx(g.out), { rtol: 1e-4 });
    assertClose(tp.nn.scaledDotProductAttention(q, k, v, { ...gqa, causal: true }), fx(g.out_causal), { rtol: 1e-4 });
    const masked = tp.nn.scaledDotProductAttention(q, k, v, { ...gqa, mask: fx(g.mask), returnWeights: true });
    assertClose(masked.output, fx(g.out_mask), { rtol: 1e-4 });
    assertClose(masked.weights, fx(g.weights_mask), { atol: 1e-6, rtol: 1e-4 });
    const causal = tp.nn.scaledDotProductAttention(q, k, v, { ...gqa, causal: true, returnWeights: true });
    assert.deepEqual(causal.weights.shape, [2, 6, 5, 7]);  // one weight matrix per query head
    assertClose(causal.weights, fx(g.weights_causal), { atol: 1e-6, rtol: 1e-4 });
    const m = fixtures.mqa;  // one K/V head for 4 query heads
    assertClose(tp.nn.scaledDotProductAttention(fx(m.q), fx(m.k), fx(m.v), { causal: true }), fx(m.out_causal), { rtol: 1e-4 });
  });
});

test('GQA equals attention over K/V heads repeated with tp.cat, across 64-row tiles', () => {
  tp.tidy(() => {
    for (const [qs, ks, causal] of [[[2, 8, 70, 16], [2, 2, 90, 16], true], [[3, 6, 5, 8], [3, 3, 9, 8], false]]) {
      const Q = tp.randn(qs, { seed: 30 }), K = tp.randn(ks, { seed: 31 }), V = tp.randn(ks, { seed: 32 });
      const grp = qs[1] / ks[1];
      const ref = tp.nn.scaledDotProductAttention(Q, repeatHeads(K, grp), repeatHeads(V, grp), { causal });
      assertClose(tp.nn.scaledDotProductAttention(Q, K, V, { causal, enableGqa: true }), ref, { atol: 1e-6, rtol: 1e-5 });
    }
  });
});

test('GQA is asked for with enableGqa (torch\'s enable_gqa); it refuses head counts that do not divide, naming them', () => {
  tp.tidy(() => {
    const isErr = (re) => (e) => e instanceof tp.TensorpadError && e.op === 'nn.scaledDotProductAttention' && re.test(e.message);
    assert.throws(() => tp.nn.scaledDotProductAttention(tp.zeros(6, 3, 4), tp.zeros(2, 5, 4), tp.zeros(2, 5, 2)),
      isErr(/^nn\.scaledDotProductAttention: dim -3 of Q \[6, 3, 4\] and of key\/value \[2, 5, 4\] \(6 vs 2\) do not broadcast; if they are attention heads, pass enableGqa: true for grouped-query attention$/));
    assert.throws(() => tp.nn.scaledDotProductAttention(tp.zeros(6, 3, 4), tp.zeros(2, 5, 4), tp.zeros(2, 5, 2), { enableGqa: 1 }),
      isErr(/enableGqa must be a boolean/));
    const gqa = { enableGqa: true };
    assert.throws(() => tp.nn.scaledDotProductAttention(tp.zeros(6, 3, 4), tp.zeros(4, 5, 4), tp.zeros(4, 5, 2), gqa),
      isErr(/^nn\.scaledDotProductAttention: query heads 6 not divisible by key\/value heads 4 \(Q \[6, 3, 4\], key\/value \[4, 5, 4\]\)$/));
    assert.throws(() => tp.nn.scaledDotProductAttention(tp.zeros(1, 6, 3, 4), tp.zeros(1, 3, 5, 4), tp.zeros(1, 4, 5, 2), gqa),
      isErr(/query heads 6 not divisible by value heads 4/));
    assert.throws(() => tp.nn.scaledDotProductAttention(tp.zeros(2, 3, 4), tp.zeros(4, 5, 4), tp.zeros(4, 5, 4), gqa),
      isErr(/query heads 2 not divisible by key\/value heads 4/));
    // The mask is per query head: one sized for the 2 K/V heads does not fit [6, 3, 5].
    assert.throws(() => tp.nn.scaledDotProductAttention(tp.zeros(6, 3, 4), tp.zeros(2, 5, 4), tp.zeros(2, 5, 4), { ...gqa, mask: tp.zeros(2, 3, 5) }),
      isErr(/./));
  });
});

test('multiHeadAttention with kvHeads shares each K/V head among heads/kvHeads query heads', () => {
  tp.tidy(() => {
    const m = fixtures.mha_gqa;
    const out = tp.nn.multiHeadAttention(fx(m.x), { Wq: fx(m.wq), Wk: fx(m.wk), Wv: fx(m.wv), Wo: fx(m.wo), heads: m.heads, kvHeads: m.kv_heads, causal: true });
    assertClose(out, fx(m.out), { rtol: 1e-4 });
    const h = 4, kv = 1, dh = 4, X = tp.randn([5, 16], { seed: 33 });
    const Wq = tp.randn([16, h * dh], { seed: 34 }).mul(0.3), Wk = tp.randn([16, kv * dh], { seed: 35 }).mul(0.3);
    const Wv = tp.randn([16, kv * dh], { seed: 36 }).mul(0.3), Wo = tp.randn([h * dh, 16], { seed: 37 }).mul(0.3);
    let sum = tp.zeros(5, 16);  // multi-query: every head reads the single K/V head
    for (let r = 0; r < h; r++) {
      const C = tp.nn.scaledDotProductAttention(X.matmul(Wq.narrow(1, r * dh, dh)), X.matmul(Wk), X.matmul(Wv));
      sum = sum.add(C.matmul(Wo.narrow(0, r * dh, dh)));
    }
    assertClose(tp.nn.multiHeadAttention(X, { Wq, Wk, Wv, Wo, heads: h, kvHeads: kv }), sum, { atol: 1e-5, rtol: 1e-4 });
    assert.throws(() => tp.nn.multiHeadAttention(X, { Wq, Wk, Wv, Wo, heads: 4, kvHeads: 3 }),
      (e) => e instanceof tp.TensorpadError && /^nn\.multiHeadAttention: heads 4 not divisible by kvHeads 3$/.test(e.message));
    assert.throws(() => tp.nn.multiHeadAttention(X, { Wq, Wk: Wq, Wv, Wo, heads: 4, kvHeads: 2 }),
      /nn\.multiHeadAttention: Wk \[16, 16\] must have kvHeads\*dh = 2\*4 = 8 columns/);
    assert.throws(() => tp.nn.multiHeadAttention(X, { Wq, Wk, Wv, Wo, heads: 4, kvHeads: 0 }), /nn\.multiHeadAttention: kvHeads 0 is out of range/);
  });
});

test('multiHeadAttention equals the sum over heads of C^(r) W_O^(r)', () => {
  tp.tidy(() => {
    const h = 4, dm = 16, dh = dm / h;
    const X = tp.randn([5, dm], { seed: 8 });
    const [Wq, Wk, Wv, Wo] = [9, 10, 11, 12].map((seed) => tp.randn([dm, dm], { seed }).mul(0.3));
    const out = tp.nn.multiHeadAttention(X, { Wq, Wk, Wv, Wo, heads: h });
    let sum = tp.zeros(5, dm);
    for (let r = 0; r < h; r++) {
      const cols = (W) => W.narrow(1, r * dh, dh);
      const C = tp.nn.scaledDotProductAttention(X.matmul(cols(Wq)), X.matmul(cols(Wk)), X.matmul(cols(Wv)));
      sum = sum.add(C.matmul(Wo.narrow(0, r * dh, dh)));
    }
    assertClose(out, sum, { atol: 1e-5, rtol: 1e-4 });
  });
});

test('rmsNorm with eps 0 makes an all-zero row NaN (0 times 1/0), as torch, and layerNorm a constant row', () => {
  tp.tidy(() => {
    const y = tp.nn.rmsNorm(tp.tensor([[0, 0], [3, 4]]), { eps: 0 }).toArray();
    assert.ok(y[0].every(Number.isNaN));
    assert.ok(y[1].every(Number.isFinite));
    assert.ok(tp.nn.layerNorm(tp.tensor([[2, 2]]), { eps: 0 }).toArray()[0].every(Number.isNaN));
  });
});

test('a missing tensor operand of attention or a norm is refused under the op, not taken for a disposed tensor', () => {
  tp.tidy(() => {
    const K = tp.ones([2, 3]);
    const missing = (what) => `${what}: cannot make a tensor from undefined; pass a number, a (nested) array or a typed array`;
    assert.throws(() => tp.nn.scaledDotProductAttention(undefined, K, K), { message: missing('nn.scaledDotProductAttention') });
    assert.throws(() => tp.nn.scaledDotProductAttention(K, K), { message: missing('nn.scaledDotProductAttention') });
    assert.throws(() => tp.nn.layerNorm(), { message: missing('nn.layerNorm') });
    assert.throws(() => tp.nn.rmsNorm(null), { message: /^nn\.rmsNorm: cannot make a tensor from null/ });
    assert.deepEqual(tp.nn.layerNorm(K, { weight: null, bias: undefined }).shape, [2, 3]);
  });
});

test('rmsNorm of (3, 4, 0) is (3√3/5, 4√3/5, 0), unchanged by scaling; layerNorm gives mean 0, variance 1', () => {
  tp.tidy(() => {
    const r3 = Math.sqrt(3);
    assertClose(tp.nn.rmsNorm(tp.tensor([3, 4, 0]), { eps: 0 }), [3 * r3 / 5, 4 * r3 / 5, 0], { atol: 1e-6 });
    assertClose(tp.nn.rmsNorm(tp.tensor([30, 40, 0]), { eps: 0 }), tp.nn.rmsNorm(tp.tensor([3, 4, 0]), { eps: 0 }), { atol: 1e-7 });
    const y = tp.nn.layerNorm(tp.randn([3, 64], { seed: 13 }).mul(5).add(2), { eps: 0 });
    assertClose(y.mean(-1), [0, 0, 0], { atol: 1e-6 });
    assertClose(y.square().mean(-1), [1, 1, 1], { atol: 1e-5 });
    const n = fixtures.norms;
    assertClose(tp.nn.layerNorm(fx(n.x), { weight: fx(n.weight), bias: fx(n.bias) }), fx(n.layer_norm));
    assertClose(tp.nn.rmsNorm(fx(n.x), { weight: fx(n.weight) }), fx(n.rms_norm));
  });
});

test('relu, gelu (erf by default, tanh on request) and silu match numpy', () => {
  tp.tidy(() => {
    const a = fixtures.activations;
    const x = fx(a.x);
    assertClose(tp.nn.gelu(x), fx(a.gelu), { atol: 1e-6 });
    assertClose(tp.nn.gelu(x, { approximate: 'tanh' }), fx(a.gelu_tanh), { atol: 1e-6 });
    assertClose(tp.nn.silu(x), fx(a.silu), { atol: 1e-6 });
    assertClose(tp.nn.relu(tp.tensor([-1, 0, 2])), [0, 0, 2], { atol: 0 });
    assert.throws(() => tp.nn.gelu(x, { approximate: 'fast' }), /nn.gelu: approximate must be 'none' \(erf\) or 'tanh'/);
  });
});

test('ropeMatrix: R_3 orthogonal, R_3ᵀ R_7 = R_4 (dim 8); applyRope agrees with x @ R', () => {
  tp.tidy(() => {
    const R3 = tp.nn.ropeMatrix(3, 8), R7 = tp.nn.ropeMatrix(7, 8);
    assertClose(R3.matmul(R3.T), tp.eye(8), { atol: 1e-6 });
    assertClose(R3.T.matmul(R7), tp.nn.ropeMatrix(4, 8), { atol: 1e-5 });
    const r = fixtures.rope;
    assertClose(tp.nn.applyRope(fx(r.x), r.positions), fx(r.out));
    assertClose(tp.nn.applyRope(fx(r.x), tp.tensor(r.positions), { theta: 10000 }), fx(r.out));
    const x = tp.randn([4, 8], { seed: 14 });
    const y = tp.nn.applyRope(x, [0, 1, 2, 3]);
    for (let i = 0; i < 4; i++) assertClose(y.narrow(0, i, 1), x.narrow(0, i, 1).matmul(tp.nn.ropeMatrix(i, 8)));
    assertClose(tp.nn.applyRope(x), y, { atol: 0 });  // positions default to 0..n-1
    assert.throws(() => tp.nn.ropeMatrix(1, 7), /nn.ropeMatrix: dim must be even/);
  });
});

test('hadamard is normalised Sylvester; fwht equals the (block-)Hadamard matmul', () => {
  tp.tidy(() => {
    const H = tp.linalg.hadamard(16);
    assertClose(H.matmul(H.T), tp.eye(16), { atol: 1e-6 });
    const h = fixtures.hadamard;
    assertClose(tp.linalg.hadamard(8), fx(h.H8), { atol: 1e-7 });
    assertClose(tp.linalg.fwht(fx(h.x)), fx(h.fwht));
    assertClose(tp.linalg.fwht(fx(h.x), { block: 8 }), fx(h.fwht_block8));
    const x = tp.randn([3, 256], { seed: 15 });
    const B = tp.linalg.blockDiag(...Array(4).fill(tp.linalg.hadamard(64)));
    assertClose(tp.linalg.fwht(x, { block: 64 }), x.matmul(B));
    assert.throws(() => tp.linalg.hadamard(12), (e) => e instanceof tp.TensorpadError && e.op === 'linalg.hadamard' && /power of 2/.test(e.message));
    assert.throws(() => tp.linalg.fwht(x, { block: 48 }), /linalg.fwht: block must be a power of 2/);
  });
});

test('randomOrthogonal: QᵀQ = I, seeded, and (XQ)(WQ)ᵀ = XWᵀ', () => {
  tp.tidy(() => {
    const Q = tp.linalg.randomOrthogonal(64, { seed: 1 });
    assertClose(Q.T.matmul(Q), tp.eye(64), { atol: 1e-5 });
    assertClose(tp.linalg.randomOrthogonal(64, { seed: 1 }), Q, { atol: 0 });
    const X = tp.randn([8, 64], { seed: 16 }), W = tp.randn([12, 64], { seed: 17 });
    assertClose(X.matmul(Q).matmul(W.matmul(Q).T), X.matmul(W.T), { atol: 1e-4, rtol: 1e-4 });
  });
});

test('rotation before quantization on tp.synth.activations: max/median down >= 3x, W8A8 error down >= 2x', () => {
  tp.tidy(() => {
    const X = tp.synth.activations({ tokens: 256, dim: 512, seed: 3 });
    const W = tp.randn([384, 512], { seed: 18 }).mul(1 / Math.sqrt(512));
    const Y = X.matmul(W.T);
    const peak = (x) => {
      const a = Array.from(x.data(), Math.abs).sort((p, q) => p - q);
      return a.at(-1) / a[a.length >> 1];
    };
    const w8a8 = (x, w) => tp.quant.relError(tp.quant.fakeQuant(x, { bits: 8 }).matmul(tp.quant.fakeQuant(w, { bits: 8, perRow: true }).T), Y);
    const p0 = peak(X), e0 = w8a8(X, W);
    const Q = tp.linalg.randomOrthogonal(512, { seed: 0 });
    for (const [xr, wr] of [[tp.linalg.fwht(X, { block: 128 }), tp.linalg.fwht(W, { block: 128 })], [X.matmul(Q), W.matmul(Q)]]) {
      assert.ok(p0 / peak(xr) >= 3, `max/median ${p0} -> ${peak(xr)}`);
      assert.ok(e0 / w8a8(xr, wr) >= 2, `W8A8 ${e0} -> ${w8a8(xr, wr)}`);
    }
  });
});

test('fakeQuant matches numpy bit for bit; relError is a number', () => {
  tp.tidy(() => {
    const q = fixtures.quant;
    assertClose(tp.quant.fakeQuant(fx(q.x)), fx(q.w8_tensor), { atol: 0, rtol: 0 });
    assertClose(tp.quant.fakeQuant(fx(q.x), { bits: 4, perRow: true }), fx(q.w4_row), { atol: 0, rtol: 0 });
    assert.equal(typeof tp.quant.relError(tp.tensor([3, 4.5]), tp.tensor([3, 4])), 'number');
    assert.ok(Math.abs(tp.quant.relError(tp.tensor([3, 4.5]), tp.tensor([3, 4])) - 0.1) < 1e-12);
    assert.throws(() => tp.quant.fakeQuant(fx(q.x), { bits: 1 }), /quant.fakeQuant: bits/);
  });
});

test('quantize keeps int8 levels; matmulInt8 equals the product of the dequantized operands', () => {
  tp.tidy(() => {
    const X = tp.randn([9, 40], { seed: 19 }), W = tp.randn([7, 40], { seed: 20 });
    const qa = tp.quant.quantize(X, { perRow: true }), qb = tp.quant.quantize(W, { bits: 8, perRow: true });
    assert.ok(qa.q instanceof Int8Array && qa.q.length === 360);
    assert.equal(qa.scale.length, 9);
    assert.deepEqual(qa.shape, [9, 40]);
    // Exact integer accumulation, scaled once.
    const a = qa.q, b = qb.q, sa = qa.scale, sb = qb.scale;
    const out = tp.quant.matmulInt8(qa, qb).data();
    for (let i = 0; i < 9; i++)
      for (let j = 0; j < 7; j++) {
        let acc = 0;
        for (let p = 0; p < 40; p++) acc += a[i * 40 + p] * b[j * 40 + p];
        const want = acc * Math.fround(sa[i] * sb[j]);
        assert.ok(Math.abs(out[i * 7 + j] - want) <= 1e-6 * Math.abs(want) + 1e-7, `(${i}, ${j})`);
      }
    assertClose(tp.quant.matmulInt8(qa, qb), qa.dequantize().matmul(qb.dequantize().T), { atol: 1e-4 });
    assert.throws(() => tp.quant.matmulInt8(qa, tp.quant.quantize(tp.zeros(3, 5))), /quant.matmulInt8: a \[9, 40\] and b \[3, 5\]/);
    assert.throws(() => tp.quant.matmulInt8(qa, W), /expects two QuantizedTensors/);
    qa.dispose();
    assert.throws(() => qa.q, /disposed/);
  });
});

test('tidy disposes a QuantizedTensor made inside it unless it is returned, alone or inside arrays and objects', () => {
  const X = tp.randn([4, 8], { seed: 40 });
  let inner;
  const kept = tp.tidy(() => {
    inner = tp.quant.quantize(X);
    return tp.quant.quantize(X, { perRow: true });
  });
  assert.ok(inner.isDisposed);
  assert.throws(() => inner.q, (e) => e instanceof tp.TensorpadError && /quant\.q: this quantized tensor was disposed/.test(e.message));
  assert.throws(() => tp.quant.matmulInt8(inner, kept), (e) => e instanceof tp.TensorpadError && e.op === 'quant.matmulInt8');
  assert.ok(!kept.isDisposed);
  assert.equal(kept.q.length, 32);
  const { list, obj } = tp.tidy(() => {
    tp.quant.quantize(X);  // dropped
    return { list: [tp.quant.quantize(X), tp.quant.quantize(X, { bits: 4 })], obj: { w: tp.quant.quantize(X), t: X.add(1) } };
  });
  assert.ok(list.every((q) => !q.isDisposed) && !obj.w.isDisposed && !obj.t.isDisposed);
  tp.dispose(kept, list, obj);
  assert.ok(kept.isDisposed && list.every((q) => q.isDisposed) && obj.w.isDisposed && obj.t.isDisposed);
  X.dispose();
});

test('nested tidy: a QuantizedTensor returned by the inner scope belongs to the outer one', () => {
  const X = tp.randn([3, 5], { seed: 41 });
  let fromInner, dropped;
  const out = tp.tidy(() => {
    fromInner = tp.tidy(() => {
      dropped = tp.quant.quantize(X);
      return [tp.quant.quantize(X)];
    })[0];
    assert.ok(dropped.isDisposed);
    assert.ok(!fromInner.isDisposed);  // alive until the outer scope ends
    return fromInner.dequantize();
  });
  assert.ok(fromInner.isDisposed, 'the outer scope did not release what the inner one returned');
  assert.deepEqual(out.shape, [3, 5]);
  tp.dispose(out, X);
});

test('tp.memory() counts live QuantizedTensors and their bytes; dispose twice is harmless', () => {
  const X = tp.randn([16, 64], { seed: 42 });
  const before = tp.memory();
  const q = tp.quant.quantize(X, { perRow: true });
  const during = tp.memory();
  assert.equal(during.quantized, before.quantized + 1);
  assert.equal(during.tensors, before.tensors);
  assert.equal(during.bytes - before.bytes, 16 * 64 + 16 * 4);  // int8 levels + one float scale per row
  q.dispose();
  q.dispose();
  tp.dispose(q);
  assert.deepEqual(tp.memory(), before);
  X.dispose();
});

test('1000 quantize calls inside tidy return tp.memory() to its baseline', () => {
  const X = tp.randn([32, 32], { seed: 43 });
  const before = tp.memory();
  tp.tidy(() => {
    for (let i = 0; i < 1000; i++) {
      const q = tp.quant.quantize(X, { bits: 8, perRow: i % 2 === 0 });
      if (i % 100 === 0) tp.quant.matmulInt8(q, q);
    }
    assert.equal(tp.memory().quantized, before.quantized + 1000);
  });
  assert.deepEqual(tp.memory(), before);
  X.dispose();
});

test('lora.params counts 131072, 294912 (rank 16) and 65536 (rank 8); merge is W + (α/r) B A', () => {
  assert.equal(tp.lora.params(4096, 4096, 16), 131072);
  assert.equal(tp.lora.params(14336, 4096, 16), 294912);
  assert.equal(tp.lora.params(4096, 4096, 8), 65536);
  tp.tidy(() => {
    const l = fixtures.lora;
    assertClose(tp.lora.merge(fx(l.w), fx(l.a), fx(l.b), { alpha: l.alpha, r: l.r }), fx(l.merged));
    assertClose(tp.lora.merge(fx(l.w), fx(l.a), fx(l.b)), fx(l.w).add(fx(l.b).matmul(fx(l.a))));
  });
  assert.throws(() => tp.lora.params(4096, 4096, 0), /lora.params: r/);
});

test('synth.activations is deterministic and has large outlier channels', () => {
  tp.tidy(() => {
    const a = tp.synth.activations({ tokens: 32, dim: 64, outliers: 2, seed: 9 });
    assertClose(a, tp.synth.activations({ tokens: 32, dim: 64, outliers: 2, seed: 9 }), { atol: 0 });
    const colMax = a.abs().amax(0).data();
    assert.equal(Array.from(colMax).filter((v) => v > 20).length, 2);
    assert.throws(() => tp.synth.activations({ dims: 3 }), /synth.activations: unknown option "dims"/);
  });
});

test('the blocks leave no tensors behind inside tidy', () => {
  const before = tp.memory().tensors;
  tp.tidy(() => {
    const X = tp.randn([4, 8], { seed: 1 });
    tp.nn.scaledDotProductAttention(X, X, X, { causal: true, returnWeights: true });
    tp.nn.layerNorm(X);
    tp.linalg.fwht(X);
  });
  assert.equal(tp.memory().tensors, before);
});

test('a NaN option is an error naming it, not the default; RoPE positions must be finite and 1-d; fakeQuant refuses NaN and Inf', () => {
  tp.tidy(() => {
    const x = tp.randn([3, 4], { seed: 1 });
    assert.throws(() => tp.nn.scaledDotProductAttention(x, x, x, { scale: NaN }), /^TensorpadError: nn\.scaledDotProductAttention: scale must be a number, got NaN/);
    assert.throws(() => tp.nn.layerNorm(x, { eps: NaN }), /nn\.layerNorm: eps must be a number, got NaN/);
    assert.throws(() => tp.nn.rmsNorm(x, { eps: NaN }), /nn\.rmsNorm: eps must be a number, got NaN/);
    const A = tp.randn([2, 4], { seed: 2 }), B = tp.randn([3, 2], { seed: 3 });
    assert.throws(() => tp.lora.merge(tp.zeros([3, 4]), A, B, { alpha: NaN }), /lora\.merge: alpha must be a number, got NaN/);
    assert.throws(() => tp.nn.applyRope(x, [0, NaN, 2]), /nn\.applyRope: positions must be finite, got NaN at index 1/);
    assert.throws(() => tp.nn.applyRope(x, [0, 1, Infinity]), /positions must be finite, got Infinity at index 2/);
    assert.throws(() => tp.nn.applyRope(x, tp.zeros([3, 1])), /positions must be an array of numbers or a 1-d tensor, got a tensor of shape \[3, 1\]/);
    assert.throws(() => tp.quant.fakeQuant(tp.tensor([NaN, 1, 2])), /quant\.fakeQuant: x has a non-finite value \(nan\) at flat index 0/i);
    assert.throws(() => tp.quant.fakeQuant(tp.tensor([1, Infinity])), /quant\.fakeQuant: x has a non-finite value \(inf\) at flat index 1/i);
    // Left out, the defaults hold.
    assert.ok(tp.allclose(tp.nn.scaledDotProductAttention(x, x, x), tp.nn.scaledDotProductAttention(x, x, x, { scale: 0.5 })));
  });
});
