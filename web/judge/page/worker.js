// Entry of a judge worker in the page (a module Web Worker; see core/worker-core.js for what it does).
// tp is imported from the URL given as ?tp=… on this worker's URL (the page's tp.js bundle).
// The learner's code is evaluated by the notebook's cell core, so the editor accepts exactly what a
// cell accepts (plain top-level declarations, or an ES module with exports).
import { startWorker } from '../core/worker-core.js';
import { createScope, runCell, toCellError, cellFileName } from '../../runtime/cells.js';
import { isolateWorker } from './isolate.js';

const tpUrl = new URL(self.location.href).searchParams.get('tp');
const FILE = cellFileName('solution');

startWorker({
  post: (msg) => self.postMessage(msg),
  listen: (handler) => self.addEventListener('message', (e) => handler(e.data)),
  importModule: (url) => import(/* @vite-ignore */ url),
  initTp: async () => {
    if (!tpUrl) throw new Error('the judge worker needs ?tp=<url of the tp bundle> on its URL');
    const { init } = await import(/* @vite-ignore */ tpUrl);
    // The single-thread core: a check's cases are small, and a judge worker with a pthread pool of its
    // own (2 workers more per check) now and then outlived terminate() in Chromium, idle, piling up.
    return init({ threads: false });
  },
  async evaluateSource(source) {
    const scope = createScope();
    const r = await runCell(source, scope, { cellId: 'solution' });
    if (r.error) {
      const err = r.error.name === 'SyntaxError' ? new SyntaxError(r.error.message) : new Error(r.error.message);
      if (r.error.name !== 'SyntaxError') err.name = r.error.name;
      err.stack = `${FILE}:${r.error.line ?? 0}:${r.error.column ?? 0}\n${r.error.name}: ${r.error.message}`;
      throw err;
    }
    return scope;
  },
  // after tp is initialised: no fetch, no import() hidden in a string (see isolate.js)
  harden: (out, say) => isolateWorker(say),
  locate(err) {
    const e = toCellError(err, FILE);
    return e.line ? { line: e.line, column: e.column } : null;
  },
});
