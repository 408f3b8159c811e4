#!/bin/sh
# The Python binding's overhead (docs/python.md): CARTClassifier().fit on 10^5 x 20 against
# scikit-learn's DecisionTreeClassifier().fit in the same process (target >= 8x), and
# predict_proba on 10^6 rows against the C prediction alone (target <= 1.2x); one thread each,
# interleaved, medians of REPEATS. Needs build/libtreelab.so (./scripts/setup.sh) and Debian's
# python3-sklearn.  Usage: REPEATS=3 scripts/bench/python.sh [FIT_ROWS] [PREDICT_ROWS]
set -eu
cd "$(dirname "$0")/../.."
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
exec /usr/bin/python3 scripts/bench/python_bench.py "$@"
