// The judge's comparison, shared by the Node and the browser runners. It runs in the judge's own
// thread, on plain data (see values.js), never inside the solution's worker.
//   compareValues(got, want, { atol, rtol, kind, lang, hidden }) → { pass: true } | { pass: false, message, mismatch }
// kind is the function's `returns` (a kind or a list of them): with 'integer', a number must be whole.
// Shape first ("expected shape [4, 5], got [5, 4]"), then isClose elementwise (NaN answers NaN),
// reporting the first element out of tolerance (its index, both values, the absolute and relative error)
// and how many are: never the whole expected value. NaN where a number is expected fails.
// The message is in the reader's language (lang, default English).

import { isTensorMarker, shapeOfNested, flattenNested, describeValue, formatNumber } from './values.js';
import { messages, DEFAULT_LANG } from './messages.js';

const fmtShape = (s) => `[${s.join(', ')}]`;

// Plain data → { scalar } | { shape, data } | { error } | { other }
export function toShaped(v, lang = DEFAULT_LANG) {
  if (typeof v === 'number') return { scalar: v };
  if (isTensorMarker(v)) {
    const { shape, data } = v.$tensor;
    if (shape.length === 0) return { scalar: data[0], zeroDim: true };
    return { shape, data };
  }
  if (Array.isArray(v)) {
    const s = shapeOfNested(v, lang);
    if (s.error) return { error: s.error };
    return { shape: s.shape, data: flattenNested(v) };
  }
  return { other: v };
}

export function unravel(i, shape) {
  const idx = new Array(shape.length).fill(0);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = i % shape[d];
    i = Math.floor(i / shape[d]);
  }
  return idx;
}

/**
 * The tolerance rule of tp.isclose, element by element, on doubles: the JS copy of close() in
 * cpp/src/compare.cpp (tests/js/judge.test.mjs checks the two agree, NaN and infinities included).
 * Equal values (equal infinities too) are close; otherwise NaN or an infinity is close to nothing, except
 * NaN to NaN with equalNan; otherwise |got − want| ≤ atol + rtol·|want|. The judge always passes
 * equalNan: an expected NaN is answered by NaN. (Doubles, not the core's float32: an exact integer answer
 * such as 1234567891 must not pass for 1234567890.)
 */
export function isClose(got, want, { atol = 0, rtol = 0, equalNan = false } = {}) {
  if (got === want) return true;
  if (Number.isNaN(got) || Number.isNaN(want)) return equalNan && Number.isNaN(got) && Number.isNaN(want);
  if (!Number.isFinite(got) || !Number.isFinite(want)) return false;
  return Math.abs(got - want) <= atol + rtol * Math.abs(want);
}

// One element: null when it passes, else its error size relative to what is allowed.
function elementExcess(g, w, atol, rtol) {
  if (typeof g === 'number' && isClose(g, w, { atol, rtol, equalNan: true })) return null;
  if (Number.isNaN(w)) return { abs: NaN, rel: NaN, ratio: Infinity };
  if (typeof g !== 'number' || Number.isNaN(g)) return { abs: NaN, rel: NaN, ratio: Infinity, nan: true };
  if (!Number.isFinite(w) || !Number.isFinite(g)) return { abs: Infinity, rel: Infinity, ratio: Infinity };
  const abs = Math.abs(g - w);
  const allowed = atol + rtol * Math.abs(w);
  const rel = w === 0 ? Infinity : abs / Math.abs(w);
  return { abs, rel, ratio: allowed > 0 ? abs / allowed : Infinity };
}

function valueMismatch(M, where, g, w, e, atol, rtol) {
  if (e.nan) return M.gotNaN(where, formatNumber(w));
  return M.valueMismatch({ where, got: formatNumber(g), want: formatNumber(w), abs: formatNumber(e.abs),
    rel: formatNumber(e.rel), allowed: M.allowed(formatNumber(atol), formatNumber(rtol)) });
}

// hidden: the case is hidden, so a structured expected value is described, not printed (numbers are shown
// one element at a time in any case).
export function compareValues(got, want, { atol = 0, rtol = 0, kind, lang = DEFAULT_LANG, hidden = false } = {}) {
  const M = messages(lang);
  const w = toShaped(want, lang);
  const g = toShaped(got, lang);
  if (w.other !== undefined || w.error) {
    // Non-numeric expected values (booleans, strings) compare exactly.
    return Object.is(got, want) || JSON.stringify(got) === JSON.stringify(want)
      ? { pass: true }
      : { pass: false, message: M.expectedExactly(hidden && want !== null && typeof want === 'object' ? describeValue(want, lang)
        : JSON.stringify(want), describeValue(got, lang)) };
  }
  if (w.scalar !== undefined) {
    if (g.scalar === undefined) return { pass: false, message: M.expectedNumber(describeValue(got, lang)) };
    if ([].concat(kind ?? []).includes('integer') && Number.isFinite(g.scalar) && !Number.isInteger(g.scalar)) {
      return { pass: false, message: M.expectedInteger(formatNumber(g.scalar)),
        mismatch: { index: [], got: g.scalar, want: w.scalar } };
    }
    const e = elementExcess(g.scalar, w.scalar, atol, rtol);
    if (!e) return { pass: true };
    return { pass: false, message: valueMismatch(M, M.value, g.scalar, w.scalar, e, atol, rtol),
      mismatch: { index: [], got: g.scalar, want: w.scalar, abs: e.abs, rel: e.rel } };
  }
  // want is an array or a tensor
  if (g.error || g.scalar !== undefined || g.other !== undefined) {
    const message = g.error ? M.expectedShape(fmtShape(w.shape), describeValue(got, lang)) : M.expectedArray(fmtShape(w.shape), describeValue(got, lang));
    return { pass: false, message };
  }
  if (g.shape.join() !== w.shape.join()) {
    let message = M.expectedShape(fmtShape(w.shape), fmtShape(g.shape));
    if (g.shape.length === 2 && w.shape.length === 2 && g.shape[0] === w.shape[1] && g.shape[1] === w.shape[0]) {
      message += M.transposed;
    }
    return { pass: false, message };
  }
  let first = null;
  let bad = 0;
  let firstNaN = -1;
  for (let i = 0; i < w.data.length; i++) {
    const e = elementExcess(g.data[i], w.data[i], atol, rtol);
    if (!e) continue;
    bad++;
    if (e.nan && firstNaN < 0) firstNaN = i;
    if (!first) first = { i, e };
  }
  if (!first) return { pass: true };
  const at = firstNaN >= 0 ? firstNaN : first.i;   // a NaN anywhere is named first: it is never close
  const e = firstNaN >= 0 ? { nan: true } : first.e;
  const index = unravel(at, w.shape);
  const message = valueMismatch(M, M.valueAt(fmtShape(index)), g.data[at], w.data[at], e, atol, rtol) +
    M.outOfTolerance(bad, w.data.length);
  return { pass: false, message,
    mismatch: { index, got: g.data[at], want: w.data[at], abs: e.abs ?? NaN, rel: e.rel ?? NaN }, mismatches: bad };
}
