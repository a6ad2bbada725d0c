// Cannot load: imports a package that is not installed.
import { count } from 'no-such-package-for-tensorpad';

export const loraParams = count;
export function loraFraction(dOut, dIn, r) {
  return count(dOut, dIn, r) / (dOut * dIn);
}
