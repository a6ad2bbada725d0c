// The widget API. A widget is an ES module in web/widgets/<name>.js exporting
//   mount(container, ctx) → optional { destroy() }        (may be async)
// where ctx (see FORMAT.md) lets it read/write named values in the cells' scope, call tp in the worker
// and describe itself for screen readers. Writing a value re-runs the cells that read that name.
import { widgets } from 'tensorpad:widgets';
import { h } from './dom.js';
import { t } from './i18n.js';

let counter = 0;

export async function mountWidget(container, { name, props, lang, notebook }) {
  const id = `w${++counter}`;
  const description = h('p', { class: 'widget-description sr-only', id: `${id}-desc` });
  const body = h('div', { class: 'widget-body' });
  container.setAttribute('aria-describedby', description.id);
  container.append(body, description);
  const controller = new AbortController();
  const watchers = new Map();
  const ctx = {
    id,
    name,
    props: { ...props },
    lang,
    signal: controller.signal,
    /** The current value of a name in the cells' scope (tensors arrive as { shape, data }). */
    async get(n) {
      const v = await notebook.kernel.get([n]);
      return v[n];
    },
    /** Writes a name into the scope; unless { rerun: false }, re-runs the cells that read it (latest write wins). */
    set(n, value, { rerun = true } = {}) {
      notebook.setValue(n, value, { rerun, source: id });
    },
    /** Runs fn(tp, args, scope) in the worker; fn must be self-contained (it is sent as source text). */
    compute(fn, args) {
      return notebook.kernel.ready.then(() => notebook.kernel.compute(fn, args));
    },
    /** Calls cb(value) whenever a cell run (re)defines the name. */
    watch(n, cb) {
      if (!watchers.has(n)) watchers.set(n, new Set());
      watchers.get(n).add(cb);
      return () => watchers.get(n)?.delete(cb);
    },
    /** The text a screen reader announces for the widget's current state. */
    describe(text) {
      description.textContent = text;
    },
    t: (key, vars) => t(lang, key, vars),
  };
  notebook.widgetWatchers.push({ watchers, signal: controller.signal });
  try {
    const mod = await widgets[name]();
    const mount = mod.mount ?? mod.default?.mount ?? mod.default;
    const handle = await mount(body, ctx);
    return { destroy: () => { controller.abort(); handle?.destroy?.(); } };
  } catch (e) {
    body.replaceChildren(h('p', { class: 'widget-error', role: 'alert', text: t(lang, 'widgetFailed', { msg: e.message }) }));
    console.warn(e);
    return { destroy: () => controller.abort() };
  }
}
