// The core under abuse (issue 21): each failure a generated-call and crafted-file review found, as a
// regression test: exceptions thrown inside core calls, a fragmented heap, cyclic results of tidy,
// empty tensors with large dims, lone surrogates and invalid UTF-8 in safetensors names, a large header.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { init } from '../../wasm/js/node.js';
import { rejectsTensorpad as rejects } from './tensorpad-asserts.mjs';
import { createApi } from '../../wasm/js/api.js';

const tp = await init();
const enc = new TextEncoder();

// A safetensors file from its header bytes (or text) and a data section.
function stFile(header, data = new Uint8Array(0)) {
  const text = typeof header === 'string' ? enc.encode(header) : header;
  const out = new Uint8Array(8 + text.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  out.set(data, 8 + text.length);
  return out;
}
// A fresh core module without the tp API, for what the API never exposes (allocations that touch no
// memory, so a test can claim gigabytes of heap without the machine paying for them).
async function rawCore() {
  const dir = new URL('../../build/wasm/node/', import.meta.url);
  const factory = createRequire(import.meta.url)(fileURLToPath(new URL('tensorpad_core.js', dir)));
  return factory({ wasmBinary: readFileSync(new URL('tensorpad_core.wasm', dir)), print() {}, printErr() {} });
}

test('200k JS exceptions thrown inside core calls leave the WASM stack where it was, and the core usable', async () => {
  // The core reads the dims through embind after the API has checked them: this Proxy lets the check's
  // read through and throws on the core's. Each such exception used to leave 16 to 32 bytes of the WASM
  // stack behind, and after ~164k of them every call failed with "memory access out of bounds".
  const core = await rawCore();
  const tq = createApi(core, { finalizers: false });
  const boom = new Error('boom');
  let reads = 0;
  const dims = new Proxy([1, 0], {
    get(target, key, receiver) {
      if (key === '0' && ++reads % 2 === 0) throw boom;
      return Reflect.get(target, key, receiver);
    },
  });
  const x = tq.zeros([2, 3]);
  const sp = core.stackSave(), tensors = tq.memory().tensors;
  for (let i = 0; i < 200_000; i++) {
    let thrown = null;
    try {
      x.permute(dims);
    } catch (e) {
      thrown = e;
    }
    if (thrown !== boom) assert.fail(`call ${i}: expected the Proxy's error, got ${thrown}`);
    if (i % 50_000 === 0) assert.equal(core.stackSave(), sp, `stack pointer after ${i + 1} exceptions`);
  }
  assert.equal(core.stackSave(), sp);
  assert.equal(tq.memory().tensors, tensors);
  assert.deepEqual(tq.ones([2, 2]).matmul(tq.ones([2, 2])).toArray(), [[2, 2], [2, 2]]);
  assert.deepEqual(x.permute([1, 0]).shape, [3, 2]);
});

test('after a 1 GB tensor is freed below a live 40-byte one, a 2^29-element tensor can still be allocated', async () => {
  const core = await rawCore();
  const gb = core.empty([2 ** 28], 'empty');      // 1 GiB
  const small = core.empty([10], 'empty');        // 40 bytes above it
  assert.ok(!core.errorPending());
  core.release(gb);
  const huge = core.empty([2 ** 29], 'empty');    // 2 GiB: more than the freed hole, so new heap
  assert.ok(!core.errorPending(), core.errorPending() && core.takeError());
  // The heap is now past 3 GiB of its 4 GiB with a 1 GiB hole below the 40 bytes. 1.5 GiB fits neither
  // the hole nor what is left to grow, though together they hold it: the error says so, and does not
  // blame the live tensors. 2 GiB does not fit even so: the error says how full the heap is.
  const tq = createApi(core, { finalizers: false });
  assert.throws(() => tq.zeros([3 * 2 ** 27]), (e) => {
    assert.match(e.message, /^zeros: out of memory allocating 1610612736 bytes: 1024 MB of the heap are free but not in one piece that large \(memory freed between tensors that are still live\), and the heap can grow by only 10\d\d MB more \(its limit is 4096 MB\)$/);
    return true;
  });
  assert.throws(() => tq.ones([2 ** 29]), (e) => {
    assert.match(e.message, /^ones: out of memory allocating 2147483648 bytes: the heap is at 30\d\d MB of its 4096 MB limit, 1024 MB of it free \(2 live tensors hold 2048 MB; .*free them as you go/);
    return true;
  });
  for (const id of [small, huge]) core.release(id);
  assert.deepEqual(tq.zeros([1 << 20]).sum().item(), 0);  // and the heap still serves what fits
});

test('tidy returning a self-referencing object keeps what it holds and frees the rest of its scope', () => {
  const before = tp.memory().tensors;
  const out = tp.tidy(() => {
    for (let i = 0; i < 100; i++) tp.ones([2]);
    const o = { kept: tp.zeros([3]), list: [] };
    o.self = o;
    o.list.push(o, o.list);
    return o;
  });
  assert.equal(tp.memory().tensors, before + 1);
  assert.ok(!out.kept.isDisposed);
  assert.deepEqual(out.kept.toArray(), [0, 0, 0]);
  tp.dispose(out);  // cyclic too: walked once
  assert.ok(out.kept.isDisposed);
  assert.equal(tp.memory().tensors, before);
});

test('dispose walks cycles through arrays and objects, and never runs a getter', () => {
  const before = tp.memory().tensors;
  const a = tp.ones([2]), b = tp.ones([2]);
  const ring = [a, { b }];
  ring[1].back = ring;
  ring.push(ring);
  let ran = false;
  Object.defineProperty(ring[1], 'trap', { enumerable: true, get() { ran = true; return tp.ones([1]); } });
  tp.dispose(ring);
  assert.ok(a.isDisposed && b.isDisposed);
  assert.equal(ran, false);
  assert.equal(tp.memory().tensors, before);
});

test('empty tensors with large dims are made as torch makes them, and refused only for what is wrong', () => {
  const e = tp.zeros([0, 2 ** 40]);
  assert.deepEqual(e.shape, [0, 2 ** 40]);
  assert.equal(e.numel, 0);
  assert.deepEqual(e.reshape([2 ** 30, 0, 4]).shape, [2 ** 30, 0, 4]);
  assert.deepEqual(tp.zeros([0, 3]).reshape([-1, 3]).shape, [0, 3]);
  assert.deepEqual(tp.zeros([0, 3]).reshape([2 ** 31, -1]).shape, [2 ** 31, 0]);
  assert.deepEqual(e.sum().item(), 0);
  assert.equal(String(e.T), 'tensor([], shape=[1099511627776, 0])');
  assert.deepEqual(tp.zeros([3, 0]).toArray(), [[], [], []]);
  assert.throws(() => e.T.toArray(), /^TensorpadError: toArray: a tensor of shape \[1099511627776, 0\] would be 1099511627777 nested arrays \(at most 2\^29\)$/);
  assert.throws(() => tp.zeros([0, 3]).reshape([0, -1]),
    /^TensorpadError: reshape: cannot reshape a tensor of shape \[0, 3\] \(0 elements\) into \[0, -1\]: with a 0 among the other dims, -1 could be any size$/);
  assert.throws(() => tp.zeros([2, 3]).reshape([2 ** 40, 2 ** 40]),
    /^TensorpadError: reshape: cannot reshape a tensor of shape \[2, 3\] \(6 elements\) into \[1099511627776, 1099511627776\] \(more than 2\^63 elements\)$/);
  assert.throws(() => tp.zeros([2 ** 40, 2 ** 40, 0]),
    /^TensorpadError: zeros: shape \[1099511627776, 1099511627776, 0\] has 0 elements but its other dims multiply past 2\^63/);
  assert.throws(() => tp.zeros([2 ** 30]), /^TensorpadError: zeros: shape \[1073741824\] is too large \(more than 536870912 elements\)$/);
});

test('a safetensors tensor with 0 elements and dims past 2^53 is listed, and get() names the dim', async () => {
  const header = '{"e":{"dtype":"F32","shape":[0,9223372036854775807],"data_offsets":[0,0]},' +
    '"w":{"dtype":"F32","shape":[0,1099511627776],"data_offsets":[0,0]}}';
  const f = await tp.io.openSafetensors(stFile(header));
  assert.deepEqual(f.tensors.map((t) => t.name), ['e', 'w']);
  await rejects(f.get('e'),
    /^io\.get: tensor 'e' has dimension 9223372036854775807 in shape \[0, 9223372036854775807\], beyond 2\^53 - 1, which JS numbers cannot hold exactly$/);
  const w = await f.get('w');
  assert.deepEqual(w.shape, [0, 2 ** 40]);
  tp.dispose(w);
});

test('saveSafetensors refuses names and metadata with a lone surrogate, and keeps surrogate pairs', async () => {
  const t = tp.ones([1]);
  assert.throws(() => tp.io.saveSafetensors({ 'a\uD800b': t }),
    /^TensorpadError: io\.saveSafetensors: tensor name "a\\ud800b" has a lone surrogate \(\\ud800 at index 1\), which UTF-8 cannot encode$/);
  assert.throws(() => tp.io.saveSafetensors({ w: t }, { metadata: { note: 'x\uDC00' } }),
    /^TensorpadError: io\.saveSafetensors: metadata "note" "x\\udc00" has a lone surrogate \(\\udc00 at index 1\)/);
  assert.throws(() => tp.io.saveSafetensors({ w: t }, { metadata: { ['\uDBFF']: 'v' } }), /metadata key "\\udbff" has a lone surrogate/);
  const name = 'emb.😀.权重';
  const f = await tp.io.openSafetensors(tp.io.saveSafetensors({ [name]: t }, { metadata: { 'ключ': '值😀' } }));
  assert.deepEqual(f.tensors.map((x) => x.name), [name]);
  assert.deepEqual(f.metadata, { 'ключ': '值😀' });
  assert.deepEqual((await f.get(name)).toArray(), [1]);
  t.dispose();
});

test('openSafetensors refuses a header that is not UTF-8 or escapes a lone surrogate, naming where', async () => {
  const entry = '":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}}';
  const bad = new Uint8Array([...enc.encode('{"a'), 0xff, ...enc.encode('b' + entry)]);
  await rejects(tp.io.openSafetensors(stFile(bad)), /^io\.openSafetensors: safetensors: header is not valid UTF-8 \(byte 0xff at offset 3\)$/);
  const cesu = new Uint8Array([...enc.encode('{"a'), 0xed, 0xa0, 0x80, ...enc.encode(entry)]);  // a surrogate in UTF-8 form
  await rejects(tp.io.openSafetensors(stFile(cesu)), /header is not valid UTF-8 \(byte 0xed at offset 3\)/);
  await rejects(tp.io.openSafetensors(stFile('{"a\\ud800b' + entry)), /header is not JSON \(.*surrogate U\+D800\.\.U\+DBFF must be followed by U\+DC00\.\.U\+DFFF/);
});

test('a legal 20 MB safetensors header of 200k tensors opens with every tensor in the file\'s order', async () => {
  const n = 200_000, parts = [];
  for (let i = 0; i < n; i++) parts.push(`"layers.${n - i}.w":{"dtype":"F16","shape":[1],"data_offsets":[${2 * i},${2 * i + 2}]}`);
  const file = stFile(`{"__metadata__":{"format":"pt"},${parts.join(',')}}`, new Uint8Array(2 * n));
  const f = await tp.io.openSafetensors(file);
  assert.equal(f.tensors.length, n);
  assert.equal(f.tensors[0].name, `layers.${n}.w`);
  assert.equal(f.tensors[n - 1].name, 'layers.1.w');
  assert.deepEqual(f.metadata, { format: 'pt' });
  assert.deepEqual((await f.get('layers.1.w')).toArray(), [0]);
});
