// Reference solution of embedding-logits (trusted; runs in the judge's oracle worker, tp is a global).

// E is (V, d): a lookup of one row per id, stacked into the (n, d) state.
export function embed(E, ids) {
  return tp.stack(ids.map((id) => E.select(0, id)));
}

// H is (n, d), Wout is (d, V): the last position's scores over the vocabulary, as probabilities.
export function nextTokenProbs(H, Wout) {
  return tp.softmax(H.select(0, -1).matmul(Wout), -1);
}
