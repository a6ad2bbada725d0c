// The contract between the judge (main thread / CLI process) and its workers, in one place.
// Every worker is fresh: one "oracle" worker runs the exercise's own trusted code (case generator,
// reference, known mistakes, invariant checks); one "solution" worker runs the learner's module.
// Expected values never enter the solution worker, and the comparison runs in the judge's thread.
//
// worker → judge, once tp is initialised:     { type: 'ready' }  |  { type: 'fatal', stage?: 'init', message }
//
// judge → oracle:  { type: 'oracle', seed, exerciseId, casesUrl, referenceUrl, functions: [name], params: { fn: [param] },
//                    examples, lang }
// oracle → judge:  { type: 'cases', cases: [Case] }  |  { type: 'oracle-error', message }
//   Case = { id, kind: 'example' | 'hidden', name, label, number, fn, args, expected,
//            mistakes: [{ index, hint, value } | { index, hint, error }] }   (index into mistakes[fn]; none for a
//            mistake that answered null or undefined; error when it threw, for `tensorpad check` to report)
//   An oracle-error is in lang, and names the case when the generator gave an argument that is not plain data
//   or the reference threw.
//   with name, label and hints as the exercise wrote them (string | { en, zh } | null): the judge titles a
//   case by its name, or "hidden <number> (<label>)" in the reader's language.
// judge → oracle:  { type: 'check', id, fn, args, got, want, lang }   (functions judged by invariants)
// oracle → judge:  { type: 'checked', id, message }    (null when the check passes; string | { en, zh })
//
// judge → solution: { type: 'solve', source, filename, baseUrl, functions: [name], cases: [{ id, fn, args }], lang }
//   (the worker evaluates source with web/runtime/module.js, naming it filename in stack traces; baseUrl,
//   null in the page, resolves its relative imports; the worker writes its own messages, such as "threw …", in lang)
// solution → judge: { type: 'loaded', output }  |  { type: 'load-error', kind, message, line?, output }
//                   { type: 'case-start', id }
//                   { type: 'case-end', id, value?, error?, output }
//                   { type: 'done' }
// Values are plain data as described in values.js.

export const MSG = Object.freeze({
  READY: 'ready', FATAL: 'fatal',
  ORACLE: 'oracle', CASES: 'cases', ORACLE_ERROR: 'oracle-error', CHECK: 'check', CHECKED: 'checked',
  SOLVE: 'solve', LOADED: 'loaded', LOAD_ERROR: 'load-error',
  CASE_START: 'case-start', CASE_END: 'case-end', DONE: 'done',
});

export const DEFAULT_LIMITS = Object.freeze({
  perCaseMs: 2000,   // one call of a solution function
  totalMs: 10000,    // all cases of one solution, loading included
  startupMs: 30000,  // starting a worker and initialising tp (compiling WASM on a busy machine)
  memoryMb: 256,     // V8 heap of the solution worker (Node only)
});
