// Spreading the chapter's setup over the main thread, so that no task holds input or paint for long:
// a callback when an element nears the viewport, a queue of small jobs run in slices with a yield between
// slices, and the yield itself.

/** How far outside the viewport an element counts as near: editors and widgets are ready before they show. */
const NEAR = '600px 0px';
/** The longest slice of queued jobs before the page gets the thread back (input, paint). */
export const SLICE_MS = 24;

let observer = null;
const waiting = new Map(); // element → callback

/** Calls cb() once, when `el` comes within NEAR of the viewport; returns a function that cancels. */
export function whenNearViewport(el, cb) {
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const f = waiting.get(e.target);
      waiting.delete(e.target);
      observer.unobserve(e.target);
      f?.();
    }
  }, { rootMargin: NEAR });
  waiting.set(el, cb);
  observer.observe(el);
  return () => {
    if (waiting.delete(el)) observer.unobserve(el);
  };
}

/** Gives the thread back to the page (input, rendering) and resumes after. */
export function yieldToPage() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((resolve) => {
    // A message is not clamped as nested timeouts are; setTimeout where there is no MessageChannel.
    if (typeof MessageChannel !== 'function') return setTimeout(resolve, 0);
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => { port1.close(); resolve(); };
    port2.postMessage(null);
  });
}

/** Jobs (functions) run in order, SLICE_MS at a time, yielding between slices; a failing job is logged. */
export class JobQueue {
  jobs = [];
  running = null;

  add(job) {
    this.jobs.push(job);
    this.running ??= this.#run();
    return this.running;
  }

  /** Resolves when every job added so far (and any added meanwhile) has run. */
  drained() {
    return this.running ?? Promise.resolve();
  }

  async #run() {
    try {
      while (this.jobs.length) {
        await yieldToPage();
        const t0 = performance.now();
        while (this.jobs.length && performance.now() - t0 < SLICE_MS) {
          const job = this.jobs.shift();
          try {
            const r = job();
            if (r?.then) await r;
          } catch (e) {
            console.error(e);
          }
        }
      }
    } finally {
      this.running = null;
    }
  }
}

/** The queue that turns static editors into editors as they near the viewport. */
export const idleQueue = new JobQueue();
