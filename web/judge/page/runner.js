// The judge in the page: the same judge() as the CLI, with module Web Workers.
//   judgeInWorker(exercise, sourceText, { seed, lang, workerUrl, tpUrl, limits }) → Promise<Result>, in lang (en | zh)
// `exercise` is exercise.json plus where its trusted modules are: `urls: { cases, reference }` (files
// the build copies next to the page, see build-hook.mjs). `sourceText` is what the learner typed,
// evaluated in the worker as the CLI evaluates a file (web/runtime/module.js). Result is described
// in judge.js; result.status is the verdict (pass | fail | error) for data-verdict.
// No memory limit here: browsers have no per-worker heap cap.

import { judge, DEFAULT_SEED } from '../core/judge.js';
import { messages, DEFAULT_LANG } from '../core/messages.js';
import { importsIn } from './isolate.js';

export { DEFAULT_SEED };
export { formatText, toResultsJson } from '../core/format.js';

export function webEnv({ workerUrl = new URL('./worker.js', import.meta.url), tpUrl, lang } = {}) {
  const M = messages(lang);
  const url = new URL(String(workerUrl), self.location.href);
  if (tpUrl) url.searchParams.set('tp', new URL(String(tpUrl), self.location.href).href);
  return {
    spawn() {
      const worker = new Worker(url, { type: 'module', name: 'tensorpad-judge' });
      let closed = false;
      const exitHandlers = [];
      const fail = (error) => {
        if (closed) return;
        closed = true;
        worker.terminate();
        for (const h of exitHandlers) h({ code: 1, error });
      };
      worker.addEventListener('error', (e) => { e.preventDefault?.(); fail(new Error(e.message || M.workerFailed())); });
      worker.addEventListener('messageerror', () => fail(new Error(M.workerUnreadable)));
      return {
        post: (msg) => { if (!closed) worker.postMessage(msg); },
        onMessage: (fn) => worker.addEventListener('message', (e) => fn(e.data)),
        onExit: (fn) => exitHandlers.push(fn),
        terminate: () => { closed = true; exitHandlers.length = 0; worker.terminate(); },
      };
    },
    exerciseUrls(exercise) {
      if (!exercise.urls) throw new TypeError(`judgeInWorker: exercise ${JSON.stringify(exercise.id)} has no urls: { cases, reference }`);
      return exercise.urls;
    },
  };
}

const cache = new Map();

export async function judgeInWorker(exercise, sourceText, { seed = DEFAULT_SEED, lang, workerUrl, tpUrl, limits, filename = 'solution.js' } = {}) {
  // The page's judge hands a solution tp and nothing else: an import (of the site's judge files, say) is refused.
  const imports = importsIn(sourceText);
  if (imports.length) {
    const M = messages(lang);
    return { exerciseId: exercise.id, seed, lang: lang ?? DEFAULT_LANG, status: 'error', errorKind: 'load', passed: 0, failed: 0,
      cases: [], output: '', message: imports.map((i) => M.importInPage(i.line, i.what)).join('\n') };
  }
  return judge({ exercise, source: sourceText, filename, seed, lang, limits, cache, env: webEnv({ workerUrl, tpUrl, lang }) });
}
