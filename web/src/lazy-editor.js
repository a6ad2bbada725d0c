// A code editor that starts as a static, highlighted copy of its text, drawn with CodeMirror's own classes so
// it has the editor's size and look, and becomes a CodeMirror editor as it nears the viewport, or at once when
// it is clicked (the caret or selection where the reader put it) or focused. A chapter of 80 editors opens
// without building 80 editors first.
import { h } from './dom.js';
import { whenNearViewport, idleQueue, yieldToPage } from './progressive.js';

// CodeMirror (web/src/editor.js, most of the page's script) is a chunk of its own, loaded once the first
// screen is drawn (see notebook.js #fill) or when an editor is wanted: until then a static copy is drawn
// with style.css's copy of the editor's box (.cm-static), in plain text.
let cm = null;
let loading = null;
const statics = new Set(); // the LazyEditors showing a static copy

/** Loads CodeMirror (once); resolves to web/src/editor.js. Static copies take the editor's classes then. */
export function loadEditor() {
  loading ??= import('./editor.js').then(async (m) => {
    // The chunk's evaluation was a long task of its own: the first editor (editorShellClass builds one) gets the next.
    await yieldToPage();
    cm = m;
    const cls = `${m.editorShellClass()} cm-static`;
    for (const e of statics) e.shell.className = cls;
    return m;
  }, (e) => {
    loading = null; // a later call tries again
    throw e;
  });
  return loading;
}

/** How many lines CodeMirror draws for `text`. */
function lineCount(text) {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The lines of `text` as CodeMirror draws them (.cm-line, with highlighted spans when `runs` are given; the first line is the active one). */
function staticLines(text, runs = null) {
  runs ??= text ? [[0, text.length, null]] : [];
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
  /**
   * parent: where the editor goes; opts: createEditor's ({ doc, label, onChange, onRun, onEscape, language, complete }).
   * later(fn), if given, runs fn when the page has time (the notebook's #fill): until then the copy is an empty
   * box with the height of its lines, drawn in a moment (far below the first screen, its lines and gutter were
   * most of the cost of opening a chapter's first task); anything that needs the copy draws it at once.
   */
  constructor(parent, { later, ...opts }) {
    this.opts = { language: 'js', ...opts };
    this.doc = this.opts.doc ?? '';
    this.view = null;
    this.parent = parent;
    if (!later) {
      this.#drawStatic();
      return;
    }
    this.shell = h('div', { class: `${cm ? cm.editorShellClass() : 'cm-editor'} cm-static`, 'data-static': 'true', 'data-pending': 'true' });
    this.shell.style.setProperty('--lines', String(lineCount(this.doc)));
    parent.append(this.shell);
    this.pending = true;
    later(() => this.#drawPending());
  }

  // The static copy, if the box still stands in for it.
  #drawPending() {
    if (this.pending && !this.view) this.#drawStatic();
  }

  // The static copy: plain lines at first (cheap for the dozens of editors of a chapter), highlighted as it
  // nears the viewport, where the editor is queued to replace it.
  #drawStatic() {
    this.pending = false;
    const lines = staticLines(this.doc);
    const gutter = h('div', { class: 'cm-gutters', 'aria-hidden': 'true' },
      h('div', { class: 'cm-gutter cm-lineNumbers' },
        ...lines.map((_, i) => h('div', { class: i === 0 ? 'cm-gutterElement cm-activeLineGutter' : 'cm-gutterElement', text: String(i + 1) }))));
    // Focusable and labelled as the editor is, so Tab reaches it in the same place and a screen reader
    // hears the same name; focusing it makes the editor.
    this.content = h('div', { class: 'cm-content', role: 'textbox', 'aria-multiline': 'true', 'aria-label': this.opts.label ?? 'Code', tabindex: '0', spellcheck: 'false', translate: 'no' }, ...lines);
    const shell = h('div', { class: `${cm ? cm.editorShellClass() : 'cm-editor'} cm-static`, 'data-static': 'true' },
      h('div', { class: 'cm-scroller' }, gutter, this.content));
    // Off screen the copy is not laid out (content-visibility in style.css): its line count gives the height it stands in with.
    shell.style.setProperty('--lines', String(lines.length));
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
    this.content.addEventListener('focus', () => { if (!pointing && !this.focusing) this.ensure({ focus: true }); });
    if (this.shell) this.shell.replaceWith(shell);
    else this.parent.append(shell);
    this.shell = shell;
    this.typed = false;
    statics.add(this);
    this.cancel?.();
    // Near the viewport: highlighted (once CodeMirror is here), and queued to become the editor.
    // In the queue, one copy a job: the copies near the viewport when CodeMirror arrives are not all highlighted in one task.
    this.cancel = whenNearViewport(shell, () => idleQueue.add(() => loadEditor().then((m) => {
      if (this.shell !== shell) return;
      if (this.opts.language === 'js' && !this.typed) this.content.replaceChildren(...staticLines(this.doc, m.highlightRuns(this.doc)));
      idleQueue.add(() => this.ensure());
    }).catch((e) => console.error(e))));
  }

  /** The offset in the text of a DOM point inside the static lines, or null. */
  #offset(node, offset) {
    // Between lines (a select-all in the editable copy spans the whole content): the start of line `offset`.
    if (node === this.content) return Math.min([...node.childNodes].slice(0, offset).reduce((a, l) => a + l.textContent.length + 1, 0), this.doc.length);
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

  /**
   * The editor, made now if it is not yet; with a selection and focus when asked. While CodeMirror is still
   * loading: null, and the editor is made (with the last selection asked for, focused if any call asked) once it has.
   */
  ensure({ anchor, head, focus = false } = {}) {
    this.#drawPending();
    if (!this.view && !cm) {
      const wanted = this.wanted = { anchor, head, focus: focus || !!this.wanted?.focus };
      // What the reader types meanwhile goes into the copy, and into the editor when it is made.
      if (!this.content.isContentEditable) {
        this.content.contentEditable = 'plaintext-only';
        this.content.addEventListener('input', () => { this.typed = true; });
        // The run keys (editor.js) too: the cell runs once the editor has the text.
        this.content.addEventListener('keydown', (e) => {
          if (e.key !== 'Enter' || !(e.shiftKey || e.ctrlKey || e.metaKey || e.altKey)) return;
          e.preventDefault();
          this.runWanted = e.altKey ? { advance: true, insert: true } : { advance: !(e.ctrlKey || e.metaKey) };
        });
      }
      // Focus asked for goes to the copy now (it takes typing), not to the page while CodeMirror loads.
      if (wanted.focus && !this.content.contains(document.activeElement)) {
        this.focusing = true;
        this.content.focus();
        this.focusing = false;
      }
      loadEditor().then(() => {
        if (this.wanted !== wanted) return;
        this.wanted = null;
        this.ensure(wanted);
      }).catch((e) => console.error(e));
      return null;
    }
    let typed = null;
    if (!this.view) {
      this.cancel();
      statics.delete(this);
      const hadFocus = this.shell.contains(document.activeElement);
      typed = this.typed ? this.#typedText() : null;
      if (typed) {
        this.doc = typed.text;
        anchor = head = typed.caret;
      } else if (this.content.isContentEditable) {
        // Keys pressed in the copy after the click (Ctrl+A, Shift+arrows) moved the selection since it was asked for.
        const sel = getSelection();
        const at = sel?.anchorNode && this.content.contains(sel.anchorNode) && this.content.contains(sel.focusNode)
          ? [this.#offset(sel.anchorNode, sel.anchorOffset), this.#offset(sel.focusNode, sel.focusOffset)] : null;
        if (at && at[0] !== null && at[1] !== null) [anchor, head] = at;
      }
      this.view = cm.createEditor(null, { ...this.opts, doc: this.doc });
      this.shell.replaceWith(this.view.dom);
      this.shell = null;
      this.content = null;
      if (hadFocus) focus = true;
    }
    this.wanted = null;
    if (anchor !== undefined) this.view.dispatch({ selection: { anchor, head: head ?? anchor } });
    if (focus) this.view.focus();
    if (typed) this.opts.onChange?.(typed.text);
    if (this.runWanted) {
      const run = this.runWanted;
      this.runWanted = null;
      this.opts.onRun?.(run);
    }
    return this.view;
  }

  // The text typed into the copy while CodeMirror loaded (lines are the copy's divs, or the ones the browser
  // made; a <br> alone in a line only holds it open), and the caret's offset in it.
  #typedText() {
    const sel = getSelection();
    let text = '';
    let caret = null;
    const walk = (node) => {
      node.childNodes.forEach((c, i) => {
        // A line (a div of the copy's, or one the browser made) after something else starts on a new line.
        if (node === this.content && c.nodeName === 'DIV' && i > 0 && !(c.previousSibling.nodeType === Node.TEXT_NODE && text.endsWith('\n'))) text += '\n';
        if (sel.focusNode === node && sel.focusOffset === i) caret ??= text.length;
        if (c.nodeType === Node.TEXT_NODE) {
          if (sel.focusNode === c) caret ??= text.length + sel.focusOffset;
          text += c.data;
        } else if (c.nodeName === 'BR') {
          if (c !== node.lastChild) text += '\n'; // the last one holds a line open
        } else if (c.nodeType === Node.ELEMENT_NODE) walk(c);
      });
      if (sel.focusNode === node && sel.focusOffset === node.childNodes.length) caret ??= text.length;
    };
    walk(this.content);
    return { text, caret: Math.min(caret ?? text.length, text.length) };
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
    if (this.pending) this.shell.style.setProperty('--lines', String(lineCount(text)));
    else this.#drawStatic();
    // Not the reader's typing, but the text changed: whoever listens is told, as the editor would.
    this.opts.onChange?.(text);
  }

  focus() {
    this.ensure({ focus: true });
  }
}
