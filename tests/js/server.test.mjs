// web/server.mjs under hostile and ordinary requests: each answer is checked, and the server must still
// serve the page afterwards. Runs on loopback against a temp folder built here (no site build needed).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from '../../web/server.mjs';

const SERVER = fileURLToPath(new URL('../../web/server.mjs', import.meta.url));
const SECRET = 'the-secret-key-0123';
let tmp, site, server, port;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-server-'));
  site = path.join(tmp, 'site');
  fs.mkdirSync(path.join(site, 'sub'), { recursive: true });
  fs.mkdirSync(path.join(site, 'book'));
  fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>page</title>');
  fs.writeFileSync(path.join(site, 'book', 'index.html'), '<!doctype html><title>book</title>');
  fs.writeFileSync(path.join(site, 'app.js'), 'export const x = 1;\n'.repeat(2000));
  fs.writeFileSync(path.join(site, 'worker.js'), 'self.onmessage = () => {};\n');
  fs.writeFileSync(path.join(site, 'data.bin'), Buffer.from([0, 1, 2, 3, 255]));
  fs.writeFileSync(path.join(site, 'empty.json'), '');
  fs.writeFileSync(path.join(site, '.env'), SECRET);
  fs.writeFileSync(path.join(site, 'sub', 'note.md'), '# note\n');
  // A sibling whose name starts with the site's, a file outside, and symlinks out of and within the site.
  fs.mkdirSync(path.join(tmp, 'site-secret'));
  fs.writeFileSync(path.join(tmp, 'site-secret', 'key.txt'), SECRET);
  fs.writeFileSync(path.join(tmp, 'outside.txt'), SECRET);
  fs.symlinkSync(path.join(tmp, 'outside.txt'), path.join(site, 'link-out.txt'));
  fs.symlinkSync(path.join(tmp, 'site-secret'), path.join(site, 'dir-out'));
  fs.symlinkSync(path.join(site, 'app.js'), path.join(site, 'link-in.js'));
  server = createServer(site);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = server.address().port;
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** One request with the raw target as given (no normalisation); resolves to { status, headers, body }. */
function request(target, { method = 'GET', headers = {}, agent } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function assertAlive() {
  const res = await request('/');
  assert.equal(res.status, 200, 'the server still serves the page');
  assert.match(res.body.toString(), /<title>page<\/title>/);
}

test('malformed percent-encodings get 400 and leave the server alive', async () => {
  for (const target of ['/%E0%A4%A', '/%', '/%zz', '/%C0%AF', '/app.js%E0', '/%ED%A0%80']) {
    const res = await request(target);
    assert.equal(res.status, 400, target);
    await assertAlive();
  }
});

test('a NUL byte, an encoded slash or an encoded backslash in the path gets 400', async () => {
  for (const target of ['/%00', '/app.js%00.html', '/..%2fsite-secret%2fkey.txt', '/..%2Fsite-secret%2Fkey.txt',
    '/..%5csite-secret%5ckey.txt', '/..\\site-secret\\key.txt', '/sub%2fnote.md']) {
    const res = await request(target);
    assert.equal(res.status, 400, target);
    assert.ok(!res.body.includes(SECRET), target);
    await assertAlive();
  }
});

test('.. segments, plain or encoded, cannot reach a sibling folder whose name starts with the site folder\'s', async () => {
  for (const target of ['/../site-secret/key.txt', '/%2e%2e/site-secret/key.txt', '/%2E%2E/%2E%2E/site-secret/key.txt',
    '/sub/../../site-secret/key.txt', '/../outside.txt']) {
    const res = await request(target);
    assert.ok(res.status === 403 || res.status === 404, `${target} → ${res.status}`);
    assert.ok(!res.body.includes(SECRET), target);
    await assertAlive();
  }
  // A .. that stays inside is fine.
  assert.equal((await request('/sub/../app.js')).status, 200);
});

test('symlinks are not followed out of the folder, but links within it are served', async () => {
  for (const target of ['/link-out.txt', '/dir-out/key.txt']) {
    const res = await request(target);
    assert.equal(res.status, 403, target);
    assert.ok(!res.body.includes(SECRET), target);
    await assertAlive();
  }
  const inside = await request('/link-in.js');
  assert.equal(inside.status, 200);
  assert.deepEqual(inside.body, fs.readFileSync(path.join(site, 'app.js')));
});

test('dotfiles and folders without index.html are 404, with no directory listing', async () => {
  const dot = await request('/.env');
  assert.equal(dot.status, 404);
  assert.ok(!dot.body.includes(SECRET));
  const dir = await request('/sub/');
  assert.equal(dir.status, 404);
  assert.ok(!dir.body.includes('note.md'));
  assert.equal((await request('/missing.js')).status, 404);
});

test('a folder with index.html serves it, and its name without a slash redirects within the origin', async () => {
  const page = await request('/book/');
  assert.equal(page.status, 200);
  assert.match(page.body.toString(), /<title>book<\/title>/);
  const bare = await request('/book?lang=zh');
  assert.equal(bare.status, 301);
  assert.equal(bare.headers.location, '/book/?lang=zh');
  assert.equal((await request('//book')).headers.location, '/book/', 'never a protocol-relative //host');
});

test('every answer has COOP/COEP/CORP; the page gets the page CSP and worker scripts the worker CSP', async () => {
  for (const target of ['/', '/app.js', '/worker.js', '/missing', '/%E0']) {
    const { headers } = await request(target);
    assert.equal(headers['cross-origin-opener-policy'], 'same-origin', target);
    assert.equal(headers['cross-origin-embedder-policy'], 'require-corp', target);
    assert.equal(headers['cross-origin-resource-policy'], 'same-origin', target);
    assert.equal(headers['x-content-type-options'], 'nosniff', target);
  }
  const page = (await request('/')).headers['content-security-policy'];
  assert.match(page, /^default-src 'self'; script-src 'self';/);
  assert.doesNotMatch(page, /unsafe-eval/);
  const worker = (await request('/worker.js')).headers['content-security-policy'];
  assert.equal(worker, "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'");
  assert.equal((await request('/')).headers['content-type'], 'text/html; charset=utf-8');
  assert.equal((await request('/data.bin')).headers['content-type'], 'application/octet-stream');
});

test('ETag and Last-Modified let a client revalidate: If-None-Match and If-Modified-Since get 304 with no body', async () => {
  const first = await request('/app.js');
  const { etag } = first.headers;
  assert.ok(etag, 'an ETag');
  assert.ok(first.headers['last-modified'], 'a Last-Modified');
  for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const again = await request('/app.js', { headers: { 'if-none-match': inm } });
    assert.equal(again.status, 304, inm);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers['cross-origin-embedder-policy'], 'require-corp', 'a 304 keeps the isolation headers');
  }
  assert.equal((await request('/app.js', { headers: { 'if-none-match': '"other"' } })).status, 200);
  assert.equal((await request('/app.js', { headers: { 'if-modified-since': first.headers['last-modified'] } })).status, 304);
  // A gzip answer has its own tag: a cached identity body is not taken for the gzip one.
  const zipped = await request('/app.js', { headers: { 'accept-encoding': 'gzip' } });
  assert.notEqual(zipped.headers.etag, etag);
  assert.equal((await request('/app.js', { headers: { 'accept-encoding': 'gzip', 'if-none-match': zipped.headers.etag } })).status, 304);
  // A changed file gets a new tag and its new body.
  const file = path.join(site, 'worker.js');
  const old = await request('/worker.js');
  fs.writeFileSync(file, 'self.onmessage = () => { /* v2 */ };\n');
  fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
  const changed = await request('/worker.js', { headers: { 'if-none-match': old.headers.etag } });
  assert.equal(changed.status, 200);
  assert.match(changed.body.toString(), /v2/);
});

test('gzip is made once per file version and served to every request that accepts it', async () => {
  const plain = fs.readFileSync(path.join(site, 'app.js'));
  const before = server.stats.gzips;
  const all = await Promise.all(Array.from({ length: 20 }, () => request('/app.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } })));
  for (const res of all) {
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(Number(res.headers['content-length']), res.body.length);
    assert.deepEqual(zlib.gunzipSync(res.body), plain);
  }
  assert.ok(server.stats.gzips - before <= 1, `compressed ${server.stats.gzips - before} times for 20 requests`);
  const identity = await request('/app.js', { headers: { 'accept-encoding': 'gzip;q=0, identity' } });
  assert.equal(identity.headers['content-encoding'], undefined);
  assert.deepEqual(identity.body, plain);
  const binary = await request('/data.bin', { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(binary.headers['content-encoding'], undefined, 'only compressible types are gzipped');
  assert.equal((await request('/empty.json')).body.length, 0);
});

test('HEAD gets the headers of GET and no body; other methods get 405', async () => {
  for (const headers of [{}, { 'accept-encoding': 'gzip' }]) {
    const get = await request('/app.js', { headers });
    const head = await request('/app.js', { method: 'HEAD', headers });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    assert.equal(head.headers.etag, get.headers.etag);
  }
  const post = await request('/app.js', { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.allow, 'GET, HEAD');
  await assertAlive();
});

test('200 concurrent requests on loopback are all answered correctly', async () => {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const app = fs.readFileSync(path.join(site, 'app.js'));
  const targets = ['/app.js', '/', '/data.bin', '/%E0%A4%A', '/link-out.txt'];
  const want = [200, 200, 200, 400, 403];
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) =>
    request(targets[i % 5], { agent, headers: i % 2 ? { 'accept-encoding': 'gzip' } : {} })));
  agent.destroy();
  results.forEach((res, i) => {
    assert.equal(res.status, want[i % 5], `request ${i} ${targets[i % 5]}`);
    if (i % 5 === 0) assert.deepEqual(res.headers['content-encoding'] ? zlib.gunzipSync(res.body) : res.body, app);
  });
  await assertAlive();
});

/** Starts `node web/server.mjs dir` with env; resolves to { child, url } once it prints its address. */
function startCli(dir, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER, dir], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/\S+\//);
      if (m) resolve({ child, url: m[0] });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

test('run as a command it binds 127.0.0.1 unless HOST says otherwise, on PORT', async () => {
  const { child, url } = await startCli(site, { PORT: '0', HOST: '' });
  try {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cross-origin-opener-policy'), 'same-origin');
  } finally { child.kill(); }
  const other = await startCli(site, { PORT: '0', HOST: '127.0.0.2' });
  try {
    assert.match(other.url, /^http:\/\/127\.0\.0\.2:\d+\/$/);
    assert.equal((await fetch(other.url)).status, 200);
  } finally { other.child.kill(); }
});
