#!/bin/sh
# One build against another (a grower change must not slow a learner): the in-process fit
# timer (fit_time.c) linked against each build's libtreelab.a, run on the same data in
# interleaved pairs (old, new, old, ...) so a load that comes and goes hits both, one thread;
# prints the CPU-time medians and new/old for CART (10^5 rows of fit.sh's data), the
# histogram splitter, C4.5 on the synthetic set with 5% unknown values (rows sent down every
# branch) and without, random_forest, extra_trees and gradient_boosting (100 trees, 2*10^4
# rows). CPU time is the one to read on a loaded machine; CALLGRIND=1 counts each side's
# instructions once instead (the whole driver process, loading included: independent of the
# load), on ROWS (default 10^5, 10^4 with CALLGRIND), SMALL rows for the ensembles (2*10^4,
# 5000) and TREES trees (100, 10).
# Usage: [CALLGRIND=1] REPEATS=5 scripts/bench/old_new.sh OLD_BUILD_DIR NEW_BUILD_DIR   (each BUILD_DIR's
#   parent is its source tree, e.g. a `git archive main` copy's build/ against ./build)
set -eu
[ $# -eq 2 ] || { echo "usage: $0 OLD_BUILD_DIR NEW_BUILD_DIR" >&2; exit 2; }
OLD=$(cd "$1" && pwd) NEW=$(cd "$2" && pwd)
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
. scripts/bench/c45_synth.sh
for side in old new; do
    [ $side = old ] && dir=$OLD || dir=$NEW
    # each side's own driver and headers: the build folder's parent is its source tree
    cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/bench_$side" "$dir/../scripts/bench/fit_time.c" \
       -I"$dir/../include" "$dir/libtreelab.a" -lgsl -lopenblas -lconfig -lm -lpthread
done
CALLGRIND=${CALLGRIND:-0}
if [ "$CALLGRIND" = 1 ]; then
    ROWS=${ROWS:-10000} SMALL=${SMALL:-5000} TREES=${TREES:-10} REPEATS=1 unit=Ir
else
    ROWS=${ROWS:-100000} SMALL=${SMALL:-20000} TREES=${TREES:-100} unit=cpu
fi
$PY scripts/peers/sklearn_fit_bench.py data "$ROWS" "$TMP/d.csv"
head -n $((SMALL + 1)) "$TMP/d.csv" > "$TMP/small.csv"
c45_synth "$ROWS" 3 0.05 "$TMP/c45_miss.arff"
c45_synth "$ROWS" 3 0 "$TMP/c45_full.arff"
# one fit: the driver's output line, with field 7 (CPU seconds) replaced by the instruction
# count under callgrind
one() { # BIN DATA ALGO [key=value...]
    if [ "$CALLGRIND" = 1 ]; then
        line=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2> "$TMP/vg")
        ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$TMP/vg")
        echo "$line" | awk -v ir="$ir" '{ $7 = ir; print }'
    else
        "$@"
    fi
}
printf '%-20s %8s %12s %12s %9s %8s\n' case rows "old_$unit" "new_$unit" new/old leaves
case_line() { # NAME DATA ALGO [key=value...]
    name=$1 data=$2
    shift 2
    : > "$TMP/o"; : > "$TMP/n"
    r=0
    while [ $r -lt "$REPEATS" ]; do
        out_o=$(one "$TMP/bench_old" "$data" "$@")
        out_n=$(one "$TMP/bench_new" "$data" "$@")
        echo "$out_o" | awk '{ print $7 }' >> "$TMP/o"
        echo "$out_n" | awk '{ print $7 }' >> "$TMP/n"
        r=$((r + 1))
    done
    lo=$(echo "$out_o" | awk '{ print $3 }'); ln=$(echo "$out_n" | awk '{ print $3 }')
    [ "$lo" = "$ln" ] || echo "$name: leaves differ (old $lo, new $ln)" >&2
    o=$(median < "$TMP/o"); n=$(median < "$TMP/n")
    printf '%-20s %8s %12s %12s %9s %8s\n' "$name" "$(echo "$out_n" | awk '{ print $1 }')" "$o" "$n" \
        "$(awk -v a="$n" -v b="$o" 'BEGIN { printf "%.3f", a / b }')" "$ln"
}
case_line cart "$TMP/d.csv" cart
case_line cart_histogram "$TMP/d.csv" cart numeric=histogram
case_line c45_missing "$TMP/c45_miss.arff" c45
case_line c45_complete "$TMP/c45_full.arff" c45
case_line random_forest "$TMP/small.csv" random_forest n_estimators="$TREES" jobs=1
case_line extra_trees "$TMP/small.csv" extra_trees n_estimators="$TREES" jobs=1
case_line gradient_boosting "$TMP/small.csv" gradient_boosting n_estimators="$TREES" jobs=1
