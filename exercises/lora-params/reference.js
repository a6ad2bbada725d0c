// Reference solution of lora-params (trusted; runs in the judge's oracle worker).
// ΔW = B·A with B of shape (dOut, r) and A of shape (r, dIn): only B and A are trained.

export function loraParams(dOut, dIn, r) {
  return r * dOut + r * dIn;
}

export function loraFraction(dOut, dIn, r) {
  return loraParams(dOut, dIn, r) / (dOut * dIn);
}
