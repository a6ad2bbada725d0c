// tp.io keeps dtypes: the .npy and safetensors files numpy wrote for every dtype
// (tests/fixtures/make_io_dtype_fixtures.py) load in their stored dtype with exact values, saving writes the
// tensor's dtype (numpy.save's very bytes), every dtype round trips through both formats, {dtype} converts on
// load as .to() would, and malformed files name the op, the dtype tag and the file, leaving memory as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../wasm/js/node.js';
import { rejectsTensorpad as rejects } from './tensorpad-asserts.mjs';

const tp = await init();
const dir = fileURLToPath(new URL('../fixtures/io/dtypes/', import.meta.url));
const expect = JSON.parse(fs.readFileSync(path.join(dir, 'expect.json'), 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-io-dtypes-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

const DTYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int32', 'int64', 'uint8', 'int8', 'bool', 'int16'];
const value = (x) => (x === 'nan' ? NaN : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x);
const flat = (t) => [t.toArray()].flat(Infinity);

// t has the entry's dtype, shape and exact values (NaN as NaN, -0 as -0, bools as booleans).
function assertExact(t, { dtype, shape, values }, what) {
  assert.equal(t.dtype, dtype, `${what}: dtype`);
  assert.deepEqual(t.shape, shape, `${what}: shape`);
  const got = flat(t);
  assert.equal(got.length, values.length, `${what}: numel`);
  got.forEach((g, i) => {
    if (!Object.is(g, value(values[i]))) assert.fail(`${what}[${i}]: got ${g}, expected ${values[i]}`);
  });
}


test('every .npy numpy wrote loads in its stored dtype with numpy\'s exact values, from a path and from bytes', async () => {
  assert.ok(Object.keys(expect.npy).length >= 15);
  for (const [file, want] of Object.entries(expect.npy)) {
    const p = path.join(dir, file);
    for (const source of [p, new Uint8Array(fs.readFileSync(p))]) {
      const t = await tp.io.loadNpy(source);
      assertExact(t, want, file);
      t.dispose();
    }
    const f = await tp.io.open(p);
    assert.equal(f.tensors[0].dtype, { '<f4': 'F32', '<f8': 'F64', '<f2': 'F16', '|i1': 'I8', '<i2': 'I16', '<i4': 'I32',
      '<i8': 'I64', '|u1': 'U8', '|b1': 'BOOL', '<u2': 'U16', '<u4': 'U32' }[want.descr], file);
    await f.close();
  }
});

test('saveNpy writes the bytes numpy.save wrote, in the tensor\'s own dtype, for every dtype numpy has', async () => {
  let n = 0;
  for (const [file, want] of Object.entries(expect.npy)) {
    if (file.includes('fortran') || want.descr.startsWith('<u')) continue;  // C order; u2/u4 load widened
    const t = tp.tensor(want.values.map(value), { dtype: want.dtype }).reshape(want.shape);
    assert.deepEqual(tp.io.saveNpy(t), new Uint8Array(fs.readFileSync(path.join(dir, file))), file);
    t.dispose();
    n++;
  }
  assert.equal(n, 11);
});

test('the safetensors file numpy\'s bytes made loads every tensor in its stored dtype, unaligned ones too', async () => {
  const { file, tensors } = expect.safetensors;
  const f = await tp.io.openSafetensors(path.join(dir, file));
  assert.deepEqual(f.tensors.map((t) => t.dtype), Object.values(tensors).map((t) => t.stored));
  for (const [name, want] of Object.entries(tensors)) {
    const t = await f.get(name);
    assertExact(t, want, name);
    t.dispose();
  }
  await f.close();
});

test('get and loadNpy with {dtype} give the stored tensor converted as .to(dtype) would', async () => {
  const { file, tensors } = expect.safetensors;
  const f = await tp.io.openSafetensors(path.join(dir, file));
  for (const name of Object.keys(tensors)) {
    const own = await f.get(name);
    for (const dtype of DTYPES) {
      const got = await f.get(name, { dtype });
      const want = own.to(dtype);
      assert.equal(got.dtype, dtype);
      assert.ok(Object.is(flat(got).join(), flat(want).join()), `${name} as ${dtype}: ${flat(got)} vs ${flat(want)}`);
      tp.dispose(got, want);
    }
    own.dispose();
  }
  await rejects(f.get('w.f32', { dtype: 'complex64' }), /^io\.get: unknown dtype "complex64" \(expected one of float32/);
  await rejects(f.get('w.f32', { dtpye: 'float32' }), /^io\.get: unknown option "dtpye"/);
  await f.close();
  const t = await tp.io.loadNpy(path.join(dir, 'f2.npy'), { dtype: 'half' });
  assert.equal(t.dtype, 'float16');
  t.dispose();
});

test('every dtype round trips through saveSafetensors and saveNpy exactly, strided views included', async () => {
  const values = {
    float32: [0, -0, 1.5, 3.4028234663852886e38, NaN, -Infinity], float64: [0, -0, 1 / 3, -1e300, 5e-324, NaN],
    float16: [0, -0, 65504, 5.960464477539063e-8, -Infinity, NaN], bfloat16: [0, -0, 1, 3.00405527047391e38, -Infinity, NaN],
    int32: [-(2 ** 31), -1, 0, 2 ** 31 - 1, 7, 8], int64: [-(2 ** 53), -1, 0, 2 ** 53, 5, 6],
    uint8: [0, 1, 127, 128, 254, 255], int8: [-128, -1, 0, 1, 126, 127], bool: [true, false, true, true, false, false],
    int16: [-32768, -1, 0, 1, 32766, 32767],
  };
  const tensors = Object.fromEntries(DTYPES.map((d) => [d, tp.tensor(values[d], { dtype: d }).reshape([2, 3])]));
  const views = Object.fromEntries(DTYPES.map((d) => [`${d}.T`, tensors[d].T]));
  const bytes = tp.io.saveSafetensors({ ...tensors, ...views });
  const f = await tp.io.openSafetensors(new Blob([bytes]));
  assert.deepEqual(f.tensors.slice(0, DTYPES.length).map((t) => t.dtype), ['F32', 'F64', 'F16', 'BF16', 'I32', 'I64', 'U8', 'I8', 'BOOL', 'I16']);
  for (const [name, t] of Object.entries({ ...tensors, ...views })) {
    const back = await f.get(name);
    assertExact(back, { dtype: t.dtype, shape: t.shape, values: flat(t) }, `safetensors ${name}`);
    back.dispose();
  }
  await f.close();
  for (const [name, t] of Object.entries({ ...tensors, ...views })) {
    if (t.dtype === 'bfloat16') continue;  // numpy has no bfloat16
    const back = await tp.io.loadNpy(tp.io.saveNpy(t));
    assertExact(back, { dtype: t.dtype, shape: t.shape, values: flat(t) }, `npy ${name}`);
    back.dispose();
  }
  // A dtype option converts while saving, as .to() does.
  const asInt = await tp.io.loadNpy(tp.io.saveNpy(tensors.float64, { dtype: 'int32' }));
  assertExact(asInt, { dtype: 'int32', shape: [2, 3], values: flat(tensors.float64.to('int32')) }, 'float64 saved as int32');
  const g = await tp.io.openSafetensors(tp.io.saveSafetensors({ m: tensors.bool, w: tensors.bfloat16 }, { dtype: { w: 'float32' } }));
  assert.deepEqual(g.tensors.map((t) => t.dtype), ['BOOL', 'F32']);
  tp.dispose(asInt, Object.values(tensors), Object.values(views));
});

test('malformed files name the op, the dtype tag and the file, and leave memory where it was', async () => {
  const before = tp.memory();
  const npy = new Uint8Array(fs.readFileSync(path.join(dir, 'i2.npy')));
  const text = new TextDecoder('latin1').decode(npy);
  const write = (name, bytes) => { const p = path.join(tmp, name); fs.writeFileSync(p, bytes); return p; };
  const complex = write('complex.npy', Uint8Array.from(text.replace('<i2', '<c8'), (c) => c.charCodeAt(0)));
  await rejects(tp.io.loadNpy(complex),
    `io.loadNpy: npy: unsupported dtype '<c8' (supported: f8, f4, f2, i8, i4, i2, i1, u8, u4, u2, u1, b1) (file ${JSON.stringify(complex)})`);
  const cut = write('cut.npy', npy.subarray(0, npy.length - 3));
  await rejects(tp.io.loadNpy(cut),
    `io.loadNpy: npy: shape [3, 2] of '<i2' needs 6 x 2 bytes but the file has 9 after the header (truncated) (file ${JSON.stringify(cut)})`);
  await rejects(tp.io.open(cut), /^io\.open: npy: shape \[3, 2\] of '<i2' needs .* \(truncated\) \(file ".*cut\.npy"\)$/);

  const st = new Uint8Array(fs.readFileSync(path.join(dir, 'dtypes.safetensors')));
  const json = (bytes) => new TextDecoder().decode(bytes.subarray(8, 8 + Number(new DataView(bytes.buffer).getBigUint64(0, true))));
  const header = json(st);
  const withHeader = (h) => {
    const e = new TextEncoder().encode(h.padEnd(header.length, ' '));
    const out = new Uint8Array(st);
    out.set(e, 8);
    return out;
  };
  const c64 = write('c64.safetensors', withHeader(header.replace('"dtype":"F64"', '"dtype":"C64"')));
  await rejects(tp.io.openSafetensors(c64),
    new RegExp(`^io\\.openSafetensors: safetensors: tensor 'w\\.f64' has unknown dtype 'C64' \\(supported: F64, F32, F16, BF16, .*\\) \\(file ${JSON.stringify(c64).replace(/[.\\/]/g, '\\$&')}\\)$`));
  const short = write('short.safetensors', st.subarray(0, st.length - 5));
  await rejects(tp.io.openSafetensors(short), /^io\.openSafetensors: safetensors: tensor '.*' has data_offsets \[\d+, \d+\] outside the data section \(\d+ bytes\) \(file ".*short\.safetensors"\)$/);
  // A file that shrinks after opening: the read fails naming the file, and the half-made tensor is freed.
  const later = write('later.safetensors', st);
  const f = await tp.io.openSafetensors(later);
  fs.truncateSync(later, st.length - 40);
  await rejects(f.get('ids.u32'), /^io\.get: file ended at byte \d+, expected \d+ bytes \(did it change\?\) \(file ".*later\.safetensors"\)$/);
  await f.close();
  // Bytes have no name to give.
  await rejects(tp.io.loadNpy(npy.subarray(0, npy.length - 3)), /^io\.loadNpy: npy: shape \[3, 2\] of '<i2' .*\(truncated\)$/);
  assert.deepEqual(tp.memory(), before);
});
