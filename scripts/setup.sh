#!/usr/bin/env bash
# Install the Debian packages treelab needs (only those missing), then configure and build
# into build/ (and build-asan/ with --sanitize, build-clang/ with --clang; with --mpi, Open MPI
# too and the MPI build in build-mpi/, -DTREELAB_MPI=ON: the treelab program, which its tests
# need). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=0 clang=0 mpi=0
for a in "$@"; do
  case $a in
    --sanitize) sanitize=1 ;;
    --clang) clang=1 ;;
    --mpi) mpi=1 ;;
    *) echo "usage: $0 [--sanitize] [--clang] [--mpi]" >&2; exit 1 ;;
  esac
done

# clang and libclang-rt-dev (libFuzzer): the fuzz harnesses (scripts/fuzz.sh, build-fuzz/) and
# the clang build; dpkg-dev (dpkg-shlibdeps): the .deb's dependencies (cpack); man-db: the man
# page's check; clang-tidy and clang-format: scripts/tidy.sh and scripts/format.sh; python3-*:
# the Python package and its tests (scripts/python_setup.sh, python/tests).
PACKAGES=(build-essential cmake pkg-config git libgsl-dev libopenblas-dev libconfig-dev
          libcmocka-dev gnuplot-nox clang libclang-rt-dev dpkg-dev man-db clang-tidy
          clang-format python3-numpy python3-pandas python3-sklearn python3-pytest python3-venv)
# Open MPI for `mpirun -n N treelab run` (optional: the default build does not need it)
[ $mpi = 1 ] && PACKAGES+=(libopenmpi-dev openmpi-bin)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "install ok installed" > /dev/null || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

jobs=$(nproc 2>/dev/null || echo 2)
build() { # dir, target (all), extra cmake args...
  local dir=$1 target=$2; shift 2
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$dir" -j "$jobs" --target "$target" >&2
}
build build all
./scripts/python_setup.sh
if [ $sanitize = 1 ]; then
  build build-asan all -DTREELAB_SANITIZE=ON
fi
if [ $clang = 1 ]; then
  # the same suite compiled by clang (warnings are per compiler; CI=1 makes them errors)
  build build-clang all -DCMAKE_C_COMPILER=clang
fi
if [ $mpi = 1 ]; then
  build build-mpi treelab_cli -DTREELAB_MPI=ON
fi
