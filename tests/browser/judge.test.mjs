// The exercise block in Chromium: the same solution gets the same verdict (and the same counts) in the
// page's Web Worker judge as in the CLI's worker_threads judge, in the page's language. The block is mounted by a small
// harness page built here (web/judge/page/exercise.js + the notebook's editor + the judge worker from
// web/judge/page/build-hook.mjs), served with the site's own server and CSP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import esbuild from 'esbuild';
import { root, launch, openPage } from './helpers.mjs';
import { createServer } from '../../web/server.mjs';
import { loadExercise } from '../../web/content/exercises.js';
import { judgeFile, judgeSource } from '../../web/judge/node/runner.js';
import { EVALUATOR_SOURCES, messagesOf } from '../js/evaluator-sources.mjs';
import { localized } from '../../web/judge/core/messages.js';

const IDS = ['lora-params', 'low-rank-approx', 'causal-attention'];
const SOL = (id, f) => path.join(root, 'tests/js/solutions', id, f);
const REF = (id) => path.join(root, 'exercises', id, 'reference.js');

let dir;
let srv;
let browser;

async function buildHarness() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-judge-page-'));
  const web = path.join(root, 'web');
  // Single-thread core only, as a site built without the pthreads core (see wasm/js/browser.js).
  const common = { bundle: true, format: 'esm', platform: 'browser', conditions: ['browser'], target: 'es2022', logLevel: 'warning',
    define: { __TP_MT_CORE__: 'null' } };
  // tp for workers, as the site's build makes it (the ES6 core finds its .wasm beside the bundle)
  await esbuild.build({ ...common, entryPoints: { tp: path.join(root, 'wasm/js/browser.js') }, outdir: dir,
    external: ['module', 'fs', 'path', 'url', 'node:*', 'worker_threads', 'crypto'] });
  fs.copyFileSync(path.join(root, 'build/wasm/web/tensorpad_core.wasm'), path.join(dir, 'tensorpad_core.wasm'));
  const hook = (await import(pathToFileURL(path.join(web, 'judge/page/build-hook.mjs')).href)).default;
  await hook({ esbuild, root, web, dist: dir, common });
  const exercises = IDS.map((id) => { const { dir: _d, ...json } = loadExercise(id); return json; });
  const entry = path.join(dir, 'harness-entry.js');
  fs.writeFileSync(entry, `
import { mountExercise } from ${JSON.stringify(path.join(web, 'judge/page/exercise.js'))};
import { createEditor } from ${JSON.stringify(path.join(web, 'src/editor.js'))};
const exercises = ${JSON.stringify(exercises)};
const lang = new URLSearchParams(location.search).get('lang') ?? 'en';
const handles = {};
for (const ex of exercises) {
  const el = document.createElement('section');
  el.dataset.testid = 'exercise';
  el.setAttribute('data-testid', 'exercise');
  el.dataset.exerciseId = ex.id;
  document.body.append(el);
  handles[ex.id] = mountExercise(el, {
    id: ex.id, lang, title: ex.title[lang], statementHtml: '<p>statement</p>', exercise: ex,
    tpUrl: new URL('tp.js', document.baseURI).href,
    load: () => JSON.parse(localStorage.getItem('ex:' + ex.id) ?? 'null'),
    save: (v) => localStorage.setItem('ex:' + ex.id, JSON.stringify(v)),
    createEditor: (parent, opts) => {
      const view = createEditor(parent, opts);
      return { view, getValue: () => view.state.doc.toString(),
        setValue: (t) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t } }), focus: () => view.focus() };
    },
    assetUrl: (p) => new URL(p, document.baseURI).href,
    t: (k) => (k === 'exercise' ? 'Exercise' : k),
  });
}
window.harness = { setCode: (id, text) => handles[id].editor.setValue(text), code: (id) => handles[id].editor.getValue() };
document.body.dataset.ready = '1';
`);
  await esbuild.build({ ...common, entryPoints: { main: entry }, outdir: dir });
  fs.writeFileSync(path.join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>judge harness</title><link rel="icon" href="data:,"></head>' +
    '<body><script type="module" src="main.js"></script></body></html>');
}

before(async () => {
  await buildHarness();
  srv = createServer(dir);
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((r) => (srv ? srv.close(r) : r()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const base = () => `http://127.0.0.1:${srv.address().port}/`;

async function checkInPage(page, id, file, text = fs.readFileSync(file, 'utf8')) {
  await page.evaluate(([i, t]) => window.harness.setCode(i, t), [id, text]);
  const block = page.locator(`[data-testid=exercise][data-exercise-id="${id}"]`);
  await block.locator('[data-testid=judge-button]').click();
  await page.waitForFunction((i) => {
    const el = document.querySelector(`[data-exercise-id="${i}"]`);
    return el && !el.hasAttribute('aria-busy') && el.querySelector('[data-testid=judge-verdict]').dataset.verdict;
  }, id, { timeout: 60000 });
  return block.evaluate((el) => ({
    verdict: el.querySelector('[data-testid=judge-verdict]').dataset.verdict,
    text: el.querySelector('[data-testid=judge-verdict]').textContent,
    statuses: [...el.querySelectorAll('[data-testid=judge-case]')].map((c) => c.dataset.status),
    messages: [...el.querySelectorAll('[data-testid=judge-case] pre')].map((p) => p.textContent),
    // each check draws its own hidden-case seed, shown under the verdict
    seed: Number(/--seed (\d+)/.exec(el.querySelector('[data-testid=judge-seed]').textContent)?.[1]),
  }));
}

const CASES = [
  ['lora-params', REF('lora-params')],
  ['lora-params', SOL('lora-params', 'product.js')],
  ['lora-params', SOL('lora-params', 'correct-plain.js')],
  ['lora-params', SOL('lora-params', 'throws.js')],
  ['lora-params', SOL('lora-params', 'syntax-error.js')],
  ['lora-params', SOL('lora-params', 'missing-export.js')],
  ['lora-params', SOL('lora-params', 'endless-loop.js')],
  ['lora-params', SOL('lora-params', 'imports-missing.js')],
  ['lora-params', SOL('lora-params', 'unclosed-brace.js')],
  ['causal-attention', SOL('causal-attention', 'no-mask.js')],
  ['causal-attention', SOL('causal-attention', 'correct-loops.js')],
  ['low-rank-approx', SOL('low-rank-approx', 'off-by-one.js')],
  ['low-rank-approx', REF('low-rank-approx')],
];

test('the same solution gets the same verdict in the page and in the CLI', async () => {
  const context = await browser.newContext();
  const { page, log } = await openPage(context, base());
  try {
    await page.goto(base());
    await page.waitForSelector('body[data-ready="1"]');
    for (const [id, file] of CASES) {
      const name = `${id}/${path.basename(file)}`;
      const t0 = Date.now();
      const web = await checkInPage(page, id, file);
      const cli = await judgeFile(loadExercise(id), file, { seed: web.seed });
      assert.equal(web.verdict, cli.status, `${name}: page says ${web.verdict} (${web.text}), CLI says ${cli.status} ${cli.message ?? ''}`);
      if (cli.cases.length) {
        assert.deepEqual(web.statuses, cli.cases.map((c) => c.status), `${name}: per-case statuses`);
        assert.match(web.text, new RegExp(`${cli.passed} passed, ${cli.failed} failed`), name);
      }
      if (file.endsWith('endless-loop.js')) {
        assert.ok(Date.now() - t0 < 15000, 'time limit exceeded within seconds in the page');
        assert.ok(web.messages.some((m) => /time limit exceeded/.test(m)));
      }
      if (file.endsWith('no-mask.js')) assert.ok(web.messages.some((m) => /no causal mask/.test(m)));
      if (file.endsWith('syntax-error.js')) assert.ok(web.messages.some((m) => /:2:\d+: SyntaxError/.test(m)));
      if (cli.status === 'error') assert.equal(web.statuses.length, 1, `${name}: one message, no case lines: ${web.messages}`);
      // the page hands a solution tp and nothing else: its import is refused before it runs
      if (file.endsWith('imports-missing.js')) assert.match(web.messages[0], /^line 2: import from "no-such-package-for-tensorpad": a solution in the page cannot import/);
      if (file.endsWith('unclosed-brace.js')) assert.match(web.messages[0], /\nhint: an unclosed \{ \( or \[ above this line\? The \{ on line 1 is never closed\./);
    }
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

// The site serves /judge/<id>/reference.js to its own oracle worker; a solution in the page cannot reach it:
// not by import (refused before it runs), not by fetch, not by an import() built from a string.
test("the solution's worker can neither import nor fetch the site's judge files", async () => {
  const context = await browser.newContext();
  const { page } = await openPage(context, base());
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-judge-isolation-'));
  const write = (name, text) => { const f = path.join(tmp, name); fs.writeFileSync(f, text); return f; };
  try {
    await page.goto(base());
    await page.waitForSelector('body[data-ready="1"]');
    // the file is there for the oracle
    assert.equal(await page.evaluate(async () => (await fetch('judge/lora-params/reference.js')).status), 200);
    const imported = await checkInPage(page, 'lora-params', write('import.js',
      "const ref = await import('/judge/lora-params/reference.js');\nexport const loraParams = ref.loraParams;\nexport const loraFraction = ref.loraFraction;\n"));
    assert.equal(imported.verdict, 'error');
    assert.match(imported.messages[0], /^line 1: import\(\): a solution in the page cannot import/);
    const fetched = await checkInPage(page, 'lora-params', write('fetch.js',
      "export async function loraParams(o, i, r) { await fetch('/judge/lora-params/reference.js'); return r * (o + i); }\n" +
      'export async function loraFraction(o, i, r) { return (await loraParams(o, i, r)) / (o * i); }\n'));
    assert.equal(fetched.verdict, 'fail');
    assert.ok(fetched.statuses.every((st) => st === 'error'));
    assert.match(fetched.messages[0], /fetch is not available to a solution in the page's judge/);
    const hidden = await checkInPage(page, 'lora-params', write('hidden.js',
      "const load = new Function('return imp' + 'ort(\"/judge/lora-params/reference.js\")');\n" +
      'export async function loraParams(o, i, r) { return (await load()).loraParams(o, i, r); }\n' +
      'export async function loraFraction(o, i, r) { return (await load()).loraFraction(o, i, r); }\n'));
    assert.notEqual(hidden.verdict, 'pass');
    assert.ok(hidden.messages.some((m) => /import\(\) in Function is not available/.test(m)), hidden.messages.join('\n'));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    await context.close();
  }
});

test('in the page, a forbidden call fails with the hint naming it, and each check draws a new seed', async () => {
  const context = await browser.newContext();
  const { page } = await openPage(context, base());
  try {
    await page.goto(base());
    await page.waitForSelector('body[data-ready="1"]');
    const block = page.locator('[data-testid=exercise][data-exercise-id="causal-attention"]');
    assert.match(await block.locator('[data-testid=judge-forbid]').textContent(), /Not available in this exercise: tp\.nn\.scaledDotProductAttention, tp\.nn\.multiHeadAttention/);
    const first = await checkInPage(page, 'causal-attention', SOL('causal-attention', 'forbidden.js'));
    assert.equal(first.verdict, 'fail');
    assert.ok(first.messages.every((m) => m.includes('hint: `tp.nn.scaledDotProductAttention` (line 3) is not available in this exercise')), first.messages.join('\n'));
    const second = await checkInPage(page, 'causal-attention', SOL('causal-attention', 'forbidden.js'));
    assert.ok(Number.isInteger(first.seed) && Number.isInteger(second.seed));
    assert.notEqual(first.seed, second.seed);
  } finally {
    await context.close();
  }
});

test('the evaluator\'s sources get the same verdict and the same words in the page as in the CLI', async () => {
  const context = await browser.newContext();
  const { page, log } = await openPage(context, base());
  const exercise = loadExercise('lora-params');
  try {
    await page.goto(base());
    await page.waitForSelector('body[data-ready="1"]');
    for (const s of EVALUATOR_SOURCES) {
      const web = await checkInPage(page, 'lora-params', null, s.source);
      const cli = await judgeSource(exercise, s.source, { seed: web.seed });
      assert.equal(cli.status, s.status, `${s.name}: CLI`);
      assert.equal(web.verdict, s.status, `${s.name}: page says ${web.verdict} (${web.messages.join(' | ')})`);
      assert.deepEqual(web.messages, messagesOf(cli), `${s.name}: the same messages`);
      if (s.message) assert.match(web.messages[0], s.message, s.name);
    }
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('for a Chinese reader, the starter, the judge\'s messages and the hints are Chinese', async () => {
  const context = await browser.newContext();
  const { page, log } = await openPage(context, base());
  try {
    await page.goto(`${base()}?lang=zh`);
    await page.waitForSelector('body[data-ready="1"]');
    const exercise = loadExercise('lora-params');
    assert.equal(await page.evaluate(() => window.harness.code('lora-params')), exercise.starter.zh);
    const { mistakes } = await import(pathToFileURL(path.join(exercise.dir, 'cases.js')).href);
    const hints = Object.values(mistakes).flat().map((m) => m.hint);
    const wrong = await checkInPage(page, 'lora-params', SOL('lora-params', 'product.js'));
    assert.equal(wrong.verdict, 'fail');
    assert.match(wrong.text, /0 通过，15 未通过/);
    assert.ok(wrong.messages.some((m) => m.includes(`提示：${localized(hints[0], 'zh')}`)), wrong.messages.join('\n'));
    for (const m of wrong.messages) {
      assert.match(m, /^值：得到 /, m);
      assert.ok(hints.every((h) => !m.includes(h.en)), `English hint in: ${m}`);
      assert.doesNotMatch(m, /\b(value|got|want|hint|allowed)\b/, m);
    }
    const slow = await checkInPage(page, 'lora-params', SOL('lora-params', 'endless-loop.js'));
    assert.ok(slow.messages.includes('超出时间限制（每个用例 2000 ms）'), slow.messages.join('\n'));
    const broken = await checkInPage(page, 'lora-params', SOL('lora-params', 'imports-missing.js'));
    assert.equal(broken.verdict, 'error');
    assert.match(broken.messages[0], /^第 2 行：import from "no-such-package-for-tensorpad"：页面里的解答不能导入模块/);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the attempt and its verdict survive a reload', async () => {
  const context = await browser.newContext();
  const { page } = await openPage(context, base());
  try {
    await page.goto(base());
    await page.waitForSelector('body[data-ready="1"]');
    const code = fs.readFileSync(SOL('lora-params', 'product.js'), 'utf8');
    const first = await checkInPage(page, 'lora-params', SOL('lora-params', 'product.js'));
    assert.equal(first.verdict, 'fail');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.evaluate(() => window.harness.code('lora-params')), code);
    const verdict = page.locator('[data-exercise-id="lora-params"] [data-testid=judge-verdict]');
    assert.equal(await verdict.getAttribute('data-verdict'), 'fail');
  } finally {
    await context.close();
  }
});

// The real site: a temporary copy of web/ with one chapter holding two :::exercise directives, built by
// web/build.mjs (which runs the judge's build hook) and served by web/server.mjs.
test('in a built chapter, the exercise block judges what the reader types, in both languages', async () => {
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-judge-site-'));
  try {
    for (const f of ['node_modules', 'build', 'wasm', 'exercises', 'package.json']) fs.symlinkSync(path.join(root, f), path.join(site, f));
    fs.cpSync(path.join(root, 'web'), path.join(site, 'web'), { recursive: true, filter: (src) => !/[/\\]web[/\\](dist|chapters)([/\\]|$)/.test(src) });
    const chapter = path.join(site, 'web', 'chapters', 'judge-test');
    fs.mkdirSync(chapter, { recursive: true });
    for (const [lang, title] of [['en', 'Exercises'], ['zh', '练习']]) {
      fs.writeFileSync(path.join(chapter, `${lang}.md`), `---\nid: judge-test\ntitle: "${title}"\norder: 0\n---\n\n` +
        ':::exercise lora-params\n\n:::exercise causal-attention\n');
    }
    const { execFileSync } = await import('node:child_process');
    execFileSync(process.execPath, [path.join(site, 'web', 'build.mjs')], { cwd: site, stdio: 'pipe' });
    const server = createServer(path.join(site, 'web', 'dist'));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const siteBase = `http://127.0.0.1:${server.address().port}/`;
    const context = await browser.newContext();
    const { page, log } = await openPage(context, siteBase);
    try {
      await page.goto(`${siteBase}?chapter=judge-test&lang=en`);
      // The page is crossOriginIsolated, so the cells' engine runs the pthreads core; a judge worker keeps
      // to the single-thread one: no pthread worker may start once the engine is ready.
      await page.locator('[data-testid=kernel-status]', { hasText: 'Ready' }).waitFor();
      const startedDuringChecks = [];
      page.on('worker', (w) => startedDuringChecks.push(new URL(w.url()).pathname));
      const block = page.locator('[data-testid=exercise][data-exercise-id="lora-params"]');
      const verdict = block.locator('[data-testid=judge-verdict]');
      await block.locator('[data-testid=judge-button]').waitFor();
      const typeAndCheck = async (text) => {
        await block.locator('.cm-content').click();
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Delete');
        await page.keyboard.insertText(text);
        await block.locator('[data-testid=judge-button]').click();
        await page.waitForFunction(() => {
          const el = document.querySelector('[data-testid=exercise][data-exercise-id="lora-params"]');
          return !el.hasAttribute('aria-busy') && el.querySelector('[data-testid=judge-verdict]').dataset.verdict;
        }, null, { timeout: 60000 });
        return verdict.getAttribute('data-verdict');
      };
      assert.equal(await typeAndCheck('function loraParams(dOut, dIn, r) { return r * dOut * dIn; }\n' +
        'function loraFraction(dOut, dIn, r) { return loraParams(dOut, dIn, r) / (dOut * dIn); }\n'), 'fail');
      assert.match(await block.locator('[data-testid=judge-case][data-status=fail]').first().textContent(), /hint: this is r·dOut·dIn/);
      assert.equal(await typeAndCheck('function loraParams(dOut, dIn, r) { return r * (dOut + dIn); }\n' +
        'function loraFraction(dOut, dIn, r) { return loraParams(dOut, dIn, r) / (dOut * dIn); }\n'), 'pass');
      assert.match(await verdict.textContent(), /15 passed, 0 failed/);
      assert.ok(startedDuringChecks.length >= 2 && startedDuringChecks.every((p) => /judge-worker\.js$/.test(p)),
        `workers started by two checks: ${startedDuringChecks.join(', ')}`);
      await page.goto(`${siteBase}?chapter=judge-test&lang=zh`);
      await block.locator('[data-testid=judge-button]').waitFor();
      assert.match(await block.locator('.judge-title').textContent(), /LoRA 的参数账/);
      assert.equal(await typeAndCheck('function loraParams(dOut, dIn, r) { return r * dOut; }\n' +
        'function loraFraction(dOut, dIn, r) { return loraParams(dOut, dIn, r) / (dOut * dIn); }\n'), 'fail');
      const failing = await block.locator('[data-testid=judge-case][data-status=fail]').first().textContent();
      assert.match(failing, /值：得到 \d+，期望 \d+/);
      assert.match(failing, /提示：这里只算了两个因子中的一个（B 是 dOut×r，A 是 r×dIn）/);
      assert.doesNotMatch(failing, /value:|hint:|counts only one/);
      assert.match(await verdict.textContent(), /有用例未通过。 \d+ 通过，\d+ 未通过/);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
      await new Promise((r) => server.close(r));
    }
  } finally {
    fs.rmSync(site, { recursive: true, force: true });
  }
});

test('a pass stays counted after a failing try, the latest verdict shows, and the last results come back after a reload', async () => {
  const context = await browser.newContext();
  const { page } = await openPage(context, base());
  try {
    await page.goto(base());
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal((await checkInPage(page, 'lora-params', REF('lora-params'))).verdict, 'pass');
    const second = await checkInPage(page, 'lora-params', SOL('lora-params', 'product.js'));
    assert.equal(second.verdict, 'fail', 'the latest verdict is shown');
    const verdict = page.locator('[data-exercise-id="lora-params"] [data-testid=judge-verdict]');
    assert.equal(await verdict.getAttribute('data-best'), 'pass');
    assert.match(await verdict.textContent(), /passed before/);
    assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('ex:lora-params')).best), 'pass');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    const block = page.locator('[data-exercise-id="lora-params"]');
    assert.deepEqual(await block.locator('[data-testid=judge-case]').evaluateAll((cs) => cs.map((c) => c.dataset.status)), second.statuses, 'each case\'s result is shown again');
    assert.deepEqual(await block.locator('[data-testid=judge-case] pre').allTextContents(), second.messages, 'with its message and hint');
    assert.equal(await verdict.getAttribute('data-best'), 'pass');
  } finally {
    await context.close();
  }
});

test('print works in an exercise editor, and what a solution prints at its top level is shown', async () => {
  const context = await browser.newContext();
  const { page } = await openPage(context, base());
  try {
    await page.goto(base());
    await page.waitForSelector('body[data-ready="1"]');
    const file = path.join(os.tmpdir(), `tp-print-${process.pid}.js`);
    fs.writeFileSync(file, `print('loaded, print');\nconsole.log('loaded, console.log');\n${fs.readFileSync(REF('lora-params'), 'utf8')}`);
    try {
      const r = await checkInPage(page, 'lora-params', file);
      assert.equal(r.verdict, 'pass', 'print is defined: the solution loads');
    } finally {
      fs.rmSync(file, { force: true });
    }
    const out = page.locator('[data-exercise-id="lora-params"] [data-testid=judge-load-output]');
    assert.equal(await out.isVisible(), true);
    assert.match(await out.textContent(), /loaded, print\nloaded, console\.log/);
  } finally {
    await context.close();
  }
});
