// "Use your own model": a drop zone and file picker for a .safetensors or .npy file, a searchable list of
// its tensors, and buttons that bind one tensor into the cells' scope as `weights.<name>` (W by default).
// The File goes to the cell worker (structured clone: nothing is uploaded) and is opened there with
// tp.io.open, which reads the header only; a tensor's bytes are read when it is bound. Binding re-runs
// the cells that read `weights`. The File is kept on the page, so after Interrupt/Restart it is opened
// again in the fresh worker and the same tensors are bound again.
import { h } from './dom.js';

// ---- run in the worker (sent as source text: self-contained, state on globalThis) ---------------------

/** Opens the file (closing the previous one) and lists its tensors. */
export async function openWeights(tp, { file, id }) {
  const st = (globalThis.__tpWeights ??= { file: null, id: 0 });
  const old = st.file;
  st.file = null;
  try { await old?.close(); } catch { /* already closed */ }
  const f = await tp.io.open(file);
  st.file = f;
  st.id = id;
  return { format: f.format, size: f.size, tensors: f.tensors, metadata: f.metadata };
}

/** Reads one tensor and binds it as scope.weights[as] (a new object, so cells holding the old one keep it);
 *  or, with as undefined, removes the names in `remove`. */
export async function bindWeight(tp, { id, name, as, remove = [] }, scope) {
  const st = globalThis.__tpWeights;
  const prev = scope.weights;
  const base = prev && typeof prev === 'object' && !(prev instanceof tp.Tensor) && !Array.isArray(prev) ? prev : {};
  const next = Object.assign({}, base);
  let shape = null;
  for (const k of remove) delete next[k];
  if (as !== undefined) {
    if (!st?.file || st.id !== id) throw new Error('the file is no longer open; choose it again');
    const t = await st.file.get(name);
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

/** After a worker restart: opens the file again and binds the same tensors, in one request. */
export async function restoreWeights(tp, { file, id, binds }, scope) {
  const st = (globalThis.__tpWeights ??= { file: null, id: 0 });
  const f = await tp.io.open(file);
  st.file = f;
  st.id = id;
  const weights = {};
  for (const [as, name] of binds) weights[as] = await f.get(name);
  if (binds.length) scope.weights = weights;
  return binds.length;
}

// ---- on the page --------------------------------------------------------------------------------------

const MAX_ROWS = 200; // rows drawn at once; the filter narrows a 10k-tensor file down
const NAME_RE = /^[A-Za-z_$][\w$]*$/;
const mb = (bytes) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`);
const shapeText = (shape) => (shape.length ? shape.join('×') : 'scalar');

export class WeightsPanel {
  /** notebook: { kernel, kernelState, changed(name, summary), L(key, vars), onRestart(cb) } */
  constructor(notebook, { heading = 'h2' } = {}) {
    this.nb = notebook;
    this.L = notebook.L;
    this.file = null; // the File, kept for re-opening after a restart
    this.id = 0; // which open the worker holds; answers to older opens are ignored
    this.list = null;
    this.bound = new Map(); // as → { name, dtype, shape }
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
      const file = e.dataTransfer.files[0];
      if (e.target.closest?.('.cm-editor') && !isModel(file)) return;
      e.preventDefault();
      e.stopPropagation();
      if (!file) return;
      this.el.scrollIntoView({ block: 'nearest' });
      this.open(file);
    }, { capture: true });
  }

  #render(heading) {
    const L = this.L;
    const id = 'weights';
    this.input = h('input', { type: 'file', id: `${id}-file`, accept: '.safetensors,.npy', 'data-testid': 'weights-input',
      // Cleared on click, so choosing the same file again (after an error or a restart) still opens it.
      onclick: () => { this.input.value = ''; }, onchange: () => this.input.files[0] && this.open(this.input.files[0]) });
    this.status = h('p', { class: 'weights-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'weights-status' });
    this.error = h('p', { class: 'weights-error', role: 'alert', 'data-testid': 'weights-error', hidden: true });
    this.zone = h('div', { class: 'weights-drop', 'data-testid': 'weights-drop', role: 'group', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-hint` },
      h('p', { id: `${id}-hint`, class: 'weights-hint', text: L('weightsHint') }),
      h('label', { for: this.input.id, class: 'weights-pick' }, h('span', { text: L('weightsChoose') }), this.input),
      this.status, this.error);
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
      const file = e.dataTransfer?.files?.[0];
      if (file) this.open(file);
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
    this.el = h('section', { class: 'weights-panel', 'data-testid': 'weights-panel', 'aria-labelledby': `${id}-title` },
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

  /** Opens a File in the worker: the header only; the list of tensors appears. */
  async open(file) {
    const id = ++this.id;
    const unbind = [...this.bound.keys()];
    this.file = null;
    this.list = null;
    this.bound.clear();
    this.#drawBound();
    this.browser.hidden = true;
    this.#showError('');
    this.status.textContent = this.L('weightsOpening', { file: file.name, size: mb(file.size) });
    this.zone.dataset.state = 'opening';
    // The previous file's tensors are unbound: what the panel lists is what `weights` holds.
    if (unbind.length) this.nb.kernel.compute(bindWeight, { remove: unbind }).then((r) => this.nb.changed('weights', r.summary), () => {});
    try {
      if (this.nb.kernelState === 'failed') throw new Error(this.L('weightsNoEngine'));
      const r = await this.nb.kernel.compute(openWeights, { file, id });
      if (id !== this.id) return;
      this.file = file;
      this.list = r;
      this.status.textContent = this.L('weightsOpened', { file: file.name, n: r.tensors.length, format: r.format, size: mb(r.size) });
      this.zone.dataset.state = 'open';
      this.browser.hidden = false;
      this.filter.value = '';
      this.#drawRows();
    } catch (e) {
      if (id !== this.id) return;
      this.zone.dataset.state = 'error';
      this.status.textContent = '';
      const other = /\.(bin|pt|pth|ckpt|gguf|pkl|h5|onnx)$/i.test(file.name) ? ` ${this.L('weightsOtherFormat')}` : '';
      const msg = cleanMessage(e);
      this.#showError(this.L('weightsBadFile', { file: file.name, msg }) + (other && !/[.!?。]$/.test(msg) ? '.' : '') + other);
    }
  }

  #drawRows() {
    if (!this.list) return;
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
    this.status.textContent = this.L('weightsReading', { name, size: mb(n * 4) });
    this.zone.dataset.state = 'reading';
    try {
      const r = await this.nb.kernel.compute(bindWeight, { id, name, as });
      if (id !== this.id) return;
      this.bound.set(as, { name, dtype: entry.dtype, shape: r.shape });
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
    try {
      const r = await this.nb.kernel.compute(bindWeight, { remove: [as] });
      this.bound.delete(as);
      this.#drawBound();
      this.#drawRows();
      this.status.textContent = this.L('weightsRemoved', { as });
      this.nb.changed('weights', r.summary);
    } catch (e) {
      this.#showError(cleanMessage(e));
    }
  }

  // A fresh worker has no file and no `weights`: open the kept File again and bind the same tensors.
  // Sent at once, so it is queued in the worker before any cell the reader re-runs.
  #restarted() {
    if (!this.file) {
      if (this.zone.dataset.state === 'opening' || this.zone.dataset.state === 'reading') {
        this.id++;
        this.zone.dataset.state = '';
        this.status.textContent = '';
        this.#showError(this.L('weightsChooseAgain'));
      }
      return;
    }
    const id = ++this.id;
    const binds = [...this.bound].map(([as, b]) => [as, b.name]);
    this.zone.dataset.state = 'reading';
    this.status.textContent = this.L('weightsReopening', { file: this.file.name });
    this.nb.kernel.compute(restoreWeights, { file: this.file, id, binds }).then(() => {
      if (id !== this.id) return;
      this.zone.dataset.state = 'open';
      const names = binds.map(([as]) => `weights.${as}`).join(', ');
      this.status.textContent = this.L(names ? 'weightsReopened' : 'weightsReopenedNone', { file: this.file.name, names });
    }, (e) => {
      if (id !== this.id) return;
      this.file = null;
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
