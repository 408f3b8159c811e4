#!/usr/bin/env bash
# Bad-input matrix: runs every case of tests/bad_inputs/cases.txt through a treelab binary and checks its exit status, its message, that it left nothing behind and ran no command.
#
# usage: tests/bad_inputs_test.sh TREELAB_BINARY [PATTERN]
#   (ctest runs it as test `bad_inputs` in build/ and build-asan/); PATTERN keeps only the
#   cases whose line contains it. TL_BADIN_VERBOSE=1 prints every case's output.
#
# cases.txt has one case a line, `EXIT | WORDS | COMMAND` ('#' lines are notes):
#   EXIT     the exit status expected (0 success, 1 bad input or usage; 2 is never right for
#            a damaged input)
#   WORDS    phrases separated by ' ~ ', each of which stdout + stderr must hold ('-': none)
#   COMMAND  treelab's arguments, shell-quoted; {in} is this run's copy of tests/bad_inputs,
#            {data} the bundled datasets, {out} an empty folder of the case's own
# Every case runs in a fresh empty current folder inside a temporary tree laid out like the
# source tree ({in} = ROOT/tests/bad_inputs, {data} = ROOT/experiments/datasets, so that the
# configs' ../../experiments/datasets paths hold). A case fails when
#   - the exit status or a phrase differs, or a sanitizer (ASan, LSan, UBSan) reports;
#   - a file appears, changes or vanishes in the inputs (the copy and the bundled datasets);
#   - a failing case (EXIT != 0) leaves anything in {out} or in its current folder, or a
#     successful one leaves a temporary file (*.tmp) there: nothing is half-written;
#   - a file named tl_pwned* exists anywhere in the tree: the hostile names and labels of
#     the injection cases try to create one through the shell, gnuplot or Graphviz.
# A file in tests/bad_inputs that no case names as {in}/FILE fails too.
# Prints one line per failure, then 'N passed, M failed'; exits 1 when any failed.
set -uo pipefail
export LC_ALL=C

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 TREELAB_BINARY [PATTERN]" >&2
  exit 1
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
pattern=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
cases=$src/tests/bad_inputs/cases.txt
[ -x "$bin" ] || { echo "bad_inputs: no treelab at $bin" >&2; exit 1; }

# A sanitizer report must fail the case even when its exit status is the expected 1 (ASan's
# default): the output is searched too. Leak checking is on unless the caller set options.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export OPENBLAS_NUM_THREADS=1

root=$(mktemp -d "${TMPDIR:-/tmp}/tl_bad_inputs.XXXXXX") || exit 1
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/tests" "$root/experiments" "$root/case"
cp -a "$src/tests/bad_inputs" "$root/tests/bad_inputs"
ln -s "$src/experiments/datasets" "$root/experiments/datasets"
in=$root/tests/bad_inputs
data=$root/experiments/datasets

# Name, type, size and modification time of every input file (one find: the loop below runs
# few processes per case, as a fork costs more than most cases).
inputs() {
  find "$in" "$src/experiments/datasets" -printf '%p\t%y\t%s\t%T@\n'
}

# The whole of a file into the variable named $1 (a builtin read: no process).
slurp() {
  IFS= read -r -d '' "$1" < "$2"
}

passed=0
failed=0
start=$SECONDS
# every file there is used (and so described) by a case
for f in "$in"/*; do
  name=${f##*/}
  [ "$name" = cases.txt ] || grep -qF -- "{in}/$name" "$cases" && continue
  echo "FAIL tests/bad_inputs/$name: no case in cases.txt uses it"
  failed=$((failed + 1))
done
before=$(inputs)
printf -v qin %q "$in"
printf -v qdata %q "$data"
n=0
while IFS= read -r line || [ -n "$line" ]; do
  case $line in '' | '#'*) continue ;; esac
  n=$((n + 1))
  [ -n "$pattern" ] && [[ $line != *"$pattern"* ]] && continue
  expect=${line%% | *}
  rest=${line#* | }
  words=${rest%% | *}
  cmd=${rest#* | }
  if ! [[ $expect =~ ^[0-9]+$ ]] || [ "$rest" = "$line" ] || [ "$cmd" = "$rest" ]; then
    echo "FAIL case $n: malformed line in cases.txt: $line"
    failed=$((failed + 1))
    continue
  fi
  dir=$root/case/$n
  out=$dir/out
  cwd=$dir/cwd
  mkdir -p "$out" "$cwd"
  # placeholders become shell-quoted paths, then the line is split as the shell would
  printf -v qout %q "$out"
  quoted=${cmd//\{in\}/$qin}
  quoted=${quoted//\{data\}/$qdata}
  quoted=${quoted//\{out\}/$qout}
  eval "set -- $quoted"
  cd "$cwd"
  timeout 60 "$bin" "$@" > "$dir/stdout" 2> "$dir/stderr" < /dev/null
  rc=$?
  cd "$root"
  slurp stdout "$dir/stdout"
  slurp stderr "$dir/stderr"
  output=$stdout$'\n'$stderr
  why=()
  [ "$rc" -eq "$expect" ] || why+=("exit status $rc, expected $expect")
  [[ $stderr =~ AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime\ error: ]] &&
    why+=("sanitizer report")
  rest=$words
  [ "$rest" = - ] && rest=""
  while [ -n "$rest" ]; do
    phrase=${rest%% ~ *}
    [ "$phrase" = "$rest" ] && rest="" || rest=${rest#* ~ }
    [[ $output == *"$phrase"* ]] || why+=("no '$phrase' in the output")
  done
  now=$(inputs)
  if [ "$now" != "$before" ]; then
    why+=("the inputs changed: $(diff <(sort <<< "$before") <(sort <<< "$now") |
          grep '^[<>]' | head -3 | tr '\n' ' ')")
    before=$now
  fi
  # what the case left in its own folders: nothing after a failure, no temporary file
  # after a success, and never a marker file
  left=$(find "$out" "$cwd" -mindepth 1 -printf '%P\n')
  if [ "$expect" -ne 0 ] && [ -n "$left" ]; then
    why+=("left behind: $(head -3 <<< "$left" | tr '\n' ' ')")
  elif [[ $'\n'$left == *.tmp$'\n'* || $left == *.tmp ]]; then
    why+=("temporary files left: $(grep '\.tmp$' <<< "$left" | head -3 | tr '\n' ' ')")
  fi
  pwned=$(grep -E '(^|/)tl_pwned[^/]*$' <<< "$left"; grep -oE '/tl_pwned[^/	]*	' <<< "$now")
  [ -z "$pwned" ] || why+=("a command ran: $(head -3 <<< "$pwned" | tr '\n' ' ')")
  if [ ${#why[@]} -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL case $n (line: $line)"
    for w in "${why[@]}"; do echo "    $w"; done
    head -8 <<< "${stderr%$'\n'}" | sed 's/^/    | /'
    find "$root" -name 'tl_pwned*' -delete
    before=$(inputs)
  fi
  if [ "${TL_BADIN_VERBOSE:-}" = 1 ]; then
    echo "case $n: exit $rc: $cmd"
    head -5 <<< "$output" | sed 's/^/    /'
  fi
done < "$cases"
echo "bad_inputs: $n cases in cases.txt, $((SECONDS - start)) s with $bin"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
