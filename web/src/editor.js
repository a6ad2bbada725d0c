// The CodeMirror 6 setup shared by cells and exercise editors: JavaScript mode, line numbers,
// bracket matching, undo, and run keys. Tab and Shift+Tab indent, as in every code editor; Esc then Tab
// leaves (no keyboard trap): a cell's Esc focuses the cell (command mode), whence Tab goes on through the page,
// and elsewhere CodeMirror's own rule holds (a Tab within 2 s of an Esc moves focus).
import { EditorView, keymap, lineNumbers, highlightActiveLineGutter, highlightActiveLine, drawSelection, hoverTooltip } from '@codemirror/view';
import { EditorState, Prec } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting, defaultHighlightStyle, HighlightStyle, syntaxTree } from '@codemirror/language';
import { closeBrackets, closeBracketsKeymap, autocompletion, completionStatus, closeCompletion } from '@codemirror/autocomplete';
import { javascript, javascriptLanguage } from '@codemirror/lang-javascript';
import { highlightTree } from '@lezer/highlight';
import { headerHeight, h } from './dom.js';
import { loadDocs, docFor, signatureLine, optionKeys } from './api-docs.js';

// CodeMirror's default token styles, each colour replaced by a page variable (web/src/style.css) so the
// editor follows the page's light or dark theme without being reconfigured. The light values are
// CodeMirror's own, except three that read below 4.5:1 on the editor's background (#fafafa, and its
// active line): template strings, regexps and escapes (#e40, 3.7:1), type names (#085, 4.2:1) and
// invalid tokens (#f00, 3.8:1), darkened. Every colour is at least 5:1 in both themes.
const TOKEN_VARS = {
  '#404740': 'meta', '#708': 'keyword', '#219': 'atom', '#164': 'literal', '#a11': 'string', '#e40': 'regexp',
  '#00f': 'definition', '#30a': 'local', '#085': 'type', '#167': 'class', '#256': 'special', '#00c': 'property',
  '#940': 'comment', '#f00': 'invalid',
};
export const highlightStyle = HighlightStyle.define(defaultHighlightStyle.specs.map((spec) => {
  if (!spec.color) return spec;
  if (!TOKEN_VARS[spec.color]) throw new Error(`editor: CodeMirror's token colour ${spec.color} has no page variable`);
  return { ...spec, color: `var(--tok-${TOKEN_VARS[spec.color]})` };
}));

// CodeMirror's own chrome (cursor, selection, active line, gutters, bracket match) in the page's colours:
// its base theme only knows one light and one dark look, chosen when an editor is created.
const chrome = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--code-bg)' },
  // Cells and exercise editors alike: Chinese in comments and strings draws with the page's CJK font stack.
  '.cm-scroller': { fontFamily: 'var(--mono, monospace)' },
  // The page's focus ring, on cell and exercise editors alike (CodeMirror's own is a 1 px dotted line).
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '-1px' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '.cm-selectionBackground': { backgroundColor: 'var(--selection)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground': { backgroundColor: 'var(--selection-focused)' },
  // See-through in both themes: the active line is drawn over the selection.
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  // Completion lists and doc tooltips in the page's colours.
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: 'var(--accent)', color: 'var(--accent-fg)' },
  '.cm-api-doc': { maxWidth: '34rem', padding: '.3rem .5rem', fontSize: '13px', whiteSpace: 'normal' },
  '.cm-api-sig': { display: 'block', fontFamily: 'var(--mono, monospace)' },
  '.cm-api-doc pre': { margin: '.3rem 0 0', whiteSpace: 'pre-wrap' },
  '.cm-gutters': { backgroundColor: 'var(--panel)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)' },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'color-mix(in srgb, var(--c-green) 30%, transparent)' },
  '&.cm-focused .cm-nonmatchingBracket': { backgroundColor: 'color-mix(in srgb, var(--c-red) 30%, transparent)' },
});

// The cursor does not blink for readers who ask for less motion.
const reducedMotion = () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/**
 * createEditor(parent, { doc, label, onChange(text), onRun({ advance }) }) → an EditorView.
 * Shift+Enter calls onRun({ advance: true }); Ctrl/Cmd+Enter calls onRun({ advance: false }).
 */
// Completion of `tp.`, `tp.linalg.`, a tensor's methods and the scope's names, from the live values in the
// worker (complete(path) → { items: [{ label, type }], owner }): what is offered is what the code can call.
// Each offer's signature, line of doc and example come from the API description (web/src/api-docs.js), as
// do the keys of an options object (`x.sum(0, { ke` offers keepdim) and the hover tooltip.
const NAME = String.raw`[\p{L}_$][\p{L}\p{N}_$]*`;
const docView = (entry) => h('div', { class: 'cm-api-doc', 'data-testid': 'api-doc' },
  ...(entry.signatures?.length ? entry.signatures : [entry.type ? `: ${entry.type}` : '']).map((sig) => h('code', { class: 'cm-api-sig', text: `${entry.name}${sig}` })),
  h('p', { text: entry.doc ?? '' }),
  entry.example ? h('pre', { text: entry.example }) : null);

/** The documented entry of `a.b.c` (owner from the live value of `a.b`), or null. */
async function describe(complete, dotted) {
  const dot = dotted.lastIndexOf('.');
  if (dot < 0) return null;
  const [{ owner }, index] = await Promise.all([complete(dotted.slice(0, dot)), loadDocs().catch(() => null)]);
  return owner ? docFor(index, owner, dotted.slice(dot + 1)) : null;
}

function inCodeOnly(context) {
  // Not in a comment or a string: what is typed there is prose.
  return !/Comment|String|Template/.test(syntaxTree(context.state).resolveInner(context.pos, -1).name);
}

// `callee(arg, …, { key: v, ke` before the cursor → the keys that argument's options object takes.
async function optionCompletions(context, complete) {
  const before = context.state.sliceDoc(Math.max(0, context.pos - 300), context.pos);
  const m = new RegExp(`(${NAME}(?:\\.${NAME})+)\\(([^()]*?)\\{((?:[^{}()]*,)?)\\s*(${NAME})?$`, 'u').exec(before);
  if (!m) return null;
  const argIndex = (m[2].match(/,/g) ?? []).length;
  const entry = await describe(complete, m[1]);
  if (!entry) return null;
  const index = await loadDocs();
  const keys = optionKeys(index, entry, argIndex);
  if (!keys.length) return null;
  return { from: context.pos - (m[4]?.length ?? 0), options: keys.map((k) => ({ label: k, type: 'property', detail: `${entry.name}(…, { ${k} })` })), validFor: /^[\p{L}\p{N}_$]*$/u };
}

function completionSource(complete) {
  return async (context) => {
    if (!inCodeOnly(context)) return null;
    const options = await optionCompletions(context, complete).catch(() => null);
    if (options) return options;
    const word = context.matchBefore(new RegExp(`(?:${NAME}\\.)*[\\p{L}_$]?[\\p{L}\\p{N}_$]*$`, 'u'));
    if (!word) return null;
    const dot = word.text.lastIndexOf('.');
    const path = dot < 0 ? '' : word.text.slice(0, dot);
    const prefix = word.text.slice(dot + 1);
    if (!context.explicit && !path && prefix.length < 2) return null;
    const [{ items, owner }, index] = await Promise.all([complete(path), loadDocs().catch(() => null)]);
    if (!items?.length) return null;
    return {
      from: word.from + dot + 1,
      options: items.map((o) => {
        const entry = owner ? docFor(index, owner, o.label) : null;
        return { ...o, detail: entry ? signatureLine(entry).slice(entry.name.length) : undefined, info: entry ? () => docView(entry) : undefined };
      }),
      validFor: /^[\p{L}\p{N}_$]*$/u,
    };
  };
}

// Hovering `tp.linalg.svd` or `x.matmul` shows its signature, doc and example.
function hoverDocs(complete) {
  return hoverTooltip(async (view, pos) => {
    const line = view.state.doc.lineAt(pos);
    const text = line.text;
    let a = pos - line.from, b = a;
    while (a > 0 && /[\p{L}\p{N}_$.]/u.test(text[a - 1])) a--;
    while (b < text.length && /[\p{L}\p{N}_$]/u.test(text[b])) b++;
    const dotted = text.slice(a, b).replace(/^\.+|\.+$/g, '');
    if (!dotted.includes('.')) return null;
    const entry = await describe(complete, dotted);
    if (!entry) return null;
    return { pos: line.from + a, end: line.from + b, above: true, create: () => ({ dom: docView(entry) }) };
  }, { hoverTime: 350 });
}

export function createEditor(parent, { doc = '', label = 'Code', onChange = () => {}, onRun = () => {}, onEscape = null, language = 'js', complete = null } = {}) {
  const runKeys = Prec.highest(keymap.of([
    { key: 'Shift-Enter', run: () => (onRun({ advance: true }), true) },
    { key: 'Mod-Enter', run: () => (onRun({ advance: false }), true) },
    { key: 'Alt-Enter', run: () => (onRun({ advance: true, insert: true }), true) },
  ]));
  // Esc leaves the editor for its cell (command mode), except that a completion list on screen closes
  // first; a completion still being looked up is dropped (the Esc is the reader's, not the list's).
  const escape = onEscape ? Prec.highest(keymap.of([{ key: 'Escape', run: (view) => {
    if (completionStatus(view.state) === 'active') return false;
    closeCompletion(view);
    onEscape();
    return true;
  } }])) : [];
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        runKeys,
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection({ cursorBlinkRate: reducedMotion() ? 0 : 1200 }),
        indentOnInput(),
        syntaxHighlighting(highlightStyle, { fallback: true }),
        chrome,
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
        escape,
        complete ? [autocompletion({ override: [completionSource(complete)], activateOnTypingDelay: 50 }), hoverDocs(complete)] : [],
        language === 'js' ? javascript() : [],
        EditorView.contentAttributes.of({ 'aria-label': label }),
        // The cursor, scrolled into view as one types or moves, stays clear of the page's sticky header.
        EditorView.scrollMargins.of(() => ({ top: headerHeight() + 8 })),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
}

export function setDoc(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** The text of JavaScript `text` cut into [from, to, class] runs covering all of it (class null: plain), as the editor highlights it. */
export function highlightRuns(text) {
  const runs = [];
  let pos = 0;
  highlightTree(javascriptLanguage.parser.parse(text), highlightStyle, (from, to, cls) => {
    if (from > pos) runs.push([pos, from, null]);
    runs.push([from, to, cls]);
    pos = to;
  });
  if (pos < text.length) runs.push([pos, text.length, null]);
  return runs;
}

// The class names of an editor's outer element (CodeMirror's scoped theme classes): read once from an
// editor built and dropped, which also mounts the theme's and the highlighter's styles in the document.
let shellClassName = null;
export function editorShellClass() {
  if (shellClassName === null) {
    const probe = createEditor(null, { complete: () => ({ items: [] }), onEscape: () => {} });
    shellClassName = probe.dom.className.replace(/\bcm-focused\b/, '').trim();
    probe.destroy();
  }
  return shellClassName;
}
