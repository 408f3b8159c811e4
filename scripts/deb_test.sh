#!/usr/bin/env bash
# Build treelab's .deb with cpack from a build folder and check it without installing: its
# control fields (dpkg-deb --info), its contents (dpkg-deb -c), and that the program unpacked
# into a scratch root runs (its RPATH finds the libraries beside it). With --install (root),
# also `dpkg -i` it, run `treelab --version` from /usr/bin and remove it again.
#   scripts/deb_test.sh BUILD_DIR [--install]
# Exit 77 (skipped) without cpack or dpkg-deb.
set -euo pipefail
build=$(cd "$1" && pwd)
install=${2:-}
for tool in cpack dpkg-deb; do
    command -v $tool > /dev/null || { echo "SKIPPED: no $tool (Debian: cmake, dpkg)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" > "$tmp/cpack.log" 2>&1) ||
    { cat "$tmp/cpack.log"; echo "FAIL: cpack -G DEB"; exit 1; }
deb=$(ls "$tmp"/out/treelab_*.deb)
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"
status=0
info=$(dpkg-deb --info "$deb")
for field in "Package: treelab" "Version: " "Architecture: " "Depends: .*libgsl" "Depends: .*libconfig"; do
    grep -q "^ $field" <<< "$info" || { echo "FAIL: control lacks '$field'"; status=1; }
done
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/treelab ./usr/lib/libtreelab.so.0 ./usr/lib/libtreelab-experiments.so.0 \
         ./usr/lib/libtreelab.a ./usr/include/treelab/tl_model.h ./usr/include/treelab/tl_version.h \
         ./usr/lib/pkgconfig/treelab.pc ./usr/lib/cmake/treelab/treelabConfig.cmake \
         ./usr/share/man/man1/treelab.1 ./usr/share/bash-completion/completions/treelab; do
    grep -qx -- "$f" <<< "$contents" || { echo "FAIL: the package lacks $f"; status=1; }
done
dpkg-deb -x "$deb" "$tmp/root"
grep -q '^prefix=/usr$' "$tmp/root/usr/lib/pkgconfig/treelab.pc" ||
    { echo "FAIL: treelab.pc does not say prefix=/usr"; status=1; }
version=$("$tmp/root/usr/bin/treelab" --version) || { echo "FAIL: the unpacked program does not run"; status=1; }
echo "unpacked: $version"
if [ "$install" = --install ]; then
    dpkg -i "$deb"
    echo "installed: $(/usr/bin/treelab --version)"
    man -w treelab
    dpkg -r treelab
fi
[ $status = 0 ] && echo "ok: package fields, contents and the unpacked program"
exit $status
