#!/usr/bin/env bash
# The Python package (python/, docs/python.md): a virtual environment (.venv, or TL_VENV) that
# sees Debian's python3-numpy, -pandas, -sklearn and -pytest (--system-site-packages: no other
# package index is needed or used), with treelab installed into it in editable mode, so it
# loads the checkout's build/libtreelab.so. scripts/setup.sh calls it after the build.
# Afterwards: `source .venv/bin/activate; python3 -c "import treelab"`.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TL_VENV:-.venv}
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/pip" install -q --no-index --no-build-isolation --no-deps -e python/ >&2
rm -rf python/treelab.egg-info
"$venv/bin/python" -c "import treelab" >&2
echo "setup: Python package in $venv (source $venv/bin/activate; python3 -c 'import treelab')" >&2
