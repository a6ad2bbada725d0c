// plot helpers available in cells: they only describe a chart (kind, data as plain arrays, options);
// the page draws it with Observable Plot as SVG. Tensors and typed arrays are accepted anywhere.
import { PLOT, toPlain } from './display.js';

const OPTION_KEYS = ['title', 'xLabel', 'yLabel', 'width', 'height', 'logY', 'logX', 'color', 'bins', 'scheme', 'labels', 'description', 'series'];

function spec(kind, data, options = {}) {
  const clean = {};
  for (const k of OPTION_KEYS) if (options[k] !== undefined) clean[k] = toPlain(options[k]);
  const s = { kind, data, options: clean };
  return { [PLOT]: s, toString: () => `[${kind} plot]` };
}

const nums = (v) => (toPlain(v) ?? []).map(Number);
const range = (n) => Array.from({ length: n }, (_, i) => i);

// (ys) | (xs, ys) | ({x, y}) | (rows, {x: 'key', y: 'key'}); ys may be an array of series.
function xy(a, b, opts) {
  if (a && !Array.isArray(a) && !ArrayBuffer.isView(a) && typeof a === 'object' && !a.shape && ('y' in a)) {
    return { series: [{ x: a.x ? nums(a.x) : null, y: nums(a.y), name: null }], opts: b ?? {} };
  }
  const A = toPlain(a);
  if (Array.isArray(A) && A.length && typeof A[0] === 'object' && !Array.isArray(A[0]) && b && typeof b.x === 'string') {
    const key = b.series;
    const groups = new Map();
    for (const r of A) {
      const g = key ? String(r[key]) : null;
      if (!groups.has(g)) groups.set(g, { x: [], y: [], name: g });
      groups.get(g).x.push(Number(r[b.x]));
      groups.get(g).y.push(Number(r[b.y]));
    }
    return { series: [...groups.values()], opts: b };
  }
  const isOpts = (v) => v && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v) && !v.shape;
  let xs = null, ys = A, o = b;
  if (b !== undefined && !isOpts(b)) { xs = A; ys = toPlain(b); o = opts; }
  const many = Array.isArray(ys) && Array.isArray(ys[0]);
  const list = many ? ys : [ys];
  const names = o?.labels;
  return {
    series: list.map((y, i) => ({ x: xs ? nums(xs) : range(y.length), y: y.map(Number), name: many ? String(names?.[i] ?? i) : null })),
    opts: o ?? {},
  };
}

function fillX(series) {
  return series.map((s) => ({ ...s, x: s.x ?? range(s.y.length) }));
}

export function line(a, b, c) {
  const { series, opts } = xy(a, b, c);
  return spec('line', { series: fillX(series) }, opts);
}

export function scatter(a, b, c) {
  const { series, opts } = xy(a, b, c);
  return spec('scatter', { series: fillX(series) }, opts);
}

/** bar(values) | bar(labels, values) | bar({label: value, ...}) */
export function bar(a, b, c) {
  let labels, values, opts;
  const A = toPlain(a);
  if (A && typeof A === 'object' && !Array.isArray(A)) { labels = Object.keys(A); values = Object.values(A).map(Number); opts = b; }
  else if (b !== undefined && (Array.isArray(b) || ArrayBuffer.isView(b) || b?.shape)) { labels = A.map(String); values = nums(b); opts = c; }
  else { values = A.map(Number); labels = values.map((_, i) => String(i)); opts = b; }
  return spec('bar', { labels, values }, opts ?? {});
}

export function histogram(values, opts = {}) {
  const flat = [toPlain(values)].flat(Infinity).map(Number);
  return spec('histogram', { values: flat }, opts);
}

/** heatmap(matrix): a 2-D array or tensor drawn as an image, row 0 at the top. */
export function heatmap(matrix, opts = {}) {
  const m = toPlain(matrix);
  if (!Array.isArray(m) || !m.every(Array.isArray)) throw new TypeError('heatmap: expected a 2-D array or tensor');
  return spec('heatmap', { rows: m.length, cols: m[0]?.length ?? 0, values: m.flat().map(Number) }, opts);
}

/** plot(...) is line(...); plot.line/bar/scatter/histogram/heatmap are the named charts. */
export const plot = Object.assign((...args) => line(...args), { line, bar, scatter, histogram, heatmap });
