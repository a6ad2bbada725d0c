// A case written as code a learner can paste and run (Exercism's `test_code`): the call with its arguments,
// tensors as tp.tensor(nested arrays), numbers at full precision.
//   caseCode(fn, args) → 'causalAttention(tp.tensor([[0.1, 2], [3, 4]]), 3)'
// Only arguments: the expected value of a hidden case is never written out.

import { isTensorMarker, nestFlat } from './values.js';

const num = (x) => (Object.is(x, -0) ? '-0' : Number.isNaN(x) ? 'NaN' : String(x));

function literal(v) {
  if (isTensorMarker(v)) {
    const { shape, data } = v.$tensor;
    return shape.length === 0 ? `tp.tensor(${num(data[0])})` : `tp.tensor(${literal(nestFlat(shape, data))})`;
  }
  if (typeof v === 'number') return num(v);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    return `{ ${Object.entries(v).map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(x)}`).join(', ')} }`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

export function caseCode(fn, args) {
  return `${fn}(${(args ?? []).map(literal).join(', ')})`;
}
