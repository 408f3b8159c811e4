#!/usr/bin/env bash
# Slurm-array style runs: 3 shards of an experiment, merged, equal a serial run byte for byte
# (timings aside); the partition is stable; merge refuses shards of another config or data,
# a shard given twice or missing, and an unfinished one (until it is resumed).
#
# usage: tests/scale_test.sh TREELAB_BINARY   (ctest runs it as test `scale`)
set -uo pipefail

[ $# -eq 1 ] || { echo "usage: $0 TREELAB_BINARY" >&2; exit 1; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/scale_lib.sh"
w=$(mktemp -d "${TMPDIR:-/tmp}/scale_test.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT
mkdir "$w/data"
cp "$root/experiments/datasets/vote.arff" "$root/experiments/datasets/diabetes.arff" "$w/data/"
write_config "$w/x.cfg" scale 5 "$w/data"
write_config "$w/other.cfg" scale 6 "$w/data"   # another seed: another config
cd "$w" || exit 1
q=--quiet

"$bin" run x.cfg --out out --jobs 2 $q >/dev/null || fail "serial run"
mv out serial

# the plan counts every cell
plan=$("$bin" run x.cfg --plan --wall 1s) || fail "--plan"
grep -q "$TOTAL_CELLS cells" <<<"$plan" || fail "--plan does not say $TOTAL_CELLS cells: $plan"
grep -q "^total" <<<"$plan" || fail "--plan has no total line: $plan"

for i in 1 2 3; do
  "$bin" run x.cfg --shard $i/3 --out s$i $q >/dev/null || fail "shard $i/3"
  [ ! -e s$i/metrics.csv ] || fail "shard $i wrote reports"
  grep -q "^# shard $i 3\$" s$i/cells.txt || fail "shard $i's header does not name it"
done
n1=$(cell_count s1) n2=$(cell_count s2) n3=$(cell_count s3)
[ $((n1 + n2 + n3)) -eq $TOTAL_CELLS ] || fail "shards hold $n1 + $n2 + $n3 cells"
for n in $n1 $n2 $n3; do
  [ "$n" -ge 10 ] || fail "unbalanced shards: $n1, $n2, $n3 cells"
done

# stable: the same cells whatever the threads
"$bin" run x.cfg --shard 2/3 --out s2b --jobs 2 $q >/dev/null || fail "shard 2/3 again"
keys() { grep -v '^#' "$1/cells.txt" | cut -f1-4 | sort; }
[ "$(keys s2)" = "$(keys s2b)" ] || fail "shard 2/3 holds other cells the second time"

"$bin" merge s1 s2 s3 --out out >/dev/null || fail "merge"
mv out merged
same_results merged serial
# shards in any order
"$bin" merge s3 s1 s2b --out out >/dev/null || fail "merge in another order"
mv out merged2
same_results merged2 serial

# refused, and no folder made
"$bin" run other.cfg --shard 2/3 --out foreign $q >/dev/null || fail "shard of other.cfg"
expect_fail "foreign is a shard of another experiment" "$bin" merge s1 foreign s3 --out bad
expect_fail "config SHA-256" "$bin" merge s1 foreign s3 --out bad
expect_fail "given twice" "$bin" merge s1 s2 s2b s3 --out bad
expect_fail "shard 3/3 is missing" "$bin" merge s1 s2 --out bad
expect_fail "not a shard" "$bin" merge s1 s2 serial --out bad
expect_fail "merged already holds results; merge writes into a new or empty folder" "$bin" merge s1 s2 s3 --out merged
# merge has no --resume: its refusal must not suggest one
err=$("$bin" merge s1 s2 s3 --out merged 2>&1 >/dev/null)
! grep -qF -- "--resume" <<<"$err" || fail "merge suggests a --resume it does not have: $err"
# the same config with changed data: its checksum differs
cp -r s2 s2data
printf '%% a changed file\n' >> data/vote.arff
"$bin" run x.cfg --shard 1/3 --out changed $q >/dev/null || fail "shard on changed data"
expect_fail "dataset 'vote' with data SHA-256" "$bin" merge changed s2 s3 --out bad
cp "$root/experiments/datasets/vote.arff" data/vote.arff
[ ! -e bad ] || fail "a refused merge left its folder"

# every shard and the merged file end in the checksum of their cells
for d in s1 s2 s3 merged; do
  n=$(cell_count $d)
  tail -n 1 $d/cells.txt | grep -Eq "^# checksum sha256 $n [0-9a-f]{64}\$" ||
    fail "$d/cells.txt does not end in the checksum of its $n cells"
done
# a value edited in range: refused at the checksum line
cp -r s2 s2edit
sed -i '0,/^[0-9]/s/^\(\([^\t]*\t\)\{9\}\)[^\t]*/\10.5/' s2edit/cells.txt
expect_fail "s2edit/cells.txt:$(wc -l < s2edit/cells.txt): the checksum of the $(cell_count s2edit) cells" \
  "$bin" merge s1 s2edit s3 --out bad
# an unfinished shard (its checksum line and 3 cells cut) is named, then resumed
head -n -4 s3/cells.txt > s3/cells.new && mv s3/cells.new s3/cells.txt
expect_fail "shard 3/3 in s3 has $((n3 - 3)) of its $n3" "$bin" merge s1 s2 s3 --out bad
expect_fail "--resume" "$bin" merge s1 s2 s3 --out bad
expect_fail "holds results" "$bin" run x.cfg --shard 3/3 --out s3 $q
expect_fail "this run has shard 2/3 against shard 3/3" "$bin" run x.cfg --shard 2/3 --out s3 --resume $q
"$bin" run x.cfg --shard 3/3 --out s3 --resume $q >/dev/null || fail "resume shard 3/3"
"$bin" merge s1 s2 s3 --out out >/dev/null || fail "merge after resume"
mv out merged3
same_results merged3 serial

# a FIFO in place of a shard's cells.txt: refused at once (merge hung reading it)
mkdir fifo && mkfifo fifo/cells.txt
expect_fail "fifo/cells.txt: not a regular file" timeout 20 "$bin" merge fifo s2 s3 --out bad --config x.cfg
[ ! -e bad ] || fail "a refused merge left its folder"

# a user's folder: merge refuses it before writing, names --force, and leaves it as it was
mkdir paper && echo mine > paper/tables.tex
expect_fail "paper is not a treelab results folder (it holds 'tables.tex'" "$bin" merge s1 s2 s3 --out paper
expect_fail "--force" "$bin" merge s1 s2 s3 --out paper
[ "$(ls -A paper)" = tables.tex ] && [ "$(cat paper/tables.tex)" = mine ] ||
  fail "a refused merge changed a user's folder"
"$bin" merge s1 s2 s3 --out paper --force >/dev/null || fail "merge --force"
[ -s paper/metrics.csv ] || fail "merge --force wrote no metrics"

# a tampered config line: merge names the path and shows nothing of the file it names (a parse
# error's excerpt echoed its first line)
cp -r s1 tampered && sed -i 's|^# config .*|# config /etc/passwd|' tampered/cells.txt
expect_fail "the shards name their config /etc/passwd, which does not load as an experiment" \
  "$bin" merge tampered s2 s3 --out bad
err=$("$bin" merge tampered s2 s3 --out bad 2>&1 >/dev/null)
! grep -q "root:" <<<"$err" || fail "merge echoed the file a config line names: $err"
[ ! -e bad ] || fail "a refused merge left its folder"

# bad --shard values
for v in 0/3 4/3 3 x/2 1/0 2/ -18446744073709551615/2 +1/2 1/-3 " 1/2"; do
  expect_fail "--shard: expected I/N" "$bin" run x.cfg --shard "$v"
done
expect_fail "--wall" "$bin" run x.cfg --plan --wall 3y
echo "scale: 3 merged shards equal the serial run; refusals as expected"
