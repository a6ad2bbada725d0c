// Scratch A/B (split.md, issue 24): tp.linalg through the core named by TP_WASM_DIR (the static core, or
// the prototype MAIN_MODULE core with the decompositions in a side module). Prints, per op, the median ms
// of 5 trials and a hash of the result's bytes (same hash = same bits on both cores).
// Run: TP_WASM_DIR=<dir with node/> node tests/bench/split-linalg-ab.mjs   (alternate A and B runs)
import { createHash } from 'node:crypto';
import { init } from '../../wasm/js/node.js';

const tp = await init();
const hash = (ts) => {
  const h = createHash('sha1');
  for (const t of ts) h.update(Buffer.from(t.data().buffer));
  return h.digest('hex').slice(0, 10);
};
const A512 = tp.randn([512, 512], { seed: 1 });
const S512 = A512.add(A512.transpose(0, 1));
const T = tp.randn([1024, 512], { seed: 2 });
const small = tp.randn([8, 8], { seed: 3 });
const cases = [
  ['svd 512', () => { const r = tp.linalg.svd(A512); return [r.U, r.S, r.Vh]; }],
  ['eigh 512', () => { const r = tp.linalg.eigh(S512); return [r.eigenvalues, r.eigenvectors]; }],
  ['qr 1024x512', () => { const r = tp.linalg.qr(T); return [r.Q, r.R]; }],
  ['svdvals 1024x512', () => [tp.linalg.svdvals(T)]],
  ['solve 512', () => [tp.linalg.solve(A512, T.narrow(0, 0, 512))]],
  ['det 512', () => [tp.linalg.det(A512)]],
  ['inv 512', () => [tp.linalg.inv(A512)]],
  ['svd 8x8 x200', () => { let r; for (let i = 0; i < 200; i++) { r?.U.dispose?.(); r = tp.linalg.svd(small); } return [r.U, r.S, r.Vh]; }],
  ['eigh 8x8 x200', () => { let r; const s = small.add(small.transpose(0, 1)); for (let i = 0; i < 200; i++) r = tp.linalg.eigh(s); return [r.eigenvalues, r.eigenvectors]; }],
];
for (const [name, f] of cases) {
  f();
  const ms = [];
  let out;
  for (let t = 0; t < 5; t++) { const t0 = performance.now(); out = f(); ms.push(performance.now() - t0); }
  ms.sort((a, b) => a - b);
  console.log(`${name.padEnd(18)} ${ms[2].toFixed(2).padStart(9)} ms  (${ms[0].toFixed(2)}-${ms[4].toFixed(2)})  ${hash(out)}`);
}
process.exit(0);
