# Shared by the benchmark scripts (sourced, from the repository root): one thread for every
# library, a scratch folder removed on exit, the in-process fit timer, and a median.
PY=/usr/bin/python3
REPEATS=${REPEATS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/bench" scripts/bench/fit_time.c \
   -Iinclude build/libtreelab.a -lgsl -lopenblas -lconfig -lm -lpthread
# The median of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# A row count for a table: 10000 as 10^4, other counts as they are.
rows_label() { case $1 in 1*) [ -z "$(echo "${1#1}" | tr -d 0)" ] && { echo "10^$((${#1} - 1))"; return; } ;; esac; echo "$1"; }
# One variant against its peer at one batch size: the medians of REPEATS interleaved runs into
# T (treelab's CPU seconds per epoch, (T(EPOCHS) - T(1)) / (EPOCHS - 1) of `tl_cpu WORDS...
# BATCH EPOCHS`) and P (`pt_cpu WORDS... BATCH`'s). Usage: vs_peer BATCH WORDS...; the caller
# defines tl_cpu, pt_cpu and EPOCHS.
vs_peer() {
    vp_batch=$1
    shift
    rm -f "$TMP/tl" "$TMP/pt"
    vp_r=0
    while [ $vp_r -lt "$REPEATS" ]; do
        vp_one=$(tl_cpu "$@" "$vp_batch" 1)
        vp_many=$(tl_cpu "$@" "$vp_batch" "$EPOCHS")
        echo "$vp_one $vp_many" | awk -v e="$EPOCHS" '{ print ($2 - $1) / (e - 1) }' >> "$TMP/tl"
        pt_cpu "$@" "$vp_batch" >> "$TMP/pt"
        vp_r=$((vp_r + 1))
    done
    T=$(median < "$TMP/tl") P=$(median < "$TMP/pt")
}
# The first $1 rows of scripts/bench/soft_tree.sh's synthetic data into $TMP/data.csv.
synthetic_rows() {
    $PY scripts/peers/torch_soft_tree.py data "$TMP/all.csv"
    head -n $(($1 + 1)) "$TMP/all.csv" > "$TMP/data.csv"
}
