// The page's judge worker (web/judge/page/isolate.js) takes away what a solution could use to reach the site's
// judge files. Run here in a child Node process given the globals a browser worker has, so that the names a
// browser worker would still hold after isolateWorker are listed; the browser suite (judge.test.mjs) tries the
// real fetch and import() in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ISOLATE = new URL('../../web/judge/page/isolate.js', import.meta.url).href;
const MESSAGES = new URL('../../web/judge/core/messages.js', import.meta.url).href;

// What each way out answers after isolateWorker: 'refused: <message>' or 'open'.
function afterIsolation() {
  const script = `
    import { isolateWorker } from ${JSON.stringify(ISOLATE)};
    import { messages } from ${JSON.stringify(MESSAGES)};
    // as in a worker: Cache Storage (the service worker's copy of the site) and nested workers
    globalThis.caches = { match: async () => 'the reference, from the copy' };
    globalThis.Worker = class Worker {};
    globalThis.XMLHttpRequest = class XMLHttpRequest {};
    isolateWorker(() => messages('en'));
    const tries = {
      caches: () => caches.match('/judge/lora-params/reference.js'),
      Worker: () => new Worker('/worker.js', { type: 'module' }),
      XMLHttpRequest: () => new XMLHttpRequest(),
      fetch: () => fetch('/judge/lora-params/reference.js'),
      'import() in Function': () => new Function('return import("/judge/lora-params/reference.js")'),
    };
    const out = {};
    for (const [name, f] of Object.entries(tries)) {
      try { f(); out[name] = 'open'; } catch (e) { out[name] = 'refused: ' + e.message; }
    }
    process.stdout.write(JSON.stringify(out));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

test("a solution in the page's judge can reach neither Cache Storage, nor a nested Worker, nor the network", () => {
  const got = afterIsolation();
  for (const [name, answer] of Object.entries(got)) {
    assert.match(answer, new RegExp(`^refused: ${name.replace(/[()]/g, '\\$&')} is not available to a solution in the page's judge`), name);
  }
  assert.deepEqual(Object.keys(got), ['caches', 'Worker', 'XMLHttpRequest', 'fetch', 'import() in Function']);
});
