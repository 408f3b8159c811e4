#!/bin/sh
# Fit time of treelab's optimal learner against the MurTree program built from source
# (scripts/peers/murtree_record.sh builds it), on MurTree's binarised DL files at depth 4
# with max_nodes 15 (MurTree's README setting), one thread each, pairs interleaved
# (treelab, MurTree, treelab, ...), medians of REPEATS. Each side's own CPU clock around the
# search alone: tl_model_fit (binarising the 0/1 columns included) and MurTree's "CLOCKS FOR
# SOLVE". Before timing, both trees' training misclassifications must be equal.
# Needs build/libtreelab.a and build/treelab.
# Usage: REPEATS=3 scripts/bench/optimal.sh MURTREE_BIN MURTREE_DATA_DL [NAME...]
#   (default names: MurTree README's anneal australian-credit german-credit vehicle)
# Prints a markdown table.
set -eu
cd "$(dirname "$0")/../.."
BIN=${1:?usage: optimal.sh MURTREE_BIN MURTREE_DATA_DL [NAME...]}
DL=${2:?usage: optimal.sh MURTREE_BIN MURTREE_DATA_DL [NAME...]}
shift 2
# shellcheck source=scripts/bench/common.sh
. scripts/bench/common.sh
DEPTH=${DEPTH:-4}
NODES=$(( (1 << DEPTH) - 1 ))
[ $# -gt 0 ] || set -- anneal australian-credit german-credit vehicle
echo "| file | rows x features | misclassified | treelab fit (CPU) | MurTree solve (CPU) | MurTree / treelab |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
total_t=0 total_m=0
for name in "$@"; do
    # the class last (the timer's target), as c<label> so it loads as a class
    awk '{ if (NR == 1) { for (i = 2; i <= NF; i++) printf "f%d,", i - 2; printf "class\n" }
           for (i = 2; i <= NF; i++) printf "%s,", $i; printf "c%s\n", $1 }' \
        "$DL/$name.txt" > "$TMP/d.csv"
    build/treelab fit "$TMP/d.csv" --algo optimal --set max_depth="$DEPTH" \
        --set binarize=midpoints -o "$TMP/m.cfg" 2> /dev/null
    ours=$(build/treelab show "$TMP/m.cfg" | sed -n 's/^Proven optimal: objective \([0-9.]*\).*/\1/p')
    theirs=$("$BIN" -file "$DL/$name.txt" -max-depth "$DEPTH" -max-num-nodes "$NODES" -time 3600 |
             awk '/MISCLASSIFICATION SCORE/ { print $3 }')
    if [ -z "$ours" ] || [ "$ours" != "$theirs" ]; then
        echo "optimal.sh: $name: treelab '$ours', MurTree '$theirs' misclassified" >&2
        exit 1
    fi
    : > "$TMP/t"; : > "$TMP/m"
    r=0
    while [ $r -lt "$REPEATS" ]; do
        "$TMP/bench" "$TMP/d.csv" optimal max_depth="$DEPTH" binarize=midpoints |
            awk '{ print $7 }' >> "$TMP/t"
        "$BIN" -file "$DL/$name.txt" -max-depth "$DEPTH" -max-num-nodes "$NODES" -time 3600 |
            awk '/CLOCKS FOR SOLVE/ { print $4 }' >> "$TMP/m"
        r=$((r + 1))
    done
    t=$(median < "$TMP/t"); m=$(median < "$TMP/m")
    total_t=$(awk -v a="$total_t" -v b="$t" 'BEGIN { print a + b }')
    total_m=$(awk -v a="$total_m" -v b="$m" 'BEGIN { print a + b }')
    shape=$(awk 'END { printf "%d x %d", NR, NF - 1 }' "$DL/$name.txt")
    printf '| %s | %s | %s | %.3f s | %.3f s | %s |\n' "$name" "$shape" "$ours" "$t" "$m" \
        "$(awk -v a="$m" -v b="$t" 'BEGIN { printf "%.2fx", a / b }')"
done
printf '| total | | | %.3f s | %.3f s | %s |\n' "$total_t" "$total_m" \
    "$(awk -v a="$total_m" -v b="$total_t" 'BEGIN { printf "%.2fx", a / b }')"
