// A chapter on the page: renders its blocks, owns the kernel, runs cells in order, persists edits,
// hosts widgets and exercises, and implements the toolbar (run all, interrupt, restart, exports).
import { Kernel } from './kernel.js';
import { CellView } from './cell.js';
import { ChapterStore, hashSource, passed, loadKeepOutputs, saveKeepOutputs, markRan, clearRan } from './storage.js';
import { mountWidget } from './widgets.js';
import { WeightsPanel, weightsAnchor } from './weights.js';
import { LazyEditor, loadEditor } from './lazy-editor.js';
import { whenNearViewport, yieldToPage, SLICE_MS } from './progressive.js';
import { toIpynb, fromIpynb, chapterToMarkdown } from '../runtime/export.js';
import { h, download, trackStickyHeader } from './dom.js';
import { t } from './i18n.js';
import { themeMenu } from './theme.js';
import { Contents } from './contents.js';
import { declaresName } from './declares.js';
import { MarkdownCellView } from './md-cell.js';
import { blockKey, resolveAnchor, anchorsFor } from './anchors.js';
import { installCommandMode, showKeys } from './commands.js';

/** Starts the cell worker. The liveness ping's period: tests shorten it (globalThis.__TENSORPAD_HEARTBEAT_MS__, set before load). */
export function startKernel(workerUrl) {
  performance.mark?.('tensorpad:worker-started');
  return new Kernel({ url: workerUrl, heartbeatMs: globalThis.__TENSORPAD_HEARTBEAT_MS__ ?? 5000 });
}

export class Notebook {
  // kernel: a Kernel already started by the caller (see main.js), else one is started here.
  // focusId: the element the page opens at (the URL's #…): its part of the chapter is filled first.
  constructor(root, chapter, { lang, workerUrl, otherLangHref, kernel = null, focusId = null }) {
    this.root = root;
    this.chapter = chapter;
    this.lang = lang;
    this.cells = [];
    this.blockOf = new Map(); // a top-level block's element → the chapter block
    this.keys = new WeakMap(); // a top-level block's element → its key (#keyOf)
    this.cellOf = new WeakMap(); // a cell's element → its view (the author's cells and the reader's)
    this.readerViews = new Map(); // id → the view of a reader's own cell (code or Markdown)
    this.values = new Map();
    this.widgetWatchers = [];
    this.queue = Promise.resolve();
    this.epoch = 0;
    this.execCount = 0;
    this.dirtyNames = new Set();
    this.rerunPending = false;
    this.restoring = false;
    this.restartHooks = [];
    this.L = (k, v) => t(lang, k, v);
    // What rendering leaves for later (a block's text, an exercise), in page order: see #fill.
    this.fills = [];
    this.widgetMounts = [];
    // The exercises' statements and data come in a file of their own (web/build.mjs), fetched while the
    // first screen is drawn and put back into the chapter's blocks; an exercise is mounted once they are here.
    this.exercisesLoaded = !chapter.exercisesFile;
    this.exercisesReady = this.exercisesLoaded ? Promise.resolve() : this.#loadExercises();
    this.exercisesReady.catch(() => {}); // each exercise says so (#renderExercise)
    this.#render(otherLangHref);
    performance.mark?.('tensorpad:cells-rendered');
    this.store = new ChapterStore(chapter.id, (kind) => this.#storageNotice(kind), { onRemote: (changes) => this.#remoteChanged(changes) });
    this.contents?.refresh();
    // The liveness ping's period; tests shorten it (globalThis.__TENSORPAD_HEARTBEAT_MS__, set before load).
    this.kernel = kernel ?? startKernel(workerUrl);
    this.kernel.attach((s, msg) => this.#kernelStatus(s, msg));
    this.kernel.setLang(lang);
    this.#restoreEdits();
    this.#restoreReaderCells();
    this.#restoreOutputs();
    const scratch = this.store.cell(this.lang, SCRATCH_ID);
    if (scratch) {
      this.restoring = true;
      this.scratch.source = scratch.source;
      this.restoring = false;
      this.scratchEl.open = true;
    }
    // The first screen is filled now (before the page first paints), the rest in slices after.
    this.ready = this.#fill(focusId).catch((e) => console.error(e));
    this.ready.then(() => this.#layOutOnce());
    const flush = () => this.store.flush();
    addEventListener('pagehide', flush);
    addEventListener('beforeunload', flush);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
  }

  // ---- rendering -------------------------------------------------------------------------------

  #render(otherLangHref) {
    const L = this.L;
    const button = (testid, label, onclick, extra = {}) => h('button', { type: 'button', class: 'btn', 'data-testid': testid, onclick, ...extra }, label);
    // The engine's state, shown; what a screen reader hears is the one live status below (announce()).
    this.status = h('span', { class: 'kernel-status', 'data-testid': 'kernel-status' });
    this.announcer = h('p', { class: 'sr-only', role: 'status', 'data-testid': 'announcer' });
    this.interruptBtn = button('interrupt', L('interrupt'), () => this.interrupt(), { title: L('interrupt') });
    const toolbar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': L('toolbar') },
      button('run-all', `▶▶ ${L('runAll')}`, () => this.runAll()),
      this.interruptBtn,
      button('restart', L('restart'), () => this.restart()),
      button('export-ipynb', L('exportIpynb'), () => this.exportIpynb()),
      button('download-md', L('downloadMd'), () => this.downloadMarkdown()),
      button('reset-chapter', L('resetChapter'), () => this.resetChapter()),
      button('open-scratch', L('scratch'), () => { this.scratchEl.open = true; this.scratch.focus(); this.scratchEl.scrollIntoView({ block: 'nearest' }); }),
      h('label', { class: 'btn btn-file' }, L('openNotebook'),
        h('input', { type: 'file', class: 'sr-only', accept: '.ipynb,application/x-ipynb+json,application/json', 'data-testid': 'import-ipynb',
          onchange: (e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) this.importIpynb(f); } })),
      button('keys', L('keys'), () => showKeys(this.lang), { 'aria-keyshortcuts': '?' }),
      h('label', { class: 'btn toggle' }, h('input', { type: 'checkbox', 'data-testid': 'keep-outputs', checked: loadKeepOutputs(), onchange: (e) => this.#setKeepOutputs(e.target.checked) }), ' ', L('keepOutputs')),
      this.status);
    this.notices = h('div', { class: 'notices', 'aria-live': 'polite' });
    const header = h('header', { class: 'chapter-header' },
      h('nav', { class: 'topnav', 'aria-label': 'Tensorpad' },
        h('span', { class: 'topnav-start' }, h('a', { href: `./?lang=${this.lang}`, class: 'home-link' }, `← ${L('back')}`),
          // Where the contents are not beside the text (style.css), the sticky header reaches them from anywhere.
          this.chapter.toc?.length ? button('toc-open', L('contents'), () => this.contents.reveal(), { class: 'btn btn-small toc-open' }) : null),
        h('span', { class: 'topnav-end' }, themeMenu(this.lang),
          otherLangHref ? h('a', { href: otherLangHref, class: 'lang-switch', 'data-testid': 'lang-switch', hreflang: this.lang === 'zh' ? 'en' : 'zh', lang: this.lang === 'zh' ? 'en' : 'zh', title: L('otherLangLabel'), onclick: (e) => this.#switchLang(e, otherLangHref) }, L('otherLang')) : null)),
      h('h1', { text: this.chapter.title }),
      toolbar);
    const main = this.main = h('main', { id: 'main', class: 'chapter', tabindex: '-1' });
    // "Use your own model" sits before the first block that reads `weights` (or at the top).
    const anchor = weightsAnchor(this.chapter.blocks);
    // What the page adds (the panel's title, exercise titles) is a sub-heading of the section it lands
    // in: the block it precedes says which level that is (subLevel, from the chapter build).
    const panel = (level) => new WeightsPanel(this, { heading: `h${level}` });
    this.chapter.blocks.forEach((b, i) => {
      if (i === Math.max(0, anchor)) main.append((this.weights = panel(b.subLevel ?? 2)).el);
      this.renderingTop = i;
      const el = this.#renderBlock(b);
      el.id ||= `b${i}`;
      el.dataset.block = String(i);
      this.blockOf.set(el, b);
      main.append(el);
    });
    if (!this.weights) main.append((this.weights = panel(2)).el);
    // Before <main>, so that "Skip to content" skips them too.
    if (this.chapter.toc?.length) {
      const exercises = exerciseIds(this.chapter.blocks);
      this.contents = new Contents(this.chapter.toc, { L, exercises, passed: (id) => passed(this.store?.exercise(id)), later: (fn) => this.#later(fn) });
    }
    this.scratchEl = this.#renderScratch();
    this.root.replaceChildren(...[header, this.notices, this.announcer, this.contents?.el, main, this.scratchEl].filter(Boolean));
    trackStickyHeader(header);
    installCommandMode(main, {
      lang: this.lang,
      cellOf: (el) => this.cellOf.get(el),
      cellAction: (view, action) => this.cellAction(view, action),
      runCell: (view, opts) => (view.kind === 'md' ? this.#afterMarkdown(view, opts) : this.runCell(view, opts)),
      announce: (text) => this.announce(text),
    });
  }

  /**
   * Fills what rendering left empty, in slices: first the blocks of the first screen (from the block that
   * holds focusId, else the top) synchronously, so the page paints them; then the rest, in page order, with a
   * yield between slices. Marks tensorpad:first-screen and tensorpad:interactive (every block filled).
   */
  async #fill(focusId) {
    const fills = this.fills;
    this.fills = null;
    const start = Math.max(0, focusId ? blockHolding(this.chapter.blocks, focusId) : 0);
    const first = fills.filter((f) => f.top >= start);
    const topEl = (i) => this.main.querySelector(`:scope > [data-block="${i}"]`);
    const origin = first.length ? topEl(first[0].top).getBoundingClientRect().top : 0;
    for (const f of first) {
      if (topEl(f.top).getBoundingClientRect().top - origin > innerHeight) break;
      const r = f.run();
      f.done = true;
      if (r?.then) break; // a module still loading: the rest waits for the next slice
    }
    performance.mark?.('tensorpad:first-screen');
    // CodeMirror (a chunk of its own) loads while the rest is filled: the chapter is interactive once it has.
    const editors = yieldToPage().then(loadEditor);
    let rest = fills.filter((f) => !f.done);
    while (rest.length) {
      await yieldToPage();
      const t0 = performance.now();
      while (rest.length && performance.now() - t0 < SLICE_MS) {
        const r = rest.shift().run();
        if (r?.then) await r.catch(() => {});
      }
    }
    await editors.catch((e) => console.error(e));
    this.contents?.track();
    performance.mark?.('tensorpad:interactive');
    this.root.dataset.rendered = 'true';
    // The widgets still off screen, one a slice.
    const widgets = [];
    for (const mount of this.widgetMounts) {
      await yieldToPage();
      widgets.push(mount());
    }
    await Promise.all(widgets);
  }

  // The text and exercises are laid out only near the viewport (content-visibility in style.css), standing in
  // with an estimate before: each is laid out once, one a frame, so that the page's height, its scrollbar
  // and its end are where they will stay. Sets data-laid-out on the root when done.
  async #layOutOnce() {
    const blocks = [...this.main.querySelectorAll(':scope > .prose, :scope > .exercise')];
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // One a frame: a block of formulas can take a frame's budget on its own.
    for (const el of blocks) {
      el.classList.add('lay-out');
      await frame();
      el.classList.remove('lay-out');
    }
    this.root.dataset.laidOut = 'true';
  }

  /** Leaves fn to #fill, for the top-level block being rendered. */
  #later(fn) {
    if (this.fills) this.fills.push({ top: this.renderingTop, run: fn });
    else fn();
  }

  #renderBlock(b) {
    switch (b.type) {
      case 'md': {
        const el = h('div', { class: 'prose' });
        this.#later(() => { el.innerHTML = b.html; });
        return el;
      }
      case 'cell': {
        // Its controls and its code's copy are drawn by #fill: at once on the first screen, in a slice below.
        const cell = new CellView(b, this.cells.length + 1, this.lang, this.#cellHooks(), { later: (fn) => this.#later(fn) });
        cell.hash = hashSource(b.source);
        this.cells.push(cell);
        this.cellOf.set(cell.el, cell);
        return cell.el;
      }
      case 'details': {
        const d = h('details', { class: 'details' }, h('summary', { html: b.summaryHtml }));
        for (const c of b.children) d.append(this.#renderBlock(c));
        return d;
      }
      case 'widget': {
        const el = h('div', { class: 'widget', role: 'group', 'data-widget': b.name, 'data-testid': 'widget', 'aria-label': b.props.label ?? b.name });
        // Made as it nears the viewport (its module loads then too), else once the chapter is filled: cells
        // read the values widgets set, so every widget is mounted before a cell runs (#execute).
        let mounted = null;
        const mount = () => (mounted ??= mountWidget(el, { name: b.name, props: b.props, lang: this.lang, notebook: this }));
        const cancel = whenNearViewport(el, mount);
        this.widgetMounts.push(() => { cancel(); return mount(); });
        return el;
      }
      case 'exercise': return this.#renderExercise(b);
      default: return h('div');
    }
  }

  async #loadExercises() {
    const url = new URL(`chapters/${encodeURIComponent(this.chapter.id)}/${encodeURIComponent(this.chapter.exercisesFile)}`, document.baseURI);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
    const data = await res.json();
    const put = (blocks) => blocks.forEach((b) => (b.type === 'exercise' ? Object.assign(b, data[b.id]) : b.children && put(b.children)));
    put(this.chapter.blocks);
    this.exercisesLoaded = true;
  }

  #renderExercise(b) {
    // Unnamed, so not a landmark: its title is a heading one level below the section it sits in.
    const el = h('section', { class: 'exercise', 'data-testid': 'exercise', 'data-exercise-id': b.id });
    const level = b.subLevel ?? 2;
    // An exercise written in another language only: its text is shown in that language (b.textLang), said so.
    if (b.textLang) el.append(h('p', { class: 'muted', 'data-testid': 'exercise-lang', text: this.L('exerciseOnlyIn', { language: this.L(`lang-${b.textLang}`) }) }));
    const ctx = {
      id: b.id,
      lang: this.lang,
      textLang: b.textLang ?? this.lang,
      title: b.title,
      headingLevel: level,
      tpUrl: new URL('tp.js', document.baseURI).href,
      load: () => this.store.exercise(b.id),
      save: (value) => {
        const before = this.store.exercise(b.id)?.verdict;
        this.store.setExercise(b.id, value);
        if (value?.verdict !== before) this.contents?.refresh();
      },
      // A static copy of the code until it nears the viewport, is clicked or focused (web/src/lazy-editor.js).
      createEditor: (parent, opts) => {
        const editor = new LazyEditor(parent, opts);
        return { get view() { return editor.ensure(); }, getValue: () => editor.text, setValue: (text) => { editor.text = text; }, focus: () => editor.focus() };
      },
      assetUrl: (p) => new URL(p, document.baseURI).href,
      t: this.L,
    };
    // The judge's exercise block, loaded on first use: chapters without exercises never download it.
    this.#later(() => {
      const fail = (e) => el.append(h('p', { class: 'widget-error', role: 'alert', text: String(e.message) }));
      const mount = (m) => m.mountExercise(el, { ...ctx, statementHtml: b.statementHtml, exercise: b.exercise });
      if (exerciseModule && this.exercisesLoaded) {
        try { mount(exerciseModule); } catch (e) { fail(e); }
        return null;
      }
      exerciseImport ??= import('../judge/page/exercise.js').then((m) => (exerciseModule = m));
      return Promise.all([exerciseImport, this.exercisesReady]).then(([m]) => mount(m)).catch(fail);
    });
    return el;
  }

  #switchLang(event, href) {
    // Keep the reader's place: carry the top-most visible block to the other language's page.
    const blocks = [...this.root.querySelectorAll('main > [data-block]')];
    const headerBottom = this.root.querySelector('.chapter-header')?.getBoundingClientRect().bottom ?? 0;
    const top = blocks.find((el) => el.getBoundingClientRect().bottom > headerBottom + 8);
    this.store.flush();
    if (top) {
      event.preventDefault();
      location.assign(`${href}#${top.id}`);
    }
  }

  notice(text, { id, kind = 'info', actions = [], textAttrs = {} } = {}) {
    if (id) this.notices.querySelector(`[data-notice="${id}"]`)?.remove();
    const el = h('div', { class: `notice notice-${kind}`, role: kind === 'warning' ? 'alert' : 'status', 'data-notice': id ?? '', 'data-testid': 'notice' },
      h('span', { ...textAttrs, text }), ...actions,
      h('button', { type: 'button', class: 'btn btn-small', 'aria-label': this.L('dismiss'), onclick: () => el.remove() }, '×'));
    this.notices.append(el);
    return el;
  }

  #kernelStatus(state, msg) {
    this.kernelState = state;
    this.root.dataset.kernel = state;
    if (state === 'failed') {
      this.status.textContent = '⚠';
      this.notice(this.L('engineFailed', { msg }), { id: 'engine', kind: 'warning' });
    } else if (state === 'lost') {
      // The worker ended (its lock was released) or stopped answering pings: start a fresh one (the code and edits are kept).
      const running = this.running;
      this.running = null;
      this.#freshKernel(this.L('engineLost'), running);
    } else if (state === 'starting') this.status.textContent = this.L('starting');
    else if (state === 'ready') {
      performance.mark?.('tensorpad:engine-ready');
      if (!this.running) this.status.textContent = this.L('ready');
    }
  }

  #cellHooks() {
    return {
      onRun: (c, opts) => (c.kind === 'md' ? this.#afterMarkdown(c, opts) : this.runCell(c, opts)),
      onEdit: (c, text) => (c.reader ? this.#saveReaderCells() : this.#edited(c, text)),
      onReset: (c) => this.resetCell(c),
      onEscape: (c) => c.el.focus(),
      onTool: (c, action) => this.cellAction(c, action),
      complete: (path) => this.kernel?.complete(path) ?? [],
    };
  }

  // ---- the reader's own cells ------------------------------------------------------------------

  // The scratch panel: one code cell that belongs to no place in the chapter (marimo's scratchpad), for
  // quick checks. It runs in the same scope, is not part of Run all, and is saved like an edit.
  #renderScratch() {
    const hooks = {
      onRun: (c, opts) => this.runCell(c, { ...opts, advance: false, insert: false }),
      onEdit: (c, text) => this.restoring || (text ? this.store.setCell(this.lang, SCRATCH_ID, text, '') : this.store.clearCell(this.lang, SCRATCH_ID)),
      onEscape: (c) => c.el.focus(),
      complete: (path) => this.kernel?.complete(path) ?? [],
    };
    this.scratch = new CellView({ id: 'scratch', source: '' }, this.L('scratchShort'), this.lang, hooks, { reader: true, tools: false, testid: 'scratch-cell' });
    this.scratch.el.setAttribute('aria-label', this.L('scratch'));
    const panel = h('details', { class: 'scratch', 'data-testid': 'scratch' },
      h('summary', { text: this.L('scratch') }),
      h('p', { class: 'muted scratch-note', text: this.L('scratchNote') }),
      this.scratch.el);
    return panel;
  }

  /** The reader's cells and the author's blocks, in page order (top-level blocks of the chapter). */
  #items() {
    return [...this.main.children].filter((el) => this.blockOf.has(el) || el.dataset.reader === 'true');
  }

  /** An author block's key (anchors.js), computed when a reader's cell is first placed or saved: it hashes the block's text. */
  #keyOf(el) {
    let key = this.keys.get(el);
    if (key === undefined) this.keys.set(el, (key = blockKey(this.blockOf.get(el))));
    return key;
  }

  #newReaderView({ id, type, source }) {
    const view = type === 'md'
      ? new MarkdownCellView({ id, source }, '', this.lang, this.#cellHooks())
      : new CellView({ id, source }, '', this.lang, this.#cellHooks(), { reader: true });
    this.readerViews.set(id, view);
    this.cellOf.set(view.el, view);
    return view;
  }

  #restoreReaderCells() {
    const list = this.store.readerCells(this.lang);
    const items = list.length ? this.#items() : [];
    const keys = items.map((el) => (el.dataset.reader === 'true' ? undefined : this.#keyOf(el)));
    const last = new Map(); // anchor index → the element placed last after it
    for (const entry of list) {
      if (this.readerViews.has(entry.id)) continue;
      const view = this.#newReaderView(entry);
      const i = resolveAnchor(entry.anchor, keys);
      const after = last.get(i) ?? (i < 0 ? null : items[i]);
      if (after) after.after(view.el);
      else this.main.prepend(view.el);
      last.set(i, view.el);
    }
    this.#cellsChanged();
    this.#offerFirstCell();
  }

  // A chapter with no cell at all (the scratch chapter, empty) offers to add one.
  #offerFirstCell() {
    this.firstCellBtn?.remove();
    this.firstCellBtn = null;
    if (this.main.querySelector('[data-testid=cell], [data-testid=md-cell]')) return;
    this.firstCellBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'add-first-cell', onclick: () => {
      const view = this.#newReaderView({ id: `r${Date.now().toString(36)}`, type: 'code', source: '' });
      this.main.append(view.el);
      this.#saveReaderCells();
      this.#offerFirstCell();
      view.focus();
    } }, `+ ${this.L('codeShort')}`);
    this.main.append(this.firstCellBtn);
  }

  // Another tab added, moved or removed reader cells: this tab shows its list.
  #reloadReaderCells() {
    for (const view of this.readerViews.values()) view.el.remove();
    this.readerViews.clear();
    this.#restoreReaderCells();
  }

  /** The code cells in page order (Run all, "cells above", Shift+Enter), and the reader cells' numbers. */
  #cellsChanged() {
    this.cells = [...this.main.querySelectorAll('[data-testid=cell]')].map((el) => this.cellOf.get(el)).filter(Boolean);
    let author = 0;
    let extra = 0;
    for (const el of this.main.querySelectorAll('[data-testid=cell], [data-testid=md-cell]')) {
      const view = this.cellOf.get(el);
      if (!view) continue;
      if (!view.reader) { author = view.n; extra = 0; continue; }
      // "3a", "3b", … after cell 3: a reader's cells do not renumber the author's.
      view.setNumber(`${author || ''}${String.fromCharCode(97 + Math.min(25, extra++))}`);
    }
  }

  #saveReaderCells() {
    const items = this.#items().map((el) => (el.dataset.reader === 'true' ? { reader: this.cellOf.get(el) } : { key: this.#keyOf(el) }));
    const list = anchorsFor(items).map(({ item, anchor }) => ({ id: item.reader.id, type: item.reader.kind === 'md' ? 'md' : 'code', source: item.reader.source, anchor }));
    this.store.setReaderCells(this.lang, list);
    this.#cellsChanged();
  }

  /** The top-level element a cell belongs to (a cell inside :::details belongs to the details block). */
  #topOf(cell) {
    let el = cell.el;
    while (el.parentElement && el.parentElement !== this.main) el = el.parentElement;
    return el;
  }

  /** Adds a reader's cell above or below `cell` (type 'code' or 'md'); focuses its editor. */
  insertCell(cell, { where = 'below', type = 'code', source = '', edit = true } = {}) {
    const id = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const view = this.#newReaderView({ id, type, source });
    const ref = this.#topOf(cell);
    if (where === 'above') ref.before(view.el);
    else ref.after(view.el);
    this.#saveReaderCells();
    if (edit) {
      if (view.kind === 'md') view.edit();
      else view.focus();
    }
    return view;
  }

  deleteCell(cell) {
    if (!cell.reader) return;
    const items = this.#items();
    const i = items.indexOf(cell.el);
    const next = items.slice(i + 1).concat(items.slice(0, i).reverse()).find((el) => this.cellOf.get(el) || el.querySelector('[data-testid=cell]'));
    cell.el.remove();
    this.readerViews.delete(cell.id);
    this.#saveReaderCells();
    (this.cellOf.get(next) ?? this.cellOf.get(next?.querySelector('[data-testid=cell]')))?.el.focus();
    this.announce(this.L('cellDeleted'));
    this.#offerFirstCell();
  }

  moveCell(cell, step) {
    if (!cell.reader) return;
    const items = this.#items();
    const i = items.indexOf(cell.el);
    const other = items[i + step];
    if (!other) return;
    if (step < 0) other.before(cell.el);
    else other.after(cell.el);
    this.#saveReaderCells();
    cell.el.focus();
    cell.el.scrollIntoView({ block: 'nearest' });
  }

  /** A toolbar button or command key on a cell: 'add-below' | 'add-above' | 'add-md-below' | 'up' | 'down' | 'duplicate' | 'delete' | 'to-md' | 'to-code'. */
  cellAction(cell, action) {
    switch (action) {
      case 'add-below': return this.insertCell(cell);
      case 'add-above': return this.insertCell(cell, { where: 'above' });
      case 'add-md-below': return this.insertCell(cell, { type: 'md' });
      case 'up': return this.moveCell(cell, -1);
      case 'down': return this.moveCell(cell, 1);
      case 'duplicate': return cell.reader && this.insertCell(cell, { type: cell.kind === 'md' ? 'md' : 'code', source: cell.source, edit: false });
      case 'delete': return this.deleteCell(cell);
      case 'to-md': case 'to-code': {
        const type = action === 'to-md' ? 'md' : 'code';
        if (!cell.reader || (cell.kind === 'md') === (type === 'md')) return;
        const view = this.#newReaderView({ id: cell.id, type, source: cell.source });
        cell.el.replaceWith(view.el);
        this.#saveReaderCells();
        view.el.focus();
        return view;
      }
    }
  }

  // Shift+Enter on a Markdown cell shows it rendered and moves on, as a code cell runs and moves on.
  #afterMarkdown(cell, { advance = false, insert = false } = {}) {
    if (insert) return this.insertCell(cell);
    if (!advance) return cell.el.focus();
    const items = [...this.main.querySelectorAll('[data-testid=cell], [data-testid=md-cell]')];
    const next = this.cellOf.get(items[items.indexOf(cell.el) + 1]);
    (next ?? cell).el.focus();
  }

  // ---- persistence -----------------------------------------------------------------------------

  // The last run's outputs come back after a reload, marked as from an earlier visit until the cell runs.
  #restoreOutputs() {
    if (!loadKeepOutputs()) return;
    const saved = this.store.outputs(this.lang);
    for (const cell of this.cells) {
      const list = saved[cell.id];
      if (!list?.length) continue;
      for (const o of list) {
        try {
          if (o.kind === 'error') cell.showError(o.error ?? {});
          else cell.addOutput(o);
        } catch { /* an output this build cannot draw is left out */ }
      }
      cell.markStale('saved');
    }
  }

  #setKeepOutputs(keep) {
    saveKeepOutputs(keep);
    // Turned off: what was kept goes too.
    if (!keep) for (const id of Object.keys(this.store.outputs(this.lang))) this.store.setOutputs(this.lang, id, undefined);
  }

  #keepOutputs(cell) {
    if (!loadKeepOutputs() || !cell.outputs || cell === this.scratch) return;
    this.store.setOutputs(this.lang, cell.id, keptOutputs(cell.outputs));
  }

  #storageNotice(kind) {
    const key = { unavailable: 'storageUnavailable', corrupt: 'storageCorrupt', blocked: 'storageBlocked', newer: 'storageNewer', full: 'storageFull' }[kind];
    const actions = [];
    if (kind === 'blocked') {
      // The reader keeps the unreadable text as a file, or lets it go: either way saving resumes.
      const close = (e) => e.target.closest('.notice').remove();
      actions.push(
        h('button', { type: 'button', class: 'btn', 'data-testid': 'storage-download', onclick: (e) => { close(e); download(`${this.chapter.id}.unreadable.json`, this.store.saveUnreadable(), 'application/json'); } }, this.L('storageDownload')),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'storage-discard', onclick: (e) => { close(e); this.store.discardUnreadable(); } }, this.L('storageDiscard')));
    }
    this.notice(this.L(key), { id: `storage-${kind}`, kind: 'warning', actions });
  }

  // Another tab of this chapter saved: its cells are shown here too, except in a cell this tab's reader is
  // editing (focused, or with an edit not yet written), which gets a choice instead of losing either text.
  #remoteChanged({ cells, exercises, reader = [] }) {
    for (const { lang, id, value, conflict } of cells) {
      const cell = lang === this.lang && this.cells.find((c) => c.id === id);
      if (!cell) continue;
      const theirs = value?.source ?? cell.author;
      if (theirs === cell.source) continue;
      if (conflict || cell.el.contains(document.activeElement)) {
        cell.offerChoice(this.L('otherTabChanged'), [
          ['cell-use-other-tab', this.L('useOtherTab'), () => this.#showSaved(cell, theirs)],
          ['cell-keep-this-tab', this.L('keepThisTab'), () => this.#edited(cell, cell.source, { force: true })],
        ]);
      } else {
        this.#showSaved(cell, theirs);
      }
    }
    if (exercises.length) this.contents?.refresh();
    if (reader.includes(this.lang)) this.#reloadReaderCells();
  }

  /** Puts text in a cell's editor without saving it again (it is what is stored). */
  #showSaved(cell, text) {
    this.restoring = true;
    cell.source = text;
    this.restoring = false;
  }

  #restoreEdits() {
    const saved = this.store.allCells(this.lang);
    const ids = new Set(this.cells.map((c) => c.id));
    this.restoring = true;
    for (const cell of this.cells) {
      let s = saved[cell.id];
      if (!s) {
        // The author may have moved the cell: find an edit made from exactly this source under an old id.
        const moved = Object.entries(saved).find(([id, e]) => !ids.has(id) && e.base === cell.hash);
        if (moved) { s = moved[1]; this.store.setCell(this.lang, cell.id, s.source, s.base); }
      }
      if (!s) continue;
      cell.source = s.source;
      if (s.base !== cell.hash) {
        cell.offerUpdate((takeAuthor) => {
          if (takeAuthor) this.resetCell(cell);
          else this.store.setCell(this.lang, cell.id, cell.source, cell.hash);
        });
      }
    }
    this.restoring = false;
  }

  #edited(cell, text, { force = false } = {}) {
    if (this.restoring && !force) return;
    if (text === cell.author) this.store.clearCell(this.lang, cell.id);
    else this.store.setCell(this.lang, cell.id, text, cell.hash);
  }

  resetCell(cell) {
    this.restoring = true;
    cell.source = cell.author;
    this.restoring = false;
    cell.notice.hidden = true;
    this.store.clearCell(this.lang, cell.id);
  }

  resetChapter() {
    const added = this.readerViews.size;
    if (!confirm(this.L('resetChapterConfirm') + (added ? ' ' + this.L(added === 1 ? 'resetRemovesOne' : 'resetRemovesCells', { n: added }) : ''))) return;
    this.store.clearChapter();
    clearRan(this.chapter.id);
    // Exercise blocks keep their attempt in memory and would save it again: the page starts afresh.
    location.reload();
  }

  // ---- running ---------------------------------------------------------------------------------

  #schedule(task) {
    const epoch = this.epoch;
    const p = this.queue.then(() => (epoch === this.epoch ? task() : { skipped: true }));
    this.queue = p.catch(() => {});
    return p;
  }

  async #execute(cell) {
    // Cells may read what widgets set: every widget is mounted first (at once after the chapter has opened).
    await this.ready;
    const source = cell.source;
    cell.clearOutput();
    cell.setState('running');
    this.running = cell;
    this.status.textContent = this.L('running', { n: cell.n });
    const r = await this.kernel.run(cell.id, source, (o) => cell.addOutput(o), (p) => cell.setProgress(p));
    cell.endProgress(r.interrupted ? 'stopped' : r.error ? 'error' : 'done');
    if (this.running === cell) {
      this.running = null;
      this.status.textContent = this.kernelState === 'ready' ? this.L('ready') : this.status.textContent;
    }
    if (r.interrupted) {
      if (cell.el.dataset.state === 'running') this.#markInterrupted(cell, { kept: r.kept });
      this.#keepOutputs(cell);
      return r;
    }
    cell.setCount(++this.execCount);
    cell.markRun();
    this.#keepOutputs(cell);
    cell.reads = r.reads ?? [];
    if (r.error) {
      cell.showError(r.error);
      cell.setState('error');
      this.#keepOutputs(cell);
      this.#explainError(cell, r.error);
      // A WASM abort leaves the engine unusable until a restart; say so and offer it.
      if (/^Aborted\(|RuntimeError: (unreachable|memory access out of bounds)/.test(`${r.error.name}: ${r.error.message}`) || /^Aborted\(/.test(r.error.message)) {
        this.#offerRestart('engineCrashed', 'crash');
      }
      return r;
    }
    cell.setState('done');
    if (!cell.reader) markRan(this.chapter.id, cell.id);
    this.#notifyWatchers(r.declared ?? []);
    return r;
  }

  // What a reader can do about two errors whose message alone does not say: a name another cell defines
  // (that cell has not run since the scope was emptied, or runs later), and a full heap (a Restart frees
  // every tensor; the garbage collector frees dropped ones only some time after the cell returns).
  #explainError(cell, error) {
    // "x is not defined" (V8, Firefox), "Can't find variable: x" (Safari).
    const missing = error.name === 'ReferenceError' &&
      /^(?:([\p{L}_$][\p{L}\p{N}_$]*) is not defined|Can't find variable: ([\p{L}_$][\p{L}\p{N}_$]*))$/u.exec(error.message)?.slice(1).find(Boolean);
    const definer = missing && this.cells.find((c) => c !== cell && declaresName(c.source, missing));
    if (definer) cell.showHint(this.L('definedIn', { name: missing, n: definer.n }));
    if (/ live tensors hold /.test(error.message)) {
      this.#offerRestart('outOfMemory', 'memory');
    }
  }

  /** A warning (the i18n key `message`) with a Restart button, which also closes it. */
  #offerRestart(message, id) {
    const button = h('button', { type: 'button', class: 'btn', onclick: (e) => { e.target.closest('.notice').remove(); this.restart(); } }, this.L('restart'));
    this.notice(this.L(message), { id, kind: 'warning', actions: [button] });
  }

  #notifyWatchers(names) {
    this.widgetWatchers = this.widgetWatchers.filter((w) => !w.signal.aborted);
    const wanted = names.filter((n) => this.widgetWatchers.some((w) => w.watchers.has(n)));
    if (!wanted.length) return;
    this.kernel.get(wanted).then((values) => {
      for (const w of this.widgetWatchers) for (const n of wanted) for (const cb of w.watchers.get(n) ?? []) cb(values[n]);
    }, () => {});
  }

  /** Says `text` once through the page's one live status (screen readers read it when idle). */
  announce(text) {
    this.announcer.textContent = text;
  }

  /** "Cell 3 done." / "Cell 3: TypeError: …" / "Cell 3 interrupted." for the result r of running cell. */
  #resultText(cell, r) {
    if (r.error) return this.L('cellFailed', { n: cell.n, error: `${r.error.name}: ${r.error.message}` });
    return this.L(r.interrupted ? 'cellInterrupted' : 'cellDone', { n: cell.n });
  }

  /** Runs one cell (queued behind any running one); advance moves focus to the next cell. */
  runCell(cell, { advance = false, insert = false } = {}) {
    if (insert) this.insertCell(cell);
    else if (advance) {
      const next = this.cells[this.cells.indexOf(cell) + 1];
      if (next) { next.focus(); next.el.scrollIntoView({ block: 'nearest' }); }
    }
    cell.setQueued();
    return this.#schedule(() => this.#execute(cell)).then((r) => {
      if (!r.skipped) this.announce(this.#resultText(cell, r));
      return r;
    });
  }

  /** Runs cells in order, stopping at the first error or interrupt; announces one summary at the end. */
  runCells(cells) {
    for (const c of cells) c.setQueued();
    return this.#schedule(async () => {
      for (let i = 0; i < cells.length; i++) {
        const r = await this.#execute(cells[i]);
        if (r.error || r.interrupted) {
          for (const rest of cells.slice(i + 1)) rest.setState(rest.el.dataset.state);
          // Said in the status line too, so a reader who scrolled away sees why the rest did not run.
          const left = cells.length - i - 1;
          if (r.error && !this.running) {
            this.status.textContent = this.L('cellsStoppedShort', { cell: cells[i].n }) +
              (left === 0 ? '' : left === 1 ? this.L('oneCellNotRun') : this.L('cellsNotRun', { left }));
          }
          this.announce(r.error
            ? this.L('cellsStopped', { cell: cells[i].n, error: `${r.error.name}: ${r.error.message}` })
            : this.#resultText(cells[i], r));
          return r;
        }
      }
      this.announce(this.L('cellsDone', { n: cells.length }));
      return {};
    });
  }

  runAll() {
    return this.runCells(this.cells);
  }

  /** Writes a named value (from a widget) into the scope and re-runs the cells that read it. */
  setValue(name, value, { rerun = true } = {}) {
    this.values.set(name, value);
    this.kernel.set(name, value);
    if (rerun) this.#rerunReaders(name);
  }

  /**
   * A name was changed in the worker's scope by something other than a cell (the weights panel binds
   * tensors there): re-runs the cells that read it and tells the widgets watching it, with `summary`
   * as the value (e.g. tensors as { shape } only, since they may be large).
   */
  changed(name, summary) {
    this.#rerunReaders(name);
    this.widgetWatchers = this.widgetWatchers.filter((w) => !w.signal.aborted);
    for (const w of this.widgetWatchers) for (const cb of w.watchers.get(name) ?? []) cb(summary);
  }

  /** cb() runs right after each Interrupt/Restart has started a fresh worker (before anything else is sent). */
  onRestart(cb) {
    this.restartHooks.push(cb);
  }

  #rerunReaders(name) {
    this.dirtyNames.add(name);
    if (this.rerunPending) return;
    this.rerunPending = true;
    this.#schedule(async () => {
      this.rerunPending = false;
      const names = this.dirtyNames;
      this.dirtyNames = new Set();
      const readers = this.cells.filter((c) => c.everRun && c.reads?.some((n) => names.has(n)));
      for (const c of readers) {
        const r = await this.#execute(c);
        // A re-run the reader did not ask for is announced only when it fails.
        if (r.error) this.announce(this.#resultText(c, r));
        if (r.error || r.interrupted) break;
      }
    });
  }

  #markInterrupted(cell, { kept = false } = {}) {
    // Shown as "<name>: <message>": the message must not repeat the name, as the notice's text does.
    cell.showError({ name: this.L('interruptedCell'), message: this.L(kept ? 'interruptedCellKept' : 'interruptedCellMessage') });
    cell.setState('error');
  }

  /** The notice after an Interrupt, saying whether the variables survived (data-state-kept, for tests too). */
  #interruptNotice(message, kept, actions = []) {
    this.notice(message, { id: 'kernel', kind: 'info', actions, textAttrs: { 'data-testid': 'interrupt-notice', 'data-state-kept': String(kept) } });
  }

  #freshKernel(message, offerFrom, { interrupt = false } = {}) {
    if (offerFrom) this.#markInterrupted(offerFrom);
    this.epoch++;
    this.queue = Promise.resolve();
    this.rerunPending = false;
    this.kernel.restart();
    for (const [n, v] of this.values) this.kernel.set(n, v);
    for (const cb of this.restartHooks) {
      try { cb(); } catch (e) { console.warn(e); }
    }
    for (const c of this.cells) {
      c.setState(c === offerFrom ? 'error' : (c.el.dataset.state === 'running' ? 'error' : c.el.dataset.state));
      if (c !== offerFrom && c.everRun) {
        c.everRun = false;
        if (c.el.dataset.state === 'done') c.setState('idle');
        c.markStale();
      }
    }
    this.execCount = 0;
    // What a full heap or a crash asked for has been done: their notices go.
    for (const id of ['memory', 'crash']) this.notices.querySelector(`[data-notice="${id}"]`)?.remove();
    const stop = offerFrom ? this.cells.indexOf(offerFrom) : this.cells.length;
    const above = this.cells.slice(0, stop).filter((c) => c.el.classList.contains('stale'));
    // "Re-run the cells above" sits where the reader is: under the interrupted cell's message, else in the notice.
    const rerun = above.length
      ? h('button', { type: 'button', class: 'btn', 'data-testid': 'rerun-above', onclick: (e) => { e.target.closest('.notice, .cell-rerun')?.remove(); this.runCells(above); } }, this.L('rerunAbove', { n: above.length }))
      : null;
    if (offerFrom && rerun) offerFrom.outputEl.append(h('div', { class: 'cell-rerun' }, rerun));
    const actions = !offerFrom && rerun ? [rerun] : [];
    if (interrupt) this.#interruptNotice(message, false, actions);
    else this.notice(message, { id: 'kernel', kind: 'info', actions });
  }

  /**
   * Stops whatever runs now. In a crossOriginIsolated page the cell stops at its next loop iteration or
   * await (a model's forward: after its current layer) and the variables stay; otherwise, or when it has
   * not stopped within 2 s (one long call into the core; a layer: kernel.stopWaitMs), the worker is terminated and a fresh one started, and the notice says the variables were lost.
   */
  async interrupt() {
    if (!this.running && !this.kernel.busy && this.kernel.requests.size === 0 && this.kernelState !== 'starting') {
      this.status.textContent = this.L('nothingRunning');
      this.announce(this.L('nothingRunning'));
      return;
    }
    const running = this.running;
    if (this.kernel.flag && this.kernel.runs.size > 0) {
      // Stop the cell in place: queued cells do not start, the worker and every variable stay.
      this.epoch++;
      const waitMs = this.kernel.stopWaitMs(2000);
      // Inside a model's layer: it stops when the layer ends (said, since that can take seconds).
      this.status.textContent = waitMs > 2000 ? this.L('interruptingStep') : this.L('interrupting');
      const t0 = performance.now();
      const stopped = await this.kernel.stopRunning(2000);
      if (stopped === 'restarted') return;  // the reader pressed Restart meanwhile: its notice says what happened
      if (stopped) {
        this.lastInterruptMs = performance.now() - t0;
        for (const c of this.cells) if (c.el.classList.contains('queued')) c.setState(c.el.dataset.state);
        this.status.textContent = this.L('ready');
        this.#interruptNotice(this.L('interruptedKept'), true);
        return;
      }
      // Stuck inside one long call into the core: the fallback, said as such.
      const stuck = this.running ?? running;
      this.running = null;
      this.#freshKernel(this.L('interruptedStuck', { s: Math.round(this.kernel.stopWaitMs(2000) / 1000) }), stuck, { interrupt: true });
      return;
    }
    this.running = null;
    this.#freshKernel(this.L('interrupted'), running, { interrupt: true });
  }

  restart() {
    this.running = null;
    this.#freshKernel(this.L('restarted'), null);
  }

  // ---- exports ---------------------------------------------------------------------------------

  #sources() {
    return Object.fromEntries(this.cells.map((c) => [c.id, c.source]));
  }

  ipynb() {
    // The reader's cells, each after the author block above it (or at the top).
    const reader = { top: [], after: new Map() };
    let block = null;
    for (const el of this.#items()) {
      if (el.dataset.reader !== 'true') { block = this.blockOf.get(el); continue; }
      const v = this.cellOf.get(el);
      const entry = { id: v.id, type: v.kind === 'md' ? 'md' : 'code', source: v.source, outputs: v.outputs ?? [], count: v.count ?? null };
      if (!block) reader.top.push(entry);
      else reader.after.set(block, [...(reader.after.get(block) ?? []), entry]);
    }
    const exercises = {};
    for (const id of exerciseIds(this.chapter.blocks)) {
      const code = this.store.exercise(id)?.code;
      if (typeof code === 'string') exercises[id] = code;
    }
    const authorCells = this.cells.filter((c) => !c.reader);
    return toIpynb(this.chapter, {
      sources: this.#sources(),
      outputs: Object.fromEntries(authorCells.map((c) => [c.id, c.outputs])),
      counts: Object.fromEntries(authorCells.map((c) => [c.id, c.count])),
      reader,
      exercises,
      version: hashSource(JSON.stringify(this.chapter.blocks)),
    });
  }

  /** Opens an .ipynb file (ours, or any nbformat 4 JavaScript notebook) as the reader's cells of the scratch chapter. */
  async importIpynb(file) {
    let parsed;
    try {
      parsed = fromIpynb(await file.text());
    } catch (e) {
      this.notice(e.reason === 'python' ? this.L('importPython', { file: file.name }) : this.L('importFailed', { file: file.name, msg: e.message }), { id: 'import', kind: 'warning' });
      return null;
    }
    const target = this.chapter.id === SCRATCH_CHAPTER ? this.store : new ChapterStore(SCRATCH_CHAPTER);
    const stamp = Date.now().toString(36);
    const added = parsed.cells.map((c, i) => ({ id: `r${stamp}${i.toString(36)}`, type: c.type, source: c.source, anchor: 'top' }));
    target.setReaderCells(this.lang, [...target.readerCells(this.lang), ...added]);
    if (!target.flush()) {
      this.notice(this.L('importFailed', { file: file.name, msg: this.L('storageFull') }), { id: 'import', kind: 'warning' });
      return null;
    }
    if (this.chapter.id === SCRATCH_CHAPTER) this.#reloadReaderCells();
    else location.assign(`./?chapter=${SCRATCH_CHAPTER}&lang=${this.lang}`);
    return added.length;
  }

  async exportIpynb() {
    await this.exercisesReady.catch(() => {});
    download(`${this.chapter.id}.${this.lang}.ipynb`, JSON.stringify(this.ipynb(), null, 1), 'application/x-ipynb+json');
  }

  async downloadMarkdown() {
    await this.exercisesReady.catch(() => {});
    download(`${this.chapter.id}.${this.lang}.md`, chapterToMarkdown(this.chapter, this.#sources()), 'text/markdown');
  }
}

// What is kept of a cell's outputs: text clipped, tables to their first rows, plots as their (small) spec,
// at most ~40,000 characters a cell, so one cell cannot fill the chapter's storage.
function keptOutputs(outputs) {
  const clip = (s, n) => (typeof s === 'string' && s.length > n ? `${s.slice(0, n)}\n…` : s);
  const out = [];
  let size = 0;
  for (const o of outputs) {
    let k;
    switch (o.kind) {
      case 'stream': case 'text': case 'tensor': k = { ...o, text: clip(o.text, 10000) }; break;
      case 'html': k = { kind: 'html', html: clip(o.html, 10000) }; break;
      case 'table': k = { ...o, rows: o.rows.slice(0, 50) }; break;
      case 'plot': k = JSON.stringify(o.spec).length <= 30000 ? { kind: 'plot', spec: o.spec } : null; break;
      case 'error': k = { kind: 'error', error: o.error }; break;
      default: k = null;
    }
    if (!k) continue;
    size += JSON.stringify(k).length;
    if (size > 40000) break;
    out.push(k);
  }
  return out;
}

/** The scratch cell's entry among the saved cells (no author cell has an id with '#'). */
const SCRATCH_ID = '#scratch';
/** The chapter that opened notebooks land in: no author blocks, only the reader's cells (main.js). */
export const SCRATCH_CHAPTER = 'scratch';

// The judge's page module, once loaded (exerciseImport while it loads).
let exerciseModule = null;
let exerciseImport = null;

/** The index of the top-level block that holds the element with this id ("b12" is block 12), or -1. */
function blockHolding(blocks, id) {
  const block = /^b(\d+)$/.exec(id);
  if (block) return Number(block[1]);
  const attr = `id="${id}"`;
  const holds = (b) => [b.html, b.summaryHtml, b.statementHtml].some((s) => s?.includes(attr)) || (b.children ?? []).some(holds);
  return blocks.findIndex(holds);
}

/** The ids of a chapter's exercises, in order, those inside :::details included. */
function exerciseIds(blocks) {
  return blocks.flatMap((b) => (b.type === 'exercise' ? [b.id] : b.type === 'details' ? exerciseIds(b.children) : []));
}
