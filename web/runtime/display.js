// Turns values produced in a cell into plain, structured-cloneable outputs the page renders:
// { kind: 'text' | 'stream' | 'tensor' | 'table' | 'plot' | 'html', ... }. No DOM, no Node APIs.

export const PLOT = Symbol.for('tensorpad.plot');
export const HTML = Symbol.for('tensorpad.html');
const MAX_ROWS = 500;
const MAX_ITEMS = 100;

/** A tensor is recognised by shape, not by class, so the runtime does not depend on the API's internals. */
export function isTensor(x) {
  return !!x && typeof x === 'object' && Array.isArray(x.shape) && typeof x.toString === 'function' &&
    (typeof x.toArray === 'function' || typeof x.tolist === 'function' || typeof x.data === 'function' || 'handle' in x);
}

/** A tensor or nested array as nested plain arrays of numbers. */
export function toPlain(x) {
  if (isTensor(x)) {
    if (typeof x.tolist === 'function') return x.tolist();
    if (typeof x.toArray === 'function') return x.toArray();
    const flat = Array.from(x.data());
    const build = (dim, off) => {
      if (dim === x.shape.length) return flat[off];
      const step = x.shape.slice(dim + 1).reduce((a, b) => a * b, 1);
      return Array.from({ length: x.shape[dim] }, (_, i) => build(dim + 1, off + i * step));
    };
    return build(0, 0);
  }
  if (ArrayBuffer.isView(x)) return Array.from(x);
  if (Array.isArray(x)) return x.map(toPlain);
  return x;
}

function isPlainObject(x) {
  if (!x || typeof x !== 'object') return false;
  const p = Object.getPrototypeOf(x);
  return p === null || p === Object.prototype;
}

/** A compact, devtools-like text form of any value (strings quoted when nested or `quote`). */
export function inspect(x, { depth = 3, quote = true } = {}) {
  const seen = new Set();
  const fmt = (v, d, q) => {
    if (v === null) return 'null';
    switch (typeof v) {
      case 'undefined': return 'undefined';
      case 'string': return q ? JSON.stringify(v) : v;
      case 'number': return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint': return `${v}n`;
      case 'boolean': return String(v);
      case 'symbol': return v.toString();
      case 'function': return v.toString().startsWith('class') ? `[class ${v.name || '(anonymous)'}]` : `[Function: ${v.name || '(anonymous)'}]`;
    }
    if (isTensor(v)) return String(v.toString());
    if (v instanceof Error) return `${v.name}: ${v.message}`;
    if (seen.has(v)) return '[Circular]';
    if (v instanceof Date) return v.toISOString();
    if (v instanceof RegExp) return String(v);
    if (d > depth) return Array.isArray(v) ? '[Array]' : '[Object]';
    seen.add(v);
    try {
      if (Array.isArray(v) || ArrayBuffer.isView(v)) {
        const items = Array.from(v.length > MAX_ITEMS ? Array.prototype.slice.call(v, 0, MAX_ITEMS) : v, (e) => fmt(e, d + 1, true));
        if (v.length > MAX_ITEMS) items.push(`… ${v.length - MAX_ITEMS} more`);
        const prefix = Array.isArray(v) ? '' : `${v.constructor.name}(${v.length}) `;
        return `${prefix}[${items.join(', ')}]`;
      }
      if (v instanceof Map) return `Map(${v.size}) {${[...v].slice(0, MAX_ITEMS).map(([k, e]) => `${fmt(k, d + 1, true)} => ${fmt(e, d + 1, true)}`).join(', ')}}`;
      if (v instanceof Set) return `Set(${v.size}) {${[...v].slice(0, MAX_ITEMS).map((e) => fmt(e, d + 1, true)).join(', ')}}`;
      if (typeof v.then === 'function') return 'Promise {…}';
      const keys = Object.keys(v);
      const name = isPlainObject(v) ? '' : `${v.constructor?.name ?? 'Object'} `;
      const body = keys.slice(0, MAX_ITEMS).map((k) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${fmt(v[k], d + 1, true)}`);
      if (keys.length > MAX_ITEMS) body.push('…');
      return `${name}{${body.length ? ` ${body.join(', ')} ` : ''}}`;
    } finally {
      seen.delete(v);
    }
  };
  return fmt(x, 0, quote);
}

/** Text for print()/console.log: strings raw, everything else inspected, joined by spaces. */
export function formatArgs(args) {
  return args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ');
}

function tableOutput(rows) {
  const columns = [];
  for (const r of rows.slice(0, MAX_ROWS)) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  const cell = (v) => (typeof v === 'string' ? v : typeof v === 'number' ? v : inspect(v, { depth: 1 }));
  return {
    kind: 'table',
    columns,
    rows: rows.slice(0, MAX_ROWS).map((r) => columns.map((c) => (c in r ? cell(r[c]) : ''))),
    total: rows.length,
  };
}

/** A table is an array of plain objects. */
export function isTable(x) {
  return Array.isArray(x) && x.length > 0 && x.every(isPlainObject);
}

/**
 * toOutput(value, { raw }) → an output object, or null for undefined.
 * `raw` shows strings unquoted (display("text")), as opposed to a cell's last value ("text").
 */
export function toOutput(value, { raw = false } = {}) {
  if (value === undefined) return null;
  if (value && value[PLOT]) return { kind: 'plot', spec: value[PLOT] };
  if (value && value[HTML] !== undefined) return { kind: 'html', html: value[HTML] };
  if (isTensor(value)) return { kind: 'tensor', text: String(value.toString()), shape: [...value.shape] };
  if (isTable(value)) return tableOutput(value);
  return { kind: 'text', text: inspect(value, { quote: !raw }) };
}

/** html`<b>${x}</b>` or html(string): author-trusted HTML output (the page sanitises scripts away). */
export function html(strings, ...values) {
  const text = Array.isArray(strings) && strings.raw
    ? strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '')
    : String(strings);
  return { [HTML]: text, toString: () => text };
}

/** table(rows) forces a table output (also for arrays of arrays, with optional column names). */
export function table(rows, columns) {
  const plain = toPlain(rows);
  if (Array.isArray(plain) && plain.every(Array.isArray)) {
    const cols = columns ?? plain[0]?.map((_, i) => String(i)) ?? [];
    return plain.map((r) => Object.fromEntries(cols.map((c, i) => [c, r[i]])));
  }
  return plain;
}
