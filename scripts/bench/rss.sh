#!/bin/sh
# Peak memory of a CART fit against the size of the data it fits (issue 16: at most 1.5x at
# 10^6 x 20), synthetic data of 20 numeric attributes and 2 classes
# (scripts/peers/sklearn_fit_bench.py data), treelab's fit alone (scripts/bench/fit_time.c).
# "Data" is the dataset in memory as treelab holds it: rows x (20 doubles + a 4-byte class
# code), i.e. rows x 164 bytes (156 MiB at 10^6), not the CSV file; sizes in MiB. "Peak" is the process's
# high-water mark (VmHWM) during the fit: libraries, the loaded dataset and everything the fit
# allocated (fit_time.c resets the mark once the data is loaded; the loader's own peak is its
# last column); "before fit" is the resident size once the data is loaded, so peak - before is
# what the fit added. At 10^4 the libraries (~7 MB) dominate both.
# Needs build/libtreelab.a and python3-numpy (for the data).
# Usage: scripts/bench/rss.sh [ROWS...]   (default: 10000 100000 1000000); ALGO=cart and
# PARAMS="key=value ..." choose the learner. Prints a markdown table.
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
ALGO=${ALGO:-cart}
PARAMS=${PARAMS:-}
[ $# -gt 0 ] || set -- 10000 100000 1000000
echo "| rows | data | RSS before fit | peak RSS | peak / data | (peak - before) / data |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
for rows in "$@"; do
    $PY scripts/peers/sklearn_fit_bench.py data "$rows" "$TMP/d.csv"
    # shellcheck disable=SC2086 # PARAMS is a list of key=value words
    set -- $("$TMP/bench" "$TMP/d.csv" "$ALGO" $PARAMS)
    awk -v rows="$rows" -v peak="$4" -v before="$5" -v data="$6" 'BEGIN {
        printf "| %s | %.1f MiB | %.1f MiB | %.1f MiB | %.2f | %.2f |\n", rows, data, before, peak,
               peak / data, (peak - before) / data }'
done
