# Shared by tests/scale_test.sh and tests/mpi_test.sh: a small experiment, and comparing
# results folders byte for byte but for the timing fields.

# write_config FILE NAME SEED DATADIR: 2 datasets x 3 models x 5 folds x 2 repeats = 60 cells;
# the soft tree's epochs make a cell take tens of milliseconds, so a kill lands mid-run.
write_config() {
  cat > "$1" <<CFG
name = "$2";
seed = $3;
datasets = ( "$4/vote.arff", "$4/diabetes.arff" );
models = ( { name = "c45"; algorithm = "c45"; },
  { name = "cart"; algorithm = "cart"; params = { prune = "cv"; }; },
  { name = "soft"; algorithm = "soft_tree"; params = { epochs = 300; depth = 3; }; } );
protocol = { kind = "cv"; folds = 5; repeats = 2; };
baseline = "c45";
reports = [ "confusion", "trees", "trace" ];
plots = [ "accuracy", "confusion" ];
CFG
}
TOTAL_CELLS=60

fail() { echo "FAIL: $*" >&2; exit 1; }

# Cell lines (not the header) of DIR/cells.txt.
cell_count() { grep -vc '^#' "$1/cells.txt"; }

# same_results A B: every file equal but cells.txt (order, timings), timings.csv and the
# manifest (start and end times); both folders hold the same files. The folders must have
# been written at the same path (the figures' scripts name it), then renamed.
same_results() {
  [ -s "$1/metrics.csv" ] && [ -d "$1/confusion" ] || fail "$1 has no metrics.csv or confusion/"
  [ "$(wc -l < "$1/metrics.csv")" -eq $((TOTAL_CELLS + 1)) ] ||
    fail "$1/metrics.csv has $(wc -l < "$1/metrics.csv") lines, not $((TOTAL_CELLS + 1))"
  diff -r -x cells.txt -x timings.csv -x manifest "$1" "$2" >&2 ||
    fail "$1 and $2 differ (above)"
}

# expect_fail WORDS COMMAND...: exit status 1 and stderr containing WORDS.
expect_fail() {
  local words=$1; shift
  local err st
  err=$("$@" 2>&1 >/dev/null); st=$?
  [ "$st" -eq 1 ] || fail "exit status $st (not 1) from: $* -- $err"
  grep -qF -- "$words" <<<"$err" || fail "no '$words' in the message of: $* -- $err"
}
