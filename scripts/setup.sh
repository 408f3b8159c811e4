#!/usr/bin/env bash
# Install the Debian packages treelab needs (only those missing), then configure and build
# into build/ (and build-asan/ with --sanitize, build-clang/ with --clang). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang and libclang-rt-dev (libFuzzer): the fuzz harnesses (scripts/fuzz.sh, build-fuzz/) and
# the clang build; dpkg-dev (dpkg-shlibdeps): the .deb's dependencies (cpack); man-db: the man
# page's check; clang-tidy and clang-format: scripts/tidy.sh and scripts/format.sh.
PACKAGES=(build-essential cmake pkg-config git libgsl-dev libopenblas-dev libconfig-dev
          libcmocka-dev gnuplot-nox clang libclang-rt-dev dpkg-dev man-db clang-tidy
          clang-format)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

jobs=$(nproc 2>/dev/null || echo 2)
build() { # dir, extra cmake args...
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$dir" -j "$jobs" >&2
}
build build
for arg in "$@"; do
  case $arg in
    --sanitize) build build-asan -DTREELAB_SANITIZE=ON ;;
    # the same suite compiled by clang (warnings are per compiler; CI=1 makes them errors)
    --clang) build build-clang -DCMAKE_C_COMPILER=clang ;;
    *) echo "setup.sh: unknown option '$arg' (valid: --sanitize, --clang)" >&2; exit 1 ;;
  esac
done
