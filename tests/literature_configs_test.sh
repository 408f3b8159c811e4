#!/usr/bin/env bash
# The literature configs (configs/literature/) run end to end: every cell, the summary,
# and the figures their READMEs show. Usage: tests/literature_configs_test.sh build/treelab
set -euo pipefail
treelab=$(realpath "$1")
cd "$(dirname "$0")/.."
out=$(mktemp -d /tmp/tl_literature.XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "literature_configs: $*" >&2; exit 1; }
# config, cells expected (datasets x models x folds x repeats), a figure it must draw
check() {
  local cfg=$1 cells=$2 figure=$3 t0=$SECONDS
  "$treelab" run "configs/literature/$cfg.cfg" --out "$out/$cfg" --jobs 2 --quiet \
    || fail "$cfg: treelab run failed"
  local rows=$(($(wc -l < "$out/$cfg/metrics.csv") - 1))
  [ "$rows" -eq "$cells" ] || fail "$cfg: $rows cells in metrics.csv, expected $cells"
  grep -q "Friedman" "$out/$cfg/summary.md" || fail "$cfg: no Friedman test in the summary"
  [ -s "$out/$cfg/plots/$figure.dat" ] || fail "$cfg: figure $figure not drawn"
  echo "$cfg: $rows cells, $figure drawn, $((SECONDS - t0)) s"
}
check pruning_methods $((4 * 11 * 10 * 10)) size_accuracy_breast-cancer
check selection_measures $((4 * 20 * 10 * 10)) size_accuracy_vote
check missing_values $((4 * 4 * 6 * 10 * 5)) missing_wine
check chessboard $((3 * 6 * 10)) size_accuracy_chessboard_noise5
