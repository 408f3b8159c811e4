#!/usr/bin/env bash
# Set up and build, then run an experiment (default configs/default.cfg) and say where the
# report is.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
config=${1:-configs/default.cfg}
shift || true
exec ./build/treelab run "$config" "$@"
