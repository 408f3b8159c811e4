#!/bin/sh
# The measurement behind soft_tree's `depth = auto`: 10-fold CV accuracy at depths 4..8 and
# auto on many-class data, Soybean (bundled, 19 classes) and, when R's mlbench package is
# installed (apt-get install r-cran-mlbench), Vowel (11 classes) and LetterRecognition (26
# classes, 20000 rows; about 10 minutes in all on one core). Needs a build (cmake --build build).
# usage: scripts/check_soft_tree_depth.sh [DEPTHS]   (default "4 5 6 7 8 auto")
set -eu
cd "$(dirname "$0")/.."
depths=${1:-"4 5 6 7 8 auto"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sets="experiments/datasets/soybean.arff"
if command -v Rscript >/dev/null && Rscript -e 'library(mlbench)' >/dev/null 2>&1; then
  Rscript -e 'library(mlbench); data(Vowel); v <- Vowel; v$V1 <- as.numeric(v$V1);
              write.csv(v, "'"$tmp"'/vowel.csv", row.names = FALSE, quote = FALSE);
              data(LetterRecognition); d <- LetterRecognition[, c(2:17, 1)];
              write.csv(d, "'"$tmp"'/letter.csv", row.names = FALSE, quote = FALSE)' >/dev/null
  sets="$sets $tmp/vowel.csv $tmp/letter.csv"
else
  echo "(R's mlbench is not installed: Soybean only)" >&2
fi
for data in $sets; do
  for depth in $depths; do
    printf '%s depth=%s: ' "$(basename "$data")" "$depth"
    OPENBLAS_NUM_THREADS=1 build/treelab cv "$data" --algo soft_tree --set depth="$depth" \
      --folds 10 --seed 1 --csv | tail -1
  done
done
