// The exercise block of the notebook page: statement, an editor with the starter code, a Check button
// and per-case results. The notebook (web/src/notebook.js) calls mountExercise(el, ctx) for each
// `:::exercise <id>` directive; judging happens in judgeInWorker (runner.js), the same judge as the CLI,
// which writes its messages (and the hints) in the page's language, as the starter code's comments are.
//   ctx: { id, lang, title, statementHtml, exercise, tpUrl, load(), save(value), createEditor(parent, opts),
//          assetUrl(path), t(key), headingLevel? (of the title: one below the section it sits in; 2 if not given),
//          textLang? (the language of title and statement when the exercise is not written in lang) }
// Saved attempt: { code, verdict, best, passed, failed, seed, at, cases, output, message }: the latest check's
// verdict and results (shown again after a reload, marked as the last check), and `best`, 'pass' once any
// check passed (a later failing try does not take the pass, or the chapter's count, away). Each check draws a
// new hidden-case seed, shown with the verdict (data-testid="judge-seed") so the CLI's --seed reproduces a failure.

import { judgeInWorker } from './runner.js';
import { drawSeed } from '../core/seed.js';
import { messages, localized, LANGS, DEFAULT_LANG } from '../core/messages.js';
import { h } from '../../src/dom.js';

const TEXT = {
  en: {
    check: 'Check', checking: 'Checking…', reset: 'Reset to starter', functions: 'Functions to write',
    editor: 'Your solution', lastCheck: 'last check',
    status: { pass: 'passed', fail: 'failed', error: 'error' },
    cli: (id) => `Judge locally: npx tensorpad judge ${id} solution.js`,
    seed: (seed, id) => `hidden cases of seed ${seed} (npx tensorpad judge ${id} solution.js --seed ${seed})`,
    pass: 'All cases pass.', fail: 'Some cases fail.', error: 'The solution could not be judged.',
    passedBefore: 'passed before', output: 'Printed when the solution loaded:',
  },
  zh: {
    check: '检查', checking: '检查中…', reset: '恢复起始代码', functions: '要写的函数',
    editor: '你的答案', lastCheck: '上次检查',
    status: { pass: '通过', fail: '未通过', error: '出错' },
    cli: (id) => `本地判题：npx tensorpad judge ${id} solution.js --lang zh`,
    seed: (seed, id) => `隐藏用例的随机种子：${seed}（npx tensorpad judge ${id} solution.js --seed ${seed} --lang zh）`,
    pass: '全部用例通过。', fail: '有用例未通过。', error: '无法评测这段代码。',
    passedBefore: '之前已通过', output: '加载答案时的输出：',
  },
};

// A few rules so the block reads well before the site's stylesheet styles it (the page's CSP
// allows inline styles); the site's own rules for these classes take precedence by coming later, and
// its colour variables (--ok, --error), when set, give the verdicts the page's theme.
const STYLE = `
.judge-verdict[data-verdict=pass] { color: var(--ok, #146c2e); font-weight: 600; }
.judge-verdict[data-verdict=fail], .judge-verdict[data-verdict=error] { color: var(--error, #a50e0e); font-weight: 600; }
.judge-cases { padding-left: 1.5em; }
.judge-case.judge-pass .judge-mark { color: var(--ok, #146c2e); }
.judge-case.judge-fail .judge-mark, .judge-case.judge-error .judge-mark { color: var(--error, #a50e0e); }
.judge-case pre { white-space: pre-wrap; margin: .2em 0 .4em; font-size: .85em; }
.judge-output { opacity: .75; border-left: 2px solid currentColor; padding-left: .5em; }
.judge-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.judge-button[aria-disabled=true] { cursor: progress; }
.judge-difficulty { font-size: .6em; font-weight: normal; border: 1px solid currentColor; border-radius: 1em; padding: 0 .6em; vertical-align: middle; }
`;

function addStyleOnce() {
  if (document.getElementById('tensorpad-judge-style')) return;
  const el = document.createElement('style');
  el.id = 'tensorpad-judge-style';
  el.textContent = STYLE;
  document.head.prepend(el);
}

function renderCases(list, T, result) {
  list.replaceChildren();
  if (result.status === 'error' && result.message) {
    list.append(h('li', { class: 'judge-case judge-error', 'data-testid': 'judge-case', 'data-status': 'error' },
      h('pre', { text: result.message })));
  }
  for (const c of result.cases) {
    const ok = c.status === 'pass';
    // ✓/✗ and their colour are for the eye; the words "passed"/"failed" are for screen readers.
    list.append(h('li', { class: `judge-case judge-${c.status}`, 'data-testid': 'judge-case', 'data-status': c.status },
      h('span', { class: 'judge-mark', 'aria-hidden': 'true', text: ok ? '✓' : '✗' }),
      h('span', { class: 'judge-sr sr-only', text: `${T.status[c.status] ?? c.status}:` }), ' ',
      h('span', { class: 'judge-name', text: c.name }),
      ok ? null : h('pre', { class: 'judge-message', text: c.message }),
      c.output ? h('pre', { class: 'judge-output', text: c.output }) : null));
  }
}

// The latest verdict, and, when it is not a pass but an earlier check passed, that it did (data-best).
function showVerdict(el, T, M, state, { stale = false } = {}) {
  el.dataset.verdict = state.verdict;
  const before = state.best === 'pass' && state.verdict !== 'pass';
  if (before) el.dataset.best = 'pass';
  else delete el.dataset.best;
  el.textContent = `${T[state.verdict] ?? ''} ${M.summary(state.passed, state.failed)}${stale ? ` (${T.lastCheck})` : ''}${before ? ` · ${T.passedBefore}` : ''}`;
}

// What the solution printed at its top level (a case's prints are shown with the case).
function showOutput(el, T, text) {
  el.hidden = !text;
  el.replaceChildren(...(text ? [h('span', { class: 'muted', text: T.output }), h('pre', { class: 'judge-output', text })] : []));
}

// Results kept for a reload: each case's name, status, message and print, clipped (storage is small).
const clip = (s, n = 2000) => (typeof s === 'string' && s.length > n ? `${s.slice(0, n)}…` : s ?? '');
function keptResults(result) {
  return {
    cases: (result.cases ?? []).slice(0, 60).map((c) => ({ name: clip(c.name, 300), status: c.status, message: clip(c.message), output: clip(c.output) })),
    output: clip(result.output),
    message: result.status === 'error' ? clip(result.message) : null,
  };
}

export function mountExercise(el, ctx) {
  addStyleOnce();
  const lang = LANGS.includes(ctx.lang) ? ctx.lang : DEFAULT_LANG;
  const T = TEXT[lang];
  const M = messages(lang);
  const ex = ctx.exercise;
  const starter = localized(ex.starter, lang);
  const exercise = {
    ...ex,
    urls: { cases: ctx.assetUrl(`judge/${ex.id}/cases.js`), reference: ctx.assetUrl(`judge/${ex.id}/reference.js`) },
  };
  const saved = ctx.load() ?? {};
  const verdict = h('p', { class: 'judge-verdict', 'data-testid': 'judge-verdict', role: 'status', 'aria-live': 'polite' });
  // The last check's verdict is written before the block is on the page, so it is not announced on load.
  if (saved.verdict) showVerdict(verdict, T, M, saved, { stale: true });
  const cases = h('ol', { class: 'judge-cases', 'data-testid': 'judge-cases' });
  const loadOutput = h('div', { class: 'judge-load-output', 'data-testid': 'judge-load-output', hidden: true });
  // The last check's results, as they were (marked stale by the verdict's "last check").
  if (saved.verdict && Array.isArray(saved.cases)) {
    renderCases(cases, T, { status: saved.verdict, message: saved.message, cases: saved.cases });
    showOutput(loadOutput, T, saved.output);
  }
  const seedLine = h('p', { class: 'muted judge-seed', 'data-testid': 'judge-seed', text: saved.seed ? T.seed(saved.seed, ex.id) : '' });
  // Each exercise's controls are named after it (the visible words first, so speech input finds them).
  const named = (label) => `${label}: ${ctx.title}`;
  const button = h('button', { type: 'button', class: 'judge-button', 'data-testid': 'judge-button', 'aria-label': named(T.check), text: T.check });
  const reset = h('button', { type: 'button', class: 'judge-reset', 'aria-label': named(T.reset), text: T.reset });
  const editorHost = h('div', { class: 'judge-editor' });
  const level = Math.min(6, Math.max(2, Number(ctx.headingLevel) || 2));

  // The title and statement of an exercise written in another language carry that language, for screen
  // readers and fonts.
  const textLang = ctx.textLang && ctx.textLang !== lang ? (ctx.textLang === 'zh' ? 'zh-CN' : ctx.textLang) : undefined;
  el.append(
    h(`h${level}`, { class: 'judge-title' }, ...(textLang
      ? [`${ctx.t ? ctx.t('exercise') : 'Exercise'}: `, h('span', { lang: textLang, text: ctx.title }), ' ']
      : [`${ctx.t ? ctx.t('exercise') : 'Exercise'}: ${ctx.title} `]),
      h('span', { class: 'judge-difficulty', text: M.difficulty[ex.difficulty] ?? ex.difficulty })),
    h('div', { class: 'prose', html: ctx.statementHtml, lang: textLang }),
    h('p', { class: 'judge-functions' }, `${T.functions}: `,
      ...ex.functions.flatMap((f, i) => [i ? ', ' : '', h('code', { text: f.signature })])),
    ex.forbid?.length ? h('p', { class: 'judge-forbid', 'data-testid': 'judge-forbid' },
      M.forbiddenList(''), ...ex.forbid.flatMap((p, j) => [j ? ', ' : '', h('code', { text: p })])) : null,
    editorHost,
    h('div', { class: 'judge-actions' }, button, ' ', reset),
    verdict,
    loadOutput,
    cases,
    seedLine,
    h('p', { class: 'muted judge-cli' }, h('code', { text: T.cli(ex.id) })),
  );

  let attempt = { ...saved };
  const save = (patch) => { attempt = { ...attempt, ...patch }; ctx.save(attempt); };
  let running = null;

  // While judging, the button stays focusable (aria-disabled, clicks ignored): disabling it would drop
  // the reader's focus to the page.
  async function check() {
    if (running) return running;
    button.setAttribute('aria-disabled', 'true');
    button.textContent = T.checking;
    button.setAttribute('aria-label', named(T.checking));
    el.setAttribute('aria-busy', 'true');
    delete verdict.dataset.verdict;
    verdict.textContent = T.checking;
    running = (async () => {
      const code = editor.getValue();
      const seed = drawSeed();   // new hidden cases each attempt: answers copied from a failure do not carry over
      let result;
      try {
        result = await judgeInWorker(exercise, code, { tpUrl: ctx.tpUrl, workerUrl: ctx.assetUrl('judge-worker.js'), seed, lang });
      } catch (err) {
        result = { status: 'error', message: String(err && err.message), cases: [], passed: 0, failed: 0 };
      }
      const best = attempt.best === 'pass' || attempt.verdict === 'pass' || result.status === 'pass' ? 'pass' : result.status;
      const state = { verdict: result.status, best, passed: result.passed, failed: result.failed };
      // Not busy any more before the verdict is written: some screen readers hold back a busy region's news.
      el.removeAttribute('aria-busy');
      renderCases(cases, T, result);
      showOutput(loadOutput, T, result.output);
      showVerdict(verdict, T, M, state);
      seedLine.textContent = T.seed(seed, ex.id);
      save({ code, ...state, seed, at: new Date().toISOString(), ...keptResults(result) });
      return result;
    })();
    try {
      return await running;
    } finally {
      running = null;
      button.removeAttribute('aria-disabled');
      button.textContent = T.check;
      button.setAttribute('aria-label', named(T.check));
      el.removeAttribute('aria-busy');
    }
  }

  const editor = ctx.createEditor(editorHost, {
    doc: saved.code ?? starter,
    label: named(T.editor),
    onChange: (text) => save({ code: text }),
    onRun: () => { check(); },
  });
  button.addEventListener('click', () => { check(); });
  reset.addEventListener('click', () => { editor.setValue(starter); save({ code: starter }); });
  return { check, editor };
}
