#!/usr/bin/env bash
# treelab(1) renders without a warning: `man --warnings -l`, else `groff -man -ww`; exit 77
# (skipped) when neither is installed (Debian: man-db, groff-base).
#   tests/man_test.sh MANPAGE
set -uo pipefail
page=$1
[ -s "$page" ] || { echo "FAIL: no man page at $page"; exit 1; }
if command -v man > /dev/null; then
    tool="man --warnings -l"
    out=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 > /dev/null)
    text=$(MANWIDTH=80 man -l "$page" 2> /dev/null)
elif command -v groff > /dev/null; then
    tool="groff -man -ww"
    out=$(groff -man -ww -z "$page" 2>&1)
    text=$(groff -man -Tutf8 "$page" 2> /dev/null)
else
    echo "SKIPPED: neither man nor groff is installed (Debian: man-db)"; exit 77
fi
[ -z "$out" ] || { echo "FAIL: $tool warns:"; echo "$out"; exit 1; }
# every subcommand and the config format are described
status=0
for word in run report cv fit predict show path plot info plugins stats "EXPERIMENT FILES" protocol; do
    grep -q -- "$word" <<< "$text" || { echo "FAIL: the page does not mention '$word'"; status=1; }
done
[ $status = 0 ] && echo "ok: $tool renders $(wc -l <<< "$text") lines without a warning"
exit $status
