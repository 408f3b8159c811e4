#!/bin/sh
# Record Weka AdaBoostM1 (reweighting) over DecisionStump on bundled datasets into
# tests/fixtures/weka_adaboost.txt, which tests/test_gradient_boosting.c fits with treelab's
# adaboost (algorithm = M1, stumps with criterion = entropy, as DecisionStump's) and compares
# exactly: Weka is deterministic here (no resampling, weight threshold 100).
# Run from the repository root: scripts/peers/weka_adaboost.sh
# The format is that of sklearn_adaboost.txt (case, row, label lines).
set -eu
WEKA=${WEKA:-/usr/share/java/weka.jar}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -cp "$WEKA" -d "$tmp" scripts/peers/WekaAdaBoostM1.java
out=tests/fixtures/weka_adaboost.txt
{
  echo "# Weka $(java -cp "$WEKA" weka.core.Version 2>/dev/null | head -1) AdaBoostM1 -I ROUNDS over DecisionStump, probabilities on the training rows (scripts/peers/weka_adaboost.sh)"
  # dataset rounds
  for c in "iris 10" "wine 10" "wine 25" "diabetes 30" "ionosphere 20" "segment-challenge 10" \
           "glass 10"; do
    set -- $c
    java -cp "$WEKA:$tmp" WekaAdaBoostM1 "experiments/datasets/$1.arff" "$2" |
      sed "1s/^case \([^ ]*\)_m1 /case \1_m1_$2 /"
  done
} > "$out"
grep -c '^case' "$out" | xargs echo "$out: cases"
