// Right, written like a notebook cell: plain declarations, no export statements.
function loraParams(dOut, dIn, r) {
  return r * (dOut + dIn);
}
const loraFraction = (dOut, dIn, r) => loraParams(dOut, dIn, r) / (dOut * dIn);
