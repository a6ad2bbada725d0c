// Dtypes through the JS API: creation with {dtype} and inference, .dtype, .to() and its shorthands with
// torch's conversion rules, data()/item()/toArray() in JS numbers and booleans, printing, errors, memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, TensorpadError } from 'tensorpad';

const tp = await init();

test('tp.tensor makes every dtype from {dtype} and reads back the values torch would hold', () => {
  const cases = [
    ['float32', [0.1, -2], [Math.fround(0.1), -2]],
    ['float64', [0.1, -2], [0.1, -2]],
    ['float16', [0.1, 65520], [0.0999755859375, Infinity]],
    ['bfloat16', [0.1, 1 + 2 ** -8], [0.10009765625, 1]],
    ['int32', [1.7, -1.7, NaN, 2 ** 31], [1, -1, -(2 ** 31), -(2 ** 31)]],
    ['int64', [2 ** 40 + 1, -3.9], [2 ** 40 + 1, -3]],
    ['uint8', [-1, 300, 7.9], [255, 44, 7]],
    ['int8', [-1, 200, 127], [-1, -56, 127]],
    ['int16', [-1, 40000], [-1, -25536]],
    ['bool', [0, -0, 2, NaN], [false, false, true, true]],
  ];
  for (const [dtype, input, want] of cases) {
    const t = tp.tensor(input, { dtype });
    assert.equal(t.dtype, dtype);
    assert.deepEqual(t.toArray(), want, dtype);
    t.dispose();
  }
});

test('without {dtype}, booleans give bool, typed arrays keep their type, numbers give float32', () => {
  assert.equal(tp.tensor([true, false]).dtype, 'bool');
  assert.equal(tp.tensor(true).item(), true);
  assert.equal(tp.tensor([[1, 2]]).dtype, 'float32');
  assert.equal(tp.tensor(new Int32Array([1, 2])).dtype, 'int32');
  assert.equal(tp.tensor(new Uint8Array([1, 2])).dtype, 'uint8');
  assert.equal(tp.tensor(new Int8Array([-1])).dtype, 'int8');
  assert.deepEqual(tp.tensor(new Float64Array([0.1])).toArray(), [0.1]);
  assert.equal(tp.tensor(new Uint16Array([1])).dtype, 'float32');
  // A tensor keeps its dtype; tensors nested in an array promote as torch.tensor([t1, t2]).
  const i = tp.tensor([1, 2], { dtype: 'int32' });
  assert.equal(tp.tensor(i).dtype, 'int32');
  assert.equal(tp.tensor([i, tp.tensor([3, 4], { dtype: 'int64' })]).dtype, 'int64');
  assert.deepEqual(tp.tensor(i, { dtype: 'float64' }).toArray(), [1, 2]);
});

test('zeros, ones, full, arange and the *Like functions take {dtype}; full infers bool from a boolean', () => {
  assert.deepEqual(tp.zeros([2], { dtype: 'int64' }).toArray(), [0, 0]);
  assert.equal(tp.zeros(2, 3, { dtype: 'bool' }).dtype, 'bool');
  assert.deepEqual(tp.zeros(2, 3, { dtype: 'bool' }).shape, [2, 3]);
  assert.deepEqual(tp.ones(2, { dtype: 'float16' }).toArray(), [1, 1]);
  assert.deepEqual(tp.full([2], 7.9, { dtype: 'uint8' }).toArray(), [7, 7]);
  assert.deepEqual(tp.full([2], true).toArray(), [true, true]);
  assert.equal(tp.full([1], 2).dtype, 'float32');
  assert.deepEqual(tp.arange(5, { dtype: 'int64' }).toArray(), [0, 1, 2, 3, 4]);
  assert.deepEqual(tp.arange(2 ** 40, 2 ** 40 + 2, { dtype: 'int64' }).toArray(), [2 ** 40, 2 ** 40 + 1]);
  assert.deepEqual(tp.arange(1, 2, 0.25, { dtype: 'float64' }).toArray(), [1, 1.25, 1.5, 1.75]);
  const i = tp.tensor([[1, 2]], { dtype: 'int8' });
  assert.equal(tp.zerosLike(i).dtype, 'int8');
  assert.equal(tp.onesLike(i, { dtype: 'float64' }).dtype, 'float64');
  assert.throws(() => tp.zeros([2], { dtype: 'complex64' }),
    { name: 'TensorpadError', message: /^zeros: unknown dtype "complex64" \(expected one of float32, float64, float16, bfloat16, int32, int64, uint8, int8, bool, int16\)$/ });
  assert.throws(() => tp.zeros([2], { dtyp: 'int8' }), /^TensorpadError: zeros: unknown option "dtyp"/);
});

test('.to() and .float() .double() .half() .bfloat16() .int() .long() .bool() convert as torch', () => {
  const x = tp.tensor([-2.7, 0.5, 1 + 2 ** -11]);
  assert.deepEqual(x.int().toArray(), [-2, 0, 1]);
  assert.equal(x.long().dtype, 'int64');
  assert.deepEqual(x.half().toArray(), [-2.69921875, 0.5, 1]);
  assert.equal(x.bfloat16().dtype, 'bfloat16');
  assert.deepEqual(x.bool().toArray(), [true, true, true]);
  assert.deepEqual(x.double().toArray(), Array.from(new Float32Array([-2.7, 0.5, 1 + 2 ** -11])));
  assert.equal(x.int().float().dtype, 'float32');
  assert.equal(x.to('half').dtype, 'float16');
  assert.equal(x.to(tp.zeros([1], { dtype: 'int16' })).dtype, 'int16');
  assert.throws(() => x.to('float128'), (e) => e instanceof TensorpadError && /^to: unknown dtype "float128"/.test(e.message));
  // A transposed (strided) view converts element by element in its own order.
  assert.deepEqual(tp.tensor([[1, 2], [3, 4]], { dtype: 'int32' }).T.to('float64').toArray(), [[1, 3], [2, 4]]);
});

test('data() gives the typed array JS reads each dtype in; item() a number, or a boolean for bool', () => {
  const kinds = { float32: Float32Array, float64: Float64Array, float16: Float32Array, bfloat16: Float32Array,
    int32: Int32Array, int64: Float64Array, uint8: Uint8Array, int8: Int8Array, bool: Uint8Array, int16: Int16Array };
  for (const [dtype, Kind] of Object.entries(kinds)) {
    const t = tp.tensor([1, 0], { dtype });
    assert.ok(t.data() instanceof Kind, `${dtype}: ${t.data().constructor.name}`);
    t.dispose();
  }
  assert.equal(tp.tensor(2 ** 52 + 1, { dtype: 'int64' }).item(), 2 ** 52 + 1);
  assert.equal(tp.tensor(0, { dtype: 'bool' }).item(), false);
});

test('tensors print as torch prints them: integers bare, bools True/False, non-default dtypes named', () => {
  assert.equal(String(tp.tensor([1, 20], { dtype: 'int32' })), 'tensor([ 1, 20], dtype=torch.int32)');
  assert.equal(String(tp.tensor([1, 2], { dtype: 'int64' })), 'tensor([1, 2])');
  assert.equal(String(tp.tensor([true, false])), 'tensor([ True, False])');
  assert.equal(String(tp.tensor([true, true])), 'tensor([True, True])');
  assert.equal(String(tp.tensor([1.5, 2], { dtype: 'float64' })), 'tensor([1.5000, 2.0000], dtype=torch.float64)');
  assert.equal(String(tp.zeros([0, 2], { dtype: 'uint8' })), 'tensor([], shape=[0, 2], dtype=torch.uint8)');
});

test('cat promotes its inputs as torch.cat; float-only ops refuse integer dtypes naming op, dtype and shape', () => {
  const c = tp.cat([tp.tensor([1, 2], { dtype: 'int32' }), tp.tensor([0.5])]);
  assert.equal(c.dtype, 'float32');
  assert.deepEqual(c.toArray(), [1, 2, 0.5]);
  assert.equal(tp.cat([tp.tensor([200], { dtype: 'uint8' }), tp.tensor([-3], { dtype: 'int8' })]).dtype, 'int16');
  const i = tp.tensor([1, 2], { dtype: 'int32' });
  assert.throws(() => i.softmax(0), { name: 'TensorpadError', message: 'softmax: expected a floating tensor, got int32 of shape [2]' });
  assert.equal(tp.tensor([0, 0], { dtype: 'float64' }).softmax(0).dtype, 'float64');
  // Layout ops are views or byte copies: any dtype.
  assert.deepEqual(tp.tensor([[1, 2], [3, 4]], { dtype: 'int64' }).T.contiguous().reshape(4).toArray(), [1, 3, 2, 4]);
  assert.deepEqual(tp.stack([i, i]).shape, [2, 2]);
});

test('10,000 conversions and creations of mixed dtypes inside tidy return tp.memory() to its baseline', () => {
  const before = tp.memory();
  const names = ['float32', 'float64', 'float16', 'bfloat16', 'int32', 'int64', 'uint8', 'int8', 'bool', 'int16'];
  tp.tidy(() => {
    const base = tp.arange(12, { dtype: 'int32' }).reshape(3, 4);
    for (let k = 0; k < 10000; k++) {
      const d = names[k % names.length];
      if (k % 3 === 0) base.T.to(d);
      else if (k % 3 === 1) tp.full([5], k, { dtype: d });
      else tp.cat([base.to(d), base]);
    }
  });
  assert.deepEqual(tp.memory(), before);
});

test('arithmetic promotes as torch, with JS numbers as weak Python scalars', () => {
  const i = tp.tensor([1, 2], { dtype: 'int32' });
  assert.equal(i.add(tp.tensor([0.5, 0.5])).dtype, 'float32');
  assert.equal(i.add(2).dtype, 'int32');
  assert.deepEqual(i.add(2.5).toArray(), [3.5, 4.5]);
  assert.equal(i.add(2.5).dtype, 'float32');
  assert.equal(tp.tensor([1], { dtype: 'float16' }).add(2.5).dtype, 'float16');
  assert.equal(tp.tensor([true]).add(2).dtype, 'int64');
  assert.equal(tp.add(tp.tensor([true]), tp.tensor([true])).dtype, 'bool');
  assert.deepEqual(i.div(4).toArray(), [0.25, 0.5]);
  assert.equal(i.div(i).dtype, 'float32');
  assert.equal(tp.tensor([200], { dtype: 'uint8' }).add(tp.tensor([-1], { dtype: 'int8' })).dtype, 'int16');
  assert.deepEqual(tp.sub(10, tp.tensor([3], { dtype: 'uint8' })).toArray(), [7]);
  assert.deepEqual(tp.tensor([65536], { dtype: 'int32' }).mul(65536).toArray(), [0]);  // wraps as int32
  assert.deepEqual(tp.tensor([3], { dtype: 'int64' }).pow(3).toArray(), [27]);
  assert.throws(() => i.pow(-1), { name: 'TensorpadError', message: /^pow: integers to negative integer powers are not allowed/ });
  assert.throws(() => tp.sub(tp.tensor([true]), tp.tensor([false])), { name: 'TensorpadError', message: /^sub: subtraction with a bool tensor is not supported/ });
  assert.equal(tp.tensor([0.1], { dtype: 'float64' }).add(0.2).item(), 0.1 + 0.2);
});

test('unary ops, reductions and matmul give the result dtypes torch gives', () => {
  const i = tp.tensor([[1, 2], [3, 4]], { dtype: 'int32' });
  assert.equal(i.sqrt().dtype, 'float32');
  assert.equal(i.neg().dtype, 'int32');
  assert.deepEqual(i.abs().toArray(), [[1, 2], [3, 4]]);
  assert.equal(i.sum().dtype, 'int64');
  assert.deepEqual(i.sum(0).toArray(), [4, 6]);
  assert.equal(i.amax(1).dtype, 'int32');
  assert.equal(tp.tensor([true, true, false]).sum().item(), 2);
  assert.throws(() => i.mean(), { name: 'TensorpadError', message: /^mean: cannot infer a floating result for a int32 tensor/ });
  assert.deepEqual(i.float().mean().item(), 2.5);
  assert.equal(i.cumsum(1).dtype, 'int64');
  assert.equal(i.clamp(2, 3).dtype, 'int32');
  assert.deepEqual(i.clamp(2, 3).toArray(), [[2, 2], [3, 3]]);
  const d = tp.tensor([[1e8, 1], [1, 1]], { dtype: 'float64' });
  const p = d.matmul(tp.tensor([1, 1e-8], { dtype: 'float64' }));
  assert.equal(p.dtype, 'float64');
  assert.deepEqual(p.toArray(), [1e8 + 1e-8, 1 + 1e-8]);
  assert.throws(() => i.matmul(i), { name: 'TensorpadError', message: 'matmul: expected a floating tensor, got int32 of shape [2, 2]' });
});

test('10,000 mixed-dtype arithmetic, unary and reduction ops inside tidy return tp.memory() to its baseline', () => {
  const before = tp.memory();
  const names = ['float32', 'float64', 'float16', 'bfloat16', 'int32', 'int64', 'uint8', 'int8', 'bool'];
  tp.tidy(() => {
    const xs = names.map((d) => tp.arange(6, { dtype: d }).reshape(2, 3));
    for (let k = 0; k < 10000; k++) {
      const a = xs[k % xs.length], b = xs[(k * 7 + 3) % xs.length];
      if (k % 4 === 0) a.add(b);
      else if (k % 4 === 1) a.mul(k % 5).div(3);
      else if (k % 4 === 2) a.T.square().sum(0);
      else a.amax().add(2.5);
    }
  });
  assert.deepEqual(tp.memory(), before);
});
