#!/usr/bin/env node
// Serves web/dist on http://127.0.0.1:$PORT (default 8080) with COOP/COEP so the page is
// crossOriginIsolated, and a CSP on every response. Usage: PORT=8080 node web/server.mjs [dir]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

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

/** A static server for `root`; server.stats counts responses and body bytes sent (after gzip). */
export function createServer(root) {
  const base = path.resolve(root);
  const stats = { responses: 0, bytes: 0, byPath: {} };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let file = path.join(base, decodeURIComponent(url.pathname));
    if (!file.startsWith(base)) { res.writeHead(403).end('forbidden'); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file)) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'); return; }
    const ext = path.extname(file);
    const headers = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': /worker[^/]*\.js$/.test(file) ? WORKER_CSP : PAGE_CSP,
      'Cache-Control': 'no-cache',
      Vary: 'Accept-Encoding',
    };
    let body = fs.readFileSync(file);
    if (COMPRESSIBLE.test(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      body = zlib.gzipSync(body, { level: 6 });
      headers['Content-Encoding'] = 'gzip';
    }
    res.writeHead(200, { ...headers, 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
    stats.responses++;
    stats.bytes += body.length;
    stats.byPath[url.pathname] = (stats.byPath[url.pathname] ?? 0) + body.length;
  });
  server.stats = stats;
  return server;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`web/server: ${dir}/index.html is missing: run "node web/build.mjs" first`);
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 8080);
  createServer(dir).listen(port, '127.0.0.1', function () {
    console.log(`Tensorpad at http://127.0.0.1:${this.address().port}/`);
  });
}
