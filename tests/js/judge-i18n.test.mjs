// The judge speaks the reader's language: its own messages, the exercises' hints and starters, in English
// and in Chinese, around the same cases and the same verdicts.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, cpSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { messages, localized, LANGS } from '../../web/judge/core/messages.js';
import { compareValues } from '../../web/judge/core/compare.js';
import { tensorArg, encodeResult } from '../../web/judge/core/values.js';
import { inspectSolution } from '../../web/judge/core/source.js';
import { loadExercise, loadExercises, EXERCISES_DIR } from '../../web/content/exercises.js';
import { judgeSource, judgeFile } from '../../web/judge/node/runner.js';
import { formatText } from '../../web/judge/core/format.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOL = (id, file) => join(ROOT, 'tests/js/solutions', id, file);
const CJK = /[\u4e00-\u9fff]/;
const casesOf = (dir) => import(pathToFileURL(join(dir, 'cases.js')).href);
const hintsOf = async (dir) => Object.values((await casesOf(dir)).mistakes ?? {}).flat().map((m) => m.hint);

describe('messages(lang) and localized(text, lang)', () => {
  test('the Chinese catalog has every message of the English one, taking the same parameters', () => {
    const en = messages('en');
    const zh = messages('zh');
    assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
    for (const [key, value] of Object.entries(en)) {
      assert.equal(typeof zh[key], typeof value, key);
      if (typeof value === 'function') assert.equal(zh[key].length, value.length, `${key} parameters`);
      if (typeof value === 'object') assert.deepEqual(Object.keys(zh[key]), Object.keys(value), key);
    }
    assert.equal(messages('fr'), en);
  });

  test('a memory limit passed by a fraction of a MB reads as over it, in both languages', () => {
    // the sandbox kills at the first poll over the limit, so 768.3 MB of a 768 MB limit is the usual case
    assert.equal(messages('en').memoryLimit(768, 768.3, 'rss'),
      'memory limit exceeded: resident memory reached 768.3 MB, over its 768 MB limit');
    assert.equal(messages('zh').memoryLimit(768, 768.3, 'rss'), '超出内存限制：常驻内存达到 768.3 MB，超过 768 MB 的上限');
    assert.equal(messages('en').memoryLimit(48, null), 'memory limit exceeded: JS heap over its 48 MB limit');
  });

  test('picks one language of { en, zh } and shows a plain string as written', () => {
    assert.equal(localized({ en: 'transposed', zh: '转置了' }, 'zh'), '转置了');
    assert.equal(localized({ en: 'transposed', zh: '转置了' }, 'en'), 'transposed');
    assert.equal(localized('written once', 'zh'), 'written once');
    assert.equal(localized(null, 'zh'), null);
  });
});

describe('comparing and reading a solution, for a Chinese reader', () => {
  test('a wrong shape, a wrong value and a value that is not a number are explained in Chinese', () => {
    const want = tensorArg([[1, 2, 3], [4, 5, 6]]);
    assert.equal(compareValues(tensorArg([[1, 4], [2, 5], [3, 6]]), want, { lang: 'zh' }).message,
      '期望形状 [2, 3]，得到 [3, 2]（是不是转置了？）');
    assert.equal(compareValues(3, 4, { lang: 'zh' }).message,
      '值：得到 3，期望 4（绝对误差 1，相对误差 0.25；允许 atol 0 + rtol 0·|期望值|）');
    assert.match(compareValues([[1, 2, 3], [4, 5, 7]], want, { atol: 0.1, lang: 'zh' }).message,
      /^位置 \[1, 2\] 的值：得到 7，期望 6.*；6 个值中有 1 个超出容差$/);
    assert.equal(compareValues(encodeResult(Promise.resolve(1)), 3, { lang: 'zh' }).message,
      '期望一个数，得到一个 Promise（是不是忘了 await，或者把函数声明成了 async？）');
    assert.match(compareValues([[1, 2], [3]], want, { lang: 'zh' }).message, /^期望形状 \[2, 3\]，得到长度为 2 的数组（参差数组/);
  });

  test('a missing export and a syntax error are explained in Chinese; the parser\'s own words stay', () => {
    const missing = inspectSolution('export function f() {}\nfunction g() {}\n', ['f', 'g'], 'sol.js', 'zh');
    assert.equal(missing.message, 'sol.js 没有导出 `g`（需要导出：f, g）；g 已声明但没有导出');
    const syntax = inspectSolution('export function f(x) {\n  return x;\n\nexport function g() {}\n', ['f', 'g'], 'sol.js', 'zh');
    assert.match(syntax.message, /^sol\.js:4:1: SyntaxError: 'import' and 'export' may only appear at the top level/);
    assert.match(syntax.message, /\n提示：上面是否有未闭合的 \{、\( 或 \[？第 1 行的 \{ 没有闭合。$/);
  });
});

describe('judge(…, { lang: "zh" })', () => {
  const exercise = loadExercise('lora-params');
  const cache = new Map();

  test('a wrong solution gets Chinese messages with the Chinese hint, and no English', async () => {
    const { mistakes } = await casesOf(exercise.dir);
    const hint = mistakes.loraParams[0].hint;          // the hint for r·dOut·dIn
    const r = await judgeFile(exercise, SOL('lora-params', 'product.js'), { cache, lang: 'zh' });
    assert.equal(r.status, 'fail');
    assert.equal(r.lang, 'zh');
    const failing = r.cases.filter((c) => c.status !== 'pass');
    assert.ok(failing.some((c) => c.message.includes(`\n提示：${hint.zh}`)), failing.map((c) => c.message).join('\n'));
    for (const c of failing) {
      assert.match(c.message, /^值：得到 \d+(\.\d+)?，期望 [\d.e-]+（绝对误差/, c.message);
      assert.doesNotMatch(c.message, /\b(value|got|want|hint|or|error|allowed)\b/, c.message);
      for (const h of Object.values(mistakes).flat()) assert.ok(!c.message.includes(h.hint.en), c.message);
    }
    assert.ok(r.cases.some((c) => c.name.startsWith('隐藏用例 1：loraParams(')), r.cases.map((c) => c.name).join('\n'));
    assert.equal(formatText(r).split('\n').at(-1), `${r.passed} 通过，${r.failed} 未通过`);
  });

  test('time limits, thrown errors and load failures are reported in Chinese', async () => {
    const slow = await judgeFile(exercise, SOL('lora-params', 'endless-loop.js'), { cache, lang: 'zh', limits: { perCaseMs: 500 } });
    assert.ok(slow.cases.some((c) => c.message === '超出时间限制（每个用例 500 ms）'), slow.cases.map((c) => c.message).join('\n'));
    assert.ok(slow.cases.some((c) => c.message === '未运行：前面的用例超出了时间限制'));
    const threw = await judgeFile(exercise, SOL('lora-params', 'throws.js'), { cache, lang: 'zh' });
    assert.ok(threw.cases.some((c) => /^抛出了 RangeError: .*（位于 .*throws\.js:2:\d+）$/.test(c.message)));
    const broken = await judgeSource(exercise, "import { f } from 'no-such-package-for-tensorpad';\nexport { f as loraParams, f as loraFraction };\n",
      { cache, lang: 'zh' });
    assert.match(broken.message, /^加载 solution\.js 失败：/);
    const exits = await judgeFile(exercise, SOL('lora-params', 'process-exit.js'), { cache, lang: 'zh' });
    assert.ok(exits.cases.some((c) => c.message.includes('解答中不允许调用 process.exit(0)')), exits.cases.map((c) => c.message).join('\n'));
  });

  test('an invariant check answers in the reader\'s language', async () => {
    const r = await judgeFile(loadExercise('low-rank-approx'), SOL('low-rank-approx', 'off-by-one.js'), { lang: 'zh' });
    assert.ok(r.cases.some((c) => /^你的答案秩为 \d+，但题目要求秩 \d+ 的近似/.test(c.message)), r.cases.map((c) => c.message).join('\n'));
  });

  test('a hint written in one language is shown as written to readers of both', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tp-hint-'));
    cpSync(join(EXERCISES_DIR, 'lora-params'), join(root, 'lora-params'), { recursive: true });
    const file = join(root, 'lora-params', 'cases.js');
    const { mistakes } = await casesOf(exercise.dir);
    const text = readFileSync(file, 'utf8');
    const bilingual = `{ en: '${mistakes.loraParams[0].hint.en}',\n              zh: '${mistakes.loraParams[0].hint.zh}' }`;
    assert.ok(text.includes(bilingual));
    writeFileSync(file, text.replace(bilingual, "'B and A add up, they do not multiply'"));
    const r = await judgeFile(loadExercise('lora-params', root), SOL('lora-params', 'product.js'), { lang: 'zh' });
    assert.ok(r.cases.some((c) => c.message.includes('\n提示：B and A add up, they do not multiply')), r.cases.map((c) => c.message).join('\n'));
  });
});

describe('the exercises in both languages', () => {
  test('every hint of exercises/*/cases.js is written in English and in Chinese', async () => {
    let n = 0;
    for (const id of readdirSync(EXERCISES_DIR)) {
      for (const hint of await hintsOf(join(EXERCISES_DIR, id))) {
        assert.deepEqual(Object.keys(hint).sort(), [...LANGS].sort(), `${id}: ${JSON.stringify(hint)}`);
        assert.match(hint.zh, CJK, `${id}: ${hint.zh}`);
        assert.doesNotMatch(hint.en, CJK, `${id}: ${hint.en}`);
        n++;
      }
    }
    assert.ok(n >= 241, `${n} hints`);
  });

  test('every starter has Chinese comments around the English starter\'s code, exporting the functions to write', () => {
    for (const e of loadExercises()) {
      assert.equal(typeof e.starter, 'object', e.id);
      assert.match(e.starter.zh, CJK, e.id);
      assert.doesNotMatch(e.starter.en, CJK, e.id);
      for (const lang of LANGS) {
        const r = inspectSolution(e.starter[lang], e.functions.map((f) => f.name), 'starter.js');
        assert.ok(r.ok, `${e.id} starter.${lang}: ${r.message}`);
        assert.deepEqual(r.exported.sort(), e.functions.map((f) => f.name).sort(), `${e.id} starter.${lang}`);
      }
    }
  });
});
