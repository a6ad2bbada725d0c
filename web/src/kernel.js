// The page's handle on the cell worker: runs cells, reads/writes named values, calls tp for widgets.
// stopRunning() asks the running cell to stop and keeps the worker and its scope (a crossOriginIsolated
// page: a shared flag the cell's code checks); restart() terminates the worker at once and starts a fresh
// one, and every pending promise settles (runs with { interrupted: true }, requests with an error), so
// nothing waits forever.
//
// A worker can also stop without an error event (a cell calling close(), the browser reclaiming it
// under memory pressure), idle or in the middle of a run. Two watches report it, as onStatus('lost'),
// and the owner restarts it:
// - A Web Lock that the worker takes at start and holds for life: the page's request for the same lock
//   is granted the moment the worker ends, even mid-run (where no ping can be answered).
// - Where there are no Web Locks (an insecure context), pings: while nothing is outstanding the page
//   pings every heartbeatMs, and no pong within 3 heartbeats means the worker is gone. A run or a request
//   sent to an idle worker is preceded by a ping, so a worker that died idle cannot leave it waiting. A
//   ping is never sent while a cell or a request runs (a long computation is not a dead worker).
import { MSG } from '../runtime/protocol.js';

// The least an Interrupt waits for a model's step (a layer) to end before it stops the worker instead.
const STEP_WAIT_MS = 30_000;

export class Kernel {
  constructor({ url, onStatus = () => {}, heartbeatMs = 5000 }) {
    this.url = url;
    this.statusHandler = onStatus;
    this.heartbeatMs = heartbeatMs;
    this.generation = 0;
    this.nextId = 1;
    this.runs = new Map();
    this.finished = new Map();
    this.requests = new Map();
    this.worker = null;
    this.start();
  }

  // Status changes go to the current handler and are remembered, so an owner that attaches later (the
  // page starts the worker before it renders the chapter, to overlap the two) hears the latest one.
  onStatus(state, message) {
    this.lastStatus = [state, message];
    this.statusHandler(state, message);
  }

  attach(onStatus) {
    this.statusHandler = onStatus;
    if (this.lastStatus) onStatus(...this.lastStatus);
  }

  start() {
    const generation = ++this.generation;
    const worker = new Worker(this.url, { type: 'module', name: 'tensorpad-cells' });
    this.worker = worker;
    this.state = 'starting';
    this.onStatus('starting');
    this.ready = new Promise((resolve, reject) => {
      this.readyCallbacks = { resolve, reject };
    });
    this.ready.catch(() => {});
    worker.onmessage = (e) => generation === this.generation && this.#receive(e.data, generation);
    this.lock = globalThis.navigator?.locks ? `tensorpad-cells-${Math.random().toString(36).slice(2)}-${generation}` : null;
    if (this.lock) worker.postMessage({ type: MSG.WATCH, lock: this.lock });
    if (this.lang) worker.postMessage({ type: MSG.LANG, lang: this.lang });
    // Where memory can be shared (a crossOriginIsolated page), a flag the running cell checks at every loop
    // iteration and await: Interrupt sets it, and the worker, with every variable, lives on.
    this.flag = globalThis.crossOriginIsolated && typeof SharedArrayBuffer === 'function' ? new Int32Array(new SharedArrayBuffer(4)) : null;
    if (this.flag) worker.postMessage({ type: MSG.FLAG, flag: this.flag });
    this.pingSentAt = null;
    clearInterval(this.beat);
    this.beat = setInterval(() => this.#heartbeat(), this.heartbeatMs);
    worker.onerror = (e) => {
      if (generation !== this.generation) return;
      e.preventDefault?.();
      if (this.state === 'starting') this.#fatal(e.message || 'the worker script failed to load');
    };
  }

  // Sends a ping when none is out and nothing else is outstanding.
  #ping() {
    if (this.pingSentAt === null && this.state === 'ready' && !this.busy && this.requests.size === 0) {
      this.pingSentAt = performance.now();
      this.worker.postMessage({ type: MSG.PING });
    }
  }

  #heartbeat() {
    if (this.state !== 'ready') return;
    if (this.pingSentAt === null) {
      this.#ping();
    } else if (performance.now() - this.pingSentAt >= 3 * this.heartbeatMs) {
      this.#lost();
    }
  }

  #lost() {
    if (this.state === 'lost' || this.state === 'failed') return;
    this.state = 'lost';
    clearInterval(this.beat);
    this.onStatus('lost');
  }

  #fatal(message) {
    this.state = 'failed';
    this.failure = message;
    this.onStatus('failed', message);
    this.readyCallbacks.reject(new Error(message));
    for (const run of this.runs.values()) run.resolve({ error: { name: 'Error', message: `tensor engine unavailable: ${message}` } });
    this.runs.clear();
  }

  #receive(msg, generation) {
    switch (msg.type) {
      case MSG.WATCHED:
        // Granted only once the worker's own hold ends: the worker is gone (a restart moves the generation on first).
        navigator.locks.request(this.lock, () => {
          if (generation === this.generation) this.#lost();
        });
        break;
      case MSG.READY:
        this.state = 'ready';
        this.info = msg.info;
        this.onStatus('ready');
        this.readyCallbacks.resolve();
        break;
      case MSG.FATAL:
        this.#fatal(msg.message);
        break;
      case MSG.OUTPUT:
        // Late output (a timer firing after its cell finished) still goes to that cell.
        (this.runs.get(msg.runId) ?? this.finished.get(msg.runId))?.onOutput(msg.output);
        break;
      case MSG.PROGRESS: {
        const run = this.runs.get(msg.runId);
        if (!run) break;
        const p = msg.progress;
        run.inStep = p.value < p.max;  // a step of a long call is under way: it ends, then the call checks the flag
        run.stepMs = Math.max(run.stepMs ?? 0, p.ms ?? 0);
        run.onProgress(p);
        break;
      }
      case MSG.DONE: {
        const run = this.runs.get(msg.runId);
        this.runs.delete(msg.runId);
        if (run) {
          this.finished.set(msg.runId, run);
          if (this.finished.size > 64) this.finished.delete(this.finished.keys().next().value);
        }
        run?.resolve(msg.interrupted
          ? { interrupted: true, kept: true, declared: msg.declared ?? [], reads: msg.reads ?? [] }
          : { error: msg.error ?? null, declared: msg.declared ?? [], reads: msg.reads ?? [] });
        break;
      }
      case MSG.PONG:
        this.pingSentAt = null;
        break;
      case MSG.RESULT: {
        const req = this.requests.get(msg.reqId);
        this.requests.delete(msg.reqId);
        if (!req) break;
        if (msg.error !== undefined) req.reject(new Error(msg.error));
        else req.resolve(msg.value);
        break;
      }
    }
  }

  /**
   * run(cellId, source, onOutput, onProgress) → Promise<{ error, declared } | { interrupted: true, kept?, declared?, reads? }>
   * onProgress(p): how far a long tp call of the cell got (MSG.PROGRESS in runtime/protocol.js).
   */
  run(cellId, source, onOutput = () => {}, onProgress = () => {}) {
    const runId = this.nextId++;
    if (this.state === 'failed') return Promise.resolve({ error: { name: 'Error', message: `tensor engine unavailable: ${this.failure}` } });
    this.#ping();
    return new Promise((resolve) => {
      this.runs.set(runId, { resolve, onOutput, onProgress });
      this.worker.postMessage({ type: MSG.RUN, runId, cellId, source });
    });
  }

  /** The reader's language, for the words the worker writes itself (kept across restarts). */
  setLang(lang) {
    this.lang = lang;
    this.worker.postMessage({ type: MSG.LANG, lang });
  }

  set(name, value) {
    this.worker.postMessage({ type: MSG.SET, name, value });
  }

  #request(msg) {
    const reqId = this.nextId++;
    // As for a run: a worker that died idle must not leave a widget's request (and, with it outstanding,
    // every later ping) waiting forever.
    this.#ping();
    return new Promise((resolve, reject) => {
      this.requests.set(reqId, { resolve, reject });
      this.worker.postMessage({ ...msg, reqId });
    });
  }

  get(names) {
    return this.#request({ type: MSG.GET, names });
  }

  /** The names under `path` for completion, from the live scope: { items, owner } (nothing when the worker is busy for longer than `ms`). */
  complete(path, ms = 400) {
    const none = { items: [], owner: null };
    if (this.state !== 'ready') return Promise.resolve(none);
    return Promise.race([this.#request({ type: MSG.COMPLETE, path }), new Promise((r) => setTimeout(() => r(none), ms))]).catch(() => none);
  }

  /** compute(fn, args): fn is a function (or its source) of (tp, args, scope) run in the worker. */
  compute(fn, args) {
    return this.#request({ type: MSG.COMPUTE, fn: typeof fn === 'function' ? fn.toString() : String(fn), args });
  }

  get busy() {
    return this.runs.size > 0;
  }

  /** How long stopRunning(ms) waits now: `ms`, or, while a long tp call (a model's forward) is inside one
   *  of its steps, long enough for that step to end, when the call checks the flag (a layer can take
   *  seconds; stopping the worker instead would drop a model the reader loaded). */
  stopWaitMs(ms = 2000) {
    const run = [...this.runs.values()].find((r) => r.inStep);
    return run ? Math.max(ms, STEP_WAIT_MS, 4 * run.stepMs) : ms;
  }

  /**
   * Asks the running cell to stop where it is, keeping the worker and its scope. Resolves true once no
   * cell runs, false when this page cannot share memory, nothing but requests is outstanding, or the cell
   * has not stopped within stopWaitMs(ms) (inside one long call into the core): the caller then restarts.
   * A restart meanwhile (the reader's) ends the wait too: it resolves 'restarted'.
   */
  stopRunning(ms = 2000) {
    if (!this.flag || this.state !== 'ready' || this.runs.size === 0) return Promise.resolve(false);
    // Every run sent so far stops (the worker compares its run's id); later runs do not.
    Atomics.store(this.flag, 0, Math.max(...this.runs.keys()));
    const t0 = performance.now();
    const generation = this.generation;
    return new Promise((resolve) => {
      const poll = () => {
        if (generation !== this.generation) resolve('restarted');
        else if (this.runs.size === 0) resolve(true);
        else if (performance.now() - t0 >= this.stopWaitMs(ms)) resolve(false);
        else setTimeout(poll, 5);
      };
      poll();
    });
  }

  /** Stops the worker now (whatever it is doing) and starts a fresh one; all state is lost. */
  restart() {
    this.worker.terminate();
    for (const run of this.runs.values()) run.resolve({ interrupted: true });
    for (const req of this.requests.values()) req.reject(new Error('the worker was restarted'));
    this.runs.clear();
    this.finished.clear();
    this.requests.clear();
    this.start();
  }

  dispose() {
    this.generation++;
    clearInterval(this.beat);
    for (const run of this.runs.values()) run.resolve({ interrupted: true });
    for (const req of this.requests.values()) req.reject(new Error('the notebook was closed'));
    this.worker.terminate();
  }
}
