#!/bin/sh
# How fast a saved ensemble loads: random forests of N trees (default 500) fitted on bundled
# datasets (digits: 10 classes, ~380 nodes a tree; diabetes and wine), saved, then loaded by
# scripts/bench/model_load_time.c, which times tl_model_load alone (the process's own clocks
# around the call: start-up excluded). Medians over REPEATS runs of the fastest of 3 loads;
# wall and CPU seconds (CPU is what a shared machine disturbs least).
# Needs build/libtreelab.a and build/treelab (./scripts/setup.sh).
# Usage: REPEATS=3 scripts/bench/model_load.sh [TREES]
#   OLD_LIB=DIR/libtreelab.a adds a column "before": the same driver linked with another build
#   of the library (e.g. one of an older commit), interleaved with the others. It loads the
#   file that OLD_TREELAB (that build's CLI, default DIR/treelab) fits with the same seed: an
#   older library may not read the newer encoding (ensemble files before 2026-11-28).
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
TREES=${1:-500}
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/load" scripts/bench/model_load_time.c \
   -Iinclude build/libtreelab.a -lgsl -lopenblas -lconfig -lm -lpthread
if [ -n "${OLD_LIB:-}" ]; then
    cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/load_old" scripts/bench/model_load_time.c \
       -Iinclude "$OLD_LIB" -lgsl -lopenblas -lconfig -lm -lpthread
    OLD_TREELAB=${OLD_TREELAB:-$(dirname "$OLD_LIB")/treelab}
fi
printf '%-10s %6s %7s %8s %8s %10s %10s %9s\n' dataset trees MB wall_s cpu_s before_wall before_cpu before_MB
for data in digits diabetes wine; do
    build/treelab fit "experiments/datasets/$data.arff" --algo random_forest \
        --set "n_estimators=$TREES" --jobs 2 -o "$TMP/$data.model" 2>/dev/null
    [ -x "$TMP/load_old" ] && "$OLD_TREELAB" fit "experiments/datasets/$data.arff" \
        --algo random_forest --set "n_estimators=$TREES" --jobs 2 -o "$TMP/$data.old.model" \
        2>/dev/null
    mb=$(du -m "$TMP/$data.model" | cut -f1)
    : > "$TMP/w"; : > "$TMP/c"; : > "$TMP/ow"; : > "$TMP/oc"
    for r in $(seq "$REPEATS"); do
        set -- $("$TMP/load" "$TMP/$data.model" 3)
        echo "$1" >> "$TMP/w"; echo "$2" >> "$TMP/c"
        if [ -x "$TMP/load_old" ]; then
            set -- $("$TMP/load_old" "$TMP/$data.old.model" 3)
            echo "$1" >> "$TMP/ow"; echo "$2" >> "$TMP/oc"
        fi
    done
    ow=-; oc=-; omb=-
    [ -s "$TMP/ow" ] && ow=$(median < "$TMP/ow") && oc=$(median < "$TMP/oc") &&
        omb=$(du -m "$TMP/$data.old.model" | cut -f1)
    printf '%-10s %6s %7s %8.3f %8.3f %10s %10s %9s\n' "$data" "$TREES" "$mb" "$(median < "$TMP/w")" \
        "$(median < "$TMP/c")" "$ow" "$oc" "$omb"
done
