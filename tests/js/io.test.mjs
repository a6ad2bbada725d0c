// tp.io in Node: safetensors and .npy files built here byte by byte (plus a few written by numpy in
// tests/fixtures/io), read back exactly in every dtype from a path, a Blob and bytes; every malformed
// file refused with its own message while the module stays usable; and a sparse 3 GiB safetensors
// file whose last tensor is read without reading the rest. The writers' F16/BF16/F64 output is checked against
// numpy's rounding and numpy.save's bytes (tests/fixtures/io/rounding*, made by make_io_rounding_fixtures.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { init } from '../../wasm/js/node.js';
import { rejectsTensorpad as rejects } from './tensorpad-asserts.mjs';

const tp = await init();
const fixtures = fileURLToPath(new URL('../fixtures/io/', import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-io-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

// ---- file builders ---------------------------------------------------------------------------------
const enc = new TextEncoder();
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};
const u64 = (n) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, BigInt(n), true); return b; };
const bytesOf = (typed) => new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);

// A safetensors file from header JSON text (or an object) and a data section.
function stFile(header, data = new Uint8Array(0)) {
  const text = enc.encode(typeof header === 'string' ? header : JSON.stringify(header));
  return concat(u64(text.length), text, data);
}
// A well-formed safetensors file from [{name, dtype, shape, data: Uint8Array}].
function stBuild(entries, metadata) {
  const header = metadata ? { __metadata__: metadata } : {};
  let off = 0;
  for (const e of entries) { header[e.name] = { dtype: e.dtype, shape: e.shape, data_offsets: [off, off + e.data.length] }; off += e.data.length; }
  return stFile(header, concat(...entries.map((e) => e.data)));
}
// A .npy file from its header dict text and data (version 1, 2 or 3).
function npyFile(dict, data = new Uint8Array(0), major = 1) {
  const pre = major === 1 ? 10 : 12;
  let h = dict;
  while ((pre + h.length + 1) % 64) h += ' ';
  h += '\n';
  const p = new Uint8Array(pre);
  p.set([0x93, 78, 85, 77, 80, 89, major, 0]);
  if (major === 1) new DataView(p.buffer).setUint16(8, h.length, true);
  else new DataView(p.buffer).setUint32(8, h.length, true);
  return concat(p, enc.encode(h), data);
}
const npyDict = (descr, shape, fortran = false) =>
  `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;

function writeTmp(name, bytes) {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, bytes);
  return p;
}
const f32 = (a) => Float32Array.from(a);
function assertSameBits(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  const a = new Uint32Array(f32(actual).buffer), e = new Uint32Array(f32(expected).buffer);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== e[i]) assert.fail(`${what}[${i}]: got ${actual[i]}, expected ${expected[i]}`);
  }
}
// bfloat16 and half bit patterns → their exact float32 values, computed independently of the C++ code.
const bf16 = (bits) => new Float32Array(Uint32Array.from(bits, (b) => b << 16).buffer);
function half(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

// One case per dtype: raw bytes and the float32 values they must read as.
const dtypeCases = [
  ['F32', bytesOf(f32([1.5, -0, 3.4e38, 1e-45])), [1.5, -0, 3.4e38, 1e-45]],
  ['F64', bytesOf(Float64Array.of(0.1, -2, 1e300, 1e-300)), [Math.fround(0.1), -2, Infinity, 0]],
  ['F16', bytesOf(Uint16Array.of(0x3c00, 0x0001, 0xfc00, 0x7bff)), [0x3c00, 0x0001, 0xfc00, 0x7bff].map(half)],
  ['BF16', bytesOf(Uint16Array.of(0x3f80, 0xc040, 0x4049, 0x0001)), [...bf16([0x3f80, 0xc040, 0x4049, 0x0001])]],
  ['I64', bytesOf(BigInt64Array.of(-1n, 0n, 1n << 40n, 3n)), [-1, 0, 2 ** 40, 3]],
  ['I32', bytesOf(Int32Array.of(-7, 65536, 2147483647, 16777217)), [-7, 65536, 2147483648, 16777216]],
  ['I16', bytesOf(Int16Array.of(-32768, 1, 32767, 0)), [-32768, 1, 32767, 0]],
  ['I8', bytesOf(Int8Array.of(-128, 0, 127, -1)), [-128, 0, 127, -1]],
  ['F8_E4M3', Uint8Array.of(0x38, 0xfe, 0x01, 0x7f), [1, -448, 2 ** -9, NaN]],
  ['F8_E5M2', Uint8Array.of(0x3c, 0xfc, 0x7b, 0x01), [1, -Infinity, 57344, 2 ** -16]],
  ['F8_E8M0', Uint8Array.of(127, 0, 254, 128), [1, 2 ** -127, 2 ** 127, 2]],
  ['U64', bytesOf(BigUint64Array.of(0n, 1n, 2n ** 64n - 1n, 7n)), [0, 1, 2 ** 64, 7]],
  ['U32', bytesOf(Uint32Array.of(0, 1, 4000000000, 7)), [0, 1, 4e9, 7]],
  ['U16', bytesOf(Uint16Array.of(0, 1, 65535, 2)), [0, 1, 65535, 2]],
  ['U8', Uint8Array.of(0, 128, 255, 1), [0, 128, 255, 1]],
  ['BOOL', Uint8Array.of(0, 1, 1, 0), [0, 1, 1, 0]],
];

// The tensor dtype each stored type loads as by default (the widening of U16/U32 is exact; FP8 and U64 have
// no tensor dtype of their own).
const loadsAs = { F32: 'float32', F64: 'float64', F16: 'float16', BF16: 'bfloat16', I64: 'int64', I32: 'int32', I16: 'int16',
  I8: 'int8', F8_E4M3: 'float32', F8_E5M2: 'float32', F8_E8M0: 'float32', U64: 'float32', U32: 'int64', U16: 'int32',
  U8: 'uint8', BOOL: 'bool' };

// The module is usable after an error, and nothing leaked: tensors count back to where they were.
function assertStillUsable(before) {
  const a = tp.tensor([[1, 2], [3, 4]]);
  const c = tp.matmul(a, a);
  assert.deepEqual(c.toArray(), [[7, 10], [15, 22]]);
  tp.dispose(a, c);
  assert.equal(tp.memory().tensors, before.tensors);
}


// ---- safetensors -----------------------------------------------------------------------------------
test('saveSafetensors then openSafetensors round trips names, shapes, values and metadata', async () => {
  const a = tp.tensor([[1, 2, 3], [4, 5, 6]]), b = tp.tensor([-0.5, 1e-30, Infinity]), s = tp.tensor(7);
  const bytes = tp.io.saveSafetensors({ 'model.layers.0.w': a, b, s }, { metadata: Object.fromEntries([['format', 'pt'], ['__proto__', 'x']]) });
  assert.ok(bytes instanceof Uint8Array);
  for (const source of [bytes, bytes.buffer, new Blob([bytes]), writeTmp('round.safetensors', bytes)]) {
    const f = await tp.io.openSafetensors(source);
    assert.deepEqual(f.tensors, [
      { name: 'model.layers.0.w', dtype: 'F32', shape: [2, 3] },
      { name: 'b', dtype: 'F32', shape: [3] },
      { name: 's', dtype: 'F32', shape: [] },
    ]);
    assert.equal(f.metadata.format, 'pt');
    assert.equal(Object.getOwnPropertyDescriptor(f.metadata, '__proto__').value, 'x');  // a key, not a prototype
    assert.equal(f.size, bytes.length);
    const [ra, rb, rs] = await Promise.all([f.get('model.layers.0.w'), f.get('b'), f.get('s')]);
    assert.deepEqual(ra.toArray(), [[1, 2, 3], [4, 5, 6]]);
    assertSameBits(rb.data(), [-0.5, 1e-30, Infinity], 'b');
    assert.equal(rs.item(), 7);
    tp.dispose(ra, rb, rs);
    await f.close();
  }
  // A transposed (non-contiguous) tensor is written in its logical order.
  const at = a.T;
  const f = await tp.io.openSafetensors(tp.io.saveSafetensors({ at }));
  const r = await f.get('at');
  assert.deepEqual(r.toArray(), [[1, 4], [2, 5], [3, 6]]);
  tp.dispose(a, b, s, at, r);
});

test('openSafetensors reads tensors of every dtype exactly, from a path, a Blob and bytes', async () => {
  const entries = dtypeCases.map(([dtype, data]) => ({ name: `t_${dtype}`, dtype, shape: [2, 2], data }));
  const bytes = stBuild(entries, { note: 'every dtype' });
  const file = writeTmp('dtypes.safetensors', bytes);
  for (const source of [file, new Blob([bytes]), bytes]) {
    const f = await tp.io.openSafetensors(source);
    assert.deepEqual(f.tensors.map((t) => t.dtype), dtypeCases.map((c) => c[0]));
    for (const [dtype, , want] of dtypeCases) {
      const t = await f.get(`t_${dtype}`, { dtype: 'float32' });
      assert.deepEqual(t.shape, [2, 2]);
      assertSameBits(t.data(), want, dtype);
      const own = await f.get(`t_${dtype}`);
      assert.equal(own.dtype, loadsAs[dtype], dtype);
      tp.dispose(t, own);
    }
    await f.close();
  }
});

test('openSafetensors reads only the header and the requested tensor bytes', async () => {
  const big = new Uint8Array(1 << 20), small = bytesOf(f32([1, 2, 3]));
  const bytes = stBuild([{ name: 'big', dtype: 'U8', shape: [1 << 20], data: big }, { name: 'small', dtype: 'F32', shape: [3], data: small }]);
  const reads = [];
  class CountingBlob extends Blob {
    slice(start, end) { reads.push([start, end]); return super.slice(start, end); }
  }
  const f = await tp.io.openSafetensors(new CountingBlob([bytes]));
  const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
  assert.deepEqual(reads, [[0, 8], [8, 8 + n]]);
  const t = await f.get('small');
  assert.deepEqual([...t.data()], [1, 2, 3]);
  assert.deepEqual(reads[2], [bytes.length - 12, bytes.length]);
  assert.equal(reads.length, 3);
  t.dispose();
});

test('get reads a tensor larger than one read chunk (16 MiB) in pieces, exactly', async () => {
  // 2.5M F64 values = 20 MB: two reads, the second ending mid-chunk; and the same as BF16 after an odd offset.
  const n = 2_500_000;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = Math.sin(i) * 1e3;
  const bits = new Uint16Array(n * 4);
  for (let i = 0; i < bits.length; i++) bits[i] = (i * 40503) & 0x7f7f;
  const bytes = stBuild([{ name: 'pad', dtype: 'U8', shape: [3], data: Uint8Array.of(1, 2, 3) },
    { name: 'd', dtype: 'F64', shape: [n], data: bytesOf(values) }, { name: 'h', dtype: 'BF16', shape: [4, n], data: bytesOf(bits) }]);
  const reads = [];
  class CountingBlob extends Blob {
    slice(start, end) { reads.push(end - start); return super.slice(start, end); }
  }
  const f = await tp.io.openSafetensors(new CountingBlob([bytes]));
  reads.length = 0;
  const d = await f.get('d');
  assert.deepEqual(reads, [16 * 2 ** 20, n * 8 - 16 * 2 ** 20]);
  assertSameBits(d.data(), Float32Array.from(values), 'F64 in chunks');
  const h = await f.get('h');
  assertSameBits(h.data(), bf16(bits), 'BF16 in chunks');
  assert.equal(reads.length, 2 + 2);
  tp.dispose(d, h);
});

test('openSafetensors refuses each malformed file with its problem, and the module stays usable', async () => {
  const before = tp.memory();
  const ok = (extra = {}) => ({ w: { dtype: 'F32', shape: [2], data_offsets: [0, 8], ...extra } });
  const eight = new Uint8Array(8);
  const op = 'io.openSafetensors: safetensors: ';
  const cases = [
    ['truncated before the header length', new Uint8Array([1, 2, 3]), `${op}file is 3 bytes, too short for the 8-byte header length`],
    ['empty file', new Uint8Array(0), `${op}file is 0 bytes, too short for the 8-byte header length`],
    ['header length beyond the file', concat(u64(500), enc.encode('{}')),
      `${op}header length 500 is beyond the file (10 bytes, so at most 2 header bytes): the file is truncated or not safetensors`],
    ['header above the 100 MB limit', concat(u64(200_000_000), new Uint8Array(16)), `${op}header length 200000000 is above the 100000000-byte limit`],
    ['header length near 2^64', concat(u64(2n ** 64n - 1n), new Uint8Array(16)), `${op}header length 18446744073709551615 is above the 100000000-byte limit`],
    ['header not JSON', stFile('{"w": [1, 2'), /^io\.openSafetensors: safetensors: header is not JSON \(parse error at line 1, column 12/],
    ['header JSON but not an object', stFile('[1, 2]'), `${op}header is JSON but not an object (it is array)`],
    ['unknown dtype', stFile(ok({ dtype: 'F7' }), eight),
      `${op}tensor 'w' has unknown dtype 'F7' (supported: F64, F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0, I64, I32, I16, I8, U64, U32, U16, U8, BOOL)`],
    ['offsets outside the data', stFile(ok(), new Uint8Array(4)), `${op}tensor 'w' has data_offsets [0, 8] outside the data section (4 bytes)`],
    ['offsets backwards', stFile(ok({ data_offsets: [8, 0] }), eight), `${op}tensor 'w' has data_offsets [8, 0] that run backwards`],
    ['negative offsets', stFile(ok({ data_offsets: [-8, 0] }), eight), `${op}tensor 'w' has no "data_offsets" pair of non-negative integers`],
    ['overlapping tensors', stFile({ a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, b: { dtype: 'F32', shape: [2], data_offsets: [4, 12] } }, new Uint8Array(12)),
      `${op}tensors 'a' [0, 8] and 'b' [4, 12] overlap`],
    ['size not matching shape and dtype', stFile(ok({ shape: [3] }), eight),
      `${op}tensor 'w' of shape [3] and dtype F32 needs 3 x 4 bytes but data_offsets [0, 8] hold 8`],
    ['size not matching for BF16', stFile(ok({ dtype: 'BF16' }), eight),
      `${op}tensor 'w' of shape [2] and dtype BF16 needs 2 x 2 bytes but data_offsets [0, 8] hold 8`],
    ['negative shape', stFile(ok({ shape: [2, -3] }), eight), `${op}tensor 'w' has negative dimension -3 in shape [2,-3]`],
    ['absurd shape overflowing 64 bits', stFile(ok({ shape: [4294967296, 4294967296, 4] }), eight),
      `${op}tensor 'w' has shape [4294967296, 4294967296, 4] with more elements than fit in 64 bits`],
    ['absurd shape whose bytes overflow', stFile('{"w":{"dtype":"F32","shape":[2147483648,2147483648],"data_offsets":[0,8]}}', eight),
      `${op}tensor 'w' of shape [2147483648, 2147483648] and dtype F32 needs 4611686018427387904 x 4 bytes but data_offsets [0, 8] hold 8`],
    ['shape that is not integers', stFile(ok({ shape: [2.5] }), eight), `${op}tensor 'w' has a shape [2.5] that is not a list of sizes`],
    ['missing dtype', stFile({ w: { shape: [2], data_offsets: [0, 8] } }, eight), `${op}tensor 'w' has no "dtype" string`],
    ['deeply nested header', stFile('['.repeat(100000) + ']'.repeat(100000)), `${op}header nests deeper than 16 levels`],
    ['a tensor named twice', stFile('{"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"w":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}', new Uint8Array(2)),
      `${op}header names 'w' twice`],
    ['metadata not an object', stFile({ __metadata__: [1] }), `${op}__metadata__ is not an object but array`],
  ];
  for (const [what, bytes, message] of cases) {
    await rejects(tp.io.openSafetensors(bytes), message).catch((e) => { e.message = `${what}: ${e.message}`; throw e; });
    // The same file from a path: the Node file handle path gives the same error, naming the file.
    const file = writeTmp('bad.safetensors', bytes);
    await rejects(tp.io.openSafetensors(file), typeof message === 'string' ? `${message} (file ${JSON.stringify(file)})` : message);
  }
  assertStillUsable(before);
});

// The header's JSON is read in JS (wasm/js/safetensors-json.js) and natively by nlohmann
// (cpp/src/io_safetensors_json.cpp): these messages are pinned word for word on both sides (test_io.cpp's
// "the JSON reader's messages" case), positions and nlohmann's wording included.
test('openSafetensors reads the header JSON as the native reader does: same first error, same words', async () => {
  const before = tp.memory();
  const op = 'io.openSafetensors: safetensors: ';
  const w = (v) => `{"w":${v}}`;
  const cases = [
    ['{"w": [1, 2', "header is not JSON (parse error at line 1, column 12: syntax error while parsing array - unexpected end of input; expected ']')"],
    ['not json at all', "header is not JSON (parse error at line 1, column 2: syntax error while parsing value - invalid literal; last read: 'no')"],
    ['{"a":"x\ny"}', 'header is not JSON (parse error at line 2, column 0: syntax error while parsing value - invalid string: control character U+000A (LF) must be escaped to \\u000A or \\n; last read: \'"x<U+000A>\')'],
    ['{"a"\n:\n01}', "header is not JSON (parse error at line 3, column 2: syntax error while parsing object - unexpected number literal; expected '}')"],
    ['{"a":1} x', "header is not JSON (parse error at line 1, column 9: syntax error while parsing value - invalid literal; last read: '1} x'; expected end of input)"],
    ['{"a":1e99999}', "header is not JSON (number overflow parsing '1e99999')"],
    ['{"a":tru}', 'header is not JSON (parse error at line 1, column 9: syntax error while parsing value - invalid literal; last read: \'"a":tru}\')'],
    ['{"a\\ud800b":1}', "header is not JSON (parse error at line 1, column 10: syntax error while parsing object key - invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF; last read: '\"a\\ud800b'; expected string literal)"],
    ['{"a\\udc00":1}', "header is not JSON (parse error at line 1, column 9: syntax error while parsing object key - invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF; last read: '\"a\\udc00'; expected string literal)"],
    ['"text"', 'header is JSON but not an object (it is string)'],
    [w('5'), "tensor 'w' is not an object but number"],
    [w('{"dtype":"F32","shape":[2,2.0,1e14,1e15,0.25e-3,1e-5,-0.0],"data_offsets":[0,8]}'), "tensor 'w' has a shape [2,2.0,100000000000000.0,1e+15,0.00025,1e-05,-0.0] that is not a list of sizes"],
    [w('{"dtype":"F32","shape":[18446744073709551616],"data_offsets":[0,8]}'), "tensor 'w' has a shape [1.8446744073709552e+19] that is not a list of sizes"],
    [w('{"dtype":"F32","shape":[{"b":1,"a":[null,true]}],"data_offsets":[0,8]}'), 'tensor \'w\' has a shape [{"a":[null,true],"b":1}] that is not a list of sizes'],
    [w('{"dtype":"F32","shape":[-9223372036854775808],"data_offsets":[0,8]}'), "tensor 'w' has negative dimension -9223372036854775808 in shape [-9223372036854775808]"],
    [w('{"dtype":"F32","shape":[2],"data_offsets":[0,9223372036854775808]}'), 'tensor \'w\' has no "data_offsets" pair of non-negative integers'],
    [w('{"dtype":"F32","dtype":7,"shape":[2],"data_offsets":[0,8]}'), 'tensor \'w\' has no "dtype" string'],  // the last value of a key
    [w('{"dtype":"F32","shape":{}}'), 'tensor \'w\' has no "shape" array'],
    // The first problem in the file's order, whichever reader finds it: a's size, before b's JSON.
    ['{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]},"b":5}', "tensor 'a' of shape [2] and dtype F32 needs 2 x 4 bytes but data_offsets [0, 4] hold 4"],
    ['{"a":{"dtype":"X","shape":"no"}}', "tensor 'a' has unknown dtype 'X' (supported: F64, F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0, I64, I32, I16, I8, U64, U32, U16, U8, BOOL)"],
    ['{"":5}', 'a tensor has an empty name'],
    ['{"z":1,"b":1,"z":2,"b":2}', "header names 'b' twice"],
    [`{"a${'\u6743'.repeat(40)}": 5}`, `tensor 'a${'\u6743'.repeat(26)}...' is not an object but number`],
  ];
  for (const [json, message] of cases) {
    await rejects(tp.io.openSafetensors(stFile(json, new Uint8Array(8))), op + message).catch((e) => { e.message = `${json}: ${e.message}`; throw e; });
  }
  // Nothing past a NUL byte is read, as in nlohmann's reader; a byte order mark is skipped.
  const nul = await tp.io.openSafetensors(stFile('\ufeff{"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}\0 junk', Uint8Array.of(7)));
  assert.deepEqual(nul.tensors, [{ name: 'w', dtype: 'U8', shape: [1] }]);
  // Metadata values that are not strings keep their JSON text; keys come in byte order, the last value kept.
  const meta = await tp.io.openSafetensors(stFile('{"__metadata__":{"n":3,"b":"x","f":[1.5,1e300],"b":"y"},"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}', Uint8Array.of(7)));
  assert.deepEqual(Object.entries(meta.metadata), [['b', 'y'], ['f', '[1.5,1e+300]'], ['n', '3']]);
  // Names and escapes as written, integers beyond 2^53 exact (listed, refused by get()).
  const big = await tp.io.openSafetensors(stFile('{"\\u00e9\\ud83d\\ude00\\u0000\\"/":{"dtype":"F32","shape":[0,9007199254740993],"data_offsets":[0,0]}}'));
  assert.equal(big.tensors[0].name, '\u00e9\u{1f600}\u0000"/');
  await rejects(big.get(big.tensors[0].name), /^io\.get: tensor '.*' has dimension 9007199254740993 in shape \[0, 9007199254740993\], beyond 2\^53 - 1/);
  assertStillUsable(before);
});

test('get refuses a missing name, a closed file and a file that changed under it', async () => {
  const before = tp.memory();
  const bytes = stBuild([{ name: 'layer.0.weight', dtype: 'F32', shape: [2], data: bytesOf(f32([1, 2])) }]);
  const p = writeTmp('get.safetensors', bytes);
  const f = await tp.io.openSafetensors(p);
  await rejects(f.get('layer.0'), 'io.get: no tensor named "layer.0" in this file (1 tensors; similar: layer.0.weight)');
  await rejects(f.get(3), 'io.get: tensor name must be a string, got 3');
  fs.truncateSync(p, bytes.length - 4);  // the file shrinks after it was opened
  await rejects(f.get('layer.0.weight'), `io.get: file ended at byte ${bytes.length - 4}, expected ${bytes.length} bytes (did it change?) (file ${JSON.stringify(p)})`);
  await f.close();
  await f.close();  // idempotent
  await rejects(f.get('layer.0.weight'), 'io.get: the file is closed; open it again to read "layer.0.weight"');
  assertStillUsable(before);
});

test('openSafetensors and loadNpy refuse sources they cannot read', async () => {
  await rejects(tp.io.openSafetensors(42), 'io.openSafetensors: expects a File, Blob, Uint8Array, ArrayBuffer or (in Node) a path, got 42');
  await rejects(tp.io.openSafetensors(path.join(tmp, 'missing.safetensors')), /^io\.openSafetensors: cannot open ".*missing\.safetensors": ENOENT$/);
  await rejects(tp.io.loadNpy(tmp), /^io\.loadNpy: ".*tp-io-.*" is not a regular file$/);
  assert.throws(() => tp.io.saveNpy([1, 2]), { message: 'io.saveNpy: expects a Tensor, got [1, 2]' });
  assert.throws(() => tp.io.saveSafetensors([tp.tensor(1)]), { message: /^io\.saveSafetensors: expects an object \{name: tensor\}/ });
  assert.throws(() => tp.io.saveSafetensors({ a: 1 }), { message: 'io.saveSafetensors: "a" must be a Tensor, got 1' });
  const t = tp.tensor([1]);
  assert.throws(() => tp.io.saveSafetensors({ __metadata__: t }), { message: 'io.saveSafetensors: safetensors: cannot write a tensor named __metadata__ (reserved)' });
  assert.throws(() => tp.io.saveSafetensors({ a: t }, { metadata: { n: 3 } }), { message: 'io.saveSafetensors: metadata "n" must be a string, got 3' });
  t.dispose();
  assert.throws(() => tp.io.saveNpy(t), { message: 'io.saveNpy: this tensor was disposed (use after dispose)' });
});

// ---- .npy ------------------------------------------------------------------------------------------
test('saveNpy then loadNpy round trips every rank, and saveNpy writes the header numpy writes', async () => {
  for (const [shape, values] of [[[], [3.5]], [[4], [1, -2, NaN, -0]], [[2, 3], [1, 2, 3, 4, 5, 6]], [[2, 0], []], [[1, 2, 1, 2], [9, 8, 7, 6]]]) {
    const t = tp.tensor(f32(values), { shape });
    const bytes = tp.io.saveNpy(t);
    assert.equal(bytes.length % 64, (values.length * 4) % 64);  // header padded to 64 bytes
    const r = await tp.io.loadNpy(bytes);
    assert.deepEqual(r.shape, shape);
    assertSameBits(r.data(), values, `shape [${shape}]`);
    tp.dispose(t, r);
  }
  const bytes = tp.io.saveNpy(tp.zeros(2, 3));
  // The first 128 bytes of np.save(f, np.zeros((2, 3), np.float32)) with numpy 1.24.
  const dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }".padEnd(117, ' ') + '\n';
  assert.deepEqual([...bytes.subarray(0, 128)], [0x93, ...enc.encode('NUMPY'), 1, 0, 118, 0, ...enc.encode(dict)]);
});

test('loadNpy reads every dtype exactly, versions 2 and 3, and Fortran order as C order', async () => {
  const npyCases = [['<f4', 'F32'], ['<f8', 'F64'], ['<f2', 'F16'], ['<i8', 'I64'], ['<i4', 'I32'], ['<i2', 'I16'],
    ['|i1', 'I8'], ['<u8', 'U64'], ['<u4', 'U32'], ['<u2', 'U16'], ['|u1', 'U8'], ['|b1', 'BOOL']];
  for (const [descr, dtype] of npyCases) {
    const [, data, want] = dtypeCases.find((c) => c[0] === dtype);
    for (const major of [1, 2, 3]) {
      const bytes = npyFile(npyDict(descr, [2, 2]), data, major);
      for (const source of [bytes, new Blob([bytes]), writeTmp(`t${descr.slice(1)}.npy`, bytes)]) {
        const t = await tp.io.loadNpy(source, { dtype: 'float32' });
        assert.deepEqual(t.shape, [2, 2]);
        assertSameBits(t.data(), want, `${descr} v${major}`);
        const own = await tp.io.loadNpy(source);
        assert.equal(own.dtype, loadsAs[dtype], descr);
        tp.dispose(t, own);
      }
    }
  }
  // np.asfortranarray(np.arange(6).reshape(2, 3)) stores 0 3 1 4 2 5.
  const fort = await tp.io.loadNpy(npyFile(npyDict('<f8', [2, 3], true), bytesOf(Float64Array.of(0, 3, 1, 4, 2, 5))));
  assert.equal(fort.dtype, 'float64');
  assert.deepEqual(fort.toArray(), [[0, 1, 2], [3, 4, 5]]);
  const fort32 = await tp.io.loadNpy(npyFile(npyDict('<f8', [2, 3], true), bytesOf(Float64Array.of(0, 3, 1, 4, 2, 5))), { dtype: 'float32' });
  assert.equal(fort32.dtype, 'float32');
  assert.deepEqual(fort32.toArray(), [[0, 1, 2], [3, 4, 5]]);
  tp.dispose(fort, fort32);
});

test('loadNpy with {dtype: float32} reads the files numpy wrote (tests/fixtures/io) as numpy astype(float32) does', async () => {
  const expect = JSON.parse(fs.readFileSync(path.join(fixtures, 'expect.json'), 'utf8'));
  const num = (x) => (x === 'nan' ? NaN : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x);
  assert.ok(Object.keys(expect).length >= 13);
  for (const [name, { shape, data }] of Object.entries(expect)) {
    const t = await tp.io.loadNpy(path.join(fixtures, name), { dtype: 'float32' });
    assert.deepEqual(t.shape, shape, name);
    assertSameBits(t.data(), data.map(num), name);
    t.dispose();
  }
});

test('loadNpy refuses each malformed file with its problem, and the module stays usable', async () => {
  const before = tp.memory();
  const eight = new Uint8Array(8);
  const good = npyFile(npyDict('<f4', [2]), eight);
  const op = 'io.loadNpy: npy: ';
  const cases = [
    ['truncated preamble', good.subarray(0, 5), `${op}file is 5 bytes, too short for the .npy preamble`],
    ['not a .npy file', enc.encode('PK\x03\x04 a zip, not npy'), `${op}not a .npy file (it does not start with \\x93NUMPY)`],
    ['unknown version', concat(good.subarray(0, 6), Uint8Array.of(9, 0), good.subarray(8)), `${op}unsupported format version 9.0 (supported: 1.0, 2.0, 3.0)`],
    ['header length beyond the file', good.subarray(0, 40), `${op}header length 118 is beyond the file (40 bytes): the file is truncated`],
    ['truncated data', good.subarray(0, good.length - 1), `${op}shape [2] of '<f4' needs 2 x 4 bytes but the file has 7 after the header (truncated)`],
    ['extra data', concat(good, Uint8Array.of(0)), `${op}shape [2] of '<f4' needs 2 x 4 bytes but the file has 9 after the header`],
    ['big-endian', npyFile(npyDict('>f4', [2]), eight), `${op}big-endian dtype '>f4' is not supported; save with arr.astype('<f4')`],
    ['complex dtype', npyFile(npyDict('<c8', [1]), eight), `${op}unsupported dtype '<c8' (supported: f8, f4, f2, i8, i4, i2, i1, u8, u4, u2, u1, b1)`],
    ['structured dtype', npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", eight),
      `${op}structured dtypes (a list as 'descr') are not supported; save a plain numeric array`],
    ['negative shape', npyFile(npyDict('<f4', [2, -1]), eight), /^io\.loadNpy: npy: 'shape' has a negative dimension/],
    ['absurd shape', npyFile(npyDict('<f4', [4294967296, 4294967296, 4]), eight),
      `${op}array has shape [4294967296, 4294967296, 4] with more elements than fit in 64 bits`],
    ['header not a dict', npyFile('not a dict', eight), /^io\.loadNpy: npy: header is not a numpy header dict: expected '\{' at character 0/],
    ['missing key', npyFile("{'descr': '<f4', 'shape': (2,), }", eight), `${op}header lacks 'fortran_order'`],
  ];
  for (const [what, bytes, message] of cases) {
    await rejects(tp.io.loadNpy(bytes), message).catch((e) => { e.message = `${what}: ${e.message}`; throw e; });
  }
  assertStillUsable(before);
});

// ---- writing F16, BF16 and F64 --------------------------------------------------------------------
// tests/fixtures/io/rounding.json: float32 inputs (ties, overflow, subnormals, ±0, ±inf, NaNs) as bits, with
// numpy's float16 bits and bfloat16 bits rounded to nearest even with integer ops (make_io_rounding_fixtures.py).
const rounding = JSON.parse(fs.readFileSync(path.join(fixtures, 'rounding.json'), 'utf8'));
const roundingInput = () => tp.tensor(new Float32Array(Uint32Array.from(rounding.f32).buffer), { shape: [rounding.f32.length] });
// Every value equal to the expected one, NaN to NaN and -0 to -0; inputBits (optional) names the input in a failure.
function assertSameValues(actual, expected, what, inputBits) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++) {
    const input = inputBits ? ` (input bits 0x${inputBits[i].toString(16)})` : '';
    if (!Object.is(actual[i], expected[i])) assert.fail(`${what}[${i}]${input}: got ${actual[i]}, expected ${expected[i]}`);
  }
}
const dataSection = (bytes) => bytes.subarray(8 + Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true)));

test('saveSafetensors with dtype F16 or BF16 stores the rounded codes, and openSafetensors reads them back exactly', async () => {
  const x = roundingInput();
  const n = rounding.f32.length;
  for (const [dtype, stored, codes, decode] of [['F16', 'F16', rounding.f16, half], ['float16', 'F16', rounding.f16, half],
    ['BF16', 'BF16', rounding.bf16, (b) => bf16([b])[0]], ['bfloat16', 'BF16', rounding.bf16, (b) => bf16([b])[0]]]) {
    const bytes = tp.io.saveSafetensors({ x }, { dtype });
    assert.deepEqual([...dataSection(bytes)], [...bytesOf(Uint16Array.from(codes))], `${dtype}: the stored codes`);
    const f = await tp.io.openSafetensors(bytes);
    assert.deepEqual(f.tensors, [{ name: 'x', dtype: stored, shape: [n] }]);
    const r = await f.get('x');
    assertSameValues(r.data(), codes.map(decode), dtype, rounding.f32);
    r.dispose();
  }
  tp.dispose(x);
});

test('saveSafetensors takes a dtype per name, writing the names left out in their own dtype', async () => {
  const a = tp.tensor([[1, 1 + 2 ** -11], [65520, -0]]), b = tp.tensor([1 + 2 ** -8, 3e38, 2 ** -133 + 2 ** -134]), c = tp.tensor([0.1]);
  const bytes = tp.io.saveSafetensors({ a, b, c }, { dtype: { a: 'float16', b: 'BF16' }, metadata: { format: 'pt' } });
  const f = await tp.io.openSafetensors(bytes);
  assert.deepEqual(f.tensors.map((t) => t.dtype), ['F16', 'BF16', 'F32']);
  assert.equal(f.metadata.format, 'pt');
  const [ra, rb, rc] = await Promise.all(['a', 'b', 'c'].map((k) => f.get(k)));
  assertSameValues(ra.data(), [1, 1, Infinity, -0], 'a');     // a tie to even, and 65520 ties to inf
  // 1 + 2^-8 ties to 1 (even); 3e38 (0x7f61b1e6) rounds up; the subnormal tie 0x00018000 rounds to 0x0002 (even).
  assertSameValues(rb.data(), [1, bf16([0x7f62])[0], 2 ** -132], 'b');
  assertSameValues(rc.data(), [Math.fround(0.1)], 'c');
  tp.dispose(a, b, c, ra, rb, rc);
});

test('saveNpy with dtype F16, F32 or F64 writes the bytes numpy.save writes, and loadNpy reads them back', async () => {
  const x = roundingInput();
  const numpy = (name) => new Uint8Array(fs.readFileSync(path.join(fixtures, name)));
  assert.deepEqual(tp.io.saveNpy(x, { dtype: 'F16' }), numpy('rounding_f2.npy'));
  assert.deepEqual(tp.io.saveNpy(x, { dtype: 'float16' }), numpy('rounding_f2.npy'));
  assert.deepEqual(tp.io.saveNpy(x), numpy('rounding_f4.npy'));
  assert.deepEqual(tp.io.saveNpy(x, { dtype: 'float32' }), numpy('rounding_f4.npy'));
  const small = tp.tensor([1.5, -0, Infinity, 1e-45]);
  assert.deepEqual(tp.io.saveNpy(small, { dtype: 'F64' }), numpy('small_f8.npy'));
  assert.deepEqual(tp.io.saveNpy(small, { dtype: 'float64' }), numpy('small_f8.npy'));
  const empty = tp.zeros(rounding.header_boundary_shape);  // numpy pads this header with 64 more spaces
  assert.deepEqual(tp.io.saveNpy(empty), numpy('header_boundary_f4.npy'));
  const r = await tp.io.loadNpy(tp.io.saveNpy(x, { dtype: 'F16' }));
  assertSameValues(r.data(), rounding.f16.map(half), 'F16 .npy read back', rounding.f32);
  tp.dispose(x, small, empty, r);
});

test('saveNpy and saveSafetensors refuse dtypes they cannot write, naming the op, the tensor and the value', () => {
  const before = tp.memory();
  const w = tp.tensor([1, 2]), b = tp.tensor([3]);
  const npy = (opts) => () => tp.io.saveNpy(w, opts);
  const st = (opts) => () => tp.io.saveSafetensors({ w, b }, opts);
  assert.throws(npy({ dtype: 'f8' }), { message: "io.saveNpy: unknown dtype 'f8' (expected F32, F64, F16, I64, I32, I16, I8, U8, BOOL or a tensor dtype name)" });
  assert.throws(npy({ dtype: 'complex64' }), { message: "io.saveNpy: unknown dtype 'complex64' (expected F32, F64, F16, I64, I32, I16, I8, U8, BOOL or a tensor dtype name)" });
  assert.throws(npy({ dtype: 'BF16' }),
    { message: "io.saveNpy: dtype 'BF16' has no .npy descr: numpy has no bfloat16 (use F32 or F16, or io.saveSafetensors)" });
  assert.throws(npy({ dtype: 'bfloat16' }), { message: /^io\.saveNpy: dtype 'bfloat16' has no \.npy descr/ });
  const bw = w.bfloat16();
  assert.throws(() => tp.io.saveNpy(bw),
    { message: "io.saveNpy: a bfloat16 tensor has no .npy dtype: numpy has no bfloat16 (pass {dtype: 'float32'} or use io.saveSafetensors)" });
  bw.dispose();
  assert.throws(npy({ dtype: 16 }), { message: 'io.saveNpy: dtype must be a string (F32, F64, F16, I64, I32, I16, I8, U8, BOOL), got 16' });
  assert.throws(npy('F16'), { message: 'io.saveNpy: options must be an object, got "F16"' });
  assert.throws(st({ dtype: 'f8' }), { message: "io.saveSafetensors: unknown dtype 'f8' for tensor 'w' (expected F32, F64, F16, BF16, I64, I32, I16, I8, U8, BOOL or a tensor dtype name)" });
  assert.throws(st({ dtype: { b: 'F8_E4M3' } }),
    { message: "io.saveSafetensors: unknown dtype 'F8_E4M3' for tensor 'b' (expected F32, F64, F16, BF16, I64, I32, I16, I8, U8, BOOL or a tensor dtype name)" });
  assert.throws(st({ dtype: { w: 'F16', v: 'F16' } }),
    { message: "io.saveSafetensors: dtype names tensor 'v', which is not being saved (tensors: w, b)" });
  assert.throws(st({ dtype: { w: null } }), { message: "io.saveSafetensors: dtype for tensor 'w' must be a string (F32, F64, F16, BF16, I64, I32, I16, I8, U8, BOOL), got null" });
  assert.throws(st({ dtype: ['F16'] }),
    { message: 'io.saveSafetensors: dtype must be a string (F32, F64, F16, BF16, I64, I32, I16, I8, U8, BOOL) or an object {name: dtype}, got ["F16"]' });
  assert.throws(() => tp.io.saveSafetensors({}, { dtype: 'f8' }), { message: "io.saveSafetensors: unknown dtype 'f8' (expected F32, F64, F16, BF16, I64, I32, I16, I8, U8, BOOL or a tensor dtype name)" });
  assert.throws(st({ dtype: null }),
    { message: 'io.saveSafetensors: dtype must be a string (F32, F64, F16, BF16, I64, I32, I16, I8, U8, BOOL) or an object {name: dtype}, got null' });
  tp.dispose(w, b);
  assertStillUsable(before);
});

test('open tells the formats apart and lists an .npy array under its file name', async () => {
  const before = tp.memory();
  const npy = npyFile(npyDict('<f2', [2]), bytesOf(Uint16Array.of(0x3c00, 0xc000)));
  const st = stBuild([{ name: 'w', dtype: 'BF16', shape: [1], data: bytesOf(Uint16Array.of(0x4049)) }], { format: 'pt' });
  const cases = [
    [writeTmp('q_proj.npy', npy), 'npy', 'q_proj', [1, -2]],
    [new File([npy], 'k.NPY'), 'npy', 'k', [1, -2]],
    [npy, 'npy', 'array', [1, -2]],
    [writeTmp('model.safetensors', st), 'safetensors', 'w', [3.140625]],
    [new Blob([st]), 'safetensors', 'w', [3.140625]],
  ];
  for (const [source, format, name, values] of cases) {
    const f = await tp.io.open(source);
    assert.equal(f.format, format);
    assert.deepEqual(f.tensors.map((t) => t.name), [name]);
    const t = await f.get(name);
    assert.deepEqual([...t.data()], values);
    t.dispose();
    await f.close();
  }
  const f = await tp.io.open(npy);
  assert.deepEqual(f.tensors, [{ name: 'array', dtype: 'F16', shape: [2] }]);
  assert.deepEqual(f.metadata, { version: '1.0', descr: '<f2', fortranOrder: 'false' });
  await rejects(tp.io.open(new Uint8Array(3)), 'io.open: safetensors: file is 3 bytes, too short for the 8-byte header length');
  await rejects(tp.io.open(npy.subarray(0, 20)), 'io.open: npy: header length 118 is beyond the file (20 bytes): the file is truncated');
  assertStillUsable(before);
});

// ---- a sparse 3 GiB file ---------------------------------------------------------------------------
test('get reads a 3072x1024 BF16 tensor at the end of a sparse 3 GiB file without reading the rest', async (t) => {
  const rows = 3072, cols = 1024, tensorBytes = rows * cols * 2;
  const total = 3 * 2 ** 30;
  // Header padded to a fixed 256 bytes, so the filler size is known before writing it.
  const headerLen = 256, filler = total - 8 - headerLen - tensorBytes;
  let json = JSON.stringify({
    __metadata__: { format: 'pt' },
    filler: { dtype: 'U8', shape: [filler], data_offsets: [0, filler] },
    'model.layers.0.mlp.gate_proj.weight': { dtype: 'BF16', shape: [rows, cols], data_offsets: [filler, filler + tensorBytes] },
  });
  json = json.padEnd(headerLen, ' ');
  // Deterministic bf16 values of all signs and magnitudes: the top half of float32 bit patterns.
  const bits = new Uint16Array(rows * cols);
  for (let i = 0; i < bits.length; i++) bits[i] = (Math.imul(i, 2654435761) >>> 16) & 0x7f7f | ((i & 1) << 15);
  const file = path.join(tmp, 'sparse-3GiB.safetensors');
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, concat(u64(headerLen), enc.encode(json)), 0, 8 + headerLen, 0);
    fs.ftruncateSync(fd, total);  // a hole: no blocks on disk, zeros when read
    fs.writeSync(fd, bytesOf(bits), 0, tensorBytes, total - tensorBytes);
  } finally {
    fs.closeSync(fd);
  }
  t.after(() => fs.rmSync(file, { force: true }));
  assert.equal(fs.statSync(file).size, total);

  // A fresh core, so its heap has no free space left over from earlier tests to hide the growth.
  const tpf = await init({ fresh: true });
  // Collect what earlier tests left, so their garbage neither inflates nor (when freed) hides the growth.
  v8.setFlagsFromString('--expose-gc');
  vm.runInNewContext('gc')();
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const f = await tpf.io.openSafetensors(file);
  const t1 = performance.now();
  const w = await f.get('model.layers.0.mlp.gate_proj.weight');
  const t2 = performance.now();
  const growth = process.memoryUsage().rss - rss0;
  // The 3 GB filler is listed but too large for a float32 tensor here: refused before any read.
  await rejects(f.get('filler'), new RegExp(`^io\\.get: io: shape \\[${filler}\\] is too large \\(more than 536870912 elements\\) \\(file ".*sparse-3GiB\\.safetensors"\\)$`));
  await f.close();

  assert.deepEqual(f.tensors.map((e) => e.name), ['filler', 'model.layers.0.mlp.gate_proj.weight']);
  assert.deepEqual(f.tensors[0].shape, [filler]);
  assert.deepEqual(w.shape, [rows, cols]);
  assertSameBits(w.data(), bf16(bits), 'gate_proj');
  const tensorFloatBytes = rows * cols * 4;
  const report = `open ${(t1 - t0).toFixed(1)} ms, get ${(t2 - t1).toFixed(1)} ms, ` +
    `rss growth ${(growth / 2 ** 20).toFixed(1)} MiB for a ${tensorFloatBytes / 2 ** 20} MiB float32 tensor`;
  t.diagnostic(report);
  console.log(`# sparse 3 GiB safetensors: ${report}`);
  assert.ok(growth < tensorFloatBytes + 100 * 2 ** 20, `memory grew by ${growth} bytes: ${report}`);
  w.dispose();
});
