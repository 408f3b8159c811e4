#!/usr/bin/env bash
# Install treelab from a build folder into a scratch prefix, build examples/ against it twice
# (cc with `pkg-config --cflags --libs treelab`, and CMake with find_package(treelab)), run
# both builds and check their output: C4.5's tree of labor.arff (Weka J48's, as the README shows),
# and the out-of-tree Tsallis criterion used from examples/tsallis.cfg, whose q = 2 models
# must equal the Gini ones fold by fold.
#   tests/examples_test.sh BUILD_DIR SOURCE_DIR [CC]
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) cc=${3:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "cmake --install"; }

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
flags=$(pkg-config --cflags --libs treelab) || fail "pkg-config treelab"
mkdir -p "$tmp/pc"
for ex in fit_c45 own_criterion; do
    "$cc" -std=c11 -Wall -Wextra -Werror "$src/examples/$ex.c" $flags -lm \
        -Wl,-rpath,"$prefix/lib" -o "$tmp/pc/$ex" || fail "building $ex with pkg-config ($flags)"
done
cmake -S "$src/examples" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
    > "$tmp/cm.log" 2>&1 && cmake --build "$tmp/cm" > "$tmp/cmb.log" 2>&1 ||
    { cat "$tmp/cm.log" "$tmp/cmb.log" 2> /dev/null; fail "building examples/ with find_package"; }

for how in pc cm; do
    # they must run on the installed libraries, not the build tree's
    ldd "$tmp/$how/fit_c45" | grep "$prefix/lib/libtreelab.so" > /dev/null ||
        fail "$how/fit_c45 does not use $prefix/lib: $(ldd "$tmp/$how/fit_c45" | grep treelab)"
    out=$("$tmp/$how/fit_c45" "$src/experiments/datasets/labor.arff") || fail "$how/fit_c45 failed: $out"
    for line in "wage-increase-first-year <= 2.5: bad (15.27/2.27)" \
                "|   statutory-holidays <= 10: bad (10.77/4.77)" \
                "|   statutory-holidays > 10: good (30.96/1.0)" \
                "training accuracy: 50/57"; do
        grep -qxF -- "$line" <<< "$out" || fail "$how/fit_c45 did not print '$line':"$'\n'"$out"
    done
    out=$(cd "$tmp" && "$tmp/$how/own_criterion" "$src/examples/tsallis.cfg" "$tmp/res-$how" 2>&1) ||
        fail "$how/own_criterion failed: $out"
    grep -q "^criteria: .*, tsallis$" <<< "$out" || fail "tsallis is not listed last: $out"
    m=$tmp/res-$how/metrics.csv
    [ "$(grep -c ',tsallis_q2,' "$m")" = 20 ] || fail "expected 20 tsallis_q2 cells in $m"
    # same columns from accuracy on, fold by fold (the model name aside)
    diff <(grep ',gini,' "$m" | cut -d, -f1,3-) <(grep ',tsallis_q2,' "$m" | cut -d, -f1,3-) ||
        fail "tsallis with q = 2 differs from gini"
    diff -q "$tmp/res-$how/trees/vote__gini.txt" "$tmp/res-$how/trees/vote__tsallis_q2.txt" ||
        fail "the tsallis q = 2 tree of vote differs from gini's"
    ! diff -q <(grep ',gini,' "$m" | cut -d, -f1,3-) <(grep ',tsallis_q1.5,' "$m" | cut -d, -f1,3-) \
        > /dev/null || fail "tsallis with q = 1.5 is not a different criterion from gini"
    echo "ok ($how): C4.5 tree and predictions, tsallis registered and run from a config"
done
