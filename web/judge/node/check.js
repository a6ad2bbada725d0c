// `tensorpad check`: what every exercise must satisfy before it ships.
//   checkExercise(id, opts) → Promise<[{ name, ok, message, skipped? }]>
// - exercise.json validates; reference.js and cases.js parse, are self-contained (the page loads them from
//   Blob URLs) and call nothing that differs from run to run (Math.random, clocks, crypto)
// - the title and statement render (KaTeX) in both languages; reference.js exports each function, taking no
//   more arguments than its params name
// - mistakes name the exercise's functions, each with a fn and a hint (a string or { en, zh } with both written)
// - cases generate and the reference answers each (a broken argument or a throw is named once, with its
//   case, and the checks that need cases are skipped)
// - the generator and the reference are deterministic per seed (which of the two is not, at which case),
//   and the cases vary with the seed
// - the reference returns what functions[].returns declares, with finite numbers unless allowNonFinite
// - every mistake runs on every case and differs from the reference on some
// - the expected values printed in exercise.json's examples agree with the reference
// - the reference passes every case; the starter code fails
// These messages are for authors, in English.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, tokenizer } from 'acorn';
import { loadExercise } from '../../content/exercises.js';
import { generateCases } from '../core/judge.js';
import { nodeEnv, judgeSource } from './runner.js';
import { compareValues } from '../core/compare.js';
import { caseTitle, describeValue, isTensorMarker } from '../core/values.js';
import { messages, localized, LANGS, DEFAULT_LANG, exerciseLangs } from '../core/messages.js';
import { createMarkdown } from '../../content/chapter.mjs';
import { findForbiddenCalls, forbidRules } from '../core/forbid.js';
import { importsIn } from '../core/imports.js';

const moduleAst = (dir, file) => parse(readFileSync(join(dir, file), 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' });

function selfContained(dir, file) {
  moduleAst(dir, file);   // a syntax error is reported as such, by file:line:column
  const imports = importsIn(readFileSync(join(dir, file), 'utf8'));
  if (imports.length) {
    throw new Error(`${file} line ${imports[0].line}: ${imports[0].what}; it must be self-contained ` +
      '(the build copies it alone to judge/<id>/ for the page; cases get rng and tensorArg as arguments, tp is a global)');
  }
}

// The names a module exports → the number of parameters each function takes before its first default or
// rest parameter (what fn.length says), or null for an export whose value the code does not show.
function exportedArities(dir, file) {
  const ast = moduleAst(dir, file);
  const arity = (fn) => {
    if (!fn || !/Function/.test(fn.type)) return null;
    const k = fn.params.findIndex((p) => p.type === 'AssignmentPattern' || p.type === 'RestElement');
    return k < 0 ? fn.params.length : k;
  };
  const out = new Map();
  for (const node of ast.body) {
    if (node.type !== 'ExportNamedDeclaration') continue;
    const d = node.declaration;
    if (d?.type === 'FunctionDeclaration') out.set(d.id.name, arity(d));
    else if (d?.type === 'VariableDeclaration') for (const v of d.declarations) if (v.id.type === 'Identifier') out.set(v.id.name, arity(v.init));
    for (const s of node.specifiers ?? []) out.set(s.exported.name ?? s.exported.value, null);
  }
  return out;
}

// Calls whose result differs from run to run (token sequences, so comments and strings do not count).
const UNSEEDED = [['Math', '.', 'random', '('], ['Date', '.', 'now', '('], ['performance', '.', 'now', '('],
  ['crypto', '.', 'getRandomValues'], ['crypto', '.', 'randomUUID'], ['new', 'Date', '(', ')']];

function unseededCalls(dir, file) {
  const source = readFileSync(join(dir, file), 'utf8');
  const tokens = [...tokenizer(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true })]
    .map((t) => ({ text: source.slice(t.start, t.end), line: t.loc.start.line }));
  const found = [];
  tokens.forEach((t, i) => {
    const call = UNSEEDED.find((seq) => seq.every((s, k) => tokens[i + k]?.text === s));
    if (call) found.push(`${file}:${t.line}: ${call.join('')}`);
  });
  return found;
}

// A hint in one language is shown as written to every reader; one written per language needs each of the
// exercise's languages (both, unless exercise.json's "languages" names fewer).
function hintProblem(hint, langs = LANGS) {
  if (typeof hint === 'string') return hint.trim() ? null : 'is empty';
  if (hint === null || typeof hint !== 'object') return `is ${hint === null ? 'null' : typeof hint}; write a string or { en, zh }`;
  const extra = Object.keys(hint).filter((k) => !LANGS.includes(k));
  if (extra.length) return `has ${extra.map((k) => `"${k}"`).join(', ')}; only ${LANGS.join(' and ')} are allowed`;
  const missing = langs.filter((lang) => typeof hint[lang] !== 'string' || !hint[lang].trim());
  return missing.length ? `needs a non-empty ${missing.join(' and ')}` : null;
}

const nearest = (name, names) => names.find((n) => n.toLowerCase() === name.toLowerCase());
const unknownKey = (what, key, names) => {
  const near = nearest(key, names);
  return `cases.js: ${what}.${key} names no function of exercise.json` +
    `${near ? ` (did you mean ${near}?)` : ''}; its functions: ${names.join(', ')}`;
};

// The shape of cases.js's `mistakes` and `checks`, before anything runs them. Every problem is listed.
// → { problems: [message], mistakes: { fn: [entry | null] } } with null for an entry not worth running.
function mistakesProblems(casesModule, exercise) {
  const { mistakes = {}, checks = {} } = casesModule;
  const names = exercise.functions.map((f) => f.name);
  const problems = [];
  const usable = {};
  if (mistakes === null || typeof mistakes !== 'object' || Array.isArray(mistakes)) {
    return { problems: ['cases.js: mistakes must be an object { fn: [{ hint, fn }] }'], mistakes: usable };
  }
  for (const [fn, list] of Object.entries(mistakes)) {
    if (!names.includes(fn)) { problems.push(unknownKey('mistakes', fn, names)); continue; }
    if (!Array.isArray(list)) { problems.push(`cases.js: mistakes.${fn} must be an array of { hint, fn }`); continue; }
    usable[fn] = list.map((m, i) => {
      const at = `cases.js: mistakes.${fn}[${i}]`;
      if (m === null || typeof m !== 'object') { problems.push(`${at} must be { hint, fn }, not ${m === null ? 'null' : typeof m}`); return null; }
      const extra = Object.keys(m).filter((k) => !['hint', 'fn'].includes(k));
      const typo = extra.length ? ` (it has ${extra.map((k) => `"${k}"`).join(', ')}: a typo?)` : '';
      let ok = true;
      if (!('hint' in m)) { problems.push(`${at} has no hint${typo}`); ok = false; } else {
        const problem = hintProblem(m.hint, exerciseLangs(exercise));
        if (problem) { problems.push(`${at}.hint ${problem}`); ok = false; }
      }
      if (!('fn' in m)) { problems.push(`${at} has no fn${typo}`); ok = false; } else if (typeof m.fn !== 'function') {
        problems.push(`${at}.fn is not a function`); ok = false;
      }
      if (ok && extra.length) problems.push(`${at} has ${extra.map((k) => `"${k}"`).join(', ')}; an entry has only hint and fn`);
      return ok ? m : null;
    });
  }
  if (checks === null || typeof checks !== 'object') problems.push('cases.js: checks must be an object { fn: check }');
  else {
    for (const [fn, check] of Object.entries(checks)) {
      if (!names.includes(fn)) problems.push(unknownKey('checks', fn, names));
      else if (typeof check !== 'function') problems.push(`cases.js: checks.${fn} is not a function`);
    }
    for (const f of exercise.functions) {
      if (f.compare === 'invariant' && typeof checks[f.name] !== 'function') {
        problems.push(`cases.js: ${f.name} is compared by invariants ("compare": "invariant") but checks.${f.name} is missing`);
      }
    }
  }
  return { problems, mistakes: usable };
}

const hintText = (hint) => {
  const text = String(localized(hint, DEFAULT_LANG) ?? '');
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}…` : text);
};

// What the reference returned, against what `returns` declares → a problem, or null.
function kindProblem(value, spec) {
  const kinds = [].concat(spec.returns);
  const fits = (kind) => {
    switch (kind) {
      case 'number': return typeof value === 'number';
      case 'integer': return typeof value === 'number' && (Number.isInteger(value) || (spec.allowNonFinite && !Number.isFinite(value)));
      case 'boolean': return typeof value === 'boolean';
      default: return isTensorMarker(value) || Array.isArray(value);   // array and tensor compare alike
    }
  };
  const declared = `${spec.name} declares "returns": ${JSON.stringify(spec.returns)}`;
  if (!kinds.some(fits)) {
    const got = value && value.$undefined ? 'undefined (a missing return?)' : describeValue(value);
    const hint = kinds.includes('number') && isTensorMarker(value) ? '; return a number, e.g. with .item()' : '';
    return `returned ${got}, but ${declared}${hint}`;
  }
  if (spec.allowNonFinite) return null;
  const bad = firstNonFinite(value);
  if (!bad) return null;
  return `returned ${bad.where ? `${bad.x} at ${bad.where}` : bad.x}; ${declared}, and a learner can only match NaN or ` +
    '±Infinity by returning the same (set "allowNonFinite": true in functions[] if that is an answer)';
}

// The first NaN or ±Infinity in a returned value → { x, where } | null.
function firstNonFinite(value, where = '') {
  if (typeof value === 'number') return Number.isFinite(value) ? null : { x: String(value), where };
  if (isTensorMarker(value)) {
    const { shape, data } = value.$tensor;
    const i = data.findIndex((x) => !Number.isFinite(x));
    if (i < 0) return null;
    const index = [];
    for (let d = shape.length - 1, k = i; d >= 0; d--) { index.unshift(k % shape[d]); k = Math.floor(k / shape[d]); }
    return { x: String(data[i]), where: `[${index.join(', ')}]` };
  }
  if (Array.isArray(value)) {
    for (const [i, x] of value.entries()) {
      const bad = firstNonFinite(x, `${where}[${i}]`);
      if (bad) return bad;
    }
  }
  return null;
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

const skip = (results, name, reason) => results.push({ name, ok: true, skipped: true, message: `skipped: ${reason}` });

// "exercise x: generating cases or running the reference failed: <why>" → "<why>": the step names the exercise.
function oracleReason(exercise, err) {
  const prefix = messages(DEFAULT_LANG).oracleFailed(exercise.id, '');
  return err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
}

export async function checkExercise(id, { seeds = [1, 2], tpModule, root } = {}) {
  const results = [];
  let exercise;
  const loaded = await step(results, `${id}: exercise.json validates; reference.js and cases.js parse and import nothing`, () => {
    exercise = loadExercise(id, root);
    selfContained(exercise.dir, 'reference.js');
    selfContained(exercise.dir, 'cases.js');
  });
  if (!loaded) return results;
  const langs = exerciseLangs(exercise);
  const inLangs = langs.length === 1 ? `in ${langs[0]}, its one language` : 'in both languages';
  await step(results, `${id}: the title and statement render (Markdown and KaTeX) ${inLangs}`, () => {
    const md = createMarkdown();
    const problems = [];
    for (const field of ['title', 'statement']) {
      for (const lang of langs) {
        const env = { errors: [] };
        if (field === 'title') md.renderInline(exercise.title[lang], env);
        else md.render(exercise.statement[lang], env);
        for (const e of env.errors) {
          const where = field === 'statement' && Number.isInteger(e.line) ? `, line ${e.line + 1}` : '';
          problems.push(`exercise.json ${field}.${lang}${where}: ${e.message}`);
        }
      }
    }
    if (problems.length) throw new Error(problems.join('; '));
  });
  await step(results, `${id}: reference.js exports every function of exercise.json, taking the params it names`, () => {
    // Read from the code, not run: reference.js may use the global tp at its top level, which only the
    // judge's worker has.
    const exported = exportedArities(exercise.dir, 'reference.js');
    const problems = [];
    for (const f of exercise.functions) {
      if (!exported.has(f.name)) { problems.push(`reference.js exports no function ${f.name}`); continue; }
      const arity = exported.get(f.name);  // null: exported another way, arity unknown
      if (arity !== null && arity > f.params.length) {
        problems.push(`${f.name} takes ${arity} parameter${arity === 1 ? '' : 's'} in reference.js, but functions[].params names ${f.params.length} ` +
          `(${f.params.join(', ') || 'none'}); case titles and the page name each argument by these`);
      }
    }
    if (problems.length) throw new Error(problems.join('; '));
  });
  await step(results, `${id}: no Math.random, Date.now, performance.now or crypto in cases.js and reference.js`, () => {
    const found = ['cases.js', 'reference.js'].flatMap((f) => unseededCalls(exercise.dir, f));
    if (found.length) {
      throw new Error(`${found.join('; ')} — these differ from run to run: the generator gets a seeded rng ` +
        '(rng.uniform, rng.normal, rng.int …), and a reference computes its answer from the arguments alone');
    }
  });
  if (exercise.forbid?.length || exercise.allow?.length) {
    await step(results, `${id}: forbid and allow name what tp has, and the starter calls nothing forbidden`, async () => {
      const { init } = await import(tpModule ?? 'tensorpad');
      const tp = await init();
      const t = tp.zeros([1]);
      const has = (path) => (path.startsWith('Tensor.prototype.') ? path.slice(17) in t
        : path.split('.').slice(1).reduce((o, k) => (o == null ? undefined : o[k]), tp) !== undefined);
      const unknown = [...(exercise.forbid ?? []), ...(exercise.allow ?? [])].filter((p) => !has(p));
      const inStarter = LANGS.flatMap((lang) => findForbiddenCalls(localized(exercise.starter, lang), forbidRules(exercise))
        .map((f) => `starter (${lang}) line ${f.line} calls ${f.path}`));
      t.dispose();
      const problems = [...unknown.map((p) => `${p} is not in tp (a typo would forbid nothing)`), ...inStarter];
      if (problems.length) throw new Error(problems.join('; '));
    });
  }
  let usable = {};
  await step(results, `${id}: mistakes are well formed: known functions, a fn and a hint each, hints are strings or { en, zh }`, async () => {
    let casesModule;
    try {
      casesModule = await import(pathToFileURL(join(exercise.dir, 'cases.js')).href);
    } catch (err) {
      throw new Error(`cases.js fails to load: ${err.message}`);
    }
    const { problems, mistakes } = mistakesProblems(casesModule, exercise);
    usable = mistakes;
    if (problems.length) throw new Error(problems.join('; '));
    return `${Object.values(mistakes).flat().length} hints`;
  });

  const specs = Object.fromEntries(exercise.functions.map((f) => [f.name, f]));
  const title = (c) => `${caseTitle(c, specs[c.fn]?.params)}${c.kind === 'hidden' && c.seed !== undefined ? ` with seed ${c.seed}` : ''}`;
  const env = nodeEnv({ tpModule });
  const cache = new Map();
  const runs = new Map();   // seed → cases
  const generated = await step(results, `${id}: cases generate and the reference answers each (seeds ${seeds.join(', ')})`, async () => {
    for (const seed of seeds) {
      try {
        runs.set(seed, await generateCases({ exercise, seed, env, cache }));
      } catch (err) {
        throw new Error(`seed ${seed}: ${oracleReason(exercise, err)}`);
      }
    }
    const hidden = runs.get(seeds[0]).filter((c) => c.kind === 'hidden');
    if (hidden.length < 3) throw new Error(`only ${hidden.length} hidden cases; write at least 3`);
    const missing = exercise.functions.map((f) => f.name).filter((f) => !hidden.some((c) => c.fn === f));
    if (missing.length) throw new Error(`no hidden case calls ${missing.join(', ')}`);
    return `${hidden.length} hidden cases`;
  });
  const later = [`${id}: generator and reference are deterministic per seed`, `${id}: reference returns what functions[].returns declares`,
    `${id}: every mistake runs on every case and differs from the reference on some`,
    `${id}: example values in exercise.json match the reference`,
    ...seeds.map((seed) => `${id}: reference passes every case (seed ${seed})`), `${id}: starter code fails`];
  if (!generated) {
    for (const name of later) skip(results, name, 'no cases were generated');
    return results;
  }
  // The examples once, the hidden cases of every seed; a hidden case is named with its seed.
  const cases = [...runs].flatMap(([seed, cs]) => cs.filter((c) => seed === seeds[0] || c.kind === 'hidden').map((c) => ({ ...c, seed })));

  await step(results, later[0], async () => {
    const seed = seeds[0];
    const first = runs.get(seed);
    const again = await generateCases({ exercise, seed, env });
    const key = (c) => JSON.stringify([c.fn, c.args, c.label, c.name]);
    const hiddenA = first.filter((c) => c.kind === 'hidden');
    const hiddenB = again.filter((c) => c.kind === 'hidden');
    const g = hiddenA.findIndex((c, i) => !hiddenB[i] || key(c) !== key(hiddenB[i]));
    if (g >= 0 || hiddenA.length !== hiddenB.length) {
      const at = g >= 0 ? g : hiddenA.length;
      const call = (c) => {
        if (!c) return 'no case';
        const t = caseTitle(c, specs[c.fn]?.params);
        return t.slice(t.lastIndexOf(`: ${c.fn}(`) + 2);
      };
      const [a, b] = [call(hiddenA[at]), call(hiddenB[at])];
      throw new Error(`the generator gave different cases on two runs with seed ${seed}, first hidden ${at + 1}: ` +
        `${a === b ? `${a} both times, with other values` : `${a}, then ${b}`}; use only the rng generate() is given`);
    }
    const r = first.findIndex((c, i) => JSON.stringify(c.expected) !== JSON.stringify(again[i].expected));
    if (r >= 0) {
      const diff = compareValues(again[r].expected, first[r].expected).message ?? 'the encoded values differ';
      throw new Error(`reference.js gave different answers on two runs with seed ${seed}, first at ${title(first[r])}: ` +
        `${diff} (second run against first); the reference must compute its answer from the arguments alone`);
    }
    const hidden = (cs) => JSON.stringify(cs.filter((c) => c.kind === 'hidden').map(key));
    if (seeds.length > 1 && hidden(first) === hidden(runs.get(seeds[1]))) {
      throw new Error(`seeds ${seeds[0]} and ${seeds[1]} gave the same cases: draw them from rng`);
    }
  });

  await step(results, later[1], () => {
    const problems = [];
    for (const spec of exercise.functions) {
      const bad = cases.filter((c) => c.fn === spec.name).map((c) => [c, kindProblem(c.expected, spec)]).filter(([, p]) => p);
      if (bad.length) {
        const [c, problem] = bad[0];
        const more = bad.length - 1;
        problems.push(`${title(c)}${more ? ` (and ${more} more case${more > 1 ? 's' : ''})` : ''}: reference.js ${problem}`);
      }
    }
    if (problems.length) throw new Error(problems.join('; '));
  });

  await step(results, later[2], () => {
    const problems = [];
    for (const [fn, list] of Object.entries(usable)) {
      const spec = specs[fn];
      const tol = { atol: spec.atol, rtol: spec.rtol, kind: spec.returns };
      const ofFn = cases.filter((c) => c.fn === fn);
      list.forEach((m, index) => {
        if (!m) return;
        const name = `mistakes.${fn}[${index}] (${hintText(m.hint)})`;
        const outcomes = ofFn.map((c) => [c, c.mistakes.find((k) => k.index === index)]);
        const threw = outcomes.find(([, o]) => o?.error);
        if (threw) {
          problems.push(`${name} threw ${threw[1].error} on ${title(threw[0])}; return null where a mistake does not apply`);
          return;
        }
        const answered = outcomes.filter(([, o]) => o);
        if (!answered.length) {
          problems.push(`${name} returns null or undefined on every case, so its hint is never shown`);
        } else if (answered.every(([c, o]) => compareValues(o.value, c.expected, tol).pass)) {
          problems.push(`${name} gives the reference's answer (within atol ${spec.atol}, rtol ${spec.rtol}) on all ` +
            `${answered.length} cases where it answers: it can never fire, so either it is no mistake or no case tells it ` +
            'from a right answer');
        }
      });
    }
    if (problems.length) throw new Error(problems.join('; '));
  });

  await step(results, later[3], () => {
    const examples = runs.get(seeds[0]).filter((k) => k.kind === 'example');
    exercise.examples.forEach((ex, i) => {
      if (ex.expected === undefined) return;
      const spec = specs[ex.fn];
      // A tensor is written {$tensor: ...}; anything else (numbers, arrays, booleans, null) is the value itself.
      const isTensor = ex.expected !== null && typeof ex.expected === 'object' && !Array.isArray(ex.expected) && '$tensor' in ex.expected;
      const want = isTensor ? ex.expected.$tensor : ex.expected;
      const r = compareValues(examples[i].expected, want, { atol: spec.atol, rtol: spec.rtol });
      if (!r.pass) throw new Error(`examples[${i}].expected disagrees with the reference: ${r.message}`);
    });
  });
  for (const [k, seed] of seeds.entries()) {
    await step(results, later[4 + k], async () => {
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
  await step(results, later.at(-1), async () => {
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
