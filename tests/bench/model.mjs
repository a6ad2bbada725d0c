// tp.model's prefill beside numpy's: a Qwen3-0.6B-shaped random BF16 checkpoint is written on the fly (not
// committed; --quick keeps 4 of the 28 layers), loaded with tp.model.load (time, heap bytes held), then
// the forward over 512 and 1024 tokens (--quick: 128 and 256) is timed single-threaded in Node, as GFLOPS
// and as a ratio to our own f32 GEMM's GFLOPS on the layer's largest product, and beside a numpy float32
// forward of the same weights (OpenBLAS, 1 thread; the BLAS numpy really used is printed).
// Goals (issue 23): forward GFLOPS >= 0.75 of the f32 GEMM's; numpy time / ours >= 0.6.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { init } from '../../wasm/js/node.js';
import { python, env, pyBlasInfo, describeBlas } from './numpy.mjs';

const quick = process.argv.includes('--quick');
const cfg = {
  architectures: ['Qwen3ForCausalLM'], vocab_size: 151936, hidden_size: 1024, intermediate_size: 3072,
  num_hidden_layers: quick ? 4 : 28, num_attention_heads: 16, num_key_value_heads: 8, head_dim: 128,
  rms_norm_eps: 1e-6, rope_theta: 1000000, tie_word_embeddings: true, hidden_act: 'silu', max_position_embeddings: 40960,
};
const lengths = quick ? [128, 256] : [512, 1024];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-bench-model-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(cfg));

// The checkpoint and the numpy forward share one script: write (mode "write") or time (mode "forward").
const PY = `
import json, sys, time, struct
import numpy as np
d, mode = sys.argv[1], sys.argv[2]
c = json.load(open(d + "/config.json"))
H, I, L, V = c["hidden_size"], c["intermediate_size"], c["num_hidden_layers"], c["vocab_size"]
nh, nk, hd = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
def shapes():
    yield "model.embed_tokens.weight", (V, H)
    for i in range(L):
        p = f"model.layers.{i}."
        for n, s in [("input_layernorm.weight", (H,)), ("self_attn.q_proj.weight", (nh*hd, H)), ("self_attn.k_proj.weight", (nk*hd, H)),
                     ("self_attn.v_proj.weight", (nk*hd, H)), ("self_attn.q_norm.weight", (hd,)), ("self_attn.k_norm.weight", (hd,)),
                     ("self_attn.o_proj.weight", (H, nh*hd)), ("post_attention_layernorm.weight", (H,)),
                     ("mlp.gate_proj.weight", (I, H)), ("mlp.up_proj.weight", (I, H)), ("mlp.down_proj.weight", (H, I))]:
            yield p + n, s
    yield "model.norm.weight", (H,)
if mode == "write":
    rng = np.random.default_rng(0)
    header, off = {}, 0
    for n, s in shapes():
        nbytes = int(np.prod(s)) * 2
        header[n] = {"dtype": "BF16", "shape": list(s), "data_offsets": [off, off + nbytes]}
        off += nbytes
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    with open(d + "/model.safetensors", "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for n, s in shapes():
            a = (rng.standard_normal(s, dtype=np.float32) * (1.0 if "norm" in n else 0.02))
            if "norm" in n: a = 1 + 0.1 * a
            f.write((a.view(np.uint32) >> 16).astype("<u2").tobytes())
    sys.exit(0)
# forward: widen the BF16 weights once to float32, then time a prefill of T tokens (logits of the last).
raw = open(d + "/model.safetensors", "rb").read()
n = struct.unpack("<Q", raw[:8])[0]
hdr = json.loads(raw[8:8+n])
def w(name):
    e = hdr[name]; b, t = e["data_offsets"]
    u = np.frombuffer(raw, dtype="<u2", count=(t-b)//2, offset=8+n+b).astype(np.uint32) << 16
    return u.view(np.float32).reshape(e["shape"])
W = {k: w(k) for k in hdr}
eps = c["rms_norm_eps"]
inv = 1.0 / (c["rope_theta"] ** (np.arange(0, hd, 2, dtype=np.float32) / hd))
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
        s = q @ k.transpose(0, 2, 1) / np.sqrt(hd) + mask
        s = np.exp(s - s.max(-1, keepdims=True)); s /= s.sum(-1, keepdims=True)
        o = (s @ v).transpose(1, 0, 2).reshape(T, nh * hd)
        x = x + o @ W[p + "self_attn.o_proj.weight"].T
        m = rms(x, W[p + "post_attention_layernorm.weight"])
        g = m @ W[p + "mlp.gate_proj.weight"].T
        x = x + ((g / (1 + np.exp(-g))) * (m @ W[p + "mlp.up_proj.weight"].T)) @ W[p + "mlp.down_proj.weight"].T
    return rms(x[-1:], W["model.norm.weight"]) @ W["model.embed_tokens.weight"].T
out = {}
for T in map(int, sys.argv[3].split(",")):
    ids = np.arange(T) % V
    t0 = time.perf_counter(); forward(ids); out[T] = time.perf_counter() - t0
print(json.dumps({"times": out, "blas": blas_info()}))
`;

const t0 = performance.now();
execFileSync(python, ['-c', pyBlasInfo + PY, dir, 'write'], { env, stdio: 'inherit' });
const fileBytes = fs.statSync(path.join(dir, 'model.safetensors')).size;
console.log(`checkpoint: Qwen3-0.6B shape, ${cfg.num_hidden_layers} layers, BF16, ${(fileBytes / 2 ** 20).toFixed(0)} MB ` +
  `(written in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
console.log(`CPU: ${os.cpus()[0].model}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);

const tp = await init();
let t = performance.now();
const model = await tp.model.load(dir);
const loadS = (performance.now() - t) / 1000;
console.log(`load: ${loadS.toFixed(2)} s, weights ${(model.bytes / 2 ** 20).toFixed(0)} MB in the heap (file ${(fileBytes / 2 ** 20).toFixed(0)} MB)`);

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
// Flops of a prefill: the projections and MLP of every layer, attention (QKᵀ and PV, causal half), lm_head on one row.
function flops(T) {
  const { hidden_size: h, intermediate_size: i, num_attention_heads: nh, num_key_value_heads: nk, head_dim: hd, num_hidden_layers: L, vocab_size: v } = cfg;
  const perLayer = 2 * T * h * (nh * hd + 2 * nk * hd) + 2 * T * nh * hd * h + 3 * 2 * T * h * i + 2 * 2 * nh * hd * (T * (T + 1)) / 2;
  return L * perLayer + 2 * h * v;
}

const py = JSON.parse(execFileSync(python, ['-c', pyBlasInfo + PY, dir, 'forward', lengths.join(',')], { env, maxBuffer: 1 << 24 }));
const blas = describeBlas(py.blas);
console.log(`numpy: ${blas.label}`);
console.log('tokens | ours s | GFLOPS | f32 GEMM GFLOPS | ratio (goal >= 0.75) | numpy s | numpy/ours (goal >= 0.6)');
for (const T of lengths) {
  const ids = Array.from({ length: T }, (_, k) => k % cfg.vocab_size);
  t = performance.now();
  const { logits } = await model.forward(ids);
  const sec = (performance.now() - t) / 1000;
  logits.dispose();
  const g = flops(T) / sec / 1e9, ref = gemmGflops(T), np = py.times[T];
  console.log(`${T} | ${sec.toFixed(2)} | ${g.toFixed(1)} | ${ref.toFixed(1)} | ${(g / ref).toFixed(2)} | ${np.toFixed(2)} | ${(np / sec).toFixed(2)}${blas.optimized ? '' : ' (numpy not on an optimized BLAS: not a goal ratio)'}`);
}
console.log(`heap held after the forwards: ${(tp.memory().bytes / 2 ** 20).toFixed(0)} MB (weights ${(model.bytes / 2 ** 20).toFixed(0)} MB)`);
model.dispose();
