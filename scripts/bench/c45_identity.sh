#!/bin/sh
# Byte identity of saved C4.5 models between two builds (not a test: a speed change to the
# C4.5 path must not move one of J48's choices). Fits c45 (pruned, and unpruned so every
# grown test shows) and trees composed with c45_threshold on every bundled ARFF/CSV file
# and on synthetic sets of 10^4 and 10^5 rows (2, 3 and 5 classes, with and without unknown
# values), with both treelab programs, and compares the model files and messages.
# Usage: scripts/bench/c45_identity.sh OLD_TREELAB NEW_TREELAB   (e.g. main's build/treelab)
set -eu
cd "$(dirname "$0")/../.."
OLD=$1 NEW=$2
for b in "$OLD" "$NEW"; do
  "$b" --help > /dev/null || { echo "c45_identity: $b does not run" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. scripts/bench/c45_synth.sh
for n in 10000 100000; do
  for k in 2 3 5; do
    c45_synth $n $k 0 "$TMP/synth${n}_k${k}_full.arff"
    c45_synth $n $k 0.05 "$TMP/synth${n}_k${k}_miss.arff"
  done
done
# algorithm and settings, one composition a line (the synthetic sets take the first three)
cat > "$TMP/algos" <<'ALGOS'
c45
c45 --set prune=false --set collapse=false
tree --set criterion=gain_ratio --set numeric=c45_threshold --set nominal=nominal_multiway --set min_samples_leaf=2
c45 --set min_leaf=1 --set subtree_raising=false
c45 --set confidence=0.1 --set collapse=false
tree --set criterion=entropy --set numeric=c45_threshold --set numeric.slack=0
tree --set criterion=gini --set numeric=c45_threshold
tree --set criterion=gain_ratio --set numeric=c45_threshold --set missing=surrogate
tree --set numeric=random_subset --set numeric.mtry=2 --set numeric.numeric=c45_threshold --set criterion=gain_ratio --seed 3
tree
cart
ALGOS
same=0 differ=0 models=0
fit() { # BIN DATA OUT ARGS...
  bin=$1 data=$2 out=$3
  shift 3
  "$bin" fit "$data" -o "$out.model" "$@" > "$out.msg" 2>&1 || echo "exit $?" >> "$out.msg"
  sed -i -e "s|$bin|TREELAB|g" -e "s|$out|OUT|g" "$out.msg"
}
for f in experiments/datasets/*.arff experiments/datasets/*.csv tests/fixtures/*.arff \
         tests/fixtures/*.csv tests/fixtures/*/*.arff tests/fixtures/*/*.csv "$TMP"/synth*.arff; do
  [ -f "$f" ] || continue
  case $f in "$TMP"/*) max=3 ;; *) max=99 ;; esac
  i=0
  while IFS= read -r line && [ $i -lt $max ]; do
    i=$((i + 1))
    set -- $line
    algo=$1
    shift
    rm -f "$TMP/o.model" "$TMP/n.model"
    fit "$OLD" "$f" "$TMP/o" --algo "$algo" "$@"
    fit "$NEW" "$f" "$TMP/n" --algo "$algo" "$@"
    if cmp -s "$TMP/o.msg" "$TMP/n.msg" && { [ ! -f "$TMP/o.model" ] && [ ! -f "$TMP/n.model" ] ||
                                             cmp -s "$TMP/o.model" "$TMP/n.model"; }; then
      same=$((same + 1))
      [ ! -f "$TMP/n.model" ] || models=$((models + 1))
    else
      differ=$((differ + 1))
      echo "DIFFERS: $f --algo $line"
    fi
  done < "$TMP/algos"
done
echo "c45_identity: $same fits identical ($models of them saved a model), $differ differ"
[ "$differ" = 0 ]
