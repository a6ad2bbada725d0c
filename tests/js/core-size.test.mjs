// The size budget of the shipped WebAssembly cores: at most 200 KB (200,000 bytes) after gzip -9, for
// the single-thread core and for the pthreads one that crossOriginIsolated pages load. A change that
// crosses it fails here, with the sizes, rather than slowly making the page heavier.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const GOAL = 200_000;
// The pthreads core misses the goal: it measured 212,785 bytes on 2026-12-01, after the blocked
// tridiagonalization and bidiagonalization (issue 24) and the multi-dim reductions moved into C++ (issue 21);
// Emscripten's JS-based exceptions, which this flavour needs, make its code about 15% bigger. Its ceiling
// stops further growth until the gap is closed; the goal stays 200 KB for both.
// The model engine (issue 23: cpp/src/model_*.cpp, wasm/bind_model.cpp) added 16,541 bytes gzipped to the
// single-thread core (187,788 -> 204,329) and 19,773 to the pthreads one (212,797 -> 232,570), measured
// on 2026-12-01 before dtypes landed; with dtypes the single-thread core measured 208,412. The web ceiling
// rose from the goal to 209 KB, web-mt's by the engine's growth to 234 KB. The model's linear layers then
// took perf's sgemm_half (BF16/F16 weights widened while packing), which LTO had dropped while nothing called
// it: +4,259 bytes in the single-thread core (208,489 -> 212,748), so 213 KB; web-mt, not rebuilt for this
// step, rose by 5 KB to 239 KB (to be re-measured). The goal stays 200 KB for both.
// Issue 22's ops (cpp/src/ops_*.cpp, wasm/bind_ops.cpp: 13 libm functions, ranges, layout copies, statistics,
// einsum, index ops, linalg's matrixPower/pinv/cond) add about 26.6 KB to the single-thread core: 19.9 KB for
// the float ops (187,788 -> 207,698 before dtypes), and with dtypes and the index ops a tree without the model
// engine measured 218,480 against ~191,900 for dtypes alone. The pthreads core grew by 24.0 KB for the float
// ops (212,797 -> 236,768); the index ops' share there (~8 KB, 1.2x the web growth as for the float ops) is
// an estimate, not yet measured. Ceilings rose by that growth; the goal stays 200 KB for both.
// Dtypes' second slice (type promotion, the generic elementwise/reduction/matmul paths) added 12,872 bytes to
// the node core (189,973 -> 202,845, measured before the model and ops landed): web's ceiling rises by 13 KB,
// web-mt's by 15.5 KB (1.2x, estimated, not measured).
const BUDGET = { web: 253_000, 'web-mt': 286_500 };

for (const flavor of ['web', 'web-mt']) {
  test(`the ${flavor} core is at most ${BUDGET[flavor] / 1000} KB gzipped`, (t) => {
    const file = path.join(root, 'build', 'wasm', flavor, 'tensorpad_core.wasm');
    if (!fs.existsSync(file)) return t.skip(`${path.relative(root, file)} is not built (npm run build)`);
    const bytes = fs.readFileSync(file);
    const gz = zlib.gzipSync(bytes, { level: 9 }).length;
    assert.ok(gz <= BUDGET[flavor], `${path.relative(root, file)}: ${gz} bytes gzipped (${bytes.length} raw), budget ${BUDGET[flavor]} (goal ${GOAL})`);
  });
}
