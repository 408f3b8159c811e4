#!/bin/sh
# Every side-by-side benchmark of scripts/bench/ in turn, into one markdown report from which
# docs/speed.md's tables are regenerated: the date, the machine (uname -a, CPU model, cores,
# memory, load average), the commit, then for each comparison the exact command, how long it
# took and its table. A script that is not there is skipped with a note; one that fails is
# reported with its exit status and the others still run. Tables printed as markdown are kept
# as they are; a plain whitespace-aligned table (one header line, the same number of fields
# on every line) becomes one; anything else is kept verbatim in a code block. What a script
# prints on stderr (a peer missing, a warning) is quoted under its table.
# Usage: REPEATS=3 scripts/bench/all.sh REPORT.md [NAME...]
#   NAME: fit rpart c45 ccp_cv soft_tree load histogram rss jobs (default: all, in that order)
# Needs what each script needs (build/ with libtreelab.a and treelab, the peers); takes about
# an hour on a 2-core machine at REPEATS=3.
set -eu
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: scripts/bench/all.sh REPORT.md [NAME...]" >&2; exit 2; }
report=$1; shift
[ $# -gt 0 ] || set -- fit rpart c45 ccp_cv soft_tree load histogram rss jobs
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

title() {
    case $1 in
    fit) echo "CART fit against scikit-learn (DecisionTreeClassifier.fit)" ;;
    rpart) echo "CART fit against R's rpart (matched controls)" ;;
    c45) echo "C4.5 build against Weka J48" ;;
    ccp_cv) echo "CART pruned by cross-validated cost-complexity against scikit-learn" ;;
    soft_tree) echo "Soft tree epoch against PyTorch" ;;
    load) echo "Loading a CSV against pandas.read_csv" ;;
    histogram) echo "Histogram splitter against the exact splitter" ;;
    rss) echo "Peak memory of a CART fit against the data" ;;
    jobs) echo "run --jobs 2 against --jobs 1 (configs/default.cfg)" ;;
    *) echo "$1" ;;
    esac
}

# A script's stdout (file $1) as markdown.
to_markdown() {
    if grep -q '^|' "$1"; then
        grep '^|' "$1"
    elif awk 'NF { if (!n) n = NF; else if (NF != n) bad = 1 } END { exit !(n > 1 && !bad) }' "$1"; then
        awk 'NF { printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; printf "\n"
                  if (!h) { printf "|"; for (i = 1; i <= NF; i++) printf " --- |"; printf "\n"; h = 1 } }' "$1"
    else
        echo '```'
        cat "$1"
        echo '```'
    fi
}

commit=$(git rev-parse --short=12 HEAD 2> /dev/null || echo unknown)
git diff --quiet HEAD 2> /dev/null || commit="$commit (with uncommitted changes)"
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2> /dev/null || true)
mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2> /dev/null || true)
{
    echo "# treelab benchmarks"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- commit: $commit"
    echo "- machine: \`$(uname -a)\`"
    echo "- CPU: ${cpu:-unknown}, $(nproc) cores, ${mem:-unknown memory}"
    echo "- load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- REPEATS=${REPEATS:-the scripts' defaults}; one thread per side (OPENBLAS_NUM_THREADS=1)"
    echo "- regenerate: \`${REPEATS:+REPEATS=$REPEATS }scripts/bench/all.sh $report $*\`"
} > "$report"

for name in "$@"; do
    script=scripts/bench/$name.sh
    {
        echo
        echo "## $(title "$name")"
        echo
    } >> "$report"
    if [ ! -x "$script" ]; then
        echo "$script is not there (yet): skipped." >> "$report"
        echo "all.sh: $script is not there: skipped" >&2
        continue
    fi
    echo "all.sh: $script ..." >&2
    t0=$(date +%s)
    status=0
    "$script" > "$TMP/out" 2> "$TMP/err" || status=$?
    t1=$(date +%s)
    {
        echo "\`${REPEATS:+REPEATS=$REPEATS }$script\` ($((t1 - t0)) s, load average after: $(cut -d' ' -f1 /proc/loadavg))"
        echo
        to_markdown "$TMP/out"
        [ $status = 0 ] || { echo; echo "**failed: exit status $status**"; }
        if [ -s "$TMP/err" ]; then
            echo
            sed 's/^/> /' "$TMP/err" | tail -n 20
        fi
    } >> "$report"
done
echo "all.sh: report written to $report" >&2
