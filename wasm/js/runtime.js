// The runtime of one tp instance: the core's pending errors as TensorpadErrors, handles wrapped as
// Tensors (and freed by dispose, tidy scopes or a FinalizationRegistry backstop), operands given as JS
// data turned into temporary tensors, other handle types (tp.quant's) and the live-memory count.
// Every namespace module receives this object (rt); api.js makes it and fills rt.ops, the op functions
// the Tensor class's methods call.
import { TensorpadError, fail, describe, renamed } from './errors.js';
import { tensorClass } from './tensor.js';
import { fromData } from './creation.js';
import { restoringStack } from './stack.js';
import { withCalls } from './calls.js';

// finalizers: false leaves tensors to dispose, tidy and the end of the instance. Node's judge workers
// use it: Node 20 can abort (NodePlatform::ForIsolate check) when a worker that has pending
// FinalizationRegistry cleanups is torn down, and those workers live for one judgement.
export function createRuntime(wasmCore, { finalizers = true } = {}) {
  const core = withCalls(restoringStack(wasmCore));
  const registry = finalizers ? new FinalizationRegistry((id) => core.release(id)) : null;
  const scopes = []; // tidy scopes: each a Set of the tensors (and other handles) created inside it
  // Handle types beyond Tensor (tp.quant's QuantizedTensor) that tidy, tp.dispose and tp.memory treat
  // as they treat tensors; each {name, type, memory: () => ({count, bytes})}, added through
  // rt.addHandleType by the namespace that owns it. Their objects join scopes through rt.track.
  const handleTypes = [];
  const isHandle = (v) => v instanceof rt.Tensor || handleTypes.some((h) => v instanceof h.type);
  const track = (obj) => { if (scopes.length) scopes[scopes.length - 1].add(obj); };
  const untrack = (obj) => { for (const s of scopes) s.delete(obj); };
  const addHandleType = (h) => handleTypes.push(h);

  // Throws the core's pending error, if any; given the op the user called, an error the core raised
  // under a helper's name ("alloc: out of memory ...") is reported under that op.
  function check(op) {
    if (!core.errorPending()) return;
    let message = core.takeError();
    if (/out of memory/.test(message)) {
      if (message.startsWith('out of memory')) message = `alloc: ${message}`; // std::bad_alloc names no op
      // A fragmented heap is explained by the core (heap_report in cpp/src/tensor.cpp): live tensors
      // are not what blocks the allocation there, so they are not blamed.
      if (!/not in one piece/.test(message)) message += memoryAdvice();
    }
    throw renamed(new TensorpadError(message), op);
  }
  // Live handles per type ({tensors, quantized}) and the bytes of the WASM heap they hold together, and
  // apart (scratch) the bytes the core keeps between calls for its own work (eigh's and svd's
  // back-transformation, up to 16 MB), which no dispose frees.
  function liveMemory() {
    const m = { tensors: core.liveHandles(), bytes: core.liveBytes() };
    for (const h of handleTypes) {
      const { count, bytes } = h.memory();
      m[h.name] = count;
      m.bytes += bytes;
    }
    m.scratch = core.linalgScratchBytes();
    return m;
  }
  // What an out-of-memory error adds: tensors are freed by dispose, tidy or (only between tasks, never
  // inside a running loop, and at a time of its choosing) the garbage collector, so a loop that drops its results runs out of heap.
  function memoryAdvice() {
    const { tensors, bytes } = liveMemory();
    const mb = (bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0);
    return ` (${tensors} live tensors hold ${mb} MB; the garbage collector frees unreachable tensors only ` +
      'some time after the running code returns, not at once, so free them as you go: t.dispose(), or ' +
      'tp.tidy(() => ...), which frees every tensor the function creates and does not return)';
  }

  function wrap(id, op) {
    check(op);
    const t = new rt.Tensor(id);
    registry?.register(t, id, t);
    track(t);
    return t;
  }
  // Runs fn with handles for each argument: tensors pass through, numbers and arrays become
  // temporary tensors that are released afterwards.
  // Errors the core raises under a helper's name are reported under op.
  function withHandles(op, args, fn) {
    const temps = [];
    try {
      const ids = args.map((a) => {
        if (a instanceof rt.Tensor) return a._id(op);
        const t = fromData(rt, a, {}, op);
        temps.push(t);
        return t._id(op);
      });
      return fn(...ids);
    } catch (e) {
      throw renamed(e, op);
    } finally {
      for (const t of temps) t.dispose();
    }
  }

  // tp.tidy: runs fn and disposes every handle created inside it except those it returns (in arrays
  // and plain objects), which join the enclosing scope.
  function tidy(fn) {
    if (typeof fn !== 'function') fail('tidy', `expects a function, got ${describe(fn)}`);
    const scope = new Set();
    scopes.push(scope);
    let result;
    try {
      result = fn();
    } finally {
      scopes.pop();
      const keep = new Set();
      handlesIn(result, (h) => keep.add(h), { plainOnly: true });
      for (const t of scope) if (!keep.has(t)) t.dispose();
      // What survives belongs to the enclosing scope, if any.
      if (scopes.length) for (const t of keep) if (scope.has(t)) scopes[scopes.length - 1].add(t);
    }
    if (result && typeof result.then === 'function') fail('tidy', 'fn must be synchronous (it returned a promise)');
    return result;
  }
  // tp.dispose: every handle in the arguments, arrays and objects.
  function dispose(...xs) {
    handlesIn(xs, (h) => h.dispose());
  }
  // Calls visit on each handle in v: v itself, or one in its arrays and objects, however deep. Each
  // object is entered once, so a structure that contains itself is walked, not recursed into forever
  // (that threw RangeError and left a tidy scope undisposed); of an object only data properties are
  // read, so no getter runs. plainOnly: enter arrays and plain objects only (what tidy keeps), not class instances.
  function handlesIn(v, visit, { plainOnly = false } = {}) {
    const seen = new Set();
    const stack = [v];
    while (stack.length) {
      const x = stack.pop();
      if (isHandle(x)) {
        visit(x);
        continue;
      }
      if (!x || typeof x !== 'object' || seen.has(x)) continue;
      seen.add(x);
      if (Array.isArray(x)) {
        for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
      } else if (!plainOnly || Object.getPrototypeOf(x) === Object.prototype) {
        const props = Object.values(Object.getOwnPropertyDescriptors(x));
        for (let i = props.length - 1; i >= 0; i--) if (props[i].enumerable && 'value' in props[i]) stack.push(props[i].value);
      }
    }
  }

  const rt = {
    core, finalizers, registry, check, wrap, withHandles, track, untrack, addHandleType, liveMemory, tidy, dispose,
    ops: {}, // filled by api.js
  };
  rt.Tensor = tensorClass(rt);
  return rt;
}
