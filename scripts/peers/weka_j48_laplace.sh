#!/bin/sh
# Record Weka J48 -A (Laplace-smoothed leaf probabilities) on rows it was not trained on, into
# tests/fixtures/weka_j48_laplace_<dataset>.csv, and J48 -A -U on a toy with an empty
# branch (see WekaJ48Laplace.java). Run from the
# repository root.
set -e
tmp=$(mktemp -d)
javac -cp /usr/share/java/weka.jar -d "$tmp" scripts/peers/WekaJ48Laplace.java
for d in soybean labor vote breast-cancer; do
    java -cp "/usr/share/java/weka.jar:$tmp" WekaJ48Laplace "experiments/datasets/$d.arff" \
        > "tests/fixtures/weka_j48_laplace_$d.csv"
    echo "tests/fixtures/weka_j48_laplace_$d.csv"
done
# an empty branch: the toy's level e, unpruned (-U)
java -cp "/usr/share/java/weka.jar:$tmp" WekaJ48Laplace tests/fixtures/smoothing_toy.arff \
    tests/fixtures/smoothing_toy_test.arff -U > tests/fixtures/weka_j48_laplace_toy.csv
echo tests/fixtures/weka_j48_laplace_toy.csv
rm -rf "$tmp"
