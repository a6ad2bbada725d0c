// What a judge worker does, independent of where it runs (worker_threads or a Web Worker).
// The entry files (node/worker.js, page/worker.js) only provide the environment: messaging, loading the
// exercise's trusted modules, tp, and (Node) hardening against process.exit and raw writes to the terminal.
// The solution itself is evaluated here, the same way everywhere, by web/runtime/module.js.
// The messages it writes are in the language the judge asks for in 'solve' and 'check' (English before).

import { MSG } from './protocol.js';
import { createRng } from './rng.js';
import { tensorArg, decodeArg, encodeResult, isTensorMarker, argumentProblem, caseTitle, describeValue } from './values.js';
import { messages, DEFAULT_LANG } from './messages.js';
import { restrictTp } from './forbid.js';
import { evaluateModule, locateError } from '../../runtime/module.js';

const OUTPUT_CAP = 8000;
let lang = DEFAULT_LANG;
const say = () => messages(lang);

// console.* inside the worker goes into the current case's output instead of the terminal.
function captureConsole() {
  let buffer = '';
  const write = (...parts) => {
    if (buffer.length >= OUTPUT_CAP) return;
    const line = parts.map((p) => (typeof p === 'string' ? p : safeInspect(p))).join(' ');
    buffer += line + '\n';
    if (buffer.length > OUTPUT_CAP) buffer = `${buffer.slice(0, OUTPUT_CAP)}${say().outputTruncated}\n`;
  };
  for (const k of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table']) console[k] = write;
  // print(), as in the notebook's cells: a solution tried in a cell prints the same way when judged.
  globalThis.print = write;
  return { take() { const b = buffer; buffer = ''; return b; }, write };
}

function safeInspect(v) {
  try {
    if (v && Array.isArray(v.shape) && typeof v.toArray === 'function') {
      return `tensor(${JSON.stringify(v.toArray())}, shape=[${v.shape.join(', ')}])`;
    }
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function errorMessage(err) {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return say().nonError(safeInspect(err));
}

// "solution.js:3:11" from the first stack frame inside the solution, when there is one.
function where(err, msg) {
  const loc = locateError(err, msg.filename);
  return loc ? `${msg.filename}:${loc.line}:${loc.column}` : null;
}

function normalizeTensorMarkers(v) {
  // Exercise JSON may write a tensor as { "$tensor": [[1, 2], [3, 4]] } for readability.
  if (isTensorMarker(v) && Array.isArray(v.$tensor)) return tensorArg(v.$tensor);
  if (Array.isArray(v)) return v.map(normalizeTensorMarkers);
  return v;
}

// An error of the exercise itself (its generator, its reference), said as written: no "Error: " before it.
const broken = (message) => Object.assign(new Error(message), { broken: true });

// The generated cases, checked before anything else runs on them, so that a broken generator is one
// message naming the case rather than a DataCloneError, or a reference given an argument that arrived as {}.
function checkGenerated(hidden, msg) {
  const M = say();
  const described = (v) => describeValue(v, lang);
  if (!Array.isArray(hidden)) throw broken(M.generateNotArray(described(hidden)));
  hidden.forEach((c, i) => {
    const n = i + 1;
    if (c === null || typeof c !== 'object' || Array.isArray(c)) throw broken(M.caseNotObject(n, described(c)));
    if (!msg.functions.includes(c.fn)) throw broken(M.caseUnknownFn(n, JSON.stringify(c.fn), msg.functions.join(', ')));
    if (!Array.isArray(c.args)) throw broken(M.caseArgsNotArray(n, c.fn, described(c.args)));
    c.args.forEach((a, k) => {
      const bad = argumentProblem(a, lang);
      if (bad) throw broken(M.caseBadArgument(n, c.fn, k + 1, msg.params?.[c.fn]?.[k] ?? '', bad.at, bad.what));
    });
    for (const field of ['label', 'name']) {
      const v = c[field];
      const ok = v === undefined || v === null || typeof v === 'string' ||
        (typeof v === 'object' && Object.values(v).every((x) => typeof x === 'string'));
      if (!ok) throw broken(M.caseBadLabel(n, c.fn, field));
    }
  });
}

async function runOracle(msg, env) {
  lang = msg.lang ?? DEFAULT_LANG;
  const M = say();
  const casesModule = await env.importModule(msg.casesUrl);
  const reference = await env.importModule(msg.referenceUrl);
  const tp = globalThis.tp;
  const raw = [];
  (msg.examples || []).forEach((ex, i) =>
    raw.push({ kind: 'example', name: ex.name ?? null, number: i + 1, fn: ex.fn, args: normalizeTensorMarkers(ex.args) }));
  if (typeof casesModule.generate !== 'function') throw broken(M.noGenerate);
  const rng = createRng(msg.seed, msg.exerciseId, tp);
  let hidden;
  try {
    hidden = await casesModule.generate({ seed: msg.seed, rng, tensorArg });
  } catch (err) {
    throw broken(M.generateThrew(errorMessage(err)));
  }
  checkGenerated(hidden, msg);
  hidden.forEach((c, i) => raw.push({ kind: 'hidden', name: c.name ?? null, label: c.label ?? null, number: i + 1, fn: c.fn, args: c.args }));
  const missing = msg.functions.filter((fn) => typeof reference[fn] !== 'function');
  if (missing.length) throw broken(M.referenceMissing(missing.join(', ')));
  const mistakes = casesModule.mistakes || {};
  const cases = [];
  for (const [i, c] of raw.entries()) {
    let expected;
    try {
      expected = encodeResult(await reference[c.fn](...decodeArg(c.args, tp)));
    } catch (err) {
      throw broken(M.referenceThrew(caseTitle(c, msg.params?.[c.fn], lang), errorMessage(err)));
    }
    // A mistake that throws, or answers null or undefined, does not apply to this case; `tensorpad check`
    // reports the ones that throw.
    const known = [];
    for (const [index, m] of (Array.isArray(mistakes[c.fn]) ? mistakes[c.fn] : []).entries()) {
      if (m === null || typeof m !== 'object') continue;
      try {
        const value = await m.fn(...decodeArg(c.args, tp));
        if (value !== null && value !== undefined) known.push({ index, hint: m.hint, value: encodeResult(value) });
      } catch (err) {
        known.push({ index, hint: m.hint, error: errorMessage(err) });
      }
    }
    cases.push({ id: i, kind: c.kind, name: c.name, label: c.label ?? null, number: c.number, fn: c.fn, args: c.args, expected, mistakes: known });
  }
  env.oracleChecks = casesModule.checks || {};
  env.post({ type: MSG.CASES, cases });
}

async function runCheck(msg, env) {
  lang = msg.lang ?? DEFAULT_LANG;
  const tp = globalThis.tp;
  const check = env.oracleChecks?.[msg.fn];
  let message = null;
  try {
    const decode = (v) => (isTensorMarker(v) ? decodeArg(v, tp) : v);
    message = check ? await check({ args: decodeArg(msg.args, tp), got: decode(msg.got), want: decode(msg.want), tp })
      : say().noInvariantCheck(msg.fn);
  } catch (err) {
    message = say().checkCouldNotRun(errorMessage(err));
  }
  env.post({ type: MSG.CHECKED, id: msg.id, message: message || null });
}

async function runSolution(msg, env, out) {
  lang = msg.lang ?? DEFAULT_LANG;
  // The solution sees a tp without what its exercise forbids; arguments are still made with the whole one.
  const fullTp = globalThis.tp;
  globalThis.tp = restrictTp(fullTp, msg.forbid);
  let mod;
  try {
    mod = await evaluateModule(msg.source, { file: msg.filename, baseUrl: msg.baseUrl ?? null });
  } catch (err) {
    const kind = err instanceof SyntaxError ? 'syntax' : 'load';
    env.post({ type: MSG.LOAD_ERROR, kind, message: errorMessage(err), line: locateError(err, msg.filename)?.line ?? err?.line ?? null,
      output: out.take() });
    return;
  }
  const missing = msg.functions.filter((n) => typeof mod[n] !== 'function');
  if (missing.length) {
    env.post({ type: MSG.LOAD_ERROR, kind: 'missing-export',
      message: say().notExportedAsFunction(missing.map((n) => `\`${n}\``).join(', ')), output: out.take() });
    return;
  }
  env.post({ type: MSG.LOADED, output: out.take() });
  const fns = Object.fromEntries(msg.functions.map((n) => [n, mod[n]]));
  for (const c of msg.cases) {
    env.post({ type: MSG.CASE_START, id: c.id });
    let reply;
    try {
      const value = await fns[c.fn](...decodeArg(c.args, fullTp));
      reply = { type: MSG.CASE_END, id: c.id, value: encodeResult(value, 0, c.maxElements ?? Infinity) };
    } catch (err) {
      reply = { type: MSG.CASE_END, id: c.id, error: say().threw(errorMessage(err), where(err, msg)) };
    }
    reply.output = out.take();
    env.post(reply);
  }
  env.post({ type: MSG.DONE });
}

// env: { post(msg), listen(handler), importModule(url) (the exercise's own modules), initTp() → Promise<tp>,
//        harden?(out, say) with say() → the messages in the judge's language }
export async function startWorker(env) {
  const out = captureConsole();
  try {
    globalThis.tp = await env.initTp();
  } catch (err) {
    env.post({ type: MSG.FATAL, stage: 'init', message: errorMessage(err) });
    return;
  }
  if (env.harden) env.harden(out, say);
  env.listen(async (msg) => {
    try {
      if (msg.type === MSG.ORACLE) await runOracle(msg, env);
      else if (msg.type === MSG.CHECK) await runCheck(msg, env);
      else if (msg.type === MSG.SOLVE) await runSolution(msg, env, out);
    } catch (err) {
      const type = msg.type === MSG.SOLVE ? MSG.FATAL : MSG.ORACLE_ERROR;
      env.post({ type, message: err?.broken ? err.message : errorMessage(err), stack: String(err && err.stack) });
    }
  });
  env.post({ type: MSG.READY });
}
