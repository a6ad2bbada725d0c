// Argument checks shared by every namespace of tp: integers, numbers, booleans, shapes, options objects
// and seeds (dim lists are wrapped and checked for repeats by the core). Pure functions of their
// arguments; each failure names the op called.
import { fail, describe } from './errors.js';

export const MAX_INDEX = 2 ** 31 - 1;
// The core's limit on dims (cpp/src/tensor.cpp), checked here where a shape is made, views included.
export const MAX_DIMS = 16;

export function checkInt(op, name, v, { min = -MAX_INDEX, max = MAX_INDEX } = {}) {
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(op, `${name} must be an integer, got ${describe(v)}`);
  if (v < min || v > max) fail(op, `${name} ${v} is out of range [${min}, ${max}]`);
  return v;
}
export function checkNumber(op, name, v) {
  if (typeof v !== 'number') fail(op, `${name} must be a number, got ${describe(v)}`);
  return v;
}
export function checkBool(op, name, v) {
  if (typeof v !== 'boolean') fail(op, `${name} must be a boolean, got ${describe(v)}`);
  return v;
}

const isIntegral = (d) => typeof d === 'number' && Number.isInteger(d) && Math.abs(d) <= Number.MAX_SAFE_INTEGER;
export function checkShape(op, shape, { allowInfer = false } = {}) {
  if (!Array.isArray(shape) || !shape.every(isIntegral)) fail(op, `shape must be an array of integers, got ${describe(shape)}`);
  if (shape.length > MAX_DIMS) fail(op, `${tooManyDims(shape)}; at most ${MAX_DIMS} are supported`);
  if (shape.some((d) => d < 0 && !(allowInfer && d === -1))) fail(op, `shape [${shape.join(', ')}] has a negative dimension`);
  return shape;
}
const tooManyDims = (shape) => `${shape.length <= 20 ? `shape [${shape.join(', ')}]` : 'the shape'} has ${shape.length} dims`;

// Accepts f([2, 3]) and f(2, 3).
export const shapeArgs = (args) => (args.length === 1 && Array.isArray(args[0]) ? args[0] : args);
// Accepts f([2, 3], opts) and f(2, 3, opts) (opts optional): [shape, opts].
export function shapeAndOptions(op, args) {
  if (Array.isArray(args[0])) {
    if (args.length > 2) fail(op, `expects (shape, options) or sizes, got ${args.length} arguments`);
    return [args[0], args[1]];
  }
  const last = args[args.length - 1];
  const opts = args.length > 1 && last !== null && typeof last === 'object' && !Array.isArray(last);
  return opts ? [args.slice(0, -1), last] : [args, undefined];
}

// An options object; given the known keys, a misspelt or unsupported key is an error, not a silent default.
export function options(op, o, known) {
  if (o === undefined || o === null) return {};
  if (typeof o !== 'object' || Array.isArray(o)) fail(op, `options must be an object, got ${describe(o)}`);
  if (known) {
    for (const k of Object.keys(o))
      if (!known.includes(k)) fail(op, `unknown option ${describe(k)} (expected one of ${known.join(', ')})`);
  }
  return o;
}
// A seed option: [seed, true] when given (an integer >= 0), [0, false] when left out (the core then
// draws from its global generator, which tp.manualSeed sets).
export function seedOf(op, seed) {
  if (seed === undefined || seed === null) return [0, false];
  return [checkInt(op, 'seed', seed, { min: 0, max: Number.MAX_SAFE_INTEGER }), true];
}
// An option left out travels to the core as NaN ("use the default"), so a NaN the caller passes must
// be refused here, not read as left out.
export function optNumber(op, name, v) {
  if (v === undefined || v === null) return NaN;
  if (Number.isNaN(checkNumber(op, name, v))) fail(op, `${name} must be a number, got NaN`);
  return v;
}
