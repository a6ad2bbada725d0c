// What keeps a learner's code in the page's judge worker from reaching the site's judge files
// (/judge/<id>/reference.js, cases.js), which the page's own oracle worker loads:
//   importsIn(source) → [{ line, what }]   every import declaration, re-export and import() expression;
//                                          the page refuses a solution that has one (page/runner.js)
//   isolateWorker(say)                     in the worker, once tp is initialised: no fetch, XMLHttpRequest,
//                                          importScripts, WebSocket, EventSource, Cache Storage (the
//                                          service worker's copy holds the judge files), nested Workers
//                                          (the cell worker would fetch for it), eval or Function
//                                          constructors (so no import() hidden in a string), and timers
//                                          take functions only
// The worker's own code (the evaluator, the oracle's import of the exercise modules) captured what it needs
// before this runs. This is not a substitute for a server that keeps answers secret: a site built with
// `--public-cases examples` ships no reference at all.

import { parse } from 'acorn';

const PARSE_OPTIONS = { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, locations: true };

export function importsIn(source) {
  let ast;
  try {
    ast = parse(source, PARSE_OPTIONS);
  } catch {
    return [];   // the judge reports the syntax error itself
  }
  const found = [];
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'ImportExpression') found.push({ line: node.loc.start.line, what: 'import()' });
    else if (node.type === 'ImportDeclaration' || ((node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.source)) {
      found.push({ line: node.loc.start.line, what: `import from ${JSON.stringify(node.source.value)}` });
    }
    for (const key of Object.keys(node)) {
      if (key === 'loc') continue;
      const v = node[key];
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v === 'object' && typeof v.type === 'string') visit(v);
    }
  };
  visit(ast);
  return found;
}

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
