#!/usr/bin/env bash
# Apply .clang-format to every C source and header git knows (scripts/format.sh), or only list
# the files it would change (scripts/format.sh --check, exit 1 when there are any). Meant to be
# run once over the whole tree when no branch is in flight, then on what each change touches.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format > /dev/null || { echo "format.sh: no clang-format (Debian: clang-format)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.c' '*.h')
if [ "${1:-}" = --check ]; then
    changed=0
    for f in "${files[@]}"; do
        clang-format "$f" | cmp -s - "$f" || { echo "$f"; changed=$((changed + 1)); }
    done
    [ $changed = 0 ] || { echo "format.sh: $changed files would change" >&2; exit 1; }
    exit 0
fi
clang-format -i "${files[@]}"
echo "format.sh: formatted ${#files[@]} files"
