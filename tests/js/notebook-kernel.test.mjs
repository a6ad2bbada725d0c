// The cell worker's logic (web/runtime/kernel-worker.js) driven through a fake port, in Node,
// with the real tp API: runs, outputs, errors, named values for widgets, compute.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'tensorpad';
import { serveKernel } from '../../web/runtime/kernel-worker.js';

let port;
let messages = [];
let kernel;
const scopeOf = () => kernel.scope;

before(() => {
  port = { postMessage: (m) => messages.push(m) };
  kernel = serveKernel(port, () => init());
});

function send(msg) {
  port.onmessage({ data: msg });
}

async function until(pred, ms = 20000) {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

let nextRun = 1;
async function run(source) {
  const runId = nextRun++;
  messages = [];
  send({ type: 'run', runId, cellId: `t${runId}`, source });
  await until(() => messages.some((m) => m.type === 'done' && m.runId === runId));
  await new Promise((r) => setTimeout(r, 60)); // late batched text
  return {
    outputs: messages.filter((m) => m.type === 'output' && m.runId === runId).map((m) => m.output),
    done: messages.find((m) => m.type === 'done' && m.runId === runId),
  };
}

test('a cell\'s tensor value is shown with the tensor\'s own text', async () => {
  const { outputs, done } = await run('const A = tp.tensor([[1, 2], [3, 4]]);\ntp.matmul(A, A)');
  assert.equal(done.error, undefined);
  assert.deepEqual(done.declared, ['A']);
  assert.equal(outputs.length, 1);
  assert.equal(outputs[0].kind, 'tensor');
  assert.deepEqual(outputs[0].shape, [2, 2]);
  assert.match(outputs[0].text, /^tensor\(\[\[ ?7\., 10\.\],\s+\[15\., 22\.\]\]\)$/);
});

test('print, console and display go to the running cell in order', async () => {
  const { outputs: sent } = await run('print("a", 1);\nconsole.log("b");\ndisplay(A);\nconsole.error("c");\n[{ x: 1 }]');
  // Text of one stream may come in several messages (the first at once); the page joins them, as here.
  const outputs = sent.reduce((acc, o) => {
    const last = acc.at(-1);
    if (o.kind === 'stream' && last?.kind === 'stream' && last.name === o.name) acc[acc.length - 1] = { ...last, text: last.text + o.text };
    else acc.push(o);
    return acc;
  }, []);
  assert.deepEqual(outputs.map((o) => o.kind), ['stream', 'tensor', 'stream', 'table']);
  assert.equal(outputs[0].text, 'a 1\nb\n');
  assert.equal(outputs[2].name, 'stderr');
});

test('prints go out at once, not held until the cell ends (a busy loop keeps timers from firing)', async () => {
  const { outputs } = await run('print("first");\nprint("second");\nconst until = Date.now() + 300;\nwhile (Date.now() < until) {}\nprint("third");');
  assert.deepEqual(outputs.map((o) => o.text), ['first\n', 'second\n', 'third\n']);
});

test('a loop printing many lines sends few messages and is capped', async () => {
  const t0 = performance.now();
  const { outputs } = await run('for (let i = 0; i < 100000; i++) print(i);');
  // At most 10 messages in each 50 ms window (kernel-worker.js BURST, BATCH_MS) however long the loop took on
  // this machine (a loaded one stretches it), and far fewer than the loop's 100,000 lines.
  const windows = Math.ceil((performance.now() - t0) / 50) + 1;
  assert.ok(outputs.length <= 10 * windows && outputs.length < 1000, `${outputs.length} messages in ${windows} windows`);
  assert.match(outputs.at(-1).text, /output truncated/);
});

test('an error from tp names the op, with the cell line', async () => {
  const { done } = await run('const B = tp.zeros([3, 5]);\n\ntp.matmul(A, B)');
  assert.match(done.error.message, /matmul/);
  assert.equal(done.error.line, 3);
});

test('widget values: set writes into the scope, get reads tensors as plain data, compute runs tp', async () => {
  send({ type: 'set', name: 'k', value: 4 });
  const { outputs } = await run('k * 2');
  assert.equal(outputs[0].text, '8');
  messages = [];
  send({ type: 'get', reqId: 'g1', names: ['A', 'k', 'missing'] });
  await until(() => messages.some((m) => m.reqId === 'g1'));
  assert.deepEqual(messages.find((m) => m.reqId === 'g1').value, { A: { shape: [2, 2], data: [[1, 2], [3, 4]] }, k: 4, missing: undefined });
  send({ type: 'compute', reqId: 'c1', fn: '(tp, n) => tp.arange(0, n).sum().item()', args: 5 });
  send({ type: 'compute', reqId: 'c2', fn: '(tp) => { throw new Error("nope") }' });
  await until(() => messages.some((m) => m.reqId === 'c2'));
  assert.equal(messages.find((m) => m.reqId === 'c1').value, 10);
  assert.equal(messages.find((m) => m.reqId === 'c2').error, 'nope');
});

test('what the worker writes itself follows the reader\'s language', async () => {
  send({ type: 'lang', lang: 'zh' });
  const { outputs } = await run('for (let i = 0; i < 30000; i++) print("0123456789")');
  assert.match(outputs.map((o) => o.text).join(''), /… 输出超过 200000 个字符，之后的输出已截断\n$/);
  send({ type: 'lang', lang: 'en' });
  const again = await run('for (let i = 0; i < 30000; i++) print("0123456789")');
  assert.match(again.outputs.map((o) => o.text).join(''), /… output truncated after 200000 characters\n$/);
});

test('completion offers tp\'s names, a namespace\'s, a tensor\'s methods and the scope\'s names, from the live values', async () => {
  const { completionsFor } = await import('../../web/runtime/kernel-worker.js');
  await run('const x = tp.tensor([[1, 2], [3, 4]]); function helper() {}');
  const labels = (path) => completionsFor(path, scopeOf()).items.map((o) => o.label);
  assert.ok(labels('tp').includes('matmul'));
  assert.ok(labels('tp.linalg').includes('svd'));
  assert.ok(labels('x').includes('matmul'), 'a tensor\'s methods');
  assert.ok(!labels('x').some((n) => n.startsWith('_') || n === 'constructor' || n === 'hasOwnProperty'));
  const top = labels('');
  for (const n of ['x', 'helper', 'tp', 'print']) assert.ok(top.includes(n), n);
  assert.equal(completionsFor('x', scopeOf()).items.find((o) => o.label === 'matmul').type, 'method');
  assert.equal(completionsFor('x', scopeOf()).owner, 'Tensor');
  assert.equal(completionsFor('tp.linalg', scopeOf()).owner, 'tp.linalg');
  assert.deepEqual(completionsFor('nothing.here', scopeOf()), { items: [], owner: null });
  assert.deepEqual(completionsFor('1+1', scopeOf()), { items: [], owner: null });
});

test('a model forward in a cell sends its progress as the cell\'s, and the Interrupt flag stops it between layers with the scope and the model kept', async () => {
  const folder = new URL('../fixtures/models/qwen3-gqa-bf16', import.meta.url).pathname;
  await run(`const m = await tp.model.load(${JSON.stringify(folder)}); const ids = [1, 2, 3, 4, 5];`);
  const done = await run('const out = await m.forward(ids); print(out.logits.shape.join("x"))');
  assert.equal(done.done.error, undefined);
  const bars = messages.filter((m) => m.type === 'progress' && m.runId === done.done.runId).map((m) => m.progress);
  assert.equal(bars[0].value, 0, 'a bar as the forward starts');
  const { value, max, layer, layers, tokens } = bars.at(-1);
  assert.deepEqual({ value, max, layer, layers, tokens }, { value: 5, max: 5, layer: 3, layers: 3, tokens: 5 }, 'and its last step, always sent');

  // The page sets the shared flag when the first bar arrives: the forward stops at its next step.
  const flag = new Int32Array(new SharedArrayBuffer(4));
  send({ type: 'interrupt-flag', flag });
  const post = port.postMessage;
  port.postMessage = (m) => { if (m.type === 'progress') Atomics.store(flag, 0, m.runId); post(m); };
  const cut = await run('const held = JSON.stringify(tp.memory()); let stopped = "no"; await m.forward(ids, { capture: "**" }); stopped = "finished";');
  port.postMessage = post;
  assert.equal(cut.done.interrupted, true);
  const last = messages.filter((m) => m.type === 'progress').at(-1).progress;
  assert.ok(last.value < last.max, 'it stopped before its last step');
  const after = await run('print(stopped, JSON.stringify(tp.memory()) === held, m.config.numLayers)');
  assert.equal(after.outputs.map((o) => o.text).join('').trim(), 'no true 3');
  // Outside a cell (a load the page runs in the background) nothing is bound.
  assert.equal(globalThis.__tensorpadCell(), null);
});

test('an Interrupt given while its run still waits behind another message stops that run as it starts; the next run is not stopped', async () => {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  send({ type: 'interrupt-flag', flag });
  messages = [];
  // A widget's computation holds the worker; the cell is sent behind it and interrupted before it starts.
  send({ type: 'compute', reqId: 9001, fn: 'async () => { await new Promise((r) => setTimeout(r, 200)); return 1; }', args: null });
  const runId = nextRun++;
  send({ type: 'run', runId, cellId: 'queued', source: 'let spins = 0;\nwhile (spins < 3e8) spins++;\nspins' });
  Atomics.store(flag, 0, runId);
  await until(() => messages.some((m) => m.type === 'done' && m.runId === runId));
  assert.equal(messages.find((m) => m.type === 'done' && m.runId === runId).interrupted, true);
  const next = await run('print(spins < 3e8)');
  assert.equal(next.done.interrupted, undefined);
  assert.equal(next.outputs.map((o) => o.text).join('').trim(), 'true');
});
