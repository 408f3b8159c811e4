#!/bin/sh
# CPU seconds per epoch of soft_forest against a PyTorch forest of the same design
# (scripts/peers/torch_soft_forest.py bench), one thread each, interleaved, medians of REPEATS:
# 10 trees of depth 3 on the first ROWS rows of scripts/bench/soft_tree.sh's synthetic data
# (20 inputs, two classes), for each variant (gate, shape, leaf update) at batch 128 and 1024.
# treelab's epoch is (T(EPOCHS) - T(1)) / (EPOCHS - 1) of the fit's CPU time (setup left out);
# PyTorch's is its training loop's CPU time over EPOCHS (setup and prediction left out).
# Needs build/libtreelab.a and Debian's python3 with numpy and python3-torch.
# Usage: REPEATS=3 scripts/bench/soft_forest.sh [ROWS] [EPOCHS]   (default 20000, 3)
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
ROWS=${1:-20000}
EPOCHS=${2:-3}
synthetic_rows "$ROWS"
# fit CPU seconds (column 7 of the fit driver) of `epochs` epochs
tl_cpu() { "$TMP/bench" "$TMP/data.csv" soft_forest "gate=$1" "shape=$2" "leaf_update=$3" \
    "batch_size=$4" "epochs=$5" | awk '{ print $7 }'; }
pt_cpu() { (cd scripts/peers && $PY torch_soft_forest.py bench "$ROWS" "$1" "$2" "$3" "$4" "$EPOCHS") |
    awk '{ print $1 }'; }
printf '%-12s %-9s %-11s %5s | %9s %9s %7s\n' gate shape leaf batch treelab torch ratio
for v in "sigmoid full gradient" "smooth_step full gradient" "entmoid oblivious gradient" \
         "sigmoid full closed_form"; do
    set -- $v
    for batch in 128 1024; do
        vs_peer "$batch" "$1" "$2" "$3"
        printf '%-12s %-9s %-11s %5s | %9.4f %9.4f %6.1fx\n' "$1" "$2" "$3" "$batch" "$T" "$P" \
            "$(echo "$T $P" | awk '{ print $2 / $1 }')"
    done
done
