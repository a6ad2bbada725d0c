// A Markdown cell of the reader's own: shown rendered (markdown-it, loaded the first time one renders;
// its HTML sanitised like every cell output), edited as plain text on double-click, Enter in command mode or
// its Edit button; Shift+Enter or Ctrl+Enter shows it rendered again.
import { h, sanitize } from './dom.js';
import { t } from './i18n.js';
import { loadEditor } from './lazy-editor.js';
import { cellTools } from './cell.js';

let markdown = null;
const loadMarkdown = () => (markdown ??= import('markdown-it').then(({ default: MarkdownIt }) => new MarkdownIt({ html: true, linkify: false })));

export class MarkdownCellView {
  /** block: { id, source }; hooks: { onEdit(cell, text), onEscape(cell), onTool(cell, action), onRun(cell, opts) } */
  constructor(block, n, lang, hooks) {
    this.id = block.id;
    this.kind = 'md';
    this.reader = true;
    this.lang = lang;
    this.hooks = hooks;
    this.text = block.source;
    this.view = null;
    this.rendered = h('div', { class: 'prose md-rendered', 'data-testid': 'md-rendered', ondblclick: () => this.edit() });
    this.editorHost = h('div', { class: 'cell-editor', hidden: true });
    this.editBtn = h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'md-edit', onclick: () => (this.editing ? this.finish() : this.edit()) }, t(lang, 'editMd'));
    this.el = h('div', { class: 'cell md-cell reader-cell', role: 'group', tabindex: '-1', 'data-testid': 'md-cell', 'data-reader': 'true', 'data-cell-id': block.id, 'aria-label': t(lang, 'mdCellLabel', { n }), id: `cell-${block.id}` },
      h('div', { class: 'cell-bar' }, this.editBtn, cellTools(lang, n, true, (action) => hooks.onTool?.(this, action))),
      this.editorHost, this.rendered);
    this.render();
  }

  setNumber(n) {
    this.n = n;
    this.el.setAttribute('aria-label', t(this.lang, 'mdCellLabel', { n }));
    for (const b of this.el.querySelectorAll('.cell-tool')) b.setAttribute('aria-label', t(this.lang, b.dataset.label, { n })), (b.title = b.getAttribute('aria-label'));
  }

  get editing() {
    return !this.editorHost.hidden;
  }

  get source() {
    return this.view ? this.view.state.doc.toString() : this.text;
  }

  set source(text) {
    this.text = text;
    if (this.view && text !== this.view.state.doc.toString()) this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
    if (!this.editing) this.render();
  }

  /** Shows the text in an editor (created the first time, once CodeMirror has loaded) and focuses it. */
  async edit() {
    const { createEditor } = await loadEditor();
    this.view ??= createEditor(this.editorHost, {
      doc: this.text,
      label: t(this.lang, 'mdEditorLabel'),
      language: 'none',
      onChange: (text) => { this.text = text; this.hooks.onEdit(this, text); },
      onRun: (opts) => { this.finish(); this.hooks.onRun?.(this, opts); },
      onEscape: () => { this.finish(); this.hooks.onEscape?.(this); },
    });
    this.editorHost.hidden = false;
    this.rendered.hidden = true;
    this.editBtn.textContent = t(this.lang, 'doneMd');
    this.view.focus();
  }

  /** Back to the rendered text. */
  finish() {
    this.editorHost.hidden = true;
    this.rendered.hidden = false;
    this.editBtn.textContent = t(this.lang, 'editMd');
    this.render();
  }

  async render() {
    const text = this.source;
    if (!text.trim()) {
      this.rendered.replaceChildren(h('p', { class: 'muted', text: t(this.lang, 'emptyMd') }));
      return;
    }
    const md = await loadMarkdown();
    if (text !== this.source) return; // changed while markdown-it loaded: a later render draws it
    this.rendered.replaceChildren(sanitize(md.render(text)));
  }

  focus() {
    if (this.editing) this.view.focus();
    else this.el.focus();
  }
}
