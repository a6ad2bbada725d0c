// Wrong: treats ids as counting from 1 (row id − 1), and predicts from the first position.
export function embed(E, ids) { return tp.stack(ids.map((id) => E.select(0, Math.max(id - 1, 0)))); }
export function nextTokenProbs(H, Wout) { return tp.softmax(H.select(0, 0).matmul(Wout), -1); }
