// The judge under Node: worker_threads with resourceLimits, solutions loaded from a private
// temporary .mjs copy (so a `.js` file outside a "type": "module" package still loads as a module).
//   judgeFile(exercise, path, opts)     → Promise<Result>
//   judgeSource(exercise, source, opts) → Promise<Result>
// With sandbox: true (the CLI), the solution runs in a child process under Node's permission model
// (sandbox.js) instead of a worker thread. casesDir (--cases, TENSORPAD_CASES) holds private
// <id>/cases.js and <id>/reference.js that replace the exercise's own.

import { Worker } from 'node:worker_threads';
import { mkdtempSync, mkdirSync, copyFileSync, writeFileSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename, resolve, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledCore } from 'tensorpad';
import { judge } from '../core/judge.js';
import { DEFAULT_LIMITS } from '../core/protocol.js';
import { sandboxSpawn } from './sandbox.js';
import { importClosure } from './imports.js';

const WORKER = new URL('./worker.js', import.meta.url);
// Copies of solutions not yet disposed of, removed when the process exits whatever ends it (a time limit's
// kill of the judge, Ctrl-C in the CLI: see cli.js), so no temp folder or hidden copy is left behind.
const temporary = new Set();
process.once('exit', () => { for (const p of temporary) rmSync(p, { recursive: true, force: true }); });

// The "type" of the nearest package.json above dir ('module' | 'commonjs'), or null where none says.
function packageType(dir) {
  for (let d = dir; ; d = dirname(d)) {
    const p = join(d, 'package.json');
    if (existsSync(p)) {
      try { return JSON.parse(readFileSync(p, 'utf8')).type ?? 'commonjs'; } catch { return null; }
    }
    if (dirname(d) === d) return null;
  }
}

export function nodeEnv({ tpModule, memoryMb = DEFAULT_LIMITS.memoryMb, sandbox = false, solutionPath = null,
  casesDir = process.env.TENSORPAD_CASES || null, neighbours = [] } = {}) {
  return {
    spawnSolution: sandbox
      // readable in it: the private copies of the solution and of its helpers, or the solution's own file
      ? (module, limits) => sandboxSpawn({ memoryMb: limits?.memoryMb ?? memoryMb, rssMb: limits?.rssMb,
        files: module?.files ?? (solutionPath ? [resolve(solutionPath)] : []) })
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
    moduleUrl(source, filename) {
      // A private temp dir holds the copy and the helpers it imports by relative path (importClosure: parsed,
      // within the solution's folder), at the same relative places, so its imports resolve there and nothing
      // is ever written beside a submission (a read-only folder grades like any other).
      const original = resolve(solutionPath ?? filename);
      const home = dirname(original);
      const helpers = importClosure(original, source, neighbours);
      const dir = mkdtempSync(join(tmpdir(), 'tensorpad-judge-'));
      temporary.add(dir);
      const dispose = () => {
        rmSync(dir, { recursive: true, force: true });
        temporary.delete(dir);
      };
      let stem = basename(filename).replace(/\.[cm]?js$/, '');
      if (helpers.includes(`${stem}.mjs`)) stem = `.${stem}.solution`;
      const file = join(dir, `${stem}.mjs`);
      const files = [file];
      try {
        for (const rel of helpers) {
          mkdirSync(dirname(join(dir, rel)), { recursive: true });
          copyFileSync(join(home, rel), join(dir, rel));
          files.push(join(dir, rel));
        }
        // helpers named .js load as their own package says ("type": "module" or not)
        const type = helpers.length ? packageType(home) : null;
        if (type) {
          writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
          files.push(join(dir, 'package.json'));
        }
        writeFileSync(file, source);
      } catch (err) {
        dispose();
        throw err;
      }
      const url = pathToFileURL(file).href;
      return {
        url,
        source,
        files,   // what the sandbox may read: the copy and its helpers' copies, never the submission's folder
        clean: (s) => s.split(url).join(filename).split(file).join(filename)
          .split(pathToFileURL(dir).href).join(pathToFileURL(home).href).split(dir).join(home),
        dispose,
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
