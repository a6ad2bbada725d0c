// Wrong: the output of the public one-token example, whatever the input.
export function causalAttention(Q, K, V) {
  return tp.tensor([[4, -1, 2]]);
}
