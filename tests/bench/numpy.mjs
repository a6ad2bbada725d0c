// numpy as a benchmark peer: the Python that runs it, its one-thread environment, and which BLAS it is
// really linked to. A numpy column means nothing without the last: Debian's numpy without OpenBLAS runs
// the reference BLAS, about 10x slower than any numpy a user has (pip, conda, Debian with OpenBLAS).
import { execFileSync } from 'node:child_process';

export const python = '/usr/bin/python3';

// Every BLAS pinned to one thread, like the single-threaded tensorpad it is compared with.
export const env = { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1' };

// Python source of blas_info(): call it in the benchmark's own process after numpy has run, so the
// record describes the library that process used. It returns numpy's version, threadpoolctl's BLAS
// entries (internal_api, version, architecture, num_threads, filepath), or why there are none, and the
// BLAS/LAPACK shared objects mapped into the process.
export const pyBlasInfo = `
def blas_info():
    import numpy
    out = {"numpy": numpy.__version__, "threadpoolctl": None, "blas": [], "mapped": []}
    try:
        import threadpoolctl
        out["threadpoolctl"] = threadpoolctl.__version__
        out["blas"] = [{k: lib.get(k) for k in ("internal_api", "version", "architecture", "num_threads", "filepath")}
                       for lib in threadpoolctl.threadpool_info() if lib.get("user_api") == "blas"]
    except ImportError:
        pass
    with open("/proc/self/maps") as f:
        paths = {line.split()[-1] for line in f if "/" in line}
    out["mapped"] = sorted(p for p in paths if "blas" in p.lower() or "lapack" in p.lower())
    return out
`;

// The BLAS libraries that make a numpy column a fair anchor.
const optimized = new Set(['openblas', 'mkl', 'blis']);

// {label, optimized, reference, ...info} from blas_info()'s output. `optimized` is true only when
// threadpoolctl names an optimized BLAS; `reference` when it names none and the netlib libblas is mapped.
// Only an optimized run may stand in a goal ratio.
export function describeBlas(info) {
  if (!info) return { label: 'numpy unavailable', optimized: false, reference: false };
  const lib = info.blas[0];
  if (lib && optimized.has(lib.internal_api)) {
    const label = `${lib.internal_api} ${lib.version ?? '?'} (${lib.architecture ?? '?'}, ${lib.num_threads} thread${lib.num_threads === 1 ? '' : 's'})`;
    return { ...info, label, optimized: true, reference: false };
  }
  if (lib) return { ...info, label: `${lib.internal_api} ${lib.version ?? '?'} (not an optimized BLAS we know)`, optimized: false, reference: false };
  if (info.threadpoolctl === null) {
    return { ...info, label: 'unknown BLAS (python3-threadpoolctl missing: `.ci/setup --bench` installs it)', optimized: false, reference: false };
  }
  const reference = info.mapped.some((p) => /\/blas\/libblas\.so/.test(p));
  const label = reference
    ? 'REFERENCE BLAS (netlib, ~10x slower than users\' numpy; `.ci/setup --bench` installs OpenBLAS)'
    : `no BLAS threadpoolctl knows (mapped: ${info.mapped.join(', ') || 'none'})`;
  return { ...info, label, optimized: false, reference };
}

// Runs a Python script (which defines and calls blas_info() itself) with numpy's environment.
export function runPython(script, args = [], options = {}) {
  return execFileSync(python, ['-c', pyBlasInfo + script, ...args], { env, maxBuffer: 1 << 24, ...options });
}
