// `tensorpad check`: what every exercise must satisfy before it ships.
//   checkExercise(id, opts) → Promise<[{ name, ok, message }]>
// - exercise.json validates; reference.js and cases.js are self-contained (the page loads them from Blob URLs)
// - every hint of cases.js is a non-empty string or { en, zh } with both languages written
// - the generator is deterministic per seed and varies with the seed
// - the reference passes every case; the starter code fails
// - the expected values printed in exercise.json's examples agree with the reference

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'acorn';
import { loadExercise } from './exercises.js';
import { generateCases } from './judge.js';
import { nodeEnv, judgeSource } from './node-runner.js';
import { compareValues } from './compare.js';
import { localized, LANGS, DEFAULT_LANG } from './messages.js';

function selfContained(dir, file) {
  const ast = parse(readFileSync(join(dir, file), 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' });
  const imports = ast.body.filter((n) => n.type === 'ImportDeclaration' || (n.type.startsWith('Export') && n.source));
  if (imports.length) {
    throw new Error(`${file} imports "${imports[0].source.value}"; it must be self-contained ` +
      '(the page loads it from a Blob URL; cases get rng and tensorArg as arguments, tp is a global)');
  }
}

// A hint in one language is shown as written to every reader; a bilingual one needs both languages.
function hintProblem(hint) {
  if (typeof hint === 'string') return hint.trim() ? null : 'is empty';
  if (hint === null || typeof hint !== 'object') return `is ${hint === null ? 'null' : typeof hint}; write a string or { en, zh }`;
  const extra = Object.keys(hint).filter((k) => !LANGS.includes(k));
  if (extra.length) return `has ${extra.map((k) => `"${k}"`).join(', ')}; only ${LANGS.join(' and ')} are allowed`;
  const missing = LANGS.filter((lang) => typeof hint[lang] !== 'string' || !hint[lang].trim());
  return missing.length ? `needs a non-empty ${missing.join(' and ')}` : null;
}

async function checkMistakes(exercise) {
  const { mistakes = {} } = await import(pathToFileURL(join(exercise.dir, 'cases.js')).href);
  const names = exercise.functions.map((f) => f.name);
  let hints = 0;
  for (const [fn, list] of Object.entries(mistakes)) {
    if (!names.includes(fn)) throw new Error(`cases.js: mistakes.${fn} is not one of ${names.join(', ')}`);
    list.forEach((m, i) => {
      const problem = hintProblem(m.hint);
      if (problem) throw new Error(`cases.js: mistakes.${fn}[${i}].hint ${problem}`);
      if (typeof m.fn !== 'function') throw new Error(`cases.js: mistakes.${fn}[${i}].fn is not a function`);
      hints++;
    });
  }
  return `${hints} hints`;
}

async function step(results, name, fn) {
  try {
    const message = await fn();
    results.push({ name, ok: true, message: message || '' });
    return true;
  } catch (err) {
    results.push({ name, ok: false, message: err.message });
    return false;
  }
}

export async function checkExercise(id, { seeds = [1, 2], tpModule, root } = {}) {
  const results = [];
  let exercise;
  const loaded = await step(results, `${id}: exercise.json validates`, () => {
    exercise = loadExercise(id, root);
    selfContained(exercise.dir, 'reference.js');
    selfContained(exercise.dir, 'cases.js');
  });
  if (!loaded) return results;
  await step(results, `${id}: hints are strings or { en, zh }`, () => checkMistakes(exercise));
  const env = nodeEnv({ tpModule });
  const cache = new Map();
  let cases1;
  await step(results, `${id}: generator is deterministic per seed`, async () => {
    cases1 = await generateCases({ exercise, seed: seeds[0], env });
    const again = await generateCases({ exercise, seed: seeds[0], env });
    const other = await generateCases({ exercise, seed: seeds[1], env });
    const hidden = (cs) => JSON.stringify(cs.filter((c) => c.kind === 'hidden').map((c) => [c.fn, c.args, c.expected]));
    if (hidden(cases1) !== hidden(again)) throw new Error(`seed ${seeds[0]} gave different cases on two runs`);
    if (hidden(cases1) === hidden(other)) throw new Error(`seeds ${seeds[0]} and ${seeds[1]} gave the same cases`);
    const n = cases1.filter((c) => c.kind === 'hidden').length;
    if (n < 3) throw new Error(`only ${n} hidden cases; write at least 3`);
    const missing = exercise.functions.map((f) => f.name).filter((f) => !cases1.some((c) => c.kind === 'hidden' && c.fn === f));
    if (missing.length) throw new Error(`no hidden case calls ${missing.join(', ')}`);
    return `${n} hidden cases`;
  });
  await step(results, `${id}: example values in exercise.json match the reference`, () => {
    if (!cases1) throw new Error('no cases were generated');
    exercise.examples.forEach((ex, i) => {
      if (ex.expected === undefined) return;
      const c = cases1.filter((k) => k.kind === 'example')[i];
      const spec = exercise.functions.find((f) => f.name === ex.fn);
      // A tensor is written {$tensor: ...}; anything else (numbers, arrays, booleans, null) is the value itself.
      const isTensor = ex.expected !== null && typeof ex.expected === 'object' && !Array.isArray(ex.expected) && '$tensor' in ex.expected;
      const want = isTensor ? ex.expected.$tensor : ex.expected;
      const r = compareValues(c.expected, want, { atol: spec.atol, rtol: spec.rtol });
      if (!r.pass) throw new Error(`examples[${i}].expected disagrees with the reference: ${r.message}`);
    });
  });
  for (const seed of seeds) {
    await step(results, `${id}: reference passes every case (seed ${seed})`, async () => {
      const source = readFileSync(join(exercise.dir, 'reference.js'), 'utf8');
      const r = await judgeSource(exercise, source, { filename: 'reference.js', seed, cache, tpModule });
      if (r.status !== 'pass') {
        const bad = r.cases.find((c) => c.status !== 'pass');
        throw new Error(r.message || `${bad.name}: ${bad.message}`);
      }
      return `${r.passed} cases`;
    });
  }
  // One language's starter is enough: loadExercise checked that the other holds the same code.
  await step(results, `${id}: starter code fails`, async () => {
    const starter = localized(exercise.starter, DEFAULT_LANG);
    const r = await judgeSource(exercise, starter, { filename: 'starter.js', seed: seeds[0], cache, tpModule });
    if (r.status === 'pass') throw new Error('the starter code passes every case');
    if (r.errorKind === 'syntax' || r.errorKind === 'missing-export') {
      throw new Error(`the starter code must load and export the functions: ${r.message}`);
    }
    // Failing must mean cases ran and gave wrong answers, not that nothing could run.
    if (!r.cases.length || !r.failed) throw new Error(`the starter code could not be judged: ${r.message ?? 'no case ran'}`);
    return `${r.failed} of ${r.cases.length} cases fail`;
  });
  return results;
}
