#!/bin/sh
# Fit time of treelab's CART against R's rpart on the same synthetic data (20 numeric
# attributes, 2 classes; scripts/peers/sklearn_fit_bench.py data), one thread each, pairs
# interleaved (treelab, rpart, treelab, ...), medians of REPEATS. Matched controls: rpart
# grows with cp = 0, minsplit = 2, minbucket = 1, maxcompete = 0, maxsurrogate = 0,
# usesurrogate = 0, xval = 0 and maxdepth = 30 (rpart's largest), treelab's cart unpruned with
# max_depth = 30 (min_samples_split 2 and min_samples_leaf 1 are its defaults). Each side's
# own clock around the fit alone: tl_model_fit, and system.time around rpart() (which
# includes rpart's model frame). Leaf counts differ where attributes tie exactly (the same
# weighted Gini; treelab takes the first in file order, rpart whichever its rounding favours)
# and the trees part there.
# Needs build/libtreelab.a, Debian's r-cran-rpart and python3-numpy (for the data).
# Usage: REPEATS=3 scripts/bench/rpart.sh [ROWS...]   (default: 10000 100000 1000000)
# Prints a markdown table.
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
command -v Rscript > /dev/null && Rscript -e 'library(rpart)' > /dev/null 2>&1 ||
    { echo "rpart.sh: needs R's rpart (Debian: r-cran-rpart)" >&2; exit 1; }
[ $# -gt 0 ] || set -- 10000 100000 1000000
echo "| rows | treelab fit | rpart fit | speed-up | leaves treelab / rpart | rpart depth |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
for rows in "$@"; do
    $PY scripts/peers/sklearn_fit_bench.py data "$rows" "$TMP/d.csv"
    : > "$TMP/c"; : > "$TMP/r"
    r=0
    while [ $r -lt "$REPEATS" ]; do
        set -- $("$TMP/bench" "$TMP/d.csv" cart max_depth=30)
        echo "$2" >> "$TMP/c"; leaves=$3
        set -- $(Rscript scripts/peers/rpart_fit_bench.R "$TMP/d.csv")
        echo "$1" >> "$TMP/r"; r_leaves=$2 r_depth=$3
        r=$((r + 1))
    done
    c_s=$(median < "$TMP/c"); r_s=$(median < "$TMP/r")
    printf '| %s | %.3f s | %.3f s | %s | %s / %s | %s |\n' "$(rows_label "$rows")" "$c_s" "$r_s" \
        "$(awk -v a="$r_s" -v b="$c_s" 'BEGIN { printf "%.1fx", a / b }')" "$leaves" "$r_leaves" "$r_depth"
done
