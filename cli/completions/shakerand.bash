# SPDX-License-Identifier: MIT OR Apache-2.0
# bash completion for shakerand(1). Installed as
# share/bash-completion/completions/shakerand; or: source shakerand.bash
# Written by 'shakerand --generate-completion SHELL' from the tables of
# commands and options in cli/ (cli.c, cmd_*.c): change those and write this
# again rather than edit it.

_shakerand()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "bytes int token password shuffle pick uuid sources --help --version" -- "$cur"))
        return
    fi
    case ${COMP_WORDS[1]} in
    bytes)
        case $prev in
        -e | --engine)
            COMPREPLY=($(compgen -W "turboshake256 shake256 turboshake256x8 chacha8rand" -- "$cur"))
            return ;;
        -o | --output)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        -n | --size | -s | --seed)
            return ;; # a value of the user's
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--size --hex --base64 --engine --seed --output --help" -- "$cur"))
        fi ;;
    int)
        case $prev in
        -m | --method)
            COMPREPLY=($(compgen -W "rng-bc-1 rng-bc-8 simple-discard simple-modular" -- "$cur"))
            return ;;
        -b | --below | -n | --count | -s | --seed)
            return ;; # a value of the user's
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--below --count --hex --method --seed --stats --help" -- "$cur"))
        fi ;;
    token)
        case $prev in
        -b | --bytes | -n | --count)
            return ;; # a value of the user's
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--bytes --hex --base32 --count --help" -- "$cur"))
        fi ;;
    password)
        case $prev in
        -c | --charset)
            COMPREPLY=($(compgen -W "alnum alnum-symbols lower digits hex" -- "$cur"))
            return ;;
        --wordlist)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        -l | --length | --chars | -w | --words | -n | --count | -s | --seed)
            return ;; # a value of the user's
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--length --charset --chars --words --wordlist --count --verbose --seed --help" -- "$cur"))
        fi ;;
    shuffle)
        case $prev in
        -o | --output)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        -i | --input-range | -n | --head-count | -s | --seed)
            return ;; # a value of the user's
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--echo --input-range --head-count --repeat --zero-terminated --output --seed --help" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi ;;
    pick)
        case $prev in
        -o | --output)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        -i | --input-range | -n | --count | -s | --seed)
            return ;; # a value of the user's
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--echo --input-range --count --repeat --zero-terminated --output --seed --help" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi ;;
    uuid)
        case $prev in
        --namespace)
            COMPREPLY=($(compgen -W "@dns @url @oid @x500" -- "$cur"))
            return ;;
        -n | --count | --name)
            return ;; # a value of the user's
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--count --random --time --v7 --sha1 --namespace --name --upper --binary --help" -- "$cur"))
        fi ;;
    sources)
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--json --help" -- "$cur"))
        fi ;;
    esac
}
complete -o filenames -F _shakerand shakerand
