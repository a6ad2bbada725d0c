// The CodeMirror 6 setup shared by cells and exercise editors: JavaScript mode, line numbers,
// bracket matching, undo, and run keys. Tab is left to focus navigation (no tab trap).
import { EditorView, keymap, lineNumbers, highlightActiveLineGutter, highlightActiveLine, drawSelection } from '@codemirror/view';
import { EditorState, Prec } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting, defaultHighlightStyle, HighlightStyle } from '@codemirror/language';
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { javascript } from '@codemirror/lang-javascript';
import { headerHeight } from './dom.js';

// CodeMirror's default token colours, with the three that read below 4.5:1 on the editor's background
// (#fafafa, and its active line) darkened: template strings, regexps and escapes (#e40, 3.7:1), type
// names (#085, 4.2:1) and invalid tokens (#f00, 3.8:1). Every colour is now at least 5:1.
const DARKER = { '#e40': '#b03a00', '#085': '#006d46', '#f00': '#c00' };
const highlightStyle = HighlightStyle.define(defaultHighlightStyle.specs.map((spec) => (
  DARKER[spec.color] ? { ...spec, color: DARKER[spec.color] } : spec)));

// The cursor does not blink for readers who ask for less motion.
const reducedMotion = () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/**
 * createEditor(parent, { doc, label, onChange(text), onRun({ advance }) }) → an EditorView.
 * Shift+Enter calls onRun({ advance: true }); Ctrl/Cmd+Enter calls onRun({ advance: false }).
 */
export function createEditor(parent, { doc = '', label = 'Code', onChange = () => {}, onRun = () => {} } = {}) {
  const runKeys = Prec.highest(keymap.of([
    { key: 'Shift-Enter', run: () => (onRun({ advance: true }), true) },
    { key: 'Mod-Enter', run: () => (onRun({ advance: false }), true) },
  ]));
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
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap]),
        javascript(),
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
