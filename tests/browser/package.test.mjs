// The npm package as a user gets it: `npm pack` (the build is done by .ci/build, which prepack runs),
// installed from the tarball into a fresh project whose PATH has node and npm only (no em++, emcc or
// cmake), then used: the README example, the CLI (--version, list, judge, serve), the judge as a
// library, the types (tsc --noEmit), and the browser build through esbuild and through an import map.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import esbuild from 'esbuild';
import { root, launch } from './helpers.mjs';

const run = promisify(execFile);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
let tmp, project, bin, env, packed, installMs, browser;

/** Runs a command in the project with the bare PATH; resolves to {code, stdout, stderr}. */
async function sh(cmd, args, opts = {}) {
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd: project, env, encoding: 'utf8', timeout: 180_000, ...opts });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (typeof e.code !== 'number') throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
const npx = (...args) => sh(path.join(bin, 'npx'), ['--no-install', ...args]);

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-pack-'));
  // A PATH with node, npm, npx and sh (npx runs bins through it) alone.
  bin = path.join(tmp, 'bin');
  fs.mkdirSync(bin);
  const npmCli = path.join(path.dirname(fs.realpathSync(process.execPath)), '..', 'lib', 'node_modules', 'npm', 'bin');
  const npmDir = fs.existsSync(npmCli) ? npmCli : path.join('/usr/share/nodejs/npm/bin');
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  fs.symlinkSync('/bin/sh', path.join(bin, 'sh'));
  for (const tool of ['npm', 'npx']) {
    fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\nexec "${process.execPath}" "${path.join(npmDir, `${tool}-cli.js`)}" "$@"\n`, { mode: 0o755 });
  }
  env = { HOME: process.env.HOME ?? tmp, PATH: bin, npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), '.npm'), npm_config_update_notifier: 'false' };
  for (const tool of ['em++', 'emcc', 'cmake']) {
    assert.notEqual((await run('/bin/sh', ['-c', `command -v ${tool} || true`], { env })).stdout.trim().length > 0, true, `${tool} is off the PATH`);
  }

  // The build is .ci/build's (run before the tests); --ignore-scripts keeps npm pack from running it again.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  [packed] = JSON.parse(stdout);
  project = path.join(tmp, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'uses-tensorpad', private: true, type: 'module' }));
  const t0 = performance.now();
  const install = await sh(path.join(bin, 'npm'), ['install', '--no-audit', '--no-fund', '--loglevel=error', path.join(tmp, packed.filename)]);
  installMs = performance.now() - t0;
  assert.equal(install.code, 0, install.stderr);
  console.log(`# tarball ${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked, ` +
    `${packed.entryCount} files; npm install took ${(installMs / 1000).toFixed(1)} s`);
});
after(async () => {
  await browser?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the tarball holds the built cores with their loaders, the judge, the exercises and the site, and no tests or C++ sources', () => {
  const files = packed.files.map((f) => f.path);
  for (const f of ['build/wasm/node/tensorpad_core.wasm', 'build/wasm/node/tensorpad_core.js', 'build/wasm/web/tensorpad_core.wasm',
    'build/wasm/web/tensorpad_core.js', 'build/wasm/web-mt/tensorpad_core.wasm', 'build/wasm/web-mt/tensorpad_core.worker.js',
    'wasm/js/node.js', 'wasm/js/browser.js', 'wasm/js/api-doc.json', 'types/tp.d.ts', 'web/dist/index.html', 'web/server.mjs',
    'exercises/lora-params/exercise.json', 'LICENSE', 'README.md']) {
    assert.ok(files.includes(f), `the tarball has ${f}`);
  }
  for (const prefix of ['tests/', 'cpp/', '.ci/', 'web/src/', 'build/wasm/CMakeFiles/', 'node_modules/']) {
    assert.deepEqual(files.filter((f) => f.startsWith(prefix)), [], `nothing under ${prefix}`);
  }
  assert.equal(pkg.private, undefined, 'package.json is not private');
});

test('the README example runs in Node from the installed package', async () => {
  const readme = fs.readFileSync(path.join(project, 'node_modules/tensorpad/README.md'), 'utf8');
  const example = /## The tensor API[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)[1];
  fs.writeFileSync(path.join(project, 'example.mjs'), example);
  const r = await sh(path.join(bin, 'node'), ['example.mjs']);
  assert.match(r.stdout, /^true\ntensor\(\[/, r.stderr);
  // Its last line shows the error a mistake gets.
  assert.match(r.stderr, /TensorpadError: matmul: shapes \[4, 3\] and \[4, 5\]/);
});

test('npx tensorpad: --version, list, judge (exit 0 correct, 1 wrong), and the judge as a library', async () => {
  assert.equal((await npx('tensorpad', '--version')).stdout.trim(), pkg.version);
  const list = await npx('tensorpad', 'list');
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /lora-params/);
  fs.copyFileSync(path.join(root, 'exercises/lora-params/reference.js'), path.join(project, 'right.js'));
  fs.copyFileSync(path.join(root, 'tests/js/solutions/lora-params/product.js'), path.join(project, 'wrong.js'));
  const right = await npx('tensorpad', 'judge', 'lora-params', 'right.js');
  assert.equal(right.code, 0, right.stdout + right.stderr);
  assert.match(right.stdout, /\d+ passed, 0 failed/);
  const wrong = await npx('tensorpad', 'judge', 'lora-params', 'wrong.js');
  assert.equal(wrong.code, 1, wrong.stdout + wrong.stderr);
  fs.writeFileSync(path.join(project, 'lib.mjs'), `import { judge } from 'tensorpad/judge';
import fs from 'node:fs';
const r = await judge('lora-params', fs.readFileSync('wrong.js', 'utf8'), { seed: 3, lang: 'zh' });
console.log(JSON.stringify({ status: r.status, failed: r.failed > 0 }));`);
  const lib = await sh(path.join(bin, 'node'), ['lib.mjs']);
  assert.deepEqual(JSON.parse(lib.stdout), { status: 'fail', failed: true }, lib.stderr);
});

test('a typed program compiles against the installed types (tsc --noEmit)', async () => {
  for (const f of ['sample.ts', 'tsconfig.json']) fs.copyFileSync(path.join(root, 'tests/types', f), path.join(project, f));
  const r = await sh(path.join(bin, 'node'), [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
});

test('npx tensorpad serve --port serves the built notebook from the package with COOP/COEP and the CSP', async () => {
  // In a process group of its own: npx runs the server as a grandchild, which the group's kill reaches.
  const child = spawn(path.join(bin, 'npx'), ['--no-install', 'tensorpad', 'serve', '--port', '0'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => { out += d; const m = /http:\/\/\S+\//.exec(out); if (m) resolve(m[0]); });
      child.stderr.on('data', (d) => { out += d; });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<title>Tensorpad<\/title>/);
    assert.equal(res.headers.get('cross-origin-opener-policy'), 'same-origin');
    assert.equal(res.headers.get('cross-origin-embedder-policy'), 'require-corp');
    assert.match(res.headers.get('content-security-policy'), /^default-src 'self'/);
  } finally {
    process.kill(-child.pid);
  }
});

test('in Chromium: a bundle made by esbuild from the package, and the package unbundled through an import map', async () => {
  const out = path.join(project, 'site');
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(project, 'entry.js'), `import { init } from 'tensorpad';
const tp = await init();
document.title = 'sum ' + tp.matmul(tp.ones([2, 3]), tp.ones([3, 2])).sum().item() + ' ' + tp.coreFlavor;`);
  await esbuild.build({ entryPoints: [path.join(project, 'entry.js')], bundle: true, format: 'esm', platform: 'browser',
    outfile: path.join(out, 'app.js'), absWorkingDir: project, logLevel: 'error' });
  // The single-thread core's .wasm goes beside the bundle, where its loader looks (see README).
  fs.copyFileSync(path.join(project, 'node_modules/tensorpad/build/wasm/web/tensorpad_core.wasm'), path.join(out, 'tensorpad_core.wasm'));
  fs.writeFileSync(path.join(out, 'index.html'), '<!doctype html><title>loading</title><script type="module" src="app.js"></script>');
  fs.writeFileSync(path.join(project, 'importmap.html'), `<!doctype html><title>loading</title>
<script type="importmap">{ "imports": { "tensorpad": "./node_modules/tensorpad/wasm/js/browser.js" } }</script>
<script type="module" src="importmap-main.js"></script>`);
  fs.copyFileSync(path.join(project, 'entry.js'), path.join(project, 'importmap-main.js'));
  // The installed package's own server (COOP/COEP, so the unbundled page can take the pthreads core),
  // less its CSP, which would refuse the page's inline import map: a host of the user's own decides that.
  const { createServer } = await import(pathToFileURL(path.join(project, 'node_modules/tensorpad/web/server.mjs')).href);
  const server = createServer(project);
  const serve = server.listeners('request')[0];
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    const writeHead = res.writeHead;
    res.writeHead = (status, headers = {}) => writeHead.call(res, status, Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'Content-Security-Policy')));
    serve(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}/`;
  try {
    browser = await launch();
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}site/`);
    await page.waitForFunction(() => document.title.startsWith('sum'), null, { timeout: 30000 });
    assert.equal(await page.title(), 'sum 12 web', errors.join('\n'));
    await page.goto(`${base}importmap.html`);
    await page.waitForFunction(() => document.title.startsWith('sum'), null, { timeout: 30000 });
    assert.equal(await page.title(), 'sum 12 web-mt', errors.join('\n'));
    assert.deepEqual(errors, []);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
