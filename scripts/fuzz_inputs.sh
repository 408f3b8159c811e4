#!/usr/bin/env bash
# Mutation fuzzing of treelab's inputs: datasets, model files and experiment configs.
#
#   scripts/fuzz_inputs.sh [--seed S] [--runs N] [--treelab PATH] [--keep DIR]
#
# Each run mutates one bundled dataset, a saved model or a config reproducibly (bash's
# RANDOM seeded with S), drives the CLI on it, and flags a run that
#   - dies on a signal, or exits with a status other than 0/1/2,
#   - prints an AddressSanitizer / LeakSanitizer / UBSan report,
#   - exits 2 (internal error) on what is a damaged input, i.e. a user error.
# Flagged inputs are kept in --keep (default fuzz-failures/) with the command line and the
# first lines of stderr. Use a sanitizer build (cmake -B build-asan -DTREELAB_SANITIZE=ON),
# the default. Not part of the test suite; exits 1 when anything was flagged.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
seed=1
runs=300
treelab="$here/build-asan/treelab"
keep="fuzz-failures"
while [ $# -gt 0 ]; do
    case $1 in
    --seed) seed=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --treelab) treelab=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "fuzz_inputs.sh: unknown option '$1'" >&2; exit 1 ;;
    esac
done
[ -x "$treelab" ] || { echo "fuzz_inputs.sh: no treelab at $treelab (build it first)" >&2; exit 1; }
# Sanitizer exits get their own statuses so they cannot pass for a user error (1).
export ASAN_OPTIONS="exitcode=99:detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="exitcode=98:print_stacktrace=1:halt_on_error=1"
export TREELAB_NO_PROGRESS=1
RANDOM=$seed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$keep"
data="$here/experiments/datasets"
sources=(iris.arff weather.nominal.arff weather.numeric.arff labor.arff contact-lenses.arff
         watermelon-2.0.csv watermelon-2.0-missing.csv watermelon-3.0.csv
         engagement-regression.csv app-recommendation.csv two-feature-boundary.csv
         breast-cancer.arff vote.arff)
algos=(id3 c45 cart soft_tree gaussian_nb)
hostile=("" "?" "NA" "1e400" "-1e400" "-0" "nan" "inf" "-inf" "1e308" "4.9e-324" "0x10"
         "99999999999999999999999" "-2147483649" "2147483648" "1," ",,,," "\"" "'" "%" "@data"
         "{" "}" "ünï" "$(printf '\001\377')" "    " "a b" "-" "." "e5" "1e" "+")
flagged=0
total=0

rnd() { echo $(((RANDOM << 15 | RANDOM) % $1)); }

# Byte-level damage: flip, insert, delete bytes or truncate.
mutate_bytes() {
    local f=$1 size n pos k
    size=$(stat -c %s "$f")
    [ "$size" -gt 0 ] || return
    n=$((1 + $(rnd 4)))
    for ((k = 0; k < n; k++)); do
        size=$(stat -c %s "$f")
        [ "$size" -gt 0 ] || return
        pos=$(rnd "$size")
        case $(rnd 4) in
        0) printf "\\x$(printf %02x $(rnd 256))" | dd of="$f" bs=1 seek="$pos" conv=notrunc status=none ;;
        1) { head -c "$pos" "$f"; printf "\\x$(printf %02x $(rnd 256))"; tail -c +"$((pos + 1))" "$f"; } > "$f.t" && mv "$f.t" "$f" ;;
        2) { head -c "$pos" "$f"; tail -c +"$((pos + 2))" "$f"; } > "$f.t" && mv "$f.t" "$f" ;;
        3) head -c "$pos" "$f" > "$f.t" && mv "$f.t" "$f" ;;
        esac
    done
}

# Token-level damage: replace the k-th field-like token of a random line with a hostile
# value, duplicate / delete a line, or empty every field of a line.
mutate_tokens() {
    local f=$1 lines line val what
    lines=$(wc -l < "$f")
    [ "$lines" -gt 0 ] || return
    line=$((1 + $(rnd "$lines")))
    val=${hostile[$(rnd ${#hostile[@]})]}
    what=$(rnd 6)
    awk -v L="$line" -v V="$val" -v W="$what" -v R="$(rnd 1000)" '
        NR != L { print; next }
        W == 0 || W == 1 {  # replace one token (numbers, words) by V
            n = 0; out = ""; s = $0
            while (match(s, /[-+A-Za-z0-9_.]+/)) { n++; if (n > R % 8) break;
                out = out substr(s, 1, RSTART + RLENGTH - 1); s = substr(s, RSTART + RLENGTH) }
            if (RSTART) print out substr(s, 1, RSTART - 1) V substr(s, RSTART + RLENGTH); else print
            next }
        W == 2 { print; print; next }                       # duplicate
        W == 3 { next }                                     # delete
        W == 4 { gsub(/[^,;\t]+/, ""); print; next }        # empty every field
        { print V }                                         # the whole line becomes V
    ' "$f" > "$f.t" && mv "$f.t" "$f"
}

check() { # check DESC FILE... -- ARGS: run treelab ARGS, judge the outcome
    local desc=$1 rc reason=""
    shift
    total=$((total + 1))
    timeout 60 "$treelab" "$@" > "$work/out" 2> "$work/err" < /dev/null
    rc=$?
    if [ $rc -eq 124 ]; then reason="timeout (60 s)"
    elif [ $rc -gt 2 ]; then reason="exit status $rc"
    elif grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$work/err"; then reason="sanitizer report"
    elif [ $rc -eq 2 ]; then reason="internal error (2) on damaged input"
    fi
    [ -z "$reason" ] && return 0
    flagged=$((flagged + 1))
    local dir="$keep/$flagged"
    mkdir -p "$dir"
    cp "$work"/input.* "$dir"/ 2>/dev/null
    { echo "# $desc: $reason"; printf '%q ' treelab "$@"; echo; head -30 "$work/err"; } > "$dir/README"
    echo "FLAGGED #$flagged ($desc): $reason: $(head -1 "$work/err" | cut -c1-160)"
}

# Fitted models of every learner on a nominal and a numeric dataset, to damage.
mkdir -p "$work/models"
for a in "${algos[@]}"; do
    for d in weather.nominal.arff iris.arff; do
        "$treelab" fit "$data/$d" --algo "$a" -o "$work/models/$a-${d%%.*}.model" 2> /dev/null
    done
done
models=("$work"/models/*.model)

for ((r = 1; r <= runs; r++)); do
    rm -f "$work"/input.*
    case $(rnd 4) in
    0 | 1) # a damaged dataset through info, cv, fit, predict
        src=${sources[$(rnd ${#sources[@]})]}
        ext=${src##*.}
        in="$work/input.$ext"
        cp "$data/$src" "$in"
        if [ $(rnd 2) -eq 0 ]; then mutate_bytes "$in"; else mutate_tokens "$in"; mutate_tokens "$in"; fi
        a=${algos[$(rnd ${#algos[@]})]}
        check "run $r data $src" info "$in"
        check "run $r data $src" cv "$in" --algo "$a" --folds $((2 + $(rnd 4))) --set max_depth=3 \
            $([ "$a" = soft_tree ] && echo --set epochs=2)
        [ "$a" = soft_tree ] && set -- --set epochs=2 || set --
        check "run $r data $src" fit "$in" --algo "$a" -o "$work/input.model" "$@"
        m=${models[$(rnd ${#models[@]})]}
        check "run $r data $src" predict "$m" "$in" --proba
        ;;
    2) # a damaged model through show (every format) and predict
        m=${models[$(rnd ${#models[@]})]}
        in="$work/input.model"
        cp "$m" "$in"
        if [ $(rnd 3) -eq 0 ]; then mutate_bytes "$in"; else mutate_tokens "$in"; fi
        d=$data/weather.nominal.arff
        case $m in *iris*) d=$data/iris.arff ;; esac
        for fmt in text dot rules; do check "run $r model $(basename "$m")" show "$in" --format $fmt; done
        check "run $r model $(basename "$m")" predict "$in" "$d" --proba
        ;;
    3) # a damaged experiment config (tiny protocol so a run is quick)
        in="$work/input.cfg"
        cat > "$in" <<EOF
name = "fuzz";
seed = 7;
datasets = ( "$data/weather.nominal.arff", { path = "$data/iris.arff"; target = "class"; } );
models = ( { name = "nb"; algorithm = "gaussian_nb"; },
           { name = "cart"; algorithm = "cart"; params = { max_depth = 3; }; },
           { name = "id3s"; algorithm = "id3";
             select = { param = "max_depth"; values = [1, 2]; folds = 2; }; } );
grids = ( { model = "cart"; param = "max_depth"; values = [1, 2]; } );
protocol = { kind = "cv"; folds = 3; repeats = 1; stratified = true; };
baseline = "nb";
reports = [ "confusion", "trees" ];
plots = [ ];
EOF
        if [ $(rnd 3) -eq 0 ]; then mutate_bytes "$in"; else mutate_tokens "$in"; fi
        check "run $r config" run "$in" --out "$work/input.results" --quiet
        rm -rf "$work/input.results"
        ;;
    esac
done
echo "fuzz_inputs.sh: seed $seed, $runs mutations, $total treelab runs, $flagged flagged (kept in $keep/)"
[ $flagged -eq 0 ]
