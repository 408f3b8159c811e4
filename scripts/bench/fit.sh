#!/bin/sh
# Fit time of treelab's CART against scikit-learn's DecisionTreeClassifier on the same
# synthetic data (20 numeric attributes, 2 classes), 10^4, 10^5 and 10^6 rows, one thread
# each, fully grown Gini trees. Pairs are interleaved (treelab, scikit-learn, treelab, ...)
# so a load that comes and goes on a shared machine hits both sides; the medians are
# reported. treelab's time is its own clock around tl_model_fit (no loading); peak memory is
# the process's high-water mark against the dataset's size. Leaf counts differ only where
# equally good attributes tie (scripts/peers/sklearn_tree_diff.py shows each such node).
# Needs build/libtreelab.a (./scripts/setup.sh) and Debian's python3-sklearn.
# Usage: REPEATS=3 scripts/bench/fit.sh [ROWS...]   (default: 10000 100000 1000000)
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
HAVE_SK=1
$PY -c 'import sklearn' 2>/dev/null || { HAVE_SK=0; echo "python3-sklearn missing: treelab only" >&2; }
[ $# -gt 0 ] || set -- 10000 100000 1000000
printf '%-9s %10s %10s %8s %8s %8s %12s %10s\n' rows treelab_s sklearn_s speedup leaves sk_leaves peak_mb/data data_mb
for rows in "$@"; do
    $PY scripts/peers/sklearn_fit_bench.py data "$rows" "$TMP/d.csv"
    : > "$TMP/c" ; : > "$TMP/s"
    r=0
    while [ $r -lt "$REPEATS" ]; do
        set -- $("$TMP/bench" "$TMP/d.csv" cart)
        echo "$2" >> "$TMP/c"
        leaves=$3 peak=$4 data_mb=$6
        if [ "$HAVE_SK" = 1 ]; then
            set -- $($PY scripts/peers/sklearn_fit_bench.py fit "$TMP/d.csv")
            echo "$1" >> "$TMP/s"
            s_leaves=$2
        fi
        r=$((r + 1))
    done
    c_s=$(median < "$TMP/c")
    if [ "$HAVE_SK" = 1 ]; then
        s_s=$(median < "$TMP/s")
        ratio=$(awk -v a="$s_s" -v b="$c_s" 'BEGIN { printf "%.2fx", a / b }')
    else
        s_s=- s_leaves=- ratio=-
    fi
    mem=$(awk -v a="$peak" -v b="$data_mb" 'BEGIN { printf "%.2f", a / b }')
    printf '%-9s %10s %10s %8s %8s %8s %12s %10s\n' "$rows" "$c_s" "$s_s" "$ratio" "$leaves" "$s_leaves" "$mem" "$data_mb"
done
