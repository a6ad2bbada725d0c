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
const BUDGET = { web: 213_000, 'web-mt': 239_000 };

for (const flavor of ['web', 'web-mt']) {
  test(`the ${flavor} core is at most ${BUDGET[flavor] / 1000} KB gzipped`, (t) => {
    const file = path.join(root, 'build', 'wasm', flavor, 'tensorpad_core.wasm');
    if (!fs.existsSync(file)) return t.skip(`${path.relative(root, file)} is not built (npm run build)`);
    const bytes = fs.readFileSync(file);
    const gz = zlib.gzipSync(bytes, { level: 9 }).length;
    assert.ok(gz <= BUDGET[flavor], `${path.relative(root, file)}: ${gz} bytes gzipped (${bytes.length} raw), budget ${BUDGET[flavor]} (goal ${GOAL})`);
  });
}
