// The `tensorpad` command as a learner and a CI job use it: output lines, exit codes, JSON, and
// solutions that loop, throw, exit or print a fake summary.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'web/judge/node/cli.js');
const SOL = (id, file) => join(ROOT, 'tests/js/solutions', id, file);
const REF = (id) => join(ROOT, 'exercises', id, 'reference.js');
const SUMMARY = /^(\d+) passed, (\d+) failed$/;

function run(...args) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 60000 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr, lines: stdout.trimEnd().split('\n'), ms: Date.now() - t0 });
    });
  });
}

// The command with its stdout closed before it writes, as under `tensorpad list | head -1`.
function runIntoClosedPipe(...args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('tensorpad judge', () => {
  test('a right answer: one ✓ line per case, then "N passed, 0 failed", exit 0', async () => {
    const r = await run('judge', 'lora-params', REF('lora-params'));
    assert.equal(r.code, 0, r.stderr);
    const last = r.lines.at(-1);
    assert.match(last, SUMMARY);
    const [, passed, failed] = SUMMARY.exec(last);
    assert.equal(failed, '0');
    const caseLines = r.lines.slice(0, -1);
    assert.equal(caseLines.length, Number(passed));
    for (const l of caseLines) assert.match(l, /^✓ (example|hidden|q_proj|gate_proj).*: loraParams|^✓ .*: loraFraction/);
  });

  test('a wrong answer: ✗ lines with the reason, exit 1', async () => {
    const r = await run('judge', 'lora-params', SOL('lora-params', 'product.js'));
    assert.equal(r.code, 1);
    assert.ok(r.lines.some((l) => /^✗ .*loraParams\(dOut=\d+, dIn=\d+, r=\d+\) — value: got \d+, want \d+/.test(l)));
    assert.ok(r.lines.some((l) => /^ {4}hint: this is r·dOut·dIn/.test(l)));
    const [, passed, failed] = SUMMARY.exec(r.lines.at(-1));
    assert.ok(Number(failed) > 0);
    assert.equal(r.lines.filter((l) => /^[✓✗] /.test(l)).length, Number(passed) + Number(failed));
  });

  test('--json prints a results.json (version 3) that parses', async () => {
    const r = await run('judge', 'causal-attention', SOL('causal-attention', 'no-mask.js'), '--json');
    assert.equal(r.code, 1);
    const j = JSON.parse(r.stdout);
    assert.equal(j.version, 3);
    assert.equal(j.status, 'fail');
    assert.ok(j.tests.length >= 4);
    for (const t of j.tests) {
      assert.ok(['pass', 'fail', 'error'].includes(t.status));
      assert.equal(typeof t.name, 'string');
      assert.ok(t.status === 'pass' ? t.message === null : typeof t.message === 'string');
    }
    assert.ok(j.tests.some((t) => /no causal mask/.test(t.message ?? '')));
    const ok = JSON.parse((await run('judge', 'causal-attention', REF('causal-attention'), '--json')).stdout);
    assert.equal(ok.status, 'pass');
  });

  test('--seed N changes the hidden cases and keeps the verdict of a right answer', async () => {
    const a = JSON.parse((await run('judge', 'lora-params', REF('lora-params'), '--json', '--seed', '11')).stdout);
    const b = JSON.parse((await run('judge', 'lora-params', REF('lora-params'), '--json', '--seed', '12')).stdout);
    assert.equal(a.status, 'pass');
    assert.equal(b.status, 'pass');
    assert.equal(a.seed, 11);
    assert.notDeepEqual(a.tests.map((t) => t.name), b.tests.map((t) => t.name));
  });

  test('an endless loop is a "time limit exceeded" failure within seconds', async () => {
    const r = await run('judge', 'lora-params', SOL('lora-params', 'endless-loop.js'));
    assert.equal(r.code, 1);
    assert.match(r.stdout, /time limit exceeded \(2000 ms per case\)/);
    assert.match(r.lines.at(-1), /^0 passed, \d+ failed$/);
    assert.ok(r.ms < 15000, `took ${r.ms} ms`);
  });

  test('a thrown error fails its case with the message and the line it came from', async () => {
    const r = await run('judge', 'lora-params', SOL('lora-params', 'throws.js'));
    assert.equal(r.code, 1);
    assert.match(r.stdout, /threw RangeError: rank \d+ is not supported \(at .*throws\.js:2:\d+\)/);
  });

  test('process.exit(0) and printed summaries cannot change the verdict', async () => {
    for (const file of ['process-exit.js', 'fake-summary.js', 'reaches-judge.js']) {
      const r = await run('judge', 'lora-params', SOL('lora-params', file));
      assert.equal(r.code, 1, `${file}: exit code`);
      const last = r.lines.at(-1);
      assert.match(last, /^0 passed, \d+ failed$/, `${file}: summary`);
      assert.ok(!r.lines.slice(0, -1).some((l) => SUMMARY.test(l)), `${file}: a fake summary line reached stdout`);
      const j = JSON.parse((await run('judge', 'lora-params', SOL('lora-params', file), '--json')).stdout);
      assert.equal(j.status, 'fail', `${file}: JSON status`);
    }
    const exit = await run('judge', 'lora-params', SOL('lora-params', 'process-exit.js'));
    assert.match(exit.stdout, /process\.exit\(0\) is not allowed in a solution/);
  });

  test('usage errors exit 2: unknown exercise, missing file, syntax error with its line, missing export', async () => {
    const unknown = await run('judge', 'no-such-id', REF('lora-params'));
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown exercise "no-such-id"/);

    const missing = await run('judge', 'lora-params', '/nonexistent/solution.js');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /solution file not found/);

    const syntax = await run('judge', 'lora-params', SOL('lora-params', 'syntax-error.js'));
    assert.equal(syntax.code, 2);
    assert.match(syntax.stderr, /syntax-error\.js:2:\d+: SyntaxError/);
    assert.match(syntax.stderr, /2 \| {3}return r \* \(dOut \+ dIn;/);

    const noExport = await run('judge', 'lora-params', SOL('lora-params', 'missing-export.js'));
    assert.equal(noExport.code, 2);
    assert.match(noExport.stderr, /does not export `loraFraction`/);
    const j = JSON.parse((await run('judge', 'lora-params', SOL('lora-params', 'missing-export.js'), '--json')).stdout);
    assert.equal(j.status, 'error');
    assert.match(j.message, /loraFraction/);

    assert.equal((await run('judge', 'lora-params')).code, 2);
    assert.equal((await run('judge', 'lora-params', REF('lora-params'), '--seed', 'abc')).code, 2);
    assert.equal((await run('frobnicate')).code, 2);
  });

  test('a solution that cannot load is one message on stderr and exit 2, like a syntax error', async () => {
    const r = await run('judge', 'lora-params', SOL('lora-params', 'imports-missing.js'));
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^loading .*imports-missing\.js failed: .*no-such-package-for-tensorpad/);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    const j = JSON.parse((await run('judge', 'lora-params', SOL('lora-params', 'imports-missing.js'), '--json')).stdout);
    assert.equal(j.status, 'error');
    assert.equal(j.error_kind, 'load');
    assert.deepEqual(j.tests, []);
  });

  test('a missing } is reported where the parser noticed it, with the line of the bracket left open', async () => {
    const r = await run('judge', 'lora-params', SOL('lora-params', 'unclosed-brace.js'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unclosed-brace\.js:4:1: SyntaxError: 'import' and 'export' may only appear at the top level/);
    assert.match(r.stderr, /\nhint: an unclosed \{ \( or \[ above this line\? The \{ on line 1 is never closed\.\n/);
    const zh = await run('judge', 'lora-params', SOL('lora-params', 'unclosed-brace.js'), '--lang', 'zh');
    assert.match(zh.stderr, /\n提示：上面是否有未闭合的 \{、\( 或 \[？第 1 行的 \{ 没有闭合。\n/);
  });

  test('--lang zh: the judge\'s messages, the hints and the summary in Chinese, with no English left', async () => {
    const r = await run('judge', 'lora-params', SOL('lora-params', 'product.js'), '--lang', 'zh');
    assert.equal(r.code, 1);
    assert.ok(r.lines.some((l) => /^✗ 隐藏用例 \d+：loraParams\(dOut=\d+, dIn=\d+, r=\d+\) — 值：得到 \d+，期望 \d+（绝对误差/.test(l)), r.stdout);
    assert.ok(r.lines.some((l) => l === '    提示：这是 r·dOut·dIn：B（dOut×r）和 A（r×dIn）是两个独立的矩阵，参数量应相加：r·dOut + r·dIn'));
    assert.doesNotMatch(r.stdout, /\b(value|got|want|hint|error|allowed|hidden|passed|failed)\b|this is r·dOut·dIn/);
    assert.match(r.lines.at(-1), /^0 通过，15 未通过$/);
    const slow = await run('judge', 'lora-params', SOL('lora-params', 'endless-loop.js'), '--lang', 'zh');
    assert.match(slow.stdout, /超出时间限制（每个用例 2000 ms）/);
    assert.match(slow.stdout, /未运行：前面的用例超出了时间限制/);
    const j = JSON.parse((await run('judge', 'lora-params', SOL('lora-params', 'product.js'), '--lang', 'zh', '--json')).stdout);
    assert.ok(j.tests.some((t) => /提示：这是 r·dOut·dIn/.test(t.message ?? '')));
  });

  test('a flag it does not know, or one missing its value, is a usage error naming that flag', async () => {
    for (const [args, message] of [
      [['--frobnicate'], /tensorpad: unknown option --frobnicate\n/],
      [['-x'], /tensorpad: unknown option -x\n/],
      [['--seed'], /tensorpad: --seed needs a value\n/],
      [['--seed', '--json'], /tensorpad: --seed needs a value\n/],
      [['--json=yes'], /tensorpad: --json takes no value\n/],
    ]) {
      const r = await run('judge', 'lora-params', REF('lora-params'), ...args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
      assert.match(r.stderr, /usage:/);
    }
    const eq = JSON.parse((await run('judge', 'lora-params', REF('lora-params'), '--json', '--seed=11')).stdout);
    assert.equal(eq.seed, 11);
  });

  test('the usage text names --lang for every command that takes it', async () => {
    const r = await run('--help');
    assert.match(r.stdout, /tensorpad judge <exercise-id\|folder> <solution\.js> .*\[--lang zh\|en\]/);
    assert.match(r.stdout, /tensorpad list \[--lang zh\|en\]/);
    assert.match(r.stdout, /tensorpad show <exercise-id\|folder> \[--lang zh\|en\]/);
  });

  test('a closed stdout ends the judge quietly with the verdict\'s exit code', async () => {
    const r = await runIntoClosedPipe('judge', 'lora-params', SOL('lora-params', 'product.js'));
    assert.equal(r.stderr, '');
    assert.equal(r.code, 1);
  });
});

describe('tensorpad list / show / check', () => {
  test('list prints every exercise with its difficulty and title', async () => {
    const r = await run('list');
    assert.equal(r.code, 0);
    for (const id of ['lora-params', 'low-rank-approx', 'energy-curve', 'rotation-error', 'causal-attention']) {
      assert.ok(r.lines.some((l) => l.startsWith(id) && /(easy|medium|hard)/.test(l)), id);
    }
    const zh = await run('list', '--lang', 'zh');
    assert.match(zh.stdout, /LoRA 的参数账/);
  });

  test('list follows the chapter: the order of its :::exercise directives', async () => {
    const chapter = readFileSync(join(ROOT, 'web/chapters/linear-algebra/en.md'), 'utf8');
    const placed = [...chapter.matchAll(/^:::exercise (\S+)/gm)].map((m) => m[1]);
    const listed = (await run('list')).lines.slice(1).map((l) => l.split(/\s+/)[0]);
    assert.ok(placed.length >= 30);
    assert.deepEqual(listed.slice(0, placed.length), placed);
    assert.deepEqual(listed.slice(placed.length), listed.slice(placed.length).sort());
  });

  test('list --lang zh has Chinese headers and difficulties, aligned in a terminal', async () => {
    const r = await run('list', '--lang', 'zh');
    assert.equal(r.code, 0);
    assert.match(r.lines[0], /^编号 +难度 +标题$/);
    assert.doesNotMatch(r.stdout, /\b(difficulty|title|easy|medium|hard)\b/);   // "id" may be in a title: "token id"
    const rows = r.lines.slice(1);
    assert.ok(rows.every((l) => /^\S+ +(简单|中等|困难)  \S/.test(l)), r.stdout);
    // the titles start in one column of the terminal, where a Chinese character takes two
    const width = (text) => [...text].reduce((w, ch) => w + (/[\u4e00-\u9fff]/.test(ch) ? 2 : 1), 0);
    assert.equal(new Set(r.lines.map((l) => width(/^\S+ +\S+ +/.exec(l)[0]))).size, 1, r.stdout);
  });

  test('list ends quietly, exit 0, when its reader closes the pipe (list | head -1)', async () => {
    const r = await runIntoClosedPipe('list');
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
  });

  test('show prints the statement and the starter code in either language', async () => {
    const en = await run('show', 'causal-attention');
    assert.equal(en.code, 0);
    assert.match(en.stdout, /# Causal attention/);
    assert.match(en.stdout, /export function causalAttention\(Q, K, V\)/);
    const zh = await run('show', 'causal-attention', '--lang', 'zh');
    assert.match(zh.stdout, /# 因果注意力/);
    assert.match(zh.stdout, /本地判题/);
    assert.match(zh.stdout, /\/\/ Q、K 是形状为 \[n, d\] 的 tp 张量；V 是 \[n, dv\]。\n\nexport function causalAttention\(Q, K, V\)/);
    assert.doesNotMatch(zh.stdout, /\/\/ Q, K are tp tensors/);
    assert.match(zh.stdout, /\(causal-attention, (简单|中等|困难)\)/);
    assert.match(en.stdout, /\/\/ Q, K are tp tensors of shape \[n, d\]/);
    assert.equal((await run('show', 'nope')).code, 2);
    assert.equal((await run('show', 'lora-params', '--lang', 'fr')).code, 2);
  });

  test('check verifies an exercise: schema, determinism, reference passes, starter fails', async () => {
    const r = await run('check', 'lora-params');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✓ lora-params: generator and reference are deterministic per seed/);
    assert.match(r.stdout, /✓ lora-params: starter code fails/);
    assert.match(r.lines.at(-1), /^\d+ passed, 0 failed$/);
  });
});
