#!/bin/sh
# Record Weka J48's trees and cross-validated accuracies on the bundled Weka datasets, as
# fixtures for tests/test_c45.c. Run from the repository root:
#   scripts/peers/weka_j48.sh
# Writes tests/fixtures/j48/NAME.VARIANT.txt (the tree text between the header and "Number
# of Leaves") and tests/fixtures/j48_summary.txt:
#   tree NAME VARIANT LEAVES SIZE          (full-data trees; VARIANT default | U | S | C0.1M5)
#   cv NAME SEED CORRECT TOTAL             (J48 defaults, 10-fold stratified CV, -s SEED)
# CV is repeated with seeds 1..30 (1..100 on labor and contact-lenses, 1..300 on the two
# 14-row weather sets, where one row moves the accuracy by 2 to 7 points), since treelab's
# folds cannot be Weka's: the test compares means over as many of its own fold seeds.
set -eu
WEKA=${WEKA:-/usr/share/java/weka.jar}
OUT=tests/fixtures
DATASETS="iris vote soybean breast-cancer credit-g diabetes glass ionosphere labor
contact-lenses segment-challenge weather.nominal weather.numeric"
SUMMARY=$OUT/j48_summary.txt
j48() { java -cp "$WEKA" weka.classifiers.trees.J48 "$@"; }
{
  echo "# Weka $(java -cp "$WEKA" weka.core.Version 2>/dev/null | head -1) J48, recorded by scripts/peers/weka_j48.sh"
  for d in $DATASETS; do
    f=experiments/datasets/$d.arff
    for v in default U S C0.1M5; do
      case $v in
        default) opts="" ;;
        U) opts="-U" ;;
        S) opts="-S" ;;
        C0.1M5) opts="-C 0.1 -M 5" ;;
      esac
      # shellcheck disable=SC2086
      j48 -t "$f" -no-cv $opts > /tmp/j48_$$.txt
      awk '/^J48 (pruned|unpruned) tree/{getline; on=1; next}
           /^Number of Leaves/{on=0} on' /tmp/j48_$$.txt | sed -e '/^$/d' > "$OUT/j48/$d.$v.txt"
      leaves=$(awk '/^Number of Leaves/{print $NF}' /tmp/j48_$$.txt)
      size=$(awk '/^Size of the tree/{print $NF}' /tmp/j48_$$.txt)
      echo "tree $d $v $leaves $size"
    done
    case $d in
      labor|contact-lenses) seeds=100 ;;
      weather.nominal|weather.numeric) seeds=300 ;;
      *) seeds=30 ;;
    esac
    for s in $(seq 1 "$seeds"); do
      j48 -t "$f" -s "$s" > /tmp/j48_$$.txt
      awk -v d="$d" -v s="$s" '/=== Stratified cross-validation ===/{cv=1}
           cv && /^Correctly Classified/{c=$4} cv && /^Total Number of Instances/{print "cv", d, s, c, $5; exit}' /tmp/j48_$$.txt
    done
  done
} > "$SUMMARY"
rm -f /tmp/j48_$$.txt
