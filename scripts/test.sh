#!/usr/bin/env bash
# Set up, build the normal, the sanitizer (ASan + UBSan) and the clang builds, run the whole
# test suite on each, then fuzz each input reader for 60 s (TL_FUZZ_SECONDS; 0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --sanitize --clang
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OPENBLAS_NUM_THREADS=1
echo "== tests (release build) =="
ctest --test-dir build --output-on-failure -j 2
echo "== tests (AddressSanitizer + UBSan build) =="
ctest --test-dir build-asan --output-on-failure -j 2
echo "== tests (clang build) =="
ctest --test-dir build-clang --output-on-failure -j 2
# libFuzzer harnesses of tests/fuzz, built by clang in build-fuzz/: two at a time, ~2.5 min
if [ "${TL_FUZZ_SECONDS:-60}" = 0 ]; then
  echo "== fuzzing: SKIPPED (TL_FUZZ_SECONDS=0) =="
else
  ./scripts/fuzz.sh --test "${TL_FUZZ_SECONDS:-60}"
fi
