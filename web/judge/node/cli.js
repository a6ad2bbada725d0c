#!/usr/bin/env node
// tensorpad — judge exercise solutions in the terminal (the same judge the page uses).
//   tensorpad judge <id> <solution.js> [--json] [--seed N] [--lang zh|en]   exit 0 all pass, 1 some fail,
//                                                                           2 cannot be judged / usage error
//   tensorpad list [--lang zh|en]                                           in the chapter's order; exit 1 when
//                                                                           some exercise is broken (named on stderr)
//   tensorpad show <id> [--lang zh|en]
//   tensorpad check [id ...]                                                for authors; exit 1 when a check fails
//   tensorpad grade <id|all> <dir>, tensorpad exercism <id> <in> <out>      see commands/grade.js, commands/exercism.js
//   tensorpad serve [--port N] [--host H] [dir]                             the built notebook, see commands/serve.js
//   tensorpad --version
// The hidden cases follow a random seed per run unless --seed N; solutions run in a sandbox (sandbox.js).
// --cases <dir> (or TENSORPAD_CASES=<dir>) reads <dir>/<id>/cases.js and reference.js over the public ones.
// <id> is an exercise of exercises/ (or of TENSORPAD_EXERCISES=<dir>), or the path of an exercise's folder
// anywhere (./row-means); see web/judge/README.md, "Settings".
// TENSORPAD_EXERCISES=<dir> reads the exercises from another folder.
// --lang picks the language of everything the judge says (default en); usage errors stay in English.

import { existsSync, statSync, readFileSync } from 'node:fs';
import { parseArgs as parseArgsStrict } from 'node:util';
import { loadExercise, listExerciseIds, locateExercise, ExerciseError } from '../../content/exercises.js';
import { exercisesInChapterOrder } from './chapter-order.js';
import { judgeFile, nodeEnv } from './runner.js';
import { drawSeed } from '../core/seed.js';
import { exitCodeOf } from '../core/judge.js';
import { formatText, toResultsJson } from '../core/format.js';
import { messages, localized, DEFAULT_LANG } from '../core/messages.js';

// Commands with a module of their own: run({ positional, flags, load, listIds, UsageError, judgeFile, nodeEnv }) → exit code
const COMMANDS = {
  grade: () => import('./commands/grade.js'),
  exercism: () => import('./commands/exercism.js'),
};

const USAGE = `usage:
  tensorpad judge <exercise-id|folder> <solution.js> [--json] [--seed N] [--lang zh|en] [--cases <dir>]
  tensorpad list [--lang zh|en]
  tensorpad show <exercise-id|folder> [--lang zh|en]
  tensorpad check [exercise-id|folder ...]
  tensorpad grade <exercise-id|all> <dir> [--out <dir>] [--jobs N] [--seed N] [--time-limit MS] [--lang zh|en] [--cases <dir>]
  tensorpad exercism <exercise-id> <input-dir> <output-dir> [--seed N] [--lang zh|en] [--cases <dir>]
  tensorpad serve [--port N] [--host 127.0.0.1] [dir]
  tensorpad --version`;

class UsageError extends Error {}
// Every command's options (node:util parseArgs, strict): --name value or --name=value for the valued ones.
const OPTIONS = {
  json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  seed: { type: 'string' }, lang: { type: 'string' }, cases: { type: 'string' }, out: { type: 'string' },
  jobs: { type: 'string' }, 'time-limit': { type: 'string' },
};

// parseArgs' errors, in our words and naming the flag: "unknown option --foo", "--seed needs a value"
function usageErrorOf(err) {
  const flag = /'(-[^' ]+)/.exec(err.message)?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(`unknown option ${flag}`);
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return new UsageError(OPTIONS[flag.replace(/^--/, '')]?.type === 'boolean' ? `${flag} takes no value` : `${flag} needs a value`);
  }
  return new UsageError(err.message);
}

function parseArgs(argv) {
  let parsed;
  try {
    parsed = parseArgsStrict({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (err) {
    if (!String(err.code).startsWith('ERR_PARSE_ARGS')) throw err;
    throw usageErrorOf(err);
  }
  const positional = parsed.positionals;
  const flags = { ...parsed.values };
  if (flags.seed !== undefined && !/^\d+$/.test(flags.seed)) throw new UsageError(`--seed must be a non-negative integer, got "${flags.seed}"`);
  if (flags.lang !== undefined && !['zh', 'en'].includes(flags.lang)) throw new UsageError(`--lang must be zh or en, got "${flags.lang}"`);
  if (flags.cases !== undefined) {
    if (!existsSync(flags.cases) || !statSync(flags.cases).isDirectory()) throw new UsageError(`--cases: folder not found: ${flags.cases}`);
    process.env.TENSORPAD_CASES = flags.cases;   // the runner reads it, for every command
  }
  return { positional, flags };
}

// An exercise id, or the path of an exercise's folder: → { id, root }, or a usage error naming both readings.
function locate(arg) {
  const at = locateExercise(arg);
  if (at?.missing) throw new UsageError(`no exercise at ${arg}: ${at.missing} has no exercise.json`);
  if (at) return at;
  const known = listExerciseIds();
  throw new UsageError(`unknown exercise "${arg}" (neither an id nor a folder with an exercise.json); known: ${known.join(', ')}`);
}

function load(arg) {
  const { id, root } = locate(arg);
  return loadExercise(id, root); // it exists: a broken exercise.json is an ExerciseError naming the file
}

async function cmdJudge(positional, flags) {
  if (positional.length !== 2) throw new UsageError('judge needs <exercise-id|folder> <solution.js>');
  const [id, file] = positional;
  const exercise = load(id);
  if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`solution file not found: ${file}`);
  const seed = flags.seed !== undefined ? Number(flags.seed) : drawSeed();
  const lang = flags.lang ?? DEFAULT_LANG;
  const result = await judgeFile(exercise, file, { seed, lang, sandbox: true });
  const code = exitCodeOf(result);

  if (flags.json) {
    process.stdout.write(JSON.stringify(toResultsJson(result), null, 2) + '\n');
  } else if (code === 2) {
    process.stderr.write(`${result.message}\n`);
  } else {
    // a failure can be reproduced: the seed goes just above the summary, which stays the last line
    const lines = formatText(result).split('\n');
    if (code === 1) lines.splice(-1, 0, messages(lang).seedNote(seed));
    process.stdout.write(lines.join('\n') + '\n');
  }
  return code;
}

// Columns a terminal gives a string: CJK characters (and full-width forms) take two.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;
const columns = (text) => text.length + (text.match(WIDE)?.length ?? 0);
const pad = (text, width) => text + ' '.repeat(Math.max(0, width - columns(text)));

// One broken exercise does not hide the others: it is named on stderr, the rest are listed, exit 1.
function cmdList(flags) {
  const lang = flags.lang ?? DEFAULT_LANG;
  const M = messages(lang);
  const broken = [];
  const rows = exercisesInChapterOrder(listExerciseIds()).flatMap((id) => {
    try {
      const e = loadExercise(id);
      return [[e.id, M.difficulty[e.difficulty] ?? e.difficulty, localized(e.title, lang)]];
    } catch (err) {
      if (!(err instanceof ExerciseError)) throw err;
      broken.push(err.message);
      return [];
    }
  });
  const widths = [0, 1].map((i) => Math.max(columns(M.listHeader[i]), ...rows.map((r) => columns(r[i]))));
  const line = (r) => `${pad(r[0], widths[0])}  ${pad(r[1], widths[1])}  ${r[2]}\n`;
  process.stdout.write(line(M.listHeader) + rows.map(line).join(''));
  for (const message of broken) process.stderr.write(`tensorpad: ${message}\n`);
  return broken.length ? 1 : 0;
}

function cmdShow(positional, flags) {
  if (positional.length !== 1) throw new UsageError('show needs <exercise-id>');
  const e = load(positional[0]);
  const lang = flags.lang ?? DEFAULT_LANG;
  const M = messages(lang);
  const difficulty = M.difficulty[e.difficulty] ?? e.difficulty;
  const out = [];
  out.push(`# ${localized(e.title, lang)}  (${e.id}, ${difficulty})`, '', localized(e.statement, lang).trim(), '');
  out.push(`## ${M.functionsToWrite}`);
  for (const f of e.functions) {
    out.push(`- ${f.signature}   ${M.tolerance}atol ${f.atol}, rtol ${f.rtol}`);
  }
  if (e.forbid?.length) out.push('', M.forbiddenList(e.forbid.map((p) => `\`${p}\``).join(', ')));
  out.push('', `## ${M.examples}`);
  for (const ex of e.examples) {
    const args = ex.args.map((a) => JSON.stringify(a && a.$tensor !== undefined ? a.$tensor : a)).join(', ');
    const want = ex.expected === undefined ? '' : ` → ${JSON.stringify(ex.expected && ex.expected.$tensor !== undefined ? ex.expected.$tensor : ex.expected)}`;
    out.push(`- ${ex.fn}(${args})${want}`);
  }
  out.push('', `## ${M.starterCode}`, '', '```js', localized(e.starter, lang).trimEnd(), '```', '');
  out.push(M.judgeLocally(e.id));
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

// Each exercise is checked on its own: a broken one fails its own lines, and the others are still checked.
async function cmdCheck(positional) {
  const { checkExercise } = await import('./check.js');
  const ids = positional.length ? positional : listExerciseIds();
  const count = { passed: 0, failed: 0, skipped: 0 };
  for (const id of ids) {
    const at = locate(id);
    for (const r of await checkExercise(at.id, { root: at.root })) {
      process.stdout.write(`${r.skipped ? '-' : r.ok ? '✓' : '✗'} ${r.name}${r.message ? ` — ${r.message}` : ''}\n`);
      count[r.skipped ? 'skipped' : r.ok ? 'passed' : 'failed']++;
    }
  }
  process.stdout.write(`${count.passed} passed, ${count.failed} failed${count.skipped ? `, ${count.skipped} skipped` : ''}\n`);
  return count.failed ? 1 : 0;
}

async function main(argv) {
  // --version, and serve, whose options (--port, --host) are its own.
  if (argv[0] === '--version' || argv[0] === '-v') {
    process.stdout.write(`${JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version}\n`);
    return 0;
  }
  if (argv[0] === 'serve') return (await import('./commands/serve.js')).serve(argv.slice(1));
  const { positional, flags } = parseArgs(argv);
  const [cmd, ...rest] = positional;
  if (flags.help || !cmd) {
    process.stdout.write(USAGE + '\n');
    return cmd || flags.help ? 0 : 2;
  }
  switch (cmd) {
    case 'judge': return cmdJudge(rest, flags);
    case 'list': return cmdList(flags);
    case 'show': return cmdShow(rest, flags);
    case 'check': return cmdCheck(rest);
    default: {
      if (!COMMANDS[cmd]) throw new UsageError(`unknown command "${cmd}"`);
      const { run } = await COMMANDS[cmd]();
      return run({ positional: rest, flags, load, listIds: () => exercisesInChapterOrder(listExerciseIds()), UsageError, judgeFile, nodeEnv });
    }
  }
}

// A reader that stops early (`tensorpad list | head -1`) closes the pipe: stop writing without a stack
// trace, and keep the exit code the command would have had.
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') throw err;
  process.stdout.write = () => true;
});

// Ctrl-C (or a kill) ends the CLI through process.exit, so that its 'exit' handlers run: every sandbox's
// process group is killed (sandbox.js; a solution spinning in a loop never hears that its judge is gone) and
// the temporary copies of solutions are removed (runner.js). 128 + the signal's number, as a shell reports it.
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
  process.once(signal, () => process.exit(128 + number));
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`tensorpad: ${err.message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (err instanceof ExerciseError) {
      process.stderr.write(`tensorpad: ${err.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`tensorpad: internal error: ${err.stack || err}\n`);
      process.exitCode = 2;
    }
  },
);
