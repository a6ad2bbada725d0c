// A code editor that starts as a static, highlighted copy of its text, drawn with CodeMirror's own classes so
// it has the editor's size and look, and becomes a CodeMirror editor as it nears the viewport, or at once when
// it is clicked (the caret or selection where the reader put it) or focused. A chapter of 80 editors opens
// without building 80 editors first.
import { highlightTree } from '@lezer/highlight';
import { javascriptLanguage } from '@codemirror/lang-javascript';
import { createEditor, highlightStyle } from './editor.js';
import { h } from './dom.js';
import { whenNearViewport, idleQueue } from './progressive.js';

// The class names of a real editor's outer element (CodeMirror's scoped theme classes): read once from an
// editor built and dropped, which also mounts the theme's and the highlighter's styles in the document.
let editorClass = null;
function shellClass() {
  if (editorClass === null) {
    const probe = createEditor(null, { complete: () => ({ items: [] }), onEscape: () => {} });
    editorClass = probe.dom.className.replace(/\bcm-focused\b/, '').trim();
    probe.destroy();
  }
  return editorClass;
}

/** The lines of `text` as CodeMirror draws them (.cm-line with highlighted spans; the first line is the active one). */
function staticLines(text, language, highlight) {
  // The text cut into [from, to, class] runs, in order, covering all of it (class null: plain).
  const runs = [];
  let pos = 0;
  if (highlight && language === 'js') {
    highlightTree(javascriptLanguage.parser.parse(text), highlightStyle, (from, to, cls) => {
      if (from > pos) runs.push([pos, from, null]);
      runs.push([from, to, cls]);
      pos = to;
    });
  }
  if (pos < text.length) runs.push([pos, text.length, null]);
  const lines = [[]];
  for (const [from, to, cls] of runs) {
    text.slice(from, to).split('\n').forEach((part, i) => {
      if (i) lines.push([]);
      if (part) lines.at(-1).push(cls ? h('span', { class: cls, text: part }) : part);
    });
  }
  return lines.map((parts, i) => h('div', { class: i === 0 ? 'cm-line cm-activeLine' : 'cm-line' }, ...(parts.length ? parts : [h('br')])));
}

export class LazyEditor {
  /** parent: where the editor goes; opts: createEditor's ({ doc, label, onChange, onRun, onEscape, language, complete }). */
  constructor(parent, opts) {
    this.opts = { language: 'js', ...opts };
    this.doc = this.opts.doc ?? '';
    this.view = null;
    this.parent = parent;
    this.#drawStatic();
  }

  // The static copy: plain lines at first (cheap for the dozens of editors of a chapter), highlighted as it
  // nears the viewport, where the editor is queued to replace it.
  #drawStatic() {
    const lines = staticLines(this.doc, this.opts.language, false);
    const gutter = h('div', { class: 'cm-gutters', 'aria-hidden': 'true' },
      h('div', { class: 'cm-gutter cm-lineNumbers' },
        ...lines.map((_, i) => h('div', { class: i === 0 ? 'cm-gutterElement cm-activeLineGutter' : 'cm-gutterElement', text: String(i + 1) }))));
    // Focusable and labelled as the editor is, so Tab reaches it in the same place and a screen reader
    // hears the same name; focusing it makes the editor.
    this.content = h('div', { class: 'cm-content', role: 'textbox', 'aria-multiline': 'true', 'aria-label': this.opts.label ?? 'Code', tabindex: '0', spellcheck: 'false', translate: 'no' }, ...lines);
    const shell = h('div', { class: `${shellClass()} cm-static`, 'data-static': 'true' },
      h('div', { class: 'cm-scroller' }, gutter, this.content));
    let pointing = false;
    // A press focuses the copy before its click says where: the click makes the editor, not the focus. Cleared
    // after the release's click (or a drag that ends elsewhere).
    shell.addEventListener('pointerdown', () => {
      pointing = true;
      addEventListener('pointerup', () => setTimeout(() => { pointing = false; }), { once: true, capture: true });
    });
    // A click (or a drag that selected text) makes the editor with that caret or selection.
    shell.addEventListener('click', (e) => {
      pointing = false;
      const sel = getSelection();
      let anchor = sel?.anchorNode && this.content.contains(sel.anchorNode) ? this.#offset(sel.anchorNode, sel.anchorOffset) : null;
      let head = anchor !== null && sel.focusNode ? this.#offset(sel.focusNode, sel.focusOffset) : null;
      if (anchor === null || head === null || (anchor === head && sel.isCollapsed)) {
        const r = document.caretRangeFromPoint?.(e.clientX, e.clientY);
        const at = r && this.content.contains(r.startContainer) ? this.#offset(r.startContainer, r.startOffset) : null;
        anchor = head = at ?? this.doc.length;
      }
      this.ensure({ anchor, head, focus: true });
    });
    this.content.addEventListener('focus', () => { if (!pointing) this.ensure({ focus: true }); });
    if (this.shell) this.shell.replaceWith(shell);
    else this.parent.append(shell);
    this.shell = shell;
    this.cancel?.();
    this.cancel = whenNearViewport(shell, () => {
      this.content.replaceChildren(...staticLines(this.doc, this.opts.language, true));
      idleQueue.add(() => this.ensure());
    });
  }

  /** The offset in the text of a DOM point inside the static lines, or null. */
  #offset(node, offset) {
    const el = node.nodeType === 1 ? node : node.parentElement;
    const line = el?.closest('.cm-line');
    if (!line || !this.content.contains(line)) return null;
    const r = document.createRange();
    r.setStart(line, 0);
    r.setEnd(node, offset);
    let pos = r.toString().length;
    for (let l = line.previousElementSibling; l; l = l.previousElementSibling) pos += l.textContent.length + 1;
    return Math.min(pos, this.doc.length);
  }

  get created() {
    return this.view !== null;
  }

  /** The editor, made now if it is not yet; with a selection and focus when asked. */
  ensure({ anchor, head, focus = false } = {}) {
    if (!this.view) {
      this.cancel();
      const hadFocus = this.shell.contains(document.activeElement);
      this.view = createEditor(null, { ...this.opts, doc: this.doc });
      this.shell.replaceWith(this.view.dom);
      this.shell = null;
      this.content = null;
      if (hadFocus) focus = true;
    }
    if (anchor !== undefined) this.view.dispatch({ selection: { anchor, head: head ?? anchor } });
    if (focus) this.view.focus();
    return this.view;
  }

  get text() {
    return this.view ? this.view.state.doc.toString() : this.doc;
  }

  set text(text) {
    if (this.view) {
      if (text !== this.view.state.doc.toString()) this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
      return;
    }
    if (text === this.doc) return;
    this.doc = text;
    this.#drawStatic();
    // Not the reader's typing, but the text changed: whoever listens is told, as the editor would.
    this.opts.onChange?.(text);
  }

  focus() {
    this.ensure({ focus: true });
  }
}
