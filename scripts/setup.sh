#!/usr/bin/env bash
# Installs what building and testing need, only what is missing, then the npm dev dependencies.
# Idempotent, non-interactive, and safe to run on every `npm test` / `npm start`.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: compilers and libraries for both targets, plus the tools the tests drive.
packages=(
  cmake g++ make          # native build
  emscripten              # WebAssembly build (em++, clang 14, binaryen)
  libgtest-dev            # GoogleTest
  libbenchmark-dev        # Google Benchmark (npm run bench)
  clang-14                # the -Werror build with a second compiler, and the fuzzers
  clang-tidy-14           # static checks over src/ (.clang-tidy)
  libclang-rt-14-dev      # libFuzzer and the sanitizer runtimes for clang
  nlohmann-json3-dev      # JSON for the definition format and the native test harness
  chromium                # browser tests (driven by playwright-core, never downloaded)
  graphviz                # `dot -Tsvg` proves every DOT export parses (tests/js/export.test.mjs)
  redis-server            # RedisStore tests start a real server on 127.0.0.1 (tests/js/stores.test.mjs)
  postgresql              # PostgresStore tests run initdb + postgres on 127.0.0.1 (tests/js/postgres-server.js)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  else
    echo "setup: these Debian packages are missing: ${missing[*]}" >&2
    echo "setup: run as root, or install them: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! { "${sudo[@]}" apt-get update -qq && "${sudo[@]}" apt-get install -y -qq "${missing[@]}"; }; then
    echo "setup: apt-get could not install ${missing[*]}; check the network and the Debian mirror" >&2
    exit 1
  fi
fi

# npm dependencies, exactly as package-lock.json pins them (`npm ci`: it never writes the lock,
# which holds every platform's optional packages, so an install leaves the tree clean); only when
# the lock changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci (from package-lock.json)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# The consumer matrix's own tools (tests/consumers/tools/*), each in a folder with its own lock:
# the newest TypeScript (also named `typescript`, while the root pins TypeScript 5.9), and the
# runtimes beside Node (Bun, Deno, workerd through miniflare, edge-runtime: their binaries come in
# their npm packages).
for tool in tests/consumers/tools/*/; do
  tool=${tool%/}
  if [ ! -f "$tool/node_modules/.package-lock.json" ] || [ "$tool/package-lock.json" -nt "$tool/node_modules/.package-lock.json" ]; then
    echo "setup: npm ci in $tool (from its package-lock.json)"
    (cd "$tool" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done
