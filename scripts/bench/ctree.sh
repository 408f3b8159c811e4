#!/bin/sh
# Fit time of treelab's ctree preset against R's partykit ctree() with their defaults, on the
# same synthetic data (20 numeric attributes, 2 classes, 10% label noise; written by
# scripts/peers/partykit_fit_bench.R), one thread each, pairs interleaved (treelab, partykit,
# treelab, ...), medians of REPEATS. Each side's own clock around the fit alone: tl_model_fit,
# and system.time around ctree() (which includes partykit's model frame): elapsed and CPU time
# (user + system; on a loaded machine the steadier of the two). The leaf counts and
# depths are printed to show the two grow the same tree (tests/test_ctree.c checks the trees
# node by node on the bundled data).
# Needs build/libtreelab.a and Debian's r-cran-partykit.
# Usage: REPEATS=3 scripts/bench/ctree.sh [ROWS...]   (default: 10000 100000)
# Prints a markdown table.
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
command -v Rscript > /dev/null && Rscript -e 'library(partykit)' > /dev/null 2>&1 ||
    { echo "ctree.sh: needs R's partykit (Debian: r-cran-partykit)" >&2; exit 1; }
[ $# -gt 0 ] || set -- 10000 100000
echo "| rows | treelab fit | partykit fit | speed-up | treelab CPU | partykit CPU | CPU speed-up | leaves treelab / partykit | partykit depth |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for rows in "$@"; do
    Rscript scripts/peers/partykit_fit_bench.R data "$rows" "$TMP/d.csv"
    : > "$TMP/c"; : > "$TMP/r"; : > "$TMP/cc"; : > "$TMP/rc"
    r=0
    while [ $r -lt "$REPEATS" ]; do
        set -- $("$TMP/bench" "$TMP/d.csv" ctree)
        echo "$2" >> "$TMP/c"; echo "$7" >> "$TMP/cc"; leaves=$3
        set -- $(Rscript scripts/peers/partykit_fit_bench.R fit "$TMP/d.csv")
        echo "$1" >> "$TMP/r"; echo "$4" >> "$TMP/rc"; r_leaves=$2 r_depth=$3
        r=$((r + 1))
    done
    c_s=$(median < "$TMP/c"); r_s=$(median < "$TMP/r")
    c_cpu=$(median < "$TMP/cc"); r_cpu=$(median < "$TMP/rc")
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }
    printf '| %s | %.3f s | %.3f s | %s | %.3f s | %.3f s | %s | %s / %s | %s |\n' \
        "$(rows_label "$rows")" "$c_s" "$r_s" "$(ratio "$r_s" "$c_s")" "$c_cpu" "$r_cpu" \
        "$(ratio "$r_cpu" "$c_cpu")" "$leaves" "$r_leaves" "$r_depth"
done
