// The dtypes of the JS API: torch's names, their codes in the core (tp::DType's order in
// cpp/include/tensorpad/dtype.hpp) and the typed arrays that carry each.
import { fail, describe } from './errors.js';

export const DTYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int32', 'int64', 'uint8', 'int8', 'bool', 'int16'];
const ALIASES = { float: 'float32', double: 'float64', half: 'float16', int: 'int32', long: 'int64', short: 'int16' };

// A dtype name (or torch alias) → its canonical name; anything else is refused naming op.
export function dtypeName(op, name) {
  if (typeof name === 'string') {
    const n = name.startsWith('torch.') ? name.slice(6) : name;
    if (DTYPES.includes(n)) return n;
    if (ALIASES[n]) return ALIASES[n];
  }
  fail(op, `unknown dtype ${describe(name)} (expected one of ${DTYPES.join(', ')})`);
}
export const dtypeCode = (op, name) => DTYPES.indexOf(dtypeName(op, name));
export const isFloating = (name) => name.startsWith('float') || name === 'bfloat16';

// The dtype a typed array's elements have (as torch.from_numpy keeps numpy's); null for the arrays no
// dtype matches (Uint16Array, Uint32Array, Uint8ClampedArray, BigInt arrays), which become float32.
export function dtypeOfTypedArray(a) {
  if (a instanceof Float32Array) return 'float32';
  if (a instanceof Float64Array) return 'float64';
  if (a instanceof Int32Array) return 'int32';
  if (a instanceof Int16Array) return 'int16';
  if (a instanceof Int8Array) return 'int8';
  if (a instanceof Uint8Array) return 'uint8';
  return null;
}
