#!/bin/sh
# Benchmark (not a test): C4.5 fit time in-process against Weka J48's build time in a warm
# JVM (scripts/bench/WekaJ48Time.java: the best of 3 builds), on the larger bundled Weka sets
# and synthetic data (scripts/bench/c45_synth.sh) of 10^4 and 10^5 rows, 2, 3 and 5 classes,
# with 5% of the cells unknown and with none. Pairs interleaved (treelab, J48, treelab, ...),
# one thread each, medians of REPEATS pairs; wall time and the CPU time of the fitting
# process or thread (the machine is shared: CPU time is the steadier). Checks that both
# sides grew the same tree (leaves and size).
# Run from the repository root after building into build/:  REPEATS=3 scripts/bench/c45.sh
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
. scripts/bench/c45_synth.sh
WEKA=${WEKA:-/usr/share/java/weka.jar}
BUILD=${BUILD:-build}
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude \
   scripts/bench/c45_fit_time.c "$BUILD/libtreelab.a" -lconfig -lgsl -lopenblas -lm -lpthread \
   -o "$TMP/c45_fit_time"
javac -nowarn -cp "$WEKA" -d "$TMP" scripts/bench/WekaJ48Time.java 2>/dev/null
c45_synth 10000 3 0.05 "$TMP/synth1e4_k3_miss.arff"
for k in 2 3 5; do
  c45_synth 100000 $k 0.05 "$TMP/synth1e5_k${k}_miss.arff"
  c45_synth 100000 $k 0 "$TMP/synth1e5_k${k}_full.arff"
done

# one word a field (all.sh then makes it a markdown table, which before_after.sh compares)
printf "%-20s %7s %9s %9s %7s %9s %9s %7s %s\n" data rows c45_s J48_s wall c45_cpu J48_cpu cpu \
  leaves/size_c45=J48
for f in experiments/datasets/segment-challenge.arff experiments/datasets/credit-g.arff \
         experiments/datasets/soybean.arff experiments/datasets/diabetes.arff \
         "$TMP"/synth1e4_k3_miss.arff "$TMP"/synth1e5_k2_miss.arff "$TMP"/synth1e5_k3_miss.arff \
         "$TMP"/synth1e5_k5_miss.arff "$TMP"/synth1e5_k2_full.arff "$TMP"/synth1e5_k3_full.arff \
         "$TMP"/synth1e5_k5_full.arff; do
  rows=$(awk 'd && NF && !/^%/{n++} tolower($1) == "@data"{d=1} END{print n}' "$f")
  : > "$TMP/ow"; : > "$TMP/oc"; : > "$TMP/jw"; : > "$TMP/jc"
  r=0
  while [ $r -lt "$REPEATS" ]; do
    set -- $("$TMP/c45_fit_time" "$f" c45 3)
    echo "$1" >> "$TMP/ow"; echo "$4" >> "$TMP/oc"; ours="$2/$3"
    set -- $(java -Xmx2g -XX:ActiveProcessorCount=1 -cp "$WEKA:$TMP" WekaJ48Time "$f" 3)
    echo "$2" >> "$TMP/jw"; echo "$3" >> "$TMP/jc"; theirs="$4/$5"
    r=$((r + 1))
  done
  ow=$(median < "$TMP/ow"); oc=$(median < "$TMP/oc")
  jw=$(median < "$TMP/jw"); jc=$(median < "$TMP/jc")
  same=$([ "$ours" = "$theirs" ] && echo "$ours=$theirs" || echo "$ours!=$theirs,TREES_DIFFER")
  printf "%-20s %7s %9s %9s %7s %9s %9s %7s %s\n" "$(basename "$f" .arff)" "$rows" "$ow" "$jw" \
    "$(awk -v a="$ow" -v b="$jw" 'BEGIN{ printf "%.1fx", b / a }')" "$oc" "$jc" \
    "$(awk -v a="$oc" -v b="$jc" 'BEGIN{ printf "%.1fx", b / a }')" "$same"
done
