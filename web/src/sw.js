// The site's service worker: keeps a copy of one build of the site, so that a chapter read once opens,
// runs its cells and checks exercises with no network (on a train, or after the server has stopped).
//
// Network first: while the server answers, every request goes to it as if there were no service worker,
// so a new build shows at once and nothing stale is ever served online. Only a request that fails
// (no network, server gone) is answered from the copy, and a page navigation by the copy's index.html.
//
// web/build.mjs writes PRECACHE above this text: { version, files: { "path": "sha256 prefix" } }. A new
// build changes this file, so the browser installs it; the install copies files whose hash is unchanged
// from the previous copy and downloads only the rest, each checked against its hash so a copy never
// mixes two builds (a download caught mid-deploy fails the install, which the browser retries later).
/* global PRECACHE */
const CACHE_PREFIX = 'tensorpad-';
const CACHE = CACHE_PREFIX + PRECACHE.version;
const MANIFEST = '__tensorpad-manifest__.json';
const scoped = (file) => new URL(file, self.registration.scope).href;

self.addEventListener('install', (event) => event.waitUntil(copyBuild().then(() => self.skipWaiting())));
self.addEventListener('activate', (event) => event.waitUntil(dropOtherCopies().then(() => self.clients.claim())));
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(fetch(request).catch((error) => fromCopy(request, error)));
});

async function fromCopy(request, error) {
  const cache = await caches.open(CACHE);
  const key = request.mode === 'navigate' ? scoped('index.html') : request.url;
  const hit = await cache.match(key, { ignoreSearch: true, ignoreVary: true });
  if (!hit) throw error;
  // A new Response has no URL of its own, so the page (or worker) keeps the one it asked for, query and
  // all: the judge's worker reads its ?tp= parameter from its location.
  return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers: hit.headers });
}

async function sha256Prefix(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
  return Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The earlier copies this origin holds, each with the manifest it was made from. */
async function earlierCopies() {
  const names = (await caches.keys()).filter((n) => n.startsWith(CACHE_PREFIX) && n !== CACHE);
  const copies = [];
  for (const name of names) {
    const cache = await caches.open(name);
    const manifest = await cache.match(scoped(MANIFEST));
    if (manifest) copies.push({ cache, files: await manifest.json().catch(() => ({})) });
  }
  return copies;
}

async function copyFile(cache, earlier, file, hash) {
  const url = scoped(file);
  for (const copy of earlier) {
    if (copy.files[file] !== hash) continue;
    const kept = await copy.cache.match(url);
    if (kept) return cache.put(url, kept);
  }
  const response = await fetch(url, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`service worker: ${file} answered HTTP ${response.status}`);
  const got = await sha256Prefix(await response.clone().arrayBuffer());
  if (got !== hash) throw new Error(`service worker: ${file} is not the file of this build (hash ${got}, expected ${hash})`);
  return cache.put(url, response);
}

async function copyBuild() {
  const cache = await caches.open(CACHE);
  const earlier = await earlierCopies();
  await Promise.all(Object.entries(PRECACHE.files).map(([file, hash]) => copyFile(cache, earlier, file, hash)));
  // Written last: a copy with a manifest is complete, so the next build may take files from it.
  await cache.put(scoped(MANIFEST), new Response(JSON.stringify(PRECACHE.files), { headers: { 'Content-Type': 'application/json' } }));
}

async function dropOtherCopies() {
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(CACHE_PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
}
