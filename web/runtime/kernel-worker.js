// The cell kernel's logic, independent of where it runs: give it a message port and a tp loader.
// Cells run one at a time in order of arrival; their print/display/console output goes to the running cell.
import { MSG } from './protocol.js';
import { runCell, createScope, Interrupted } from './cells.js';
import { toOutput, formatArgs, html, table, isTensor, toPlain } from './display.js';
import { plot } from './plot.js';

/** Plain, structured-cloneable data: tensors become { shape, data } with nested arrays. */
export function toTransferable(x, depth = 0) {
  if (isTensor(x)) return { shape: [...x.shape], data: toPlain(x) };
  if (x === null || typeof x !== 'object') return typeof x === 'function' || typeof x === 'symbol' ? undefined : x;
  if (ArrayBuffer.isView(x)) return x.slice();
  if (depth > 8) return undefined;
  if (Array.isArray(x)) return x.map((e) => toTransferable(e, depth + 1));
  const out = {};
  for (const [k, v] of Object.entries(x)) out[k] = toTransferable(v, depth + 1);
  return out;
}

// What the worker itself writes into a cell's output, in the reader's language (MSG.LANG).
const WORDS = {
  en: { truncated: (n) => `… output truncated after ${n} characters`, undisplayable: (m) => `could not display the value: ${m}` },
  zh: { truncated: (n) => `… 输出超过 ${n} 个字符，之后的输出已截断`, undisplayable: (m) => `无法显示这个值：${m}` },
};

// Names worth offering on a value: its own and its prototypes' (not Object's), without private-looking ones.
const HIDDEN = new Set(Object.getOwnPropertyNames(Object.prototype).concat(Object.getOwnPropertyNames(Function.prototype), ['constructor']));

/**
 * The completions of `path` (a.b.c, or '' for the names a cell can use), from the live values:
 * { items: [{ label, type }], owner } with owner naming the value in the API description ('tp', 'tp.linalg',
 * 'Tensor', 'QuantizedTensor') or null.
 */
export function completionsFor(path, scope) {
  let value;
  const items = namesOf(path, scope, (v) => { value = v; });
  const tp = globalThis.tp;
  let owner = null;
  if (tp && value === tp) owner = 'tp';
  else if (tp && /^tp\.\w+$/.test(path) && value === tp[path.slice(3)]) owner = path;
  else if (tp?.Tensor && value instanceof tp.Tensor) owner = 'Tensor';
  else if (tp?.QuantizedTensor && value instanceof tp.QuantizedTensor) owner = 'QuantizedTensor';
  return { items, owner };
}

function namesOf(path, scope, found) {
  const GLOBALS = ['tp', 'print', 'display', 'plot', 'html', 'table', 'console', 'Math', 'JSON', 'Array', 'Number', 'Object', 'Promise', 'weights'];
  const kind = (v) => (typeof v === 'function' ? (/^class\b/.test(Function.prototype.toString.call(v)) ? 'class' : 'function') : v && typeof v === 'object' ? 'namespace' : 'variable');
  if (!path) {
    const names = new Set([...Object.keys(scope), ...GLOBALS.filter((g) => g in globalThis || g in scope)]);
    return [...names].filter((n) => !n.startsWith('__')).map((n) => ({ label: n, type: kind(n in scope ? scope[n] : globalThis[n]) }));
  }
  let value;
  const [head, ...rest] = path.split('.');
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(head)) return [];
  value = head in scope ? scope[head] : globalThis[head];
  for (const key of rest) {
    if (value == null) return [];
    value = value[key];
  }
  if (value == null || (typeof value !== 'object' && typeof value !== 'function')) return [];
  found(value);
  const out = new Map();
  for (let o = value; o && o !== Object.prototype && o !== Function.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (out.has(name) || HIDDEN.has(name) || name.startsWith('_') || /^\d/.test(name)) continue;
      const d = Object.getOwnPropertyDescriptor(o, name);
      out.set(name, { label: name, type: d.get ? 'property' : kind(d.value) === 'function' ? 'method' : kind(d.value) });
    }
  }
  return [...out.values()];
}

export function serveKernel(port, loadTp) {
  const scope = createScope();
  let current = null;
  let words = WORDS.en;
  // Set by the page (MSG.FLAG) where memory can be shared: cells then check it and stop without losing the scope.
  // It holds the id of the last run the page asked to stop (ids only grow), and only the page writes it: an
  // Interrupt that arrives while its run still waits in this worker's queue stops that run as it starts.
  let flag = null;
  const stopIfAsked = (runId) => {
    if (Atomics.load(flag, 0) >= runId) throw new Interrupted();
  };
  const checkFor = (runId) => (v) => {
    stopIfAsked(runId);
    return v;
  };
  // The running cell (null between runs), for long tp calls (tp.model) that check for an Interrupt between
  // their steps and draw a progress bar in the cell that called them: globalThis.__tensorpadCell() binds
  // both to that cell. A call that outlives its cell (not awaited) or runs outside any (a load the page
  // started) neither stops nor draws. Progress goes out at most every PROGRESS_MS, and always its last step.
  let active = null;
  const PROGRESS_MS = 50;
  globalThis.__tensorpadCell = () => {
    const runId = active;
    if (runId === null) return null;
    let last = -Infinity;
    return {
      check: () => { if (flag && active === runId) stopIfAsked(runId); },
      progress: (p) => {
        const t = performance.now();
        if (active !== runId || (t - last < PROGRESS_MS && p.value < p.max)) return;
        last = t;
        port.postMessage({ type: MSG.PROGRESS, runId, progress: p });
      },
    };
  };
  // Printed text goes out at once, up to BURST messages in each BATCH_MS window; beyond that rate it is
  // batched (a loop printing 1e5 lines sends tens of messages, not 1e5), and it is capped per run. So a
  // cell that prints, then computes for a long time (or loops forever), shows its text as it goes: a
  // batch waits for a later print or for a timer, and no timer fires while the cell's code holds the thread.
  const MAX_TEXT = 200_000;
  const BATCH_MS = 50;
  const BURST = 10;
  let pending = null;
  let printed = 0;
  let windowStart = -Infinity;
  let sentInWindow = 0;
  const flush = () => {
    if (pending && current !== null) {
      port.postMessage({ type: MSG.OUTPUT, runId: current, output: pending });
      sentInWindow++;
    }
    pending = null;
  };
  const emit = (output) => {
    if (!output || current === null) return;
    flush();
    port.postMessage({ type: MSG.OUTPUT, runId: current, output });
  };
  const stream = (name) => (...args) => {
    if (current === null) return;
    if (printed > MAX_TEXT) return;
    let text = formatArgs(args) + '\n';
    printed += text.length;
    if (printed > MAX_TEXT) text += `${words.truncated(MAX_TEXT)}\n`;
    if (pending && pending.name !== name) flush();
    const waiting = pending !== null;
    pending ??= { kind: 'stream', name, text: '' };
    pending.text += text;
    const now = performance.now();
    if (now - windowStart >= BATCH_MS) {
      windowStart = now;
      sentInWindow = 0;
    }
    if (sentInWindow < BURST || pending.text.length > 16_384) flush();
    else if (!waiting) setTimeout(flush, BATCH_MS);  // the first line of a batch: it goes out by this timer at the latest
  };
  const print = stream('stdout');
  Object.assign(globalThis, {
    print,
    display: (...values) => { for (const v of values) emit(toOutput(v, { raw: true })); },
    plot, html, table,
  });
  for (const k of ['log', 'info', 'debug']) console[k] = print;
  for (const k of ['warn', 'error']) console[k] = stream('stderr');
  console.table = (rows) => emit(toOutput(table(rows)));

  // Errors thrown later by a cell's callbacks (setTimeout, promises) go to the cell that ran last.
  const late = (err) => emit({ kind: 'stream', name: 'stderr', text: `Uncaught ${err?.name ?? 'Error'}: ${err?.message ?? err}\n` });
  globalThis.addEventListener?.('error', (e) => { e.preventDefault(); late(e.error ?? { message: e.message }); });
  globalThis.addEventListener?.('unhandledrejection', (e) => { e.preventDefault(); late(e.reason); });

  const ready = Promise.resolve()
    .then(loadTp)
    .then((tp) => {
      globalThis.tp = tp;
      port.postMessage({ type: MSG.READY, info: { simd: tp.simd ?? null } });
      return tp;
    }, (err) => {
      port.postMessage({ type: MSG.FATAL, message: String(err?.message ?? err) });
      throw err;
    });

  const handlers = {
    async [MSG.RUN]({ runId, cellId, source }) {
      flush();
      current = runId;
      printed = 0;
      active = runId;
      const r = await runCell(source, scope, { cellId, check: flag ? checkFor(runId) : null });
      active = null;
      flush();
      if (r.interrupted) {
        port.postMessage({ type: MSG.DONE, runId, interrupted: true, declared: r.declared, reads: r.reads });
        return;
      }
      if (r.error) {
        port.postMessage({ type: MSG.DONE, runId, error: r.error.toJSON(), declared: r.declared, reads: r.reads });
        return;
      }
      if (r.hasValue) {
        try {
          emit(toOutput(r.value));
        } catch (e) {
          emit({ kind: 'stream', name: 'stderr', text: `${words.undisplayable(e.message)}\n` });
        }
      }
      port.postMessage({ type: MSG.DONE, runId, declared: r.declared, reads: r.reads });
    },
    async [MSG.COMPLETE]({ reqId, path }) {
      let value = { items: [], owner: null };
      try { value = completionsFor(path, scope); } catch { /* a getter that throws: nothing to offer */ }
      port.postMessage({ type: MSG.RESULT, reqId, value });
    },
    async [MSG.FLAG]({ flag: shared }) {
      flag = shared;  // tp.model checks it between layers too (__tensorpadCell): an Interrupt stops a forward
    },
    async [MSG.LANG]({ lang }) {
      words = WORDS[lang] ?? WORDS.en;
      scope.pageLang = lang; // cells may read it (e.g. to fetch the passage in the reader's language)
    },
    async [MSG.PING]() {
      port.postMessage({ type: MSG.PONG });
    },
    async [MSG.SET]({ name, value }) {
      scope[name] = value;
    },
    async [MSG.GET]({ reqId, names }) {
      const value = Object.fromEntries(names.map((n) => [n, toTransferable(scope[n])]));
      port.postMessage({ type: MSG.RESULT, reqId, value });
    },
    async [MSG.COMPUTE]({ reqId, fn, args }) {
      try {
        const f = new Function(`return (${fn});`)();
        const value = await f(globalThis.tp, args, scope);
        port.postMessage({ type: MSG.RESULT, reqId, value: toTransferable(value) });
      } catch (e) {
        port.postMessage({ type: MSG.RESULT, reqId, error: String(e?.message ?? e) });
      }
    },
  };

  let chain = ready.catch(() => {});
  port.onmessage = (event) => {
    const msg = event.data;
    if (msg.type === MSG.WATCH) {
      // Answered at once, even while tp loads. The lock is released only when this worker ends, however
      // it ends, even in the middle of a run, when it cannot answer a ping.
      globalThis.navigator?.locks?.request(msg.lock, () => {
        port.postMessage({ type: MSG.WATCHED });
        return new Promise(() => {});
      });
      return;
    }
    chain = chain.then(async () => {
      try {
        await ready;
      } catch (e) {
        if (msg.type === MSG.RUN) port.postMessage({ type: MSG.DONE, runId: msg.runId, error: { name: 'Error', message: `tensor engine unavailable: ${e?.message ?? e}` } });
        else if (msg.reqId !== undefined) port.postMessage({ type: MSG.RESULT, reqId: msg.reqId, error: 'tensor engine unavailable' });
        return;
      }
      await handlers[msg.type]?.(msg);
    });
  };
  return { scope };
}
