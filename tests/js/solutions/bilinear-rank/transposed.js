// Wrong: builds the form with the factors swapped (W_K W_Qᵀ) and reports dk as the rank.
export function bilinearForm(Wq, Wk) { return Wk.matmul(Wq.T); }
export function formRank(Wq, Wk) { return Wq.shape[1]; }
