#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang + ASan + UBSan) and runs each for N seconds.
#
#   scripts/fuzz.sh [seconds] [target...]     default: 60 seconds, every target
#
# The committed seeds in fuzz/corpus/<target>/ are read only; what the fuzzer learns goes to
# build/fuzz/corpus/<target>/ and crashes to build/fuzz/artifacts/. Exits non-zero on a crash,
# a leak, a timeout or an out-of-memory input; replay one with `build/fuzz/fuzz/fuzz_<target> <file>`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parser evaluator graph_ops definition json)

cmake -S . -B build/fuzz -DHANDOFF_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS="-O1 -D_GLIBCXX_ASSERTIONS" >/dev/null
if ! cmake --build build/fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >build/fuzz/build.log 2>&1; then
  cat build/fuzz/build.log >&2
  exit 1
fi

declare -A dict=([parser]=condition [evaluator]=condition [graph_ops]=graph_ops [definition]=definition [json]=definition)
declare -A max_len=([parser]=4096 [evaluator]=4096 [graph_ops]=4096 [definition]=8192 [json]=8192)
mkdir -p build/fuzz/artifacts
for target in "${targets[@]}"; do
  mkdir -p "build/fuzz/corpus/$target"
  echo "== fuzz_$target for ${seconds}s"
  # -rss_limit_mb and -timeout turn unbounded memory or time on one input into a failure.
  log="build/fuzz/$target.log"
  if ! build/fuzz/fuzz/fuzz_"$target" "build/fuzz/corpus/$target" "fuzz/corpus/$target" \
      -dict="fuzz/${dict[$target]}.dict" -max_len="${max_len[$target]}" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="build/fuzz/artifacts/$target-" >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "fuzz_$target failed (log: $log; inputs: build/fuzz/artifacts/)" >&2
    exit 1
  fi
  # The last status line (execs, cov, ft, corpus) and the final stats.
  grep -E '^#[0-9]+' "$log" | tail -n 1
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log"
done
