#!/bin/sh
# Benchmark (not a test): C4.5 fit time in-process against Weka J48's "Time taken to build
# model", on the largest bundled Weka sets and synthetic data of 10^4 and 10^5 rows.
# Run from the repository root after building into build/:  scripts/bench/c45.sh
set -eu
WEKA=${WEKA:-/usr/share/java/weka.jar}
BUILD=${BUILD:-build}
TMP=${TMPDIR:-/tmp}/treelab_bench_c45
mkdir -p "$TMP"
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude \
   scripts/bench/c45_fit_time.c "$BUILD/libtreelab.a" -lconfig -lgsl -lopenblas -lm -lpthread \
   -o "$TMP/c45_fit_time"

# Synthetic: 8 numeric and 2 nominal attributes, 3 classes from a noisy rule, 5% cells missing.
synth() {
  awk -v n="$1" 'BEGIN {
    srand(1);
    print "@relation synth" n;
    for (j = 1; j <= 8; j++) print "@attribute x" j " numeric";
    print "@attribute c1 {a,b,c,d}"; print "@attribute c2 {u,v,w}";
    print "@attribute class {k0,k1,k2}"; print "@data";
    for (i = 0; i < n; i++) {
      line = ""; s = 0;
      for (j = 1; j <= 8; j++) { x[j] = int(rand() * 100000) / 1000; s += (j <= 3 ? x[j] : 0) }
      c1 = substr("abcd", int(rand() * 4) + 1, 1); c2 = substr("uvw", int(rand() * 3) + 1, 1);
      k = (s + (c1 == "a" ? 40 : 0) + 30 * rand()) < 170 ? 0 : ((x[4] < 50) ? 1 : 2);
      for (j = 1; j <= 8; j++) line = line (rand() < 0.05 ? "?" : sprintf("%.3f", x[j])) ",";
      print line (rand() < 0.05 ? "?" : c1) "," c2 ",k" k;
    }
  }' > "$TMP/synth$1.arff"
}
synth 10000
synth 100000

j48_time() {
  java -Xmx2g -cp "$WEKA" weka.classifiers.trees.J48 -t "$1" -no-cv 2>/dev/null |
    awk '/^Time taken to build model/{print $(NF-1)} /^Number of Leaves/{l=$NF} /^Size of the tree/{s=$NF} END{print l, s}' |
    tr '\n' ' '
}

printf "%-22s %8s %12s %12s %9s %s\n" data rows "c45 (s)" "J48 (s)" speedup "leaves/size c45 | J48"
for f in experiments/datasets/segment-challenge.arff experiments/datasets/credit-g.arff \
         experiments/datasets/soybean.arff experiments/datasets/diabetes.arff \
         "$TMP/synth10000.arff" "$TMP/synth100000.arff"; do
  rows=$(awk 'd && NF && !/^%/{n++} tolower($1) == "@data"{d=1} END{print n}' "$f")
  set -- $("$TMP/c45_fit_time" "$f" c45 3)
  ours=$1; ol=$2; os=$3
  set -- $(j48_time "$f")
  theirs=$1; jl=$2; js=$3
  speed=$(awk -v a="$ours" -v b="$theirs" 'BEGIN{ if (a > 0) printf "%.1fx", b / a; else print "-" }')
  printf "%-22s %8s %12s %12s %9s %s\n" "$(basename "$f" .arff)" "$rows" "$ours" "$theirs" "$speed" "$ol/$os | $jl/$js"
done
