/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* shakerand password: random passwords from a character set or a word
 * list (like pwgen). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct charset {
    const char *name, *chars;
} charsets[] = {
    {"alnum", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"},
    {"alnum-symbols", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                      "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"},
    {"lower", "abcdefghijklmnopqrstuvwxyz"},
    {"digits", "0123456789"},
    {"hex", "0123456789abcdef"},
};

static const char *charset_choice(size_t i)
{
    return i < sizeof charsets / sizeof *charsets ? charsets[i].name : NULL;
}

enum { OPT_CHARS = 1000, OPT_WORDLIST };

static const struct cli_option options[] = {
    {'l', 'l', "length", "N", "characters per password, 1 to 1048576 (default 20)",
     COMPLETE_NOTHING, NULL, "words", NULL},
    {'c', 'c', "charset", "NAME",
     "alnum (A-Z a-z 0-9, the default), alnum-symbols (alnum and\n"
     "the 32 ASCII punctuation characters), lower (a-z),\n"
     "digits (0-9) or hex (0-9 a-f)",
     COMPLETE_CHOICE, charset_choice, "chars words", "character set"},
    {OPT_CHARS, 0, "chars", "SET",
     "the characters given literally, e.g. --chars 'abc123':\n"
     "printable ASCII other than space, at least 2 different;\n"
     "one given twice counts once",
     COMPLETE_NOTHING, NULL, "words", "the characters, given literally"},
    {'w', 'w', "words", "N", "N words joined by '-' instead of characters (1 to 65536)",
     COMPLETE_NOTHING, NULL, NULL, "words per password"},
    {OPT_WORDLIST, 0, "wordlist", "FILE",
     "the words, one per line ('-': standard input); empty lines\n"
     "and repeats are dropped, at least 2 words must remain;\n"
     "a word with a '-' is refused (two choices of words could\n"
     "join into the same password)",
     COMPLETE_FILE, NULL, NULL, "word list, one word per line"},
    {'n', 'n', "count", "N", "how many (default 1)", COMPLETE_NOTHING, NULL, NULL, NULL},
    {'v', 'v', "verbose", NULL,
     "print each password's entropy in bits on standard error:\n"
     "length * log2(set size), or words * log2(list size)",
     COMPLETE_NOTHING, NULL, NULL, "print the entropy on standard error"},
    {'s', 's', "seed", "HEX",
     "for tests: draw from turboshake256 with this seed, so the\n"
     "passwords are only as secret as HEX",
     COMPLETE_NOTHING, NULL, NULL, "for tests: seed in hex"},
    CLI_OPTION_HELP,
    CLI_OPTION_END,
};

/* log2(x) for x >= 1, without libm: x = 2^e * m with m in [1, 2), and
 * ln m = 2 atanh((m - 1) / (m + 1)), whose series in t <= 1/3 gains a
 * digit per term. */
static double log2_of(double x)
{
    int e = 0;
    while (x >= 2) {
        x /= 2;
        e++;
    }
    const double t = (x - 1) / (x + 1);
    double sum = 0, power = t;
    for (int k = 1; k < 40; k += 2) {
        sum += power / k;
        power *= t * t;
    }
    return e + 2 * sum / 0.69314718055994530942;
}

static int compare_lines(const void *a, const void *b)
{
    const struct cli_line *x = a, *y = b;
    const int c = memcmp(x->text, y->text, x->len < y->len ? x->len : y->len);
    return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

/* What --words puts between the words of a password. */
static const char word_separator = '-';

/* The list's distinct non-empty lines (a '\r' before the '\n' dropped), in
 * sorted order, in *out; their number in *count. -v counts a password of N
 * words from a list of n as n^N passwords, which holds only if different
 * choices of words print differently, that is if a password split at the
 * separator gives back the words chosen. So a word containing the
 * separator is refused (a-b + a and a + b-a both print a-b-a), even when N
 * is 1, so that a list is good or not whatever N is; and a repeat is
 * dropped, as it would be counted twice in n. Empty lines are not words.
 * 0 (the array holds *allocated lines, for cli_wipe_free), or EXIT_RUNTIME
 * after the message. */
static int distinct_words(const char *buf, size_t len, struct cli_line **out, size_t *count,
                          size_t *allocated)
{
    size_t n;
    struct cli_line *words;
    const int status = cli_split_lines(buf, len, '\n', &words, &n);
    if (status != 0)
        return status;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (words[i].len > 0 && words[i].text[words[i].len - 1] == '\r')
            words[i].len--;
        for (size_t j = 0; j < words[i].len; j++) {
            const unsigned char ch = (unsigned char)words[i].text[j];
            if (ch < 0x20 || ch == 0x7f) {
                cli_wipe_free(words, n * sizeof *words);
                return cli_fail(EXIT_RUNTIME,
                                "password: line %zu of the word list has a control character",
                                i + 1);
            }
        }
        if (memchr(words[i].text, word_separator, words[i].len) != NULL) {
            enum { SHOWN = 60 }; /* of a word, at most, in the message */
            const int cut = words[i].len > SHOWN;
            cli_fail(EXIT_RUNTIME,
                     "password: line %zu of the word list, '%.*s%s', contains the separator "
                     "'%c': different words could join into the same password",
                     i + 1, cut ? SHOWN : (int)words[i].len, words[i].text, cut ? "..." : "",
                     word_separator);
            cli_wipe_free(words, n * sizeof *words);
            return EXIT_RUNTIME;
        }
        if (words[i].len > 0)
            words[kept++] = words[i];
    }
    qsort(words, kept, sizeof *words, compare_lines);
    size_t distinct = 0;
    for (size_t i = 0; i < kept; i++)
        if (distinct == 0 || compare_lines(&words[distinct - 1], &words[i]) != 0)
            words[distinct++] = words[i];
    *out = words;
    *count = distinct;
    *allocated = n;
    return 0;
}

static int run(const struct cli_args *args)
{
    const char *charset = NULL, *chars = NULL, *wordlist = NULL, *seed_arg = NULL;
    uint64_t length = 20, words = 0, count = 1;
    int verbose = 0;
    for (size_t i = 0; i < args->n_given; i++) {
        const char *value = args->given[i].value;
        switch (args->given[i].option->id) {
            case 'l':
                if (cli_parse_limited(value, 1, 1 << 20, &length) != 0)
                    return cli_fail(EXIT_USAGE,
                                    "password: invalid length '%s' (a whole number, 1 to 1048576)",
                                    value);
                break;
            case 'w':
                if (cli_parse_limited(value, 1, 1 << 16, &words) != 0)
                    return cli_fail(EXIT_USAGE,
                                    "password: invalid number of words '%s' (1 to 65536)", value);
                break;
            case 'n':
                if (cli_parse_count(value, &count) != 0)
                    return cli_fail(EXIT_USAGE, "password: invalid count '%s' (a whole number)",
                                    value);
                break;
            case 'c': charset = value; break;
            case OPT_CHARS: chars = value; break;
            case OPT_WORDLIST: wordlist = value; break;
            case 'v': verbose = 1; break;
            case 's': seed_arg = value; break;
        }
    }
    int status = cli_no_operands("password", args, 0);
    if (status != 0)
        return status;
    count = cli_cap(count);
    length = cli_cap(length);
    if (words != 0 && wordlist == NULL)
        return cli_fail(EXIT_USAGE, "password: --words needs --wordlist FILE");
    if (words == 0 && wordlist != NULL)
        return cli_fail(EXIT_USAGE, "password: --wordlist needs --words N");

    /* The set: 95 slots hold any set of printable ASCII characters. */
    char set[96];
    size_t set_size = 0;
    if (words == 0) {
        const char *given = chars;
        if (chars == NULL) {
            const char *name = charset != NULL ? charset : "alnum";
            for (size_t i = 0; i < sizeof charsets / sizeof charsets[0]; i++)
                if (strcmp(charsets[i].name, name) == 0)
                    given = charsets[i].chars;
            if (given == NULL)
                return cli_fail(EXIT_USAGE,
                                "password: unknown charset '%s' (alnum, alnum-symbols, lower, "
                                "digits, hex; --chars SET for others)",
                                name);
        }
        for (const char *p = given; *p != '\0'; p++) {
            if (*p <= ' ' || *p > '~')
                return cli_fail(EXIT_USAGE, "password: --chars takes printable ASCII characters "
                                            "other than space");
            if (memchr(set, *p, set_size) == NULL)
                set[set_size++] = *p;
        }
        if (set_size < 2)
            return cli_fail(EXIT_USAGE, "password: --chars needs at least 2 different characters");
    }

    shakerand_engine *engine = NULL;
    char *list = NULL, *line = NULL;
    size_t list_len = 0, list_size = 0, list_lines = 0, longest = 0, line_size = 0;
    struct cli_line *list_words = NULL;
    if ((status = cli_generator(seed_arg, "password", &engine)) != 0)
        goto out;
    if (words != 0) {
        if ((status = cli_read_all(wordlist, "password", &list, &list_len, NULL)) != 0)
            goto out;
        if ((status = distinct_words(list, list_len, &list_words, &list_size, &list_lines)) != 0)
            goto out;
        if (list_size < 2) {
            status =
                cli_fail(EXIT_RUNTIME,
                         "password: the word list '%s' has fewer than 2 different words", wordlist);
            goto out;
        }
        if (list_size > UINT32_MAX) {
            status = cli_fail(EXIT_RUNTIME, "password: the word list '%s' has more than 2^32 words",
                              wordlist);
            goto out;
        }
        for (size_t i = 0; i < list_size; i++)
            longest = list_words[i].len > longest ? list_words[i].len : longest;
    }

    /* Each line: length characters, or words words with a separator or '\n' after each. */
    if (words != 0 && longest + 1 > SIZE_MAX / words) {
        status = cli_out_of_memory();
        goto out;
    }
    line_size = words != 0 ? (size_t)words * (longest + 1) : (size_t)length + 1;
    if ((line = malloc(line_size)) == NULL) {
        status = cli_out_of_memory();
        goto out;
    }
    for (uint64_t i = 0; i < count; i++) {
        size_t n = 0;
        for (uint64_t k = 0; k < (words != 0 ? words : length); k++) {
            uint32_t pick = 0;
            /* Fails only for an empty set, which there is not. */
            (void)shakerand_uniform_u32(engine, (uint32_t)(words != 0 ? list_size : set_size),
                                        &pick);
            if (words != 0) {
                memcpy(line + n, list_words[pick].text, list_words[pick].len);
                n += list_words[pick].len;
                line[n++] = word_separator;
            } else {
                line[n++] = set[pick];
            }
        }
        if (words != 0)
            n--; /* the last separator */
        line[n++] = '\n';
        fwrite(line, 1, n, stdout);
    }
    if ((status = cli_flush_stdout()) != 0)
        goto out;
    if (verbose) {
        const double bits = words != 0 ? (double)words * log2_of((double)list_size)
                                       : (double)length * log2_of((double)set_size);
        /* Rounded down, so as never to claim more than there is. */
        fprintf(stderr, "%s: password: %.1f bits of entropy each (%llu %s %zu)\n", cli_program,
                (double)(uint64_t)(bits * 10) / 10,
                (unsigned long long)(words != 0 ? words : length),
                words != 0 ? "words from a list of" : "characters from a set of",
                words != 0 ? list_size : set_size);
    }
out:
    cli_generator_wipe(engine);
    cli_wipe_free(line, line_size);
    cli_wipe_free(list_words, list_lines * sizeof *list_words);
    cli_wipe_free(list, list_len);
    shakerand_memzero(set, sizeof set);
    return status;
}

const struct cli_command cli_password = {
    "password",
    "random passwords from a character set or a word list (like pwgen)",
    "Usage: shakerand password [--length N] [--charset NAME | --chars SET] [-n N]\n"
    "                          [--verbose]\n"
    "       shakerand password --words N --wordlist FILE [-n N] [--verbose]\n"
    "\n"
    "Print N random passwords, one per line, from the system generator: each\n"
    "character drawn uniformly and independently from a set, or each word from a\n"
    "list, by an unbiased draw.\n"
    "\n",
    NULL,
    options,
    0,
    NULL,
    COMPLETE_NOTHING,
    run,
};
