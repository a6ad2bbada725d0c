// Hidden-case seeds: a fresh one per attempt (page) or per run (CLI), so answers copied from one failing
// run do not pass the next; the result reports it, and `--seed N` reproduces that run.
//   drawSeed() → an integer in [1, 2^31 − 1]

export const MAX_SEED = 2 ** 31 - 1;

export function drawSeed() {
  const [x] = globalThis.crypto.getRandomValues(new Uint32Array(1));
  return 1 + (x % MAX_SEED);
}
