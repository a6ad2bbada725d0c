// Loading exercises from disk (Node): exercise.json validated against schema.js with ajv, plus the
// checks a schema cannot express (a bilingual starter holds the same code in both languages), and
// reference.js and cases.js parsed. Errors name the file and the field, or the file, line and column.
//   loadExercise(id, root?)  → exercise ({ ...exercise.json, dir })
//   loadExercises(root?)     → [exercise]

import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, relative, resolve, basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { parse, tokenizer } from 'acorn';
import { exerciseSchema, EXERCISE_LANGS } from '../judge/core/schema.js';
import { isTensorMarker, shapeOfNested } from '../judge/core/values.js';

// TENSORPAD_EXERCISES points the CLI (and everything else) at another folder of exercises, as tests do.
export const EXERCISES_DIR = process.env.TENSORPAD_EXERCISES ?? fileURLToPath(new URL('../../exercises/', import.meta.url));

export class ExerciseError extends Error {
  constructor(file, field, message) {
    super(`${file}: ${field ? `field \`${field}\` ` : ''}${message}`);
    this.name = 'ExerciseError';
    this.file = file;
    this.field = field;
  }
}

let validate = null;
function validator() {
  if (!validate) validate = new Ajv({ allErrors: true, strict: false }).compile(exerciseSchema);
  return validate;
}

// "/functions/0/atol" → "functions[0].atol"
function fieldName(instancePath, extra) {
  const parts = instancePath.split('/').slice(1).filter((p) => p !== '');
  if (extra) parts.push(extra);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

// Of the errors of an `anyOf` (a starter written as a string or as { zh, en }), keep those of the form
// the value has: "starter.zh must NOT have fewer than 1 characters" rather than "starter must be string".
function mostSpecific(errors) {
  const alternatives = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const specific = errors.filter((e) => !(alternatives.has(e.instancePath) && ['anyOf', 'type', 'minLength'].includes(e.keyword)));
  return specific[0] ?? errors[0];
}

function describeSchemaError(err) {
  const extra = err.params?.missingProperty ?? err.params?.additionalProperty;
  const field = fieldName(err.instancePath, extra) || '(root)';
  let message = err.message;
  if (err.keyword === 'required') message = 'is missing';
  if (err.keyword === 'additionalProperties') message = 'is not allowed (unknown field; a typo?)';
  if (err.keyword === 'enum') message = `must be one of ${err.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return { field, message };
}

// The most specific problem names the field; the others follow, so that a misspelt field is seen with
// the field it was meant to be ("timeLimitMs is missing; also: timelimitMs is not allowed").
function schemaError(file, errors) {
  const first = mostSpecific(errors);
  const { field, message } = describeSchemaError(first);
  const alternatives = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const others = [...new Set(errors.filter((e) => e !== first && !alternatives.has(e.instancePath))
    .map((e) => { const d = describeSchemaError(e); return `field \`${d.field}\` ${d.message}`; }))].slice(0, 4);
  return new ExerciseError(file, field, others.length ? `${message}; also: ${others.join('; ')}` : message);
}

/**
 * Where the CLI finds the exercise an argument names: an id in EXERCISES_DIR, or a folder path
 * (`./row-means`, `../course/ex1`, `/abs/path`; a bare name too when no exercise has that id and the
 * folder holds an exercise.json). → { id, root }, root the folder that holds it; null when it is neither.
 */
export function locateExercise(arg, root = EXERCISES_DIR) {
  const looksLikePath = /[\\/]/.test(arg) || arg.startsWith('.');
  if (!looksLikePath && existsSync(join(root, arg, 'exercise.json'))) return { id: arg, root };
  const dir = resolve(arg);
  if (existsSync(join(dir, 'exercise.json'))) return { id: basename(dir), root: dirname(dir) };
  return looksLikePath ? { id: basename(dir), root: dirname(dir), missing: dir } : null;
}

export function listExerciseIds(root = EXERCISES_DIR) {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((d) => statSync(join(root, d)).isDirectory() && existsSync(join(root, d, 'exercise.json')))
    .sort();
}

export function loadExercise(id, root = EXERCISES_DIR) {
  const dir = join(root, id);
  const file = relative(process.cwd(), join(dir, 'exercise.json')) || join(dir, 'exercise.json');
  if (!existsSync(join(dir, 'exercise.json'))) {
    const known = listExerciseIds(root);
    throw new ExerciseError(file, null, `does not exist: unknown exercise "${id}"` +
      (known.length ? ` (known: ${known.join(', ')})` : ''));
  }
  const text = readFileSync(join(dir, 'exercise.json'), 'utf8');
  let json;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const { line, column, message } = jsonErrorPlace(text, err.message);
    throw new ExerciseError(line ? `${file}:${line}:${column}` : file, null, `is not valid JSON: ${message}`);
  }
  const v = validator();
  if (!v(json)) throw schemaError(file, v.errors);
  if (json.id !== id) throw new ExerciseError(file, 'id', `is "${json.id}" but the folder is "${id}"`);
  const names = json.functions.map((f) => f.name);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i) throw new ExerciseError(file, `functions[${i}].name`, `repeats "${n}"`);
  });
  json.examples.forEach((ex, i) => {
    if (!names.includes(ex.fn)) {
      throw new ExerciseError(file, `examples[${i}].fn`, `is "${ex.fn}", not one of ${names.join(', ')}`);
    }
    // A tensor written as { "$tensor": [...] } must be a rectangular array of numbers.
    (ex.args ?? []).forEach((a, k) => {
      const shape = isTensorMarker(a) && Array.isArray(a.$tensor) ? shapeOfNested(a.$tensor) : null;
      if (shape?.error) throw new ExerciseError(file, `examples[${i}].args[${k}].$tensor`, `is not a tensor: ${shape.error}`);
    });
  });
  checkLanguages(file, json);
  if (typeof json.starter === 'object' && json.starter.en !== undefined && json.starter.zh !== undefined) checkStarterCode(file, json.starter);
  for (const f of ['reference.js', 'cases.js']) {
    const source = join(dir, f), shown = relative(process.cwd(), source) || source;
    if (!existsSync(source)) throw new ExerciseError(shown, null, 'is missing');
    try {
      parse(readFileSync(source, 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' });
    } catch (err) {
      if (!err.loc) throw err;
      throw new ExerciseError(`${shown}:${err.loc.line}:${err.loc.column + 1}`, null, `does not parse: ${err.message.replace(/ \(\d+:\d+\)$/, '')}`);
    }
  }
  return { ...json, dir };
}

// "Unexpected number in JSON at position 18" → line and column (from 1) of that position, and the message
// without it; the end of the text for "Unexpected end of JSON input".
function jsonErrorPlace(text, message) {
  const m = / in JSON at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(message);
  const at = m ? Number(m[1]) : /end of JSON input/.test(message) ? text.length : null;
  if (at === null) return { message };
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before.at(-1).length + 1, message: m ? message.slice(0, m.index) : message };
}

// The code of a starter without its comments and layout: [{ text, line }] per token.
function codeTokens(file, field, source) {
  try {
    return [...tokenizer(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true })]
      .map((t) => ({ text: source.slice(t.start, t.end), line: t.loc.start.line }));
  } catch (err) {
    throw new ExerciseError(file, field, `does not parse: ${err.message}`);
  }
}

// The two languages of a starter may differ in comments only, so a reader switching language (or an
// author fixing one) never gets other code.
// Every text a reader sees is written in exactly the exercise's languages: its `languages`, by default
// both. One language is enough; the page and the CLI then show that language to every reader.
function checkLanguages(file, json) {
  const langs = json.languages ?? EXERCISE_LANGS;
  const declared = json.languages ? `"languages" is ${JSON.stringify(json.languages)}` :
    `the exercise is written in ${EXERCISE_LANGS.join(' and ')} (declare "languages": ["en"] to write it in one)`;
  const fields = [['title', json.title], ['statement', json.statement]];
  if (typeof json.starter === 'object') fields.push(['starter', json.starter]);
  json.examples.forEach((ex, i) => { if (ex.name && typeof ex.name === 'object') fields.push([`examples[${i}].name`, ex.name]); });
  for (const [field, value] of fields) {
    for (const lang of langs) if (value[lang] === undefined) throw new ExerciseError(file, `${field}.${lang}`, `is missing: ${declared}`);
    for (const lang of Object.keys(value)) if (!langs.includes(lang)) throw new ExerciseError(file, `${field}.${lang}`, `is not allowed: ${declared}`);
  }
}

function checkStarterCode(file, starter) {
  const en = codeTokens(file, 'starter.en', starter.en);
  const zh = codeTokens(file, 'starter.zh', starter.zh);
  const i = en.findIndex((t, k) => t.text !== zh[k]?.text);
  if (i < 0 && en.length === zh.length) return;
  const at = (tokens, k) => (tokens[k] ? `\`${tokens[k].text}\` on line ${tokens[k].line}` : 'the end');
  const k = i < 0 ? en.length : i;
  throw new ExerciseError(file, 'starter.zh', `must hold the same code as starter.en, differing in comments only: ` +
    `${at(zh, k)} where starter.en has ${at(en, k)}`);
}

export function loadExercises(root = EXERCISES_DIR) {
  return listExerciseIds(root).map((id) => loadExercise(id, root));
}
