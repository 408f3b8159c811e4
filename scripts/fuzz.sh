#!/usr/bin/env bash
# Run the libFuzzer harnesses of tests/fuzz (ARFF, CSV, experiment files, model files, results
# folders, grid configs), built by clang in build-fuzz/.
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]         each harness SECONDS (default 600) in fork
#                                                  mode on both cores, one after another; every
#                                                  crash is kept, then minimised
#   scripts/fuzz.sh --test [SECONDS] [HARNESS...]  the test suite's step (scripts/test.sh): each
#                                                  harness SECONDS (default 60), two at a time;
#                                                  the first finding stops that harness
#
# HARNESS: arff, csv, experiment, model, results (cells.txt: report and merge), grid (configs
# with grids, planned) (default: all six). The corpus each run grows is
# build-fuzz/corpus/HARNESS (seeded from tests/fuzz/corpus/HARNESS, which is never written);
# findings and logs go to build-fuzz/findings/RUN/. Exit status: 0 when nothing was found, 1
# on a finding (each input's path is printed) or a failed build. Without clang and
# libFuzzer (Debian: clang, libclang-rt-dev; ./scripts/setup.sh installs them), --test says
# it skips and exits 0, the long run exits 1.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

mode=long
seconds=
if [ "${1:-}" = "--test" ]; then mode=test; shift; fi
case ${1:-} in -h | --help) sed -n '2,18p' "$0"; exit 0 ;; esac
if [[ ${1:-} =~ ^[0-9]+$ ]]; then seconds=$1; shift; fi
[ -n "$seconds" ] || seconds=$([ $mode = test ] && echo 60 || echo 600)
[ "$seconds" -gt 0 ] || { echo "fuzz.sh: SECONDS must be positive" >&2; exit 1; }
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(arff csv experiment model results grid)
for h in "${harnesses[@]}"; do
    [ -f "tests/fuzz/fuzz_$h.c" ] || { echo "fuzz.sh: no harness '$h' (arff, csv, experiment, model, results, grid)" >&2; exit 1; }
done

# clang with libFuzzer: link a one-line fuzz target.
probe=$(mktemp -d)
if ! command -v clang > /dev/null ||
   ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }' |
     clang -fsanitize=fuzzer,address -x c - -o "$probe/probe" > /dev/null 2>&1; then
    rm -rf "$probe"
    msg="no clang with libFuzzer (Debian: apt-get install clang libclang-rt-dev, or ./scripts/setup.sh)"
    if [ $mode = test ]; then echo "== fuzzing: SKIPPED: $msg =="; exit 0; fi
    echo "fuzz.sh: $msg" >&2
    exit 1
fi
rm -rf "$probe"

build=build-fuzz
jobs=$(nproc 2> /dev/null || echo 2)
if ! { cmake -S . -B $build -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DTREELAB_FUZZ=ON > /dev/null && cmake --build $build -j "$jobs" > "$build.log" 2>&1; }; then
    [ -f "$build.log" ] && tail -30 "$build.log" >&2
    echo "fuzz.sh: the fuzz build failed" >&2
    exit 1
fi
rm -f "$build.log"

run=$root/$build/findings/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$run/tmp"
# Sanitizer reports abort the input under test; libconfig's own leak is suppressed (see the file).
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS=suppressions=$root/tests/fuzz/lsan.supp
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OPENBLAS_NUM_THREADS=1
export TMPDIR=$run/tmp # the harnesses' input files (tl_fuzz_input)
common=(-timeout=25 -rss_limit_mb=2048 -print_final_stats=1)

fuzz_one() { # harness: fuzz it for $seconds into $run/harness/ and $run/harness.log
    local h=$1
    mkdir -p "$run/$h" "$build/corpus/$h"
    local opts=("${common[@]}" -max_total_time="$seconds" -artifact_prefix="$run/$h/")
    # fork mode keeps going past a crash (each one saved) and uses every core
    [ $mode = long ] && opts+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    # the test step follows one fixed mutation sequence, so a finding there can be replayed
    # and CI does not fail on a draw; the long runs draw a new sequence each time
    [ $mode = test ] && opts+=(-seed=1)
    # no terminal to read: libconfig would follow an `@include "/dev/stdin"` a mutation wrote
    "$build/tests/fuzz/fuzz_$h" "${opts[@]}" "$build/corpus/$h" "tests/fuzz/corpus/$h" \
        > "$run/$h.log" 2>&1 < /dev/null
    echo $? > "$run/$h.rc"
}

if [ $mode = test ]; then
    echo "== fuzzing: ${harnesses[*]}, $seconds s each, two at a time =="
    for ((i = 0; i < ${#harnesses[@]}; i += 2)); do
        fuzz_one "${harnesses[i]}" &
        [ $((i + 1)) -lt ${#harnesses[@]} ] && fuzz_one "${harnesses[i + 1]}" &
        wait
    done
else
    echo "== fuzzing: ${harnesses[*]}, $seconds s each in fork mode (-fork=$jobs) =="
    for h in "${harnesses[@]}"; do fuzz_one "$h"; done
fi

found=0 # harnesses with a finding
for h in "${harnesses[@]}"; do
    log=$run/$h.log
    rc=$(cat "$run/$h.rc" 2> /dev/null || echo 1)
    stats=$(grep -E '^#[0-9]+.*DONE' "$log" | tail -1 | sed -E 's/^#([0-9]+)[[:space:]]+DONE[[:space:]]+cov: ([0-9]+).*corp: ([0-9]+).*/\1 runs, coverage \2, corpus \3/')
    [ -n "$stats" ] || stats=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -1 | sed -E 's/^#([0-9]+): cov: ([0-9]+).*corp: ([0-9]+).*/\1 runs, coverage \2, corpus \3/')
    inputs=("$run/$h"/*)
    [ -e "${inputs[0]}" ] || inputs=()
    if [ "$rc" -eq 0 ] && [ ${#inputs[@]} -eq 0 ]; then
        echo "fuzz $h: ${stats:-no statistics}: no finding"
        continue
    fi
    found=$((found + 1))
    echo "FUZZ FINDING in $h (exit status $rc; ${stats:-no statistics}); log: $log"
    [ ${#inputs[@]} -gt 0 ] || { echo "  (no input was saved)"; tail -5 "$log" | sed 's/^/  /'; }
    for f in "${inputs[@]}"; do
        if [ ! -s "$f" ] && grep -q 'LeakSanitizer' "$log"; then
            # libFuzzer stops checking each input for leaks after ~1000 inputs that leak
            # through libconfig's suppressed leak; a leak then shows at exit, with no input
            echo "  a leak reported at exit, not by one input ($f is empty): rerun the corpus,"
            echo "  $build/tests/fuzz/fuzz_$h -runs=0 $build/corpus/$h"
            continue
        fi
        # run it once more for the report (fork mode keeps no child's log)
        timeout 120 "$build/tests/fuzz/fuzz_$h" "${common[@]}" "$f" > "$f.log" 2>&1 < /dev/null
        grep -m 1 -E '^treelab fuzz: |ERROR: |runtime error: ' "$f.log" | sed 's/^/  /'
        echo "  input: $f"
        echo "  reproduce: $build/tests/fuzz/fuzz_$h $f"
        if [ $mode = long ] && [ -s "$f" ]; then
            # each step stops at the first smaller input that still fails (a leak only for a
            # leak: the suppressions need symbolised stacks); 4 minutes at most
            leaks=0
            case ${f##*/} in leak-*) leaks=1 ;; esac
            timeout 240 "$build/tests/fuzz/fuzz_$h" "${common[@]}" -detect_leaks=$leaks \
                -minimize_crash=1 -max_total_time=20 -exact_artifact_path="$f.min" "$f" \
                > "$f.min.log" 2>&1 < /dev/null
            [ -s "$f.min" ] && echo "  minimised ($(stat -c %s "$f") -> $(stat -c %s "$f.min") bytes; it may fail another way): $f.min"
        fi
    done
done
rm -rf "$run/tmp"
echo "fuzz: $((${#harnesses[@]} - found)) passed, $found failed"
[ $found -eq 0 ] && echo "== fuzzing: no finding (logs in $run) ==" && exit 0
echo "== fuzzing: FAILED: see the findings above (all in $run) =="
exit 1
