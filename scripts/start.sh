#!/usr/bin/env bash
# The main job. For now: build, then route the seed's triage example and print the routes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
node examples/triage.mjs
