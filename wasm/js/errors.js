// The one error type of the JS API: every invalid call throws a TensorpadError naming the operation.
export class TensorpadError extends Error {
  constructor(message, { op } = {}) {
    super(message);
    this.name = 'TensorpadError';
    // The op is the message's prefix ("matmul: ...") unless given.
    this.op = op ?? (/^([\w.]+):/.exec(message)?.[1] ?? null);
  }
}

export function fail(op, message) {
  throw new TensorpadError(`${op}: ${message}`, { op });
}

// An error raised under a helper's name (the core's allocator says "alloc", a new tensor's shape check
// "empty", a float32-only kernel given another dtype "dtype", allclose's broadcast "isclose") named after
// the op the user called; other errors unchanged.
export function renamed(e, op, helpers = ['alloc', 'empty', 'dtype']) {
  if (!(e instanceof TensorpadError) || !op || e.op === op || !helpers.includes(e.op)) return e;
  return new TensorpadError(`${op}:${e.message.slice(e.op.length + 1)}`, { op });
}
export function asOp(op, fn, helpers) {
  try {
    return fn();
  } catch (e) {
    throw renamed(e, op, helpers);
  }
}

// Short, safe rendering of any value for an error message.
export function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return value.toString();
  if (Array.isArray(value)) return value.length <= 8 ? `[${value.map(describe).join(', ')}]` : `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  return `an object (${value?.constructor?.name ?? 'Object'})`;
}
