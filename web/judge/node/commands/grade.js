// `tensorpad grade <exercise-id|all> <dir>`: grades every submission in <dir> (see ../grade.js for the
// layouts), each in its own sandbox, up to --jobs at once (default: the core count). Writes grades.csv,
// grades.json and <submission>.results.json (next to each submission, or under --out), prints one line per
// submission, and exits 0 when every submission was graded, whatever the grades.
// One seed per exercise for the whole batch (every student gets the same hidden cases), random unless --seed.

import { existsSync, statSync } from 'node:fs';
import { join, relative, dirname, basename, extname } from 'node:path';
import { findSubmissions, gradeSubmissions, writeGradebook, RESULTS_SUFFIX, defaultJobs } from '../grade.js';
import { generateCases } from '../../core/judge.js';
import { drawSeed } from '../../core/seed.js';

export const usage = 'tensorpad grade <exercise-id|all> <dir> [--out <dir>] [--jobs N] [--seed N] [--time-limit MS] [--lang zh|en] [--cases <dir>]';

export async function run({ positional, flags, load, listIds, UsageError, judgeFile, nodeEnv }) {
  if (positional.length !== 2) throw new UsageError('grade needs <exercise-id|all> <dir>');
  const [target, dir] = positional;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`submissions folder not found: ${dir}`);
  const ids = target === 'all' ? listIds() : [target];
  const exercises = Object.fromEntries(ids.map((id) => [id, load(id)]));
  const jobs = flags.jobs !== undefined ? Number(flags.jobs) : defaultJobs();
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs must be a positive integer, got "${flags.jobs}"`);
  let limits;
  if (flags['time-limit'] !== undefined) {
    const ms = Number(flags['time-limit']);
    if (!Number.isInteger(ms) || ms < 50) throw new UsageError(`--time-limit must be at least 50 (milliseconds), got "${flags['time-limit']}"`);
    limits = { totalMs: ms, perCaseMs: ms };
  }
  const out = flags.out ?? dir;
  const subs = findSubmissions(dir, ids);
  if (!subs.length) {
    throw new UsageError(ids.length === 1
      ? `no submissions in ${dir}: expected <student>.js files, or <student>/${ids[0]}.js folders`
      : `no submissions in ${dir}: expected <student>/<exercise-id>.js folders`);
  }
  const seeds = Object.fromEntries(ids.map((id) => [id, flags.seed !== undefined ? Number(flags.seed) : drawSeed()]));
  // the cases of each exercise, generated once: every submission reuses them, and errors get their maximum
  const cache = new Map();
  const counts = {};
  const env = nodeEnv();
  for (const id of new Set(subs.filter((s) => s.file).map((s) => s.exercise))) {
    counts[id] = (await generateCases({ exercise: exercises[id], seed: seeds[id], env, cache })).length;
  }
  const resultsPath = (sub) => {
    const rel = relative(dir, sub.file);
    return join(out, dirname(rel), basename(rel, extname(rel)) + RESULTS_SUFFIX);
  };
  const files = subs.map((s) => s.file).filter(Boolean);
  const started = performance.now();
  const rows = await gradeSubmissions(subs, {
    exercises, seedOf: (id) => seeds[id], caseCount: (id) => counts[id] ?? null, jobs, lang: flags.lang, limits, resultsPath,
    // a submission may import its own helpers, never another student's file
    judgeFile: (exercise, file, opts) => judgeFile(exercise, file, { ...opts, cache, sandbox: true, neighbours: files.filter((f) => f !== file) }),
    onRow: (r) => process.stdout.write(`${r.student}  ${r.exercise}  ${r.status}  ${r.passed}/${r.passed + r.failed}  ` +
      `${r.points}/${r.maxPoints ?? '?'} points  ${r.timeMs} ms${r.resultsError ? `  (results.json not written: ${r.resultsError})` : ''}\n`),
  });
  const { csv, json } = writeGradebook(rows, out);
  const seconds = (performance.now() - started) / 1000;
  const graded = rows.filter((r) => r.status !== 'missing').length;
  process.stdout.write(`${graded} submissions graded in ${seconds.toFixed(1)} s (${(graded / seconds).toFixed(2)}/s, ${jobs} at once); ` +
    `seed ${Object.values(seeds).length === 1 ? Object.values(seeds)[0] : JSON.stringify(seeds)}\n${csv}\n${json}\n`);
  return 0;
}
