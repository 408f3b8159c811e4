#!/bin/sh
# The histogram splitter against the exact one: CART fit time (treelab's own clock around fit)
# and hold-out accuracy, numeric = numeric_threshold against numeric = histogram with
# max_bins 255 and 63, fully grown Gini trees, on the bundled numeric sets and on the synthetic
# data of scripts/bench/fit.sh (10^4, 10^5, 10^6 training rows, 20 numeric attributes), with
# scikit-learn 1.2.1's exact DecisionTreeClassifier as the reference. One thread each; each
# repeat runs the four in turn (exact, histogram 255, histogram 63, scikit-learn) so a load
# that comes and goes hits all of them; medians are reported. Hold-out: every 4th row (i % 4
# == 3) is scored, the others fitted (fit_time.c holdout=4, sklearn_holdout_bench.py). The
# exact side and scikit-learn should grow trees of about the same number of leaves (they
# differ only at ties); the histogram side grows the exact tree whenever no attribute has
# more distinct values than max_bins (tests/test_histogram.c).
# Needs build/libtreelab.a (./scripts/setup.sh) and Debian's python3-sklearn.
# Usage: REPEATS=3 [DEPTH=D] scripts/bench/histogram.sh [DATA...]   DATA: a bundled ARFF name
#        or a row count of synthetic training rows (default: the bundled numeric sets, 10000
#        100000 1000000); DEPTH: every tree limited to max_depth = D instead of fully grown
set -eu
cd "$(dirname "$0")/../.."
. scripts/bench/common.sh
HAVE_SK=1
$PY -c 'import sklearn' 2>/dev/null || { HAVE_SK=0; echo "python3-sklearn missing: treelab only" >&2; }
depth=${DEPTH:+max_depth=$DEPTH}
[ $# -gt 0 ] || set -- iris wine glass diabetes ionosphere breast_cancer segment-challenge digits \
    10000 100000 1000000
printf '%-18s %8s | %8s %8s %8s %8s | %6s %6s | %6s %6s %6s %6s | %6s %6s %6s %6s | %5s %5s\n' \
    data train exact_s h255_s h63_s sk_s x255 x63 acc_ex acc255 acc63 acc_sk \
    lv_ex lv255 lv63 lv_sk mem_ex mem255
for data in "$@"; do
    case $data in
    *[!0-9]*) file=experiments/datasets/$data.arff ;;
    *) # the training rows asked for, plus a third of that for the hold-out (every 4th row)
        file=$TMP/d.csv
        $PY scripts/peers/sklearn_fit_bench.py data $((data + data / 3)) "$file" ;;
    esac
    for side in ex h255 h63 sk; do : > "$TMP/$side"; done
    r=0
    while [ $r -lt "$REPEATS" ]; do
        "$TMP/bench" "$file" cart holdout=4 $depth >> "$TMP/ex"
        "$TMP/bench" "$file" cart holdout=4 $depth numeric=histogram >> "$TMP/h255"
        "$TMP/bench" "$file" cart holdout=4 $depth numeric=histogram numeric.max_bins=63 >> "$TMP/h63"
        [ "$HAVE_SK" = 0 ] || $PY scripts/peers/sklearn_holdout_bench.py "$file" 4 ${DEPTH:-} >> "$TMP/sk"
        r=$((r + 1))
    done
    # fit_time.c: train seconds leaves peak_mb before_mb data_mb cpu_s load_peak_mb accuracy;
    # sklearn: s leaves acc
    med() { awk -v c="$2" '{ print $c }' "$TMP/$1" | median; }
    last() { tail -n 1 "$TMP/$1" | awk -v c="$2" '{ print $c }'; }
    ex=$(med ex 2) h255=$(med h255 2) h63=$(med h63 2)
    if [ "$HAVE_SK" = 1 ]; then sk=$(med sk 1) acc_sk=$(last sk 3) lv_sk=$(last sk 2); else sk=- acc_sk=- lv_sk=-; fi
    x255=$(awk -v a="$ex" -v b="$h255" 'BEGIN { printf "%.2fx", a / b }')
    x63=$(awk -v a="$ex" -v b="$h63" 'BEGIN { printf "%.2fx", a / b }')
    mem() { awk -v p="$(last "$1" 4)" -v d="$(last "$1" 6)" 'BEGIN { printf "%.2f", (d > 1 ? p / d : 0) }'; }
    printf '%-18s %8s | %8s %8s %8s %8s | %6s %6s | %6s %6s %6s %6s | %6s %6s %6s %6s | %5s %5s\n' \
        "$data" "$(last ex 1)" "$ex" "$h255" "$h63" "$sk" "$x255" "$x63" \
        "$(last ex 9)" "$(last h255 9)" "$(last h63 9)" "$acc_sk" \
        "$(last ex 3)" "$(last h255 3)" "$(last h63 3)" "$lv_sk" "$(mem ex)" "$(mem h255)"
done
