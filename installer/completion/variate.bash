# bash completion for variate: subcommands, each subcommand's options, and file names.
# The subcommands and options are read from the program's own --help, so they never drift
# from the command line. Uses bash-completion's _init_completion where loaded; works
# without it too.
# shellcheck disable=SC2207  # the word lists split (subcommands, options) have no blanks

# The help texts, by program and subcommand, for the shell session: the program loads
# LibTorch, so each --help takes a noticeable part of a second. (-g: bash-completion sources
# this file from inside a function.)
declare -gA _variate_help_cache

# _variate_help PROGRAM [SUBCOMMAND]: sets the caller's `help` to that --help text. (Not
# printed: a command substitution would fill the cache of a subshell.)
_variate_help()
{
    local key="$1 $2"
    if [[ -z ${_variate_help_cache[$key]+set} ]]; then
        _variate_help_cache[$key]=$("$1" ${2:+"$2"} --help 2>/dev/null)
    fi
    help=${_variate_help_cache[$key]}
}

# The names listed under "Subcommands:" in a help text on standard input.
_variate_subcommands()
{
    awk '/^Subcommands:/ { listed = 1; next }
         /^[^ ]/ { listed = 0 }
         listed && /^  [^ ]/ { print $1 }'
}

# For a subcommand's help text on standard input, one line per option: "NAME VALUE", VALUE
# being the kind of value it takes as the help shows it (TEXT, INT, diag|dense for a
# choice), empty for a flag. "-h,--help" gives a line for each name.
_variate_options()
{
    awk '/^  -/ {
        term = substr($0, 3); cut = index(term, "  "); if (cut) term = substr(term, 1, cut - 1)
        n = split(term, words, / +/); names = ""; value = ""
        for (i = 1; i <= n && value == ""; i++)
            if (words[i] ~ /^-/) names = names "," words[i]
            else value = words[i]
        n = split(names, words, /,+/)
        for (i = 1; i <= n; i++) if (words[i] != "") print words[i], value
    }'
}

# _variate_files [EXTENSION...]: COMPREPLY gets the directories, and the files with one of
# these extensions (any file when none is given), whose names start with $cur.
_variate_files()
{
    local file extension IFS=$'\n'
    compopt -o filenames 2>/dev/null  # a slash after directories, names quoted
    mapfile -t COMPREPLY < <(compgen -d -- "$cur")
    for file in $(compgen -f -- "$cur"); do
        [[ -d $file ]] && continue
        (($# == 0)) && COMPREPLY+=("$file")
        for extension; do
            [[ $file == *."$extension" ]] && COMPREPLY+=("$file")
        done
    done
}

_variate()
{
    # shellcheck disable=SC2034  # split: set by _init_completion -s, kept local here
    local cur prev words cword split
    if declare -F _init_completion >/dev/null; then
        _init_completion -s || return  # -s: "--data=x" gives prev --data, cur x
    else
        COMPREPLY=()
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    # Without it, readline has split "--data=x" at "=" (COMP_WORDBREAKS).
    if [[ $cur == = ]]; then
        cur=""
    elif [[ $prev == = ]] && ((cword >= 2)); then
        prev=${words[cword - 2]}
    fi

    local program=${words[0]/#\~/$HOME} help
    local subcommand="" i
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} != -* ]]; then
            subcommand=${words[i]}
            break
        fi
    done

    if [[ -z $subcommand ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
        else
            _variate_help "$program"
            COMPREPLY=($(compgen -W "$(_variate_subcommands <<<"$help")" -- "$cur"))
        fi
        return
    fi

    local options value
    _variate_help "$program" "$subcommand"
    options=$(_variate_options <<<"$help")
    # The value of the option before, if it takes one.
    value=$(awk -v name="$prev" '$1 == name { print $2 }' <<<"$options")
    if [[ -n $value && $prev == -* ]]; then
        if [[ $value == *'|'* ]]; then  # a choice: diag|dense
            COMPREPLY=($(compgen -W "${value//|/ }" -- "$cur"))
            return
        fi
        case $prev in
            --data | --test-data) _variate_files json csv ;;
            --params) _variate_files json ;;
            --project) _variate_files variate ;;
            --output | --jobs-dir)
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -d -- "$cur")
                ;;
            --summary-json | --token-file | --tls-* | --save-weights) _variate_files ;;
            *) COMPREPLY=() ;;  # a number, a name, HOST:PORT...: nothing to offer
        esac
        return
    fi

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(awk '{ print $1 }' <<<"$options")" -- "$cur"))
    else
        _variate_files vmod csv json variate
    fi
}
complete -F _variate variate
