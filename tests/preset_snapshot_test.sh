#!/usr/bin/env bash
# Regression guard: the id3/c45/cart presets must grow exactly the trees recorded in tests/fixtures/preset_snapshot.sha256.
#
# usage: tests/preset_snapshot_test.sh TREELAB_BINARY   (ctest runs it as test `preset_snapshot`)
#
# Runs scripts/preset_snapshot.sh into a temporary directory and compares its SHA256SUMS with
# the fixture. On a mismatch it lists the files that differ, are missing or are new, prints the
# head of the first differing file, keeps the snapshot directory for inspection and fails.
#
# environment:
#   TL_SNAPSHOT_UPDATE=1  rewrite tests/fixtures/preset_snapshot.sha256 from this binary's
#                         output instead of comparing (for a deliberate change of output; all
#                         datasets are run, TL_SNAPSHOT_SKIP is ignored). For example
#                           TL_SNAPSHOT_UPDATE=1 tests/preset_snapshot_test.sh build/treelab
#                         then review `git diff tests/fixtures/preset_snapshot.sha256`.
#   TL_SNAPSHOT_SKIP      dataset file names to leave out of the comparison (their lines in the
#                         fixture are ignored); see scripts/preset_snapshot.sh. The ASan
#                         build's ctest sets it to digits.arff to stay well under a minute.
set -uo pipefail
export LC_ALL=C

if [ $# -ne 1 ]; then
  echo "usage: $0 TREELAB_BINARY" >&2
  exit 1
fi
bin=$1
root=$(cd "$(dirname "$0")/.." && pwd)
fixture=$root/tests/fixtures/preset_snapshot.sha256
snap=$(mktemp -d "${TMPDIR:-/tmp}/preset_snapshot.XXXXXX") || exit 1
start=$SECONDS
# The fixture's first line (the rest is scripts/preset_snapshot.sh's SHA256SUMS; `#` lines are
# ignored when comparing, and `sha256sum -c` only warns about this one).
header="# sha256sum of scripts/preset_snapshot.sh's outputs (id3/c45/cart trees); checked by tests/preset_snapshot_test.sh, rewritten with TL_SNAPSHOT_UPDATE=1"

if [ "${TL_SNAPSHOT_UPDATE:-}" = 1 ]; then
  if ! TL_SNAPSHOT_SKIP='' "$root/scripts/preset_snapshot.sh" "$bin" "$snap"; then
    echo "preset_snapshot: FAILED - the snapshot script did not run; fixture not updated" >&2
    rm -rf "$snap"
    exit 1
  fi
  { echo "$header"; cat "$snap/SHA256SUMS"; } >"$fixture"
  echo "preset_snapshot: UPDATED $fixture ($(grep -vc '^#' "$fixture") files, $((SECONDS - start)) s)"
  rm -rf "$snap"
  exit 0
fi

if [ ! -f "$fixture" ]; then
  echo "preset_snapshot: FAILED - no fixture $fixture (record one with TL_SNAPSHOT_UPDATE=1)" >&2
  rm -rf "$snap"
  exit 1
fi
if ! "$root/scripts/preset_snapshot.sh" "$bin" "$snap"; then
  echo "preset_snapshot: FAILED - the snapshot script did not run" >&2
  rm -rf "$snap"
  exit 1
fi

# The fixture without the skipped datasets' files; both lists as "NAME HASH", sorted by name.
skip=" ${TL_SNAPSHOT_SKIP:-} "
expected=$snap/expected.tmp
actual=$snap/actual.tmp
while read -r hash name; do
  case $hash in '#'*) continue ;; esac
  ds=
  for d in $skip; do
    case $name in "$d".*) ds=$d ;; esac
  done
  [ -n "$ds" ] || echo "$name $hash"
done <"$fixture" | sort >"$expected"
awk '{print $2, $1}' "$snap/SHA256SUMS" | sort >"$actual"

# join on the name: changed (both, hashes differ), missing (fixture only), new (snapshot only)
changed=$(join "$expected" "$actual" | awk '$2 != $3 {print $1}')
missing=$(join -v1 "$expected" "$actual" | awk '{print $1}')
new=$(join -v2 "$expected" "$actual" | awk '{print $1}')
n_expected=$(wc -l <"$expected")
rm -f "$expected" "$actual"
skipped=""
[ -n "${TL_SNAPSHOT_SKIP:-}" ] && skipped=", skipped: ${TL_SNAPSHOT_SKIP}"

if [ -z "$changed$missing$new" ]; then
  rm -rf "$snap"
  echo "preset_snapshot: PASSED - all $n_expected files match $fixture ($((SECONDS - start)) s$skipped)"
  exit 0
fi

count() { if [ -z "$1" ]; then echo 0; else echo "$1" | wc -l; fi; }
list() { # TITLE NAMES
  [ -n "$2" ] || return 0
  echo "$1 ($(count "$2")):"
  echo "$2" | head -n 50 | sed 's/^/  /'
  [ "$(count "$2")" -le 50 ] || echo "  ..."
}
list "files whose output changed" "$changed"
list "files the fixture has but this run did not write" "$missing"
list "files this run wrote that the fixture does not have" "$new"
first=$(printf '%s\n%s\n' "$changed" "$new" | grep -m1 .)
if [ -n "$first" ]; then
  echo "--- head of $first (the fixture keeps only hashes, so no old text to diff against):"
  head -n 30 "$snap/$first"
  echo "---"
fi
echo "snapshot kept in $snap; if the change is deliberate, record it with"
echo "  TL_SNAPSHOT_UPDATE=1 $0 $bin"
echo "preset_snapshot: FAILED - $(count "$changed") changed, $(count "$missing") missing, $(count "$new") new of $n_expected files ($((SECONDS - start)) s$skipped)"
exit 1
