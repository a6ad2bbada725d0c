// The page's watch on the cell worker where there are no Web Locks (web/src/kernel.js): a worker that
// stopped without an error event is found by pings, whether the next message to it is a cell's run or a
// widget's request, and a long computation is never taken for a dead worker. A fake Worker stands in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kernel } from '../../web/src/kernel.js';
import { MSG } from '../../web/runtime/protocol.js';

const HEARTBEAT_MS = 20;

/** A worker that answers at once while alive, holds a COMPUTE for `busyMs`, and is silent once closed. */
class FakeWorker {
  static last = null;
  constructor() {
    this.alive = true;
    this.busyUntil = 0;
    FakeWorker.last = this;
    setTimeout(() => this.reply({ type: MSG.READY, info: {} }), 0);
  }
  reply(msg) {
    if (this.alive) this.onmessage?.({ data: msg });
  }
  postMessage(msg) {
    // Messages are handled in order: one that arrives during a computation waits for its end.
    const at = Math.max(Date.now(), this.busyUntil);
    if (msg.type === MSG.COMPUTE) this.busyUntil = at + (msg.args?.busyMs ?? 0);
    const answer = msg.type === MSG.PING ? { type: MSG.PONG }
      : msg.type === MSG.COMPUTE ? { type: MSG.RESULT, reqId: msg.reqId, value: 'ok' }
      : msg.type === MSG.RUN ? { type: MSG.DONE, runId: msg.runId } : null;
    const delay = (msg.type === MSG.COMPUTE ? this.busyUntil : at) - Date.now();
    if (answer) setTimeout(() => this.reply(answer), delay);
  }
  terminate() { this.alive = false; }
}

async function startKernel(t) {
  globalThis.Worker = FakeWorker;
  const states = [];
  const kernel = new Kernel({ url: 'fake', heartbeatMs: HEARTBEAT_MS, onStatus: (s) => states.push(s) });
  t.after(() => kernel.dispose());
  await kernel.ready;
  return { kernel, states, worker: FakeWorker.last };
}

const settle = (promise, ms) => Promise.race([promise.then(() => 'answered', () => 'rejected'), new Promise((r) => setTimeout(r, ms, 'pending'))]);

test('a widget request to a worker that died idle is noticed within three heartbeats', async (t) => {
  const { kernel, states, worker } = await startKernel(t);
  worker.alive = false;
  const request = kernel.compute('() => 1', {});
  assert.equal(await settle(request, 10 * HEARTBEAT_MS), 'pending');
  assert.ok(states.includes('lost'), `states: ${states}`);
});

test('a run to a worker that died idle is noticed within three heartbeats', async (t) => {
  const { kernel, states, worker } = await startKernel(t);
  worker.alive = false;
  kernel.run('c1', '1');
  await new Promise((r) => setTimeout(r, 10 * HEARTBEAT_MS));
  assert.ok(states.includes('lost'), `states: ${states}`);
});

test('a request that computes for many heartbeats is not taken for a dead worker, nor is a run queued behind it', async (t) => {
  const { kernel, states } = await startKernel(t);
  const request = kernel.compute('() => 1', { busyMs: 15 * HEARTBEAT_MS });
  const run = kernel.run('c1', '1');
  assert.equal(await settle(request, 30 * HEARTBEAT_MS), 'answered');
  assert.deepEqual(await run, { error: null, declared: [], reads: [] });
  await new Promise((r) => setTimeout(r, 5 * HEARTBEAT_MS));
  assert.ok(!states.includes('lost'), `states: ${states}`);
});
