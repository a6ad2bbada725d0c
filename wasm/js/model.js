// tp.model: a Hugging Face checkpoint (Qwen3 / Qwen2 / Llama) loaded from the reader's own files and run on
// the core's kernels, with its activations in reach. No math here: cpp/src/model_*.cpp through
// wasm/bind_model.cpp.
//
//   const model = await tp.model.load(source, {onProgress, signal})
//       source: Node, a folder path; browser, an array or FileList of Files (a picked model folder).
//       The folder holds config.json, model.safetensors or the shards model.safetensors.index.json names,
//       and optionally tokenizer.json (+ tokenizer_config.json). Weights stay in their file dtype (BF16,
//       F16, F32), read tensor by tensor; onProgress({bytes, totalBytes, tensors, totalTensors, name}).
//   model.config           {architecture, vocabSize, hiddenSize, intermediateSize, numLayers, numHeads,
//                           numKvHeads, headDim, ropeTheta, ropeType, rmsNormEps, tiedEmbeddings,
//                           eosTokenIds, raw (config.json as read)}
//   model.tokenizer        {encode(text) → number[], decode(ids) → string}; without tokenizer.json both
//                          throw a clear error (token ids still work everywhere)
//   model.weights          [{name, dtype, shape}] as stored
//   model.weight(name)     → Tensor: the stored weight in its file dtype (bfloat16, float16 or float32), a
//                          new handle on the model's own storage, not a copy (.float() widens it; as
//                          torch's parameters, writing into it changes the model); 'lm_head.weight' of
//                          a tied model is embed_tokens
//   await model.forward(idsOrText, {capture, logits, onProgress, signal, profile}) → {logits, captures}
//       logits: 'last' (default, [vocab]), 'all' ([T, vocab]) or false (null).
//       capture: a name or pattern, or an array of them ('*' = one dot-separated part, '**' = any):
//         embed                  [T, hidden]          token embeddings
//         layers.{i}.input       [T, hidden]          residual stream entering layer i
//         layers.{i}.attn.q      [heads, T, headDim]  after q_norm (Qwen3) and RoPE
//         layers.{i}.attn.k/.v   [kvHeads, T, headDim] after k_norm and RoPE: what the KV cache holds
//         layers.{i}.attn.weights [heads, T, T]       softmax probabilities (only when named: T² memory)
//         layers.{i}.mlp.input   [T, hidden]          post_attention_layernorm output (gate_proj's input)
//         layers.{i}.mlp.act     [T, intermediate]    silu(gate) · up (down_proj's input)
//         norm                   [T, hidden]          the final RMSNorm output
//       captures is {name: Tensor} in the order the forward reached them. onProgress({step, steps,
//       layer, layers}) after each step (embedding, each layer, head); an aborted signal stops the
//       forward between layers with a TensorpadError (and frees what it made). In a notebook cell the
//       cell also shows a progress bar, and its Interrupt stops the forward between layers the same way.
//       profile: true adds profile, [{op, calls, ms, helperMs}]: each op's wall time summed over the
//       layers, and the time helper threads worked in it (0: it ran on one thread; ≈ ms per helper: an
//       even split with a core each). Ops: embed, input_norm, qkv_proj, qk_norm, rope, kv_cache,
//       attention, o_proj, post_norm, gate_up_proj, swiglu, down_proj, final_norm, lm_head, captures
//       (o_proj and down_proj add into the residual stream as they store).
//   await model.generate(textOrIds, {maxNewTokens = 32, greedy = true, onToken, signal}) → {ids, text}
//       greedy decoding over a KV cache; stops at maxNewTokens or an eos id of config.json.
//   model.dispose()        frees the weights; tp.memory() is back to what it was before load.
import { TensorpadError, fail, describe } from './errors.js';
import { options, checkInt } from './checks.js';
import { openSource, readSafetensorsHeader } from './io.js';

const CHUNK = 16 * 2 ** 20;  // bytes handed to the core per step while loading
const YIELD_MS = 30;         // a forward yields to the event loop at least this often (progress, signals)

export function modelApi(rt) {
  const { core, wrap } = rt;
  const live = new Set();

  // A core call; its pending error becomes a TensorpadError, prefixed with op unless the core already
  // named a model op ("model.config: ...", "model.forward: ...").
  function call(op, fn) {
    const r = fn();
    if (core.errorPending()) {
      const m = core.takeError();
      throw m.startsWith('model.') ? new TensorpadError(m) : new TensorpadError(`${op}: ${m}`, { op });
    }
    return r;
  }

  // The notebook cell that called (when the cell worker runs one): globalThis.__tensorpadCell() gives
  // {check, progress} bound to that cell, or null outside a cell. check() throws the worker's own error
  // when the reader pressed Interrupt (the cell stops, the worker and the model stay); progress(p) draws
  // the cell's progress bar. Bound at the call's start, so a load the page runs in the background is
  // neither stopped by another cell's Interrupt nor drawn in another cell.
  const cellOf = () => globalThis.__tensorpadCell?.() ?? null;
  // Between steps: an aborted signal, and the notebook's Interrupt.
  const aborted = (op, signal, what, cell) => {
    cell?.check();
    if (signal?.aborted) fail(op, `interrupted (signal aborted)${what}`);
  };
  const now = () => globalThis.performance?.now?.() ?? Date.now();
  const layersDone = (step, steps) => Math.min(Math.max(step - 1, 0), steps - 2);
  let lastYield = 0;
  const maybeYield = async () => {
    const t = now();
    if (t - lastYield < YIELD_MS) return;
    lastYield = t;
    await new Promise((r) => setTimeout(r, 0));
  };

  // The folder as {name → source}: Node lists a path, the browser takes Files (by their base names).
  async function folderOf(op, source) {
    if (typeof source === 'string') {
      if (typeof process === 'undefined' || !process.versions?.node) fail(op, 'a folder path works only in Node; in the browser pass the folder\'s Files');
      const fsName = 'node:fs/promises', pathName = 'node:path';
      const fs = await import(/* @vite-ignore */ fsName);
      const path = await import(/* @vite-ignore */ pathName);
      let names;
      try {
        names = await fs.readdir(source);
      } catch (e) {
        fail(op, `cannot list the folder ${describe(source)}: ${e.code ?? e.message}`);
      }
      return new Map(names.map((n) => [n, path.join(source, n)]));
    }
    const list = source && typeof source === 'object' && typeof source.length === 'number' ? Array.from(source) : null;
    if (!list || !list.every((f) => typeof Blob !== 'undefined' && f instanceof Blob && typeof f.name === 'string')) {
      fail(op, `expects a folder path (Node) or an array/FileList of Files (browser), got ${describe(source)}`);
    }
    return new Map(list.map((f) => [f.name.split('/').pop(), f]));
  }

  async function readText(op, src, name) {
    const file = await openSource(op, src);
    try {
      return new TextDecoder().decode(await file.read(0, file.size, op));
    } finally {
      await file.close();
    }
  }
  async function readJson(op, src, name) {
    const text = await readText(op, src, name);
    try {
      return JSON.parse(text);
    } catch (e) {
      fail(op, `${name} is not valid JSON (${e.message})`);
    }
  }

  // The safetensors files to read: those model.safetensors.index.json names, else every *.safetensors.
  async function shardsOf(op, folder) {
    if (folder.has('model.safetensors.index.json')) {
      const index = await readJson(op, folder.get('model.safetensors.index.json'), 'model.safetensors.index.json');
      const map = index?.weight_map;
      if (!map || typeof map !== 'object') fail(op, 'model.safetensors.index.json has no "weight_map"');
      const files = [...new Set(Object.values(map))];
      for (const f of files) if (!folder.has(f)) fail(op, `shard ${describe(f)} named in model.safetensors.index.json is missing from the folder`);
      return { files, index: map };
    }
    // model.safetensors alone when present: some folders also hold other formats' files (Mistral's
    // consolidated.safetensors names its tensors differently).
    const files = folder.has('model.safetensors') ? ['model.safetensors']
      : [...folder.keys()].filter((n) => n.endsWith('.safetensors')).sort();
    if (!files.length) fail(op, 'the folder has no .safetensors file (and no model.safetensors.index.json)');
    return { files, index: null };
  }

  async function tokenizerOf(op, folder) {
    if (!folder.has('tokenizer.json')) {
      const none = () => fail('model.tokenizer', 'this model has no tokenizer (tokenizer.json was not in the folder); pass token ids instead');
      return { available: false, encode: none, decode: none };
    }
    const json = await readJson(op, folder.get('tokenizer.json'), 'tokenizer.json');
    const cfg = folder.has('tokenizer_config.json') ? await readJson(op, folder.get('tokenizer_config.json'), 'tokenizer_config.json') : {};
    const { Tokenizer } = await import('@huggingface/tokenizers');
    let tok;
    try {
      tok = new Tokenizer(json, cfg);
    } catch (e) {
      fail(op, `tokenizer.json could not be read: ${e.message}`);
    }
    return {
      available: true,
      encode(text) {
        if (typeof text !== 'string') fail('model.tokenizer.encode', `expects a string, got ${describe(text)}`);
        return Array.from(tok.encode(text, { add_special_tokens: false }).ids);
      },
      decode(ids) {
        const list = idsOf('model.tokenizer.decode', ids);
        return tok.decode(list, { skip_special_tokens: false });
      },
    };
  }

  function idsOf(op, ids) {
    let list = ids;
    if (ids instanceof rt.Tensor) list = ids.toArray();
    if (ArrayBuffer.isView(list)) list = Array.from(list);
    if (!Array.isArray(list) || list.some((v) => !Number.isInteger(v))) {
      fail(op, `expects token ids (an array of integers) or text, got ${describe(ids)}`);
    }
    return list;
  }

  async function load(source, opts) {
    const op = 'model.load';
    const { onProgress, signal } = options(op, opts, ['onProgress', 'signal']);
    const cell = cellOf();
    const folder = await folderOf(op, source);
    if (!folder.has('config.json')) fail(op, 'the folder has no config.json');
    const raw = await readJson(op, folder.get('config.json'), 'config.json');
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail('model.config', 'config.json must hold an object');
    const id = call(op, () => core.modelCreate(raw));
    const opened = [];
    try {
      const { files, index } = await shardsOf(op, folder);
      const tokenizer = await tokenizerOf(op, folder);  // before the weights: a bad tokenizer.json fails fast
      // Headers first: the totals for progress, and a truncated or malformed shard fails before any read.
      const shards = [];
      for (const name of files) {
        const file = await openSource(op, folder.get(name));
        opened.push(file);
        const h = await readSafetensorsHeader(core, file, op, `${op}: ${name}`);
        shards.push({ name, file, h });
      }
      if (index) {
        for (const { name, h } of shards) {
          for (const t of h.tensors) {
            if (index[t.name] !== undefined && index[t.name] !== name) {
              fail(op, `tensor ${describe(t.name)} is in ${name}, but model.safetensors.index.json places it in ${index[t.name]}`);
            }
          }
        }
      }
      const totalBytes = shards.reduce((s, x) => s + x.h.tensors.reduce((a, t) => a + (t.end - t.begin), 0), 0);
      const totalTensors = shards.reduce((s, x) => s + x.h.tensors.length, 0);
      let bytes = 0, tensors = 0;
      cell?.progress({ op, value: 0, max: totalBytes, tensors, totalTensors });
      for (const { name, file, h } of shards) {
        for (const t of h.tensors) {
          aborted(op, signal, ` after ${tensors} of ${totalTensors} tensors`, cell);
          const size = t.end - t.begin;
          const want = call(`${op}: ${name}`, () => core.modelWeightBegin(id, t.name, t.dtype, t.shape, size));
          if (want === 1) {
            for (let done = 0; done < size; done += CHUNK) {
              const chunk = await file.read(h.dataOffset + t.begin + done, h.dataOffset + t.begin + Math.min(size, done + CHUNK), op);
              call(op, () => core.modelWeightChunk(id, chunk));
            }
            call(op, () => core.modelWeightEnd(id));
          }
          bytes += size;
          tensors++;
          onProgress?.({ bytes, totalBytes, tensors, totalTensors, name: t.name });
          cell?.progress({ op, value: bytes, max: totalBytes, tensors, totalTensors });
        }
      }
      call(op, () => core.modelCheckComplete(id));
      const weights = shards.flatMap(({ h }) => h.tensors.map(({ name, dtype, shape }) => ({ name, dtype, shape })));
      return new Model(id, raw, tokenizer, weights);
    } catch (e) {
      core.modelRelease(id);
      // The cell's Interrupt goes through as itself: the worker tells it from an error.
      throw e instanceof TensorpadError || e?.name === 'Interrupted' ? e : new TensorpadError(`${op}: ${e.message}`, { op });
    } finally {
      for (const f of opened) await f.close();
    }
  }

  const LOGITS = new Map([['last', 1], ['all', 2], [false, 0], [null, 0], ['none', 0]]);

  class Model {
    #id;
    constructor(id, raw, tokenizer, weights) {
      this.#id = id;
      this.config = Object.freeze({ ...call('model.load', () => core.modelConfig(id)), raw });
      this.tokenizer = tokenizer;
      this.weights = weights;
      live.add(this);
    }
    _id(op) {
      if (this.#id === 0) fail(op, 'this model was disposed (use after dispose)');
      return this.#id;
    }
    get bytes() { return this.#id ? core.modelBytes(this.#id, false) : 0; }
    get _extraBytes() { return this.#id ? core.modelBytes(this.#id, true) : 0; }
    weight(name) {
      const op = 'model.weight';
      if (typeof name !== 'string') fail(op, `expects a tensor name, got ${describe(name)}`);
      return wrap(call(op, () => core.modelWeight(this._id(op), name)), op);
    }
    #ids(op, input) {
      if (typeof input === 'string') {
        if (!this.tokenizer.available) fail(op, 'text needs a tokenizer, and this model has none (tokenizer.json was not in the folder); pass token ids');
        return this.tokenizer.encode(input);
      }
      const ids = idsOf(op, input);
      if (!ids.length) fail(op, 'needs at least one token');
      return ids;
    }
    // Runs one forward step by step; returns {logits, captures} as tensors. report(step, steps, ms) after
    // each step (ms: how long it took) and once before the first.
    async #run(op, ids, { capture = [], logits = 'last', onProgress, signal, profile = false, cache = 0, cell = null, report = null }) {
      const names = typeof capture === 'string' ? [capture] : capture;
      if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
        fail(op, `capture must be a name or an array of names/patterns, got ${describe(capture)}`);
      }
      if (!LOGITS.has(logits)) fail(op, `logits must be 'last', 'all' or false, got ${describe(logits)}`);
      const rid = call(op, () => core.modelRunBegin(this._id(op), ids, names, LOGITS.get(logits), cache));
      try {
        report?.(0, this.config.numLayers + 2, 0);
        for (;;) {
          aborted(op, signal, '', cell);
          const t0 = now();
          const [step, steps] = call(op, () => core.modelRunStep(rid));
          onProgress?.({ step, steps, layer: layersDone(step, steps), layers: steps - 2 });
          report?.(step, steps, now() - t0);
          if (step === steps) break;
          await maybeYield();
        }
        const r = call(op, () => core.modelRunTake(rid));
        const captures = {};
        for (const [name, h] of r.captures) captures[name] = wrap(h, op);
        const out = { logits: r.logits ? wrap(r.logits, op) : null, captures };
        if (profile) out.profile = r.profile.map(([name, calls, ms, helperMs]) => ({ op: name, calls, ms, helperMs }));
        return out;
      } finally {
        core.modelRunRelease(rid);
      }
    }
    async forward(input, opts) {
      const op = 'model.forward';
      const o = options(op, opts, ['capture', 'logits', 'onProgress', 'signal', 'profile']);
      if (typeof (o.profile ?? false) !== 'boolean') fail(op, `profile must be true or false, got ${describe(o.profile)}`);
      const ids = this.#ids(op, input);
      const cell = cellOf();
      // The cell's bar: layers done of all, and the tokens; ms, how long the last step took (the page
      // waits that long for an Interrupt to land between layers).
      const report = cell && ((step, steps, ms) => cell.progress({ op, value: step, max: steps, layer: layersDone(step, steps), layers: steps - 2, tokens: ids.length, ms }));
      return this.#run(op, ids, { ...o, cell, report });
    }
    async generate(input, opts) {
      const op = 'model.generate';
      const { maxNewTokens = 32, greedy = true, onToken, signal } = options(op, opts, ['maxNewTokens', 'greedy', 'onToken', 'signal']);
      checkInt(op, 'maxNewTokens', maxNewTokens, { min: 0, max: 1 << 20 });
      if (greedy !== true) fail(op, 'only greedy decoding is implemented (greedy: true)');
      const prompt = this.#ids(op, input);
      const out = [];
      const cell = cellOf();
      // The cell's bar: the prompt's layers (prefill), then one tick a new token.
      const report = cell && ((step, steps, ms) => cell.progress({
        op, value: out.length, max: maxNewTokens, tokens: prompt.length, ms,
        ...(out.length === 0 ? { layer: layersDone(step, steps), layers: steps - 2 } : {}),
      }));
      if (maxNewTokens > 0) {
        const cache = call(op, () => core.modelCacheCreate(this._id(op), prompt.length + maxNewTokens));
        try {
          let step = prompt;
          while (out.length < maxNewTokens) {
            const { logits } = await this.#run(op, step, { signal, cache, cell, report });
            const l = logits.toArray();
            logits.dispose();
            let best = 0;
            for (let j = 1; j < l.length; j++) if (l[j] > l[best]) best = j;  // the first of equals, as argmax
            out.push(best);
            onToken?.(best);
            report?.(1, 1, 0);
            if (this.config.eosTokenIds.includes(best)) break;
            step = [best];
          }
        } finally {
          core.modelCacheRelease(cache);
        }
      }
      return { ids: out, text: this.tokenizer.available ? this.tokenizer.decode(out) : null };
    }
    dispose() {
      if (this.#id) core.modelRelease(this.#id);
      this.#id = 0;
      live.delete(this);
    }
  }

  rt.addHandleType({
    name: 'models',
    type: Model,
    // The weights are tensors (in tp.memory's bytes already); the float32 copies of the 1-d ones are not.
    memory: () => ({ count: live.size, bytes: [...live].reduce((s, m) => s + m._extraBytes, 0) }),
  });

  return { load };
}
