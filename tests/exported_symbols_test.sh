#!/usr/bin/env bash
# The shared libraries export exactly the API: every symbol `nm -D` lists as defined is a tl_
# name that a public header declares with TL_API, and every such name is exported by one of them.
#   tests/exported_symbols_test.sh INCLUDE_DIR LIBTREELAB.so LIBTREELAB-EXPERIMENTS.so
set -euo pipefail
inc=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# names declared TL_API: the identifier before '(' (functions) or before ';' (extern data)
sed -n 's/^TL_API [^(]*[ *]\(tl_[A-Za-z0-9_]*\)(.*/\1/p; s/^extern TL_API .*[ *]\(tl_[A-Za-z0-9_]*\);.*/\1/p' \
    "$inc"/treelab/*.h | sort -u > "$tmp/declared"
: > "$tmp/exported"
status=0
for lib in "$@"; do
    nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' > "$tmp/lib"
    if grep -v '^tl_' "$tmp/lib" > "$tmp/bad"; then
        echo "FAIL: $(basename "$lib") exports names without the tl_ prefix:" $(cat "$tmp/bad")
        status=1
    fi
    echo "$(basename "$lib"): $(wc -l < "$tmp/lib") symbols"
    cat "$tmp/lib" >> "$tmp/exported"
done
sort -u -o "$tmp/exported" "$tmp/exported"
if [ "$(wc -l < "$tmp/declared")" -lt 100 ]; then
    echo "FAIL: only $(wc -l < "$tmp/declared") TL_API declarations found in $inc/treelab"; exit 1
fi
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
[ -z "$extra" ] || { echo "FAIL: exported but not declared TL_API in a header:" $extra; status=1; }
[ -z "$missing" ] || { echo "FAIL: declared TL_API but not exported (not defined?):" $missing; status=1; }
[ $status = 0 ] && echo "ok: $(wc -l < "$tmp/declared") API symbols, all exported, nothing else"
exit $status
