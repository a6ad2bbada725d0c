// `tensorpad exercism <slug> <input-dir> <output-dir>` as Exercism runs a test runner: results.json in the
// output folder, valid against the v3 schema (tests/js/schemas, written from the spec), exit 0 whenever
// the runner ran, paths relative to the solution, and test_code that runs.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'web/judge/node/cli.js');
const schema = JSON.parse(readFileSync(join(ROOT, 'tests/js/schemas/exercism-results-v3.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

const run = (...args) => new Promise((resolve) => execFile(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 60000 },
  (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr })));

describe('tensorpad exercism', () => {
  let root;
  before(() => { root = mkdtempSync(join(tmpdir(), 'tp-exercism-')); });
  after(() => rmSync(root, { recursive: true, force: true }));

  async function runner(name, files) {
    const input = join(root, name, 'in');
    const output = join(root, name, 'out');
    mkdirSync(input, { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(input, file, '..'), { recursive: true });
      writeFileSync(join(input, file), text);
    }
    const r = await run('exercism', 'causal-attention', `${input}/`, `${output}/`);
    const results = JSON.parse(readFileSync(join(output, 'results.json'), 'utf8'));
    return { ...r, results, input };
  }

  test('a failing solution: status fail, every test with its code, valid v3, exit 0', async () => {
    const r = await runner('fail', { 'causal-attention.js': readFileSync(join(ROOT, 'tests/js/solutions/causal-attention/no-mask.js'), 'utf8') });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(validate(r.results), JSON.stringify(validate.errors));
    assert.equal(r.results.status, 'fail');
    assert.ok(r.results.tests.some((t) => t.status === 'fail' && /no causal mask/.test(t.message)));
    assert.ok(!JSON.stringify(r.results).includes(r.input), 'an absolute path reached the student');
  });

  test('test_code is runnable: evaluated with the reference, it gives a value', async () => {
    const r = await runner('code', { 'causal-attention.js': 'export const causalAttention = (Q) => Q;\n' });
    const { init } = await import('tensorpad');
    const tp = await init();
    const { causalAttention } = await import(join(ROOT, 'exercises/causal-attention/reference.js'));
    globalThis.tp = tp;
    try {
      for (const t of r.results.tests) {
        assert.match(t.test_code, /^causalAttention\(tp\.tensor\(\[\[/);
        const value = new Function('tp', 'causalAttention', `return ${t.test_code};`)(tp, causalAttention);
        assert.ok(tp.isTensor(value), t.test_code);
      }
    } finally {
      delete globalThis.tp;
    }
  });

  test('a solution that does not parse: status error with a message naming the file relative to the solution', async () => {
    const r = await runner('syntax', { 'causal-attention.js': 'export function causalAttention(Q, K, V) {\n  return Q\n' });
    assert.equal(r.code, 0);
    assert.ok(validate(r.results), JSON.stringify(validate.errors));
    assert.equal(r.results.status, 'error');
    assert.match(r.results.message, /^causal-attention\.js:\d+/);
    assert.equal(r.results.tests, undefined);
  });

  test('the solution file named by .meta/config.json, and a right answer passes', async () => {
    const r = await runner('config', {
      '.meta/config.json': JSON.stringify({ files: { solution: ['src/attention.js'] } }),
      'src/attention.js': readFileSync(join(ROOT, 'exercises/causal-attention/reference.js'), 'utf8'),
    });
    assert.equal(r.results.status, 'pass', JSON.stringify(r.results.tests.filter((t) => t.status !== 'pass')));
    assert.ok(validate(r.results), JSON.stringify(validate.errors));
  });

  test('no solution file: status error, still exit 0', async () => {
    const r = await runner('none', { 'README.md': '# nothing here\n' });
    assert.equal(r.code, 0);
    assert.equal(r.results.status, 'error');
    assert.ok(validate(r.results));
  });

  test('the schema refuses what the spec does not allow', () => {
    assert.equal(validate({ version: 3, status: 'error' }), false, 'an error needs a message');
    assert.equal(validate({ version: 3, status: 'pass', tests: [{ name: 'a', status: 'pass', output: 'x'.repeat(501) }] }), false);
    assert.equal(validate({ version: 3, status: 'fail', tests: [{ name: 'a', status: 'fail' }], seed: 4 }), false);
  });
});
