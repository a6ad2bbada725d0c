// The module Worker of the linalg stage benches (linalg-stages-browser.mjs, linalg-ab-browser.mjs): it loads
// the stage bench module (tensorpad_bench_linalg_mt, bench_eigh.cpp and bench_svd.cpp on the pthreads core)
// from ./<folder>/, sets up eigh's and svd's n x n inputs, and times one stage call on a thread count.
import { WORKER_DISPATCH } from './gemm-browser.mjs';

export const stageWorkerJs = (folder) => `
let tp;
const cmds = {
  async init({ n }) {
    const { default: create } = await import('./${folder}/tensorpad_bench_linalg_mt.js');
    tp = await create({});
    tp.eighSetup(n, 7);
    tp.svdSetup(n, 7);
    return { isolated: self.crossOriginIsolated, maxThreads: tp.maxThreads() };
  },
  // Wall ms of one stage call on this thread count.
  run({ threads, fn, stage }) {
    tp.setThreads(threads);
    const t0 = performance.now();
    if (tp[fn](stage) === -1) throw new Error(fn + ' ' + stage + ' declined');
    return performance.now() - t0;
  },
};
${WORKER_DISPATCH}`;
