#!/bin/sh
# Fit time of treelab's ensembles against scikit-learn's on the synthetic data of fit.sh
# (20 numeric attributes, 2 classes; 10^5 rows by default), one thread each, interleaved
# pairs, medians: random_forest (100 fully grown trees, 4 attributes a node), extra_trees
# (100 trees) and gradient_boosting (100 depth-3 trees), then random_forest on 2 threads
# against 1 (jobs=2: the model is the same file). random_forest is also timed against R's
# ranger (num.threads = 1, scripts/peers/ranger_fit_bench.R) in the same pairs. The CPU ratio
# is the one to read on a loaded machine (the load average is printed before and after).
# Needs build/libtreelab.a, Debian's python3-sklearn and r-cran-ranger (NO_RANGER=1: without).
# Usage: REPEATS=3 scripts/bench/ensembles.sh [ROWS]
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
rows=${1:-100000}
$PY scripts/peers/sklearn_fit_bench.py data "$rows" "$TMP/d.csv"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$TMP/rc" ; : > "$TMP/rr"
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
        if [ "$kind" = random_forest ] && [ "${NO_RANGER:-0}" != 1 ]; then
            tail -n 1 "$TMP/cc" >> "$TMP/rc" # the pair: this treelab fit, then ranger's
            set -- $(Rscript scripts/peers/ranger_fit_bench.R "$TMP/d.csv")
            echo "$2" >> "$TMP/rr"; r_leaves=$3
        fi
        r=$((r + 1))
    done
    c=$(median < "$TMP/c"); s=$(median < "$TMP/s"); cc=$(median < "$TMP/cc"); sc=$(median < "$TMP/sc")
    printf '%-18s %9s %10s %10s %8s %11s %11s %8s %9s %9s\n' "$kind" "$rows" "$c" "$s" \
        "$(awk -v a="$s" -v b="$c" 'BEGIN { printf "%.2fx", a / b }')" "$cc" "$sc" \
        "$(awk -v a="$sc" -v b="$cc" 'BEGIN { printf "%.2fx", a / b }')" "$leaves" "$s_leaves"
done
if [ -s "$TMP/rr" ]; then
    rc=$(median < "$TMP/rc"); rr=$(median < "$TMP/rr")
    echo "random_forest vs ranger (CPU s): treelab $rc, ranger $rr = $(awk -v a="$rr" -v b="$rc" \
        'BEGIN { printf "%.2fx", a / b }') (ranger's mean leaves $r_leaves)"
fi
# threads: wall time of jobs=2 against jobs=1 (the same model)
: > "$TMP/j1" ; : > "$TMP/j2" ; : > "$TMP/jc1" ; : > "$TMP/jc2"
r=0
while [ $r -lt "$REPEATS" ]; do
    set -- $("$TMP/bench" "$TMP/d.csv" random_forest n_estimators=100 jobs=1); echo "$2" >> "$TMP/j1"
    echo "$7" >> "$TMP/jc1"
    set -- $("$TMP/bench" "$TMP/d.csv" random_forest n_estimators=100 jobs=2); echo "$2" >> "$TMP/j2"
    echo "$7" >> "$TMP/jc2"
    r=$((r + 1))
done
j1=$(median < "$TMP/j1"); j2=$(median < "$TMP/j2"); jc1=$(median < "$TMP/jc1"); jc2=$(median < "$TMP/jc2")
# CPU seconds too: with other work on the cores the wall ratio says little (jobs=2 waits)
echo "random_forest --jobs 2 vs 1: $j1 s / $j2 s = $(awk -v a="$j1" -v b="$j2" 'BEGIN { printf "%.2fx", a / b }') (CPU $jc1 / $jc2 s)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
