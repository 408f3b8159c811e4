#!/usr/bin/env bash
# configs/soft_trees_small.cfg (every soft-tree gate x shape and two soft forests against C4.5
# and CART, in small)
# runs end to end: every cell, the size_accuracy figure, and the same metrics, trees and
# training traces with --jobs 1 and --jobs 2. The full configs/soft_trees.cfg is only parsed
# (tests/test_config.c). Usage: tests/soft_trees_config_test.sh build/treelab
set -euo pipefail
treelab=$(realpath "$1")
cd "$(dirname "$0")/.."
out=$(mktemp -d /tmp/tl_soft_trees.XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "soft_trees_config: $*" >&2; exit 1; }
for jobs in 1 2; do
  "$treelab" run configs/soft_trees_small.cfg --out "$out/j$jobs" --jobs $jobs --quiet \
    || fail "treelab run --jobs $jobs failed"
done
rows=$(($(wc -l < "$out/j1/metrics.csv") - 1))
[ "$rows" -eq $((1 * 9 * 3)) ] || fail "$rows cells in metrics.csv, expected 27"
[ -s "$out/j1/plots/size_accuracy_iris.dat" ] || fail "size_accuracy not drawn"
for m in smooth_step_oblivious soft_forest_dndf; do
  grep -q "$m" "$out/j1/plots/size_accuracy_iris.dat" || fail "size_accuracy lacks $m"
done
cmp "$out/j1/metrics.csv" "$out/j2/metrics.csv" || fail "metrics differ between --jobs 1 and 2"
for d in trees trace; do
  diff -r "$out/j1/$d" "$out/j2/$d" > /dev/null || fail "$d differ between --jobs 1 and 2"
done
echo "soft_trees_small: $rows cells, size_accuracy drawn, --jobs 1 and 2 identical"
