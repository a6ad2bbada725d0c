// Solutions of lora-params that exercise the evaluator's semantics (web/runtime/module.js), each with the
// verdict both the page's judge and the CLI's must give it. Shared by tests/js/judge-evaluator.test.mjs
// (the CLI) and tests/browser/judge.test.mjs (the page beside the CLI).
//   { name, source, status, errorKind?, message?: RegExp (the error, or the first failing case's message) }

const right = 'r * (dOut + dIn)';

export const EVALUATOR_SOURCES = [
  {
    name: 'plain top-level declarations, as typed in a cell',
    source: `function loraParams(dOut, dIn, r) {\n  return ${right};\n}\nconst loraFraction = (dOut, dIn, r) => loraParams(dOut, dIn, r) / (dOut * dIn);\n`,
    status: 'pass',
  },
  {
    name: 'export declarations',
    source: `export function loraParams(dOut, dIn, r) {\n  return ${right};\n}\nexport const loraFraction = (dOut, dIn, r) => loraParams(dOut, dIn, r) / (dOut * dIn);\n`,
    status: 'pass',
  },
  {
    name: 'export const { a, b } = an object',
    source: `const impl = {\n  loraParams: (dOut, dIn, r) => ${right},\n  loraFraction: (dOut, dIn, r) => (${right}) / (dOut * dIn),\n};\n` +
      'export const { loraParams, loraFraction } = impl;\n',
    status: 'pass',
  },
  {
    name: 'an export list with a renamed function',
    source: `function count(dOut, dIn, r) {\n  return ${right};\n}\nfunction fraction(dOut, dIn, r) {\n  return count(dOut, dIn, r) / (dOut * dIn);\n}\n` +
      'export { count as loraParams, fraction as loraFraction };\n',
    status: 'pass',
  },
  {
    name: 'top-level await',
    source: `const one = await Promise.resolve(1);\nexport function loraParams(dOut, dIn, r) {\n  return one * ${right};\n}\n` +
      'export function loraFraction(dOut, dIn, r) {\n  return loraParams(dOut, dIn, r) / (dOut * dIn);\n}\n',
    status: 'pass',
  },
  {
    name: 'a sloppy assignment to an undeclared variable inside a function',
    source: `export function loraParams(dOut, dIn, r) {\n  total = ${right};\n  return total;\n}\n` +
      'export function loraFraction(dOut, dIn, r) {\n  return loraParams(dOut, dIn, r) / (dOut * dIn);\n}\n',
    status: 'fail',
    message: /^threw ReferenceError: total is not defined \(at solution\.js:2:9\)$/,
  },
  {
    name: 'a sloppy assignment to an undeclared variable at the top level',
    source: `scale = 1;\nexport function loraParams(dOut, dIn, r) {\n  return ${right};\n}\n` +
      'export function loraFraction(dOut, dIn, r) {\n  return loraParams(dOut, dIn, r) / (dOut * dIn);\n}\n',
    status: 'error', errorKind: 'load',
    message: /^loading solution\.js failed: ReferenceError: scale is not defined$/,
  },
  {
    name: 'a syntax error',
    source: `export function loraParams(dOut, dIn, r) {\n  return r * (dOut + dIn;\n}\n`,
    status: 'error', errorKind: 'syntax',
    message: /^solution\.js:2:\d+: SyntaxError: Unexpected token\n {2}2 \| {3}return r \* \(dOut \+ dIn;/,
  },
  {
    name: 'sloppy-mode-only syntax (with)',
    source: `export function loraParams(dOut, dIn, r) {\n  with (Math) return ${right};\n}\nexport const loraFraction = () => 0;\n`,
    status: 'error', errorKind: 'syntax',
    message: /^solution\.js:2:3: SyntaxError: 'with' in strict mode/,
  },
  {
    name: 'a function declared but not exported beside an export',
    source: `function loraParams(dOut, dIn, r) {\n  return ${right};\n}\nexport const loraFraction = (dOut, dIn, r) => loraParams(dOut, dIn, r) / (dOut * dIn);\n`,
    status: 'error', errorKind: 'missing-export',
    message: /does not export `loraParams`.*loraParams is declared but not exported/,
  },
];

/** The words a reader sees for a result: the error, or each failing case's message, in order. */
export function messagesOf(result) {
  if (result.status === 'error') return [result.message];
  return result.cases.filter((c) => c.status !== 'pass').map((c) => c.message);
}
