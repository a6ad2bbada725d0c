// Authoring outside the repository's exercises/ and in one language: `tensorpad check`, `judge` and `show`
// take an exercise's folder path as well as an id, and an exercise may declare one language
// ("languages": ["en"], no zh anywhere), which check, judge, show, the chapter build and the page accept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadExercise } from '../../web/content/exercises.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(ROOT, 'web/judge/node/cli.js');
const FIXTURE = path.join(ROOT, 'tests/js/fixtures-exercises/row-means');

// A course folder outside the repository: <tmp>/course/row-means, and solutions beside it.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-authoring-'));
const course = path.join(tmp, 'course');
fs.cpSync(FIXTURE, path.join(course, 'row-means'), { recursive: true });
fs.writeFileSync(path.join(tmp, 'right.js'), 'export function rowMeans(A) {\n  return A.sum(-1).div(A.shape[1]);\n}\n');
fs.writeFileSync(path.join(tmp, 'columns.js'), 'export function rowMeans(A) {\n  return A.mean(0);\n}\n');
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

function run(args, { cwd = course, env = {} } = {}) {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, timeout: 120000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}

test('tensorpad check ./row-means checks an English-only exercise in a folder outside exercises/', async () => {
  const r = await run(['check', './row-means']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /✓ row-means: the title and statement render \(Markdown and KaTeX\) in en, its one language/);
  assert.match(r.stdout, /✓ row-means: reference passes every case/);
  assert.match(r.stdout, /^\d+ passed, 0 failed$/m);
  assert.doesNotMatch(r.stdout + r.stderr, /exercises\/row-means/, 'no misleading exercises/<path>');
});

test('an absolute path, a path from elsewhere and a bare folder name in the current directory all work', async () => {
  for (const [args, cwd] of [[['check', path.join(course, 'row-means')], ROOT], [['check', '../course/row-means'], path.join(tmp, 'course')], [['check', 'row-means'], course]]) {
    const r = await run(args, { cwd });
    assert.equal(r.code, 0, `${args.join(' ')} in ${cwd}: ${r.stdout}${r.stderr}`);
  }
});

test('tensorpad judge ./row-means sol.js judges: a right solution passes (exit 0), a wrong one fails with its hint (exit 1)', async () => {
  const right = await run(['judge', './row-means', '../right.js']);
  assert.equal(right.code, 0, right.stdout + right.stderr);
  assert.match(right.stdout, /^4 passed, 0 failed$/m);
  const wrong = await run(['judge', './row-means', '../columns.js']);
  assert.equal(wrong.code, 1, wrong.stdout + wrong.stderr);
  assert.match(wrong.stdout, /the mean of each column; average along the last axis/);
  // The judge's own words follow --lang; the exercise's (English-only) hint is shown as written.
  const zh = await run(['judge', './row-means', '../columns.js', '--lang', 'zh']);
  assert.equal(zh.code, 1);
  assert.match(zh.stdout, /未通过/);
  assert.match(zh.stdout, /the mean of each column/);
});

test('tensorpad show prints an English-only exercise in English whatever --lang is', async () => {
  const r = await run(['show', './row-means', '--lang', 'zh']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^# Row means {2}\(row-means, 简单\)/);
  assert.match(r.stdout, /Return the mean of each row/);
  assert.match(r.stdout, /容差：atol/);
});

test('a folder without exercise.json is a usage error naming the path; an unknown id names both readings', async () => {
  const missing = await run(['check', './nothing-here']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no exercise at \.\/nothing-here: .*nothing-here has no exercise\.json/);
  const unknown = await run(['judge', 'no-such-exercise', '../right.js']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown exercise "no-such-exercise" \(neither an id nor a folder with an exercise\.json\)/);
});

test('TENSORPAD_EXERCISES still points ids at another folder', async () => {
  const r = await run(['judge', 'row-means', path.join(tmp, 'right.js')], { cwd: ROOT, env: { TENSORPAD_EXERCISES: course } });
  assert.equal(r.code, 0, r.stdout + r.stderr);
});

test('declared languages are enforced field by field; without "languages" an exercise needs both', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-langs-'));
  const write = (mutate) => {
    const json = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'exercise.json'), 'utf8'));
    mutate(json);
    fs.rmSync(path.join(dir, 'row-means'), { recursive: true, force: true });
    fs.cpSync(FIXTURE, path.join(dir, 'row-means'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'row-means', 'exercise.json'), JSON.stringify(json));
    return () => loadExercise('row-means', dir);
  };
  assert.deepEqual(write(() => {})().languages, ['en']);
  assert.throws(write((j) => { delete j.languages; }), /field `title\.zh` is missing: the exercise is written in en and zh \(declare "languages": \["en"\]/);
  assert.throws(write((j) => { j.statement.zh = '中文'; }), /field `statement\.zh` is not allowed: "languages" is \["en"\]/);
  assert.throws(write((j) => { j.languages = ['zh']; }), /field `title\.zh` is missing: "languages" is \["zh"\]/);
  assert.throws(write((j) => { j.languages = ['fr']; }), /field `languages\[0\]`/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an English-only exercise placed in an English-only chapter builds; the chapter parses with no zh anywhere', () => {
  const chapters = path.join(tmp, 'chapters');
  fs.mkdirSync(path.join(chapters, 'solo'), { recursive: true });
  fs.writeFileSync(path.join(chapters, 'solo', 'en.md'),
    '---\nid: solo\ntitle: "Solo"\norder: 9\nlanguages: en\n---\n\n# Means\n\n```js id=m\ntp.tensor([[1, 3], [2, 6]]).mean(-1)\n```\n\n:::exercise row-means\n');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'web/build.mjs'), '--check', '--chapters', chapters],
    { encoding: 'utf8', env: { ...process.env, TENSORPAD_EXERCISES: course } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /1 chapter file\(s\) are valid/);
});
