// node run_thr.cjs DIR [side.wasm]: 2-thread GEMM 1024^3 in DIR's main module, before and after loading the side module.
const path = require('path'), fs = require('fs');
const dir = path.resolve(process.argv[2]);
const side = process.argv[3];
require(dir + '/main.js')({ wasmBinary: fs.readFileSync(dir + '/main.wasm') }).then(async (M) => {
  const n = 1024;
  const A = M._tpx_alloc(n * n), B = M._tpx_alloc(n * n), C = M._tpx_alloc(n * n);
  const f = () => new Float32Array(M.HEAPF32.buffer);
  for (let i = 0; i < n * n; ++i) { f()[A / 4 + i] = ((i * 7) % 13) / 13 - 0.5; f()[B / 4 + i] = ((i * 5) % 11) / 11 - 0.5; }
  M._tpx_set_threads(2);
  console.log('2-thread gemm ms', M._tpx_time_gemm(n, 2, A, B, C) / 2, 'c0', f()[C / 4]);
  if (side) {
    const exp = await M.loadWebAssemblyModule(fs.readFileSync(side), { loadAsync: true, global: true, nodelete: true });
    console.log('side loaded; 2-thread gemm from main ms', M._tpx_time_gemm(n, 2, A, B, C) / 2);
    console.log('side_matmul 1024 (main kernel, 2 threads)', exp.side_matmul(n, n, n, A, B, C), 'c0', f()[C / 4]);
    console.log('side_parts(2): side lambda on a helper', exp.side_parts(2), 'expect 3');
  }
  process.exit(0);
});
