#!/usr/bin/env node
// Serves a built site (web/dist by default) on http://$HOST:$PORT (127.0.0.1:8080) with COOP/COEP, so the page
// is crossOriginIsolated, and a CSP on every response. Usage: [HOST=…] [PORT=…] node web/server.mjs [dir]
//
// Hand-written on node:http rather than sirv or serve-handler, whose source we read: sirv follows symlinks
// out of the folder, answers a malformed URL with 404 and serves only .gz files made beforehand (stale
// once a file changes); serve-handler follows symlinked folders, has no compression and answers %00 with
// 500. Each rule below is tested in tests/js/server.test.mjs:
// - the path is decoded segment by segment; a malformed escape, NUL, or an encoded / or \ is a 400;
// - the file is resolved, then its real path (symlinks followed) must lie inside the folder's real path
//   plus a separator, else 403; dotfiles and folders without index.html are 404 (no listing);
// - ETag and Last-Modified on every file, 304 on If-None-Match / If-Modified-Since;
// - gzip is made once per file version, shared by concurrent requests and kept in a bounded cache.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const gzip = promisify(zlib.gzip);

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.md': 'text/markdown; charset=utf-8', '.ico': 'image/x-icon', '.map': 'application/json',
};
const PAGE_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'";
// The cell worker evaluates the reader's code, so its own policy allows eval; it still reaches only this origin.
const WORKER_CSP = "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'";
const COMPRESSIBLE = /\.(html|js|mjs|css|json|wasm|svg|md|map)$/;
const GZIP_MAX_FILE = 32 << 20; // larger files are sent as they are
const GZIP_CACHE_BYTES = 64 << 20; // compressed bodies kept, least recently used dropped first

/**
 * A static server for `root`. server.stats counts responses, body bytes sent (after gzip; byPath: per request
 * path), responses per path (hits: a 304 is a hit that sends no body) and files compressed (gzips).
 */
export function createServer(root) {
  const base = path.resolve(root);
  let realBase;
  const stats = { responses: 0, bytes: 0, byPath: {}, hits: {}, gzips: 0 };
  const gzipCache = new Map(); // real path -> { tag, body: Promise<Buffer> }, in least-recently-used order
  let gzipBytes = 0;

  function gzipped(file, tag) {
    let entry = gzipCache.get(file);
    if (entry?.tag !== tag) {
      if (entry) { gzipCache.delete(file); gzipBytes -= entry.size; }
      stats.gzips++;
      entry = { tag, size: 0, body: fs.promises.readFile(file).then((b) => gzip(b, { level: 9 })) };
      entry.body.then((b) => {
        if (gzipCache.get(file) !== entry) return;
        entry.size = b.length;
        gzipBytes += b.length;
        for (const [key, old] of gzipCache) {
          if (gzipBytes <= GZIP_CACHE_BYTES || old === entry) break;
          gzipCache.delete(key);
          gzipBytes -= old.size;
        }
      }, () => gzipCache.get(file) === entry && gzipCache.delete(file));
    } else gzipCache.delete(file); // re-inserted below as the most recently used
    gzipCache.set(file, entry);
    return entry.body;
  }

  async function handle(req, res) {
    const send = (status, headers, body) => {
      const bytes = req.method === 'HEAD' || !body ? 0 : body.length;
      res.writeHead(status, headers).end(req.method === 'HEAD' ? undefined : body);
      return bytes;
    };
    const fail = (status, message) => send(status, { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS, 'Content-Security-Policy': PAGE_CSP }, message);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { Allow: 'GET, HEAD', ...SECURITY_HEADERS }, 'method not allowed');

    const rel = decodePath(req.url);
    if (rel === null) return fail(400, 'bad request');
    if (rel.some((s) => s.startsWith('.') && s !== '.' && s !== '..')) return fail(404, 'not found');
    let file = path.resolve(base, ...rel);
    if (file !== base && !file.startsWith(base + path.sep)) return fail(403, 'forbidden');

    let real, st;
    try {
      realBase ??= await fs.promises.realpath(base);
      real = await fs.promises.realpath(file);
      st = await fs.promises.stat(real);
      if (st.isDirectory()) {
        if (!req.url.split('?')[0].endsWith('/')) {
          const [p, q] = splitQuery(req.url); // one leading slash: "//host" would leave the origin
          return send(301, { Location: `/${p.replace(/^\/+/, '')}/${q}`, ...SECURITY_HEADERS }, '');
        }
        file = path.join(file, 'index.html');
        real = await fs.promises.realpath(file);
        st = await fs.promises.stat(real);
      }
    } catch {
      return fail(404, 'not found');
    }
    if (real !== realBase && !real.startsWith(realBase + path.sep)) return fail(403, 'forbidden');
    if (!st.isFile()) return fail(404, 'not found');

    const ext = path.extname(real);
    const zip = COMPRESSIBLE.test(ext) && st.size <= GZIP_MAX_FILE && acceptsGzip(req.headers['accept-encoding']);
    const version = `${st.size.toString(16)}-${Math.round(st.mtimeMs * 1000).toString(16)}`; // size and mtime in µs
    const etag = `"${version}${zip ? '-gz' : ''}"`;
    const headers = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      ...SECURITY_HEADERS,
      'Content-Security-Policy': /worker[^/]*\.js$/.test(file) ? WORKER_CSP : PAGE_CSP,
      'Cache-Control': 'no-cache',
      ETag: etag,
      'Last-Modified': st.mtime.toUTCString(),
      Vary: 'Accept-Encoding',
    };
    if (notModified(req.headers, etag, st.mtime)) return send(304, headers);
    if (zip) {
      const body = await gzipped(real, version);
      return send(200, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': body.length }, body);
    }
    res.writeHead(200, { ...headers, 'Content-Length': st.size });
    if (req.method === 'HEAD' || st.size === 0) { res.end(); return 0; }
    await new Promise((resolve) => {
      const stream = fs.createReadStream(real, { start: 0, end: Math.max(0, st.size - 1) });
      stream.on('error', () => res.destroy()).on('close', resolve);
      res.on('close', () => stream.destroy());
      stream.pipe(res);
    });
    return st.size;
  }

  const server = http.createServer((req, res) => {
    handle(req, res).then((bytes) => {
      const key = splitQuery(req.url)[0];
      stats.responses++;
      stats.bytes += bytes;
      stats.byPath[key] = (stats.byPath[key] ?? 0) + bytes;
      stats.hits[key] = (stats.hits[key] ?? 0) + 1;
    }, (err) => {
      // Unexpected: say so and keep serving.
      console.error(`web/server: ${req.method} ${req.url}: ${err?.message ?? err}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('internal error');
      else res.destroy();
    });
  });
  server.stats = stats;
  return server;
}

const SECURITY_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

function splitQuery(url) {
  const i = url.search(/[?#]/);
  return i < 0 ? [url, ''] : [url.slice(0, i), url.slice(i)];
}

/** The path's segments, decoded; null for a request target that is not a path, a malformed escape, NUL, / or \ inside a segment. */
function decodePath(url) {
  const [raw] = splitQuery(url ?? '');
  if (!raw.startsWith('/')) return null;
  const segments = [];
  for (const s of raw.split('/')) {
    let d;
    try { d = decodeURIComponent(s); } catch { return null; }
    if (/[\0/\\]/.test(d)) return null;
    if (d !== '') segments.push(d);
  }
  return segments;
}

function acceptsGzip(header = '') {
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && !(q && Number(q.slice(2)) === 0);
  });
}

/** RFC 9110 13.1.2/13.1.3: If-None-Match (weak comparison) wins over If-Modified-Since. */
function notModified(h, etag, mtime) {
  const inm = h['if-none-match'];
  if (inm !== undefined) return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
  const ims = Date.parse(h['if-modified-since'] ?? '');
  return Number.isFinite(ims) && Math.floor(mtime.getTime() / 1000) * 1000 <= ims;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`web/server: ${dir}/index.html is missing: run "node web/build.mjs" first`);
    process.exit(1);
  }
  listen(dir, { port: process.env.PORT, host: process.env.HOST });
}

/** Serves dir on host:port (127.0.0.1:8080 unless given) and prints the address; returns the server. */
export function listen(dir, { port, host } = {}) {
  const server = createServer(dir);
  server.on('error', (err) => {
    console.error(`web/server: ${err.message}`);
    process.exitCode = 1;
  });
  server.listen(Number(port ?? 8080), host || '127.0.0.1', function () {
    const { address, port: p } = this.address();
    console.log(`Tensorpad at http://${address.includes(':') ? `[${address}]` : address}:${p}/`);
  });
  return server;
}
