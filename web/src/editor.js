// The CodeMirror 6 setup shared by cells and exercise editors: JavaScript mode, line numbers,
// bracket matching, undo, and run keys. Tab is left to focus navigation (no tab trap).
import { EditorView, keymap, lineNumbers, highlightActiveLineGutter, highlightActiveLine, drawSelection } from '@codemirror/view';
import { EditorState, Prec } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { javascript } from '@codemirror/lang-javascript';

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
        drawSelection(),
        indentOnInput(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap]),
        javascript(),
        EditorView.contentAttributes.of({ 'aria-label': label }),
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
