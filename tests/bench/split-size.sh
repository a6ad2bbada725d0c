#!/bin/bash
# Scratch measurement (issue 24, split.md): what the web and web-mt cores weigh without the decompositions.
# Re-links build/wasm's own objects (the core's sources as LTO bitcode, the bindings) with the same link line
# as CMakeLists.txt, leaving out the objects named by DROP (default: linalg_*.cpp, ops_linalg.cpp and
# bind_linalg.cpp), and with -sERROR_ON_UNDEFINED_SYMBOLS=0 so that what still refers to them (other
# bindings' rows) becomes an import; then the same wasm-opt -Oz pass, and zlib -9 as core-size.test.mjs.
# Usage (after building tensorpad_core_web and tensorpad_core_web_mt in build/wasm):
#   NODE_PATH=/usr/share/nodejs tests/bench/split-size.sh [build/wasm] [out-dir]
set -euo pipefail
B=$(realpath "${1:-build/wasm}")
OUT=$(realpath -m "${2:-$B/split-scratch}")
DROP=${DROP:-'linalg_[a-z_]*\.cpp\.o|ops_linalg\.cpp\.o|bind_linalg\.cpp\.o'}
mkdir -p "$OUT"
cd "$B"
WASM_OPT=$(em-config BINARYEN_ROOT)/bin/wasm-opt
COMMON=(-O3 -DNDEBUG --bind -Oz -sMODULARIZE=1 -sEXPORT_NAME=createTensorpadCore -sMALLOC=emmalloc -sALLOW_MEMORY_GROWTH=1
  -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=32MB -sFILESYSTEM=0 -sEXPORTED_RUNTIME_METHODS=stackSave,stackRestore)
link() {  # flavor bindings-dir core-dir extra...
  local fl=$1 bd=$2 cd=$3; shift 3
  local objs
  objs=$(ls CMakeFiles/$bd/wasm/*.o CMakeFiles/$cd/cpp/src/*.o | grep -Ev "$DROP")
  mkdir -p "$OUT/$fl"
  em++ "${COMMON[@]}" "$@" -fwasm-exceptions -flto $objs -o "$OUT/$fl/tensorpad_core.js" \
    -sERROR_ON_UNDEFINED_SYMBOLS=0 2> "$OUT/$fl/link.log" || { cat "$OUT/$fl/link.log"; exit 1; }
}
link web tp_bindings.dir tp_core.dir -sENVIRONMENT=web,worker -sEXPORT_ES6=1
"$WASM_OPT" -Oz --low-memory-unused --zero-filled-memory "$OUT/web/tensorpad_core.wasm" -o "$OUT/web/tensorpad_core.wasm" \
  --mvp-features --enable-simd --enable-bulk-memory --enable-exception-handling
if [ -z "${WEB_ONLY:-}" ]; then
  link web-mt tp_bindings_mt.dir tp_core_mt.dir -sMAXIMUM_MEMORY=2GB -pthread \
    "-sPTHREAD_POOL_SIZE=Math.max(2,Math.min(navigator.hardwareConcurrency||2,8))" -sENVIRONMENT=web,worker -sEXPORT_ES6=1 \
    -Wno-pthreads-mem-growth CMakeFiles/tensorpad_core_web_mt.dir/wasm/mt/unwind_wasm.cpp.o
  "$WASM_OPT" -Oz --low-memory-unused --zero-filled-memory "$OUT/web-mt/tensorpad_core.wasm" -o "$OUT/web-mt/tensorpad_core.wasm" \
    --mvp-features --enable-threads --enable-mutable-globals --enable-simd --enable-bulk-memory --enable-sign-ext --enable-exception-handling
fi
for f in "$OUT"/*/tensorpad_core.wasm; do
  node -e 'const fs=require("fs"),z=require("zlib");const b=fs.readFileSync(process.argv[1]);console.log(process.argv[1],"raw",b.length,"zlib9",z.gzipSync(b,{level:9}).length)' "$f"
  grep -o "undefined symbol: [^ ]*" "$(dirname "$f")/link.log" | sort -u || true
done
