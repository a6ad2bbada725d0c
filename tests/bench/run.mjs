// `npm run bench [-- --quick]`: runs every benchmark of tests/bench/ one after another (each in its own
// Node process, so no two compete for the 2 cores), passing the arguments through (each bench takes the
// options it knows and leaves the others: args.mjs). The browser benches
// (threads in Chromium) run when Chromium is installed (`.ci/setup --browser`, which `npm test` and
// `npm run bench` call, installs it).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserBenches = ['gemm-browser.mjs', 'linalg-browser.mjs', 'first-call-browser.mjs', 'page-open.mjs', 'model-browser.mjs'];
const benches = ['vcpus.mjs', 'gemm.mjs', 'gemv-half.mjs', 'elementwise.mjs', 'dtypes.mjs', 'linalg.mjs', 'backxf.mjs', 'blocks.mjs', 'io.mjs', 'model.mjs', ...(existsSync(chromium) ? browserBenches : [])];
if (!existsSync(chromium)) console.log(`(no Chromium at ${chromium}: skipping ${browserBenches.join(', ')})`);
let failed = 0;
for (const b of benches) {
  if (!existsSync(here + b)) continue;
  console.log(`\n=== bench: ${b} ${process.argv.slice(2).join(' ')}`);
  const r = spawnSync(process.execPath, [here + b, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, TP_BENCH_SHARED_ARGS: '1' } });
  if (r.status !== 0) {
    failed++;
    console.log(`=== ${b} failed (exit ${r.status})`);
  }
}
process.exit(failed ? 1 : 0);
