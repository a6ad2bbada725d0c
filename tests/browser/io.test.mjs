// tp.io in Chromium: Playwright sets real files on an <input type=file>; the page opens them with
// tp.io.openSafetensors / tp.io.loadNpy (Blob.slice reads) and must read exactly what Node reads,
// refuse a malformed file with the same message, and stay usable.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init } from '../../wasm/js/node.js';
import { scriptPage } from './helpers.mjs';
import { u8, safetensorsBytes } from '../fixtures/safetensors-bytes.mjs';

let dir, harness, page;

// The page: a file input, and run() reading every chosen file with tp.io (the names say which reader).
const PAGE_SCRIPT = `
import { init } from './wasm/js/browser.js';
window.run = async () => {
  const tp = await init();
  const out = {};
  for (const file of document.querySelector('#files').files) {
    try {
      if (file.name.endsWith('.npy')) {
        const t = await tp.io.loadNpy(file);
        out[file.name] = { shape: t.shape, data: Array.from(t.data()) };
        t.dispose();
      } else {
        const f = await tp.io.openSafetensors(file);
        const tensors = {};
        for (const { name } of f.tensors) {
          const t = await f.get(name);
          tensors[name] = { shape: t.shape, data: Array.from(t.data()) };
          t.dispose();
        }
        out[file.name] = { list: f.tensors, metadata: f.metadata, tensors };
        await f.close();
      }
    } catch (e) {
      out[file.name] = { error: e.name + ': ' + e.message };
    }
  }
  const saved = tp.io.saveSafetensors({ w: tp.tensor([[1, 2], [3, 4]]) });
  const back = await (await tp.io.openSafetensors(new Blob([saved]))).get('w');
  out.roundTrip = back.toArray();
  out.usable = tp.tensor([[1, 2], [3, 4]]).matmul(tp.tensor([[5, 6], [7, 8]])).toArray();
  out.live = tp.memory().tensors;
  return out;
};
`;

// Files built here: every dtype in one safetensors file, an .npy, and a malformed safetensors file.
const dtypeEntries = [
  ['f32', 'F32', [2, 2], u8(Float32Array.of(1.5, -0, 3.4e38, 1e-45))],
  ['f64', 'F64', [4], u8(Float64Array.of(0.1, -2, 1e300, 1e-300))],
  ['f16', 'F16', [4], u8(Uint16Array.of(0x3c00, 0x0001, 0xfc00, 0x7bff))],
  ['bf16', 'BF16', [2, 2], u8(Uint16Array.of(0x3f80, 0xc040, 0x4049, 0x0001))],
  ['i64', 'I64', [2], u8(BigInt64Array.of(-1n, 1n << 40n))],
  ['i32', 'I32', [2], u8(Int32Array.of(-7, 16777217))],
  ['i16', 'I16', [2], u8(Int16Array.of(-32768, 32767))],
  ['i8', 'I8', [2], u8(Int8Array.of(-128, 127))],
  ['u32', 'U32', [1], u8(Uint32Array.of(4000000000))],
  ['u16', 'U16', [1], u8(Uint16Array.of(65535))],
  ['u8', 'U8', [3], Uint8Array.of(0, 128, 255)],
  ['bool', 'BOOL', [2], Uint8Array.of(1, 0)],
];
function npy() {
  let h = "{'descr': '<f2', 'fortran_order': True, 'shape': (2, 3), }";
  while ((10 + h.length + 1) % 64) h += ' ';
  h += '\n';
  const pre = Buffer.from([0x93, 78, 85, 77, 80, 89, 1, 0, h.length & 255, h.length >> 8]);
  return Buffer.concat([pre, Buffer.from(h), u8(Uint16Array.of(0x0000, 0x4400, 0x3c00, 0x4500, 0x4000, 0x4600))]);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tp-io-browser-'));
  writeFileSync(join(dir, 'all-dtypes.safetensors'), safetensorsBytes(dtypeEntries, { format: 'pt' }));
  writeFileSync(join(dir, 'fortran-f16.npy'), npy());
  writeFileSync(join(dir, 'bad.safetensors'), safetensorsBytes([['w', 'F32', [3], new Uint8Array(8)]], {}));
  harness = await scriptPage(PAGE_SCRIPT, { body: '<input type="file" id="files" multiple>' });
  page = harness.page;
  await page.waitForFunction(() => typeof window.run === 'function');
});

after(async () => {
  await harness?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('files set on a file input read in Chromium exactly as in Node, and bad files are refused', async () => {
  await page.setInputFiles('#files', ['all-dtypes.safetensors', 'fortran-f16.npy', 'bad.safetensors'].map((f) => join(dir, f)));
  const got = await page.evaluate(() => window.run());

  // Node reads the same files from their paths: the two must agree bit for bit (compared as JSON, so -0
  // and NaN would show; none of these values is NaN).
  const tp = await init();
  const f = await tp.io.openSafetensors(join(dir, 'all-dtypes.safetensors'));
  const st = got['all-dtypes.safetensors'];
  assert.equal(st.error, undefined, st.error);
  assert.deepEqual(st.list, f.tensors);
  assert.deepEqual(st.metadata, { format: 'pt' });
  for (const { name } of f.tensors) {
    const t = await f.get(name);
    assert.deepEqual(st.tensors[name].shape, t.shape, name);
    assert.deepEqual(st.tensors[name].data.map((v) => Object.is(v, -0)), Array.from(t.data(), (v) => Object.is(v, -0)), name);
    assert.deepEqual(st.tensors[name].data, Array.from(t.data()), name);
    t.dispose();
  }
  await f.close();
  assert.deepEqual(st.tensors.bf16.data, [1, -3, 3.140625, 2 ** -133]);
  assert.deepEqual(st.tensors.f16.data, [1, 2 ** -24, -Infinity, 65504]);

  assert.deepEqual(got['fortran-f16.npy'], { shape: [2, 3], data: [0, 1, 2, 4, 5, 6] });
  assert.equal(got['bad.safetensors'].error,
    "TensorpadError: io.openSafetensors: safetensors: tensor 'w' of shape [3] and dtype F32 needs 3 x 4 bytes but data_offsets [0, 8] hold 8 (file \"bad.safetensors\")");
  assert.deepEqual(got.roundTrip, [[1, 2], [3, 4]]);
  assert.deepEqual(got.usable, [[19, 22], [43, 50]]);
  assert.deepEqual(harness.log.errors, []);
  assert.deepEqual(harness.log.foreign, []);
});
