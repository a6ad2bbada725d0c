// `tensorpad exercism <slug> <input-dir> <output-dir>`: an Exercism test runner (test runner interface,
// results.json version 3). It writes <output-dir>/results.json and exits 0 whenever it ran, whatever the
// verdict; paths in messages are relative to the input folder. The solution is <input-dir>/<file> where
// file is .meta/config.json's files.solution[0], else <slug>.js, else solution.js, else the only .js file.

import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { toResultsJson } from '../../core/format.js';
import { drawSeed } from '../../core/seed.js';

export const usage = 'tensorpad exercism <exercise-id> <input-dir> <output-dir> [--seed N] [--lang zh|en] [--cases <dir>]';

export function solutionFileIn(dir, slug) {
  const config = join(dir, '.meta', 'config.json');
  if (existsSync(config)) {
    try {
      const first = JSON.parse(readFileSync(config, 'utf8'))?.files?.solution?.[0];
      if (typeof first === 'string' && existsSync(join(dir, first))) return first;
    } catch {
      // an unreadable config falls back to the names below
    }
  }
  for (const name of [`${slug}.js`, `${slug}.mjs`, 'solution.js', 'solution.mjs']) if (existsSync(join(dir, name))) return name;
  const js = readdirSync(dir).filter((n) => /\.m?js$/.test(n) && !/(\.|-)(spec|test)\.m?js$/.test(n));
  return js.length === 1 ? js[0] : null;
}

// Only the keys of the v3 spec: the CLI's --json adds exercise, seed and counts, Exercism wants none of them.
export function exercismResults(result) {
  const { version, status, message, tests } = toResultsJson(result);
  const out = { version, status, message: status === 'error' ? (message || 'the solution could not be run') : null };
  if (status !== 'error') {
    out.tests = tests.map((t) => {
      const test = { name: t.name, status: t.status, test_code: t.test_code, message: t.message ?? null };
      if (t.output) test.output = t.output.length > 500 ? `${t.output.slice(0, 450)}\nOutput was truncated. Please limit to 500 chars` : t.output;
      return test;
    });
  }
  return out;
}

export async function run({ positional, flags, load, UsageError, judgeFile }) {
  if (positional.length !== 3) throw new UsageError('exercism needs <exercise-id> <input-dir> <output-dir>');
  const [slug, input, output] = positional;
  if (!existsSync(input) || !statSync(input).isDirectory()) throw new UsageError(`input folder not found: ${input}`);
  const exercise = load(slug);
  mkdirSync(output, { recursive: true });
  const file = solutionFileIn(input, slug);
  let results;
  if (!file) {
    results = { version: 3, status: 'error', message: `no solution file found: expected ${slug}.js in the solution folder` };
  } else {
    const seed = flags.seed !== undefined ? Number(flags.seed) : drawSeed();
    // the file is named relative to the solution folder, so no absolute path reaches the student
    const result = await judgeFile(exercise, join(input, file), { seed, lang: flags.lang, filename: file, sandbox: true });
    results = exercismResults(result);
  }
  writeFileSync(join(output, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  return 0;
}
