// Torch-like text for a tensor: "tensor([[1.0000, 2.0000], ...])", summarised with "..." when large:
// torch's print rules (torch/_tensor_str.py) at its default options, less line wrapping at 80 columns.
// Empty and summarised tensors end with ", shape=[...]".
const EDGE = 3;          // items shown at each end of a summarised dim
const THRESHOLD = 1000;  // more elements than this and dims are summarised, as torch does
const PRECISION = 4;     // decimals, as torch's default

// Python's format(v, '.4f') and '.4e', which torch prints with: an exact tie (…5 then only zeros) rounds
// to even where JS's toFixed/toExponential round it up, -0 keeps its sign, an exponent has two digits.
function decimal(v, digits, exponent) {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  const a = Math.abs(v);
  let s = exponent ? a.toExponential(digits) : a.toFixed(digits);
  if (digits > 0) {
    // A tie is exact in few digits (…5 then zeros), so 100 digits show it exactly.
    const exact = exponent ? a.toExponential(100) : a.toFixed(100);
    const e = exponent ? exact.indexOf('e') : exact.length;
    const kept = exact.slice(0, exact.indexOf('.') + 1 + digits);
    if (/^50*$/.test(exact.slice(kept.length, e)) && Number(kept[kept.length - 1]) % 2 === 0) s = kept + exact.slice(e);
  }
  return sign + (exponent ? s.replace(/e([+-])(\d)$/, 'e$10$2') : s);
}

// torch's _Formatter: from the finite non-zero values, integers print as "1." unless their range calls for
// scientific notation (max/min > 1000 or max > 1e8); other values print with 4 decimals unless max/min > 1000,
// max > 1e8 or min < 1e-4. Every value is right-aligned to the widest finite non-zero one.
function formatter(values) {
  const nz = values.filter((v) => Number.isFinite(v) && v !== 0);
  const intMode = nz.every(Number.isInteger);
  let sci = false, width = 1;
  if (nz.length > 0) {
    const max = nz.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const min = nz.reduce((m, v) => Math.min(m, Math.abs(v)), Infinity);
    sci = max / min > 1000 || max > 1e8 || (!intMode && min < 1e-4);
  }
  const one = (v) => {
    if (sci) return decimal(v, PRECISION, true);
    if (!intMode) return decimal(v, PRECISION, false);
    return Number.isFinite(v) ? decimal(v, 0, false) + '.' : decimal(v, 0, false);
  };
  for (const v of nz) width = Math.max(width, one(v).length);
  return (v) => one(v).padStart(width);
}

// Integers print as integers ("1, 2"), bools as True/False, right-aligned as torch; a dtype other than
// float32, int64 and bool (torch's defaults) is named after the values (", dtype=torch.int32").
// Integer tensors: each value as an integer, right-aligned to the widest.
function exactFormatter(values) {
  const width = values.reduce((w, v) => Math.max(w, String(v).length), 1);
  return (v) => String(v).padStart(width);
}

export function formatTensor(shape, data, dtype = 'float32') {
  const suffix = ['float32', 'int64', 'bool'].includes(dtype) ? '' : `, dtype=torch.${dtype}`;
  // An empty tensor prints its shape alone: walking its dims would visit every index of the non-zero ones.
  if (data.length === 0 && shape.length > 0) return `tensor([], shape=[${shape.join(', ')}]${suffix})`;
  const summarise = data.length > THRESHOLD;
  const shown = [];
  const keep = (n) => (summarise && n > 2 * EDGE ? [...Array(EDGE).keys(), -1, ...Array.from({ length: EDGE }, (_, i) => n - EDGE + i)] : [...Array(n).keys()]);
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  // Collect the shown values first so the column width is shared, as torch does.
  const collect = (d, base) => {
    if (d === shape.length) { shown.push(data[base]); return; }
    for (const i of keep(shape[d])) if (i >= 0) collect(d + 1, base + i * strides[d]);
  };
  collect(0, 0);
  const fmt = dtype === 'bool' ? (v) => (v ? ' True' : 'False').slice(shown.every(Boolean) ? 1 : 0)
    : /int/.test(dtype) ? exactFormatter(shown) : formatter(shown);
  const render = (d, base, indent) => {
    if (d === shape.length) return fmt(data[base]);
    // A cut in the last dim is an item " ..." (so "2.,  ..., 1997."); a cut in an outer dim, a line "...".
    const cut = d === shape.length - 1 ? ' ...' : '...';
    const parts = keep(shape[d]).map((i) => (i < 0 ? cut : render(d + 1, base + i * strides[d], indent + 1)));
    if (d === shape.length - 1) return `[${parts.join(', ')}]`;
    const sep = ',' + '\n'.repeat(shape.length - d - 1) + ' '.repeat(indent + 1);
    return `[${parts.join(sep)}]`;
  };
  const body = render(0, 0, 'tensor('.length);
  return `tensor(${body}${summarise ? `, shape=[${shape.join(', ')}]` : ''}${suffix})`;
}
