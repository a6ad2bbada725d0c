// The benches' command lines, read by node's util.parseArgs: each bench names its options (parseArgs'
// { type, default }) and a usage text, which --help prints. An option a bench does not know is an error
// that names it (a mistyped --trails would otherwise run the default silently), except under run.mjs,
// which gives one command line to every bench (TP_BENCH_SHARED_ARGS=1): there each bench takes its own
// options and leaves the others to the benches that know them.
import { parseArgs } from 'node:util';

/** The values of `options` on the command line (their defaults where absent); exits after --help. */
export function benchArgs(usage, options, argv = process.argv.slice(2)) {
  const shared = process.env.TP_BENCH_SHARED_ARGS === '1';
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } }, strict: !shared, allowPositionals: shared }));
  } catch (e) {
    console.error(`${e.message}\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}
