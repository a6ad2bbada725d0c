// The core's ops as JS functions of their own (core.flip(id, dims)) over its one generic entry: most
// ops are rows of a table in the core (wasm/handles.hpp), not an embind function each (that cost ~5 KB
// of the gzipped module). Each call writes its arguments into a Float64Array onto the core's argument
// buffer, numbers and booleans in order, a list (shape, dims, handles) as an offset to [length, values]
// after them, and calls core.call(op); a list result comes back through the same buffer.
export function withCalls(core) {
  if (typeof core.opTable !== 'function') return core;  // a test double: its functions are its own
  const out = Object.create(core);
  let view = core.argsBuffer(0);
  // The view empties when the heap grows (its buffer is detached), and is too short for long lists.
  const buffer = (n) => (view.length >= n ? view : (view = core.argsBuffer(Math.max(n, 2 * view.length))));
  function call(op, kind, args) {
    let n = args.length;
    for (const a of args) if (typeof a === 'object' && a !== null) n += 1 + a.length;
    const v = buffer(n);
    let tail = args.length;
    for (let k = 0; k < args.length; k++) {
      const a = args[k];
      if (typeof a === 'object' && a !== null) {
        const len = a.length;
        v[k] = tail;
        v[tail++] = len;
        for (let j = 0; j < len; j++) v[tail++] = a[j];
      } else {
        v[k] = a;  // a boolean as 0 or 1, undefined as NaN
      }
    }
    const r = core.call(op);
    if (kind === 'b') return r !== 0;
    if (kind !== 'l') return r;
    // The core may have moved the buffer to make room for the list.
    if (view.length < r || view.length === 0) view = core.argsBuffer(0);
    return Array.from(view.subarray(0, r));
  }
  core.opTable().split(',').forEach((row, op) => {
    const [name, kind] = row.split(':');
    out[name] = (...args) => call(op, kind, args);
  });
  return out;
}
