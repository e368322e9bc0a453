/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A command's table of options at work: parsing its arguments and printing
 * its --help (see cli.h). Parsing is GNU getopt_long's, done here for every
 * system alike: options and operands in any order, "--" ending the options,
 * short options grouped behind one dash ("-vn5"), a value attached ("-n5",
 * "--count=5") or in the next argument, and a long option abbreviated to a
 * unique prefix ("--cou"). Beyond getopt, see check_spellings.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- numbers ------------------------------------------------------------ */

int cli_parse_size(const char *s, uint64_t *out)
{
    uint64_t value = 0;
    const char *p = s;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        const unsigned digit = (unsigned)(*p - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return -1;
        value = value * 10 + digit;
    }
    unsigned shift = 0;
    switch (*p) {
        case '\0': break;
        case 'K':
        case 'k':
            shift = 10;
            p++;
            break;
        case 'M':
        case 'm':
            shift = 20;
            p++;
            break;
        case 'G':
        case 'g':
            shift = 30;
            p++;
            break;
        case 'T':
        case 't':
            shift = 40;
            p++;
            break;
        default: return -1;
    }
    if (*p != '\0' || (shift && value > (UINT64_MAX >> shift)))
        return -1;
    *out = value << shift;
    return 0;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    return s[strspn(s, "0123456789")] == '\0' ? cli_parse_size(s, out) : -1;
}

int cli_parse_count(const char *s, uint64_t *out)
{
    uint64_t v;
    if (cli_parse_u64(s, &v) != 0 || v > INT64_MAX)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_limited(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    return cli_parse_count(s, out) == 0 && *out >= min && *out <= max ? 0 : -1;
}

/* ---- the table ---------------------------------------------------------- */

static const struct cli_option *by_letter(const struct cli_option *table, char c)
{
    for (const struct cli_option *o = table; c != '\0' && o->name != NULL; o++)
        if (o->letter == c)
            return o;
    return NULL;
}

/* The option name (len characters) names in full, else the one it begins
 * if only one; NULL if none or several (*matches says how many). */
static const struct cli_option *by_name(const struct cli_option *table, const char *name,
                                        size_t len, int *matches)
{
    const struct cli_option *match = NULL;
    *matches = 0;
    for (const struct cli_option *o = table; o->name != NULL; o++) {
        if (strncmp(o->name, name, len) != 0)
            continue;
        if (strlen(o->name) == len) {
            *matches = 1;
            return o;
        }
        match = o;
        ++*matches;
    }
    return *matches == 1 ? match : NULL;
}

int cli_options_spelled(const char *name, size_t len, const struct cli_option *table, char *out,
                        size_t size)
{
    int exact = 0;
    for (const struct cli_option *o = table; o->name != NULL; o++)
        exact |= strlen(o->name) == len && strncmp(o->name, name, len) == 0;
    int found = 0;
    size_t used = 0;
    out[0] = '\0';
    for (const struct cli_option *o = table; o->name != NULL; o++) {
        if (strncmp(o->name, name, len) != 0 || (exact && strlen(o->name) != len))
            continue;
        found++;
        const int n =
            snprintf(out + used, size - used, "%s'--%s'", found == 1 ? "" : " or ", o->name);
        used += n > 0 && (size_t)n < size - used ? (size_t)n : 0;
    }
    return found;
}

void cli_choice_list(const struct cli_option *option, char *out, size_t size)
{
    size_t n = 0, used = 0;
    while (option->choice(n) != NULL)
        n++;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        const int w = snprintf(out + used, size - used, "%s%s",
                               i == 0       ? ""
                               : i + 1 == n ? " or "
                                            : ", ",
                               option->choice(i));
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

void cli_option_brief(const struct cli_option *option, char *out, size_t size)
{
    const char *text = option->brief != NULL ? option->brief : option->help;
    size_t len = strcspn(text, "\n");
    if (option->brief == NULL) {
        for (size_t i = 0; i + 1 < len; i++) {
            if ((text[i] == ' ' && text[i + 1] == '(') || (text[i] == ';' && text[i + 1] == ' ')) {
                len = i;
                break;
            }
        }
    }
    snprintf(out, size, "%.*s", (int)len, text);
}

/* ---- --help ------------------------------------------------------------- */

/* "-n, --size SIZE", or "    --hex": the left column of an option's line. */
static int option_label(const struct cli_option *o, char *out, size_t size)
{
    char letter[5] = "    ";
    if (o->letter != '\0')
        snprintf(letter, sizeof letter, "-%c, ", o->letter);
    return snprintf(out, size, "%s--%s%s%s", letter, o->name, o->value != NULL ? " " : "",
                    o->value != NULL ? o->value : "");
}

void cli_print_help(const struct cli_command *command)
{
    char label[128];
    int width = 0;
    for (const struct cli_option *o = command->options; o->name != NULL; o++) {
        const int n = option_label(o, label, sizeof label);
        width = n > width ? n : width;
    }
    fputs(command->usage, stdout);
    for (const struct cli_option *o = command->options; o->name != NULL; o++) {
        option_label(o, label, sizeof label);
        printf("  %-*s  ", width, label);
        if (o->help == NULL) {
            char choices[256];
            cli_choice_list(o, choices, sizeof choices);
            printf("%s\n", choices);
            continue;
        }
        /* Each further line of the text, indented to the column. */
        for (const char *line = o->help;;) {
            const size_t len = strcspn(line, "\n");
            printf("%.*s\n", (int)len, line);
            if (line[len] == '\0')
                break;
            line += len + 1;
            printf("  %-*s  ", width, "");
        }
    }
    if (command->after != NULL)
        fputs(command->after, stdout);
}

/* ---- parsing -------------------------------------------------------------- */

/* openssl rand's options, which its users give with one dash ("openssl rand
 * -hex -out FILE 32"), for the commands that have no option by that name. */
static const char *const openssl_rand_words[] = {"hex", "base64", "out"};

static int is_operand(const char *arg, unsigned flags)
{
    return arg[0] != '-' || arg[1] == '\0' ||
           ((flags & CLI_NUMERIC_OPERANDS) && arg[1] >= '0' && arg[1] <= '9');
}

/* Whether the option argument arg (not an operand) takes its value from the
 * next argument: "--below" does, "--below=5", "-n5" and "--hex" do not. */
static int value_follows(const char *arg, const struct cli_option *table)
{
    if (arg[1] == '-') {
        const char *name = arg + 2;
        int matches;
        const struct cli_option *o = by_name(table, name, strlen(name), &matches);
        return strchr(name, '=') == NULL && o != NULL && o->value != NULL;
    }
    for (const char *c = arg + 1; *c != '\0'; c++) {
        const struct cli_option *o = by_letter(table, *c);
        if (o == NULL)
            return 0; /* unknown: reported by the parse */
        if (o->value != NULL)
            return c[1] == '\0';
    }
    return 0;
}

/* Refuses, before the parse reads them, the arguments getopt would read as
 * something other than what they say. getopt takes "-hex" for the cluster
 * -h -e -x, so it printed the help text on standard output with status 0
 * (and KEY=$(shakerand bytes -n 32 -hex) stored it as a key); "-out x" is -o
 * with the value "ut" and then an operand. So, each a usage error:
 * - one dash before a long option's name or the start of one ("-hex",
 *   "-out", "-help", "-he"): the message names the two-dash spelling; also
 *   one dash before a word of openssl rand's that this command has no option
 *   for ("-base64" for token), which would be taken apart just the same;
 * - -h anywhere but alone ("-hx", "-vh"), and an abbreviation of --help
 *   ("--hel"): help is only for exactly "-h" or "--help", so that no other
 *   request, mistyped or not, gets the usage text on standard output and
 *   status 0.
 * Values are skipped as the parse takes them ("--chars -help" is a set of
 * five characters), and so is everything after "--". Option letters with a
 * value attached ("-n32", "-sdeadbeef") are still read as getopt reads
 * them; a value that spells the start of a long option ("-see" for --seed
 * ee) is refused with the rest. */
static int check_spellings(const struct cli_command *command, int argc, char **argv)
{
    const struct cli_option *table = command->options;
    const char *name = command->name;
    char meant[256];
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0)
            return 0;
        if (is_operand(arg, command->flags))
            continue;
        if (arg[1] == '-') {
            const char *word = arg + 2;
            const size_t len = strcspn(word, "=");
            if (len > 0 && len < strlen("help") && strncmp(word, "help", len) == 0 &&
                cli_options_spelled(word, len, table, meant, sizeof meant) > 0)
                return cli_fail(EXIT_USAGE, "%s: unknown option '%.*s'; did you mean %s?", name,
                                (int)(len + 2), arg, meant);
        } else {
            const char *word = arg + 1;
            const size_t len = strcspn(word, "=");
            if (len >= 2 && cli_options_spelled(word, len, table, meant, sizeof meant) > 0)
                return cli_fail(EXIT_USAGE, "%s: unknown option '%.*s'; did you mean %s?", name,
                                (int)(len + 1), arg, meant);
            for (size_t w = 0; w < sizeof openssl_rand_words / sizeof *openssl_rand_words; w++) {
                const char *openssl_word = openssl_rand_words[w];
                if (strlen(openssl_word) == len && strncmp(word, openssl_word, len) == 0)
                    return cli_fail(EXIT_USAGE, "%s: unknown option '%.*s' (see '%s %s --help')",
                                    name, (int)(len + 1), arg, cli_program, name);
            }
            /* The letters of a cluster, as the parse reads them. */
            for (const char *c = word; *c != '\0'; c++) {
                const struct cli_option *o = by_letter(table, *c);
                if (o == NULL)
                    break; /* the parse reports the unknown letter */
                if (o->id == CLI_HELP && (c != word || c[1] != '\0'))
                    return cli_fail(
                        EXIT_USAGE,
                        "%s: '-h' inside '%s': for help, give '-h' or '--help' on its own", name,
                        arg);
                if (o->value != NULL)
                    break; /* the rest, or the next argument, is its value */
            }
        }
        if (value_follows(arg, table))
            i++;
    }
    return 0;
}

void cli_args_free(struct cli_args *args)
{
    free(args->given);
    free(args->operands);
    args->given = NULL;
    args->operands = NULL;
}

static int given(const struct cli_args *args, const struct cli_option *option)
{
    for (size_t i = 0; i < args->n_given; i++)
        if (args->given[i].option == option)
            return 1;
    return 0;
}

/* Two options given that exclude each other (either may say so), named in
 * the table's order. */
static int check_exclusions(const struct cli_command *command, const struct cli_args *args)
{
    const struct cli_option *table = command->options;
    for (const struct cli_option *a = table; a->name != NULL; a++) {
        if (a->excludes == NULL || !given(args, a))
            continue;
        for (const char *w = a->excludes; *w != '\0';) {
            const size_t len = strcspn(w, " ");
            for (const struct cli_option *b = table; b->name != NULL; b++) {
                if (strlen(b->name) != len || strncmp(b->name, w, len) != 0 || !given(args, b))
                    continue;
                const struct cli_option *first = a < b ? a : b, *second = a < b ? b : a;
                return cli_fail(EXIT_USAGE, "%s: --%s and --%s exclude each other", command->name,
                                first->name, second->name);
            }
            w += len + (w[len] == ' ');
        }
    }
    return 0;
}

/* One option given: its value from the rest of its argument (attached, NULL
 * if none) or the next one. */
static int take(const struct cli_command *command, struct cli_args *args,
                const struct cli_option *o, const char *attached, int argc, char **argv, int *i,
                const char *arg)
{
    const char *value = NULL;
    if (o->value != NULL) {
        value = attached != NULL ? attached : *i + 1 < argc ? argv[++*i] : NULL;
        if (value == NULL && arg[1] == '-')
            return cli_fail(EXIT_USAGE, "%s: option '%s' needs a value", command->name, arg);
        if (value == NULL)
            return cli_fail(EXIT_USAGE, "%s: option '-%c' needs a value", command->name, o->letter);
    }
    args->given[args->n_given].option = o;
    args->given[args->n_given].value = value;
    args->n_given++;
    return 0;
}

static int parse(const struct cli_command *command, int argc, char **argv, struct cli_args *args,
                 int *help)
{
    const struct cli_option *table = command->options;
    const char *name = command->name;
    char meant[256];
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            while (++i < argc)
                args->operands[args->n_operands++] = argv[i];
            break;
        }
        if (is_operand(arg, command->flags)) {
            args->operands[args->n_operands++] = argv[i];
            continue;
        }
        int status;
        if (arg[1] == '-') {
            const char *word = arg + 2;
            const size_t len = strcspn(word, "=");
            int matches;
            const struct cli_option *o = len > 0 ? by_name(table, word, len, &matches) : NULL;
            if (len == 0)
                return cli_fail(EXIT_USAGE, "%s: unknown option '%s' (see '%s %s --help')", name,
                                arg, cli_program, name);
            if (o == NULL && matches > 1) {
                cli_options_spelled(word, len, table, meant, sizeof meant);
                return cli_fail(EXIT_USAGE, "%s: option '%.*s' is ambiguous; did you mean %s?",
                                name, (int)(len + 2), arg, meant);
            }
            if (o == NULL)
                return cli_fail(EXIT_USAGE, "%s: unknown option '%.*s' (see '%s %s --help')", name,
                                (int)(len + 2), arg, cli_program, name);
            if (o->value == NULL && word[len] == '=')
                return cli_fail(EXIT_USAGE, "%s: option '%s' takes no value", name, arg);
            /* check_spellings let --help through only in full. */
            if (o->id == CLI_HELP && strcmp(arg, "--help") != 0)
                return cli_fail(EXIT_USAGE, "%s: help is for '-h' or '--help' on its own", name);
            *help |= o->id == CLI_HELP;
            if ((status = take(command, args, o, word[len] == '=' ? word + len + 1 : NULL, argc,
                               argv, &i, arg)) != 0)
                return status;
            continue;
        }
        for (const char *c = arg + 1; *c != '\0'; c++) {
            const struct cli_option *o = by_letter(table, *c);
            if (o == NULL)
                return cli_fail(EXIT_USAGE, "%s: unknown option '-%c' (see '%s %s --help')", name,
                                *c, cli_program, name);
            if (o->id == CLI_HELP && strcmp(arg, "-h") != 0)
                return cli_fail(EXIT_USAGE, "%s: help is for '-h' or '--help' on its own", name);
            *help |= o->id == CLI_HELP;
            if ((status = take(command, args, o, o->value != NULL && c[1] != '\0' ? c + 1 : NULL,
                               argc, argv, &i, arg)) != 0)
                return status;
            if (o->value != NULL)
                break;
        }
    }
    return 0;
}

int cli_parse(const struct cli_command *command, int argc, char **argv, struct cli_args *args)
{
    memset(args, 0, sizeof *args);
    /* An argument is one operand, or options as many as its letters ("-vvv"). */
    size_t n = 1, letters = 1;
    for (int i = 1; i < argc; i++) {
        n++;
        letters += strlen(argv[i]) + 1;
    }
    args->given = calloc(letters, sizeof *args->given);
    args->operands = calloc(n, sizeof *args->operands);
    if (args->given == NULL || args->operands == NULL)
        return cli_out_of_memory();
    int help = 0, status = check_spellings(command, argc, argv);
    if (status == 0)
        status = parse(command, argc, argv, args, &help);
    if (status != 0)
        return status;
    if (help) {
        cli_print_help(command);
        return cli_flush_stdout();
    }
    status = check_exclusions(command, args);
    return status != 0 ? status : -1;
}

int cli_no_operands(const char *command, const struct cli_args *args, size_t allowed)
{
    if (args->n_operands <= allowed)
        return 0;
    return cli_fail(EXIT_USAGE, "%s: unexpected argument '%s' (see '%s %s --help')", command,
                    args->operands[allowed], cli_program, command);
}
