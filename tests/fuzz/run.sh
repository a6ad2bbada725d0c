#!/usr/bin/env bash
# Builds the libFuzzer targets of the file readers (safetensors, .npy) with clang and ASan/UBSan, and runs
# each for a bounded number of iterations from the seed corpus. Exit status is non-zero on any finding;
# the crashing input is left in build/fuzz/artifacts/ and should become a case in tests/cpp/test_io.cpp.
# Usage: tests/fuzz/run.sh [runs] [seconds]      (defaults: 20000 runs, at most 20 s per target)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-20000}
seconds=${2:-20}
out=build/fuzz
mkdir -p "$out/artifacts"

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (run .ci/setup, which installs clang and libclang-rt-14-dev)"; exit 1
fi

srcs=(cpp/src/io_dtype.cpp cpp/src/io_npy.cpp cpp/src/io_safetensors.cpp cpp/src/io_safetensors_json.cpp cpp/src/error.cpp cpp/src/sort_order.cpp)
flags=(-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Icpp/include)

for target in safetensors npy; do
  bin=$out/fuzz_$target
  # Rebuild only when a source is newer than the binary: the build takes most of the time.
  if [[ ! -x $bin ]] || [[ -n $(find "${srcs[@]}" cpp/include/tensorpad/io.hpp cpp/include/tensorpad/error.hpp cpp/src/io_safetensors_text.hpp \
                                  tests/fuzz/fuzz_$target.cpp -newer "$bin" 2>/dev/null) ]]; then
    echo "fuzz: building $bin"
    clang++ "${flags[@]}" tests/fuzz/fuzz_$target.cpp "${srcs[@]}" -o "$bin"
  fi
  # Work on a copy of the seeds so new corpus entries stay out of the repository.
  work=$out/corpus_$target
  mkdir -p "$work"
  cp -n tests/fuzz/corpus/$target/* "$work"/ 2>/dev/null || true
  echo "fuzz: $target, $runs runs or ${seconds}s"
  "$bin" -runs="$runs" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -dict=tests/fuzz/$target.dict -artifact_prefix="$out/artifacts/${target}-" -print_final_stats=1 \
    "$work" 2>"$out/fuzz_$target.log" || { tail -40 "$out/fuzz_$target.log"; echo "fuzz: $target FAILED"; exit 1; }
  grep -E "stat::number_of_executed_units|cov:" "$out/fuzz_$target.log" | tail -2
done
echo "fuzz: no findings"
