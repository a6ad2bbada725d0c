// Batch grading for instructors: every submission in a folder, judged in sandboxes in parallel, into a
// gradebook (grades.csv, grades.json) and one results.json per submission.
//   findSubmissions(dir, ids)  → [{ student, exercise, file }]   (ids: the exercises graded)
//   gradeSubmissions(subs, { exercises, seedOf(id), caseCount(id), jobs, lang, limits, judgeFile, resultsPath(sub), onRow })
//                              → Promise<[Row]>, at most `jobs` judged at once (default: the core count)
//   pointsOf(exercise, result, caseCount) → { points, maxPoints }
//   writeGradebook(rows, outDir) → { csv, json }  (paths written)
// Layouts: per-student folders holding <exercise-id>.js (any number of exercises), or, when one exercise is
// graded, files <student>.js side by side. A student folder without a file for an exercise is "missing".
// Row = { student, exercise, status: pass|fail|error|missing, passed, failed, points, maxPoints, seed, timeMs,
//         file, results }  (results: the submission's results.json path, relative to the gradebook)

import { readdirSync, statSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative, dirname, basename, extname } from 'node:path';
import { availableParallelism } from 'node:os';
import { toResultsJson } from '../core/format.js';

export const RESULTS_SUFFIX = '.results.json';
const isSubmission = (name) => /\.(m?js)$/.test(name) && !name.endsWith(RESULTS_SUFFIX) && !name.startsWith('.');

export function findSubmissions(dir, ids) {
  const subs = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) {
      if (name.startsWith('.')) continue;
      for (const id of ids) {
        const file = ['.js', '.mjs'].map((ext) => join(path, id + ext)).find((f) => existsSync(f));
        subs.push({ student: name, exercise: id, file: file ?? null });
      }
    } else if (st.isFile() && isSubmission(name) && ids.length === 1) {
      subs.push({ student: basename(name, extname(name)), exercise: ids[0], file: path });
    }
  }
  return subs;
}

// perCase points for each case passed (default 1), or exercise points shared over the cases (partial credit).
// caseCount: how many cases the exercise has for this seed (a submission that cannot be judged lists none).
export function pointsOf(exercise, result, caseCount) {
  const spec = exercise.points ?? { perCase: 1 };
  const round = (x) => Math.round(x * 100) / 100;
  const judged = result && result.status !== 'error';
  if (spec.exercise !== undefined) {
    return { points: judged && caseCount > 0 ? round(spec.exercise * result.passed / caseCount) : 0, maxPoints: spec.exercise };
  }
  return { points: judged ? round(spec.perCase * result.passed) : 0, maxPoints: caseCount == null ? null : round(spec.perCase * caseCount) };
}

// Runs tasks with at most `jobs` at once, keeping their order in the answer.
async function pool(items, jobs, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return out;
}

export const defaultJobs = () => availableParallelism();

export async function gradeSubmissions(subs, { exercises, seedOf, caseCount, jobs = defaultJobs(), lang, limits, judgeFile, onRow, resultsPath }) {
  return pool(subs, jobs, async (sub) => {
    const exercise = exercises[sub.exercise];
    const seed = seedOf(sub.exercise);
    const row = { student: sub.student, exercise: sub.exercise, status: 'missing', passed: 0, failed: 0,
      points: 0, maxPoints: null, seed, timeMs: 0, file: sub.file, results: null };
    if (sub.file) {
      const start = performance.now();
      let result;
      try {
        result = await judgeFile(exercise, sub.file, { seed, lang, limits, filename: basename(sub.file) });
      } catch (err) {
        // whatever goes wrong with one submission (an unreadable file, a folder we cannot use) is its own
        // row, an error verdict, never the end of the batch
        result = { status: 'error', message: `could not be graded: ${err?.message ?? err}`, errorKind: 'grade',
          exerciseId: sub.exercise, seed, passed: 0, failed: 0, cases: [] };
      }
      row.timeMs = Math.round(performance.now() - start);
      Object.assign(row, { status: result.status, passed: result.passed, failed: result.failed }, pointsOf(exercise, result, caseCount(sub.exercise)));
      try {
        const path = resultsPath(sub);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, JSON.stringify(toResultsJson(result), null, 2) + '\n');
        row.results = path;
      } catch (err) {
        row.resultsError = err.message;   // the grade stands; its details could not be written (printed by the CLI)
      }
    } else {
      Object.assign(row, pointsOf(exercise, null, caseCount(sub.exercise)));
    }
    onRow?.(row);
    return row;
  });
}

const CSV_COLUMNS = ['student', 'exercise', 'status', 'passed', 'failed', 'points', 'max_points', 'seed', 'time_ms'];
// A text cell that starts like a formula (= + - @, tab or CR) gets a leading apostrophe, as OWASP advises
// against CSV injection: a student named `=HYPERLINK(...)` must not run in the instructor's spreadsheet.
// Numbers stay numbers (a negative point total is not a formula).
export const csvCell = (v) => {
  let s = v === null || v === undefined ? '' : String(v);
  if (typeof v !== 'number' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function writeGradebook(rows, outDir) {
  mkdirSync(outDir, { recursive: true });
  const csv = join(outDir, 'grades.csv');
  const json = join(outDir, 'grades.json');
  const lines = [CSV_COLUMNS.join(',')].concat(rows.map((r) =>
    [r.student, r.exercise, r.status, r.passed, r.failed, r.points, r.maxPoints, r.seed, r.timeMs].map(csvCell).join(',')));
  writeFileSync(csv, lines.join('\n') + '\n');
  const grades = rows.map((r) => ({ student: r.student, exercise: r.exercise, status: r.status, passed: r.passed,
    failed: r.failed, points: r.points, maxPoints: r.maxPoints, seed: r.seed, timeMs: r.timeMs,
    results: r.results ? relative(outDir, r.results) : null }));
  const students = {};
  for (const r of rows) {
    const s = (students[r.student] ??= { points: 0, maxPoints: 0 });
    s.points = Math.round((s.points + r.points) * 100) / 100;
    s.maxPoints = Math.round((s.maxPoints + (r.maxPoints ?? 0)) * 100) / 100;
  }
  writeFileSync(json, JSON.stringify({ version: 1, grades, students }, null, 2) + '\n');
  return { csv, json };
}
