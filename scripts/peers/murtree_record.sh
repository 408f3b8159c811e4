#!/bin/sh
# Build MurTree (Demirovic et al., JMLR 23 (2022)) from its public source outside this
# repository and record its optimal training misclassifications on MurTree's binarised DL
# files, as fixtures for tests/test_optimal.c. Fetches nothing: give the checkouts.
#   scripts/peers/murtree_record.sh MURTREE_SRC MURTREE_DATA_DL [BUILD_DIR]
# MURTREE_SRC: a checkout of github.com/MurTree/murtree; MURTREE_DATA_DL: the DL folder of
# github.com/MurTree/murtree-data (MIT licence); BUILD_DIR defaults to /tmp/murtree-build.
# Writes, from the repository root:
#   tests/fixtures/murtree/NAME.csv   the DL files the test reads (header class,f0,f1,...;
#                                     the label as c<label>, the 0/1 features as they are)
#   tests/fixtures/murtree/murtree_errors.txt   "NAME DEPTH MAX_NODES MISCLASSIFICATIONS"
# Prints the path of the MurTree binary (scripts/bench/optimal.sh runs it).
set -eu
SRC=${1:?usage: murtree_record.sh MURTREE_SRC MURTREE_DATA_DL [BUILD_DIR]}
DL=${2:?usage: murtree_record.sh MURTREE_SRC MURTREE_DATA_DL [BUILD_DIR]}
BUILD=${3:-/tmp/murtree-build}
OUT=tests/fixtures/murtree
# the files the unit test reads (small enough for seconds at depth 4, anneal only to depth 3
# there), and the ones the benchmark and its correctness check add
TESTED="hepatitis lymph primary-tumor tic-tac-toe vote heart-cleveland soybean anneal"
BENCHED="australian-credit german-credit vehicle breast-wisconsin diabetes audiology"
mkdir -p "$BUILD" "$OUT"
(cd "$BUILD" && cmake "$SRC" -DBUILD_STANDALONE_APPLICATION=ON -DCMAKE_BUILD_TYPE=Release \
   > cmake.log 2>&1 && make -j2 > make.log 2>&1)
BIN=$SRC/bin/murtree # where MurTree's CMakeLists puts the program
test -x "$BIN" || { echo "murtree_record.sh: no $BIN after the build" >&2; exit 1; }
to_csv() {
  awk '{ if (NR == 1) { printf "class"; for (i = 2; i <= NF; i++) printf ",f%d", i - 2; printf "\n" }
         printf "c%s", $1; for (i = 2; i <= NF; i++) printf ",%s", $i; printf "\n" }' "$1"
}
for f in $TESTED; do to_csv "$DL/$f.txt" > "$OUT/$f.csv"; done
{
  echo "# MurTree $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo '?') on murtree-data DL, recorded by scripts/peers/murtree_record.sh"
  echo "# name depth max_nodes misclassifications"
  for d in 2 3 4; do
    n=$(( (1 << d) - 1 ))
    for f in $TESTED $BENCHED; do
      e=$("$BIN" -file "$DL/$f.txt" -max-depth $d -max-num-nodes $n -time 3600 |
          awk '/MISCLASSIFICATION SCORE/ {print $3}')
      echo "$f $d $n $e"
    done
  done
} > "$OUT/murtree_errors.txt"
echo "$BIN"
