// tp.model's prefill beside numpy's, single-threaded in Node: a Qwen3-0.6B-shaped random BF16 checkpoint
// is written on the fly (tests/fixtures/models/random-checkpoint.mjs; not committed), loaded with
// tp.model.load (time; the weights' bytes; the WebAssembly heap's size, which only grows, so after each
// step it is that step's peak), then the forward over 512 and 1024 tokens is timed: seconds, GFLOPS, the
// ratio to our own f32 GEMM's GFLOPS on the layer's largest product, and a numpy float32 forward of the same
// weights (OpenBLAS, 1 thread; the BLAS numpy really used is printed, and the forward asserts it stayed in
// float32: a float64 RoPE table once made numpy widen every weight, the 151936-row lm_head included, on
// each call, so its time hardly depended on the token count).
//   node tests/bench/model.mjs [--quick] [--layers N] [--tokens 512,1024] [--json] [--profile]
//   --quick: 4 of the 28 layers, 128 and 256 tokens. --json: one JSON line at the end (model-browser.mjs).
//   --profile: each op's ms per layer from model.forward's profile, its GFLOPS, and its excess over
//   "its flops at our f32 GEMM's speed" (where the forward loses to the GEMM); numpy is skipped.
// Goals (issue 23): forward GFLOPS >= 0.75 of the f32 GEMM's; numpy time / ours >= 0.6; heap <= weights +
// 300 MB at 1024 tokens. (1 vs 2 threads in Chromium: model-browser.mjs.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { init } from '../../wasm/js/node.js';
import { python, env, pyBlasInfo, describeBlas } from './numpy.mjs';
import { writeRandomQwen3, qwen3Config } from '../fixtures/models/random-checkpoint.mjs';
import { benchArgs } from './args.mjs';

const MB = 2 ** 20;

/** Qwen3-0.6B's shape (its config.json), with `layers` of its 28. */
export const qwen3_06b = (layers = 28) => qwen3Config({
  vocab_size: 151936, hidden_size: 1024, intermediate_size: 3072, num_hidden_layers: layers,
  num_attention_heads: 16, num_key_value_heads: 8, head_dim: 128, rms_norm_eps: 1e-6, rope_theta: 1000000,
  tie_word_embeddings: true,
});

/** Flops of a prefill of T tokens: every layer's projections and MLP, attention (QKᵀ and PV over the causal
 *  half), and lm_head on the last row. */
export function prefillFlops(c, T) {
  const { hidden_size: h, intermediate_size: i, num_attention_heads: nh, num_key_value_heads: nk, head_dim: hd, num_hidden_layers: L, vocab_size: v } = c;
  const perLayer = 2 * T * h * (nh * hd + 2 * nk * hd) + 2 * T * nh * hd * h + 3 * 2 * T * h * i + 2 * 2 * nh * hd * (T * (T + 1)) / 2;
  return L * perLayer + 2 * h * v;
}

/** Writes the checkpoint into a fresh temporary folder (removed at exit); returns {dir, cfg, fileBytes, seconds}. */
export function checkpoint(layers) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-bench-model-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const cfg = qwen3_06b(layers);
  const t0 = performance.now();
  const fileBytes = writeRandomQwen3(dir, cfg);
  return { dir, cfg, fileBytes, seconds: (performance.now() - t0) / 1000 };
}

export const machine = () => `CPU: ${os.cpus()[0].model} (${os.cpus().length} CPUs), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`;

// numpy's forward of the same file: BF16 widened to float32 once (not timed), then each prefill timed.
// transformers computes inv_freq in float32 (modeling_rope_utils, 4.51): so does this, and every
// activation stays float32 (asserted).
const PY = `
import json, sys, time, struct
import numpy as np
d, lengths = sys.argv[1], [int(t) for t in sys.argv[2].split(",")]
c = json.load(open(d + "/config.json"))
L, V = c["num_hidden_layers"], c["vocab_size"]
nh, nk, hd = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
raw = open(d + "/model.safetensors", "rb").read()
n = struct.unpack("<Q", raw[:8])[0]
hdr = json.loads(raw[8:8+n])
def w(name):
    e = hdr[name]; b, t = e["data_offsets"]
    u = np.frombuffer(raw, dtype="<u2", count=(t-b)//2, offset=8+n+b).astype(np.uint32) << 16
    return u.view(np.float32).reshape(e["shape"])
W = {k: w(k) for k in hdr}
del raw
eps = np.float32(c["rms_norm_eps"])
inv = (1.0 / (c["rope_theta"] ** (np.arange(0, hd, 2, dtype=np.int64).astype(np.float32) / hd))).astype(np.float32)
def rms(x, g): return (x / np.sqrt((x * x).mean(-1, keepdims=True) + eps)) * g
def rope(x, cos, sin):
    a, b = x[..., :hd//2], x[..., hd//2:]
    return np.concatenate([a * cos - b * sin, b * cos + a * sin], -1)
def forward(ids):
    T = len(ids)
    x = W["model.embed_tokens.weight"][ids]
    ang = np.arange(T, dtype=np.float32)[:, None] * inv[None, :]
    cos, sin = np.cos(ang), np.sin(ang)
    mask = np.triu(np.full((T, T), -np.inf, dtype=np.float32), 1)
    scale = np.float32(1 / np.sqrt(hd))
    for i in range(L):
        p = f"model.layers.{i}."
        h = rms(x, W[p + "input_layernorm.weight"])
        q = (h @ W[p + "self_attn.q_proj.weight"].T).reshape(T, nh, hd)
        k = (h @ W[p + "self_attn.k_proj.weight"].T).reshape(T, nk, hd)
        v = (h @ W[p + "self_attn.v_proj.weight"].T).reshape(T, nk, hd)
        q = rope(rms(q, W[p + "self_attn.q_norm.weight"]).transpose(1, 0, 2), cos, sin)
        k = rope(rms(k, W[p + "self_attn.k_norm.weight"]).transpose(1, 0, 2), cos, sin)
        v = v.transpose(1, 0, 2)
        k = np.repeat(k, nh // nk, 0); v = np.repeat(v, nh // nk, 0)
        s = q @ k.transpose(0, 2, 1) * scale + mask
        s = np.exp(s - s.max(-1, keepdims=True)); s /= s.sum(-1, keepdims=True)
        o = (s @ v).transpose(1, 0, 2).reshape(T, nh * hd)
        x = x + o @ W[p + "self_attn.o_proj.weight"].T
        m = rms(x, W[p + "post_attention_layernorm.weight"])
        g = m @ W[p + "mlp.gate_proj.weight"].T
        x = x + ((g / (1 + np.exp(-g))) * (m @ W[p + "mlp.up_proj.weight"].T)) @ W[p + "mlp.down_proj.weight"].T
        assert x.dtype == np.float32 and s.dtype == np.float32, (x.dtype, s.dtype)
    return rms(x[-1:], W["model.norm.weight"]) @ W["model.embed_tokens.weight"].T
forward(np.arange(8) % V)  # warm-up: first touches of the weights
out = {}
for T in lengths:
    t0 = time.perf_counter(); y = forward(np.arange(T) % V); out[T] = time.perf_counter() - t0
    assert y.dtype == np.float32
print(json.dumps({"times": out, "blas": blas_info()}))
`;

/** numpy's prefill times {T: seconds} and its BLAS, on the checkpoint in dir. */
export function numpyForward(dir, lengths) {
  const out = JSON.parse(execFileSync(python, ['-c', pyBlasInfo + PY, dir, lengths.join(',')], { env, maxBuffer: 1 << 24 }));
  return { times: out.times, blas: describeBlas(out.blas) };
}

/** Flops of each profiled op of one layer (lm_head: per forward, its last row). */
export function opFlops(c, T) {
  const { hidden_size: h, intermediate_size: i, num_attention_heads: nh, num_key_value_heads: nk, head_dim: hd, vocab_size: v } = c;
  return {
    qkv_proj: 2 * T * h * (nh * hd + 2 * nk * hd), o_proj: 2 * T * nh * hd * h, gate_up_proj: 2 * 2 * T * h * i,
    down_proj: 2 * T * i * h, attention: 2 * 2 * nh * hd * (T * (T + 1)) / 2, lm_head: 2 * h * v,
  };
}

// The forward's profile at T tokens: ms per layer of each op, GFLOPS where it has flops, and the ms beyond
// its flops at the f32 GEMM's GFLOPS (for ops without flops, all of it).
function printProfile(c, T, profile, o) {
  const L = c.num_hidden_layers, flops = opFlops(c, T);
  const perForward = ['embed', 'final_norm', 'lm_head'];
  const total = profile.reduce((s, p) => s + p.ms, 0);
  console.log(`\nprofile at ${T} tokens: ${(total / 1000).toFixed(2)} s in the core (${(o.sec).toFixed(2)} s wall), f32 GEMM ${o.gemm.toFixed(1)} GFLOPS`);
  console.log('op           | ms/layer | GFLOPS | % of time | ms beyond GEMM speed /layer');
  let excess = 0;
  for (const p of profile) {
    const n = perForward.includes(p.op) ? 1 : L;
    const f = flops[p.op] ?? 0;
    const over = p.ms - (f * n) / (o.gemm * 1e6);
    excess += over;
    console.log(`${p.op.padEnd(12)} | ${(p.ms / n).toFixed(1).padStart(8)} | ${f ? ((f * n) / (p.ms * 1e6)).toFixed(1).padStart(6) : '      '} | ` +
      `${((100 * p.ms) / total).toFixed(1).padStart(9)} | ${(over / n).toFixed(1).padStart(6)}`);
  }
  console.log(`beyond "GEMM flops at GEMM speed": ${(excess / 1000).toFixed(2)} s of ${(total / 1000).toFixed(2)} (${((100 * excess) / total).toFixed(1)}%)`);
}

// The WebAssembly memory of the core this process instantiates (its size is the heap's high-water mark).
let wasmMemory = null;
function watchMemory() {
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => {
    const r = await instantiate(...args);
    const exports = (r.instance ?? r).exports;
    wasmMemory = Object.values(exports).find((e) => e instanceof WebAssembly.Memory) ?? wasmMemory;
    return r;
  };
}

async function main() {
  const args = benchArgs('node tests/bench/model.mjs [--quick] [--layers N] [--tokens 512,1024] [--json] [--profile]', {
    quick: { type: 'boolean' }, layers: { type: 'string' }, tokens: { type: 'string' }, json: { type: 'boolean' }, profile: { type: 'boolean' },
  });
  const layers = Number(args.layers ?? (args.quick ? 4 : 28));
  const lengths = (args.tokens ?? (args.quick ? '128,256' : '512,1024')).split(',').map(Number);
  const { dir, cfg, fileBytes, seconds } = checkpoint(layers);
  console.log(`checkpoint: Qwen3-0.6B shape, ${layers} of 28 layers, BF16, ${(fileBytes / MB).toFixed(0)} MB (written in ${seconds.toFixed(1)} s)`);
  console.log(machine());

  watchMemory();
  const tp = await init();
  const heap = () => wasmMemory.buffer.byteLength;
  const heap0 = heap();
  let t = performance.now();
  const model = await tp.model.load(dir);
  const loadS = (performance.now() - t) / 1000;
  const weights = model.bytes;
  console.log(`load: ${loadS.toFixed(2)} s (${(fileBytes / MB / loadS).toFixed(0)} MB/s), weights ${(weights / MB).toFixed(0)} MB in the heap; ` +
    `heap ${(heap() / MB).toFixed(0)} MB (${(heap0 / MB).toFixed(0)} MB before)`);

  // Our f32 GEMM on the forward's typical product ([T, hidden] x [hidden, intermediate]).
  function gemmGflops(T) {
    const a = tp.randn([T, cfg.hidden_size]), b = tp.randn([cfg.hidden_size, cfg.intermediate_size]);
    tp.matmul(a, b).dispose();
    const s = performance.now();
    const reps = 3;
    for (let r = 0; r < reps; r++) tp.matmul(a, b).dispose();
    const sec = (performance.now() - s) / 1000 / reps;
    tp.dispose(a, b);
    return (2 * T * cfg.hidden_size * cfg.intermediate_size) / sec / 1e9;
  }

  // The same 8-token warm-up as the numpy side gets, so neither side's measured forwards pay first touches
  // (and ours V8's tier-up of the wasm functions); its time is printed apart: a reader pays it once per page.
  t = performance.now();
  (await model.forward(Array.from({ length: 8 }, (_, k) => k % cfg.vocab_size))).logits.dispose();
  console.log(`first forward (8 tokens, warm-up as numpy's): ${((performance.now() - t) / 1000).toFixed(2)} s`);

  const ours = {};
  const profiling = args.profile;
  for (const T of lengths) {
    const ids = Array.from({ length: T }, (_, k) => k % cfg.vocab_size);
    const steps = [];
    t = performance.now();
    let last = t;
    const { logits, profile } = await model.forward(ids, { profile: profiling, onProgress: () => { const n = performance.now(); steps.push(n - last); last = n; } });
    const sec = (performance.now() - t) / 1000;
    logits.dispose();
    ours[T] = { sec, gflops: prefillFlops(cfg, T) / sec / 1e9, gemm: gemmGflops(T), heap: heap(), layerMs: steps.slice(1, -1) };
    if (profiling) printProfile(cfg, T, profile, ours[T]);
  }
  if (profiling) {
    console.log(machine().replace('CPU', 'after: CPU'));
    model.dispose();
    return;
  }
  const np = numpyForward(dir, lengths);
  console.log(`numpy: ${np.blas.label}`);
  console.log('tokens | ours s | GFLOPS | f32 GEMM GFLOPS | ratio (goal >= 0.75) | numpy s | numpy/ours (goal >= 0.6) | heap MB (goal <= weights + 300)');
  for (const T of lengths) {
    const o = ours[T], n = np.times[T];
    console.log(`${T} | ${o.sec.toFixed(2)} | ${o.gflops.toFixed(1)} | ${o.gemm.toFixed(1)} | ${(o.gflops / o.gemm).toFixed(2)} | ${n.toFixed(2)} | ` +
      `${(n / o.sec).toFixed(2)}${np.blas.optimized ? '' : ' (numpy not on an optimized BLAS: not a goal ratio)'} | ` +
      `${(o.heap / MB).toFixed(0)} (weights ${(weights / MB).toFixed(0)} + ${((o.heap - weights) / MB).toFixed(0)})`);
  }
  const T = lengths.at(-1);
  const ms = ours[T].layerMs;
  console.log(`a layer at ${T} tokens: ${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)} ms (the longest wait of an Interrupt)`);
  console.log(machine().replace('CPU', 'after: CPU'));
  if (args.json) console.log(JSON.stringify({ layers, lengths, loadS, weights, ours, numpy: np.times, blas: np.blas.label }));
  model.dispose();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
