// Run: `node tests/bench/io.mjs [--quick]` (after `npm run build`).
// Reading tensors through tp.io: get() of one 3072x1024 tensor (a gate_proj) stored as BF16, F16 and F32,
// from a file path (positioned reads) and from bytes in memory, beside a plain JS DataView loop that
// converts the same bytes; the header of a 1000-tensor file; loadNpy and the two writers. Prints MB/s of
// stored bytes (median [min - max]) and writes tests/bench/results/io-latest.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from 'tensorpad';
import { benchArgs } from './args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = benchArgs('node tests/bench/io.mjs [--quick]', { quick: { type: 'boolean' } }).quick;
const trials = quick ? 5 : 15;

async function measure(fn) {
  await fn();  // warm up
  const times = [];
  for (let t = 0; t < trials; t++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[trials >> 1], min: times[0], max: times[trials - 1] };
}

// A safetensors file from [name, dtype, shape, bytes].
function safetensors(entries) {
  const header = {};
  let off = 0;
  for (const [name, dtype, shape, data] of entries) {
    header[name] = { dtype, shape, data_offsets: [off, off + data.length] };
    off += data.length;
  }
  const text = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(text.length));
  return Buffer.concat([len, text, ...entries.map((e) => e[3])]);
}

const tp = await init();
const rows = 3072, cols = 1024, n = rows * cols;
const weights = tp.randn([rows, cols], { seed: 3 });
const f32 = weights.data();
const u8 = (t) => new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
const bf16 = Uint16Array.from(new Uint32Array(f32.buffer), (b) => b >>> 16);
const f16 = Uint16Array.from(f32, (v) => {
  // Round-to-zero half of the value: enough for timing (every code path of the reader is the same).
  const b = new Uint32Array(Float32Array.of(v).buffer)[0];
  const e = ((b >>> 23) & 255) - 112;
  return ((b >>> 16) & 0x8000) | (e <= 0 ? 0 : e >= 31 ? 0x7bff : (e << 10) | ((b >>> 13) & 1023));
});
const stored = { BF16: u8(bf16), F16: u8(f16), F32: u8(f32) };
const file = safetensors(Object.entries(stored).map(([dt, data]) => [`w_${dt}`, dt, [rows, cols], data]));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-io-bench-'));
const filePath = path.join(tmp, 'bench.safetensors');
fs.writeFileSync(filePath, file);

// The peer: the same conversion written directly in JS over a DataView.
function jsConvert(dtype, bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(n);
  const bits = new Uint32Array(out.buffer);
  if (dtype === 'F32') for (let i = 0; i < n; i++) out[i] = dv.getFloat32(4 * i, true);
  else if (dtype === 'BF16') for (let i = 0; i < n; i++) bits[i] = dv.getUint16(2 * i, true) << 16;
  else {
    for (let i = 0; i < n; i++) {
      const h = dv.getUint16(2 * i, true), e = (h >> 10) & 31, m = h & 1023, s = h & 0x8000 ? -1 : 1;
      out[i] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
    }
  }
  return out;
}

const fromPath = await tp.io.openSafetensors(filePath);
const fromBytes = await tp.io.openSafetensors(new Uint8Array(file));
const cases = [];
for (const dt of ['BF16', 'F16', 'F32']) {
  const bytes = stored[dt].length;
  cases.push({ name: `get 3072x1024 ${dt}, path`, bytes, fn: async () => (await fromPath.get(`w_${dt}`)).dispose() });
  cases.push({ name: `get 3072x1024 ${dt}, bytes`, bytes, fn: async () => (await fromBytes.get(`w_${dt}`)).dispose() });
  cases.push({ name: `js DataView loop ${dt}`, bytes, fn: () => jsConvert(dt, stored[dt]) });
}
const many = safetensors(Array.from({ length: 1000 }, (_, i) => [`model.layers.${i >> 3}.mlp.proj_${i & 7}.weight`, 'BF16', [4, 4], new Uint8Array(32)]));
cases.push({ name: 'open, 1000-tensor header', bytes: many.length, fn: async () => (await tp.io.openSafetensors(many)).close() });
const npy = tp.io.saveNpy(weights);
cases.push({ name: 'loadNpy 3072x1024 f4', bytes: npy.length, fn: async () => (await tp.io.loadNpy(npy)).dispose() });
cases.push({ name: 'saveNpy 3072x1024', bytes: 4 * n, fn: () => tp.io.saveNpy(weights) });
cases.push({ name: 'saveSafetensors 3072x1024', bytes: 4 * n, fn: () => tp.io.saveSafetensors({ w: weights }) });

const results = [];
console.log(`${'case'.padEnd(30)} ${'MB/s median [min - max]'.padEnd(28)} ms median`);
for (const c of cases) {
  const t = await measure(c.fn);
  const mbps = (ms) => c.bytes / (ms * 1e3);
  const r = { case: c.name, bytes: c.bytes, ms: t, mbps: { median: mbps(t.median), min: mbps(t.max), max: mbps(t.min) } };
  results.push(r);
  console.log(`${c.name.padEnd(30)} ${`${r.mbps.median.toFixed(0)} [${r.mbps.min.toFixed(0)} - ${r.mbps.max.toFixed(0)}]`.padEnd(28)} ${t.median.toFixed(2)}`);
}
await fromPath.close();
fs.rmSync(tmp, { recursive: true, force: true });
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'io-latest.json'), JSON.stringify({ date: new Date().toISOString(), trials, results }, null, 1));
