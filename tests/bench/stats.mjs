// The benches' timing statistics: one call's CPU seconds (user + system, so a loaded machine's waits do not
// count) and the median of a list of times.

export function cpuSeconds(fn) {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

// The middle value; for an even count, the mean of the two middle ones.
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
