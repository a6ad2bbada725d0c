// Presenting a judge result: terminal lines and Exercism-style results.json (version 3), in the
// language the result was judged in (result.lang).

import { messages } from './messages.js';

const indent = (text, prefix) => text.replace(/\n$/, '').split('\n').map((l) => prefix + l).join('\n');

// One line per case (✓/✗, the case, the reason); details indented below; then exactly "N passed, N failed"
// (in Chinese "N 通过，N 未通过").
// Solution output is shown indented behind "│", so it can never look like the summary line.
export function formatText(result, { showOutput = true } = {}) {
  const lines = [];
  if (result.status === 'error' && result.message) lines.push(indent(result.message, ''));
  for (const c of result.cases) {
    const mark = c.status === 'pass' ? '✓' : '✗';
    const [first, ...rest] = (c.message || '').split('\n');
    lines.push(`${mark} ${c.name}${first ? ` — ${first}` : ''}`);
    for (const r of rest) lines.push(`    ${r}`);
    if (showOutput && c.output) lines.push(indent(c.output.slice(0, 2000), '    │ '));
  }
  lines.push(summaryLine(result));
  return lines.join('\n');
}

export function summaryLine(result) {
  return messages(result.lang).summary(result.passed, result.failed);
}

export function toResultsJson(result) {
  const out = {
    version: 3,
    status: result.status,
    message: result.status === 'error' ? result.message ?? null : null,
    tests: result.cases.map((c) => ({
      name: c.name,
      status: c.status,
      message: c.status === 'pass' ? null : c.message,
      output: c.output ? c.output.slice(0, 500) : null,
      test_code: c.code ?? c.name.slice(c.name.indexOf(': ') + 2),   // the call, runnable (arguments only)
    })),
    // Not part of Exercism's format: which exercise, which hidden cases, the counts.
    exercise: result.exerciseId,
    seed: result.seed,
    passed: result.passed,
    failed: result.failed,
  };
  if (result.errorKind) out.error_kind = result.errorKind;
  return out;
}
