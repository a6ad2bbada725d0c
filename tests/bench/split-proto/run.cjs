// node run.cjs DIR [side.wasm] : GEMM 1024^3 timing of DIR/main.js, then (if given) the side module loaded on demand.
const path = require('path');
const dir = path.resolve(process.argv[2]);
const side = process.argv[3];
require(dir + '/main.js')({ wasmBinary: require('fs').readFileSync(dir + '/main.wasm') }).then(async (M) => {
  const n = 1024, reps = 3;
  const A = M._tpx_alloc(n * n), B = M._tpx_alloc(n * n), C = M._tpx_alloc(n * n);
  const f = () => new Float32Array(M.HEAPF32.buffer);
  for (let i = 0; i < n * n; ++i) { f()[A / 4 + i] = ((i * 7) % 13) / 13 - 0.5; f()[B / 4 + i] = ((i * 5) % 11) / 11 - 0.5; }
  M._tpx_time_gemm(n, 1, A, B, C);
  const ms = [];
  for (let t = 0; t < 5; ++t) ms.push(M._tpx_time_gemm(n, reps, A, B, C) / reps);
  ms.sort((a, b) => a - b);
  const gf = 2 * n * n * n / (ms[2] * 1e6);
  console.log(JSON.stringify({ dir: path.basename(dir), ms_median: +ms[2].toFixed(2), ms_min: +ms[0].toFixed(2), ms_max: +ms[4].toFixed(2), gflops: +gf.toFixed(2), c0: f()[C / 4] }));
  if (side) {
    const t0 = performance.now();
    let exp;
    if (M.loadWebAssemblyModule) {
      const bytes = require('fs').readFileSync(side);
      exp = await M.loadWebAssemblyModule(bytes, { loadAsync: true, global: true, nodelete: true });
    }
    const t1 = performance.now();
    console.log('side exports', Object.keys(exp), 'load ms', (t1 - t0).toFixed(2));
    const m = 64, k = 32, nn = 48;
    const a = M._tpx_alloc(m * k), b = M._tpx_alloc(k * nn), c = M._tpx_alloc(m * nn);
    for (let i = 0; i < m * k; ++i) f()[a / 4 + i] = 1;
    for (let i = 0; i < k * nn; ++i) f()[b / 4 + i] = 2;
    console.log('side_matmul checksum', exp.side_matmul(m, nn, k, a, b, c), 'expect', 2 * 2 * k);
    console.log('side_parts(4)', exp.side_parts(4), 'expect', 10);
    M._tpx_set_threads(2);
    console.log('side_parts(2) after set_threads(2)', exp.side_parts(2), 'expect', 3);
  }
});
