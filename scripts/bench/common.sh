# Shared by the benchmark scripts (sourced, from the repository root): one thread for every
# library, a scratch folder removed on exit, the in-process fit timer, and a median.
PY=/usr/bin/python3
REPEATS=${REPEATS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/bench" scripts/bench/fit_time.c \
   -Iinclude build/libtreelab.a -lgsl -lopenblas -lconfig -lm -lpthread
# The median of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# A row count for a table: 10000 as 10^4, other counts as they are.
rows_label() { case $1 in 1*) [ -z "$(echo "${1#1}" | tr -d 0)" ] && { echo "10^$((${#1} - 1))"; return; } ;; esac; echo "$1"; }
