// `tensorpad check` as a course author meets it: a small exercise (tests/js/fixtures-exercises/frob-norm)
// copied to a scratch folder with one thing broken, and the check naming what is wrong, where, once.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkExercise } from '../../web/judge/node/check.js';
import { loadExercise, EXERCISES_DIR } from '../../web/content/exercises.js';
import { generateCases } from '../../web/judge/core/judge.js';
import { nodeEnv, judgeSource } from '../../web/judge/node/runner.js';
import { compareValues } from '../../web/judge/core/compare.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures-exercises/', import.meta.url));

// A scratch root holding a copy of frob-norm, changed by edit({ read, write, json }).
function scratch(edit = () => {}, id = 'frob-norm') {
  const root = mkdtempSync(join(tmpdir(), 'tp-author-'));
  cpSync(join(FIXTURES, 'frob-norm'), join(root, id), { recursive: true });
  const file = (f) => join(root, id, f);
  const read = (f) => readFileSync(file(f), 'utf8');
  const write = (f, text) => writeFileSync(file(f), text);
  edit({ read, write, json: (change) => { const j = JSON.parse(read('exercise.json')); change(j); write('exercise.json', JSON.stringify(j, null, 2)); } });
  return root;
}
// Replaces `from` in one file of the copy; the edit must change something.
const replace = (file, from, to) => ({ read, write }) => {
  const text = read(file).replace(from, to);
  assert.notEqual(text, read(file), `${from} is not in ${file}`);
  write(file, text);
};
const check = (edit) => checkExercise('frob-norm', { root: scratch(edit) });
const failed = (results) => results.filter((r) => !r.ok).map((r) => `${r.name} — ${r.message}`);
const failing = async (edit) => {
  const f = failed(await check(edit));
  return { f, text: f.join('\n') };
};

describe('tensorpad check: the mistakes of cases.js', () => {
  test('the unchanged exercise passes every check, with a mistake that equals the reference on one case only', async () => {
    const results = await check();
    assert.deepEqual(failed(results), []);
    assert.ok(!results.some((r) => r.skipped));
    // the sum of |entries| is the norm on the case with one nonzero entry, and only there
    const exercise = loadExercise('frob-norm', FIXTURES);
    const cases = await generateCases({ exercise, seed: 1, env: nodeEnv() });
    const same = cases.filter((c) => compareValues(c.mistakes.find((m) => m.index === 1).value, c.expected, { atol: 1e-5, rtol: 1e-5 }).pass);
    assert.deepEqual(same.map((c) => c.label?.en), ['one entry']);
  });

  test('a key that names no function is an error naming the functions there are', async () => {
    const { text } = await failing(replace('cases.js', 'frobNorm: [', 'frobnorm: ['));
    assert.match(text, /mistakes are well formed.* — cases\.js: mistakes\.frobnorm names no function of exercise\.json \(did you mean frobNorm\?\); its functions: frobNorm/);
  });

  test('an entry without a hint (hnit: for hint) or without a fn is an error', async () => {
    const { text } = await failing((files) => {
      replace('cases.js', '{ hint: {', '{ hnit: {')(files);
      replace('cases.js', 'fn: (A) => A.abs()', 'fun: (A) => A.abs()')(files);
    });
    assert.match(text, /cases\.js: mistakes\.frobNorm\[0\] has no hint \(it has "hnit": a typo\?\)/);
    assert.match(text, /cases\.js: mistakes\.frobNorm\[1\] has no fn \(it has "fun": a typo\?\)/);
  });

  const addMistake = (entry) => replace('cases.js', /\n {2}\],\n\};/, `\n    ${entry},\n  ],\n};`);

  test('a mistake that throws on some case is an error naming the mistake and the case', async () => {
    const { f, text } = await failing(addMistake("{ hint: 'rows only', fn: (A) => { if (A.shape[0] === A.shape[1]) throw new RangeError('square'); return 1; } }"));
    assert.equal(f.length, 1, text);
    assert.match(text, /every mistake runs on every case .* — mistakes\.frobNorm\[2\] \("rows only"\) threw RangeError: square on example 1: frobNorm\(A=\[2×2\]\)/);
  });

  test('a mistake that gives the reference\'s answer on every case is an error: it can never fire', async () => {
    const { f, text } = await failing(addMistake("{ hint: 'almost', fn: (A) => A.square().sum().sqrt().item() * (1 + 1e-7) }"));
    assert.equal(f.length, 1, text);
    assert.match(text, /mistakes\.frobNorm\[2\] \("almost"\) gives the reference's answer \(within atol 0\.00001, rtol 0\.00001\) on all 9 cases where it answers: it can never fire/);
  });
});

describe('tensorpad check: what the reference returns against functions[].returns', () => {
  const reference = (body) => ({ write }) => write('reference.js', `export function frobNorm(A) {\n  ${body}\n}\n`);
  const ROW0_EMPTY = 'A.select(0, 0).abs().sum().item() === 0';   // only the case with one entry, in its second row

  test('NaN where a number is declared names the case; "allowNonFinite": true accepts it', async () => {
    const nan = reference(`return ${ROW0_EMPTY} ? NaN : A.square().sum().sqrt().item();`);
    const { f, text } = await failing(nan);
    assert.equal(f.length, 1, text);
    assert.match(text, /reference returns what functions\[\]\.returns declares — hidden 4 \(one entry\): frobNorm\(A=\[2×2\]\) with seed 1 \(and 1 more case\): reference\.js returned NaN; frobNorm declares "returns": "number"/);
    assert.deepEqual(failed(await check((files) => { nan(files); files.json((j) => { j.functions[0].allowNonFinite = true; }); })), []);
  });

  test('a string, or a tensor, where a number is declared is reported', async () => {
    const str = await failing(reference("return 'five';"));
    assert.match(str.text, /— example 1: frobNorm\(A=\[2×2\]\) \(and 8 more cases\): reference\.js returned a string "five", but frobNorm declares "returns": "number"/);
    const tensor = await failing(reference('return A.square().sum().sqrt();'));
    assert.match(tensor.text, /reference\.js returned a tensor of shape \[\], but frobNorm declares "returns": "number"; return a number, e.g. with \.item\(\)/);
  });

  test('returns may list the kinds a function returns', async () => {
    const sometimesFalse = reference(`return ${ROW0_EMPTY} ? false : A.square().sum().sqrt().item();`);
    assert.match((await failing(sometimesFalse)).text, /returned a boolean \(false\), but frobNorm declares "returns": "number"/);
    assert.deepEqual(failed(await check((files) => { sometimesFalse(files); files.json((j) => { j.functions[0].returns = ['number', 'boolean']; }); })), []);
    const typo = await failing(({ json }) => json((j) => { j.functions[0].returns = 'nubmer'; }));
    assert.match(typo.text, /field `functions\[0\]\.returns` must be one of "number", "integer", "array", "tensor", "boolean"/);
  });
});

describe('tensorpad check: what exercise.json says against what renders and what the reference takes', () => {
  test('a formula KaTeX cannot render, in a statement or a title, is named by field, language and line', async () => {
    const { f, text } = await failing(({ json }) => json((j) => { j.statement.zh = '矩阵的范数。\n\n$\\frac{1}{2$ 是一半。'; j.title.en = 'The $\\sqrtt{2}$ norm'; }));
    assert.equal(f.length, 1, text);
    assert.match(text, /statement render \(Markdown and KaTeX\) in both languages — exercise\.json title\.en: KaTeX: Undefined control sequence: \\sqrtt/);
    assert.match(text, /exercise\.json statement\.zh, line 3: KaTeX: /);
  });

  test('a misspelt field is named with the field it was meant to be; a ragged $tensor example by its place', async () => {
    const typo = await failing(({ json }) => json((j) => { j.timelimitMs = j.timeLimitMs; delete j.timeLimitMs; }));
    assert.match(typo.text, /field `timeLimitMs` is missing; also: field `timelimitMs` is not allowed \(unknown field; a typo\?\)$/);
    const ragged = await failing(({ json }) => json((j) => { j.examples[0].args[0] = { $tensor: [[1, 2], [3]] }; }));
    assert.match(ragged.text, /field `examples\[0\]\.args\[0\]\.\$tensor` is not a tensor: ragged array: element \[1\] has shape \[1\] but element \[0\] has shape \[2\]$/);
  });

  test('params that name fewer arguments than the reference takes are reported', async () => {
    const { f, text } = await failing(({ json }) => json((j) => { j.functions[0].params = []; }));
    assert.match(text, /reference\.js exports every function of exercise\.json, taking the params it names — frobNorm takes 1 parameter in reference\.js, but functions\[\]\.params names 0 \(none\)/);
    assert.ok(f.length >= 1);
    // Read from the code: a reference using the global tp at its top level (the judge's worker has it) passes.
    assert.deepEqual(failed(await check(({ read, write }) => write('reference.js', `const ONE = tp.ones([1]);\n${read('reference.js')}`))), []);
  });
});

describe('tensorpad check: sources that do not parse', () => {
  test('a syntax error in reference.js or cases.js is named by file, line and column, in the first check', async () => {
    const ref = await failing(({ write }) => write('reference.js', 'export function frobNorm(A) {\n  return A.square().sum(.sqrt().item();\n}\n'));
    assert.equal(ref.f.length, 1, ref.text);
    assert.match(ref.text, /^frob-norm: exercise\.json validates; reference\.js and cases\.js parse and import nothing — \S*frob-norm\/reference\.js:2:25: does not parse: Unexpected token$/);
    const cases = await failing(replace('cases.js', 'export function generate', 'export function generate('));
    assert.match(cases.text, /frob-norm\/cases\.js:\d+:\d+: does not parse: /);
  });
});

describe('tensorpad check: determinism', () => {
  test('Math.random in reference.js is blamed on the reference, at the first case it changes, and at its line', async () => {
    const { text } = await failing(({ write }) => write('reference.js', 'export function frobNorm(A) {\n  const noise = 1e-3 * Math.random();\n  return A.square().sum().sqrt().item() + noise;\n}\n'));
    assert.match(text, /no Math\.random, Date\.now, performance\.now or crypto in cases\.js and reference\.js — reference\.js:2: Math\.random\(/);
    assert.match(text, /generator and reference are deterministic per seed — reference\.js gave different answers on two runs with seed 1, first at example 1: frobNorm\(A=\[2×2\]\): value: got/);
    assert.doesNotMatch(text, /generator gave different cases/);
  });

  test('Math.random in cases.js is blamed on the generator, at the first case it changes', async () => {
    const { text } = await failing(replace('cases.js', 'const n = rng.int(2, 4);', 'const n = 2 + Math.floor(Math.random() * 30);'));
    assert.match(text, /— cases\.js:8: Math\.random\(/);
    // Math.random may repeat a size on the two runs (1 in 30 per case), so the first case that differs
    // is usually hidden 1, now and then a later one.
    assert.match(text, /the generator gave different cases on two runs with seed 1, first hidden \d+: frobNorm\(A=\[\d×(\d+)\]\), then frobNorm\(A=\[\d×(?!\1\])\d+\]\); use only the rng generate\(\) is given/);
  });

  test('clocks and crypto are reported with their lines, even where they change no answer', async () => {
    const { f, text } = await failing(({ write }) => write('reference.js', 'export function frobNorm(A) {\n  const t0 = Date.now();\n' +
      '  const t1 = performance.now();\n  crypto.getRandomValues(new Uint8Array(1));\n  return A.square().sum().sqrt().item();\n}\n'));
    assert.equal(f.length, 1, text);
    assert.match(text, /reference\.js:2: Date\.now\(; reference\.js:3: performance\.now\(; reference\.js:4: crypto\.getRandomValues — these differ from run to run/);
  });
});

describe('tensorpad check: arguments that cannot reach the worker', () => {
  const arg = (code) => replace('cases.js', 'args: [tensorArg(one)]', `args: [${code}]`);
  const cases = {
    'a function': ['(A) => A', /argument 1 \(A\): a function;/],
    'a BigInt': ['3n', /argument 1 \(A\): a BigInt \(3n\);/],
    'an object that contains itself': ['(() => { const o = { n: 1 }; o.self = o; return o; })()', /argument 1 \(A\) at \.self: a circular reference/],
    'a tp tensor': ['tp.tensor(one)', /argument 1 \(A\): a tp tensor of shape \[2, 2\], which reaches the worker as \{\}/],
    'a hand-written { $tensor } of the wrong form': ['{ $tensor: one }', /argument 1 \(A\): a \{ \$tensor \} whose shape and data do not agree/],
  };
  for (const [what, [code, re]] of Object.entries(cases)) {
    test(`${what} is one error naming the case and the argument; the checks that need cases are skipped`, async () => {
      const results = await check(arg(code));
      const f = failed(results);
      assert.equal(f.length, 1, f.join('\n'));
      assert.match(f[0], /cases generate and the reference answers each \(seeds 1, 2\) — seed 1: hidden case 4 \(frobNorm\), argument 1/);
      assert.match(f[0], re);
      assert.match(f[0], /— use tensorArg\(\.\.\.\) for tensors$/);
      assert.ok(results.some((r) => r.skipped && /reference passes every case/.test(r.name)));
    });
  }

  test('a reference that throws is one error naming the case', async () => {
    const { f, text } = await failing(({ write }) => write('reference.js',
      "export function frobNorm(A) {\n  if (A.select(0, 0).abs().sum().item() === 0) throw new RangeError('empty first row');\n  return A.square().sum().sqrt().item();\n}\n"));
    assert.equal(f.length, 1, text);
    assert.match(text, /— seed 1: hidden 4 \(one entry\): frobNorm\(A=\[2×2\]\): reference\.js threw RangeError: empty first row$/);
  });

  test('a learner judged on such an exercise gets the same one message, in the reader\'s language', async () => {
    const exercise = loadExercise('frob-norm', scratch(arg('tp.tensor(one)')));
    const r = await judgeSource(exercise, 'export const frobNorm = (A) => 0;', { lang: 'zh' });
    assert.equal(r.status, 'error');
    assert.equal(r.errorKind, 'internal');
    assert.deepEqual(r.cases, []);
    assert.match(r.message, /^练习 frob-norm：生成用例或运行参考答案失败：隐藏用例 4（frobNorm）的参数 1（A）：形状为 \[2, 2\] 的 tp 张量/);
  });
});

describe('tensorpad list and check with one broken exercise among good ones', () => {
  // lora-params and frob-norm as they are, my-broken without statement.zh, bad-json with a comma missing.
  const root = scratch(({ json }) => json((j) => { j.id = 'my-broken'; delete j.statement.zh; }), 'my-broken');
  cpSync(join(FIXTURES, 'frob-norm'), join(root, 'frob-norm'), { recursive: true });
  cpSync(join(EXERCISES_DIR, 'lora-params'), join(root, 'lora-params'), { recursive: true });
  cpSync(join(FIXTURES, 'frob-norm'), join(root, 'bad-json'), { recursive: true });
  writeFileSync(join(root, 'bad-json', 'exercise.json'),
    readFileSync(join(root, 'bad-json', 'exercise.json'), 'utf8').replace('"frob-norm"', '"bad-json"').replace('"easy",', '"easy"'));
  const run = (...args) => new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'web/judge/node/cli.js'), ...args],
      { cwd: ROOT, timeout: 120000, env: { ...process.env, TENSORPAD_EXERCISES: root } },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
  });
  const BROKEN_ZH = /my-broken\/exercise\.json: field `statement\.zh` is missing/;
  const BAD_JSON = /bad-json\/exercise\.json:9:3: is not valid JSON: Expected ',' or '\}' after property value$/m;

  test('list lists the others and names the broken ones on stderr (invalid JSON at its line:column), exit 1', async () => {
    const r = await run('list');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^lora-params +easy +Counting LoRA parameters$/m);
    assert.match(r.stdout, /^frob-norm +easy +The Frobenius norm$/m);
    assert.doesNotMatch(r.stdout, /my-broken|bad-json/);
    assert.match(r.stderr, BROKEN_ZH);
    assert.match(r.stderr, BAD_JSON);
    assert.doesNotMatch(r.stderr, /position/);
  });

  test('check with no ids checks the others and fails the broken ones, exit 1', async () => {
    const r = await run('check');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^✓ frob-norm: starter code fails/m);
    assert.match(r.stdout, /^✓ lora-params: starter code fails/m);
    assert.match(r.stdout, /^✗ my-broken: exercise\.json validates; reference\.js and cases\.js parse and import nothing — .*my-broken\/exercise\.json: field `statement\.zh` is missing: the exercise is written in en and zh \(declare "languages": \["en"\] to write it in one\)$/m);
    assert.match(r.stdout, /^✗ bad-json: exercise\.json validates; reference\.js and cases\.js parse and import nothing — .*bad-json\/exercise\.json:9:3: is not valid JSON/m);
    assert.match(r.stdout, /^\d+ passed, 2 failed$/m);
  });

  test('check lora-params my-broken prints lora-params\' results too', async () => {
    const r = await run('check', 'lora-params', 'my-broken');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^✓ lora-params: reference passes every case \(seed 1\)/m);
    assert.match(r.stdout, BROKEN_ZH);
    assert.match(r.stdout, /^\d+ passed, 1 failed$/m);
  });
});
