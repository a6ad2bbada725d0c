// A typed program against the package's declarations (tests/js/api-doc.test.mjs runs tsc --noEmit on it;
// the pack test runs it inside an installed copy). Lines marked @ts-expect-error must stay errors.
import { init, TensorpadError, type Tensor, type Tp } from 'tensorpad';

async function main(): Promise<void> {
  const tp: Tp = await init();
  const A: Tensor = tp.randn([4, 3], { seed: 1 });
  const B = tp.randn(3, 5, { seed: 2 });
  const C = A.matmul(B);
  const byOuter = tp.tidy(() => {
    let acc = tp.zeros([4, 5]);
    for (let k = 0; k < 3; k++) acc = acc.add(tp.outer(A.select(1, k), B.select(0, k)));
    return acc;
  });
  const same: boolean = tp.allclose(C, byOuter, { atol: 1e-6 });
  const shape: number[] = C.sum(-1, { keepdim: true }).shape;
  const { U, S, Vh } = tp.linalg.svd(A);
  const rank: number | Tensor = tp.linalg.matrixRank(A);
  const att = tp.nn.scaledDotProductAttention(A, A, A, { causal: true, returnWeights: true });
  const w: Tensor = att.weights;
  const q = tp.quant.quantize(A, { bits: 8, perRow: true });
  const levels: Int8Array = q.q;
  const file = await tp.io.open(tp.io.saveNpy(A));
  const first: Tensor = await file.get(file.tensors[0].name);
  const mem: number = tp.memory().bytes;
  console.log(same, shape, U.shape, S.shape, Vh.shape, rank, w.shape, levels.length, first.shape, mem);
  try {
    A.matmul(tp.zeros([4, 5]));
  } catch (e) {
    if (e instanceof TensorpadError) console.log(e.op);
  }
  // @ts-expect-error: keepdim is a boolean
  A.sum(0, { keepdim: 1 });
  // @ts-expect-error: tp.linalg has no eig (only eigh)
  tp.linalg.eig(A);
}
main();

// The judge as a library (tensorpad/judge).
import { judge, listExercises } from 'tensorpad/judge';
async function grade(): Promise<number> {
  const ids: string[] = listExercises().map((e) => e.id);
  const r = await judge(ids[0], 'export const f = () => 1;', { seed: 2, lang: 'zh' });
  // @ts-expect-error: the language is en or zh
  await judge(ids[0], '', { lang: 'fr' });
  return r.status === 'pass' ? r.passed : r.failed;
}
grade();
