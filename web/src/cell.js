// One code cell on the page: its editor, run/reset controls, state attribute and output area.
import { h } from './dom.js';
import { t, bytesText } from './i18n.js';
import { LazyEditor } from './lazy-editor.js';
import { renderOutput } from './output.js';

export class CellView {
  /**
   * block: { id, source }, n: its number (1-based; a reader's cell: a label like "3a"),
   * hooks: { onRun(cell, opts), onEdit(cell, text), onReset(cell), onEscape(cell), onTool(cell, action) }.
   * A reader's own cell (reader: true) has no author version: no Reset, but Delete, Move and Duplicate.
   * `tools: false` leaves the insert/move controls out (the scratch cell). later(fn), if given, runs fn when
   * the page has time (a cell below the first screen): the controls and the copy of the code are drawn then.
   */
  constructor(block, n, lang, hooks, { reader = false, tools = true, testid = 'cell', later = null } = {}) {
    this.id = block.id;
    this.reader = reader;
    this.author = reader ? null : block.source;
    this.n = n;
    this.lang = lang;
    this.hooks = hooks;
    this.outputs = [];
    this.count = null;
    this.everRun = false;
    const L = (k, v) => t(lang, k, { n, ...v });
    this.countEl = h('span', { class: 'cell-count', 'aria-hidden': 'true', text: '[ ]' });
    this.runBtn = h('button', { type: 'button', class: 'btn btn-run', 'aria-label': L('runCell'), title: L('runCell'), 'data-testid': 'cell-run', onclick: () => hooks.onRun(this, { advance: false }) }, '▶ ', t(lang, 'run'));
    // As its label says, and as in the editor: Shift+Enter on the button runs and moves on.
    this.runBtn.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || !e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      hooks.onRun(this, { advance: true });
    });
    // The button hides itself once the cell is the author's again: focus goes on to the editor.
    this.resetBtn = h('button', { type: 'button', class: 'btn btn-reset', 'aria-label': L('resetCellLabel'), title: L('resetCellLabel'), 'data-testid': 'cell-reset', hidden: true, onclick: () => { hooks.onReset(this); this.focus(); } }, t(lang, 'resetCell'));
    // The state in words (not colour alone); not live: the notebook announces the result of a run once.
    this.statusEl = h('span', { class: 'cell-status', 'data-testid': 'cell-status' });
    this.notice = h('div', { class: 'cell-notice', hidden: true });
    this.editorHost = h('div', { class: 'cell-editor' });
    this.outputEl = h('div', { class: 'cell-output', 'data-testid': 'cell-output' });
    // How far a long tp call (a model's load, forward, generate) got: a bar that shows while it runs and
    // stays with where it ended (not an output: not saved or exported).
    this.progressEl = h('div', { class: 'cell-progress', 'data-testid': 'cell-progress', hidden: true });
    // A group, not a landmark: a chapter has dozens of cells, and the landmark list stays short.
    // Focusable itself: Esc in the editor leaves it for the cell (command mode: web/src/commands.js).
    this.el = h('div', { class: reader ? 'cell reader-cell' : 'cell', role: 'group', tabindex: '-1', 'data-testid': testid, 'data-cell-id': block.id, 'data-state': 'idle', 'data-reader': reader && tools ? 'true' : null, 'aria-label': L(reader ? 'readerCellLabel' : 'cellLabel'), id: `cell-${block.id}` },
      h('div', { class: 'cell-bar' }, this.countEl, this.runBtn, this.resetBtn, this.statusEl),
      this.notice, this.editorHost, this.progressEl, this.outputEl);
    // Numbered when drawn: a reader's cell inserted meanwhile may have renumbered this one (setNumber).
    if (tools) (later ?? ((f) => f()))(() => this.runBtn.parentNode.append(cellTools(lang, this.n, reader, (action) => hooks.onTool?.(this, action))));
    // A static copy of the code until the cell nears the viewport, is clicked or focused (web/src/lazy-editor.js).
    this.editor = new LazyEditor(this.editorHost, {
      doc: block.source,
      label: L('editorLabel'),
      onChange: (text) => {
        this.#syncEdited(text);
        hooks.onEdit(this, text);
      },
      onRun: (opts) => hooks.onRun(this, opts),
      onEscape: () => hooks.onEscape?.(this),
      complete: hooks.complete ?? null,
      later,
    });
  }

  /** Renumbers the cell (a reader's cell is "3a" after cell 3): its labels follow. */
  setNumber(n) {
    this.n = n;
    const L = (k) => t(this.lang, k, { n });
    this.el.setAttribute('aria-label', L(this.reader ? 'readerCellLabel' : 'cellLabel'));
    for (const [el, key] of [[this.runBtn, 'runCell'], [this.resetBtn, 'resetCellLabel']]) {
      el.setAttribute('aria-label', L(key));
      el.title = L(key);
    }
    for (const b of this.el.querySelectorAll('.cell-tool')) b.setAttribute('aria-label', L(b.dataset.label)), (b.title = b.getAttribute('aria-label'));
  }

  /** The CodeMirror view, made now if the cell still shows its static copy. */
  get view() {
    return this.editor.ensure();
  }

  get source() {
    return this.editor.text;
  }

  set source(text) {
    if (text !== this.source) this.editor.text = text;
    this.#syncEdited(text);
  }

  #syncEdited(text) {
    const edited = !this.reader && text !== this.author;
    this.resetBtn.hidden = !edited;
    this.el.classList.toggle('edited', edited);
  }

  focus() {
    this.editor.focus();
  }

  setState(state) {
    this.el.dataset.state = state;
    this.el.classList.remove('queued');
    this.statusEl.textContent = state === 'idle' ? '' : t(this.lang, `cell-${state}`);
  }

  setQueued() {
    this.el.classList.add('queued');
    this.statusEl.textContent = t(this.lang, 'queued');
  }

  clearOutput() {
    this.outputs = [];
    this.outputEl.replaceChildren();
    this.progressEl.hidden = true;
    this.progressEl.replaceChildren();
    delete this.progressEl.dataset.state;
    this.el.classList.remove('stale');
  }

  addOutput(o) {
    const last = this.outputs.at(-1);
    if (o.kind === 'stream' && last?.kind === 'stream' && last.name === o.name) {
      last.text += o.text;
      this.outputEl.lastChild.textContent = last.text;
      return;
    }
    this.outputs.push(o);
    this.outputEl.append(renderOutput(o, this.lang));
  }

  /** p: { op, value, max, layer?, layers?, tokens?, tensors?, totalTensors? } (MSG.PROGRESS): the bar and its words. */
  setProgress(p) {
    const el = this.progressEl;
    if (!el.firstChild) {
      el.append(h('progress', { 'aria-label': t(this.lang, 'progressLabel', { op: p.op }) }), h('span', { class: 'cell-progress-text', 'data-testid': 'cell-progress-text' }));
    }
    el.hidden = false;
    el.dataset.state = 'running';
    Object.assign(el.dataset, { op: p.op, value: p.value, max: p.max, layer: p.layer ?? '', layers: p.layers ?? '' });
    const bar = el.firstChild;
    bar.max = Math.max(1, p.max);
    bar.value = Math.min(p.value, p.max);
    el.lastChild.textContent = progressText(this.lang, p);
  }

  /** The run ended ('done' | 'error' | 'stopped'): the bar stays where it got to, said in words when stopped. */
  endProgress(state) {
    const el = this.progressEl;
    if (el.hidden) return;
    el.dataset.state = state;
    if (state === 'stopped') el.lastChild.textContent += ` — ${t(this.lang, 'progressStopped')}`;
  }

  /** error: { name, message, line, file } from the worker; shown with the line it points at. */
  showError(error) {
    this.outputs.push({ kind: 'error', error });
    const own = !error.file || error.file === `cell-${this.id}.js`;
    const where = error.line
      ? ` (${own ? t(this.lang, 'errorLine', { line: error.line }) : t(this.lang, 'errorInCell', { line: error.line, cell: error.file.replace(/^cell-|\.js$/g, '') })})`
      : '';
    this.outputEl.append(h('div', { class: 'cell-error', 'data-testid': 'cell-error' },
      h('strong', { text: `${error.name}: ` }), error.message, where));
  }

  /** A line under the error saying what to do about it. */
  showHint(text) {
    this.outputEl.append(h('div', { class: 'cell-hint', 'data-testid': 'cell-hint' }, text));
  }

  markRun() {
    this.everRun = true;
  }

  setCount(n) {
    this.count = n;
    this.countEl.textContent = n === null ? '[ ]' : `[${n}]`;
  }

  // The output came from a worker that has since restarted: said in words, not only by the dimming.
  markStale(why = 'restart') {
    this.el.classList.add('stale');
    this.statusEl.textContent = t(this.lang, why === 'saved' ? 'cell-saved' : 'cell-stale');
  }

  /** Shows the "author updated this cell" choice; choose(true) takes the author's version. */
  offerUpdate(choose) {
    this.offerChoice(t(this.lang, 'authorChanged'), [
      ['cell-take-update', t(this.lang, 'useAuthor'), () => choose(true)],
      ['cell-keep-edit', t(this.lang, 'keepMine'), () => choose(false)],
    ]);
  }

  /** A question above the editor with one button per [testid, label, action]. Any answer hides it, so
   *  focus moves on to the cell's editor. */
  offerChoice(text, choices) {
    const answer = (action) => { this.notice.hidden = true; action(); this.focus(); };
    this.notice.hidden = false;
    this.notice.replaceChildren(h('span', { text: text + ' ' }),
      ...choices.flatMap(([testid, label, action], i) => [i ? ' ' : null, h('button', { type: 'button', class: 'btn', 'data-testid': testid, onclick: () => answer(action) }, label)]).filter(Boolean));
  }
}

function progressText(lang, p) {
  const { op, value, max, layer, layers, tokens } = p;
  if (op === 'model.load') return t(lang, 'progressLoad', { op, size: bytesText(value), totalSize: bytesText(max), tensors: p.tensors, total: p.totalTensors });
  if (op === 'model.generate') {
    return value === 0 && layers !== undefined ? t(lang, 'progressPrefill', { op, layer, layers, tokens }) : t(lang, 'progressGenerate', { op, value, max, tokens });
  }
  return t(lang, 'progressForward', { op, layer, layers, tokens });
}

/**
 * The insert/move controls of a cell's bar: every cell can add a code or Markdown cell below it; a reader's
 * own cell can also move, be duplicated and be deleted. act(action): 'add-below' | 'add-md-below' | 'up' |
 * 'down' | 'duplicate' | 'delete'.
 */
export function cellTools(lang, n, reader, act) {
  const L = (k) => t(lang, k, { n });
  const tool = (testid, text, key, action) => h('button', { type: 'button', class: 'btn btn-small cell-tool', 'data-testid': testid, 'data-label': key, 'aria-label': L(key), title: L(key), onclick: () => act(action) }, text);
  return h('span', { class: 'cell-tools' },
    tool('add-cell-below', '+ ' + t(lang, 'codeShort'), 'addCodeBelow', 'add-below'),
    tool('add-md-below', '+ ' + t(lang, 'mdShort'), 'addMdBelow', 'add-md-below'),
    reader ? [
      tool('move-cell-up', '↑', 'moveUp', 'up'),
      tool('move-cell-down', '↓', 'moveDown', 'down'),
      tool('duplicate-cell', '⧉', 'duplicateCell', 'duplicate'),
      tool('delete-cell', '🗑', 'deleteCell', 'delete'),
    ] : null);
}
