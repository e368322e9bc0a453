# SPDX-License-Identifier: MIT OR Apache-2.0
# fish completion for shakerand(1). Installed in
# share/fish/vendor_completions.d.
# Written by 'shakerand --generate-completion SHELL' from the tables of
# commands and options in cli/ (cli.c, cmd_*.c): change those and write this
# again rather than edit it.

set -l commands bytes int token password shuffle pick uuid sources
complete -c shakerand -f
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -a bytes -d 'random bytes, raw, hex or base64'
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -a int -d 'random integers in a range, of any size'
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -a token -d 'random tokens: URL-safe base64, hex or base32'
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -a password -d 'random passwords from a character set or a word list'
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -a shuffle -d 'the lines of a file in random order'
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -a pick -d 'K different random lines of a file'
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -a uuid -d 'UUIDs, version 4, 7 or 5'
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -a sources -d 'report the entropy sources'
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -s h -l help -d 'show the help'
complete -c shakerand -n "not __fish_seen_subcommand_from $commands" -s V -l version -d 'show the version'

complete -c shakerand -n '__fish_seen_subcommand_from bytes' -s n -l size -x -d 'number of bytes (K, M, G, T suffixes)'
complete -c shakerand -n '__fish_seen_subcommand_from bytes' -l hex -d 'lower-case hexadecimal on one line'
complete -c shakerand -n '__fish_seen_subcommand_from bytes' -l base64 -d 'base64 in lines of 64 characters'
complete -c shakerand -n '__fish_seen_subcommand_from bytes' -s e -l engine -x -a 'turboshake256 shake256 turboshake256x8 chacha8rand' -d 'engine'
complete -c shakerand -n '__fish_seen_subcommand_from bytes' -s s -l seed -x -d 'seed in hex, for a reproducible stream'
complete -c shakerand -n '__fish_seen_subcommand_from bytes' -s o -l output -r -F -d 'write to FILE, mode 0600'
complete -c shakerand -n '__fish_seen_subcommand_from bytes' -s h -l help -d 'show this help'

complete -c shakerand -n '__fish_seen_subcommand_from int' -s b -l below -x -d 'the exclusive upper bound, greater than zero'
complete -c shakerand -n '__fish_seen_subcommand_from int' -s n -l count -x -d 'how many'
complete -c shakerand -n '__fish_seen_subcommand_from int' -l hex -d 'print hexadecimal'
complete -c shakerand -n '__fish_seen_subcommand_from int' -s m -l method -x -a 'rng-bc-1 rng-bc-8 simple-discard simple-modular' -d 'sampling method'
complete -c shakerand -n '__fish_seen_subcommand_from int' -s s -l seed -x -d 'seed in hex, reproducible'
complete -c shakerand -n '__fish_seen_subcommand_from int' -l stats -d 'bits drawn, as JSON on standard error'
complete -c shakerand -n '__fish_seen_subcommand_from int' -s h -l help -d 'show this help'

complete -c shakerand -n '__fish_seen_subcommand_from token' -s b -l bytes -x -d 'random bytes per token, 1 to 1048576'
complete -c shakerand -n '__fish_seen_subcommand_from token' -l hex -d 'lower-case hexadecimal'
complete -c shakerand -n '__fish_seen_subcommand_from token' -l base32 -d 'base32 without padding'
complete -c shakerand -n '__fish_seen_subcommand_from token' -s n -l count -x -d 'how many'
complete -c shakerand -n '__fish_seen_subcommand_from token' -s h -l help -d 'show this help'

complete -c shakerand -n '__fish_seen_subcommand_from password' -s l -l length -x -d 'characters per password, 1 to 1048576'
complete -c shakerand -n '__fish_seen_subcommand_from password' -s c -l charset -x -a 'alnum alnum-symbols lower digits hex' -d 'character set'
complete -c shakerand -n '__fish_seen_subcommand_from password' -l chars -x -d 'the characters, given literally'
complete -c shakerand -n '__fish_seen_subcommand_from password' -s w -l words -x -d 'words per password'
complete -c shakerand -n '__fish_seen_subcommand_from password' -l wordlist -r -F -d 'word list, one word per line'
complete -c shakerand -n '__fish_seen_subcommand_from password' -s n -l count -x -d 'how many'
complete -c shakerand -n '__fish_seen_subcommand_from password' -s v -l verbose -d 'print the entropy on standard error'
complete -c shakerand -n '__fish_seen_subcommand_from password' -s s -l seed -x -d 'for tests: seed in hex'
complete -c shakerand -n '__fish_seen_subcommand_from password' -s h -l help -d 'show this help'

complete -c shakerand -n '__fish_seen_subcommand_from shuffle' -s e -l echo -d 'the ARGs are the input lines'
complete -c shakerand -n '__fish_seen_subcommand_from shuffle' -s i -l input-range -x -d 'the numbers LO to HI as the input lines'
complete -c shakerand -n '__fish_seen_subcommand_from shuffle' -s n -l head-count -x -d 'print at most COUNT lines'
complete -c shakerand -n '__fish_seen_subcommand_from shuffle' -s r -l repeat -d 'lines may repeat'
complete -c shakerand -n '__fish_seen_subcommand_from shuffle' -s z -l zero-terminated -d 'lines end with NUL, not newline'
complete -c shakerand -n '__fish_seen_subcommand_from shuffle' -s o -l output -r -F -d 'write to FILE'
complete -c shakerand -n '__fish_seen_subcommand_from shuffle' -s s -l seed -x -d 'seed in hex, reproducible'
complete -c shakerand -n '__fish_seen_subcommand_from shuffle' -s h -l help -d 'show this help'
complete -c shakerand -n '__fish_seen_subcommand_from shuffle' -F

complete -c shakerand -n '__fish_seen_subcommand_from pick' -s e -l echo -d 'the ARGs are the input lines'
complete -c shakerand -n '__fish_seen_subcommand_from pick' -s i -l input-range -x -d 'the numbers LO to HI as the input lines'
complete -c shakerand -n '__fish_seen_subcommand_from pick' -s n -l count -x -d 'how many lines'
complete -c shakerand -n '__fish_seen_subcommand_from pick' -s r -l repeat -d 'lines may repeat'
complete -c shakerand -n '__fish_seen_subcommand_from pick' -s z -l zero-terminated -d 'lines end with NUL, not newline'
complete -c shakerand -n '__fish_seen_subcommand_from pick' -s o -l output -r -F -d 'write to FILE'
complete -c shakerand -n '__fish_seen_subcommand_from pick' -s s -l seed -x -d 'seed in hex, reproducible'
complete -c shakerand -n '__fish_seen_subcommand_from pick' -s h -l help -d 'show this help'
complete -c shakerand -n '__fish_seen_subcommand_from pick' -F

complete -c shakerand -n '__fish_seen_subcommand_from uuid' -s n -l count -x -d 'how many'
complete -c shakerand -n '__fish_seen_subcommand_from uuid' -s r -l random -d 'version 4, random'
complete -c shakerand -n '__fish_seen_subcommand_from uuid' -s t -l time -d 'version 7, time-ordered'
complete -c shakerand -n '__fish_seen_subcommand_from uuid' -l v7 -d 'version 7, time-ordered'
complete -c shakerand -n '__fish_seen_subcommand_from uuid' -l sha1 -d 'version 5, from a namespace and a name'
complete -c shakerand -n '__fish_seen_subcommand_from uuid' -l namespace -x -a '@dns @url @oid @x500' -d 'for --sha1: the namespace'
complete -c shakerand -n '__fish_seen_subcommand_from uuid' -l name -x -d 'for --sha1: the name'
complete -c shakerand -n '__fish_seen_subcommand_from uuid' -l upper -d 'upper-case hexadecimal digits'
complete -c shakerand -n '__fish_seen_subcommand_from uuid' -l binary -d '16-byte binary form'
complete -c shakerand -n '__fish_seen_subcommand_from uuid' -s h -l help -d 'show this help'

complete -c shakerand -n '__fish_seen_subcommand_from sources' -s j -l json -d 'one JSON object'
complete -c shakerand -n '__fish_seen_subcommand_from sources' -s h -l help -d 'show this help'
