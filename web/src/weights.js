// "Use your own model": a drop zone and file picker for a .safetensors or .npy file — or all the shards
// of a model split over several (model-00001-of-00003.safetensors, ...) — a searchable list of their
// tensors, and buttons that bind one tensor into the cells' scope as `weights.<name>` (W by default).
// A whole model folder (config.json beside the safetensors, tokenizer.json optional: picked as a folder,
// dropped as one, or its files chosen together) is also loaded with tp.model.load and bound as `model`,
// which the chapter's real-model cells run.
// The Files go to the cell worker (structured clone: nothing is uploaded) and are opened there with
// tp.io.open, which reads the header only; a tensor's bytes are read when it is bound. Binding re-runs
// the cells that read `weights`. The Files are kept on the page, so after Interrupt/Restart they are
// opened again in the fresh worker and the same tensors are bound again.
import { h } from './dom.js';
import { bytesText } from './i18n.js';

// ---- run in the worker (sent as source text: self-contained, state on globalThis) ---------------------

/** Opens the files (closing the previous ones) and lists their tensors, each with the index of its file
 *  (`shard`); a tensor name found in two files is refused, naming both. */
export async function openWeights(tp, { files, id }) {
  const st = (globalThis.__tpWeights ??= { files: [], id: 0 });
  const closeAll = async (fs) => { for (const f of fs) { try { await f.close(); } catch { /* already closed */ } } };
  const old = st.files;
  st.files = [];
  await closeAll(old);
  const opened = [];
  try {
    for (const file of files) opened.push(await tp.io.open(file));
    const tensors = [];
    const where = new Map();
    opened.forEach((f, shard) => {
      for (const t of f.tensors) {
        if (where.has(t.name)) throw new Error(`tensor ${t.name} is in both ${files[where.get(t.name)].name} and ${files[shard].name}`);
        where.set(t.name, shard);
        tensors.push({ ...t, shard });
      }
    });
    st.files = opened;
    st.id = id;
    return { format: [...new Set(opened.map((f) => f.format))].join(' + '), size: opened.reduce((s, f) => s + f.size, 0),
      tensors, metadata: opened[0]?.metadata };
  } catch (e) {
    await closeAll(opened);
    throw e;
  }
}

/** Reads one tensor and binds it as scope.weights[as] (a new object, so cells holding the old one keep it);
 *  or, with as undefined, removes the names in `remove`. */
export async function bindWeight(tp, { id, name, shard = 0, as, remove = [] }, scope) {
  const st = globalThis.__tpWeights;
  const prev = scope.weights;
  const base = prev && typeof prev === 'object' && !(prev instanceof tp.Tensor) && !Array.isArray(prev) ? prev : {};
  const next = Object.assign({}, base);
  let shape = null;
  for (const k of remove) delete next[k];
  if (as !== undefined) {
    if (!st?.files?.[shard] || st.id !== id) throw new Error('the file is no longer open; choose it again');
    // Floating tensors (BF16, F16, F64, FP8 checkpoints) are bound as float32, which every op of the
    // chapter's cells takes (svd and the other linalg ops refuse 16-bit floats); integer and bool tensors
    // (token ids, masks) keep their stored dtype. (Inline: this function is sent to the worker as source.)
    const stored = st.files[shard].tensors.find((t) => t.name === name)?.dtype ?? '';
    const t = await st.files[shard].get(name, /^B?F\d/.test(stored) ? { dtype: 'float32' } : undefined);
    next[as] = t;
    shape = t.shape;
  }
  if (Object.keys(next).length) scope.weights = next;
  else delete scope.weights;
  // What a widget watching `weights` is told: the bound tensors' shapes (their data may be large).
  const summary = {};
  for (const [k, v] of Object.entries(next)) summary[k] = v instanceof tp.Tensor ? { shape: v.shape } : null;
  return { shape, summary };
}

/** Starts loading a model folder's Files with tp.model.load, to bind it as scope.model (the previous model
 *  is disposed first, so two never share the heap). Returns at once: the worker stays free for the page to
 *  ask how far it got (modelLoadState), since one request runs after the other. */
export async function startModelLoad(tp, { files, id }, scope) {
  const old = scope.model;
  delete scope.model;
  try { old?.dispose?.(); } catch { /* already disposed */ }
  if (!tp.model) throw new Error('this build of the engine has no tp.model');
  const st = globalThis.__tpModelLoad = { id, progress: null, done: false, error: null, summary: null };
  tp.model.load(files, { onProgress: (p) => { st.progress = p; } }).then((m) => {
    if (globalThis.__tpModelLoad !== st) { m.dispose(); return; } // a newer load started meanwhile
    scope.model = m;
    const c = m.config ?? {};
    st.summary = { architecture: c.architecture ?? c.architectures?.[0] ?? '', layers: c.numLayers ?? c.num_hidden_layers ?? null,
      bytes: tp.memory().bytes };
    st.done = true;
  }, (e) => {
    st.error = String(e?.message ?? e);
    st.done = true;
  });
  return true;
}

/** How far the load `id` got: { progress: {bytes, totalBytes, tensors, totalTensors}, done, error, summary }. */
export function modelLoadState(tp, { id }) {
  const st = globalThis.__tpModelLoad;
  if (!st || st.id !== id) return { done: true, error: 'the load was replaced' };
  return { progress: st.progress, done: st.done, error: st.error, summary: st.summary };
}

/** Disposes and unbinds scope.model. */
export async function unloadModel(tp, _args, scope) {
  globalThis.__tpModelLoad = null; // a load still running disposes its model when it ends
  const old = scope.model;
  delete scope.model;
  try { old?.dispose?.(); } catch { /* already disposed */ }
  return true;
}

/** After a worker restart: opens the files again and binds the same tensors, in one request. */
export async function restoreWeights(tp, { files, id, binds }, scope) {
  const st = (globalThis.__tpWeights ??= { files: [], id: 0 });
  const opened = [];
  for (const file of files) opened.push(await tp.io.open(file));
  st.files = opened;
  st.id = id;
  const weights = {};
  for (const [as, name, shard] of binds) {
    const stored = opened[shard].tensors.find((t) => t.name === name)?.dtype ?? ''; // floats as float32, as bindWeight
    weights[as] = await opened[shard].get(name, /^B?F\d/.test(stored) ? { dtype: 'float32' } : undefined);
  }
  if (binds.length) scope.weights = weights;
  return binds.length;
}

// ---- on the page --------------------------------------------------------------------------------------

const MAX_ROWS = 200; // rows drawn at once; the filter narrows a 10k-tensor file down
const isConfig = (f) => f.name === 'config.json';
const isTensorFile = (f) => /\.(safetensors|npy)$/i.test(f.name);

/** The Files of a drop: a dropped folder is read one level deep (a model folder is flat). */
async function droppedFiles(dt) {
  const entries = [...(dt?.items ?? [])].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.some((e) => e.isDirectory)) return [...(dt?.files ?? [])];
  const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));
  const out = [];
  for (const e of entries) {
    if (e.isFile) { out.push(await fileOf(e)); continue; }
    const reader = e.createReader();
    for (;;) { // readEntries answers in batches until an empty one
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (!batch.length) break;
      for (const x of batch) if (x.isFile) out.push(await fileOf(x));
    }
  }
  return out;
}
const NAME_RE = /^[A-Za-z_$][\w$]*$/;
const shapeText = (shape) => (shape.length ? shape.join('×') : 'scalar');

export class WeightsPanel {
  /** notebook: { kernel, kernelState, changed(name, summary), L(key, vars), onRestart(cb) } */
  constructor(notebook, { heading = 'h2' } = {}) {
    this.nb = notebook;
    this.L = notebook.L;
    this.files = []; // the Files, kept for re-opening after a restart
    this.id = 0; // which open the worker holds; answers to older opens are ignored
    this.list = null;
    this.bound = new Map(); // as → { name, shard, dtype, shape }
    this.modelFiles = []; // a model folder's Files, kept to load it again after a restart
    this.modelId = 0;
    this.#render(heading);
    notebook.onRestart(() => this.#restarted());
    this.#catchStrayDrops();
  }

  // A model file dropped anywhere on the page opens here, instead of the browser navigating away to it
  // or a code editor trying to insert 1.5 GB as text. Other files dropped on an editor are left to it.
  #catchStrayDrops() {
    const isModel = (f) => /\.(safetensors|npy)$/i.test(f?.name ?? '');
    const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    document.addEventListener('dragover', (e) => {
      if (hasFiles(e) && !this.zone.contains(e.target) && !e.target.closest?.('.cm-editor')) e.preventDefault();
    });
    document.addEventListener('drop', (e) => {
      if (!hasFiles(e) || this.zone.contains(e.target)) return;
      const files = [...e.dataTransfer.files];
      const folder = [...(e.dataTransfer.items ?? [])].some((i) => i.webkitGetAsEntry?.()?.isDirectory);
      if (e.target.closest?.('.cm-editor') && !folder && !files.some(isModel)) return;
      e.preventDefault();
      e.stopPropagation();
      if (!files.length) return;
      this.el.scrollIntoView({ block: 'nearest' });
      droppedFiles(e.dataTransfer).then((fs) => this.open(fs), (err) => this.#showError(cleanMessage(err)));
    }, { capture: true });
  }

  #render(heading) {
    const L = this.L;
    const id = 'weights';
    this.input = h('input', { type: 'file', id: `${id}-file`, accept: '.safetensors,.npy,.json', multiple: true, 'data-testid': 'weights-input',
      // Cleared on click, so choosing the same file again (after an error or a restart) still opens it.
      onclick: () => { this.input.value = ''; }, onchange: () => this.input.files.length && this.open([...this.input.files]) });
    // A model folder: config.json, the safetensors (and their index), tokenizer.json. Subfolders are left out.
    this.folderInput = h('input', { type: 'file', id: `${id}-folder`, webkitdirectory: true, 'data-testid': 'weights-folder',
      onclick: () => { this.folderInput.value = ''; },
      onchange: () => {
        const top = [...this.folderInput.files].filter((f) => (f.webkitRelativePath || f.name).split('/').length <= 2);
        if (top.length) this.open(top);
      } });
    this.modelStatus = h('p', { class: 'weights-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'model-status', hidden: true });
    this.status = h('p', { class: 'weights-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'weights-status' });
    this.error = h('p', { class: 'weights-error', role: 'alert', 'data-testid': 'weights-error', hidden: true });
    this.zone = h('div', { class: 'weights-drop', 'data-testid': 'weights-drop', role: 'group', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-hint` },
      h('p', { id: `${id}-hint`, class: 'weights-hint', text: L('weightsHint') }),
      h('label', { for: this.input.id, class: 'weights-pick' }, h('span', { text: L('weightsChoose') }), this.input),
      h('label', { for: this.folderInput.id, class: 'weights-pick' }, h('span', { text: L('modelChooseFolder') }), this.folderInput),
      this.status, this.modelStatus, this.error);
    for (const ev of ['dragenter', 'dragover']) {
      this.zone.addEventListener(ev, (e) => {
        if (![...(e.dataTransfer?.types ?? [])].includes('Files')) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        this.zone.classList.add('dragging');
      });
    }
    this.zone.addEventListener('dragleave', (e) => { if (!this.zone.contains(e.relatedTarget)) this.zone.classList.remove('dragging'); });
    this.zone.addEventListener('drop', (e) => {
      e.preventDefault();
      this.zone.classList.remove('dragging');
      if (!e.dataTransfer?.files?.length) return;
      droppedFiles(e.dataTransfer).then((fs) => fs.length && this.open(fs), (err) => this.#showError(cleanMessage(err)));
    });

    this.asInput = h('input', { type: 'text', id: `${id}-as`, value: 'W', size: 8, spellcheck: 'false', autocomplete: 'off', 'data-testid': 'weights-as', oninput: () => this.#asChanged() });
    this.filter = h('input', { type: 'search', id: `${id}-filter`, placeholder: L('weightsFilterHint'), 'data-testid': 'weights-filter', oninput: () => this.#drawRows() });
    this.count = h('p', { class: 'weights-count muted', 'aria-live': 'polite', 'data-testid': 'weights-count' });
    this.rows = h('ul', { class: 'weights-list', 'data-testid': 'weights-list', 'aria-label': L('weightsListLabel') });
    this.boundEl = h('ul', { class: 'weights-bound', 'data-testid': 'weights-bound', 'aria-label': L('weightsBoundLabel') });
    this.browser = h('div', { class: 'weights-browser', hidden: true },
      h('div', { class: 'weights-controls' },
        h('label', { for: this.filter.id, text: L('weightsFilter') }), this.filter,
        h('label', { for: this.asInput.id }, `${L('weightsAs')} `, h('code', { text: 'weights.' })), this.asInput),
      this.count, this.rows);
    // tabindex -1: focus lands on the panel when the control the reader used is gone (the last Remove).
    this.el = h('section', { class: 'weights-panel', 'data-testid': 'weights-panel', 'aria-labelledby': `${id}-title`, tabindex: '-1' },
      h(heading, { id: `${id}-title`, text: L('weightsTitle') }),
      h('p', { class: 'muted', text: L('weightsPrivacy') }),
      this.zone, this.boundEl, this.browser);
  }

  #asName() {
    return this.asInput.value.trim();
  }

  #asChanged() {
    const as = this.#asName();
    const ok = NAME_RE.test(as);
    this.asInput.setAttribute('aria-invalid', String(!ok));
    for (const b of this.rows.querySelectorAll('[data-testid=weights-bind]')) {
      b.disabled = !ok;
      b.textContent = this.L('weightsUseAs', { as: ok ? as : '…' });
      b.setAttribute('aria-label', this.L('weightsUseAsLabel', { name: b.closest('li').dataset.name, as: ok ? as : '…' }));
    }
  }

  #showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }

  // "model.safetensors", or "model-00001-of-00002.safetensors and 1 more".
  #filesLabel(files) {
    return files.length === 1 ? files[0].name : this.L('weightsMoreFiles', { file: files[0].name, n: files.length - 1 });
  }

  /** Opens a File, or the shards of one model (Files), in the worker: headers only; the list of tensors
   *  appears. A sharded model's index (model.safetensors.index.json) is not needed and is left out. */
  async open(fileOrFiles) {
    const all = Array.isArray(fileOrFiles) ? fileOrFiles : [fileOrFiles];
    // A model folder: its tensor files are listed here, and the whole folder goes to tp.model.load.
    const folder = all.some(isConfig);
    if (folder) this.#loadModel(all);
    else if (this.modelFiles.length) this.#unloadModel();
    const data = all.filter((f) => (folder ? isTensorFile(f) : !/\.index\.json$/i.test(f.name)));
    const files = data.length ? data : all;
    const label = this.#filesLabel(files);
    const size = files.reduce((s, f) => s + f.size, 0);
    const id = ++this.id;
    const unbind = [...this.bound.keys()];
    this.files = [];
    this.list = null;
    this.bound.clear();
    this.#drawBound();
    this.browser.hidden = true;
    this.#showError('');
    this.status.textContent = this.L('weightsOpening', { file: label, size: bytesText(size) });
    this.zone.dataset.state = 'opening';
    // The previous file's tensors are unbound: what the panel lists is what `weights` holds.
    if (unbind.length) this.nb.kernel.compute(bindWeight, { remove: unbind }).then((r) => this.nb.changed('weights', r.summary), () => {});
    try {
      if (this.nb.kernelState === 'failed') throw new Error(this.L('weightsNoEngine'));
      const r = await this.nb.kernel.compute(openWeights, { files, id });
      if (id !== this.id) return;
      this.files = files;
      this.list = r;
      this.status.textContent = this.L('weightsOpened', { file: label, n: r.tensors.length, format: r.format, size: bytesText(r.size) });
      this.zone.dataset.state = 'open';
      this.browser.hidden = false;
      this.filter.value = '';
      this.#drawRows();
    } catch (e) {
      if (id !== this.id) return;
      this.zone.dataset.state = 'error';
      this.status.textContent = '';
      const other = files.some((f) => /\.(bin|pt|pth|ckpt|gguf|pkl|h5|onnx)$/i.test(f.name)) ? ` ${this.L('weightsOtherFormat')}` : '';
      const msg = cleanMessage(e);
      this.#showError(this.L('weightsBadFile', { file: label, msg }) + (other && !/[.!?。]$/.test(msg) ? '.' : '') + other);
    }
  }

  #rowButton(name) {
    return [...this.rows.children].find((li) => li.dataset.name === name)?.querySelector('[data-testid=weights-bind]') ?? null;
  }

  // Redrawing replaces the rows: a reader whose focus was on one (its "Use as W") keeps it on that row.
  #drawRows() {
    if (!this.list) return;
    const focused = this.rows.contains(document.activeElement) ? document.activeElement.closest('li')?.dataset.name : undefined;
    const words = this.filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const all = this.list.tensors;
    const hits = words.length ? all.filter((t) => words.every((w) => t.name.toLowerCase().includes(w))) : all;
    const shown = hits.slice(0, MAX_ROWS);
    this.count.textContent = hits.length > shown.length
      ? this.L(words.length ? 'weightsCountMore' : 'weightsCountFirst', { shown: shown.length, n: hits.length, total: all.length })
      : this.L('weightsCount', { n: hits.length, total: all.length });
    const boundNames = new Map([...this.bound].map(([as, b]) => [b.name, as]));
    this.rows.replaceChildren(...shown.map((t) => {
      const as = boundNames.get(t.name);
      return h('li', { 'data-testid': 'weights-row', 'data-name': t.name, class: as ? 'is-bound' : null },
        h('code', { class: 'weights-name', text: t.name }),
        h('span', { class: 'weights-dtype', 'data-testid': 'weights-dtype', text: t.dtype }),
        h('span', { class: 'weights-shape', 'data-testid': 'weights-shape', text: shapeText(t.shape) }),
        as ? h('span', { class: 'weights-tag', text: `weights.${as}` }) : null,
        h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'weights-bind', onclick: () => this.bind(t.name) }));
    }));
    this.#asChanged();
    if (focused !== undefined) (this.#rowButton(focused) ?? this.filter).focus();
  }

  #drawBound() {
    this.boundEl.replaceChildren(...[...this.bound].map(([as, b]) => h('li', { 'data-testid': 'weights-binding', 'data-as': as, 'data-name': b.name },
      h('code', { text: `weights.${as}` }), ' = ', h('code', { text: b.name }), ` (${shapeText(b.shape)}, ${b.dtype} → float32) `,
      h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'weights-unbind', 'aria-label': this.L('weightsRemoveLabel', { as }), onclick: () => this.unbind(as) }, this.L('weightsRemove')))));
  }

  /** Reads tensor `name` in the worker and binds it as weights.<as>; re-runs the cells that read `weights`. */
  async bind(name, as = this.#asName()) {
    if (!NAME_RE.test(as)) {
      this.#showError(this.L('weightsBadName', { as }));
      return;
    }
    const id = this.id;
    const entry = this.list?.tensors.find((t) => t.name === name);
    if (!entry) return;
    this.#showError('');
    const n = entry.shape.reduce((a, b) => a * b, 1);
    this.status.textContent = this.L('weightsReading', { name, size: bytesText(n * 4) });
    this.zone.dataset.state = 'reading';
    try {
      const r = await this.nb.kernel.compute(bindWeight, { id, name, shard: entry.shard, as });
      if (id !== this.id) return;
      this.bound.set(as, { name, shard: entry.shard, dtype: entry.dtype, shape: r.shape });
      this.status.textContent = this.L('weightsBound', { name, as });
      this.zone.dataset.state = 'open';
      this.#drawBound();
      this.#drawRows();
      this.nb.changed('weights', r.summary);
    } catch (e) {
      if (id !== this.id) return;
      this.zone.dataset.state = 'open';
      this.status.textContent = '';
      this.#showError(this.L('weightsBindFailed', { name, msg: cleanMessage(e) }));
    }
  }

  async unbind(as) {
    const focused = this.boundEl.contains(document.activeElement);
    const index = [...this.bound.keys()].indexOf(as);
    const name = this.bound.get(as)?.name;
    try {
      const r = await this.nb.kernel.compute(bindWeight, { remove: [as] });
      this.bound.delete(as);
      this.#drawBound();
      this.#drawRows();
      // The Remove button went with its line: focus the next line's, else the tensor's row, else the panel.
      if (focused) {
        const removes = this.boundEl.querySelectorAll('[data-testid=weights-unbind]');
        (removes[Math.min(index, removes.length - 1)] ?? (this.browser.hidden ? null : this.#rowButton(name)) ?? this.el).focus();
      }
      this.status.textContent = this.L('weightsRemoved', { as });
      this.nb.changed('weights', r.summary);
    } catch (e) {
      this.#showError(cleanMessage(e));
    }
  }

  /** Loads a model folder in the worker as `model`; the cells that read `model` run again. */
  async #loadModel(files) {
    const id = ++this.modelId;
    this.modelFiles = files;
    this.modelStatus.hidden = false;
    this.modelStatus.textContent = this.L('modelLoading', { size: bytesText(files.reduce((s, f) => s + f.size, 0)) });
    this.zone.dataset.model = 'loading';
    try {
      if (this.nb.kernelState === 'failed') throw new Error(this.L('weightsNoEngine'));
      await this.nb.kernel.compute(startModelLoad, { files, id });
      let r;
      for (;;) { // asked every 250 ms: a 1.5 GB checkpoint takes seconds to read
        await new Promise((resolve) => setTimeout(resolve, 250));
        if (id !== this.modelId) return;
        const st = await this.nb.kernel.compute(modelLoadState, { id });
        if (id !== this.modelId) return;
        if (st.error) throw new Error(st.error);
        if (st.done) { r = st.summary; break; }
        const p = st.progress;
        if (p?.totalTensors) this.modelStatus.textContent = this.L('modelProgress', { tensors: p.tensors, total: p.totalTensors, size: bytesText(p.bytes), totalSize: bytesText(p.totalBytes) });
      }
      this.zone.dataset.model = 'loaded';
      this.modelStatus.textContent = this.L('modelLoaded', { arch: r.architecture || '?', layers: r.layers ?? '?', size: bytesText(r.bytes) });
      this.nb.changed('model', r);
    } catch (e) {
      if (id !== this.modelId) return;
      this.modelFiles = [];
      this.zone.dataset.model = 'error';
      this.modelStatus.textContent = '';
      this.modelStatus.hidden = true;
      this.#showError(this.L('modelFailed', { msg: cleanMessage(e).replace(/^model\.load: /, '') }));
    }
  }

  #unloadModel() {
    this.modelId++;
    this.modelFiles = [];
    this.modelStatus.hidden = true;
    delete this.zone.dataset.model;
    this.nb.kernel.compute(unloadModel, {}).then(() => this.nb.changed('model', null), () => {});
  }

  // A fresh worker has no file and no `weights`: open the kept File again and bind the same tensors.
  // Sent at once, so it is queued in the worker before any cell the reader re-runs.
  #restarted() {
    if (this.modelFiles.length) this.#loadModel(this.modelFiles);
    if (!this.files.length) {
      if (this.zone.dataset.state === 'opening' || this.zone.dataset.state === 'reading') {
        this.id++;
        this.zone.dataset.state = '';
        this.status.textContent = '';
        this.#showError(this.L('weightsChooseAgain'));
      }
      return;
    }
    const id = ++this.id;
    const binds = [...this.bound].map(([as, b]) => [as, b.name, b.shard]);
    const label = this.#filesLabel(this.files);
    this.zone.dataset.state = 'reading';
    this.status.textContent = this.L('weightsReopening', { file: label });
    this.nb.kernel.compute(restoreWeights, { files: this.files, id, binds }).then(() => {
      if (id !== this.id) return;
      this.zone.dataset.state = 'open';
      const names = binds.map(([as]) => `weights.${as}`).join(', ');
      this.status.textContent = this.L(names ? 'weightsReopened' : 'weightsReopenedNone', { file: label, names });
    }, (e) => {
      if (id !== this.id) return;
      this.files = [];
      this.list = null;
      this.bound.clear();
      this.#drawBound();
      this.browser.hidden = true;
      this.zone.dataset.state = 'error';
      this.status.textContent = '';
      this.#showError(`${this.L('weightsChooseAgain')} (${cleanMessage(e)})`);
    });
  }
}

// "io.open: safetensors: header length 9e9 is beyond the file" reads better without the op prefix.
function cleanMessage(e) {
  return String(e?.message ?? e).replace(/^io\.(open|get): /, '');
}

// Whether a cell's code names `weights` outside comments and strings (the page has no JS parser; the
// worker's exact list of read names exists only once a cell has run).
const STRIP = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g;
export const mentionsWeights = (source) => /(^|[^.\w$])weights(?![\w$])/.test(source.replace(STRIP, ' '));

/** Where the panel goes: before the first top-level cell that reads `weights` or widget that shows it. */
export function weightsAnchor(blocks) {
  return blocks.findIndex((b) => (b.type === 'cell' && mentionsWeights(b.source)) ||
    (b.type === 'widget' && (b.name === 'energy-curve' || /\bweights\b/.test(b.props?.source ?? ''))));
}
