#!/usr/bin/env bash
# A grid over n_estimators costs one fit per fold: its cells are the numbers of the same models
# listed one by one (fitted separately), the same for --jobs 1 and 2, and the cells of one
# fold share one fit's time. Usage: tests/staged_grid_test.sh build/treelab
set -euo pipefail
treelab=$(realpath "$1")
src=$(realpath "$(dirname "$0")/..")
out=$(mktemp -d /tmp/tl_staged.XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "staged_grid: $*" >&2; exit 1; }
d=$src/experiments/datasets
cat > "$out/staged.cfg" <<CFG
name = "staged";
seed = 7;
datasets = ( "$d/wine.arff", { path = "$d/diabetes.arff"; target = "mass"; } );
models = (
  { name = "rf"; algorithm = "random_forest"; params = { oob_score = true; }; },
  { name = "gb"; algorithm = "gradient_boosting"; params = { max_depth = 2; subsample = 0.8; }; },
  { name = "rf_3"; algorithm = "random_forest"; params = { oob_score = true; n_estimators = 3; }; },
  { name = "rf_12"; algorithm = "random_forest"; params = { oob_score = true; n_estimators = 12; }; },
  { name = "gb_4"; algorithm = "gradient_boosting";
    params = { max_depth = 2; subsample = 0.8; n_estimators = 4; }; },
  { name = "gb_30"; algorithm = "gradient_boosting";
    params = { max_depth = 2; subsample = 0.8; n_estimators = 30; }; }
);
grids = ( { model = "rf"; param = "n_estimators"; values = [3, 12, 20]; },
          { model = "gb"; param = "n_estimators"; values = [4, 30]; } );
protocol = { kind = "cv"; folds = 4; repeats = 1; };
CFG
"$treelab" run "$out/staged.cfg" --out "$out/j1" --quiet --jobs 1 || fail "run --jobs 1 failed"
"$treelab" run "$out/staged.cfg" --out "$out/j2" --quiet --jobs 2 || fail "run --jobs 2 failed"
cmp -s "$out/j1/metrics.csv" "$out/j2/metrics.csv" || fail "metrics.csv differs for --jobs 1 and 2"
m=$out/j1/metrics.csv
for pair in "rf[n_estimators=3] rf_3" "rf[n_estimators=12] rf_12" "gb[n_estimators=4] gb_4" \
            "gb[n_estimators=30] gb_30"; do
  set -- $pair
  a=$(grep -F ",$1," "$m" | cut -d, -f1,3-)
  b=$(grep -F ",$2," "$m" | cut -d, -f1,3-)
  [ "$(printf '%s\n' "$a" | wc -l)" -eq 8 ] || fail "$1: not 8 cells"
  [ "$a" = "$b" ] || fail "$1 (one fit, truncated) differs from $2 (its own fit):
$a
$b"
done
# metrics.csv counts each cell's trees (its last column here), also once re-rendered from the cells
head -1 "$m" | grep -q ',leaves,depth,trees$' || fail "no trees column in metrics.csv"
"$treelab" report "$out/j1" > /dev/null 2>&1 || fail "report failed"
# (gradient boosting on wine's 3 classes: 3 trees a stage)
for c in "wine rf[n_estimators=3] 3" "diabetes rf[n_estimators=12] 12" "wine gb[n_estimators=30] 90" \
         "diabetes gb[n_estimators=30] 30" "wine rf 100"; do
  set -- $c
  n=$(grep -F "$1,$2,0," "$m" | awk -F, -v t="$3" '$NF == t' | wc -l)
  [ "$n" -eq 4 ] || fail "$1 $2: $n of 4 cells count $3 trees"
done
# one fit per dataset and fold: the grid's cells of a fold record the same fit time
t=$out/j1/timings.csv
for f in 0 1 2 3; do
  n=$(grep -F "rf[n_estimators=" "$t" | awk -F, -v f="$f" '$1 == "wine" && $4 == f { print $5 }' |
      sort -u | wc -l)
  [ "$n" -eq 1 ] || fail "wine fold $f: the rf grid's 3 cells record $n fit times, not one"
done
echo "staged_grid: 2 grids over n_estimators, one fit per fold, equal to separate fits"
