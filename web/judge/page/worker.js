// Entry of a judge worker in the page (a module Web Worker; see core/worker-core.js for what it does).
// tp is imported from the URL given as ?tp=… on this worker's URL (the page's tp.js bundle).
import { startWorker } from '../core/worker-core.js';
import { isolateWorker } from './isolate.js';

const tpUrl = new URL(self.location.href).searchParams.get('tp');

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
  // after tp is initialised: no fetch, no import() hidden in a string (see isolate.js)
  harden: (out, say) => isolateWorker(say),
});
