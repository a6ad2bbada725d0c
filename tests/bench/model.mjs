// tp.model's prefill beside numpy's, single-threaded in Node: a Qwen3-0.6B-shaped random BF16 checkpoint
// is written on the fly (tests/fixtures/models/random-checkpoint.mjs; not committed), loaded with
// tp.model.load (time; the weights' bytes; the WebAssembly heap's size, which only grows, so after each
// step it is that step's peak), then the forward over 512 and 1024 tokens is timed: seconds, GFLOPS, the
// ratio to our own f32 GEMM's GFLOPS on the layer's largest product, and a numpy float32 forward of the same
// weights (OpenBLAS, 1 thread; the BLAS numpy really used is printed, and the forward asserts it stayed in
// float32: a float64 RoPE table once made numpy widen every weight, the 151936-row lm_head included, on
// each call, so its time hardly depended on the token count).
// numpy runs in one Python process that loads the weights once and then times each forward it is asked
// for, so ours and numpy's alternate (--trials N rounds; each round runs every length on both sides, ours
// first in even rounds, numpy first in odd ones) and a swing of the shared host's speed hits both sides
// alike instead of deciding the ratio: one trial each, run one after the other, gave numpy/ours from 0.38 to
// 1.17 under load. Printed per length: median seconds of each side and the median, min and max over the
// rounds of numpy/ours, in wall time and in CPU time (process.cpuUsage around our forward, Python's
// time.process_time around numpy's; a side's CPU time does not count the time it waited for a core).
//   node tests/bench/model.mjs [--quick] [--layers N] [--tokens 512,1024] [--trials N] [--json] [--profile]
//   --quick: 4 of the 28 layers, 128 and 256 tokens. --trials: rounds (default 3). --json: one JSON line at
//   the end (model-browser.mjs): ours[T].sec and numpy[T] are the medians; ours[T].secs / cpus, numpyTrials,
//   numpyCpu and numpyOverOurs[T] {wall, cpu: {median, min, max}} are the rounds.
//   --profile: each op's ms per layer from model.forward's profile, its GFLOPS, and its excess over
//   "its flops at our f32 GEMM's speed" (where the forward loses to the GEMM); numpy is skipped.
// Goals (issue 23): forward GFLOPS >= 0.75 of the f32 GEMM's; numpy time / ours >= 0.6; heap <= weights +
// 300 MB at 1024 tokens. (1 vs 2 threads in Chromium: model-browser.mjs.)
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { init } from '../../wasm/js/node.js';
import { python, env, pyBlasInfo, describeBlas } from './numpy.mjs';
import { writeRandomQwen3, qwen3Config } from '../fixtures/models/random-checkpoint.mjs';
import { benchArgs } from './args.mjs';
import { median } from './stats.mjs';

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
d = sys.argv[1]
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
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:  # one length per line: its forward's wall and CPU seconds; "info": the BLAS
    if line.strip() == "info":
        print(json.dumps({"blas": blas_info()}), flush=True)
        continue
    T = int(line)
    t0, c0 = time.perf_counter(), time.process_time()
    y = forward(np.arange(T) % V)
    out = {"sec": time.perf_counter() - t0, "cpu": time.process_time() - c0}
    assert y.dtype == np.float32
    print(json.dumps(out), flush=True)
`;

/** numpy's forward of the checkpoint in dir, in a Python process of its own that loads the weights once:
 *  `await np.forward(T)` is {sec, cpu} of one prefill of T tokens, `await np.blas()` describeBlas's record of
 *  the BLAS that process used, np.close() ends it. Resolves once Python has loaded and warmed up. */
export async function numpyForward(dir) {
  const child = spawn(python, ['-c', pyBlasInfo + PY, dir], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((_, rej) => child.once('exit', (code) => rej(new Error(`numpy's forward exited (${code})`))));
  exited.catch(() => {});
  const reply = async () => {
    const { value, done } = await Promise.race([lines.next(), exited]);
    if (done) throw new Error("numpy's forward closed its output");
    return JSON.parse(value);
  };
  await reply();  // {ready}
  let queue = Promise.resolve();
  const ask = (line) => (queue = queue.then(() => { child.stdin.write(`${line}\n`); return reply(); }));
  return {
    forward: (T) => ask(String(T)),
    blas: async () => describeBlas((await ask('info')).blas),
    close: () => { child.stdin.end(); },
  };
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
  const args = benchArgs('node tests/bench/model.mjs [--quick] [--layers N] [--tokens 512,1024] [--trials N] [--json] [--profile]', {
    quick: { type: 'boolean' }, layers: { type: 'string' }, tokens: { type: 'string' }, trials: { type: 'string', default: '3' },
    json: { type: 'boolean' }, profile: { type: 'boolean' },
  });
  const trials = Number(args.trials);
  if (!(Number.isInteger(trials) && trials >= 1)) throw new Error(`--trials must be a positive integer, got ${args.trials}`);
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

  const profiling = args.profile;
  // One forward of ours: wall and CPU seconds, the layers' times, the profile when asked.
  async function oursForward(T) {
    const ids = Array.from({ length: T }, (_, k) => k % cfg.vocab_size);
    const steps = [];
    t = performance.now();
    const c0 = process.cpuUsage();
    let last = t;
    const { logits, profile } = await model.forward(ids, { profile: profiling, onProgress: () => { const n = performance.now(); steps.push(n - last); last = n; } });
    const sec = (performance.now() - t) / 1000, c = process.cpuUsage(c0);
    logits.dispose();
    return { sec, cpu: (c.user + c.system) / 1e6, layerMs: steps.slice(1, -1), profile };
  }
  const ours = {};
  if (profiling) {
    for (const T of lengths) {
      const r = await oursForward(T);
      ours[T] = { sec: r.sec, gflops: prefillFlops(cfg, T) / r.sec / 1e9, gemm: gemmGflops(T), heap: heap(), layerMs: r.layerMs };
      printProfile(cfg, T, r.profile, ours[T]);
    }
    console.log(machine().replace('CPU', 'after: CPU'));
    model.dispose();
    return;
  }
  // Rounds: every length on both sides, the side that goes first alternating.
  const np = await numpyForward(dir);
  const runs = Object.fromEntries(lengths.map((T) => [T, { ours: [], numpy: [] }]));
  const maxHeap = {}, layerMs = {};
  for (let r = 0; r < trials; r++) {
    for (const T of lengths) {
      for (const side of r % 2 ? ['numpy', 'ours'] : ['ours', 'numpy']) {
        const got = side === 'ours' ? await oursForward(T) : await np.forward(T);
        runs[T][side].push(got);
        if (side === 'ours') {
          maxHeap[T] = Math.max(maxHeap[T] ?? 0, heap());
          layerMs[T] = got.layerMs;
        }
      }
      const o = runs[T].ours.at(-1), n = runs[T].numpy.at(-1);
      console.log(`  round ${r}, ${T} tokens: ours ${o.sec.toFixed(2)} s (CPU ${o.cpu.toFixed(2)}), numpy ${n.sec.toFixed(2)} s ` +
        `(CPU ${n.cpu.toFixed(2)}), numpy/ours ${(n.sec / o.sec).toFixed(2)} (load ${os.loadavg()[0].toFixed(1)})`);
    }
  }
  const blas = await np.blas();
  np.close();
  const spread = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
  const numpyTimes = {}, numpyTrials = {}, numpyCpu = {}, numpyOverOurs = {};
  for (const T of lengths) {
    const { ours: o, numpy: n } = runs[T];
    const sec = median(o.map((x) => x.sec));
    ours[T] = { sec, gflops: prefillFlops(cfg, T) / sec / 1e9, gemm: gemmGflops(T), heap: maxHeap[T], layerMs: layerMs[T],
      secs: o.map((x) => x.sec), cpus: o.map((x) => x.cpu) };
    numpyTimes[T] = median(n.map((x) => x.sec));
    numpyTrials[T] = n.map((x) => x.sec);
    numpyCpu[T] = n.map((x) => x.cpu);
    numpyOverOurs[T] = { wall: spread(n.map((x, i) => x.sec / o[i].sec)), cpu: spread(n.map((x, i) => x.cpu / o[i].cpu)) };
  }
  console.log(`numpy: ${blas.label}`);
  console.log(`medians of ${trials} round${trials === 1 ? '' : 's'}; numpy/ours: median [min-max] over the rounds, wall, then CPU time`);
  console.log('tokens | ours s | GFLOPS | f32 GEMM GFLOPS | ratio (goal >= 0.75) | numpy s | numpy/ours (goal >= 0.6) | CPU numpy/ours | heap MB (goal <= weights + 300)');
  const fmt = (x) => `${x.median.toFixed(2)} [${x.min.toFixed(2)}-${x.max.toFixed(2)}]`;
  for (const T of lengths) {
    const o = ours[T], n = numpyTimes[T];
    console.log(`${T} | ${o.sec.toFixed(2)} | ${o.gflops.toFixed(1)} | ${o.gemm.toFixed(1)} | ${(o.gflops / o.gemm).toFixed(2)} | ${n.toFixed(2)} | ` +
      `${fmt(numpyOverOurs[T].wall)}${blas.optimized ? '' : ' (numpy not on an optimized BLAS: not a goal ratio)'} | ${fmt(numpyOverOurs[T].cpu)} | ` +
      `${(o.heap / MB).toFixed(0)} (weights ${(weights / MB).toFixed(0)} + ${((o.heap - weights) / MB).toFixed(0)})`);
  }
  const T = lengths.at(-1);
  const ms = ours[T].layerMs;
  console.log(`a layer at ${T} tokens: ${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)} ms (the longest wait of an Interrupt)`);
  console.log(machine().replace('CPU', 'after: CPU'));
  if (args.json) console.log(JSON.stringify({ layers, lengths, loadS, weights, ours, numpy: numpyTimes, blas: blas.label, trials, numpyTrials, numpyCpu, numpyOverOurs }));
  model.dispose();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
