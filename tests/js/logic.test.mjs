// Comparisons, where, maskedFill, logical ops, any/all and isclose through tp: bool results, torch's
// promotion for mixed operands and JS numbers, the errors a user meets, and memory over mixed dtypes.
// (Every op is also checked case by case against torch in torch-ops.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, TensorpadError } from 'tensorpad';

const tp = await init();

test('comparisons return bool tensors and take a tensor, an array or a number on either side', () => {
  tp.tidy(() => {
    const x = tp.tensor([1, 2, 3], { dtype: 'int32' });
    const eq = tp.eq(x, 2);
    assert.equal(eq.dtype, 'bool');
    assert.deepEqual(eq.toArray(), [false, true, false]);
    assert.deepEqual(tp.lt(2, x).toArray(), [false, false, true]);
    assert.deepEqual(x.ge([3, 2, 1]).toArray(), [false, true, true]);
    assert.deepEqual(x.gt(1.5).toArray(), [false, true, true]);  // 1.5 is a float: compared as float32
    assert.deepEqual(tp.ne(tp.tensor([NaN, 1]), tp.tensor([NaN, 1])).toArray(), [true, false]);
  });
});

test('comparisons compare in the promoted dtype, as torch: int32 16777217 equals float32 16777216', () => {
  tp.tidy(() => {
    const i = tp.tensor([16777217], { dtype: 'int32' }), f = tp.tensor([16777216]);
    assert.deepEqual(tp.eq(i, f).toArray(), [true]);
    assert.deepEqual(tp.eq(i, f.double()).toArray(), [false]);
  });
});

test('where picks from a and b by a bool condition, in their promoted dtype, and refuses any other condition', () => {
  tp.tidy(() => {
    const c = tp.tensor([true, false, true], { dtype: 'bool' });
    const r = tp.where(c, tp.tensor([1, 2, 3], { dtype: 'int32' }), 0);
    assert.equal(r.dtype, 'int32');
    assert.deepEqual(r.toArray(), [1, 0, 3]);
    assert.equal(tp.where(c, 1.5, tp.tensor([1, 2, 3], { dtype: 'int64' })).dtype, 'float32');
    const both = tp.where(c, 1, 0);  // two numbers: torch's int64, shaped by the condition
    assert.equal(both.dtype, 'int64');
    assert.deepEqual(both.toArray(), [1, 0, 1]);
    assert.deepEqual(tp.where(tp.tensor([[true], [false]], { dtype: 'bool' }), tp.ones([3]), tp.zeros([2, 1])).toArray(),
      [[1, 1, 1], [0, 0, 0]]);
    assert.throws(() => tp.where(tp.ones([3]), 1, 0), { name: 'TensorpadError', message: 'where: condition must be bool, got float32' });
  });
});

test('maskedFill writes a value where a broadcast bool mask is true and keeps the dtype', () => {
  tp.tidy(() => {
    const scores = tp.zeros([2, 2]);
    const causal = tp.tensor([[false, true], [false, false]], { dtype: 'bool' });
    assert.deepEqual(scores.maskedFill(causal, -Infinity).toArray(), [[0, -Infinity], [0, 0]]);
    const ints = tp.tensor([1, 2, 3], { dtype: 'int64' }).maskedFill(tp.tensor([true, false, true], { dtype: 'bool' }), 7);
    assert.equal(ints.dtype, 'int64');
    assert.deepEqual(ints.toArray(), [7, 2, 7]);
    assert.throws(() => scores.maskedFill(tp.ones([2, 2]), 0), { name: 'TensorpadError', message: /^maskedFill: mask must be bool, got float32/ });
    assert.throws(() => tp.zeros([2]).maskedFill(tp.ones([3], { dtype: 'bool' }), 0), { name: 'TensorpadError', message: /^maskedFill: / });
  });
});

test('logical ops treat non-zero (and NaN) as true; any/all reduce a dim, several or all', () => {
  tp.tidy(() => {
    const a = tp.tensor([0, 2, NaN]), b = tp.tensor([1, 0, 1], { dtype: 'int8' });
    assert.deepEqual(tp.logicalAnd(a, b).toArray(), [false, false, true]);
    assert.deepEqual(tp.logicalOr(a, b).toArray(), [true, true, true]);
    assert.deepEqual(tp.logicalNot(a).toArray(), [true, false, false]);
    const m = tp.tensor([[0, 1], [0, 0]], { dtype: 'int32' });
    assert.deepEqual(m.any(-1).toArray(), [true, false]);
    assert.deepEqual(m.all(0, { keepdim: true }).toArray(), [[false, false]]);
    assert.equal(m.any().dtype, 'bool');
    assert.equal(m.any().item(), true);
    assert.equal(tp.zeros([0]).all().item(), true);
    assert.equal(tp.zeros([0]).any().item(), false);
    assert.throws(() => m.any(2), { name: 'TensorpadError', message: /^any: dim 2 is out of range/ });
  });
});

test('isclose returns bool; allclose and the judge keep their answers', () => {
  tp.tidy(() => {
    const r = tp.isclose([1, NaN, 3], [1, NaN, 3.1], { equalNan: true });
    assert.equal(r.dtype, 'bool');
    assert.deepEqual(r.toArray(), [true, true, false]);
    assert.equal(tp.allclose([1, 2], [1, 2 + 1e-7]), true);
  });
});

test('errors name the op and the offending shapes', () => {
  tp.tidy(() => {
    assert.throws(() => tp.eq(tp.zeros([2]), tp.zeros([3])), (e) => e instanceof TensorpadError && /^eq: .*\[2\].*\[3\]/.test(e.message));
    assert.throws(() => tp.lt(1, 2), { name: 'TensorpadError', message: /^lt: expects at least one tensor/ });
    assert.throws(() => tp.gt(tp.zeros([1]), 'a'), { name: 'TensorpadError', message: /^gt: second operand must be/ });
  });
});

test('10,000 mixed-dtype ops (comparisons, where, logic, arithmetic, reductions) inside tidy return tp.memory() to baseline', () => {
  const before = tp.memory();
  const dtypes = ['float32', 'float64', 'float16', 'bfloat16', 'int32', 'int64', 'uint8', 'int8', 'bool'];
  tp.tidy(() => {
    const xs = dtypes.map((d) => tp.tensor([[1, 0, 3], [0, 2, 1]], { dtype: d }));
    const mask = tp.tensor([[true, false, true]], { dtype: 'bool' });
    for (let k = 0; k < 10000; k++) {
      const a = xs[k % 9], b = xs[(k * 7 + 3) % 9];
      switch (k % 8) {
        case 0: tp.eq(a, b); break;
        case 1: tp.lt(a, 1.5); break;
        case 2: tp.where(mask, a, b); break;
        case 3: a.maskedFill(mask, 1); break;
        case 4: tp.logicalAnd(a, b); break;
        case 5: a.any(-1); break;
        case 6: tp.mul(a.to('float32'), b.to('float32')); break;
        default: a.to('float32').sum(0).to(dtypes[k % 9]); break;
      }
    }
  });
  assert.deepEqual(tp.memory(), before);
});
