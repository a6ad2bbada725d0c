// Torch-like text for a tensor: "tensor([[1.0000, 2.0000], ...])", summarised with "..." when large.
const EDGE = 3;          // items shown at each end of a summarised dim
const THRESHOLD = 1000;  // more elements than this and dims are summarised, as torch does

function formatter(values) {
  let finite = values.filter(Number.isFinite);
  const allInt = finite.every((v) => Number.isInteger(v));
  const maxAbs = finite.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const minAbs = finite.filter((v) => v !== 0).reduce((m, v) => Math.min(m, Math.abs(v)), Infinity);
  const sci = !allInt && finite.length > 0 && (maxAbs >= 1e8 || (minAbs < 1e-4 && minAbs !== Infinity) || maxAbs / minAbs > 1e5 && maxAbs >= 1e3);
  const one = (v) => {
    if (Number.isNaN(v)) return 'nan';
    if (v === Infinity) return 'inf';
    if (v === -Infinity) return '-inf';
    if (allInt && maxAbs < 1e8) return `${v}.`;
    if (sci) return v.toExponential(4).replace(/e([+-])(\d)$/, 'e$10$2');
    return v.toFixed(4);
  };
  const width = values.reduce((w, v) => Math.max(w, one(v).length), 1);
  return (v) => one(v).padStart(width);
}

export function formatTensor(shape, data) {
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
  const fmt = formatter(shown);
  const render = (d, base, indent) => {
    if (d === shape.length) return fmt(data[base]);
    const parts = keep(shape[d]).map((i) => (i < 0 ? '...' : render(d + 1, base + i * strides[d], indent + 1)));
    if (d === shape.length - 1) return `[${parts.join(', ')}]`;
    const sep = ',' + '\n'.repeat(shape.length - d - 1) + ' '.repeat(indent + 1);
    return `[${parts.join(sep)}]`;
  };
  const body = render(0, 0, 'tensor('.length);
  const empty = data.length === 0 && shape.length > 0;
  const suffix = empty || summarise ? `, shape=[${shape.join(', ')}]` : '';
  return `tensor(${empty ? '[]' : body}${suffix})`;
}
