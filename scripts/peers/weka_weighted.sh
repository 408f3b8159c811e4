#!/bin/sh
# Record Weka's numbers on ARFF files with instance weights, as fixtures for
# tests/test_data_options.c and tests/test_gaussian_nb.c. Run from the repository root:
#   scripts/peers/weka_weighted.sh
# Writes
#   tests/fixtures/weighted/labor-weighted.arff      labor.arff, row i (from 1) weighing
#                                                 ((37 i) mod 7 + 1) / 4, written `...,{w}`
#   tests/fixtures/weighted/labor-weighted-sparse.arff   the same through Weka's
#                                                 NonSparseToSparse filter (sparse rows + weights)
#   tests/fixtures/weighted/weather.nominal-weighted.arff  weather.nominal, the same weights
#   tests/fixtures/weighted/j48.txt               J48's tree (default and -U) on labor-weighted
#                                                 and its weighted evaluation on the training
#                                                 data: `eval VARIANT CORRECT INCORRECT TOTAL
#                                                 KAPPA` and `confusion VARIANT ROW v v`
#   tests/fixtures/weka_nb_weather.nominal-weighted.csv   NaiveBayes probabilities
set -eu
WEKA=${WEKA:-/usr/share/java/weka.jar}
OUT=tests/fixtures/weighted
mkdir -p "$OUT"
weigh() {
  awk 'BEGIN{i=0} /^@data/{print; d=1; next}
       d && NF && !/^%/ {i++; w=((i*37)%7+1)/4; print $0 ",{" w "}"; next} {print}' "$1"
}
weigh experiments/datasets/labor.arff > tests/fixtures/weighted/labor-weighted.arff
weigh experiments/datasets/weather.nominal.arff > "$OUT/weather.nominal-weighted.arff"
java -cp "$WEKA" weka.filters.unsupervised.instance.NonSparseToSparse \
  -i tests/fixtures/weighted/labor-weighted.arff -o "$OUT/labor-weighted-sparse.arff"
{
  echo "# Weka $(java -cp "$WEKA" weka.core.Version 2>/dev/null | head -1) J48 on tests/fixtures/weighted/labor-weighted.arff, recorded by scripts/peers/weka_weighted.sh"
  for v in default U; do
    opts=""
    [ "$v" = U ] && opts="-U"
    # shellcheck disable=SC2086
    java -cp "$WEKA" weka.classifiers.trees.J48 -t tests/fixtures/weighted/labor-weighted.arff \
      -no-cv $opts > /tmp/j48w_$$.txt
    awk -v v="$v" '/^J48 (pruned|unpruned) tree/{getline; on=1; next}
         /^Number of Leaves/{on=0} on && NF {print "tree", v, $0}' /tmp/j48w_$$.txt
    awk -v v="$v" '/^Correctly Classified/{c=$4} /^Incorrectly Classified/{i=$4}
         /^Kappa statistic/{k=$3} /^Total Number of Instances/{print "eval", v, c, i, $5, k}
         /<-- classified as/{cm=1; r=0; next}
         cm && /\|/ {split($0, a, "|"); print "confusion", v, r++, a[1]}' /tmp/j48w_$$.txt
  done
} > "$OUT/j48.txt"
rm -f /tmp/j48w_$$.txt
tmp=$(mktemp -d)
javac -cp "$WEKA" -d "$tmp" scripts/peers/WekaNaiveBayes.java
java -cp "$WEKA:$tmp" WekaNaiveBayes "$OUT/weather.nominal-weighted.arff" \
  > tests/fixtures/weka_nb_weather.nominal-weighted.csv
rm -rf "$tmp"
