// The judge under Node: worker_threads with resourceLimits; the solution's text goes to the worker, which
// evaluates it with web/runtime/module.js (its relative imports resolve against the file's own folder).
//   judgeFile(exercise, path, opts)     → Promise<Result>
//   judgeSource(exercise, source, opts) → Promise<Result>
// With sandbox: true (the CLI), the solution runs in a child process under Node's permission model
// (sandbox.js) instead of a worker thread. casesDir (--cases, TENSORPAD_CASES) holds private
// <id>/cases.js and <id>/reference.js that replace the exercise's own.

import { Worker } from 'node:worker_threads';
import { readFileSync, existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledCore } from 'tensorpad';
import { judge } from '../core/judge.js';
import { DEFAULT_LIMITS } from '../core/protocol.js';
import { sandboxSpawn } from './sandbox.js';
import { importClosure } from './imports.js';

const WORKER = new URL('./worker.js', import.meta.url);

// The nearest package.json above dir (it says how a helper named .js loads), or null where there is none.
function packageJson(dir) {
  for (let d = dir; ; d = dirname(d)) {
    const p = join(d, 'package.json');
    if (existsSync(p)) return p;
    if (dirname(d) === d) return null;
  }
}

export function nodeEnv({ tpModule, memoryMb = DEFAULT_LIMITS.memoryMb, sandbox = false, solutionPath = null,
  casesDir = process.env.TENSORPAD_CASES || null, neighbours = [] } = {}) {
  const solutionFiles = (source) => {
    if (!solutionPath) return [];
    const original = resolve(solutionPath);
    const helpers = importClosure(original, source, neighbours);
    const pkg = helpers.length ? packageJson(dirname(original)) : null;
    return [original, ...helpers.map((rel) => join(dirname(original), rel)), ...(pkg ? [pkg] : [])];
  };
  return {
    spawnSolution: sandbox
      // readable in it: the solution's file and the helpers it imports by relative path (importClosure), one by
      // one, where they are (never the folder: in a flat batch it holds the other submissions), and the
      // package.json that says how those helpers load. Nothing is copied or written anywhere.
      ? (solution, limits) => sandboxSpawn({ memoryMb: limits?.memoryMb ?? memoryMb, rssMb: limits?.rssMb,
        files: solutionFiles(solution.source) })
      : undefined,
    spawn(limits) {
      // Workers share the core compiled once in this process: no compilation per worker (faster, and a
      // worker terminated by a time limit is never in the middle of compiling WebAssembly).
      const worker = new Worker(WORKER, {
        workerData: tpModule ? { tpModule } : { wasmModule: compiledCore() },
        resourceLimits: { maxOldGenerationSizeMb: limits?.memoryMb ?? memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
        stdout: true, stderr: true,  // anything that escapes the console capture stays out of our terminal
      });
      worker.stdout.resume();
      worker.stderr.resume();
      let exited = false;
      const exitHandlers = [];
      let lastError = null;
      worker.on('error', (error) => { lastError = error; });
      worker.on('exit', (code) => {
        exited = true;
        for (const h of exitHandlers) h({ code, error: lastError });
      });
      return {
        post: (msg) => { if (!exited) worker.postMessage(msg); },
        onMessage: (fn) => worker.on('message', fn),
        onExit: (fn) => exitHandlers.push(fn),
        terminate: () => {
          if (exited) return;
          exited = true;
          exitHandlers.length = 0;
          worker.terminate();
        },
      };
    },
    // relative imports resolve against the solution's own folder (its path, else the name it is judged under)
    baseUrl: (filename) => pathToFileURL(resolve(solutionPath ?? filename)).href,
    exerciseUrls(exercise) {
      // an instructor's private cases and reference, where the folder has them, over the public ones
      const file = (name) => {
        const secret = casesDir ? join(resolve(casesDir), exercise.id, name) : null;
        return pathToFileURL(secret && existsSync(secret) ? secret : join(exercise.dir, name)).href;
      };
      return { cases: file('cases.js'), reference: file('reference.js') };
    },
  };
}

// opts: { filename (as messages name it), path (where it is: its relative imports resolve there), seed,
//         lang ('en' | 'zh': the language of the messages), limits, cache, tpModule, sandbox, casesDir,
//         neighbours (files never handed to it even when it imports them: the batch's other submissions) }
export function judgeSource(exercise, source, { filename = 'solution.js', path = null, seed, lang, limits, cache, tpModule, sandbox, casesDir, neighbours } = {}) {
  return judge({ exercise, source, filename, seed, lang, limits, cache,
    env: nodeEnv({ tpModule, sandbox, casesDir, solutionPath: path, neighbours }) });
}

export function judgeFile(exercise, path, opts = {}) {
  const source = readFileSync(resolve(path), 'utf8');
  return judgeSource(exercise, source, { ...opts, path, filename: opts.filename ?? path });
}
