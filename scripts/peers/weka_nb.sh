#!/bin/sh
# Record Weka NaiveBayes probabilities on two all-nominal bundled datasets (with missing cells)
# and on iris (numeric: where Weka's estimator differs from the Gaussian one)
# into tests/fixtures/weka_nb_<dataset>.csv. Run from the repository root.
set -e
tmp=$(mktemp -d)
javac -cp /usr/share/java/weka.jar -d "$tmp" scripts/peers/WekaNaiveBayes.java
for d in vote weather.nominal iris; do
    java -cp "/usr/share/java/weka.jar:$tmp" WekaNaiveBayes "experiments/datasets/$d.arff" \
        > "tests/fixtures/weka_nb_$d.csv"
    echo "tests/fixtures/weka_nb_$d.csv"
done
rm -rf "$tmp"
