// The judge under Node: worker_threads with resourceLimits, solutions loaded from a private
// temporary .mjs copy (so a `.js` file outside a "type": "module" package still loads as a module).
//   judgeFile(exercise, path, opts)     → Promise<Result>
//   judgeSource(exercise, source, opts) → Promise<Result>
// With sandbox: true (the CLI), the solution runs in a child process under Node's permission model
// (sandbox.js) instead of a worker thread. casesDir (--cases, TENSORPAD_CASES) holds private
// <id>/cases.js and <id>/reference.js that replace the exercise's own.

import { Worker } from 'node:worker_threads';
import { mkdtempSync, writeFileSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename, resolve, dirname } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { compiledCore } from 'tensorpad';
import { judge } from '../core/judge.js';
import { DEFAULT_LIMITS } from '../core/protocol.js';
import { sandboxSpawn } from './sandbox.js';

const WORKER = new URL('./worker.js', import.meta.url);
let copies = 0;
// Copies of solutions not yet disposed of, removed when the process exits whatever ends it (a time limit's
// kill of the judge, Ctrl-C in the CLI: see cli.js), so no temp folder or hidden copy is left behind.
const temporary = new Set();
process.once('exit', () => { for (const p of temporary) rmSync(p, { recursive: true, force: true }); });

export function nodeEnv({ tpModule, memoryMb = DEFAULT_LIMITS.memoryMb, sandbox = false, solutionPath = null,
  casesDir = process.env.TENSORPAD_CASES || null } = {}) {
  return {
    spawnSolution: sandbox
      // readable in it: the module file it imports (a private copy), or the solution's own file
      ? (module) => sandboxSpawn({ memoryMb, solutionFile: module?.url ? fileURLToPath(module.url) : solutionPath, source: module?.source ?? '' })
      : undefined,
    spawn() {
      // Workers share the core compiled once in this process: no compilation per worker (faster, and a
      // worker terminated by a time limit is never in the middle of compiling WebAssembly).
      const worker = new Worker(WORKER, {
        workerData: tpModule ? { tpModule } : { wasmModule: compiledCore() },
        resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
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
    moduleUrl(source, filename) {
      // A solution importing its own helpers ('./helper.js') gets its copy beside the original (a hidden
      // file, removed afterwards) so relative imports resolve; any other goes to a private temp dir.
      const home = dirname(resolve(solutionPath ?? filename));
      const near = /(?:\bfrom\s*|\bimport\s*\(\s*)['"]\.\.?\//.test(source) && existsSync(home);
      const dir = near ? null : mkdtempSync(join(tmpdir(), 'tensorpad-judge-'));
      const stem = basename(filename).replace(/\.[cm]?js$/, '');
      const file = near ? join(home, `.${stem}.tensorpad-judge-${process.pid}-${++copies}.mjs`) : join(dir, `${stem}.mjs`);
      temporary.add(dir ?? file);
      writeFileSync(file, source);
      const url = pathToFileURL(file).href;
      return {
        url,
        source,
        clean: (s) => s.split(url).join(filename).split(file).join(filename),
        dispose: () => {
          rmSync(dir ?? file, { recursive: true, force: true });
          temporary.delete(dir ?? file);
        },
      };
    },
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
//         lang ('en' | 'zh': the language of the messages), limits, cache, tpModule, sandbox, casesDir }
export function judgeSource(exercise, source, { filename = 'solution.js', path = null, seed, lang, limits, cache, tpModule, sandbox, casesDir } = {}) {
  return judge({ exercise, source, filename, seed, lang, limits, cache,
    env: nodeEnv({ tpModule, sandbox, casesDir, solutionPath: path }) });
}

export function judgeFile(exercise, path, opts = {}) {
  const source = readFileSync(resolve(path), 'utf8');
  return judgeSource(exercise, source, { ...opts, path, filename: opts.filename ?? path });
}
