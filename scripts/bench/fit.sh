#!/bin/sh
# Fit time of treelab's CART against scikit-learn's DecisionTreeClassifier on the same
# synthetic data (20 numeric attributes, 2 classes), 10^4, 10^5 and 10^6 rows, one thread
# each, fully grown Gini trees. Pairs are interleaved (treelab, scikit-learn, treelab, ...)
# so a load that comes and goes on a shared machine hits both sides; the medians are
# reported. treelab's time is its own clock around tl_model_fit (no loading), wall and CPU;
# scikit-learn's the same around fit. The CPU ratio is the one to read on a loaded machine
# (a descheduled process loses wall time, not CPU time). Peak memory is the process's
# high-water mark while fitting (reset after loading) against the dataset's size. Leaf counts differ only where
# equally good attributes tie (scripts/peers/sklearn_tree_diff.py shows each such node).
# Needs build/libtreelab.a (./scripts/setup.sh) and Debian's python3-sklearn.
# Usage: REPEATS=3 scripts/bench/fit.sh [ROWS...]   (default: 10000 100000 1000000)
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
HAVE_SK=1
$PY -c 'import sklearn' 2>/dev/null || { HAVE_SK=0; echo "python3-sklearn missing: treelab only" >&2; }
[ $# -gt 0 ] || set -- 10000 100000 1000000
printf '%-9s %10s %10s %8s %10s %10s %8s %8s %8s %12s %10s\n' rows treelab_s sklearn_s speedup \
    treelab_cpu sklearn_cpu cpu_x leaves sk_leaves peak_mb/data data_mb
for rows in "$@"; do
    $PY scripts/peers/sklearn_fit_bench.py data "$rows" "$TMP/d.csv"
    : > "$TMP/c" ; : > "$TMP/s" ; : > "$TMP/cc" ; : > "$TMP/sc"
    r=0
    while [ $r -lt "$REPEATS" ]; do
        set -- $("$TMP/bench" "$TMP/d.csv" cart)
        echo "$2" >> "$TMP/c"
        echo "$7" >> "$TMP/cc"
        leaves=$3 peak=$4 data_mb=$6
        if [ "$HAVE_SK" = 1 ]; then
            set -- $($PY scripts/peers/sklearn_fit_bench.py fit "$TMP/d.csv")
            echo "$1" >> "$TMP/s"
            echo "$3" >> "$TMP/sc"
            s_leaves=$2
        fi
        r=$((r + 1))
    done
    c_s=$(median < "$TMP/c")
    c_cpu=$(median < "$TMP/cc")
    if [ "$HAVE_SK" = 1 ]; then
        s_s=$(median < "$TMP/s")
        s_cpu=$(median < "$TMP/sc")
        ratio=$(awk -v a="$s_s" -v b="$c_s" 'BEGIN { printf "%.2fx", a / b }')
        cpu_ratio=$(awk -v a="$s_cpu" -v b="$c_cpu" 'BEGIN { printf "%.2fx", a / b }')
    else
        s_s=- s_cpu=- s_leaves=- ratio=- cpu_ratio=-
    fi
    mem=$(awk -v a="$peak" -v b="$data_mb" 'BEGIN { printf "%.2f", a / b }')
    printf '%-9s %10s %10s %8s %10s %10s %8s %8s %8s %12s %10s\n' "$rows" "$c_s" "$s_s" "$ratio" \
        "$c_cpu" "$s_cpu" "$cpu_ratio" "$leaves" "$s_leaves" "$mem" "$data_mb"
done
