// Command mode, as in Jupyter: Esc in an editor focuses its cell, where single keys act on cells (A/B
// insert, D D delete, M/Y make Markdown/code, Up/Down/J/K move between cells, Enter edits, Shift+Enter runs
// and moves on, Alt+Enter runs and inserts, ? lists the keys). Tab from a focused cell goes on through the
// page as usual, so the keyboard is never trapped.
import { h } from './dom.js';
import { t } from './i18n.js';

/** The keys, for the "?" overlay: [keys, i18n key of what they do]. */
export const COMMAND_KEYS = [
  ['Esc', 'keyEsc'], ['Enter', 'keyEnter'], ['A', 'keyA'], ['B', 'keyB'], ['D D', 'keyDD'], ['M', 'keyM'], ['Y', 'keyY'],
  ['↑ / K', 'keyUp'], ['↓ / J', 'keyDown'], ['Shift+Enter', 'keyShiftEnter'], ['Ctrl+Enter', 'keyCtrlEnter'], ['Alt+Enter', 'keyAltEnter'],
  ['Esc, Tab', 'keyEscTab'], ['?', 'keyHelp'],
];

/** Shows the list of keys in a modal dialog (Esc or its button closes it, and focus returns). */
export function showKeys(lang) {
  const back = document.activeElement;
  const close = h('button', { type: 'button', class: 'btn', 'data-testid': 'keys-close', onclick: () => dialog.close() }, t(lang, 'close'));
  const dialog = h('dialog', { class: 'keys-dialog', 'data-testid': 'keys-overlay', 'aria-labelledby': 'keys-title' },
    h('h2', { id: 'keys-title', text: t(lang, 'keysTitle') }),
    h('table', { class: 'keys-table' }, h('tbody', {}, COMMAND_KEYS.map(([k, what]) => h('tr', {}, h('th', { scope: 'row' }, h('kbd', { text: k })), h('td', { text: t(lang, what) }))))),
    close);
  dialog.addEventListener('close', () => { dialog.remove(); back?.focus?.(); });
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}

/**
 * Installs command mode on `root` (the chapter's main). nb: { cellOf(el) → view, cellAction(view, action),
 * runCell(view, opts), lang, announce(text) }.
 */
export function installCommandMode(root, nb) {
  let lastD = 0;
  root.addEventListener('keydown', (e) => {
    const el = e.target;
    if (!(el instanceof HTMLElement) || !el.matches('[data-testid=cell], [data-testid=md-cell]')) return;
    const view = nb.cellOf(el);
    if (!view) return;
    const cells = () => [...root.querySelectorAll('[data-testid=cell], [data-testid=md-cell]')].filter((c) => c.offsetParent !== null || c === el);
    const go = (step) => {
      const list = cells();
      const next = list[list.indexOf(el) + step];
      if (next) { next.focus(); next.scrollIntoView({ block: 'nearest' }); }
    };
    const mods = e.ctrlKey || e.metaKey;
    let handled = true;
    if (e.key === 'Enter' && e.shiftKey) nb.runCell(view, { advance: true });
    else if (e.key === 'Enter' && e.altKey) nb.runCell(view, { insert: true });
    else if (e.key === 'Enter' && mods) nb.runCell(view, { advance: false });
    else if (mods || e.altKey) handled = false;
    else if (e.key === 'Enter') view.kind === 'md' ? view.edit() : view.focus();
    else if (e.key === 'a' || e.key === 'A') nb.cellAction(view, 'add-above');
    else if (e.key === 'b' || e.key === 'B') nb.cellAction(view, 'add-below');
    else if (e.key === 'm' || e.key === 'M') nb.cellAction(view, 'to-md');
    else if (e.key === 'y' || e.key === 'Y') nb.cellAction(view, 'to-code');
    else if (e.key === 'ArrowUp' || e.key === 'k' || e.key === 'K') go(-1);
    else if (e.key === 'ArrowDown' || e.key === 'j' || e.key === 'J') go(1);
    else if (e.key === '?') showKeys(nb.lang);
    else if (e.key === 'd' || e.key === 'D') {
      const now = performance.now();
      if (now - lastD < 800) {
        lastD = 0;
        if (view.reader) nb.cellAction(view, 'delete');
        else nb.announce(t(nb.lang, 'onlyYourCells'));
      } else lastD = now;
    } else handled = false;
    if (handled) e.preventDefault();
  });
}
