# SPDX-License-Identifier: MIT OR Apache-2.0
# bash completion for shakerand(1). Installed as
# share/bash-completion/completions/shakerand; or: source shakerand.bash

_shakerand()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local commands="bytes int token password shuffle pick uuid sources"
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    local command=${COMP_WORDS[1]} options
    case $command in
    bytes) options="--size --hex --base64 --engine --seed --output --help" ;;
    int) options="--below --count --hex --method --seed --stats --help" ;;
    token) options="--bytes --hex --base32 --count --help" ;;
    password) options="--length --charset --chars --words --wordlist --count --verbose --seed --help" ;;
    shuffle) options="--output --seed --help" ;;
    pick) options="--count --output --seed --help" ;;
    uuid) options="--count --v7 --upper --binary --help" ;;
    sources) options="--json --help" ;;
    *) return ;;
    esac
    case $prev in
    -e | --engine)
        COMPREPLY=($(compgen -W "turboshake256 shake256 turboshake256x8 chacha8rand" -- "$cur"))
        return ;;
    -m | --method)
        [[ $command == int ]] &&
            COMPREPLY=($(compgen -W "rng-bc-1 rng-bc-8 simple-discard simple-modular" -- "$cur"))
        return ;;
    -c | --charset)
        [[ $command == password ]] &&
            COMPREPLY=($(compgen -W "alnum alnum-symbols lower digits hex" -- "$cur"))
        return ;;
    -o | --output | --wordlist)
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    -n | --size | --count | -b | --below | --bytes | -l | --length | -w | --words | -s | --seed | --chars)
        return ;; # a value of the user's
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif [[ $command == shuffle || $command == pick ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _shakerand shakerand
