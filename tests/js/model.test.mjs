// tp.model in Node: tiny random checkpoints written here (Qwen3, Qwen2, Llama; F32/BF16; single file and
// sharded; tied and untied; GQA) are loaded from a folder and checked by invariants that do not depend on
// our own forward being right in the same way twice: a sharded checkpoint equals its single file, BF16
// weights equal F32 weights holding the BF16 values, greedy generation over the KV cache equals the argmax
// of full forwards, captures have the documented shapes, attention rows are causal distributions. Every
// malformed folder is refused with its own message and leaves tp.memory() where it was. The comparison
// with the numpy reference forward (tests/fixtures/models) is in model-fixtures.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { init } from '../../wasm/js/node.js';

const tp = await init();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-model-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

const dims = { vocab: 40, hidden: 16, inter: 24, layers: 2, headDim: 8 };

// Seeded uniform values in [-s, s) (a small LCG: the test needs values, not quality).
function values(n, seed, s = 0.5, center = 0) {
  const out = new Float32Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = center + s * (2 * (x / 2 ** 32) - 1);
  }
  return out;
}

function configOf({ arch = 'Qwen3ForCausalLM', heads = 4, kv = 2, tied = false, extra = {} } = {}) {
  return {
    architectures: [arch], vocab_size: dims.vocab, hidden_size: dims.hidden, intermediate_size: dims.inter,
    num_hidden_layers: dims.layers, num_attention_heads: heads, num_key_value_heads: kv,
    ...(arch === 'Qwen2ForCausalLM' ? {} : { head_dim: dims.headDim }), rms_norm_eps: 1e-6,
    rope_theta: 10000, tie_word_embeddings: tied, eos_token_id: 1, hidden_act: 'silu', ...extra,
  };
}

// The tensors of a config: {name: shape}, as transformers' modeling files name them.
function shapesOf(c) {
  const hd = c.head_dim ?? c.hidden_size / c.num_attention_heads;
  const q = c.num_attention_heads * hd, kv = c.num_key_value_heads * hd, h = c.hidden_size, i = c.intermediate_size;
  const s = { 'model.embed_tokens.weight': [c.vocab_size, h] };
  for (let l = 0; l < c.num_hidden_layers; l++) {
    const p = `model.layers.${l}.`;
    Object.assign(s, {
      [`${p}input_layernorm.weight`]: [h], [`${p}self_attn.q_proj.weight`]: [q, h],
      [`${p}self_attn.k_proj.weight`]: [kv, h], [`${p}self_attn.v_proj.weight`]: [kv, h],
      [`${p}self_attn.o_proj.weight`]: [h, q], [`${p}post_attention_layernorm.weight`]: [h],
      [`${p}mlp.gate_proj.weight`]: [i, h], [`${p}mlp.up_proj.weight`]: [i, h], [`${p}mlp.down_proj.weight`]: [h, i],
    });
    if (c.architectures[0] === 'Qwen2ForCausalLM') {
      Object.assign(s, { [`${p}self_attn.q_proj.bias`]: [q], [`${p}self_attn.k_proj.bias`]: [kv], [`${p}self_attn.v_proj.bias`]: [kv] });
    }
    if (c.architectures[0] === 'Qwen3ForCausalLM') {
      Object.assign(s, { [`${p}self_attn.q_norm.weight`]: [hd], [`${p}self_attn.k_norm.weight`]: [hd] });
    }
  }
  s['model.norm.weight'] = [h];
  if (!c.tie_word_embeddings) s['lm_head.weight'] = [c.vocab_size, h];
  return s;
}

// Writes a checkpoint folder; returns its path. shards > 1 splits the tensors over files named by an index.
// edit(tensors, config) may change either before writing (the malformed cases).
function writeModel(name, { seed = 1, dtype = 'F32', shards = 1, tokenizer = false, edit, ...cfg } = {}) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  const config = configOf(cfg);
  const tensors = {};
  let k = seed;
  for (const [n, shape] of Object.entries(shapesOf(config))) {
    const numel = shape.reduce((a, b) => a * b, 1);
    const norm = n.includes('norm');
    const v = values(numel, k++ * 7919, norm ? 0.2 : 0.5, norm ? 1 : 0);
    tensors[n] = tp.tidy(() => tp.tensor(v).reshape(shape));
  }
  edit?.(tensors, config);
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  const names = Object.keys(tensors);
  if (shards === 1) {
    fs.writeFileSync(path.join(dir, 'model.safetensors'), tp.io.saveSafetensors(tensors, { dtype }));
  } else {
    const map = {};
    for (let s = 0; s < shards; s++) {
      const file = `model-0000${s + 1}-of-0000${shards}.safetensors`;
      const part = Object.fromEntries(names.filter((_, i) => i % shards === s).map((n) => [n, tensors[n]]));
      for (const n of Object.keys(part)) map[n] = file;
      fs.writeFileSync(path.join(dir, file), tp.io.saveSafetensors(part, { dtype }));
    }
    fs.writeFileSync(path.join(dir, 'model.safetensors.index.json'), JSON.stringify({ metadata: {}, weight_map: map }));
  }
  if (tokenizer) fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizer()));
  tp.dispose(tensors);
  return dir;
}

// A byte-level BPE tokenizer.json over the letters a-z and 'Ġ' (a space) with a few merges: 40 ids.
function tinyTokenizer() {
  const vocab = {};
  const add = (t) => { vocab[t] = Object.keys(vocab).length; };
  ['<s>', '</s>'].forEach(add);
  for (let c = 97; c <= 122; c++) add(String.fromCharCode(c));
  add('Ġ');
  const merges = ['h e', 'l l', 'o Ġ', 'Ġ w', 'he ll', 't h', 'th e', 'a n', 'Ġw o', 'r l', 'i n'];
  for (const m of merges) add(m.replace(' ', ''));
  return {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [{ id: 0, content: '<s>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      { id: 1, content: '</s>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null,
      fuse_unk: false, byte_fallback: false, vocab, merges },
  };
}

const close = (a, b, atol, rtol) => {
  assert.deepEqual(a.shape, b.shape);
  const x = a.toArray().flat(Infinity), y = b.toArray().flat(Infinity);
  for (let i = 0; i < x.length; i++) {
    assert.ok(Math.abs(x[i] - y[i]) <= atol + rtol * Math.abs(y[i]), `element ${i}: ${x[i]} vs ${y[i]}`);
  }
};
const argmax = (arr) => arr.reduce((b, v, i) => (v > arr[b] ? i : b), 0);
const ids = [3, 14, 15, 9, 26, 5, 35];

test('tp.model.load reads a Qwen3 folder, forward gives the documented captures, and dispose frees everything', async () => {
  const dir = writeModel('qwen3');
  const before = tp.memory();
  const progress = [];
  const model = await tp.model.load(dir, { onProgress: (p) => progress.push(p) });
  assert.equal(model.config.architecture, 'Qwen3ForCausalLM');
  assert.equal(model.config.numLayers, 2);
  assert.equal(model.config.headDim, 8);
  assert.equal(model.config.raw.vocab_size, dims.vocab);
  const last = progress.at(-1);
  assert.equal(last.tensors, last.totalTensors);
  assert.equal(last.bytes, last.totalBytes);
  assert.ok(tp.memory().models === 1 && tp.memory().bytes > before.bytes);

  const steps = [];
  const { logits, captures } = await model.forward(ids, {
    capture: ['embed', 'layers.*.input', 'layers.1.attn.*', 'layers.0.mlp.**', 'norm'], onProgress: (p) => steps.push(p.step),
  });
  assert.deepEqual(steps, [1, 2, 3, 4]);
  assert.deepEqual(logits.shape, [dims.vocab]);
  const T = ids.length;
  const shapes = Object.fromEntries(Object.entries(captures).map(([k, v]) => [k, v.shape]));
  assert.deepEqual(shapes, {
    embed: [T, 16], 'layers.0.input': [T, 16], 'layers.0.mlp.input': [T, 16], 'layers.0.mlp.act': [T, 24],
    'layers.1.input': [T, 16], 'layers.1.attn.q': [4, T, 8], 'layers.1.attn.k': [2, T, 8], 'layers.1.attn.v': [2, T, 8],
    'layers.1.attn.weights': [4, T, T], norm: [T, 16],
  });
  // The embedding is the rows of embed_tokens; attention rows are causal distributions.
  const embedTokens = model.weight('model.embed_tokens.weight');
  const E = embedTokens.toArray();
  embedTokens.dispose();
  const rows = tp.tensor(ids.map((i) => E[i]));
  close(captures.embed, rows, 0, 0);
  const W = captures['layers.1.attn.weights'].toArray();
  for (const head of W) head.forEach((row, i) => {
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
    row.forEach((p, j) => { if (j > i) assert.equal(p, 0); });
  });
  // The logits are the last row of 'all', and 'all' is norm · lm_headᵀ.
  const all = (await model.forward(ids, { logits: 'all' })).logits;
  assert.deepEqual(all.shape, [T, dims.vocab]);
  tp.tidy(() => {
    close(logits, tp.tensor(all.toArray()[T - 1]), 1e-6, 1e-6);
    close(all, tp.matmul(captures.norm, model.weight('lm_head.weight').transpose(0, 1)), 1e-5, 1e-4);
  });
  assert.equal((await model.forward(ids, { logits: false })).logits, null);
  tp.dispose(all, logits, captures, rows);
  model.dispose();
  assert.deepEqual(tp.memory(), before);
  await assert.rejects(model.forward(ids), /model\.forward: this model was disposed/);
});

test('a sharded checkpoint gives the single file\'s logits, and BF16 weights those of F32 weights holding the BF16 values', async () => {
  for (const arch of ['Qwen3ForCausalLM', 'Qwen2ForCausalLM', 'LlamaForCausalLM']) {
    const single = await tp.model.load(writeModel(`single-${arch}`, { arch, seed: 3 }));
    const sharded = await tp.model.load(writeModel(`sharded-${arch}`, { arch, seed: 3, shards: 3 }));
    const a = (await single.forward(ids, { logits: 'all' })).logits, b = (await sharded.forward(ids, { logits: 'all' })).logits;
    close(a, b, 0, 0);
    const bf = await tp.model.load(writeModel(`bf16-${arch}`, { arch, seed: 3, dtype: 'BF16' }));
    assert.ok(bf.weights.every((w) => w.dtype === 'BF16'));
    assert.ok(bf.bytes < single.bytes * 0.6, `BF16 weights stay BF16 in the heap (${bf.bytes} vs ${single.bytes} bytes)`);
    // An F32 checkpoint of the BF16 values: write it from bf's weights.
    const dir = writeModel(`bf16-as-f32-${arch}`, {
      arch, seed: 3, edit: (t) => { for (const n of Object.keys(t)) { t[n].dispose(); t[n] = bf.weight(n).float(); } },
    });
    const f32 = await tp.model.load(dir);
    close((await bf.forward(ids, { logits: 'all' })).logits, (await f32.forward(ids, { logits: 'all' })).logits, 1e-6, 1e-5);
    tp.dispose(a, b);
    for (const m of [single, sharded, bf, f32]) m.dispose();
  }
});

test('model.weight(name) is the stored weight in its file dtype, a handle on the model\'s own storage (no copy)', async () => {
  const bf = await tp.model.load(writeModel('weight-bf16', { seed: 5, dtype: 'BF16', tied: true }));
  const f32 = await tp.model.load(writeModel('weight-f32', { seed: 5 }));
  const before = tp.memory();
  const w = bf.weight('model.layers.1.mlp.gate_proj.weight');
  assert.equal(w.dtype, 'bfloat16');
  assert.deepEqual(w.shape, [dims.inter, dims.hidden]);
  assert.equal(tp.memory().bytes, before.bytes, 'no bytes were copied');
  assert.equal(tp.memory().tensors, before.tensors + 1, 'one more handle');
  // The values are the file's: the F32 checkpoint of the same seed rounded to bfloat16.
  const ref = f32.weight('model.layers.1.mlp.gate_proj.weight');
  assert.equal(ref.dtype, 'float32');
  close(w.float(), ref.to('bfloat16').float(), 0, 0);
  // A tied model's lm_head is embed_tokens; disposing a weight's handle leaves the model whole.
  const head = bf.weight('lm_head.weight');
  assert.deepEqual(head.shape, [dims.vocab, dims.hidden]);
  close(head.float(), bf.weight('model.embed_tokens.weight').float(), 0, 0);
  const logits = (await bf.forward(ids)).logits.toArray();
  tp.dispose(w, ref, head);
  assert.deepEqual((await bf.forward(ids)).logits.toArray(), logits);
  assert.throws(() => bf.weight('model.layers.9.mlp.gate_proj.weight'), /model\.weight: no weight named 'model\.layers\.9\.mlp\.gate_proj\.weight'/);
  bf.dispose();
  f32.dispose();
});

test('generate is greedy over a KV cache: each new id is the argmax of a full forward, and it stops at eos', async () => {
  const model = await tp.model.load(writeModel('llama-tied', { arch: 'LlamaForCausalLM', tied: true, kv: 1, seed: 9 }));
  const before = tp.memory();
  const prompt = [5, 6, 7];
  const { ids: got, text } = await model.generate(prompt, { maxNewTokens: 6 });
  assert.equal(text, null);  // no tokenizer.json
  const seq = [...prompt];
  for (let n = 0; n < got.length; n++) {
    const { logits } = await model.forward(seq);
    seq.push(argmax(logits.toArray()));
    logits.dispose();
    if (seq.at(-1) === 1) break;  // eos_token_id
  }
  assert.deepEqual(got, seq.slice(prompt.length));
  assert.deepEqual(tp.memory(), before);
  await assert.rejects(model.generate(prompt, { greedy: false }), /model\.generate: only greedy decoding/);
  model.dispose();
});

test('a tokenizer.json in the folder encodes and decodes text; without one, encode says so and ids still work', async () => {
  const model = await tp.model.load(writeModel('with-tok', { tokenizer: true }));
  const enc = model.tokenizer.encode('hello world');
  assert.ok(enc.length > 0 && enc.every((i) => Number.isInteger(i) && i < dims.vocab));
  assert.equal(model.tokenizer.decode(enc), 'hello world');
  const a = (await model.forward('hello world')).logits, b = (await model.forward(enc)).logits;
  close(a, b, 0, 0);
  const g = await model.generate('hello', { maxNewTokens: 2 });
  assert.equal(typeof g.text, 'string');
  tp.dispose(a, b);
  model.dispose();
  const bare = await tp.model.load(writeModel('no-tok'));
  assert.throws(() => bare.tokenizer.encode('hi'), /model\.tokenizer: this model has no tokenizer \(tokenizer\.json was not in the folder\)/);
  await assert.rejects(bare.forward('hi'), /model\.forward: text needs a tokenizer/);
  bare.dispose();
});

test('an aborted signal stops a forward between layers, frees what it made, and the model stays usable', async () => {
  const model = await tp.model.load(writeModel('abort'));
  const before = tp.memory();
  const ac = new AbortController();
  await assert.rejects(
    model.forward(ids, { capture: '**', onProgress: (p) => { if (p.step === 2) ac.abort(); }, signal: ac.signal }),
    /model\.forward: interrupted/);
  assert.deepEqual(tp.memory(), before);
  const { logits } = await model.forward(ids);
  assert.deepEqual(logits.shape, [dims.vocab]);
  logits.dispose();
  model.dispose();
});

test('inside a notebook cell (globalThis.__tensorpadCell) forward and generate report progress to the cell, and its Interrupt stops a forward between layers', async () => {
  const model = await tp.model.load(writeModel('cell'));
  const reports = [];
  class Interrupted extends Error { name = 'Interrupted'; }
  let stopAfter = Infinity;
  globalThis.__tensorpadCell = () => ({
    check: () => { if (reports.filter((p) => p.op === 'model.forward').length > stopAfter) throw new Interrupted(); },
    progress: (p) => reports.push(p),
  });
  try {
    const full = await model.forward(ids);
    full.logits.dispose();
    const fwd = reports.filter((p) => p.op === 'model.forward');
    assert.deepEqual(fwd.map((p) => [p.value, p.max, p.layer, p.layers, p.tokens]),
      [[0, 4, 0, 2, ids.length], [1, 4, 0, 2, ids.length], [2, 4, 1, 2, ids.length], [3, 4, 2, 2, ids.length], [4, 4, 2, 2, ids.length]]);
    assert.ok(fwd.every((p) => p.ms >= 0));

    reports.length = 0;
    const before = tp.memory();
    stopAfter = 2;  // the cell's check throws after the embedding and the first layer
    await assert.rejects(model.forward(ids, { capture: '**' }), (e) => e instanceof Interrupted);
    assert.equal(reports.at(-1).layer, 1, 'stopped after layer 1 of 2');
    assert.deepEqual(tp.memory(), before, 'the interrupted forward freed what it made');
    stopAfter = Infinity;

    reports.length = 0;
    const { ids: out } = await model.generate(ids, { maxNewTokens: 3 });
    const gen = reports.filter((p) => p.op === 'model.generate');
    assert.ok(gen.some((p) => p.value === 0 && p.layers === 2 && p.tokens === ids.length), 'the prompt\'s layers');
    assert.deepEqual(gen.at(-1), { op: 'model.generate', value: out.length, max: 3, tokens: ids.length, ms: 0 });
  } finally {
    delete globalThis.__tensorpadCell;
  }
  // Outside a cell nothing is reported or checked.
  reports.length = 0;
  (await model.forward(ids)).logits.dispose();
  assert.equal(reports.length, 0);
  model.dispose();
});

test('malformed folders are refused with a message naming the problem, and leave tp.memory() where it was', async () => {
  const before = tp.memory();
  const cases = [
    [{ edit: (t) => { t['model.layers.1.mlp.up_proj.weight'].dispose(); delete t['model.layers.1.mlp.up_proj.weight']; } },
      /model\.load: 1 tensor missing from the checkpoint: 'model\.layers\.1\.mlp\.up_proj\.weight'/],
    [{ edit: (t) => { t['model.layers.0.extra.weight'] = tp.zeros([2]); } },
      /Qwen3ForCausalLM with this config\.json has no tensor 'model\.layers\.0\.extra\.weight'/],
    [{ edit: (t) => { t['model.layers.0.self_attn.k_proj.weight'].dispose(); t['model.layers.0.self_attn.k_proj.weight'] = tp.zeros([32, 16]); } },
      /tensor 'model\.layers\.0\.self_attn\.k_proj\.weight' has shape \[32, 16\], config\.json implies \[16, 16\]/],
    [{ arch: 'GPTNeoXForCausalLM' }, /model\.config: architecture 'GPTNeoXForCausalLM' is not supported \(supported: Qwen3ForCausalLM/],
    [{ edit: (t, c) => { c.intermediate_size = 32; } },  // config.json lies about a size
      /tensor 'model\.layers\.0\.mlp\.gate_proj\.weight' has shape \[24, 16\], config\.json implies \[32, 16\]/],
    [{ edit: (t, c) => { c.num_hidden_layers = 3; } }, /tensors missing from the checkpoint: 'model\.layers\.2\./],
    [{ edit: (t, c) => { delete c.hidden_size; } }, /model\.config: config\.json has no "hidden_size"/],
  ];
  for (const [i, [opts, re]] of cases.entries()) {
    const dir = writeModel(`bad-${i}`, opts);
    await assert.rejects(tp.model.load(dir), re);
    assert.deepEqual(tp.memory(), before, `case ${i}`);
  }
  // A truncated shard, a shard the index names that is missing, no config.json, no folder.
  const cut = writeModel('truncated', { shards: 2 });
  const shard = path.join(cut, 'model-00002-of-00002.safetensors');
  fs.truncateSync(shard, fs.statSync(shard).size - 10);
  await assert.rejects(tp.model.load(cut), /model\.load: model-00002-of-00002\.safetensors: safetensors: .*outside the data section/);
  fs.rmSync(shard);
  await assert.rejects(tp.model.load(cut), /shard "model-00002-of-00002\.safetensors" named in model\.safetensors\.index\.json is missing/);
  fs.rmSync(path.join(cut, 'config.json'));
  await assert.rejects(tp.model.load(cut), /model\.load: the folder has no config\.json/);
  await assert.rejects(tp.model.load(path.join(tmp, 'nowhere')), /model\.load: cannot list the folder/);
  await assert.rejects(tp.model.load(42), /model\.load: expects a folder path \(Node\) or an array\/FileList of Files/);
  assert.deepEqual(tp.memory(), before);
});

test('forward refuses token ids outside the vocabulary and unknown options by name', async () => {
  const model = await tp.model.load(writeModel('ids'));
  await assert.rejects(model.forward([1, 40]), /model\.forward: token id 40 at position 1 is outside the vocabulary \[0, 40\)/);
  await assert.rejects(model.forward([1.5]), /model\.forward: expects token ids/);
  await assert.rejects(model.forward([]), /model\.forward: needs at least one token/);
  await assert.rejects(model.forward([1], { logits: 'first' }), /logits must be 'last', 'all' or false/);
  await assert.rejects(model.forward([1], { captures: 'embed' }), /model\.forward: unknown option/);
  await assert.rejects(model.forward([1], { profile: 'yes' }), /model\.forward: profile must be true or false, got/);
  model.dispose();
});

test('forward with profile: true lists each op\'s calls and time, the layer ops once per layer, and the logits do not change', async () => {
  const model = await tp.model.load(writeModel('profile'));
  const plain = await model.forward(ids);
  assert.equal(plain.profile, undefined, 'no profile unless asked');
  const { logits, profile } = await model.forward(ids, { profile: true });
  assert.deepEqual(logits.toArray(), plain.logits.toArray());
  const ops = profile.map((p) => p.op);
  for (const op of ['embed', 'input_norm', 'qkv_proj', 'qk_norm', 'rope', 'attention', 'o_proj', 'post_norm',
    'gate_up_proj', 'swiglu', 'down_proj', 'final_norm', 'lm_head']) assert.ok(ops.includes(op), `${op} in ${ops}`);
  assert.equal(ops[0], 'embed');
  assert.equal(ops.at(-1), 'lm_head');
  const calls = Object.fromEntries(profile.map((p) => [p.op, p.calls]));
  assert.equal(calls.attention, dims.layers);
  assert.equal(calls.down_proj, dims.layers);
  assert.ok(!ops.includes('residual'), 'o_proj and down_proj add into the residual stream themselves');
  assert.equal(calls.lm_head, 1);
  for (const p of profile) {
    assert.ok(p.ms >= 0 && Number.isFinite(p.ms), `${p.op}: ${p.ms} ms`);
    assert.equal(p.helperMs, 0, `${p.op}: the single-thread core has no helper threads`);
  }
  tp.dispose(logits, plain.logits);
  model.dispose();
});
