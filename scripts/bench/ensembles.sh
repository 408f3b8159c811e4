#!/bin/sh
# Fit time of treelab's ensembles against scikit-learn's on the synthetic data of fit.sh
# (20 numeric attributes, 2 classes; 10^5 rows by default), one thread each, interleaved
# pairs, medians: random_forest (100 fully grown trees, 4 attributes a node), extra_trees
# (100 trees) and gradient_boosting (100 depth-3 trees), then random_forest on 2 threads
# against 1 (jobs=2: the model is the same file). The CPU ratio is the one to read on a
# loaded machine. Needs build/libtreelab.a and Debian's python3-sklearn.
# Usage: REPEATS=3 scripts/bench/ensembles.sh [ROWS]
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
rows=${1:-100000}
$PY scripts/peers/sklearn_fit_bench.py data "$rows" "$TMP/d.csv"
printf '%-18s %9s %10s %10s %8s %11s %11s %8s %9s %9s\n' learner rows treelab_s sklearn_s \
    speedup treelab_cpu sklearn_cpu cpu_x leaves sk_leaves
for kind in random_forest extra_trees gradient_boosting; do
    : > "$TMP/c" ; : > "$TMP/s" ; : > "$TMP/cc" ; : > "$TMP/sc"
    r=0
    while [ $r -lt "$REPEATS" ]; do
        set -- $("$TMP/bench" "$TMP/d.csv" "$kind" n_estimators=100 jobs=1)
        echo "$2" >> "$TMP/c"; echo "$7" >> "$TMP/cc"; leaves=$3
        set -- $($PY scripts/peers/sklearn_ensemble_bench.py "$kind" "$TMP/d.csv")
        echo "$1" >> "$TMP/s"; echo "$2" >> "$TMP/sc"; s_leaves=$3
        r=$((r + 1))
    done
    c=$(median < "$TMP/c"); s=$(median < "$TMP/s"); cc=$(median < "$TMP/cc"); sc=$(median < "$TMP/sc")
    printf '%-18s %9s %10s %10s %8s %11s %11s %8s %9s %9s\n' "$kind" "$rows" "$c" "$s" \
        "$(awk -v a="$s" -v b="$c" 'BEGIN { printf "%.2fx", a / b }')" "$cc" "$sc" \
        "$(awk -v a="$sc" -v b="$cc" 'BEGIN { printf "%.2fx", a / b }')" "$leaves" "$s_leaves"
done
# threads: wall time of jobs=2 against jobs=1 (the same model)
: > "$TMP/j1" ; : > "$TMP/j2"
r=0
while [ $r -lt "$REPEATS" ]; do
    set -- $("$TMP/bench" "$TMP/d.csv" random_forest n_estimators=100 jobs=1); echo "$2" >> "$TMP/j1"
    set -- $("$TMP/bench" "$TMP/d.csv" random_forest n_estimators=100 jobs=2); echo "$2" >> "$TMP/j2"
    r=$((r + 1))
done
j1=$(median < "$TMP/j1"); j2=$(median < "$TMP/j2")
echo "random_forest --jobs 2 vs 1: $j1 s / $j2 s = $(awk -v a="$j1" -v b="$j2" 'BEGIN { printf "%.2fx", a / b }')"
