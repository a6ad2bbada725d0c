// The site's service worker: keeps a copy of the built site, so that a chapter read once opens, runs
// its cells and checks exercises with no network (on a train, or after the server has stopped).
//
// Network first: while the server answers, every request goes to it as if there were no service worker,
// so a new build shows at once. The copy answers only when the server cannot: the request fails, a proxy
// in front of a stopped server answers 5xx, nothing has come back after NETWORK_WAIT_MS, or a file the
// page asks for is gone (404) because a deploy replaced the build a page still open was loaded from.
// A page (or worker) whose own document (or script) the copy answered takes the rest from it first.
//
// web/build.mjs writes PRECACHE above this text: { version, files: { "path": "sha256 prefix" } }. A new
// build changes this file, so the browser installs it (it takes over as said below). The install copies the
// files whose hash is unchanged from the previous copy and downloads the rest, each checked against its hash so that a copy
// never mixes two builds (a file caught mid-deploy fails the install, which the browser retries later,
// keeping what it has verified). The page and the worker scripts are always downloaded: their headers
// (COOP/COEP, CSP) must be the host's of today. Each site keeps its current copy and the one before it.
/* global PRECACHE */
const SCOPE = self.registration.scope;
// Cache Storage is shared by the whole origin: two sites on one origin (/course/ and /course-next/)
// must never touch each other's copies.
const COPY_PREFIX = `tensorpad ${SCOPE} `;
const COPY = COPY_PREFIX + PRECACHE.version;
const MANIFEST = '__tensorpad-manifest__.json';
const HASH_HEADER = 'x-tensorpad-hash';
const NETWORK_WAIT_MS = 5000;
const ALWAYS_DOWNLOAD = /^(index\.html|([^/]+\/)*[^/]*worker[^/]*\.js)$/;
const scoped = (file) => new URL(file, SCOPE).href;

// A new build's worker does not skip waiting: it takes over once no page of the build before is open, and until
// then the worker in charge answers from the newer copy first (answeringCopies). Skipping waiting, Chromium 156
// swaps workers once the outgoing one is idle; a request reaching it in the swap restarted it, the new worker
// stayed "installed", and a page loaded then never loaded (the navigation set off the swap and nothing answered).
// tests/browser/sw-swap-repro.mjs forces that: reloads with requests in the swap, at load 20-40, hung 7 times in
// 12; 2 in 35 when the outgoing worker asked the new one to skip waiting again; 0 in 18 without skipping waiting.
self.addEventListener('install', (event) => event.waitUntil(copyBuild()));
self.addEventListener('activate', (event) => event.waitUntil(dropOldCopies().then(() => self.clients.claim())));
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(SCOPE)) return;
  event.respondWith(answer(event));
});

// Pages and workers whose own document or script came from the copy (the server had failed them): the
// copy answers their requests first, so that on a stalled network a page load does not wait
// NETWORK_WAIT_MS for each of its requests in turn. A reload asks the network first again.
const copyFirst = new Set();

async function answer({ request, clientId, resultingClientId }) {
  const follows = (copied) => {
    if (copied && resultingClientId) copyFirst.add(resultingClientId);
    return copied;
  };
  if (copyFirst.has(clientId)) {
    const copied = await fromCopy(request);
    if (copied) return follows(copied);
  }
  const { response, copied } = await networkThenCopy(request);
  return copied ? follows(copied) : response;
}

/** The server's answer, or the copy's ({copied}) when the server cannot give one. */
async function networkThenCopy(request) {
  const network = fetch(request);
  let response;
  try {
    // fetch() settles when the headers arrive, so only a server that has not begun to answer is cut
    // short, never a large download.
    response = await Promise.race([network, new Promise((_, reject) => setTimeout(reject, NETWORK_WAIT_MS, new Error('no answer yet')))]);
  } catch {
    const copied = await fromCopy(request);
    if (copied) {
      network.catch(() => {});
      return { copied };
    }
    response = await network;  // not in the copy: wait for the network, or fail as without us
  }
  const gone = response.status === 404 && request.mode !== 'navigate';
  if (response.status >= 500 || gone) {
    const copied = await fromCopy(request);
    if (copied) return { copied };
  }
  return { response };
}

/** This site's copies: the current one first, then the others, newest first. */
async function copyNames() {
  const names = (await caches.keys()).filter((n) => n.startsWith(COPY_PREFIX));
  return [...names.filter((n) => n === COPY), ...names.filter((n) => n !== COPY).reverse()];
}

/** The copies to answer from, in turn: this worker's own first, unless a newer build's worker waits to take over
 *  (once no page of this build is open): then that build's complete copy first, so a page loaded meanwhile is of
 *  the newest build, as it would be from the server. */
async function answeringCopies() {
  const names = await copyNames();
  const waiting = self.registration.waiting;
  if (!waiting || waiting === self.serviceWorker) return names;
  const all = (await caches.keys()).filter((n) => n.startsWith(COPY_PREFIX));
  const newer = all.slice(all.indexOf(COPY) + 1).reverse();
  const complete = [];
  for (const name of newer) if (await (await caches.open(name)).match(scoped(MANIFEST))) complete.push(name);
  return [...complete, ...names.filter((n) => !complete.includes(n))];
}

/** The copy's answer to a request, or null. A navigation to the site's page gets index.html. */
async function fromCopy(request) {
  const path = new URL(request.url).pathname.slice(new URL(SCOPE).pathname.length);
  const key = request.mode === 'navigate' && (path === '' || path === 'index.html') ? scoped('index.html') : request.url;
  for (const name of await answeringCopies()) {
    const hit = await (await caches.open(name)).match(key, { ignoreSearch: true, ignoreVary: true });
    if (!hit) continue;
    // A new Response has no URL of its own, so the page (or worker) keeps the one it asked for, query and
    // all (the judge's worker reads ?tp= from its location). The body is stored decoded.
    const headers = new Headers(hit.headers);
    for (const h of ['content-encoding', 'content-length', HASH_HEADER]) headers.delete(h);
    return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers });
  }
  return null;
}

async function sha256Prefix(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
  return Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The complete earlier copies of this site, with their manifests; incomplete ones (failed installs of other builds) are deleted. */
async function earlierCopies() {
  const copies = [];
  for (const name of await copyNames()) {
    if (name === COPY) continue;
    const cache = await caches.open(name);
    const manifest = await cache.match(scoped(MANIFEST));
    if (manifest) copies.push({ cache, files: await manifest.json().catch(() => ({})) });
    else await caches.delete(name);
  }
  return copies;
}

function withHash(response, body, hash) {
  const headers = new Headers(response.headers);
  headers.set(HASH_HEADER, hash);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

async function copyFile(cache, earlier, file, hash) {
  const url = scoped(file);
  const done = await cache.match(url);
  if (done && done.headers.get(HASH_HEADER) === hash) return;  // verified by an earlier attempt
  if (!ALWAYS_DOWNLOAD.test(file)) {
    for (const copy of earlier) {
      if (copy.files[file] !== hash) continue;
      const kept = await copy.cache.match(url);
      if (kept) return cache.put(url, withHash(kept, kept.body, hash));
    }
  }
  const response = await fetch(url, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${file} answered HTTP ${response.status}`);
  const body = await response.arrayBuffer();
  const got = await sha256Prefix(body);
  if (got !== hash) throw new Error(`${file} is not the file of this build (hash ${got}, expected ${hash})`);
  await cache.put(url, withHash(response, body, hash));
}

async function copyBuild() {
  const cache = await caches.open(COPY);
  const earlier = await earlierCopies();
  const results = await Promise.allSettled(Object.entries(PRECACHE.files).map(([file, hash]) => copyFile(cache, earlier, file, hash)));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) {
    const message = `Tensorpad: the offline copy is incomplete, ${failed.length} file(s) failed (${failed[0].reason?.message}); the browser will try again`;
    for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage({ type: 'tensorpad-offline-failed', message });
    throw new Error(message);
  }
  // Written last: a copy with a manifest is complete, so a later build may take files from it.
  await cache.put(scoped(MANIFEST), new Response(JSON.stringify(PRECACHE.files), { headers: { 'Content-Type': 'application/json' } }));
}

/** Keeps this copy and the newest complete earlier one (a page of that build may still be open). */
async function dropOldCopies() {
  let keptOne = false;
  for (const name of await copyNames()) {
    if (name === COPY) continue;
    const complete = await (await caches.open(name)).match(scoped(MANIFEST));
    if (complete && !keptOne) keptOne = true;
    else await caches.delete(name);
  }
}
