#!/usr/bin/env bash
# Every test suite: native (GoogleTest, also built by clang with -Werror under ASan + UBSan),
# clang-tidy, a fuzz smoke run, Node, and Chromium.
set -euo pipefail
# Each stage says how long the run has taken so far, so that a slow stage shows in the CI log
# (npm test must stay under 15 minutes on 2 cores).
stage() { echo "== [${SECONDS} s] $*"; }
cd "$(dirname "$0")/.."
bash scripts/setup.sh

stage "the JS contract (js/contract.js) is generated from src/core/contract.h and up to date"
node scripts/gen-contract.mjs --check

bash scripts/build.sh

stage "native tests (GoogleTest)"
ctest --test-dir build/native --output-on-failure

# One clang build serves two checks: the second compiler with -Werror, and the sanitizers.
stage "native tests built by clang++-14 (-Wall -Wextra -Werror) under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build/asan -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Debug -DHANDOFF_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >/dev/null
cmake --build build/asan -j"$(nproc)" --target handoff_tests
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build/asan/handoff_tests --gtest_brief=1

stage "clang-tidy-14 over src/ (.clang-tidy): no findings"
# The compile commands are g++'s; -Wno-restrict (GCC bug 105329) is unknown to clang. clang-tidy
# counts the warnings it suppressed in system headers ("N warnings generated."): shown on failure only.
tidy_log=$(mktemp)
if ! find src -name '*.cpp' -print0 | xargs -0 -n 3 -P "$(nproc)" \
    clang-tidy-14 -p build/native --quiet --extra-arg=-Wno-unknown-warning-option >"$tidy_log" 2>&1; then
  grep -v 'warnings generated' "$tidy_log" >&2
  rm -f "$tidy_log"
  exit 1
fi
rm -f "$tidy_log"

# libFuzzer targets (fuzz/, clang + ASan + UBSan) from the committed corpus; a crash fails the run.
# scripts/fuzz.sh runs them longer (60 s each by default).
fuzz_seconds=${HANDOFF_FUZZ_SECONDS:-5}
stage "fuzz smoke: each fuzz target for ${fuzz_seconds} s"
bash scripts/fuzz.sh "$fuzz_seconds"

stage "TypeScript typings (tsc --strict)"
npx --no-install tsc -p tests/types
npx --no-install tsc -p tests/types/agents

stage "the JS linter (biome lint, biome.jsonc): no findings"
npx --no-install biome lint --error-on-warnings

stage "the package's JavaScript type-checked (tsc -p js, checkJs): no findings"
npx --no-install tsc -p js

stage "the typed JavaScript (// @ts-check) type-checked strictly (js/tsconfig.strict.json): no findings"
npx --no-install tsc -p js/tsconfig.strict.json

stage "each runtime entry (node, browser, deno, inline, router-node) against the declarations package.json gives it"
npx --no-install tsc -p tests/types/implementation

stage "the web demo's JavaScript type-checked (tsc -p web-demo, checkJs): no findings"
npx --no-install tsc -p web-demo

stage "the packed tarball: publint and arethetypeswrong"
pack_dir=$(mktemp -d)
trap 'rm -rf "$pack_dir"' EXIT
npm pack --silent --pack-destination "$pack_dir" >/dev/null
npx --no-install publint run "$pack_dir"/handoff-graph-*.tgz
# The .wasm and the schema are assets (no types to resolve); the entries without a `require`
# condition are ESM-only, checked with that profile. Both lists come from package.json's exports.
read -r -a assets < <(node scripts/entrypoints.mjs assets)
read -r -a esm_only < <(node scripts/entrypoints.mjs esm-only)
npx --no-install attw "$pack_dir"/handoff-graph-*.tgz --exclude-entrypoints "${assets[@]}" "${esm_only[@]}"
npx --no-install attw "$pack_dir"/handoff-graph-*.tgz --entrypoints "${esm_only[@]}" --profile esm-only

stage "benchmark smoke run (tiny budgets: keeps npm run bench working; the figures mean nothing)"
NODE_PATH=/usr/share/nodejs cmake --build build/wasm --target handoff_bench_wasm >/dev/null
node bench/route.mjs --smoke >/dev/null
node bench/machine.mjs --quick >/dev/null
node bench/swarm.mjs --quick >/dev/null

stage "JavaScript tests (node --test): Node, Chromium, the packed tarball, its consumers (Node, TypeScript, bundlers, Bun, Deno, workerd, edge-runtime)"
node --test tests/js/ tests/browser/ tests/package/ tests/consumers/
stage "done"
