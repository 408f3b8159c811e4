#!/bin/sh
# Config load with a large grid stays linear (issue 23, medium 7: 200k values took 20 s and
# grew faster than linearly, as names were checked unique pair by pair): CPU seconds (user and
# system) of `treelab run CONFIG --plan` for one gaussian_nb grid of N var_smoothing values
# on weather.nominal, 2-fold CV (2N cells), N doubling. The last column is the time ratio to
# the previous N: about 2 when linear (2.1 for N log N), 4 when quadratic. Medians of REPEATS.
# Usage: REPEATS=3 scripts/bench/grid_load.sh [N...]   (default: 10000 20000 40000 80000)
set -eu
cd "$(dirname "$0")/../.."
REPEATS=${REPEATS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
bin=$(pwd)/build/treelab
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
[ $# -gt 0 ] || set -- 10000 20000 40000 80000
printf '%-8s %8s %8s\n' values cpu_s ratio
prev=
for n in "$@"; do
    awk -v n="$n" -v data="$(pwd)/experiments/datasets/weather.nominal.arff" 'BEGIN {
        printf "name = \"g\";\ndatasets = ( \"%s\" );\n", data
        printf "models = ( { name = \"nb\"; algorithm = \"gaussian_nb\"; } );\n"
        printf "grids = ( { model = \"nb\"; param = \"var_smoothing\"; values = ["
        for (i = 1; i <= n; i++) printf "%s%.6g", (i > 1 ? ", " : ""), i * 1e-9
        printf "]; } );\nprotocol = { kind = \"cv\"; folds = 2; };\n" }' > "$TMP/g.cfg"
    : > "$TMP/t"
    r=0
    while [ $r -lt "$REPEATS" ]; do
        /usr/bin/env time -f '%U %S' -o "$TMP/time" "$bin" run "$TMP/g.cfg" --plan > /dev/null
        awk '{ print $1 + $2 }' "$TMP/time" >> "$TMP/t"
        r=$((r + 1))
    done
    s=$(median < "$TMP/t")
    ratio=$([ -n "$prev" ] && awk -v a="$s" -v b="$prev" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }' || echo -)
    printf '%-8s %8s %8s\n' "$n" "$s" "$ratio"
    prev=$s
done
