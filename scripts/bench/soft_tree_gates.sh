#!/bin/sh
# CPU seconds per epoch of the soft tree's gates against today's sigmoid tree, one thread,
# on scripts/bench/soft_tree.sh's synthetic 10^5 x 20 data (plus 2x10^4 test rows), depth 8
# (and 6), batch 128 (and 1024): sigmoid runs the batch passes (its products in AVX-512
# kernels), smooth_step and entmoid the row passes that skip every subtree a row reaches with
# path probability 0. Runs are interleaved (sigmoid, smooth_step, entmoid, then again), medians
# of REPEATS; tl_epoch is the CPU seconds of one more epoch, (T(E) - T(1)) / (E - 1), setup
# and prediction left out. acc is the test rows' accuracy after EPOCHS epochs.
# Needs build/libtreelab.a (cmake --build build) and Debian's python3 with numpy.
# Usage: REPEATS=3 scripts/bench/soft_tree_gates.sh [EPOCHS]   (default 3)
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
EPOCHS=${1:-3}
CBLAS_INC=/usr/include/x86_64-linux-gnu/openblas-pthread
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/soft" scripts/bench/soft_tree_epoch.c \
   -Iinclude -I"$CBLAS_INC" build/libtreelab.a -lgsl -lopenblas -lconfig -lm -lpthread
$PY scripts/peers/torch_soft_tree.py data "$TMP/data.csv"
GATES="sigmoid smooth_step entmoid"
printf '%-5s %-5s | %10s %10s %7s %10s %7s | %6s %6s %6s\n' depth batch sigmoid smooth_step \
    speedup entmoid speedup acc_sig acc_ss acc_ent
for depth in 8 6; do
    for batch in 128 1024; do
        for g in $GATES; do rm -f "$TMP/$g.e"; done
        r=0
        while [ $r -lt "$REPEATS" ]; do
            for g in $GATES; do
                set -- $("$TMP/soft" "$TMP/data.csv" 100000 "$depth" "$batch" "$EPOCHS" double \
                    gate=$g)
                echo "$4" >> "$TMP/$g.e"
                echo "$3" > "$TMP/$g.a"
            done
            r=$((r + 1))
        done
        s=$(median < "$TMP/sigmoid.e") ss=$(median < "$TMP/smooth_step.e")
        en=$(median < "$TMP/entmoid.e")
        printf '%-5s %-5s | %10s %10s %6.2fx %10s %6.2fx | %6s %6s %6s\n' "$depth" "$batch" \
            "$s" "$ss" "$(echo "$s $ss" | awk '{ print $1 / $2 }')" "$en" \
            "$(echo "$s $en" | awk '{ print $1 / $2 }')" "$(cat "$TMP/sigmoid.a")" \
            "$(cat "$TMP/smooth_step.a")" "$(cat "$TMP/entmoid.a")"
    done
done
