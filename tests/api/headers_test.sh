#!/usr/bin/env bash
# Every public header stands on its own: each is compiled alone (included twice, so its guard is
# tested too) as C11 and as C++17 with warnings as errors. Exit 77 (skipped) without a C++ compiler.
#   tests/api/headers_test.sh INCLUDE_DIR CC [CXX]
set -uo pipefail
inc=$1 cc=$2 cxx=${3:-}
flags=(-Wall -Wextra -Wpedantic -Werror -fsyntax-only -I "$inc")
status=0 n=0
for h in "$inc"/treelab/*.h; do
    name=treelab/$(basename "$h")
    src=$(printf '#include "%s"\n#include "%s"\ntypedef int tl_unit_not_empty;\n' "$name" "$name")
    if ! out=$(echo "$src" | "$cc" -std=c11 "${flags[@]}" -x c - 2>&1); then
        echo "FAIL (C11): $name"; echo "$out"; status=1
    fi
    if [ -n "$cxx" ] && ! out=$(echo "$src" | "$cxx" -std=c++17 "${flags[@]}" -x c++ - 2>&1); then
        echo "FAIL (C++17): $name"; echo "$out"; status=1
    fi
    n=$((n + 1))
done
[ $n -gt 0 ] || { echo "FAIL: no header in $inc/treelab"; exit 1; }
if [ -z "$cxx" ]; then
    echo "$n headers compile alone as C11; C++17 SKIPPED: no C++ compiler found (Debian: g++)"
    [ $status = 0 ] && exit 77
fi
[ $status = 0 ] && echo "ok: $n headers compile alone as C11${cxx:+ and C++17}"
exit $status
