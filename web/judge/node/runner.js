// The judge under Node: worker_threads with resourceLimits, solutions loaded from a private
// temporary .mjs copy (so a `.js` file outside a "type": "module" package still loads as a module).
//   judgeFile(exercise, path, opts)     → Promise<Result>
//   judgeSource(exercise, source, opts) → Promise<Result>

import { Worker } from 'node:worker_threads';
import { mkdtempSync, writeFileSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename, resolve, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledCore } from 'tensorpad';
import { judge } from '../core/judge.js';
import { DEFAULT_LIMITS } from '../core/protocol.js';

const WORKER = new URL('./worker.js', import.meta.url);
let copies = 0;

export function nodeEnv({ tpModule, memoryMb = DEFAULT_LIMITS.memoryMb } = {}) {
  return {
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
      const home = dirname(resolve(filename));
      const near = /(?:\bfrom\s*|\bimport\s*\(\s*)['"]\.\.?\//.test(source) && existsSync(home);
      const dir = near ? null : mkdtempSync(join(tmpdir(), 'tensorpad-judge-'));
      const stem = basename(filename).replace(/\.[cm]?js$/, '');
      const file = near ? join(home, `.${stem}.tensorpad-judge-${process.pid}-${++copies}.mjs`) : join(dir, `${stem}.mjs`);
      writeFileSync(file, source);
      const url = pathToFileURL(file).href;
      return {
        url,
        clean: (s) => s.split(url).join(filename).split(file).join(filename),
        dispose: () => rmSync(dir ?? file, { recursive: true, force: true }),
      };
    },
    exerciseUrls(exercise) {
      return { cases: pathToFileURL(join(exercise.dir, 'cases.js')).href,
        reference: pathToFileURL(join(exercise.dir, 'reference.js')).href };
    },
  };
}

// opts: { filename, seed, lang ('en' | 'zh': the language of the messages), limits, cache, tpModule }
export function judgeSource(exercise, source, { filename = 'solution.js', seed, lang, limits, cache, tpModule } = {}) {
  return judge({ exercise, source, filename, seed, lang, limits, cache, env: nodeEnv({ tpModule }) });
}

export function judgeFile(exercise, path, opts = {}) {
  const source = readFileSync(resolve(path), 'utf8');
  return judgeSource(exercise, source, { ...opts, filename: opts.filename ?? path });
}
