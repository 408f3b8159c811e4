#!/usr/bin/env bash
# Scale-out benchmark (docs/scale.md): wall time of configs/default.cfg serially and
# under mpirun with 2 and 4 ranks (rank 0 coordinates; on a 2-core machine 4 ranks are
# oversubscribed), one thread per rank, each checked byte for byte against the serial run;
# then the measured seconds per cell of every dataset x model against `run --plan`'s
# estimate (a build-mpi/ of another commit differs in the summary's "Produced by" line
# only, which is ignored; the cost constants of experiments/run/plan.c come from this table).
# Needs build/treelab and build-mpi/treelab (./scripts/setup.sh --mpi).
# Usage: scripts/bench/scale.sh [CONFIG]   (default: configs/default.cfg)
set -euo pipefail
cd "$(dirname "$0")/../.."
cfg=${1:-configs/default.cfg}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
now() { date +%s.%N; }
printf '%-28s %8s\n' run wall_s
t0=$(now); build/treelab run "$cfg" --out "$TMP/out" --quiet >/dev/null; t1=$(now)
mv "$TMP/out" "$TMP/serial"
printf '%-28s %8.1f\n' "serial, 1 thread" "$(echo "$t1 - $t0" | bc)"
for n in 2 4; do
  t0=$(now); mpirun --oversubscribe -n $n build-mpi/treelab run "$cfg" --out "$TMP/out" --quiet >/dev/null; t1=$(now)
  diff -r -I "^Produced by treelab" -x cells.txt -x timings.csv -x manifest "$TMP/out" "$TMP/serial" >/dev/null ||
    { echo "mpirun -n $n differs from the serial run" >&2; exit 1; }
  rm -rf "$TMP/out"
  printf '%-28s %8.1f\n' "mpirun -n $n ($((n - 1)) computing)" "$(echo "$t1 - $t0" | bc)"
done
echo
build/treelab run "$cfg" --plan | awk 'NR > 2 && $1 != "total" && NF == 7 { print $1 "," $2 "," $6 }' \
  | sort > "$TMP/plan"
awk -F, 'NR > 1 { k = $1 "," $2; s[k] += $5 + $6; n[k]++ }
         END { for (k in s) printf "%s,%.6f\n", k, s[k] / n[k] }' "$TMP/serial/timings.csv" \
  | sort > "$TMP/measured"
printf '%-16s %-12s %12s %12s %7s\n' dataset model measured_s estimated_s ratio
join -t, -j1 <(sed 's/,/|/' "$TMP/measured") <(sed 's/,/|/' "$TMP/plan") 2>/dev/null |
  awk -F, '{ split($1, k, "|"); printf "%-16s %-12s %12.6f %12.6f %7.2f\n", k[1], k[2], $2, $3, $3 / $2 }'
