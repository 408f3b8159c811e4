#!/bin/sh
# Print Weka's counts for every bundled ARFF (the numbers in experiments/datasets/README.md).
set -e
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
javac -cp /usr/share/java/weka.jar -d "$tmp" scripts/peers/WekaCount.java
java -cp /usr/share/java/weka.jar:"$tmp" WekaCount experiments/datasets/*.arff
