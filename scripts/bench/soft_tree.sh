#!/bin/sh
# Seconds per epoch of treelab's soft_tree against a PyTorch soft tree of the same design
# (scripts/peers/torch_soft_tree.py), one thread each, synthetic 10^5 x 20 (plus 2x10^4 test
# rows), depth 6 and 8, batch 128 and 1024. Needs build/libtreelab.a (cmake --build build)
# and Debian's python3-torch. Usage: scripts/bench/soft_tree.sh [EPOCHS]   (default 3)
set -eu
cd "$(dirname "$0")/../.."
EPOCHS=${1:-3}
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1

CBLAS_INC=/usr/include/x86_64-linux-gnu/openblas-pthread
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/bench" scripts/bench/soft_tree_epoch.c \
   -Iinclude -I"$CBLAS_INC" build/libtreelab.a -lgsl -lopenblas -lconfig -lm -lpthread
$PY scripts/peers/torch_soft_tree.py data "$TMP/data.csv"

if ! $PY -c 'import torch' 2>/dev/null; then
    echo "python3-torch is not installed (apt-get install -y python3-torch): C side only" >&2
    HAVE_TORCH=0
else
    HAVE_TORCH=1
fi

printf '%-6s %-6s %12s %12s %8s %10s %10s\n' depth batch treelab_s torch_s speedup acc_treelab acc_torch
for depth in 6 8; do
    for batch in 128 1024; do
        set -- $("$TMP/bench" "$TMP/data.csv" 100000 "$depth" "$batch" "$EPOCHS")
        c_s=$1 c_acc=$2
        if [ "$HAVE_TORCH" = 1 ]; then
            set -- $($PY scripts/peers/torch_soft_tree.py bench "$depth" "$batch" "$EPOCHS")
            t_s=$1 t_acc=$2
            ratio=$(awk -v a="$t_s" -v b="$c_s" 'BEGIN { printf "%.2fx", a / b }')
        else
            t_s=- t_acc=- ratio=-
        fi
        printf '%-6s %-6s %12s %12s %8s %10s %10s\n' "$depth" "$batch" "$c_s" "$t_s" "$ratio" "$c_acc" "$t_acc"
    done
done
