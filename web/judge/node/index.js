// tensorpad/judge: the judge as a library for Node, the same one `tensorpad judge` runs.
//   judge(exercise, source, { seed, lang, filename }) → Promise<results>   exercise: an id of the bundled
//     exercises or a path to an exercise folder (holding exercise.json); source: the solution's text, run
//     in the CLI's sandbox; seed: the hidden cases' seed (random, as the CLI's, unless given; results.seed).
//     results is what `tensorpad judge --json` prints: { status: 'pass' | 'fail' | 'error', tests, passed, failed, ... }
//   listExercises() → [{ id, title: { en, zh }, difficulty }]
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { loadExercise, listExerciseIds } from '../../content/exercises.js';
import { judgeSource } from './runner.js';
import { toResultsJson } from '../core/format.js';
import { DEFAULT_SEED } from '../core/judge.js';
import { drawSeed } from '../core/seed.js';

export { DEFAULT_SEED };
export { ExerciseError } from '../../content/exercises.js';

const isFolder = (p) => existsSync(p) && statSync(p).isDirectory();

function load(exercise) {
  if (typeof exercise !== 'string' || exercise === '') throw new TypeError(`judge: exercise must be an exercise id or a folder path, got ${typeof exercise}`);
  // A path (it has a separator, or names a folder) is read from disk; anything else is a bundled id.
  if (/[\\/]/.test(exercise) || exercise.startsWith('.') || (isFolder(exercise) && !listExerciseIds().includes(exercise))) {
    const dir = resolve(exercise);
    return loadExercise(basename(dir), dirname(dir));
  }
  return loadExercise(exercise);
}

export async function judge(exercise, source, { seed = drawSeed(), lang = 'en', filename = 'solution.js' } = {}) {
  if (typeof source !== 'string') throw new TypeError(`judge: source must be the solution's text (a string), got ${typeof source}`);
  return toResultsJson(await judgeSource(load(exercise), source, { seed, lang, filename, sandbox: true }));
}

export function listExercises() {
  return listExerciseIds().map((id) => {
    const { title, difficulty } = loadExercise(id);
    return { id, title, difficulty };
  });
}
