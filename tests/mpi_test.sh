#!/usr/bin/env bash
# MPI runs (a build with -DTREELAB_MPI=ON): mpirun -n 2, -n 4 and -n 3 with --jobs 2 equal the
# serial run byte for byte (timings aside); a rank killed mid-run fails the run (mpirun names
# the rank), keeps the finished cells, and --resume under mpirun completes them to the same
# results; a rank 0 that cannot start stops every rank at once.
#
# usage: tests/mpi_test.sh TREELAB_BINARY [MPIEXEC]   (ctest runs it as test `mpi`)
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: $0 TREELAB_BINARY [MPIEXEC]" >&2; exit 1; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mpirun=${2:-mpirun}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/scale_lib.sh"
# this sandbox (and CI containers) run as root, which Open MPI refuses unless told
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# no network interfaces to probe on one machine: shared memory and loopback
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
w=$(mktemp -d "${TMPDIR:-/tmp}/mpi_test.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT
write_config "$w/x.cfg" mpi 5 "$root/experiments/datasets"
cd "$w" || exit 1
mpi() { timeout 300 "$mpirun" --oversubscribe "$@"; }

"$bin" run x.cfg --out out --quiet >/dev/null || fail "serial run"
mv out serial
for ranks in 2 4; do
  mpi -n $ranks "$bin" run x.cfg --out out --quiet >/dev/null || fail "mpirun -n $ranks"
  mv out n$ranks
  same_results n$ranks serial
done
mpi -n 3 "$bin" run x.cfg --out out --jobs 2 --quiet >/dev/null || fail "mpirun -n 3 --jobs 2"
mv out j2
same_results j2 serial

# rank 0 refuses at once (the folder holds results), and no rank hangs
expect_fail "already holds results" mpi -n 3 "$bin" run x.cfg --out j2 --quiet

# kill rank 1 once a few cells are stored
mpi -n 3 "$bin" run x.cfg --out out --quiet >/dev/null 2>kill.err &
launcher=$!
for _ in $(seq 600); do
  [ -f out/cells.txt ] && [ "$(cell_count out)" -ge 5 ] && break
  sleep 0.05
done
descendants() { local c; for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done; }
victim=
for p in $(descendants "$launcher"); do
  if tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -x 'OMPI_COMM_WORLD_RANK=1' > /dev/null; then
    victim=$p
  fi
done
[ -n "$victim" ] || { kill "$launcher"; fail "rank 1 not found among mpirun's children"; }
kill -9 "$victim"
wait "$launcher"; st=$?
[ "$st" -ne 0 ] || fail "the run went on after rank 1 was killed"
grep -q "process rank 1 .*exited on signal 9" kill.err || fail "no word of rank 1 in: $(cat kill.err)"
# rank 0's own line ("... cells done; the finished ones are kept ...") is printed too, but
# mpirun may drop it while it tears the job down, so only mpirun's report is required
kept=$(cell_count out)
[ "$kept" -ge 5 ] && [ "$kept" -lt $TOTAL_CELLS ] || fail "$kept cells kept after the kill"
mpi -n 3 "$bin" run x.cfg --out out --resume --quiet >/dev/null 2>resume.err ||
  fail "mpirun --resume: $(cat resume.err)"
grep -q "resuming: $kept of $TOTAL_CELLS" resume.err || fail "resume did not start from $kept: $(cat resume.err)"
mv out resumed
same_results resumed serial
# rank 0 ends each run's cells file in the checksum of all its cells, which report verifies
for d in serial n2 n4 j2 resumed; do
  tail -n 1 $d/cells.txt | grep -Eq "^# checksum sha256 $TOTAL_CELLS [0-9a-f]{64}\$" ||
    fail "$d/cells.txt does not end in the checksum of its $TOTAL_CELLS cells"
  "$bin" report $d >/dev/null 2>&1 || fail "report $d"
done
echo "mpi: -n 2, -n 4, -n 3 --jobs 2 and a killed run resumed equal the serial run ($kept cells kept)"
