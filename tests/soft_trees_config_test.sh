#!/usr/bin/env bash
# configs/soft_trees_small.cfg (every soft-tree gate x shape, linear leaves and two soft forests
# against C4.5 and CART, and a distilled soft tree, in small) runs end to end: every cell, the
# size_accuracy figure, and the same metrics, trees and training traces with --jobs 1 and 2.
# The full configs/soft_trees.cfg is only parsed (tests/test_config.c).
# Usage: tests/soft_trees_config_test.sh build/treelab
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
[ "$rows" -eq $((1 * 12 * 3)) ] || fail "$rows cells in metrics.csv, expected 36"
# fidelity: a column, filled for the distilled model's cells only, each a share of 50 test rows
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fidelity") col = i; if (!col) exit 1; next }
         $2 == "distilled_nb" { n++; v = $col * 50; if ($col == "" || v < 0 || v > 50 || v != int(v + 0.5)) exit 2; next }
         $col != "" { exit 3 }
         END { if (n != 3) exit 4 }' "$out/j1/metrics.csv" \
  || fail "fidelity column wrong (awk exit $?)"
# summary.md: a fidelity column, the distilled model's mean (the mean of its three cells in
# metrics.csv) and empty for the others
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fidelity") col = i; next }
                $2 == "distilled_nb" { s += $col; n++ } END { printf "%.4f", s / n }' "$out/j1/metrics.csv")
grep -q '| fidelity | n |' "$out/j1/summary.md" || fail "summary.md has no fidelity column"
grep -q "^| distilled_nb |.* | $want ± [0-9.]* | 3 |\$" "$out/j1/summary.md" \
  || fail "summary.md: distilled_nb's fidelity is not $want"
grep -q '^| cart |.* | | 3 |$' "$out/j1/summary.md" || fail "summary.md: cart has a fidelity"
[ -s "$out/j1/plots/size_accuracy_iris.dat" ] || fail "size_accuracy not drawn"
for m in smooth_step_oblivious sparse linear_leaves soft_forest_dndf; do
  grep -q "$m" "$out/j1/plots/size_accuracy_iris.dat" || fail "size_accuracy lacks $m"
done
cmp "$out/j1/metrics.csv" "$out/j2/metrics.csv" || fail "metrics differ between --jobs 1 and 2"
for d in trees trace; do
  diff -r "$out/j1/$d" "$out/j2/$d" > /dev/null || fail "$d differ between --jobs 1 and 2"
done
echo "soft_trees_small: $rows cells, size_accuracy drawn, --jobs 1 and 2 identical"
