// Values that cross the worker boundary: plain data only (numbers, arrays, strings, booleans)
// plus one marker for tensors, { $tensor: { shape, data } } with data flat row-major.
// Case generators build arguments with tensorArg(); the worker turns markers into tp tensors
// before calling a solution and turns returned tensors back into markers. Values a solution may not
// return cross as { $unsupported: 'function' | 'promise' | 'object' | 'deep', keys? }, described in
// the reader's language on the judge's side (describeValue).

import { messages, localized, DEFAULT_LANG } from './messages.js';

export function tensorArg(value, shape) {
  if (shape) return { $tensor: { shape: [...shape], data: Array.from(value) } };
  const s = shapeOfNested(value);
  if (s.error) throw new Error(`tensorArg: ${s.error}`);
  return { $tensor: { shape: s.shape, data: flattenNested(value) } };
}

export function isTensorMarker(v) {
  return v !== null && typeof v === 'object' && v.$tensor !== undefined;
}

// Anything with a shape array and toArray()/data() is treated as a tensor (tp tensors, and any
// tensor-like object a solution may return).
export function isTensorLike(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !isTensorMarker(v) &&
    (Array.isArray(v.shape) || ArrayBuffer.isView(v.shape)) &&
    (typeof v.data === 'function' || typeof v.toArray === 'function');
}

const bracketed = (items) => `[${items.join(', ')}]`;

// Shape of a nested array; { error } names the first ragged or non-numeric position.
export function shapeOfNested(value, lang = DEFAULT_LANG, path = []) {
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) {
    return typeof value === 'number' ? { shape: [] } :
      { error: messages(lang).notANumberAt(describeValue(value, lang), bracketed(path)) };
  }
  const n = value.length;
  if (n === 0) return { shape: [0] };
  const first = shapeOfNested(value[0], lang, [...path, 0]);
  if (first.error) return first;
  for (let i = 1; i < n; i++) {
    const s = shapeOfNested(value[i], lang, [...path, i]);
    if (s.error) return s;
    if (s.shape.join() !== first.shape.join()) {
      return { error: messages(lang).ragged(bracketed([...path, i]), bracketed(s.shape), bracketed([...path, 0]), bracketed(first.shape)) };
    }
  }
  return { shape: [n, ...first.shape] };
}

export function flattenNested(value, out = []) {
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    for (const v of value) flattenNested(v, out);
  } else {
    out.push(Number(value));
  }
  return out;
}

export function nestFlat(shape, data) {
  if (shape.length === 0) return data[0];
  const [n, ...rest] = shape;
  const size = rest.reduce((a, b) => a * b, 1);
  return Array.from({ length: n }, (_, i) => nestFlat(rest, data.slice(i * size, (i + 1) * size)));
}

// In the worker: argument markers become tensors of the global tp.
export function decodeArg(v, tp) {
  if (isTensorMarker(v)) {
    const { shape, data } = v.$tensor;
    return tp.tensor(Float32Array.from(data), { shape });
  }
  if (Array.isArray(v)) return v.map((x) => decodeArg(x, tp));
  return v;
}

// How many numbers v holds (a tensor's or typed array's size, nested arrays' leaves), counting no
// further once past `limit`: a 4-million-element answer is refused after limit + 1 steps.
export function countUpTo(v, limit) {
  if (isTensorLike(v)) return Array.from(v.shape, Number).reduce((a, b) => a * b, 1);
  if (ArrayBuffer.isView(v)) return v.length;
  if (!Array.isArray(v)) return 1;
  let n = 0;
  for (const x of v) {
    n += typeof x === 'object' && x !== null ? countUpTo(x, limit - n) : 1;
    if (n > limit) break;
  }
  return n;
}

// In the worker: whatever a function returned becomes plain, cloneable data. An answer of more than
// maxElements numbers is not sent: copying and comparing it would run outside the time limits (the
// judge gives each case a bound far above its expected answer's size).
export function encodeResult(v, depth = 0, maxElements = Infinity) {
  if (depth === 0 && Number.isFinite(maxElements) && countUpTo(v, maxElements) > maxElements) {
    return { $unsupported: 'large', count: maxElements };
  }
  if (depth > 64) return { $unsupported: 'deep' };
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
  if (v === undefined) return { $undefined: true };
  if (typeof v === 'bigint') return Number(v);
  if (isTensorLike(v)) {
    const shape = Array.from(v.shape, Number);
    const raw = typeof v.data === 'function' ? v.data() : flattenNested(v.toArray());
    return { $tensor: { shape, data: Array.from(raw, Number) } };
  }
  if (ArrayBuffer.isView(v)) return Array.from(v, Number);
  if (Array.isArray(v)) return v.map((x) => encodeResult(x, depth + 1));
  if (typeof v === 'function') return { $unsupported: 'function' };
  if (v instanceof Promise || (typeof v === 'object' && typeof v.then === 'function')) return { $unsupported: 'promise' };
  return { $unsupported: 'object', keys: Object.keys(v).slice(0, 5) };
}

function describeUnsupported(v, M) {
  switch (v.$unsupported) {
    case 'function': return M.aFunction;
    case 'promise': return M.aPromise;
    case 'deep': return M.tooDeep;
    case 'large': return M.tooLarge(v.count);
    default: return M.anObject((v.keys ?? []).join(', '));
  }
}

// Short descriptions for messages: "a tensor of shape [4, 5]", "a number (3.5)", ...
export function describeValue(v, lang = DEFAULT_LANG) {
  const M = messages(lang);
  if (v === undefined || (v && v.$undefined)) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : M.aNumber(formatNumber(v));
  if (typeof v === 'string') return M.aString(JSON.stringify(v.slice(0, 40)));
  if (typeof v === 'boolean') return M.aBoolean(v);
  if (isTensorMarker(v)) return M.aTensor(bracketed(v.$tensor.shape));
  if (v && v.$unsupported) return describeUnsupported(v, M);
  if (Array.isArray(v)) {
    const s = shapeOfNested(v, lang);
    return s.error ? M.aBadArray(v.length, s.error) : M.anArray(bracketed(s.shape));
  }
  return typeof v;
}

// Why a generated argument cannot be sent to a worker as a case, or null when it can: plain data
// (numbers, strings, booleans, null, arrays and plain objects of them) and tensorArg markers pass.
//   → null | { what, at }, `what` in the reader's language, `at` the place inside the argument ("[1].w")
export function argumentProblem(v, lang = DEFAULT_LANG, at = '', ancestors = new Set()) {
  const M = messages(lang);
  const bad = (what) => ({ what, at });
  if (v === null || ['number', 'string', 'boolean'].includes(typeof v)) return null;
  if (v === undefined) return bad('undefined');
  if (typeof v === 'bigint') return bad(M.aBigInt(`${v}n`));
  if (typeof v === 'function') return bad(M.aFunction);
  if (typeof v === 'symbol') return bad(M.aSymbol);
  if (ancestors.has(v)) return bad(M.circular);
  if (ancestors.size >= 64) return bad(M.tooDeep);
  if (isTensorLike(v)) return bad(M.aLiveTensor(bracketed(Array.from(v.shape, Number))));
  if (isTensorMarker(v)) {
    const problem = markerProblem(v.$tensor, M);
    return problem ? bad(problem) : null;
  }
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return bad(M.anInstance(v.constructor.name));
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return bad(M.anInstance(proto.constructor?.name || 'object'));
  // Only an ancestor makes a cycle: the same object twice in an argument is fine.
  ancestors.add(v);
  try {
    for (const [k, x] of Object.entries(v)) {
      const p = argumentProblem(x, lang, Array.isArray(v) ? `${at}[${k}]` : `${at}.${k}`, ancestors);
      if (p) return p;
    }
    return null;
  } finally {
    ancestors.delete(v);
  }
}

// A { $tensor } written by hand rather than by tensorArg(): its shape and data must agree.
function markerProblem(t, M) {
  const shapeOk = t && Array.isArray(t.shape) && t.shape.every((d) => Number.isInteger(d) && d >= 0);
  const size = shapeOk ? t.shape.reduce((a, b) => a * b, 1) : -1;
  const dataOk = t && Array.isArray(t.data) && t.data.length === size && t.data.every((x) => typeof x === 'number');
  return shapeOk && dataOk ? null : M.badTensorMarker;
}

// A case as the judge titles it: "hidden 3 (d=4): frobNorm(A=[3×3])", in the reader's language.
export function caseTitle(c, params = [], lang = DEFAULT_LANG) {
  const args = c.args.map((a, i) => (params[i] ? `${params[i]}=${describeArg(a)}` : describeArg(a)));
  const name = localized(c.name, lang) ?? messages(lang).caseName(c.kind, c.number, localized(c.label, lang));
  return `${name}${messages(lang).titleSeparator}${c.fn}(${args.join(', ')})`;
}

// Arguments in a case name: numbers as written, tensors by shape.
export function describeArg(v) {
  if (isTensorMarker(v)) return `[${v.$tensor.shape.join('×')}]`;
  if (typeof v === 'number') return formatNumber(v);
  if (Array.isArray(v)) return v.length <= 6 ? `[${v.map(describeArg).join(', ')}]` : `[${v.length} items]`;
  return JSON.stringify(v);
}

export function formatNumber(x) {
  if (typeof x !== 'number') return String(x);
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-4 || a >= 1e6)) return x.toExponential(3).replace(/\.?0+e/, 'e');
  return String(Number(x.toPrecision(6)));
}
