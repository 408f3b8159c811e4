#!/usr/bin/env bash
# The bash completion file offers the subcommands, the learners after --algo and the plug-ins
# of a slot after --set SLOT= (the last two read from `treelab plugins` of the program given).
#   tests/completion_test.sh COMPLETION_FILE TREELAB
set -uo pipefail
source "$1"
prog=$2
status=0
complete_words() { # expected-word... -- the command line words (the last is being completed)
    local want=() w
    while [ "$1" != -- ]; do want+=("$1"); shift; done
    shift
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _treelab
    for w in "${want[@]}"; do
        # grep without -q reads all its input: with -q it may exit before printf is done,
        # and pipefail then reports printf's SIGPIPE as a miss (seen under load)
        if ! printf '%s\n' "${COMPREPLY[@]}" | grep -x -- "$w" >/dev/null; then
            echo "FAIL: '${COMP_WORDS[*]}' does not offer '$w' (offers: ${COMPREPLY[*]})"; status=1
        fi
    done
}
complete_words run merge report cv fit predict show path plot info plugins stats -- "$prog" ""
complete_words plugins -- "$prog" pl
complete_words c45 cart id3 tree soft_tree gaussian_nb -- "$prog" cv data.arff --algo ""
complete_words criterion=gini criterion=gain_ratio criterion=hellinger -- "$prog" fit d.arff --set criterion=
complete_words pruner=error_based pruner=cost_complexity -- "$prog" cv d.arff --set pruner=
complete_words numeric=c45_threshold numeric=histogram -- "$prog" cv d.arff --set numeric=
complete_words missing=surrogate missing=fractional -- "$prog" cv d.arff --set missing=
complete_words merge -- "$prog" me
complete_words --shard --plan -- "$prog" run x.cfg --
complete_words --jobs --resume -- "$prog" run x.cfg --
complete_words text dot rules -- "$prog" show m.model --format ""
# a word completed must not be offered things it does not start with
complete_words -- "$prog" cv d.arff --algo c4
[ "${COMPREPLY[*]}" = "c45" ] || { echo "FAIL: --algo c4 offers '${COMPREPLY[*]}', not just c45"; status=1; }
[ $status = 0 ] && echo "ok: subcommands, options, learners and plug-in names complete"
exit $status
