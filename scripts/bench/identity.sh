#!/bin/sh
# Byte identity of the grown trees between two treelab builds (a check, not a ctest): fits
# every bundled dataset, the weighted fixtures and synthetic 10^4 / 10^5 sets with cart (gini,
# entropy, mse / friedman_mse / mae on numeric targets, prune = cv, min_samples_leaf,
# max_depth, the missing-value methods, numeric = histogram), id3, c45 and the tree ensembles,
# with both programs, and compares the saved model files byte for byte (and the error text
# where both refuse a combination).
# Usage: [BIG=1] scripts/bench/identity.sh OLD_TREELAB NEW_TREELAB [SYNTH_DIR]
#   SYNTH_DIR: folder with d10000.csv / d100000.csv from
#   `scripts/peers/sklearn_fit_bench.py data ROWS FILE` (written there when missing)
# Prints one line per difference and a summary; exits 1 when any model differs.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD_TREELAB NEW_TREELAB [SYNTH_DIR]" >&2; exit 2; }
OLD=$1 NEW=$2
cd "$(dirname "$0")/../.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SYN=${3:-$TMP}
for r in 10000 100000; do
    [ -f "$SYN/d$r.csv" ] || /usr/bin/python3 scripts/peers/sklearn_fit_bench.py data $r "$SYN/d$r.csv"
done
checked=0 same=0 differ=0 refused=0
# one fit with each program: DATA ALGO [--set ...]
fit() {
    data=$1 algo=$2
    shift 2
    rc_old=0 rc_new=0
    "$OLD" fit "$data" --algo "$algo" "$@" -o "$TMP/old.model" > "$TMP/old.out" 2>&1 || rc_old=$?
    "$NEW" fit "$data" --algo "$algo" "$@" -o "$TMP/new.model" > "$TMP/new.out" 2>&1 || rc_new=$?
    checked=$((checked + 1))
    if [ $rc_old -ne 0 ] || [ $rc_new -ne 0 ]; then
        if [ $rc_old -eq $rc_new ] && cmp -s "$TMP/old.out" "$TMP/new.out"; then
            refused=$((refused + 1))
        else
            differ=$((differ + 1))
            echo "DIFFERENT EXIT: $data $algo $* (old $rc_old, new $rc_new)"
        fi
        rm -f "$TMP/old.model" "$TMP/new.model"
        return 0
    fi
    if cmp -s "$TMP/old.model" "$TMP/new.model"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "DIFFERENT MODEL: $data $algo $*"
    fi
    rm -f "$TMP/old.model" "$TMP/new.model"
}
for data in experiments/datasets/*.arff experiments/datasets/*.csv tests/fixtures/weighted/*.arff; do
    for set in "" "criterion=entropy" "prune=cv" "min_samples_leaf=5" "max_depth=4" \
               "missing=surrogate" "missing=majority" "criterion=entropy missing=surrogate" \
               "criterion=friedman_mse" "criterion=mae" "criterion=twoing" "ccp_risk=error prune=cv"; do
        args=""
        for kv in $set; do args="$args --set $kv"; done
        # shellcheck disable=SC2086
        fit "$data" cart $args
    done
    fit "$data" id3
    fit "$data" c45
    fit "$data" tree --set criterion=gini --set numeric=numeric_threshold --set nominal=nominal_multiway
    # the histogram splitter: no sorted blocks nor records; surrogate sorts nodes on demand
    fit "$data" cart --set numeric=histogram
    fit "$data" cart --set numeric=histogram --set numeric.max_bins=16 --set missing=surrogate
done
for r in 10000 100000; do
    fit "$SYN/d$r.csv" cart
    fit "$SYN/d$r.csv" cart --set criterion=entropy
    fit "$SYN/d$r.csv" cart --set min_samples_leaf=3
    fit "$SYN/d$r.csv" c45
    fit "$SYN/d$r.csv" cart --set numeric=histogram
done
fit "$SYN/d10000.csv" cart --set prune=cv
# the ensembles (their trees grow through the same splitters): few members on every bundled
# set, more on the synthetic one, classes and numeric targets, bootstrap weights and not
for data in experiments/datasets/*.arff experiments/datasets/*.csv tests/fixtures/weighted/*.arff; do
    fit "$data" random_forest --set n_estimators=3
    fit "$data" extra_trees --set n_estimators=3
    fit "$data" gradient_boosting --set n_estimators=5
    fit "$data" adaboost --set n_estimators=5
    fit "$data" bagging --set n_estimators=3
done
fit "$SYN/d10000.csv" random_forest --set n_estimators=10
fit "$SYN/d10000.csv" random_forest --set n_estimators=10 --jobs 2
fit "$SYN/d10000.csv" random_forest --set n_estimators=10 --set oob_score=true --set bootstrap_features=true
fit "$SYN/d10000.csv" random_forest --set n_estimators=10 --set max_samples=0.3 --set min_samples_leaf=3
fit "$SYN/d10000.csv" bagging --set n_estimators=5 --set bootstrap=false --set max_samples=0.5
fit "$SYN/d10000.csv" random_forest --set n_estimators=5 --set max_features=all --set bootstrap=false
fit "$SYN/d10000.csv" extra_trees --set n_estimators=10
fit "$SYN/d10000.csv" extra_trees --set n_estimators=5 --set bootstrap=true --set max_features=all
fit "$SYN/d10000.csv" gradient_boosting --set n_estimators=10
fit "$SYN/d10000.csv" gradient_boosting --set n_estimators=10 --set subsample=0.5
# 10^6 rows: nodes above the compact records' share build them per attribute (BIG=1)
if [ "${BIG:-0}" = 1 ]; then
    [ -f "$SYN/d1000000.csv" ] ||
        /usr/bin/python3 scripts/peers/sklearn_fit_bench.py data 1000000 "$SYN/d1000000.csv"
    fit "$SYN/d1000000.csv" cart
    fit "$SYN/d1000000.csv" cart --set criterion=entropy --set min_samples_leaf=2
fi
echo "identity: $checked fits, $same models byte-identical, $refused refused alike, $differ different"
[ "$differ" -eq 0 ]
