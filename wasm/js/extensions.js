// The namespaces that extend tp beyond the core (tp.linalg.*, tp.nn.*, tp.quant.*, tp.io.*, ...).
// Each entry is install(tp, rt): rt carries the runtime helpers of api.js (wrap, check, withHandles,
// checkInt, checkNumber, checkBool, seedOf, checkShape, options(op, opts, knownKeys), fail, describe, asOp, Tensor,
// core, MAX_DIMS; track, untrack and addHandleType for handle types other than Tensor, see api.js).
import { installNn } from './nn.js';
import { installLinalg } from './linalg.js';
import { installIo } from './io.js';
export const extensions = [installIo, installNn, installLinalg];
