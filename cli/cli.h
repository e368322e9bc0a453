/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The command-line front end's shared parts. Each command is a file
 * (cmd_*.c) holding its table of options, its help text and its run
 * function; cli.c holds the table of commands and cli_main. A command's
 * table drives the parsing of its arguments (options.c), its --help, and
 * the shell completions (completion.c, which writes cli/completions/).
 *
 * Exit status: 0 success, 1 runtime error (I/O, entropy, memory), 2 usage
 * error. Nothing here calls exit: every function that can fail prints one
 * line on stderr (cli_fail) and returns the status, which the command
 * returns to cli_main. (A reader that closes the pipe early ends the
 * program through SIGPIPE, as for other Unix filters; on Windows through
 * platform_exit_if_reader_gone.)
 */
#ifndef SHAKERAND_CLI_H
#define SHAKERAND_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "shakerand.h"

enum { EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

/* Every file of the CLI defines _GNU_SOURCE, which on MinGW-w64 also gives
 * the C99 printf (%zu), as the format check must know. */
#if defined(__MINGW_PRINTF_FORMAT)
#define CLI_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

/* ---- a run (cli.c) ---------------------------------------------------- */

/* Limits for running the commands in-process (tests/fuzz/fuzz_cli.c):
 * counts of what a command writes (bytes, numbers, lines, characters of a
 * password) are cut to max_count, files are read only max_input bytes far,
 * and standard input reads as empty when no_stdin is set (it could wait
 * forever). main runs without limits. */
struct cli_limits {
    uint64_t max_count;
    size_t max_input;
    int no_stdin;
};
extern struct cli_limits cli_limits;

/* n, or max_count if that is smaller. */
uint64_t cli_cap(uint64_t n);

/* Runs the command line argv ("shakerand COMMAND ..."), under limits (NULL:
 * none); returns the exit status. */
int cli_main(int argc, char **argv, const struct cli_limits *limits);

/* ---- options and their tables (options.c) ------------------------------ */

/* How the shells complete an option's value, or a command's operands. */
enum cli_complete { COMPLETE_NOTHING, COMPLETE_FILE, COMPLETE_CHOICE };

struct cli_option {
    int id;            /* what the command's run function sees */
    char letter;       /* the short name, or 0 */
    const char *name;  /* the long name */
    const char *value; /* the value's name in --help ("SIZE"); NULL for a flag */
    /* The text in --help, lines separated by '\n'; NULL for the choices,
     * listed ("a, b, c or d"). */
    const char *help;
    enum cli_complete complete;
    /* COMPLETE_CHOICE: the i-th choice, NULL past the last. */
    const char *(*choice)(size_t i);
    /* The long names, space-separated, of options that cannot be given with
     * this one: a usage error, and not offered by zsh after it. */
    const char *excludes;
    /* For the completions' descriptions; NULL: the help's first line up to
     * a " (" or "; ". */
    const char *brief;
};

/* Every command's -h, --help: the last entry of its table but the end. */
enum { CLI_HELP = -1 };
#define CLI_OPTION_HELP \
    {CLI_HELP, 'h', "help", NULL, "show this help", COMPLETE_NOTHING, NULL, NULL, NULL}
#define CLI_OPTION_END {0, 0, NULL, NULL, NULL, COMPLETE_NOTHING, NULL, NULL, NULL}

/* An option given, with its value (NULL for a flag), in the order given. */
struct cli_given {
    const struct cli_option *option;
    const char *value;
};

struct cli_args {
    struct cli_given *given;
    size_t n_given;
    char **operands; /* in the order given; those after "--" included */
    size_t n_operands;
};

enum {
    /* An argument of '-' and a digit is an operand ("int -5 5", "bytes -1"
     * to say the size is invalid), not an option. */
    CLI_NUMERIC_OPERANDS = 1,
};

struct cli_command {
    const char *name;
    /* The line of 'shakerand --help'; the completions' description is its
     * part before " (". */
    const char *summary;
    /* --help: the usage lines and what the command does, then the options
     * from the table, then after (if not NULL). */
    const char *usage;
    const char *after;
    const struct cli_option *options;
    unsigned flags;
    /* The operands, for the completions: a name (NULL: none) and how the
     * shells complete them. */
    const char *operands;
    enum cli_complete complete_operands;
    int (*run)(const struct cli_args *args);
};

/* The commands, in the order 'shakerand --help' lists them; NULL ends it. */
extern const struct cli_command *const cli_commands[];

/* shakerand's own options (--help, --version), before a command. */
extern const struct cli_option *const cli_own_options;

/* Parses argv (argv[0] is the command's name) by the command's table into
 * args; prints the help for exactly "-h" or "--help". Returns -1 when the
 * command is to run, else the exit status (0 after the help, 2 for a usage
 * error). Free args with cli_args_free. */
int cli_parse(const struct cli_command *command, int argc, char **argv, struct cli_args *args);
void cli_args_free(struct cli_args *args);

/* A usage error naming the first operand past the allowed number, or 0. */
int cli_no_operands(const char *command, const struct cli_args *args, size_t allowed);

/* Writes into out the long options of table that name (len characters, not
 * NUL-terminated) spells: the one it names in full, else every one it
 * begins, as "'--hex'" or "'--hex' or '--help'". Returns their number. */
int cli_options_spelled(const char *name, size_t len, const struct cli_option *table, char *out,
                        size_t size);

/* The choices of option, "a, b, c or d", in a buffer of the caller's. */
void cli_choice_list(const struct cli_option *option, char *out, size_t size);

/* The text of a command's --help, on stdout (not flushed). */
void cli_print_help(const struct cli_command *command);

/* An option's completion description, as cli_option.brief says, in out. */
void cli_option_brief(const struct cli_option *option, char *out, size_t size);

/* ---- completions (completion.c) ---------------------------------------- */

/* Writes the completion script for shell ("bash", "zsh" or "fish") to
 * stdout from the tables; 0, or 2 for another shell. */
int cli_completion_script(const char *shell);

/* ---- errors and output (output.c) --------------------------------------- */

extern const char cli_program[]; /* "shakerand" */

/* Prints "shakerand: " and the message as one line on stderr; returns
 * status. */
int cli_fail(int status, const char *fmt, ...) CLI_PRINTF(2, 3);

/* For a set-up step that returned status: out of memory is reported as
 * such, not as a lack of entropy. Returns EXIT_RUNTIME. */
int cli_fail_status(const char *what, int status);

/* "out of memory", EXIT_RUNTIME. */
int cli_out_of_memory(void);

/* stdout's buffer is the CLI's own, so that the text of results does not
 * stay in it: cli_stdout_buffer installs it (once, before any output), and
 * cli_flush_stdout wipes it. */
void cli_stdout_buffer(void);

/* Back to writing standard output (the start of a run). */
void cli_output_reset(void);

/* Writes stdout's buffered output, then wipes the buffer: 0, or
 * EXIT_RUNTIME after the message. */
int cli_flush_stdout(void);

/* Flushes stdout and, after cli_redirect_stdout, closes FILE: a network
 * file system may report a write error only then. */
int cli_finish_stdout(void);

/* Writes all of buf to fd (name for messages): 0 or EXIT_RUNTIME. */
int cli_write_all(int fd, const void *buf, size_t len, const char *name);

/* Identifies an open file (for -o naming the input file): see platform.h. */
struct platform_file_id;

/* Opens -o FILE for writing as platform_open_output says (keeping the mode
 * of the file same_as names, if FILE is that file; same_as may be NULL):
 * 0 with *fd set, or EXIT_RUNTIME after the message. */
int cli_open_output(const char *path, const struct platform_file_id *same_as, int *fd);

/* -o FILE for the commands that print text through stdout: descriptor 1
 * becomes FILE (opened as cli_open_output says), so the text passes through
 * stdout's buffer, which cli_flush_stdout wipes. */
int cli_redirect_stdout(const char *path, const struct platform_file_id *same_as);

/* ---- input (input.c) ---------------------------------------------------- */

/* Wipes len bytes at p, if p is not NULL, and frees p. */
void cli_wipe_free(void *p, size_t len);

/* Reads all of path ("-" or NULL: standard input) into memory, which grows
 * by copying (no unwiped copy left behind, as realloc would leave one).
 * On 0, *buf (free with cli_wipe_free(*buf, *len)) and *len; if id is not
 * NULL, it identifies the file read (for -o FILE naming it). Else
 * EXIT_RUNTIME after the message, which names command. */
int cli_read_all(const char *path, const char *command, char **buf, size_t *len,
                 struct platform_file_id *id);

/* A line of the input: its text without the delimiter. */
struct cli_line {
    const char *text;
    size_t len;
};

/* Splits buf into lines at delimiter; a last line without one counts (as
 * for shuf). On 0, *lines (free with cli_wipe_free) and their number in
 * *count; else EXIT_RUNTIME (out of memory). */
int cli_split_lines(const char *buf, size_t len, char delimiter, struct cli_line **lines,
                    size_t *count);

/* ---- text encodings (encode.c) ------------------------------------------ */

extern const char cli_base64_standard[], cli_base64_url[];

/* Each encoder writes its text to out (no NUL) and returns its length. */
size_t cli_encode_hex(const uint8_t *in, size_t n, char *out);
/* RFC 4648 base64 with the given alphabet; '=' padding if pad. */
size_t cli_encode_base64(const uint8_t *in, size_t n, char *out, const char *alphabet, int pad);
/* RFC 4648 base32 (upper case), without '=' padding. */
size_t cli_encode_base32(const uint8_t *in, size_t n, char *out);

/* A hex digit's value, or -1. */
int cli_hex_value(char c);

/* Decodes an even-length hex string ("" is the empty seed). On 0, *bytes
 * (free with cli_wipe_free(*bytes, *len)) and *len. A string that is not
 * hex: EXIT_USAGE with *why set and nothing printed; out of memory:
 * EXIT_RUNTIME after the message. */
int cli_parse_hex(const char *hex, uint8_t **bytes, size_t *len, const char **why);

/* ---- numbers (options.c) ------------------------------------------------ */

/* SIZE: decimal digits with an optional K, M, G or T suffix (powers of
 * 1024). 0 or -1. */
int cli_parse_size(const char *s, uint64_t *out);
/* Decimal digits, any value to 2^64 - 1. 0 or -1. */
int cli_parse_u64(const char *s, uint64_t *out);
/* A count: decimal digits, at most 2^63 - 1. 0 or -1. */
int cli_parse_count(const char *s, uint64_t *out);
/* A whole number from min to max. 0 or -1. */
int cli_parse_limited(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* ---- generators (generator.c) ------------------------------------------- */

/* --seed HEX: a turboshake256 engine seeded with HEX, a reproducible
 * stream, in *engine. Without it (seed_arg NULL) *engine is NULL, which the
 * samplers take for the system generator, seeded here so that a failure is
 * reported rather than fatal. 0, or the status after the message. */
int cli_generator(const char *seed_arg, const char *command, shakerand_engine **engine);

/* Wipes the engine cli_generator gave, if any. */
void cli_generator_wipe(shakerand_engine *engine);

/* Uniform in [0, n), n >= 1 (the samplers fail only for n == 0). */
uint64_t cli_draw_below(shakerand_engine *engine, uint64_t n);

/* The engine kinds, from the core's table: the i-th name, NULL past the
 * last. */
const char *cli_kind_choice(size_t i);

/* ---- progress (progress.c) ---------------------------------------------- */

/* A one-line progress display on stderr, only when stderr is a terminal
 * and only once a run has lasted half a second; redrawn at most 5 times a
 * second. */
struct cli_progress {
    int enabled, shown;
    uint64_t total;
    double start, last;
};
void cli_progress_start(struct cli_progress *p, uint64_t total);
void cli_progress_update(struct cli_progress *p, uint64_t done);
void cli_progress_finish(struct cli_progress *p);

/* ---- big integers, for int (bignum.c) ----------------------------------- */

/* A sign and a magnitude of len big-endian bytes (the form shakerand_below
 * takes), all of one command the same len. */
struct cli_bignum {
    int negative; /* never set for zero */
    uint8_t *mag;
};

/* Bytes enough for the magnitude of a number written in `digits`
 * characters, decimal or hex, plus a spare byte for a sum or difference. */
size_t cli_bignum_bytes(size_t digits);
int cli_bignum_is_zero(const uint8_t *mag, size_t len);
/* Decimal digits, or hex digits after "0x", with an optional '-'; the
 * magnitude must fit len bytes less one. 0, or -1. */
int cli_bignum_parse(const char *s, struct cli_bignum *out, size_t len);
/* out = a + b, signed; out may be a or b. */
void cli_bignum_add(const struct cli_bignum *a, const struct cli_bignum *b, struct cli_bignum *out,
                    size_t len);
/* Characters cli_bignum_format may write for len bytes. */
size_t cli_bignum_text_size(size_t len);
/* The number in decimal (or lower-case hex) without leading zeros, '-'
 * before a negative one, then '\n'; scratch holds len bytes. Returns the
 * text's length. */
size_t cli_bignum_format(const struct cli_bignum *x, size_t len, int hex, uint8_t *scratch,
                         char *text);

/* ---- SHA-1, for uuid --sha1 (sha1.c) ------------------------------------ */

void cli_sha1(const uint8_t *data, size_t len, uint8_t out[20]);

#endif
