/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* shakerand shuffle and pick: lines in random order, or K of them, with
 * shuf's options (-e, -i, -n, -r, -z, -o). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "platform.h"

enum { OPT_ECHO = 'e', OPT_RANGE = 'i', OPT_COUNT = 'n', OPT_REPEAT = 'r', OPT_ZERO = 'z' };

/* The options shuffle and pick share, but for -n (rows of a table in
 * macros, which clang-format cannot lay out as rows). */
/* clang-format off */
#define INPUT_OPTIONS                                                                          \
    {OPT_ECHO, 'e', "echo", NULL, "the ARGs are the input lines (like shuf -e)",               \
     COMPLETE_NOTHING, NULL, "input-range", NULL},                                             \
    {OPT_RANGE, 'i', "input-range", "LO-HI",                                                   \
     "the whole numbers LO to HI are the input lines\n"                                      \
     "(like shuf -i); LO may be HI + 1, for none",                                             \
     COMPLETE_NOTHING, NULL, NULL, "the numbers LO to HI as the input lines"}
#define OTHER_OPTIONS                                                                          \
    {OPT_REPEAT, 'r', "repeat", NULL,                                                          \
     "draw each line printed independently, so lines\n"                                       \
     "may repeat: -n of them, or without -n until the\n"                                       \
     "output is closed (like shuf -r)",                                                        \
     COMPLETE_NOTHING, NULL, NULL, "lines may repeat"},                                        \
    {OPT_ZERO, 'z', "zero-terminated", NULL,                                                   \
     "lines end with a NUL byte, not a newline, in the\n"                                     \
     "input and the output (like shuf -z)",                                                    \
     COMPLETE_NOTHING, NULL, NULL, "lines end with NUL, not newline"},                         \
    {'o', 'o', "output", "FILE",                                                               \
     "write to FILE instead of standard output, after\n"                                      \
     "reading all the input; as for bytes -o, a regular\n"                                    \
     "FILE is made mode 0600 and a symbolic link refused,\n"                                  \
     "but FILE being the input file keeps its mode (like\n"                                   \
     "shuf -o FILE FILE)",                                                                     \
     COMPLETE_FILE, NULL, NULL, "write to FILE"},                                              \
    {'s', 's', "seed", "HEX",                                                                  \
     "draw from turboshake256 with this seed, as shuf\n"                                      \
     "draws from --random-source: the same input and HEX\n"                                   \
     "give the same lines",                                                                    \
     COMPLETE_NOTHING, NULL, NULL, "seed in hex, reproducible"},                               \
    CLI_OPTION_HELP, CLI_OPTION_END
/* clang-format on */

static const struct cli_option shuffle_options[] = {
    INPUT_OPTIONS,
    {OPT_COUNT, 'n', "head-count", "COUNT",
     "print at most COUNT lines, different ones of the\n"
     "input (with -r, any ones), in random order (like\n"
     "shuf -n)",
     COMPLETE_NOTHING, NULL, NULL, "print at most COUNT lines"},
    OTHER_OPTIONS,
};

static const struct cli_option pick_options[] = {
    INPUT_OPTIONS,
    {OPT_COUNT, 'n', "count", "K", "how many lines (default 1)", COMPLETE_NOTHING, NULL, NULL,
     "how many lines"},
    OTHER_OPTIONS,
};

/* -i LO-HI: two whole numbers, LO at most HI + 1, and not every 64-bit
 * number (their count would not fit). */
static int parse_range(const char *s, uint64_t *lo, uint64_t *count)
{
    const char *dash = strchr(s, '-');
    char first[32];
    uint64_t hi;
    if (dash == NULL || dash == s || (size_t)(dash - s) >= sizeof first)
        return -1;
    memcpy(first, s, (size_t)(dash - s));
    first[dash - s] = '\0';
    if (cli_parse_u64(first, lo) != 0 || dash[1] == '\0' || cli_parse_u64(dash + 1, &hi) != 0)
        return -1;
    if (hi == UINT64_MAX ? *lo == 0 : *lo > hi + 1)
        return -1;
    *count = hi - *lo + 1;
    return 0;
}

/* The positions of a Fisher-Yates shuffle over count items, of which K are
 * drawn: a table of all of them when K is a large share of count, else
 * only those a step has moved (a hash table of at most K entries), so that
 * "-i 1-1000000000 -n 3" takes no memory to speak of. Either way the same
 * draws give the same items, and the items of lines are shuffled the same
 * way (the tests compare -i with the lines of seq). */
struct positions {
    uint64_t *dense; /* count entries, or NULL */
    struct moved {
        uint64_t at, item;
        int used;
    } *moved;
    size_t mask; /* of moved's size, a power of 2 */
};

static int positions_init(struct positions *p, uint64_t count, uint64_t k)
{
    memset(p, 0, sizeof *p);
    if (k >= count / 4) {
        if (count > SIZE_MAX / sizeof *p->dense ||
            (p->dense = malloc((size_t)(count ? count : 1) * sizeof *p->dense)) == NULL)
            return cli_out_of_memory();
        for (uint64_t i = 0; i < count; i++)
            p->dense[i] = i;
        return 0;
    }
    size_t size = 16;
    while (size < 2 * k + 2) {
        if (size > SIZE_MAX / 2 / sizeof *p->moved)
            return cli_out_of_memory();
        size *= 2;
    }
    if ((p->moved = calloc(size, sizeof *p->moved)) == NULL)
        return cli_out_of_memory();
    p->mask = size - 1;
    return 0;
}

static struct moved *slot(const struct positions *p, uint64_t at)
{
    size_t i = (size_t)((at * 0x9E3779B97F4A7C15u) >> 32) & p->mask;
    while (p->moved[i].used && p->moved[i].at != at)
        i = (i + 1) & p->mask;
    return &p->moved[i];
}

static uint64_t positions_get(const struct positions *p, uint64_t at)
{
    if (p->dense != NULL)
        return p->dense[at];
    if (p->moved == NULL)
        return at;
    const struct moved *m = slot(p, at);
    return m->used ? m->item : at;
}

static void positions_set(struct positions *p, uint64_t at, uint64_t item)
{
    if (p->dense != NULL) {
        p->dense[at] = item;
        return;
    }
    if (p->moved == NULL)
        return;
    struct moved *m = slot(p, at);
    m->used = 1;
    m->at = at;
    m->item = item;
}

static void positions_free(struct positions *p, uint64_t count)
{
    cli_wipe_free(p->dense, p->dense != NULL ? (size_t)count * sizeof *p->dense : 0);
    cli_wipe_free(p->moved, p->moved != NULL ? (p->mask + 1) * sizeof *p->moved : 0);
}

/* Prints item (a line, or the number lo + item) and the delimiter; 0 if
 * stdout took it. */
static int print_item(const struct cli_line *lines, uint64_t lo, uint64_t item, char delimiter)
{
    if (lines != NULL) {
        fwrite(lines[item].text, 1, lines[item].len, stdout);
    } else {
        char digits[24];
        size_t n = sizeof digits;
        uint64_t v = lo + item;
        do {
            digits[--n] = (char)('0' + v % 10);
            v /= 10;
        } while (v != 0);
        fwrite(digits + n, 1, sizeof digits - n, stdout);
    }
    return putchar(delimiter) == EOF || ferror(stdout);
}

/* shuffle is pick with K = every line: a Fisher-Yates shuffle stopped after
 * K steps leaves a uniform ordered choice of K lines in front. */
static int run_lines(const struct cli_args *args, const char *command, uint64_t k)
{
    const char *output = NULL, *seed_arg = NULL, *range = NULL;
    int echo = 0, repeat = 0;
    char delimiter = '\n';
    uint64_t lo = 0, count = 0;
    for (size_t i = 0; i < args->n_given; i++) {
        const char *value = args->given[i].value;
        switch (args->given[i].option->id) {
            case OPT_COUNT: /* any size: with fewer lines than K, all are printed */
                if (cli_parse_u64(value, &k) != 0)
                    return cli_fail(EXIT_USAGE, "%s: invalid count '%s' (a whole number)", command,
                                    value);
                break;
            case OPT_RANGE:
                if (parse_range(value, &lo, &count) != 0)
                    return cli_fail(
                        EXIT_USAGE,
                        "%s: invalid input range '%s' (LO-HI: whole numbers, LO at most "
                        "HI + 1, fewer than 2^64 of them)",
                        command, value);
                range = value;
                break;
            case OPT_ECHO: echo = 1; break;
            case OPT_REPEAT: repeat = 1; break;
            case OPT_ZERO: delimiter = '\0'; break;
            case 'o': output = value; break;
            case 's': seed_arg = value; break;
        }
    }
    /* shuffle -r without -n: k is UINT64_MAX, so until the output is closed
     * (the fuzzer's cap stops it); pick -r: one line. */
    int status = echo ? 0 : cli_no_operands(command, args, range != NULL ? 0 : 1);
    if (status != 0)
        return status;
    if (repeat && k > 0 && ((echo && args->n_operands == 0) || (range != NULL && count == 0)))
        return cli_fail(EXIT_USAGE, "%s: no lines to repeat", command);

    shakerand_engine *engine = NULL;
    char *buf = NULL;
    size_t len = 0, n_lines = 0;
    struct cli_line *lines = NULL;
    struct positions positions = {0};
    struct platform_file_id input_id = {0};
    if ((status = cli_generator(seed_arg, command, &engine)) != 0)
        goto out;
    if (echo) {
        n_lines = args->n_operands;
        if ((lines = calloc(n_lines ? n_lines : 1, sizeof *lines)) == NULL) {
            status = cli_out_of_memory();
            goto out;
        }
        for (size_t i = 0; i < n_lines; i++) {
            lines[i].text = args->operands[i];
            lines[i].len = strlen(args->operands[i]);
        }
    } else if (range == NULL) {
        const char *input = args->n_operands > 0 ? args->operands[0] : NULL;
        if ((status = cli_read_all(input, command, &buf, &len, &input_id)) != 0)
            goto out;
        if ((status = cli_split_lines(buf, len, delimiter, &lines, &n_lines)) != 0)
            goto out;
    }
    if (range == NULL)
        count = n_lines;
    if (repeat && k > 0 && count == 0) {
        status = cli_fail(EXIT_RUNTIME, "%s: no lines to repeat", command);
        goto out;
    }
    k = cli_cap(repeat || k < count ? k : count);
    if (!repeat && range != NULL && (status = positions_init(&positions, count, k)) != 0)
        goto out;
    if (output != NULL && (status = cli_redirect_stdout(output, &input_id)) != 0)
        goto out;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t item;
        if (repeat) {
            item = cli_draw_below(engine, count);
        } else {
            const uint64_t j = i + cli_draw_below(engine, count - i);
            if (range != NULL) {
                item = positions_get(&positions, j);
                positions_set(&positions, j, positions_get(&positions, i));
            } else {
                const struct cli_line chosen = lines[j];
                lines[j] = lines[i];
                lines[i] = chosen;
                item = i;
            }
        }
        if (print_item(range != NULL ? NULL : lines, lo, item, delimiter) != 0)
            break; /* a write error, which cli_finish_stdout reports */
    }
    status = cli_finish_stdout();
out:
    cli_generator_wipe(engine);
    positions_free(&positions, count);
    cli_wipe_free(lines, n_lines * sizeof *lines);
    cli_wipe_free(buf, len);
    return status;
}

static int run_shuffle(const struct cli_args *args)
{
    return run_lines(args, "shuffle", UINT64_MAX);
}

static int run_pick(const struct cli_args *args) { return run_lines(args, "pick", 1); }

const struct cli_command cli_shuffle = {
    "shuffle",
    "the lines of a file in random order (like shuf)",
    "Usage: shakerand shuffle [FILE] [OPTIONS]\n"
    "       shakerand shuffle -e [ARG]... [OPTIONS]\n"
    "       shakerand shuffle -i LO-HI [OPTIONS]\n"
    "\n"
    "Print the lines of FILE, or of standard input without FILE or for '-', in a\n"
    "random order, every order equally likely (like shuf): a Fisher-Yates shuffle\n"
    "with unbiased draws from the system generator. A last line without a newline\n"
    "is printed with one. The input is held in memory, and wiped.\n"
    "\n",
    NULL,
    shuffle_options,
    0,
    "file",
    COMPLETE_FILE,
    run_shuffle,
};

const struct cli_command cli_pick = {
    "pick",
    "K different random lines of a file (like shuf -n K)",
    "Usage: shakerand pick [-n K] [FILE] [OPTIONS]\n"
    "       shakerand pick [-n K] -e [ARG]... [OPTIONS]\n"
    "       shakerand pick [-n K] -i LO-HI [OPTIONS]\n"
    "\n"
    "Print K lines of FILE, or of standard input without FILE or for '-', chosen\n"
    "at random without repetition, in random order (like shuf -n K): every\n"
    "ordered choice of K different lines of the input is equally likely. With\n"
    "fewer than K lines, all are printed, shuffled. Equal lines of the input are\n"
    "different lines; the input is held in memory, and wiped.\n"
    "\n",
    NULL,
    pick_options,
    0,
    "file",
    COMPLETE_FILE,
    run_pick,
};
