#!/usr/bin/env bash
# Set up, build the normal, the sanitizer (ASan + UBSan) and the clang builds, run the whole
# test suite on each (and the Python package's pytest suite on the normal build), run the MPI tests on the MPI build (Open MPI is installed for them;
# TL_MPI=0 skips it), then fuzz each input reader for 60 s (TL_FUZZ_SECONDS; 0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=--mpi
[ "${TL_MPI:-1}" = 0 ] && mpi=
./scripts/setup.sh --sanitize --clang $mpi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OPENBLAS_NUM_THREADS=1
echo "== tests (release build) =="
ctest --test-dir build --output-on-failure -j 2
echo "== Python tests (python/tests on build/, through .venv; ~30 s) =="
"${TL_VENV:-.venv}/bin/python" -m pytest -q -p no:cacheprovider python/tests
echo "== tests (AddressSanitizer + UBSan build) =="
ctest --test-dir build-asan --output-on-failure -j 2
echo "== tests (clang build; the compiler-independent end-to-end runs, label e2e, ran above) =="
ctest --test-dir build-clang --output-on-failure -j 2 -LE e2e
if [ -n "$mpi" ]; then
  # the MPI runs, and the shared libraries' exports with run/mpi*.c (not mpi_none.c)
  echo "== MPI tests (build-mpi, -DTREELAB_MPI=ON) =="
  ctest --test-dir build-mpi --output-on-failure -R '^(mpi|exported_symbols)$'
else
  echo "== MPI tests: SKIPPED (TL_MPI=0) =="
fi
# libFuzzer harnesses of tests/fuzz (six), built by clang in build-fuzz/: two at a time, ~3.5 min
if [ "${TL_FUZZ_SECONDS:-60}" = 0 ]; then
  echo "== fuzzing: SKIPPED (TL_FUZZ_SECONDS=0) =="
else
  ./scripts/fuzz.sh --test "${TL_FUZZ_SECONDS:-60}"
fi
