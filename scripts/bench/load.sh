#!/bin/sh
# Loading speed of treelab's CSV reader against pandas.read_csv (and numpy.loadtxt for
# reference) on the same synthetic CSV (20 numeric attributes written "%.4f", a class
# column), 10^4, 10^5 and 10^6 rows. treelab's time is its own clock around
# tl_dataset_load (reading the file included, process start-up excluded, as pandas' and
# numpy's times are perf_counter around read_csv / loadtxt). Pairs are interleaved (treelab,
# pandas, numpy, treelab, ...) so a load that comes and goes on a shared machine hits every
# side; medians are reported, of wall time and of CPU time (user and system, which a
# shared machine disturbs less). Each side prints a checksum of the doubles it read (the sum
# modulo 2^64 of their bit patterns): the script says whether they agree.
# Needs build/libtreelab.a (./scripts/setup.sh) and Debian's python3-pandas.
# Usage: REPEATS=5 scripts/bench/load.sh [ROWS...]   (default: 10000 100000 1000000)
#   OLD_LIB=DIR/libtreelab.a adds a column "before": the same driver linked with another
#   build of the library (e.g. one of an older commit), interleaved with the others.
#   NUMPY=0 leaves numpy out (its 10^6 load takes seconds).
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/load" scripts/bench/load_time.c \
   -Iinclude build/libtreelab.a -lgsl -lopenblas -lconfig -lm -lpthread
if [ -n "${OLD_LIB:-}" ]; then
    cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/load_old" scripts/bench/load_time.c \
       -Iinclude "$OLD_LIB" -lgsl -lopenblas -lconfig -lm -lpthread
fi
HAVE_PD=1
$PY -c 'import pandas' 2>/dev/null || { HAVE_PD=0; echo "python3-pandas missing: treelab only" >&2; }
NUMPY=${NUMPY:-1}
[ $# -gt 0 ] || set -- 10000 100000 1000000
# wall seconds (before, treelab, pandas, numpy), then CPU seconds of treelab and pandas
printf '%-8s %6s %8s %9s %8s %9s %8s %8s %9s %9s %8s %s\n' rows MB before_s treelab_s pandas_s vs_pandas numpy_s vs_numpy treelab_cpu pandas_cpu cpu_vs same_doubles
for rows in "$@"; do
    $PY scripts/peers/sklearn_fit_bench.py data "$rows" "$TMP/d.csv"
    mb=$(awk -v b="$(wc -c < "$TMP/d.csv")" 'BEGIN { printf "%.1f", b / 1e6 }')
    : > "$TMP/t"; : > "$TMP/p"; : > "$TMP/n"; : > "$TMP/o"; : > "$TMP/tc"; : > "$TMP/pc"
    same=yes
    r=0
    while [ $r -lt "$REPEATS" ]; do
        set -- $("$TMP/load" "$TMP/d.csv")
        echo "$1" >> "$TMP/t"
        echo "$5" >> "$TMP/tc"
        sum=$4
        if [ -n "${OLD_LIB:-}" ]; then
            set -- $("$TMP/load_old" "$TMP/d.csv")
            echo "$1" >> "$TMP/o"
            [ "$4" = "$sum" ] || same=NO
        fi
        if [ "$HAVE_PD" = 1 ]; then
            set -- $($PY scripts/peers/pandas_load_bench.py pandas "$TMP/d.csv")
            echo "$1" >> "$TMP/p"
            echo "$3" >> "$TMP/pc"
            [ "$2" = "$sum" ] || same=NO
        fi
        if [ "$NUMPY" = 1 ]; then
            set -- $($PY scripts/peers/pandas_load_bench.py numpy "$TMP/d.csv")
            echo "$1" >> "$TMP/n"
            [ "$2" = "$sum" ] || same=NO
        fi
        r=$((r + 1))
    done
    t=$(median < "$TMP/t")
    p=- n=- rp=- rn=- o=- pc=- rc=-
    tc=$(median < "$TMP/tc")
    [ -z "${OLD_LIB:-}" ] || o=$(median < "$TMP/o")
    if [ "$HAVE_PD" = 1 ]; then
        p=$(median < "$TMP/p")
        rp=$(awk -v a="$p" -v b="$t" 'BEGIN { printf "%.2fx", a / b }')
        pc=$(median < "$TMP/pc")
        rc=$(awk -v a="$pc" -v b="$tc" 'BEGIN { printf "%.2fx", a / b }')
    fi
    if [ "$NUMPY" = 1 ]; then
        n=$(median < "$TMP/n")
        rn=$(awk -v a="$n" -v b="$t" 'BEGIN { printf "%.2fx", a / b }')
    fi
    printf '%-8s %6s %8s %9s %8s %9s %8s %8s %9s %9s %8s %s\n' "$rows" "$mb" "$o" "$t" "$p" "$rp" "$n" "$rn" "$tc" "$pc" "$rc" "$same"
done
