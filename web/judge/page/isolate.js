// What keeps a learner's code in the page's judge worker from reaching the site's judge files
// (/judge/<id>/reference.js, cases.js), which the page's own oracle worker loads:
//   importsIn(source)                      (core/imports.js) every import of a solution: the page refuses
//                                          a solution that has one (page/runner.js)
//   isolateWorker(say)                     in the worker, once tp is initialised: no fetch, XMLHttpRequest,
//                                          importScripts, WebSocket, EventSource, Cache Storage (the
//                                          service worker's copy holds the judge files), nested Workers
//                                          (the cell worker would fetch for it), eval or Function
//                                          constructors (so no import() hidden in a string), and timers
//                                          take functions only
// The worker's own code (the evaluator, the oracle's import of the exercise modules) captured what it needs
// before this runs. This is not a substitute for a server that keeps answers secret: a site built with
// `--public-cases examples` ships no reference at all.

export { importsIn } from '../core/imports.js';

export function isolateWorker(say) {
  const g = globalThis;
  // a plain function, so that `new Worker(…)` is refused with the message too
  const refuse = (what) => function refused() { throw new Error(say().notInJudge(what)); };
  for (const name of ['fetch', 'XMLHttpRequest', 'importScripts', 'WebSocket', 'EventSource', 'Worker', 'SharedWorker']) {
    if (name in g) Object.defineProperty(g, name, { value: refuse(name), writable: false, configurable: false });
  }
  if ('caches' in g) Object.defineProperty(g, 'caches', { get: refuse('caches'), configurable: false });
  // Code built from strings (eval, new Function, the async and generator constructors) may not import:
  // it keeps working otherwise (the evaluator measures its stack frames with new Function).
  const imports = (args) => args.some((a) => /\bimport\b/.test(String(a)));
  const guarded = (C, name) => new Proxy(C, {
    apply: (t, self, args) => { if (imports(args)) refuse(`import() in ${name}`)(); return Reflect.apply(t, self, args); },
    construct: (t, args, nt) => { if (imports(args)) refuse(`import() in ${name}`)(); return Reflect.construct(t, args, nt === C ? t : nt); },
  });
  const realEval = g.eval;
  Object.defineProperty(g, 'eval', { value: guarded(realEval, 'eval'), writable: false, configurable: false });
  for (const C of [Function, (async () => {}).constructor, function* gen() {}.constructor, async function* agen() {}.constructor]) {
    Object.defineProperty(C.prototype, 'constructor', { value: guarded(C, C.name), writable: false, configurable: false });
  }
  Object.defineProperty(g, 'Function', { value: guarded(Function, 'Function'), writable: false, configurable: false });
  for (const name of ['setTimeout', 'setInterval']) {
    const real = g[name].bind(g);
    Object.defineProperty(g, name, {
      value: (fn, ...rest) => { if (typeof fn !== 'function') refuse(`${name} with a string`)(); return real(fn, ...rest); },
      writable: false, configurable: false,
    });
  }
}
