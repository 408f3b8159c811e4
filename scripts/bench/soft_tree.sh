#!/bin/sh
# Seconds per epoch of treelab's soft_tree against a PyTorch soft tree of the same design
# (scripts/peers/torch_soft_tree.py), one thread each, synthetic 10^5 x 20 (plus 2x10^4 test
# rows), depth 6 and 8, batch 128 and 1024, in double (both sides' default) and in float32
# (treelab's precision = float, torch's float32). Runs are interleaved (treelab double, torch
# double, treelab float, torch float32, then again) so a load that comes and goes on a shared
# machine hits both sides; medians of REPEATS. Both the wall-clock and the process's CPU time
# are reported (on a machine shared with other jobs the CPU time is the steadier measure).
# treelab's clocks run around fit and predict (no loading), torch's around its epochs only; so
# tl_epoch is also given: the CPU seconds of one more epoch, (T(E) - T(1)) / (E - 1), setup
# and prediction left out, as torch's clock leaves them out.
# Needs build/libtreelab.a (cmake --build build) and Debian's python3-torch.
# Usage: REPEATS=3 scripts/bench/soft_tree.sh [EPOCHS]   (default 3)
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
EPOCHS=${1:-3}
CBLAS_INC=/usr/include/x86_64-linux-gnu/openblas-pthread
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/soft" scripts/bench/soft_tree_epoch.c \
   -Iinclude -I"$CBLAS_INC" build/libtreelab.a -lgsl -lopenblas -lconfig -lm -lpthread
$PY scripts/peers/torch_soft_tree.py data "$TMP/data.csv"
HAVE_TORCH=1
$PY -c 'import torch' 2>/dev/null ||
    { HAVE_TORCH=0; echo "python3-torch is not installed (apt-get install -y python3-torch): C side only" >&2; }

# One side's run: wall and CPU seconds appended to $TMP/$1.w and $TMP/$1.c, accuracy in $TMP/$1.a,
# and (treelab only) the CPU seconds of one more epoch, setup and prediction left out, in $TMP/$1.e.
run() {
    out=$1
    shift
    set -- $("$@")
    echo "$1" >> "$TMP/$out.w"
    echo "$2" >> "$TMP/$out.c"
    echo "$3" > "$TMP/$out.a"
    [ $# -lt 4 ] || echo "$4" >> "$TMP/$out.e"
}
med() { if [ -s "$TMP/$1" ]; then median < "$TMP/$1"; else echo -; fi; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-") print "-"; else printf "%.2fx", a / b }'; }

printf '%-5s %-5s %-6s | %8s %8s %7s | %8s %8s %7s | %8s %7s | %6s %6s\n' depth batch type \
    treelab torch speedup tl_cpu t_cpu speedup tl_epoch speedup acc acc_t
for depth in 6 8; do
    for batch in 128 1024; do
        for f in c t cf tf; do rm -f "$TMP/$f.w" "$TMP/$f.c" "$TMP/$f.e"; echo - > "$TMP/$f.a"; done
        r=0
        while [ $r -lt "$REPEATS" ]; do
            run c "$TMP/soft" "$TMP/data.csv" 100000 "$depth" "$batch" "$EPOCHS" double
            [ "$HAVE_TORCH" = 0 ] ||
                run t $PY scripts/peers/torch_soft_tree.py bench "$depth" "$batch" "$EPOCHS" float64
            run cf "$TMP/soft" "$TMP/data.csv" 100000 "$depth" "$batch" "$EPOCHS" float
            [ "$HAVE_TORCH" = 0 ] ||
                run tf $PY scripts/peers/torch_soft_tree.py bench "$depth" "$batch" "$EPOCHS" float32
            r=$((r + 1))
        done
        for pair in "c t double" "cf tf float"; do
            set -- $pair
            cw=$(med "$1.w") tw=$(med "$2.w") cc=$(med "$1.c") tc=$(med "$2.c") ce=$(med "$1.e")
            printf '%-5s %-5s %-6s | %8s %8s %7s | %8s %8s %7s | %8s %7s | %6s %6s\n' "$depth" "$batch" "$3" \
                "$cw" "$tw" "$(ratio "$tw" "$cw")" "$cc" "$tc" "$(ratio "$tc" "$cc")" \
                "$ce" "$(ratio "$tc" "$ce")" "$(cat "$TMP/$1.a")" "$(cat "$TMP/$2.a")"
        done
    done
done
