// The judge: one function used by the CLI (Node workers) and by the page (Web Workers).
//   judge({ exercise, source, filename, seed, lang, env }) → Promise<Result>, its messages in lang (en | zh)
// env = { spawn() → WorkerHandle, exerciseUrls(exercise) → { cases, reference },
//         baseUrl?(filename) → the URL the solution's relative imports resolve against (Node), or null,
//         spawnSolution?({ source, filename, baseUrl }, limits) → WorkerHandle for the solution (the CLI's sandbox) }
// The solution's source goes to its worker as text; web/runtime/module.js evaluates it there.
// WorkerHandle = { post(msg), onMessage(fn), onExit(fn({ code, error })), terminate() }
// Result = { exerciseId, seed, lang, status: 'pass'|'fail'|'error', errorKind?, message?, passed, failed,
//            cases: [{ name, kind, fn, code, status: 'pass'|'fail'|'error', message, output }], output }
// (code: the case's call as runnable JS, its arguments only; a failure shows no hidden case's expected value)
// The cases and expected values are the same in every language: only the words around them change.

import { MSG, DEFAULT_LIMITS } from './protocol.js';
import { compareValues, toShaped } from './compare.js';
import { caseTitle } from './values.js';
import { inspectSolution } from './source.js';
import { messages, localized, LANGS, DEFAULT_LANG } from './messages.js';
import { forbidRules, findForbiddenCalls } from './forbid.js';
import { caseCode } from './case-code.js';

export const DEFAULT_SEED = 1;

const fatalMessage = (m, M) => (m.stage === 'init' ? M.tpInitFailed(m.message) : M.workerFailed(m.message));

// Starts a worker and resolves once tp is initialised in it.
function startWorker(env, limits, M) {
  return new Promise((resolve, reject) => {
    const w = env.spawn();
    const timer = setTimeout(() => { w.terminate(); reject(new Error(M.workerNotStarted)); }, limits.startupMs);
    w.onMessage((m) => {
      if (m.type === MSG.READY) { clearTimeout(timer); resolve(w); }
      if (m.type === MSG.FATAL) { clearTimeout(timer); w.terminate(); reject(new Error(fatalMessage(m, M))); }
    });
    w.onExit(({ error }) => { clearTimeout(timer); reject(error || new Error(M.workerExitedWhileStarting)); });
  });
}

// Sends one request to a trusted worker and waits (at most ms) for the first reply of the given types.
function request(w, msg, types, ms, M) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { w.terminate(); reject(new Error(M.noAnswer(ms))); }, ms);
    w.onMessage((m) => { if (types.includes(m.type)) { clearTimeout(timer); resolve(m); } });
    w.onExit(({ error, code }) => { clearTimeout(timer); reject(error || new Error(M.workerExited(code))); });
    w.post(msg);
  });
}

// The exercise's trusted side: hidden cases, expected values, known mistakes (their hints in every
// language, so one cache serves readers of both). Cached per seed.
async function openOracle(exercise, seed, env, limits, cache, lang) {
  const M = messages(lang);
  const key = `${exercise.id}:${seed}`;
  const needsChecks = exercise.functions.some((f) => f.compare === 'invariant');
  if (!needsChecks && cache?.has(key)) return { cases: cache.get(key), close() {} };
  const w = await startWorker(env, limits, M);
  const urls = env.exerciseUrls(exercise);
  const reply = await request(w, {
    type: MSG.ORACLE, seed, exerciseId: exercise.id, casesUrl: urls.cases, referenceUrl: urls.reference,
    functions: exercise.functions.map((f) => f.name), examples: exercise.examples || [], lang,
    params: Object.fromEntries(exercise.functions.map((f) => [f.name, f.params])),
  }, [MSG.CASES, MSG.ORACLE_ERROR], limits.startupMs + limits.totalMs, M);
  if (reply.type === MSG.ORACLE_ERROR) {
    w.terminate();
    throw new Error(M.oracleFailed(exercise.id, reply.message));
  }
  if (!needsChecks) { w.terminate(); cache?.set(key, reply.cases); }
  let pending = Promise.resolve();
  return {
    cases: reply.cases,
    check(c, got) {
      const msg = { type: MSG.CHECK, id: c.id, fn: c.fn, args: c.args, got, want: c.expected, lang };
      pending = pending.then(() => request(w, msg, [MSG.CHECKED], limits.perCaseMs * 5, M)
        .then((m) => localized(m.message, lang), (err) => M.invariantCheckFailed(err.message)));
      return pending;
    },
    close() { if (needsChecks) w.terminate(); },
  };
}

// Runs the learner's module over the cases under time limits; never throws.
// The most numbers a case's answer may hold and still be compared: far more than any right or nearly
// right answer (64 times the expected one's, and at least 4096), far fewer than a runaway one.
function answerBound(expected) {
  const shaped = toShaped(expected);
  return Math.max(4096, 64 * (shaped.data ? shaped.data.length : 1));
}

function runSolution(env, limits, solution, functions, cases, lang, forbid) {
  const M = messages(lang);
  return new Promise((resolve) => {
    const results = new Map();
    const state = { started: false, current: null, loaded: false, loadOutput: '', stop: null };
    let w = null;
    const timers = new Set();
    const timer = (ms, fn) => { const t = setTimeout(fn, ms); timers.add(t); return t; };
    const clear = (t) => { clearTimeout(t); timers.delete(t); };
    let caseTimer = null;
    const finish = (extra = {}) => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      if (w) w.terminate();
      resolve({ results, loadOutput: state.loadOutput, stop: state.stop, ...extra });
    };
    const startupTimer = timer(limits.startupMs, () => finish({ fatal: M.workerNotStarted }));
    // the solution's worker may be a stricter one (the CLI's sandbox) than the exercise's own
    w = env.spawnSolution ? env.spawnSolution(solution, limits) : env.spawn(limits);
    w.onExit(({ code, error }) => {
      let reason;
      if (error && /ERR_WORKER_OUT_OF_MEMORY/.test(`${error.code} ${error.message}`)) {
        reason = M.memoryLimit(error.limitMb ?? limits.memoryMb, error.measuredMb, error.what ?? 'heap');
      } else if (error) {
        reason = M.workerCrashed(error.message);
      } else {
        reason = M.solutionStopped(code);
      }
      if (state.current !== null) results.set(state.current, { error: reason });
      else if (!state.loaded) return finish({ loadError: { kind: 'load', message: reason } });
      state.stop = reason;
      finish();
    });
    w.onMessage((m) => {
      switch (m.type) {
        case MSG.READY:
          if (state.started) break;   // a solution may post messages too; only the first READY counts
          state.started = true;
          clear(startupTimer);
          timer(limits.totalMs, () => {
            const reason = M.totalTimeLimit(limits.totalMs);
            if (state.current !== null) results.set(state.current, { error: reason, tle: true });
            else if (!state.loaded) return finish({ loadError: { kind: 'time', message: reason } });
            state.stop = reason;
            finish();
          });
          caseTimer = timer(limits.perCaseMs, () => finish({ loadError: { kind: 'time', message: M.loadTimeLimit(limits.perCaseMs) } }));
          w.post({ type: MSG.SOLVE, ...solution, functions,
            cases: cases.map(({ id, fn, args, expected }) => ({ id, fn, args, maxElements: answerBound(expected) })), lang, forbid });
          break;
        case MSG.FATAL:
          finish({ fatal: fatalMessage(m, M) });
          break;
        case MSG.LOADED:
          if (state.loaded) break;
          clear(caseTimer);
          state.loaded = true;
          state.loadOutput = m.output || '';
          break;
        case MSG.LOAD_ERROR:
          finish({ loadError: { kind: m.kind, message: m.message, line: m.line }, loadOutput: m.output || '' });
          break;
        case MSG.CASE_START:
          if (!cases.some((c) => c.id === m.id)) break;
          state.current = m.id;
          caseTimer = timer(limits.perCaseMs, () => {
            results.set(m.id, { error: M.caseTimeLimit(limits.perCaseMs), tle: true });
            state.stop = M.earlierTimeout;
            finish();
          });
          break;
        case MSG.CASE_END:
          if (m.id !== state.current) break;
          clear(caseTimer);
          state.current = null;
          results.set(m.id, m.error !== undefined ? { error: m.error, output: m.output } : { value: m.value, output: m.output });
          break;
        case MSG.DONE:
          finish();
          break;
        default:
          break;
      }
    });
  });
}

// The known mistakes this answer reproduces on this case (a mistake that happens to give the right
// answer on a case, or that threw there, tells nothing there), as hints in the reader's language.
function matchingMistakes(c, got, tol, lang) {
  // A mistake may answer a fraction where an integer is due (the best score in place of its index): the
  // answer is matched to it as a number.
  const asGiven = tol.kind === 'integer' ? { ...tol, kind: 'number' } : tol;
  return (c.mistakes || [])
    .filter((m) => 'value' in m && !compareValues(m.value, c.expected, tol).pass && compareValues(got, m.value, asGiven).pass)
    .map((m) => localized(m.hint, lang));
}

// Each failed case gets the hint that explains the most failures of the same function, so one
// consistent mistake is named everywhere even where another mistake gives the same number.
function attachHints(results, M) {
  const counts = new Map();
  const key = (r, h) => `${r.fn}\u0000${h}`;
  for (const r of results) for (const h of new Set(r.hints || [])) counts.set(key(r, h), (counts.get(key(r, h)) || 0) + 1);
  for (const r of results) {
    if (r.hints?.length) {
      const score = (h) => counts.get(key(r, h));
      const top = Math.max(...r.hints.map(score));
      const best = [...new Set(r.hints.filter((h) => score(h) === top))].slice(0, 2);
      r.message += best.map((h, i) => `\n${i ? M.orHint : M.hint}${h}`).join('');
    }
    delete r.hints;
  }
  return results;
}

async function judgeCase(c, outcome, spec, oracle, lang) {
  const base = { name: caseTitle(c, spec?.params, lang), kind: c.kind, fn: c.fn, code: caseCode(c.fn, c.args), output: outcome?.output || '' };
  if (!outcome) return { ...base, status: 'error', message: messages(lang).notRun() };
  if (outcome.error !== undefined) return { ...base, status: 'error', message: outcome.error };
  const tol = { atol: spec.atol ?? 0, rtol: spec.rtol ?? 0, kind: spec.returns, lang };
  const r = compareValues(outcome.value, c.expected, { ...tol, hidden: c.kind === 'hidden' });
  let message = r.pass ? null : r.message;
  // Answers that are not unique: a right shape with other values is judged by the exercise's invariants.
  if (message && r.mismatch && spec.compare === 'invariant') message = await oracle.check(c, outcome.value);
  if (!message) return { ...base, status: 'pass', message: '' };
  return { ...base, status: 'fail', message, hints: matchingMistakes(c, outcome.value, tol, lang) };
}

function summarize(result) {
  result.passed = result.cases.filter((c) => c.status === 'pass').length;
  result.failed = result.cases.length - result.passed;
  if (!result.status) result.status = result.failed === 0 && result.cases.length > 0 ? 'pass' : 'fail';
  return result;
}

export async function judge({ exercise, source, filename = 'solution.js', seed = DEFAULT_SEED, lang = DEFAULT_LANG, env, limits = {}, cache }) {
  if (!LANGS.includes(lang)) lang = DEFAULT_LANG;
  const M = messages(lang);
  const lim = { ...DEFAULT_LIMITS, ...limitsOf(exercise), ...limits };
  const required = exercise.functions.map((f) => f.name);
  const base = { exerciseId: exercise.id, seed, lang, cases: [], output: '' };
  const inspected = inspectSolution(source, required, filename, lang);
  if (!inspected.ok) return summarize({ ...base, status: 'error', errorKind: inspected.kind, message: inspected.message });

  let oracle;
  try {
    oracle = await openOracle(exercise, seed, env, lim, cache, lang);
  } catch (err) {
    return summarize({ ...base, status: 'error', errorKind: 'internal', message: err.message });
  }
  const solution = { source, filename, baseUrl: env.baseUrl?.(filename) ?? null };
  try {
    const rules = forbidRules(exercise);
    const run = await runSolution(env, lim, solution, required, oracle.cases, lang, rules);
    // the solution's tp lacked the forbidden paths; the source says which call, and where
    const seenPaths = new Set();
    const forbidden = findForbiddenCalls(source, rules).filter((f) => !seenPaths.has(f.path) && seenPaths.add(f.path))
      .map((f) => `\n${M.hint}${M.forbiddenCall(f.path, f.line)}`).join('');
    if (run.fatal) return summarize({ ...base, status: 'error', errorKind: 'internal', message: run.fatal });
    if (run.loadError) {
      // Nothing could run, so no case is listed: one message says why, as for a syntax error.
      return summarize({ ...base, status: 'error', errorKind: run.loadError.kind,
        message: loadErrorMessage(run.loadError, filename, M) + forbidden, output: run.loadOutput });
    }
    const specs = Object.fromEntries(exercise.functions.map((f) => [f.name, f]));
    const cases = [];
    for (const c of oracle.cases) {
      const outcome = run.results.get(c.id);
      const r = await judgeCase(c, outcome, specs[c.fn], oracle, lang);
      if (!outcome && run.stop) r.message = M.notRun(run.stop);
      if (r.status !== 'pass') r.hintsAfter = forbidden;
      cases.push(r);
    }
    for (const r of attachHints(cases, M)) {
      if (r.hintsAfter) r.message += r.hintsAfter;
      delete r.hintsAfter;
    }
    return summarize({ ...base, cases, output: run.loadOutput });
  } finally {
    oracle.close();
  }
}

function loadErrorMessage(e, filename, M) {
  const message = e.message;
  if (e.kind === 'syntax') return e.line ? `${filename}:${e.line}: ${message}` : message;
  return e.kind === 'load' ? M.loadFailed(filename, message) : message;
}

// The hidden and example cases with their expected values, for authors' checks and tests.
// With a cache, a later judge() of the same seed reuses them.
export async function generateCases({ exercise, seed = DEFAULT_SEED, env, limits = {}, cache = null }) {
  const oracle = await openOracle(exercise, seed, env, { ...DEFAULT_LIMITS, ...limits }, cache, DEFAULT_LANG);
  oracle.close();
  return oracle.cases;
}

function limitsOf(exercise) {
  const t = exercise.timeLimitMs || {};
  const out = {};
  if (t.perCase) out.perCaseMs = t.perCase;
  if (t.total) out.totalMs = t.total;
  return out;
}

// Exit status of the CLI for a result: 0 all pass, 1 some case fails, 2 the solution cannot be judged
// (a syntax error, a missing export, a module that fails or loops while loading, a broken exercise).
export function exitCodeOf(result) {
  if (result.status === 'pass') return 0;
  return result.status === 'error' ? 2 : 1;
}
