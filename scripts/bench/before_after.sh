#!/bin/sh
# all.sh's benchmarks on two source trees, before and after a change, in one run on one
# machine: each benchmark runs on one side then the other (the order alternates, so a load
# that drifts hits both), each side's report is kept, and every ratio of the two reports (a
# cell such as "2.41x", or a number under a column named "a / b", at the same place of the
# same table) is listed with its change. A
# change that slows nothing shows every ratio within noise (about 5% on a quiet machine).
# Usage: REPEATS=3 scripts/bench/before_after.sh OLD_TREE REPORT.md [NAME...]
#   OLD_TREE: a checkout of the commit before (git worktree add /tmp/before COMMIT) whose
#   build/ is built like ./build (cmake -DCMAKE_BUILD_TYPE=Release, the same peers).
#   NAME: as all.sh (default: all.sh's list). Takes twice all.sh's time (about 2 h at REPEATS=3).
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/bench/before_after.sh OLD_TREE REPORT.md [NAME...]" >&2; exit 2; }
old=$(cd "$1" && pwd) report=$2
shift 2
cd "$(dirname "$0")/../.."
new=$(pwd)
[ -x "$old/scripts/bench/all.sh" ] || { echo "before_after.sh: $old has no scripts/bench/all.sh" >&2; exit 2; }
[ $# -gt 0 ] || set -- fit rpart c45 ccp_cv soft_tree load histogram rss jobs
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

i=0
for name in "$@"; do
    i=$((i + 1))
    if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
    for side in $order; do
        [ $side = old ] && tree=$old || tree=$new
        echo "before_after.sh: $name on the $side tree ($tree) ..." >&2
        "$tree/scripts/bench/all.sh" "$TMP/$side.$name.md" "$name" || true
    done
done

# One report per side: all.sh's header once, then each benchmark's section.
for side in old new; do
    first=1
    for name in "$@"; do
        f=$TMP/$side.$name.md
        [ -f "$f" ] || continue
        if [ $first = 1 ]; then cat "$f"; first=0; else sed -n '/^## /,$p' "$f"; fi
    done > "$TMP/$side.md"
done

{
    echo "# treelab benchmarks before and after"
    echo
    echo "- before: $old (commit $(git -C "$old" rev-parse --short=12 HEAD 2> /dev/null || echo unknown))"
    echo "- after: $new (commit $(git rev-parse --short=12 HEAD 2> /dev/null || echo unknown))"
    echo "- regenerate: \`${REPEATS:+REPEATS=$REPEATS }scripts/bench/before_after.sh $old $report $*\`"
    echo
    echo "## Every ratio, before and after"
    echo
    echo "| benchmark | row | column | before | after | change |"
    echo "| --- | --- | --- | ---: | ---: | ---: |"
    # Cells are matched by (section, table row, column); a section whose tables differ in
    # shape between the sides (a benchmark changed) shows only the cells both have.
    awk -F'|' '
        FNR == 1 { side++ }
        /^## / { sec = substr($0, 4); row = 0; next }
        /^\|/ {
            if ($0 ~ /^\| *---/) next
            row++
            if (row == 1) { for (c = 2; c < NF; c++) { h = $c; gsub(/^ +| +$/, "", h); head[sec, c] = h } ; next }
            lab = $2; gsub(/^ +| +$/, "", lab)
            for (c = 3; c < NF; c++) {
                v = $c; gsub(/^ +| +$/, "", v)
                # a ratio: "2.41x", or a number under a column such as "peak / data"
                if (v !~ /^[0-9.]+x$/ && !(v ~ /^[0-9.]+$/ && head[sec, c] ~ /\/|ratio| x$/)) continue
                k = sec SUBSEP row SUBSEP c
                if (side == 1) { before[k] = v; order[++n] = k; label[k] = lab; col[k] = head[sec, c]; secof[k] = sec }
                else after[k] = v
            }
        }
        END {
            for (j = 1; j <= n; j++) {
                k = order[j]
                if (!(k in after)) continue
                b = before[k] + 0; a = after[k] + 0
                ch = b > 0 ? sprintf("%+.1f%%", 100 * (a / b - 1)) : "-"
                printf "| %s | %s | %s | %s | %s | %s |\n", secof[k], label[k], col[k], before[k], after[k], ch
            }
        }' "$TMP/old.md" "$TMP/new.md"
    echo
    echo "## Before"
    echo
    sed -e 's/^## /### /' -e 's/^# .*//' "$TMP/old.md"
    echo
    echo "## After"
    echo
    sed -e 's/^## /### /' -e 's/^# .*//' "$TMP/new.md"
} > "$report"
echo "before_after.sh: report written to $report" >&2
