// `tensorpad grade` as an instructor uses it: a folder of 20 submissions (right, wrong, endless, exiting,
// not parsing, printing fake summaries) becomes grades.csv, grades.json and one results.json each; a
// submission that loops costs its own time limit only. Per-student folders grade several exercises.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pointsOf, gradeSubmissions, writeGradebook } from '../../web/judge/node/grade.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'web/judge/node/cli.js');
const LIMIT_MS = 1500;

const run = (...args) => new Promise((resolve) => {
  const t0 = Date.now();
  execFile(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 240000 },
    (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr, ms: Date.now() - t0 }));
});

const RIGHT = 'export const loraParams = (o, i, r) => r * (o + i);\nexport const loraFraction = (o, i, r) => r * (o + i) / (o * i);\n';
const SUBMISSIONS = {
  right1: RIGHT,
  right2: 'function loraParams(dOut, dIn, r) { return r * dOut + r * dIn; }\nfunction loraFraction(dOut, dIn, r) { return loraParams(dOut, dIn, r) / (dOut * dIn); }\n',
  right3: `export function loraParams(a, b, r) { let n = 0; for (let i = 0; i < r; i++) n += a + b; return n; }\n` +
    'export function loraFraction(a, b, r) { return loraParams(a, b, r) / a / b; }\n',
  right4: RIGHT.replace('=>', '=>  '),
  right5: `// with a comment\n${RIGHT}`,
  right6: 'const p = (o, i, r) => r * (o + i);\nconst f = (o, i, r) => p(o, i, r) / (o * i);\nexport { p as loraParams, f as loraFraction };\n',
  product: 'export const loraParams = (o, i, r) => r * o * i;\nexport const loraFraction = (o, i, r) => r * (o + i) / (o * i);\n',
  percent: 'export const loraParams = (o, i, r) => r * (o + i);\nexport const loraFraction = (o, i, r) => 100 * r * (o + i) / (o * i);\n',
  halfright: 'export const loraParams = (o, i, r) => r * (o + i);\nexport const loraFraction = () => 0.5;\n',
  constant: 'export const loraParams = () => 42;\nexport const loraFraction = () => 0.1;\n',
  loop: 'export const loraParams = () => { for (;;) {} };\nexport const loraFraction = () => 0;\n',
  loopAtTop: 'while (true) {}\nexport const loraParams = () => 0;\nexport const loraFraction = () => 0;\n',
  exitAtTop: 'process.exit(0);\nexport const loraParams = () => 0;\nexport const loraFraction = () => 0;\n',
  exitInCase: 'export const loraParams = () => process.exit(0);\nexport const loraFraction = () => 0;\n',
  syntax1: 'export function loraParams(o, i, r) {\n  return r * (o + i;\n}\n',
  syntax2: 'export const loraParams = (o, i, r) => {\n',
  fakeSummary1: "console.log('12 passed, 0 failed');\nexport const loraParams = () => 0;\nexport const loraFraction = () => 0;\n",
  fakeSummary2: "import fs from 'node:fs';\nfs.writeSync(1, '12 passed, 0 failed\\n');\nexport const loraParams = () => 1;\nexport const loraFraction = () => 0;\n",
  missingExport: 'export const loraParams = (o, i, r) => r * (o + i);\n',
  throws: "export const loraParams = () => { throw new Error('no'); };\nexport const loraFraction = () => { throw 'x'.repeat(1e6); };\n",
};

describe('tensorpad grade', () => {
  let dir;
  let result;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tp-grade-'));
    for (const [name, code] of Object.entries(SUBMISSIONS)) writeFileSync(join(dir, `${name}.js`), code);
    result = await run('grade', 'lora-params', dir, '--time-limit', String(LIMIT_MS), '--seed', '5');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('grades the 20 submissions and exits 0', () => {
    assert.equal(Object.keys(SUBMISSIONS).length, 20);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^20 submissions graded in [\d.]+ s/m);
  });

  test('grades.csv has one right row per submission', () => {
    const [header, ...lines] = readFileSync(join(dir, 'grades.csv'), 'utf8').trimEnd().split('\n');
    assert.equal(header, 'student,exercise,status,passed,failed,points,max_points,seed,time_ms');
    const rows = Object.fromEntries(lines.map((l) => l.split(',')).map((c) => [c[0], c]));
    assert.equal(Object.keys(rows).length, 20);
    const total = Number(rows.right1[3]);
    assert.ok(total >= 8);
    for (const name of ['right1', 'right2', 'right3', 'right4', 'right5', 'right6']) {
      assert.deepEqual(rows[name].slice(1, 8), ['lora-params', 'pass', String(total), '0', String(total), String(total), '5'], name);
    }
    for (const name of ['product', 'percent', 'halfright', 'constant', 'loop', 'exitInCase', 'fakeSummary1', 'fakeSummary2', 'throws']) {
      assert.equal(rows[name][2], 'fail', name);
      assert.ok(Number(rows[name][3]) < total, name);
      assert.equal(Number(rows[name][5]), Number(rows[name][3]), `${name}: one point per case passed`);
    }
    // partial credit: the loraParams cases pass, the loraFraction ones do not
    assert.ok(Number(rows.halfright[5]) > 0 && Number(rows.percent[5]) > 0);
    for (const name of ['loopAtTop', 'exitAtTop', 'syntax1', 'syntax2', 'missingExport']) {
      assert.deepEqual([rows[name][2], rows[name][5], rows[name][6]], ['error', '0', String(total)], name);
    }
    assert.equal(rows.fakeSummary1[4], String(total - Number(rows.fakeSummary1[3])));
  });

  test('a looping submission costs its own time limit (plus starting its sandbox), not the whole batch', () => {
    const rows = Object.fromEntries(readFileSync(join(dir, 'grades.csv'), 'utf8').trimEnd().split('\n').slice(1)
      .map((l) => l.split(',')).map((c) => [c[0], Number(c[8])]));
    for (const name of ['loop', 'loopAtTop']) {
      assert.ok(rows[name] >= LIMIT_MS * 0.9 && rows[name] < LIMIT_MS + 20000, `${name}: ${rows[name]} ms`);
    }
    // 20 submissions, two of them loop for LIMIT_MS: far less than 20 limits one after the other
    assert.ok(result.ms < 20 * LIMIT_MS + 60000, `${result.ms} ms`);
  });

  test('grades.json and each results.json agree with the CSV', () => {
    const book = JSON.parse(readFileSync(join(dir, 'grades.json'), 'utf8'));
    assert.equal(book.grades.length, 20);
    const g = book.grades.find((x) => x.student === 'product');
    assert.equal(g.results, 'product.results.json');
    const res = JSON.parse(readFileSync(join(dir, g.results), 'utf8'));
    assert.equal(res.version, 3);
    assert.equal(res.status, 'fail');
    assert.equal(res.tests.filter((t) => t.status === 'pass').length, g.passed);
    assert.ok(!JSON.stringify(res).includes(dir), 'no absolute path in a results.json');
    assert.equal(book.students.right1.points, book.students.right1.maxPoints);
  });
});

test('per-student folders: several exercises, a missing file scores 0 of the maximum', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tp-grade-folders-'));
  try {
    for (const s of ['ana', 'bo']) mkdirSync(join(dir, s));
    writeFileSync(join(dir, 'ana', 'lora-params.js'), RIGHT);
    writeFileSync(join(dir, 'ana', 'matmul-cost.js'), readFileSync(join(ROOT, 'exercises/matmul-cost/reference.js'), 'utf8'));
    writeFileSync(join(dir, 'bo', 'lora-params.js'), SUBMISSIONS.product);
    const out = join(dir, 'out');
    const r = await run('grade', 'lora-params', dir, '--out', out, '--jobs', '1');
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(join(out, 'grades.csv'), 'utf8').trimEnd().split('\n').slice(1).map((l) => l.split(','));
    assert.deepEqual(lines.map((l) => [l[0], l[1], l[2]]), [['ana', 'lora-params', 'pass'], ['bo', 'lora-params', 'fail']]);
    assert.ok(existsSync(join(out, 'ana', 'lora-params.results.json')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('points: per case by default, or an exercise total shared over the cases', () => {
  const result = { status: 'fail', passed: 3, failed: 1 };
  assert.deepEqual(pointsOf({}, result, 4), { points: 3, maxPoints: 4 });
  assert.deepEqual(pointsOf({ points: { perCase: 2 } }, result, 4), { points: 6, maxPoints: 8 });
  assert.deepEqual(pointsOf({ points: { exercise: 10 } }, result, 4), { points: 7.5, maxPoints: 10 });
  assert.deepEqual(pointsOf({ points: { exercise: 10 } }, { status: 'error', passed: 0, failed: 0 }, 4), { points: 0, maxPoints: 10 });
  assert.deepEqual(pointsOf({}, null, 4), { points: 0, maxPoints: 4 });
});

test('one submission that cannot be graded is its own error row, never the end of the batch', async () => {
  const out = mkdtempSync(join(tmpdir(), 'tp-grade-fail-'));
  try {
    const blocker = join(out, 'a-file');   // a results path under a regular file cannot be written, even by root
    writeFileSync(blocker, '');
    const subs = ['ann', 'bob', 'cy'].map((student) => ({ student, exercise: 'lora-params', file: join(out, `${student}.js`) }));
    const rows = await gradeSubmissions(subs, {
      exercises: { 'lora-params': { id: 'lora-params' } }, seedOf: () => 5, caseCount: () => 3, jobs: 2,
      judgeFile: async (exercise, file) => {
        if (file.endsWith('bob.js')) throw new Error('EROFS: read-only file system');
        return { status: 'pass', passed: 3, failed: 0, cases: [], exerciseId: exercise.id, seed: 5 };
      },
      resultsPath: (sub) => sub.student === 'cy' ? join(blocker, 'cy.results.json') : join(out, `${sub.student}.results.json`),
    });
    assert.deepEqual(rows.map((r) => [r.student, r.status, r.points]), [['ann', 'pass', 3], ['bob', 'error', 0], ['cy', 'pass', 3]]);
    const bob = JSON.parse(readFileSync(join(out, 'bob.results.json'), 'utf8'));
    assert.equal(bob.status, 'error');
    assert.match(bob.message, /could not be graded: EROFS/);
    assert.equal(rows[2].results, null);
    assert.match(rows[2].resultsError, /ENOTDIR|EEXIST/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('grades.csv cells that would start a spreadsheet formula get a leading apostrophe (OWASP CSV injection)', () => {
  const out = mkdtempSync(join(tmpdir(), 'tp-grade-csv-'));
  try {
    const row = (student) => ({ student, exercise: 'lora-params', status: 'pass', passed: 1, failed: 0, points: -1,
      maxPoints: 1, seed: 5, timeMs: 9, results: null });
    const names = ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx', 'ann', '=HYPERLINK("http://x","a,b")'];
    const { csv } = writeGradebook(names.map(row), out);
    const lines = readFileSync(csv, 'utf8').split('\n');
    assert.deepEqual(lines.slice(1, 8).map((l) => l.slice(0, l.indexOf(',lora-params'))),
      ["'=1+1", "'+cmd", "'-2+3", "'@SUM(A1)", "'\tx", `"'\rx"`, 'ann']);
    assert.ok(lines[8].startsWith(`"'=HYPERLINK(""http://x"",""a,b"")",`), lines[8]);
    assert.match(lines[1], /,-1,1,5,9$/, 'numbers are written as numbers');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
