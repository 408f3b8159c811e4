#!/usr/bin/env bash
# Run clang-tidy (.clang-tidy: bugprone-*, clang-analyzer-*) over the library and CLI sources
# with the compile commands of a clang build in build-tidy/, two files at a time (~4 min).
# Findings listed in scripts/tidy_baseline.txt (reviewed false positives, by file, message and
# check, not line) are left out; any other finding is printed and the exit status is 1.
#   scripts/tidy.sh [FILE...]           check (default: every .c under algorithms/, experiments/)
#   scripts/tidy.sh --update-baseline   record today's findings as the baseline (review first!)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-tidy > /dev/null || { echo "tidy.sh: no clang-tidy (Debian: clang-tidy)" >&2; exit 1; }
baseline=scripts/tidy_baseline.txt
update=0
if [ "${1:-}" = --update-baseline ]; then update=1; shift; fi
cmake -S . -B build-tidy -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_C_COMPILER=clang > /dev/null
cmake --build build-tidy --target treelab_commit > /dev/null
files=("$@")
# experiments/run/mpi.c, mpi_master.c and mpi_worker.c are left out: they need mpi.h, which only
# the MPI build (-DTREELAB_MPI=ON) has.
[ ${#files[@]} -gt 0 ] || mapfile -t files < <(git ls-files 'algorithms/*.c' 'experiments/*.c' |
                                              grep -Ev '^experiments/run/mpi(_master|_worker)?\.c$')
root=$(pwd)/
# "file: message [check]", without line and column, so the baseline survives edits elsewhere
raw=$(printf '%s\n' "${files[@]}" | xargs -P 2 -n 4 clang-tidy -p build-tidy --quiet 2> /dev/null || true)
found=$({ grep -E '^/.*: (warning|error): ' <<< "$raw" || true; } |
        sed -E "s#^$root##; s#^([^:]+):[0-9]+:[0-9]+: (warning|error): #\\1: #" | sort)
if [ $update = 1 ]; then
    { echo "# clang-tidy findings reviewed as false positives (scripts/tidy.sh --update-baseline)"
      echo "$found"; } > "$baseline"
    echo "tidy.sh: $(echo "$found" | grep -c . || true) findings recorded in $baseline"
    exit 0
fi
new=$(comm -23 <(echo "$found" | sort) <(grep -v '^#' "$baseline" 2> /dev/null | sort) | grep . || true)
if [ -n "$new" ]; then
    echo "$new"
    echo "tidy.sh: $(echo "$new" | wc -l) findings not in $baseline" >&2
    exit 1
fi
echo "tidy.sh: no new findings in ${#files[@]} files ($(grep -vc '^#' "$baseline" 2> /dev/null || echo 0) baselined)"
