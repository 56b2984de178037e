#!/usr/bin/env bash
# The main job: build everything, route the seed's triage example in Node, then build the web demo
# and serve it on 127.0.0.1 ($PORT if set, else 5173 if free, else any free port), printing its URL.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
node examples/triage.mjs
echo "building the web demo (web-demo/ -> web-demo/dist)"
bash web-demo/build.sh
exec node web-demo/serve.mjs
