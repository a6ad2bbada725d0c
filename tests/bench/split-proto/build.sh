#!/bin/bash
# The dynamic-linking prototype of split.md (Emscripten 3.1.6): A = static, B = -fPIC + MAIN_MODULE=2,
# side.wasm = SIDE_MODULE=1 calling B's sgemm; C/D the same with -pthread (D static). Run from this folder:
#   NODE_PATH=/usr/share/nodejs ./build.sh && node run.cjs A && node run.cjs B side.wasm && node run_thr.cjs C side_mt.wasm
set -euo pipefail
S=../../../cpp/src; I="-std=c++17 -I../../../cpp/include"; F="-O3 -msimd128 -fwasm-exceptions"
EXP=_tpx_alloc,_tpx_free,_tpx_time_gemm,_tpx_set_threads
DYN=$EXP,__ZN2tp6detail9run_partsEiPFvPKviES2_,__ZN2tp7kernels5sgemmExxxPKfxxS2_xxPfxb
SRC="main.cpp $S/gemm.cpp $S/work_pool.cpp $S/error.cpp"
ST="-sMODULARIZE=1 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB"
MT="-sMODULARIZE=1 -sEXPORT_NAME=createProto -sENVIRONMENT=node,worker -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -sMAXIMUM_MEMORY=2GB -sPTHREAD_POOL_SIZE=2 -Wno-pthreads-mem-growth"
mkdir -p A B C D
em++ $F $I $SRC -o A/main.js $ST -sEXPORTED_FUNCTIONS=$EXP
em++ $F $I -fPIC $SRC -o B/main.js $ST -sMAIN_MODULE=2 -sEXPORTED_FUNCTIONS=$DYN -sEXPORTED_RUNTIME_METHODS=loadDynamicLibrary,loadWebAssemblyModule
em++ $F $I -fPIC side.cpp -sSIDE_MODULE=1 -o side.wasm
em++ $F -pthread $I $SRC -o D/main.js $MT -sEXPORTED_FUNCTIONS=$EXP
em++ $F -pthread $I -fPIC $SRC -o C/main.js $MT -sMAIN_MODULE=2 -sEXPORTED_FUNCTIONS=$DYN -sEXPORTED_RUNTIME_METHODS=loadDynamicLibrary,loadWebAssemblyModule
em++ $F -pthread $I -fPIC side.cpp -sSIDE_MODULE=1 -o side_mt.wasm
