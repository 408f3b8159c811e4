#!/usr/bin/env bash
# configs/ensembles.cfg runs end to end: every cell, the Friedman test in the summary and the
# critical-difference figure. Usage: tests/ensembles_config_test.sh build/treelab
set -euo pipefail
treelab=$(realpath "$1")
cd "$(dirname "$0")/.."
out=$(mktemp -d /tmp/tl_ensembles.XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "ensembles_config: $*" >&2; exit 1; }
"$treelab" run configs/ensembles.cfg --out "$out/r" --jobs 2 --quiet || fail "treelab run failed"
rows=$(($(wc -l < "$out/r/metrics.csv") - 1))
[ "$rows" -eq $((4 * 8 * 10)) ] || fail "$rows cells in metrics.csv, expected 320"
grep -q "Friedman" "$out/r/summary.md" || fail "no Friedman test in the summary"
[ -s "$out/r/plots/critical_difference.dat" ] || fail "no critical-difference figure"
for m in forest_cart forest_hellinger bagged_c45 boosting adaboost_stumps; do
  grep -q "^| $m |" "$out/r/summary.md" || fail "no row for $m in the summary"
done
echo "ensembles_config: $rows cells"
