// Wrong: returns the raw logits without a softmax, and embeds the ids in reverse order.
export function embed(E, ids) { return tp.stack([...ids].reverse().map((id) => E.select(0, id))); }
export function nextTokenProbs(H, Wout) { return H.select(0, -1).matmul(Wout); }
