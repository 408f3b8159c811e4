#!/bin/sh
# CART pruned by cost-complexity with alpha chosen by 10-fold CV (treelab's `cart prune=cv`)
# against scikit-learn doing the same exact selection (scripts/peers/sklearn_ccp_cv_bench.py:
# the path on all rows, each fold's tree fitted once and pruned at every midpoint alpha in
# turn), one thread each, pairs interleaved, medians reported. Default data: R's mlbench
# LetterRecognition (20000 x 16, 26 classes), written as CSV with the class last.
# The two sides draw different folds, so their chosen trees may differ; the path lengths
# (distinct alphas of the full tree) are printed to compare the full trees, which part only
# where attributes tie (scripts/peers/sklearn_tree_diff.py).
# Usage: REPEATS=3 scripts/bench/ccp_cv.sh [DATA.csv]
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
DATA=${1:-}
if [ -z "$DATA" ]; then
    DATA=$TMP/letter.csv
    Rscript -e 'library(mlbench); data(LetterRecognition); d <- LetterRecognition[, c(2:17, 1)];
                write.csv(d, commandArgs(TRUE)[1], row.names = FALSE, quote = FALSE)' "$DATA"
fi
: > "$TMP/c"; : > "$TMP/s"
r=0
while [ $r -lt "$REPEATS" ]; do
    set -- $("$TMP/bench" "$DATA" cart prune=cv)
    echo "$2" >> "$TMP/c"; leaves=$3
    set -- $($PY scripts/peers/sklearn_ccp_cv_bench.py "$DATA")
    echo "$1" >> "$TMP/s"; s_path=$2 s_leaves=$3
    r=$((r + 1))
done
path=$(($(build/treelab path "$DATA" --algo cart | wc -l) - 1))
c_s=$(median < "$TMP/c"); s_s=$(median < "$TMP/s")
printf '%10s %10s %8s %10s %10s %8s %9s\n' treelab_s sklearn_s speedup path sk_path leaves sk_leaves
printf '%10s %10s %8s %10s %10s %8s %9s\n' "$c_s" "$s_s" \
    "$(awk -v a="$s_s" -v b="$c_s" 'BEGIN { printf "%.2fx", a / b }')" "$path" "$s_path" "$leaves" "$s_leaves"
