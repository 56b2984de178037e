#!/usr/bin/env bash
# Builds the web demo into web-demo/dist (needs the package built first: bash scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
npx --no-install vite build --config web-demo/vite.config.js "$@"
