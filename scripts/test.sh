#!/usr/bin/env bash
# Set up, build the normal and the sanitizer (ASan + UBSan) builds, run the whole test suite
# on both.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --sanitize
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OPENBLAS_NUM_THREADS=1
echo "== tests (release build) =="
ctest --test-dir build --output-on-failure -j 2
echo "== tests (AddressSanitizer + UBSan build) =="
ctest --test-dir build-asan --output-on-failure -j 2
