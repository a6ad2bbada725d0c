// The CLI runs a learner's code in a sandbox (web/judge/node/sandbox.js): a child process under Node's
// permission model. Each escape below is a failing verdict, not a crash and not a pass, and the judge's
// process is left with nothing running.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadExercise } from '../../web/content/exercises.js';
import { judgeFile } from '../../web/judge/node/runner.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'web/judge/node/cli.js');
const REFERENCE = join(ROOT, 'exercises/lora-params/reference.js');
const LIMITS = { perCaseMs: 1500, totalMs: 4000 };
let dir;
let exercise;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'tp-sandbox-'));
  exercise = loadExercise('lora-params');
});
after(() => rmSync(dir, { recursive: true, force: true }));

// A lora-params solution whose loraParams body is `body` (the right answer when body returns normally).
function solution(name, body, top = '') {
  const file = join(dir, `${name}.js`);
  writeFileSync(file, `${top}
export function loraParams(dOut, dIn, r) {
  ${body}
  return r * (dOut + dIn);
}
export const loraFraction = (dOut, dIn, r) => loraParams(dOut, dIn, r) / (dOut * dIn);
`);
  return file;
}

const judge = (file) => judgeFile(exercise, file, { seed: 2, sandbox: true, limits: LIMITS });
const failures = (r) => [r.message ?? '', ...r.cases.filter((c) => c.status !== 'pass').map((c) => c.message)].join('\n');

describe('the sandbox', () => {
  test('a right solution passes in it', async () => {
    const r = await judge(solution('right', ''));
    assert.equal(r.status, 'pass', failures(r));
  });

  const escapes = {
    'reading the reference with fs': [`const fs = await import('node:fs'); fs.readFileSync(${JSON.stringify(REFERENCE)}, 'utf8');`, /Access to this API has been restricted/],
    'importing the reference': [`await import(${JSON.stringify(new URL('file://' + REFERENCE).href)});`, /Access to this API has been restricted/],
    'starting a child process': ["const cp = await import('node:child_process'); cp.execSync('sleep 1000');", /Access to this API has been restricted/],
    'writing a file': [`const fs = await import('node:fs'); fs.writeFileSync(${JSON.stringify(join(dir, 'written.txt'))}, 'x');`, /Access to this API has been restricted/],
    'opening a connection': ["const net = await import('node:net'); net.connect(80, '127.0.0.1');", /network access is not allowed/],
    'fetching': ["await fetch('http://127.0.0.1:9/');", /network access is not allowed/],
    'sending a datagram from a Socket made with new': ["const dgram = await import('node:dgram'); new dgram.Socket('udp4').send('x', 9, '127.0.0.1');", /network access is not allowed/],
    'asking a Resolver made with new': ["const dns = await import('node:dns'); await new dns.promises.Resolver().resolve4('localhost');", /network access is not allowed/],
    'listening on a Server made with new': ["const net = await import('node:net'); new net.Server().listen(0);", /network access is not allowed/],
    'requesting through http.ClientRequest': ["const http = await import('node:http'); new http.ClientRequest('http://127.0.0.1:9/');", /network access is not allowed/],
  };
  for (const [what, [code, re]] of Object.entries(escapes)) {
    test(`${what} is refused: a failing verdict that says so`, async () => {
      const file = solution(what.replace(/\W+/g, '-'), `await (async () => { ${code} })();`);
      // the functions must be async for `await`: make them so
      writeFileSync(file, readFileSync(file, 'utf8').replace('export function loraParams', 'export async function loraParams')
        .replace('loraParams(dOut, dIn, r) / (dOut * dIn)', '(await loraParams(dOut, dIn, r)) / (dOut * dIn)')
        .replace('export const loraFraction = (', 'export const loraFraction = async ('));
      const r = await judge(file);
      assert.equal(r.status, 'fail', failures(r));
      assert.match(failures(r), re);
    });
  }
  // grade's flat layout: every student's file in one folder. A solution may read its own helpers, never its neighbours.
  for (const [how, refused] of Object.entries({
    'by fs': /Access to this API has been restricted/,
    'by import() of its URL': /Access to this API has been restricted/,
    'by a relative import()': /Cannot find module/,   // not among the files it is handed: the sandbox cannot read it
  })) {
    test(`a submission reading a neighbour's file ${how} is refused, while its own helper import works`, async () => {
      const flat = mkdtempSync(join(tmpdir(), 'tp-flat-'));
      try {
        writeFileSync(join(flat, 'neighbour.js'), 'export const loraParams = (o, i, r) => r * (o + i);\n');
        writeFileSync(join(flat, 'helper.mjs'), 'export const count = (o, i, r) => r * (o + i);\n');
        const neighbour = JSON.stringify(join(flat, 'neighbour.js'));
        const read = {
          'by fs': `const fs = await import('node:fs'); fs.readFileSync(${neighbour}, 'utf8');`,
          'by import() of its URL': `await import(${JSON.stringify(pathToFileURL(join(flat, 'neighbour.js')).href)});`,
          'by a relative import()': "await import('./neighbour.js');",
        }[how];
        writeFileSync(join(flat, 'nosy.js'), `import { count } from './helper.mjs';
export async function loraParams(dOut, dIn, r) {
  ${read}
  return count(dOut, dIn, r);
}
export const loraFraction = async (dOut, dIn, r) => (await loraParams(dOut, dIn, r)) / (dOut * dIn);
`);
        // the same solution without the read passes: the helper is readable
        writeFileSync(join(flat, 'honest.js'), `import { count } from './helper.mjs';
export const loraParams = count;
export const loraFraction = (o, i, r) => count(o, i, r) / (o * i);
`);
        assert.equal((await judge(join(flat, 'honest.js'))).status, 'pass');
        // as `tensorpad grade` judges it: the folder's other submissions are its neighbours
        const r = await judgeFile(exercise, join(flat, 'nosy.js'), { seed: 2, sandbox: true, limits: LIMITS,
          neighbours: [join(flat, 'neighbour.js'), join(flat, 'honest.js')] });
        assert.equal(r.status, 'fail', failures(r));
        assert.match(failures(r), refused);
      } finally {
        rmSync(flat, { recursive: true, force: true });
      }
    });
  }
  test('nothing was written', () => assert.equal(existsSync(join(dir, 'written.txt')), false));

  test('a solution that blocks the thread forever is stopped by the time limit', async () => {
    const t0 = Date.now();
    const r = await judge(solution('blocked', 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);'));
    assert.equal(r.status, 'fail');
    assert.match(failures(r), /time limit/);
    assert.ok(Date.now() - t0 < 30000);
  });

  test('memory outside the JS heap counts: 2 GB of typed arrays end in a memory-limit verdict, not a 2 GB process', async () => {
    const file = solution('offheap', 'const keep = []; for (let i = 0; i < 40; i++) keep.push(new Uint8Array(50e6).fill(1));');
    // time enough to allocate on a busy machine: the memory limit must be what stops it
    const r = await judgeFile(exercise, file, { seed: 2, sandbox: true, limits: { perCaseMs: 20000, totalMs: 25000 } });
    assert.notEqual(r.status, 'pass');
    // the limit that was hit (resident size: heap 256 + 512 MB), not the heap's, with the size measured
    const m = /memory limit exceeded: resident memory reached (\d+\.\d) MB, over its 768 MB limit/.exec(failures(r));
    assert.ok(m, failures(r));
    assert.ok(Number(m[1]) > 768, m[0]);
  });

  test('a JS heap over its limit says so, with the limit set and the heap V8 reached', async () => {
    const file = solution('onheap', 'const keep = []; for (;;) keep.push({ a: [1, 2, 3], b: String(keep.length) });');
    const r = await judgeFile(exercise, file, { seed: 2, sandbox: true, limits: { memoryMb: 48, perCaseMs: 20000, totalMs: 25000 } });
    assert.notEqual(r.status, 'pass');
    assert.match(failures(r), /memory limit exceeded: JS heap( reached \d+\.\d MB,)? over its 48 MB limit/);
  });

  test('a thrown 20 MB string is cut short', async () => {
    const r = await judge(solution('huge', "throw 'x'.repeat(20e6);"));
    assert.ok(failures(r).length < 100000, String(failures(r).length));
  });

  test('the CLI exits once its verdict is printed, with the solution blocked in a loop', async () => {
    const file = solution('loop', 'for (;;) {}');
    const t0 = Date.now();
    const { code, stdout } = await new Promise((resolve) => execFile(process.execPath, [CLI, 'judge', 'lora-params', file],
      { cwd: ROOT, timeout: 60000 }, (err, out) => resolve({ code: err ? err.code : 0, stdout: out })));
    assert.equal(code, 1, stdout);
    assert.match(stdout, /time limit/);
    assert.ok(Date.now() - t0 < 45000);
  });

  test('a CLI stopped by Ctrl-C (SIGINT) or SIGTERM leaves no sandbox running and no temporary copy behind', async () => {
    const file = solution('spin', 'for (;;) {}');
    for (const signal of ['SIGINT', 'SIGTERM']) {
      const tmp = mkdtempSync(join(tmpdir(), 'tp-sandbox-tmp-'));
      const cli = spawn(process.execPath, [CLI, 'judge', 'lora-params', file], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore' });
      const exited = new Promise((resolve) => cli.on('exit', (code, sig) => resolve({ code, sig })));
      try {
        let host = null;
        for (let i = 0; i < 600 && !host; i++) {   // until the sandbox runs the loop (a loaded machine is slow to start it)
          await new Promise((r) => setTimeout(r, 50));
          host = sandboxOf(cli.pid);
        }
        assert.ok(host, 'the sandbox started');
        cli.kill(signal);
        const { code } = await exited;
        assert.equal(code, signal === 'SIGINT' ? 130 : 143, `exit code after ${signal}`);
        for (let i = 0; i < 40 && alive(host); i++) await new Promise((r) => setTimeout(r, 50));   // SIGKILL is asynchronous
        assert.equal(alive(host), false, `the sandbox ${host} still runs after the CLI got ${signal}`);
        assert.deepEqual(readdirSync(tmp), [], `left in TMPDIR after ${signal}`);
      } finally {
        cli.kill('SIGKILL');
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  });
});

// The pid of the sandbox host a CLI process started, or null (from /proc: a fresh Debian has no ps).
function sandboxOf(parent) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/^\d+ \(.*\) \S+ (\d+)/.exec(readFileSync(`/proc/${entry}/stat`, 'utf8'))[1]);
      if (ppid === parent && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('sandbox-host.js')) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

// Whether pid runs (a zombie, killed and waiting for its parent to read its status, does not).
function alive(pid) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
