// Entry of a judge worker in the page (a module Web Worker; see worker-core.js for what it does).
// tp comes from the bundled 'tensorpad' package, or from the URL given as ?tp=… on the worker's URL.
import { startWorker } from './worker-core.js';

const tpUrl = new URL(self.location.href).searchParams.get('tp');

startWorker({
  post: (msg) => self.postMessage(msg),
  listen: (handler) => self.addEventListener('message', (e) => handler(e.data)),
  importModule: (url) => import(/* @vite-ignore */ url),
  initTp: async () => {
    const { init } = tpUrl ? await import(/* @vite-ignore */ tpUrl) : await import('tensorpad');
    return init();
  },
});
