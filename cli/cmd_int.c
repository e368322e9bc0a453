/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* shakerand int: random integers of any size in a range (like shuf -i). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OPT_HEX = 1000, OPT_STATS };

/* The core's methods, in the order of their numbers. */
static const char *method_choice(size_t i)
{
    return i < 16 ? shakerand_method_name((shakerand_method)(i + 1)) : NULL;
}

static const struct cli_option options[] = {
    {'b', 'b', "below", "B", "the exclusive upper bound, greater than zero", COMPLETE_NOTHING, NULL,
     NULL, NULL},
    {'n', 'n', "count", "N", "how many (default 1)", COMPLETE_NOTHING, NULL, NULL, NULL},
    {OPT_HEX, 0, "hex", NULL, "print lower-case hexadecimal without leading zeros",
     COMPLETE_NOTHING, NULL, NULL, "print hexadecimal"},
    {'m', 'm', "method", "METHOD",
     "rng-bc-1 (default), rng-bc-8, simple-discard or\n"
     "simple-modular: how the sampler rejects",
     COMPLETE_CHOICE, method_choice, NULL, "sampling method"},
    {'s', 's', "seed", "HEX",
     "draw from turboshake256 with this seed (reproducible);\n"
     "without it, from the system generator",
     COMPLETE_NOTHING, NULL, NULL, "seed in hex, reproducible"},
    {OPT_STATS, 0, "stats", NULL,
     "print {\"method\",\"count\",\"avg_bits\",\"max_bits\"} as one\n"
     "JSON line on standard error: bits drawn per integer,\n"
     "counted as the Optimized Simple Discard paper counts them",
     COMPLETE_NOTHING, NULL, NULL, "bits drawn, as JSON on standard error"},
    CLI_OPTION_HELP,
    CLI_OPTION_END,
};

enum { NOT_A_NUMBER = -1, NOT_A_BOUND = 0, A_BOUND = 1 };

/* Whether s is a number, and greater than zero (what --below takes). */
static int number_kind(const char *s)
{
    const size_t len = cli_bignum_bytes(strlen(s));
    uint8_t *mag = calloc(1, len);
    struct cli_bignum n = {0, mag};
    int kind = NOT_A_NUMBER;
    if (mag != NULL && cli_bignum_parse(s, &n, len) == 0)
        kind = !n.negative && !cli_bignum_is_zero(mag, len) ? A_BOUND : NOT_A_BOUND;
    free(mag);
    return kind;
}

static const char invalid_number[] =
    "int: invalid number '%s' (decimal digits, or hex digits after 0x)";

static int run(const struct cli_args *args)
{
    const char *below = NULL, *seed_arg = NULL;
    uint64_t count = 1;
    shakerand_method method = SHAKERAND_RNG_BC_1;
    int stats = 0, hex = 0;
    for (size_t i = 0; i < args->n_given; i++) {
        const char *value = args->given[i].value;
        switch (args->given[i].option->id) {
            case 'b': below = value; break;
            case 's': seed_arg = value; break;
            case OPT_STATS: stats = 1; break;
            case OPT_HEX: hex = 1; break;
            case 'n':
                if (cli_parse_count(value, &count) != 0)
                    return cli_fail(EXIT_USAGE, "int: invalid count '%s' (a whole number)", value);
                break;
            case 'm':
                if (shakerand_method_from_name(value, &method) != SHAKERAND_OK)
                    return cli_fail(EXIT_USAGE,
                                    "int: unknown method '%s' (rng-bc-1, rng-bc-8, simple-discard, "
                                    "simple-modular)",
                                    value);
                break;
        }
    }
    count = cli_cap(count);
    const size_t operands = args->n_operands;
    if (below != NULL && operands > 0)
        return cli_fail(EXIT_USAGE, "int: give LO HI or --below B, not both");
    /* "int 6" most likely meant a bound: the message says how to give one;
     * "int 1.5" is told what is wrong with the operand first. */
    if (below == NULL && operands == 1) {
        const int kind = number_kind(args->operands[0]);
        if (kind == NOT_A_NUMBER)
            return cli_fail(EXIT_USAGE, invalid_number, args->operands[0]);
        if (kind == A_BOUND)
            return cli_fail(EXIT_USAGE, "int: missing HI (for a number below %s, use --below %s)",
                            args->operands[0], args->operands[0]);
    }
    if (below == NULL && operands < 2)
        return cli_fail(EXIT_USAGE, "int: missing %s (see 'shakerand int --help')",
                        operands == 0 ? "LO HI or --below B" : "HI");
    int status = cli_no_operands("int", args, 2);
    if (status != 0)
        return status;
    const char *lo_arg = below != NULL ? "0" : args->operands[0];
    const char *hi_arg = below != NULL ? below : args->operands[1];

    /* lo, width = hi - lo + 1 (or the bound), a draw r below width, and the
     * result lo + r share one size, with room for the sum. */
    const size_t lo_len = strlen(lo_arg), hi_len = strlen(hi_arg);
    const size_t len = cli_bignum_bytes(lo_len > hi_len ? lo_len : hi_len);
    uint8_t *mags = calloc(5, len);
    char *text = malloc(cli_bignum_text_size(len));
    shakerand_engine *engine = NULL;
    if (mags == NULL || text == NULL) {
        status = cli_out_of_memory();
        goto out;
    }
    struct cli_bignum lo = {0, mags}, width = {0, mags + len}, r = {0, mags + 2 * len},
                      value = {0, mags + 3 * len};
    uint8_t *scratch = mags + 4 * len;
    for (int i = 0; i < 2; i++) {
        const char *arg = i ? hi_arg : lo_arg;
        if (cli_bignum_parse(arg, i ? &width : &lo, len) != 0) {
            status = cli_fail(EXIT_USAGE, invalid_number, arg);
            goto out;
        }
    }
    if (below != NULL) {
        if (width.negative || cli_bignum_is_zero(width.mag, len)) {
            status = cli_fail(EXIT_USAGE, "int: the bound must be greater than zero");
            goto out;
        }
    } else {
        struct cli_bignum minus_lo = lo;
        minus_lo.negative = !lo.negative && !cli_bignum_is_zero(lo.mag, len);
        cli_bignum_add(&width, &minus_lo, &width, len);
        if (width.negative) {
            status = cli_fail(EXIT_USAGE, "int: LO is greater than HI");
            goto out;
        }
        for (size_t i = len; i-- > 0 && ++width.mag[i] == 0;)
            ; /* + 1, carrying */
    }

    if ((status = cli_generator(seed_arg, "int", &engine)) != 0)
        goto out;
    uint64_t total_bits = 0, max_bits = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t bits = 0;
        const int drawn = shakerand_below(engine, method, width.mag, len, r.mag, &bits);
        if (drawn != SHAKERAND_OK) {
            status = cli_fail_status("int", drawn);
            goto out;
        }
        total_bits += bits;
        if (bits > max_bits)
            max_bits = bits;
        cli_bignum_add(&lo, &r, &value, len);
        fwrite(text, 1, cli_bignum_format(&value, len, hex, scratch, text), stdout);
    }
    if ((status = cli_flush_stdout()) != 0)
        goto out;
    if (stats)
        fprintf(stderr, "{\"method\":\"%s\",\"count\":%llu,\"avg_bits\":%.6f,\"max_bits\":%llu}\n",
                shakerand_method_name(method), (unsigned long long)count,
                count ? (double)total_bits / (double)count : 0.0, (unsigned long long)max_bits);
out:
    cli_generator_wipe(engine);
    cli_wipe_free(mags, 5 * len);
    cli_wipe_free(text, cli_bignum_text_size(len));
    return status;
}

const struct cli_command cli_int = {
    "int",
    "random integers in a range, of any size (like shuf -i)",
    "Usage: shakerand int LO HI [OPTIONS]\n"
    "       shakerand int --below B [OPTIONS]\n"
    "\n"
    "Print N random integers, one per line, in decimal: uniform from LO to HI,\n"
    "both included (like shuf -i), or from 0 to B - 1. Numbers may have any size,\n"
    "in decimal or in hexadecimal after 0x; LO and HI may be negative.\n"
    "\n",
    "\n"
    "LO to HI is drawn as LO + a number below HI - LO + 1, so 'int 0 99' and\n"
    "'int --below 100' print the same numbers for the same seed.\n",
    options,
    CLI_NUMERIC_OPERANDS,
    "LO HI",
    COMPLETE_NOTHING,
    run,
};
