// Renders one cell output object (see web/runtime/display.js) into DOM nodes.
import { h, sanitize } from './dom.js';
import { t } from './i18n.js';

let plots = null;
const loadPlots = () => (plots ??= import('./plots.js'));

function renderTable(o, lang) {
  const caption = t(lang, 'tableCaption', { rows: o.total, cols: o.columns.length }) +
    (o.total > o.rows.length ? ` (${t(lang, 'tableMore', { shown: o.rows.length, total: o.total })})` : '');
  return h('div', { class: 'out-table-wrap', tabindex: 0, role: 'region', 'aria-label': caption },
    h('table', { class: 'out-table' },
      h('caption', { text: caption }),
      h('thead', {}, h('tr', {}, o.columns.map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, o.rows.map((r) => h('tr', {}, r.map((v) => h('td', { class: typeof v === 'number' ? 'num' : null, text: String(v) })))))));
}

/**
 * renderOutput(o, lang) → a node. Plots render asynchronously into the returned figure; when they are
 * drawn, o.svg and o.description are filled in (so the notebook can export them).
 */
export function renderOutput(o, lang) {
  switch (o.kind) {
    case 'stream': return h('pre', { class: `out-stream out-${o.name}`, text: o.text });
    case 'text': return h('pre', { class: 'out-value', text: o.text });
    case 'tensor': {
      // The tensor's text shows its shape only when summarised; the caption always does.
      const pre = h('pre', { class: 'out-tensor', text: o.text });
      if (!o.shape || /shape=/.test(o.text)) return pre;
      return h('div', { class: 'out-tensor-wrap' }, pre, h('div', { class: 'out-shape', text: t(lang, 'tensorShape', { dims: o.shape.join(', ') }) }));
    }
    case 'table': return renderTable(o, lang);
    case 'html': {
      // In a shadow root: a <style> in a cell's HTML styles that output alone, never the page.
      const div = h('div', { class: 'out-html', 'data-testid': 'out-html' });
      const root = div.attachShadow({ mode: 'open' });
      root.append(h('style', { text: ':host { display: block; color: var(--fg); } table { border-collapse: collapse; } td, th { padding: .1rem .4rem; }' }), sanitize(o.html));
      return div;
    }
    case 'plot': {
      const fig = h('figure', { class: 'out-plot', role: 'img', 'aria-busy': 'true', 'aria-label': t(lang, 'plot') });
      loadPlots().then(({ renderPlot }) => {
        const { node, description } = renderPlot(o.spec, lang);
        fig.append(node);
        if (o.spec.options?.title) fig.append(h('figcaption', { text: o.spec.options.title }));
        fig.setAttribute('aria-label', description);
        fig.removeAttribute('aria-busy');
        o.description = description;
        o.svg = fig.querySelector('svg')?.outerHTML ?? '';
      }).catch((e) => {
        fig.removeAttribute('aria-busy');
        fig.append(h('pre', { class: 'out-stderr', text: `plot: ${e.message}` }));
      });
      return fig;
    }
    default: return h('pre', { class: 'out-value', text: JSON.stringify(o) });
  }
}
