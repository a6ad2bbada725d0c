// Run after building the site (web/dist): `node tests/bench/page-open.mjs [--runs N] [--lang en|zh] [--quick] [--against DIR]`.
// --against DIR: another built site (e.g. main's, built with TENSORPAD_DIST=DIR node web/build.mjs), opened in
// turn with this one, run for run, so that a before/after comparison shares the machine's load.
//
// How soon the chapter opens, cold (issue 25: first screen < 1 s, the whole chapter interactive < 2.5 s, no
// main-thread task over 200 ms): each run a fresh Chromium context (no cache, no service worker) loads
// ?chapter=linear-algebra from web/server.mjs, traced. Two sets of figures per run:
// - wall: the page's marks (tensorpad:first-screen, tensorpad:interactive, tensorpad:engine-ready) from navigation
//   start, when the first screen was painted (the frame after the one that drew it), and the main thread's top-level
//   tasks over 200 ms (their wall time);
// - CPU: the main thread's own CPU time (the trace's thread time of its top-level tasks) until each mark, and
//   its tasks over 200 ms of CPU. On this shared 2-core machine wall time stretches with the load average
//   (a task waits for a core); the CPU time is the page's own work, what an idle machine would take.
// - the longest task (wall), where its time went (Linux, tests/bench/cpu-wait.mjs): on a CPU, or runnable and
//   waiting for one; and who had the CPUs meanwhile: the page's cell worker and WebAssembly compiles (V8 tiers
//   the core up on pool threads as widgets first call it), the browser's other processes, other programs.
// Prints the median and range of each over the runs (after one uncounted open per site and language), with the CPU
// and load average. Not a test: no thresholds.
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../../web/server.mjs';
import { startServer, launch } from '../browser/helpers.mjs';
import { start as sampleCpus } from './cpu-wait.mjs';
import { benchArgs } from './args.mjs';
import { median } from './stats.mjs';

const args = benchArgs('node tests/bench/page-open.mjs [--runs N] [--lang en|zh] [--chapter linear-algebra] [--quick] [--against DIR]', {
  runs: { type: 'string' }, lang: { type: 'string' }, chapter: { type: 'string', default: 'linear-algebra' }, quick: { type: 'boolean' },
  against: { type: 'string' },
});
const runs = Number(args.runs ?? (args.quick ? 3 : 5));
const langs = args.lang ? [args.lang] : ['en', 'zh'];
const chapter = args.chapter;
const against = args.against ?? null;

/** One cold open, traced: the figures of the page's renderer main thread. */
async function openOnce(browser, base, lang, cpus) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // When the first screen was painted: the frame after the one that drew it (as tests/browser/first-screen.test.mjs).
    await page.addInitScript(() => {
      const look = () => requestAnimationFrame(() => {
        if (performance.getEntriesByName('tensorpad:first-screen').length) requestAnimationFrame(() => { globalThis.__firstScreenPainted = performance.now(); });
        else look();
      });
      look();
    });
    await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing', '__metadata', 'v8.wasm'] });
    await page.goto(`${base}?chapter=${chapter}&lang=${lang}`);
    // Waited for by a check in the page each frame: a locator's polls run Playwright's selector engine over the
    // whole document (tasks of 50-130 ms of CPU on this chapter), which the trace would count as the page's own.
    await page.waitForFunction(() => document.getElementById('app')?.dataset.rendered === 'true' && document.getElementById('app')?.dataset.kernel === 'ready', null, { timeout: 180000 });
    // The widgets still off screen are mounted after the chapter is filled: their tasks count too.
    await page.waitForTimeout(1500);
    const [firstAt, paintedAt] = await page.evaluate(() => [performance.getEntriesByName('tensorpad:first-screen')[0]?.startTime, globalThis.__firstScreenPainted]);
    const events = JSON.parse(await browser.stopTracing()).traceEvents;
    const mark = (name) => events.find((e) => e.name === `tensorpad:${name}`);
    const first = mark('first-screen');
    const ready = mark('interactive');
    const engine = mark('engine-ready');
    if (!first || !ready || !engine) throw new Error('the page did not mark tensorpad:first-screen, tensorpad:interactive and tensorpad:engine-ready');
    const { pid, tid } = first;
    // Navigation start (the page's time origin) on the trace's clock.
    const start = first.ts - firstAt * 1000;
    // The thread's top-level slices (a task, or a microtask checkpoint run outside one): those in no other.
    const tasks = [];
    for (const e of events.filter((x) => x.ph === 'X' && x.pid === pid && x.tid === tid && x.ts >= start).sort((a, b) => a.ts - b.ts || b.dur - a.dur)) {
      const last = tasks.at(-1);
      if (!last || e.ts >= last.ts + last.dur) tasks.push(e);
    }
    const cpuUntil = (ts) => tasks.filter((e) => e.ts < ts).reduce((a, e) => a + Math.min(e.tdur ?? 0, (ts - e.ts)), 0) / 1000;
    const longest = tasks.reduce((a, e) => (e.dur > a.dur ? e : a));
    const wait = cpus && await cpus.window(tid, longest.ts, longest.ts + longest.dur);
    // What the renderer's own other threads ran during it, from the trace: the cell worker, WebAssembly compiles.
    const threadName = new Map(events.filter((e) => e.name === 'thread_name' && e.pid === pid).map((e) => [e.tid, e.args.name]));
    const during = (test) => events.filter((e) => e.ph === 'X' && e.pid === pid && e.tid !== tid && test(e)).reduce((a, e) => {
      const lo = Math.max(e.ts, longest.ts), hi = Math.min(e.ts + e.dur, longest.ts + longest.dur);
      return hi > lo ? a + (hi - lo) / e.dur * (e.tdur ?? 0) : a;
    }, 0) / 1000;
    const worker = during((e) => /DedicatedWorker/.test(threadName.get(e.tid) ?? '') && e.name === 'ThreadControllerImpl::RunTask');
    const compile = during((e) => /ThreadPool/.test(threadName.get(e.tid) ?? '') && /^wasm\.(ExecuteCompilationUnits|ValidateFunctionsStreaming)$/.test(e.name));
    return {
      ...(wait && { longRan: wait.ran, longWaited: wait.waited, longProcess: wait.process, longTree: wait.tree, longOthers: wait.others, longSteal: wait.steal, longWorker: worker, longCompile: compile }),
      firstScreen: (first.ts - start) / 1000, painted: paintedAt, interactive: (ready.ts - start) / 1000, engineReady: (engine.ts - start) / 1000,
      wallOver200: tasks.filter((e) => e.dur > 200e3).length, wallLongest: Math.max(...tasks.map((e) => e.dur)) / 1000,
      cpuFirstScreen: cpuUntil(first.ts), cpuInteractive: cpuUntil(ready.ts), cpuTotal: tasks.reduce((a, e) => a + (e.tdur ?? 0), 0) / 1000,
      cpuOver200: tasks.filter((e) => e.tdur > 200e3).length, cpuLongest: Math.max(...tasks.map((e) => e.tdur ?? 0)) / 1000,
    };
  } finally {
    await context.close();
  }
}

const fmt = (xs) => `${Math.round(median(xs))} (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})`;
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');

/** Serves a built site from `dir` on a free port. */
async function serve(dir) {
  const server = createServer(path.resolve(dir));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

const sites = [{ name: 'this build', srv: await startServer() }];
if (against) sites.push({ name: `against ${against}`, srv: await serve(against) });
const browser = await launch();
const cpus = sampleCpus();
try {
  console.log(`page-open: ${chapter}, ${runs} cold opens per language${against ? ' and site (in turn)' : ''}, ${os.cpus()[0].model} x${os.cpus().length}, load ${load()}`);
  for (const lang of langs) {
    const rs = sites.map(() => []);
    // One open per site first, not counted: the server compresses each file on its first request (the chapter's
    // ~25 ms of gzip before it can answer) and the browser starts its first renderer; every measured open then
    // meets what a reader of a running server meets. Then in turn, the sites' order alternating run by run.
    for (const s of sites) await openOnce(browser, s.srv.base, lang, null);
    for (let i = 0; i < runs; i++) for (const [k, s] of (i % 2 ? [...sites.entries()].reverse() : [...sites.entries()])) rs[k].push(await openOnce(browser, s.srv.base, lang, cpus));
    for (const [k, s] of sites.entries()) {
      const col = (key) => fmt(rs[k].map((r) => r[key]));
      console.log(`  ${lang}${against ? `, ${s.name}` : ''} (load after: ${load()}), median (range) in ms:\n` +
        `    wall: first screen ${col('firstScreen')} (painted ${col('painted')}), interactive ${col('interactive')}, engine ready ${col('engineReady')}, tasks > 200 ms ${col('wallOver200')}, longest ${col('wallLongest')}\n` +
        `    main-thread CPU: until first screen ${col('cpuFirstScreen')}, until interactive ${col('cpuInteractive')}, in all ${col('cpuTotal')}, ` +
        `tasks > 200 ms ${col('cpuOver200')}, longest ${col('cpuLongest')}` +
        (rs[k][0].longWaited === undefined ? '' : `\n    the longest task (wall): on a CPU ${col('longRan')}, waiting for one ${col('longWaited')}; meanwhile this browser's ` +
          `renderer's other threads ran ${col('longProcess')} (of which the cell worker ${col('longWorker')}, WebAssembly compiles ${col('longCompile')}), ` +
          `its browser and GPU processes ${col('longTree')}, other processes ${col('longOthers')}, the host took ${col('longSteal')}`));
    }
  }
} finally {
  cpus?.stop();
  await browser.close();
  for (const s of sites) await s.srv.close();
}
