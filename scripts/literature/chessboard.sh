#!/bin/sh
# Run configs/literature/chessboard.cfg and draw its figure for docs/optimal.md: each
# learner's mean accuracy and mean leaves against the share of flipped labels, and print them
# as a markdown table. The data files are committed; chessboard_data.py makes them again.
# Usage, from the repository root: scripts/literature/chessboard.sh [TREELAB] [OUT_DIR]
#   (defaults build/treelab and docs; the run's folder is a temporary one)
set -eu
T=${1:-build/treelab}
OUT=${2:-docs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$T" run configs/literature/chessboard.cfg --out "$tmp/run" --jobs 2 --quiet
# metrics.csv's columns by name; the noise is the number ending the dataset's name
awk -F, -v acc="$tmp/acc.csv" -v leaves="$tmp/leaves.csv" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { noise = $col["dataset"]; sub(/.*noise/, "", noise)
      k = $col["model"] SUBSEP noise
      if (!(k in n)) order[++m] = k
      n[k]++; a[k] += $col["accuracy"]; l[k] += $col["leaves"] }
    END {
      print "series,x,y" > acc; print "series,x,y" > leaves
      print "| learner | noise | accuracy | leaves |"; print "| --- | ---: | ---: | ---: |"
      for (j = 1; j <= m; j++) {
        k = order[j]; split(k, p, SUBSEP)
        printf "%s,%s,%.6f\n", p[1], p[2], a[k] / n[k] >> acc
        printf "%s,%s,%.6f\n", p[1], p[2], l[k] / n[k] >> leaves
        printf "| %s | %s%% | %.1f%% | %.1f |\n", p[1], p[2], 100 * a[k] / n[k], l[k] / n[k]
      }
    }' "$tmp/run/metrics.csv"
"$T" plot curve "$tmp/acc.csv" -o "$OUT/literature_chessboard_accuracy" \
    --title "Chessboard 4x4: accuracy (10-fold CV x 3)" --xlabel "labels flipped (%)" \
    --ylabel "accuracy" > /dev/null
"$T" plot curve "$tmp/leaves.csv" -o "$OUT/literature_chessboard_leaves" \
    --title "Chessboard 4x4: leaves" --xlabel "labels flipped (%)" --ylabel "leaves" > /dev/null
# only the pictures are kept in docs/
rm -f "$OUT"/literature_chessboard_*.dat "$OUT"/literature_chessboard_*.gp \
      "$OUT"/literature_chessboard_*.svg
