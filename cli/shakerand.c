/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * shakerand: the command-line front end.
 *
 * Exit status: 0 success, 1 runtime error (I/O, entropy, memory), 2 usage error.
 * Every error is one line on stderr. A reader that closes the pipe early
 * ends the program through SIGPIPE, silently, as for other Unix filters (on
 * Windows silently with status 141, platform_exit_if_reader_gone).
 * What differs between systems is in platform.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "shakerand.h"

enum { EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

#ifdef SHAKERAND_CLI_FUZZ
/* tests/fuzz/fuzz_cli.c runs the commands in-process: exit returns to the
 * fuzzer, and output sizes are capped so that one input takes microseconds. */
_Noreturn void shakerand_cli_fuzz_exit(int status);
#define exit(status) shakerand_cli_fuzz_exit(status)
#define main shakerand_cli_main
#define FUZZ_CAP(n) ((n) = (n) > 4096 ? 4096 : (n))
#else
#define FUZZ_CAP(n) ((void)0)
#endif
/* Input read by the fuzzer: no standard input (it could wait forever), and
 * files (such as /dev/zero) read only this far. */
enum { FUZZ_INPUT_CAP = 4096 };

static const char *program = "shakerand";

_Noreturn static void die(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): va_start is two lines up */
    fputc('\n', stderr);
    va_end(ap);
    exit(status);
}

/* Exits for a set-up step that returned status: out of memory is reported
 * as such, not as a lack of entropy. */
_Noreturn static void die_status(const char *what, int status)
{
    die(EXIT_RUNTIME, "%s: %s", what, shakerand_strerror(status));
}

/* stdout's buffer, ours so that the text of results (int, uuid, passwords,
 * lines) does not stay in it: main installs it, flush_stdout wipes it. */
static char stdout_buffer[BUFSIZ];

/* Where stdout goes: -o FILE replaces descriptor 1 (redirect_stdout). */
static const char *stdout_name = "standard output";

/* Writes stdout's buffered output, then wipes the buffer, or exits with a
 * runtime error. */
static void flush_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        platform_exit_if_reader_gone(STDOUT_FILENO);
        die(EXIT_RUNTIME, "write error on %s: %s", stdout_name, strerror(errno));
    }
    shakerand_memzero(stdout_buffer, sizeof stdout_buffer);
}

/* Help text, checked for write errors like any other output. */
static int print_usage(const char *text)
{
    fputs(text, stdout);
    flush_stdout();
    return 0;
}

/* ---- argument parsing --------------------------------------------------- */

/* SIZE: decimal digits with an optional K, M, G or T suffix (powers of 1024). */
static int parse_size(const char *s, uint64_t *out)
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
    case 'K': case 'k': shift = 10; p++; break;
    case 'M': case 'm': shift = 20; p++; break;
    case 'G': case 'g': shift = 30; p++; break;
    case 'T': case 't': shift = 40; p++; break;
    default: return -1;
    }
    if (*p != '\0' || (shift && value > (UINT64_MAX >> shift)))
        return -1;
    *out = value << shift;
    return 0;
}

/* A count: decimal digits, at most 2^63 - 1. */
static int parse_count(const char *s, uint64_t *out)
{
    uint64_t v;
    if (parse_size(s, &v) != 0 || s[strspn(s, "0123456789")] != '\0' || v > INT64_MAX)
        return -1;
    *out = v;
    return 0;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes an even-length hex string ("" is the empty seed); NULL on error. */
static unsigned char *parse_hex(const char *hex, size_t *len, const char **why)
{
    const size_t n = strlen(hex);
    if (n % 2 != 0) {
        *why = "has an odd number of hex digits";
        return NULL;
    }
    unsigned char *bytes = malloc(n / 2 + 1);
    if (bytes == NULL)
        die(EXIT_RUNTIME, "out of memory");
    for (size_t i = 0; i < n / 2; i++) {
        const int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            shakerand_memzero(bytes, i);
            free(bytes);
            *why = "is not hexadecimal";
            return NULL;
        }
        bytes[i] = (unsigned char)(hi << 4 | lo);
    }
    *len = n / 2;
    return bytes;
}

/* Whether the option argument arg (not an operand) takes its value from the
 * next argument: "--below" does, "--below=5", "-n5" and "--hex" do not. Long
 * names may be abbreviated to a unique prefix, as getopt_long allows. */
static int value_follows(const char *arg, const char *shortopts, const struct option *longopts)
{
    if (arg[1] == '-') {
        const char *name = arg + 2;
        if (strchr(name, '=') != NULL)
            return 0;
        const size_t n = strlen(name);
        const struct option *match = NULL;
        int matches = 0;
        for (const struct option *o = longopts; o->name != NULL; o++) {
            if (strcmp(o->name, name) == 0)
                return o->has_arg == required_argument;
            if (strncmp(o->name, name, n) == 0) {
                match = o;
                matches++;
            }
        }
        return matches == 1 && match->has_arg == required_argument; /* else getopt reports it */
    }
    for (const char *c = arg + 1; *c != '\0'; c++) {
        const char *spec = *c == ':' ? NULL : strchr(shortopts, *c);
        if (spec == NULL)
            return 0; /* unknown: getopt reports it */
        if (spec[1] == ':')
            return c[1] == '\0';
    }
    return 0;
}

/* Writes into out the long options that name (len characters, not
 * NUL-terminated) spells: the one it names in full, else every one it
 * begins, as "'--hex'" or "'--hex' or '--help'". Returns their number. */
static int long_options_spelled(const char *name, size_t len, const struct option *longopts,
                                char *out, size_t size)
{
    int exact = 0;
    for (const struct option *o = longopts; o->name != NULL; o++)
        exact |= strlen(o->name) == len && strncmp(o->name, name, len) == 0;
    int found = 0;
    size_t used = 0;
    out[0] = '\0';
    for (const struct option *o = longopts; o->name != NULL; o++) {
        if (strncmp(o->name, name, len) != 0 || (exact && strlen(o->name) != len))
            continue;
        found++;
        const int n = snprintf(out + used, size - used, "%s'--%s'", found == 1 ? "" : " or ",
                               o->name);
        used += n > 0 && (size_t)n < size - used ? (size_t)n : 0;
    }
    return found;
}

/* openssl rand's options, which its users give with one dash ("openssl rand
 * -hex -out FILE 32"), for the commands that have no option by that name. */
static const char *const openssl_rand_words[] = {"hex", "base64", "out"};

/* Rejects, before getopt reads them, the arguments getopt would read as
 * something other than what they say. getopt takes "-hex" for the cluster
 * -h -e -x, so it printed the help text on standard output with status 0
 * (and KEY=$(shakerand bytes -n 32 -hex) stored it as a key); "-out x" is -o
 * with the value "ut" and then an operand. So, each a usage error:
 * - one dash before a long option's name or the start of one ("-hex",
 *   "-out", "-help", "-he"): the message names the two-dash spelling; also
 *   one dash before a word of openssl rand's that this command has no option
 *   for ("-base64" for token), which getopt would take apart just the same;
 * - -h anywhere but alone ("-hx", "-vh"), and an abbreviation of --help
 *   ("--hel"): help is only for exactly "-h" or "--help", so that no other
 *   request, mistyped or not, gets the usage text on standard output and
 *   status 0.
 * Values are skipped as getopt takes them ("--chars -help" is a set of five
 * characters), and so is everything after "--". Option letters with a value
 * attached ("-n32", "-sdeadbeef") are still read as getopt reads them; a
 * value that spells the start of a long option ("-see" for --seed ee) is
 * refused with the rest. */
static void check_spellings(int argc, char **argv, const char *shortopts,
                            const struct option *longopts, const char *command)
{
    char meant[256];
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0)
            return;
        if (arg[0] != '-' || arg[1] == '\0')
            continue; /* an operand, or "-" for standard input */
        if (arg[1] == '-') {
            const char *name = arg + 2;
            const size_t len = strcspn(name, "=");
            if (len > 0 && len < strlen("help") && strncmp(name, "help", len) == 0 &&
                long_options_spelled(name, len, longopts, meant, sizeof meant) > 0)
                die(EXIT_USAGE, "%s: unknown option '%.*s'; did you mean %s?", command,
                    (int)(len + 2), arg, meant);
        } else {
            const char *word = arg + 1;
            const size_t len = strcspn(word, "=");
            if (len >= 2 && long_options_spelled(word, len, longopts, meant, sizeof meant) > 0)
                die(EXIT_USAGE, "%s: unknown option '%.*s'; did you mean %s?", command,
                    (int)(len + 1), arg, meant);
            for (size_t w = 0; w < sizeof openssl_rand_words / sizeof *openssl_rand_words; w++) {
                const char *openssl_word = openssl_rand_words[w];
                if (strlen(openssl_word) == len && strncmp(word, openssl_word, len) == 0)
                    die(EXIT_USAGE, "%s: unknown option '%.*s' (see '%s %s --help')", command,
                        (int)(len + 1), arg, program, command);
            }
            /* The letters of a cluster, as getopt reads them. */
            for (const char *c = word; *c != '\0'; c++) {
                const char *spec = *c == ':' ? NULL : strchr(shortopts, *c);
                if (spec == NULL)
                    break; /* getopt reports the unknown letter */
                if (*c == 'h' && (c != word || c[1] != '\0')) /* every command's help */
                    die(EXIT_USAGE,
                        "%s: '-h' inside '%s': for help, give '-h' or '--help' on its own",
                        command, arg);
                if (spec[1] == ':')
                    break; /* the rest, or the next argument, is its value */
            }
        }
        if (value_follows(arg, shortopts, longopts))
            i++;
    }
}

/* getopt_long with our own one-line messages instead of getopt's, and the
 * command line checked first by check_spellings. */
static int next_option(int argc, char **argv, const char *shortopts,
                       const struct option *longopts, const char *command)
{
    opterr = 0;
    /* Before getopt reads the first argument: optind is 1 then (0 after a
     * reset, as the fuzzer does), and stays 1 only inside a cluster in
     * argv[1], where checking again finds the same. */
    if (optind <= 1)
        check_spellings(argc, argv, shortopts, longopts, command);
    const int c = getopt_long(argc, argv, shortopts, longopts, NULL);
    /* check_spellings let -h through only alone, or --help in full: getopt
     * is past it. Anything else is a fault here, never help on stdout. */
    if (c == 'h' && strcmp(argv[optind - 1], "-h") != 0 &&
        strcmp(argv[optind - 1], "--help") != 0)
        die(EXIT_USAGE, "%s: help is for '-h' or '--help' on its own", command);
    if (c != '?' && c != ':')
        return c;
    /* After a long option, and after the last letter of a group of short
     * ones, optind is past the argument at fault. Inside a group (the -z of
     * -zx) it is not yet, so argv[optind - 1] is the argument before, which
     * may be a long option: then only optopt tells the two apart, being the
     * option's value for a long option given a value it does not take and
     * the letter for an unknown short option. */
    const char *arg = argv[optind - 1];
    int is_long = strncmp(arg, "--", 2) == 0;
    if (c == '?' && optopt != 0 && is_long) {
        is_long = 0;
        for (const struct option *o = longopts; o->name != NULL; o++)
            is_long |= o->has_arg == no_argument && o->val == optopt;
    }
    /* A value given to a long option that takes none: glibc's getopt_long
     * answers '?', the BSD one (macOS, FreeBSD, MinGW-w64) ':', as for a
     * missing value; only the '=' tells them apart there. */
    if (c == ':' && is_long && strchr(arg, '=') != NULL)
        die(EXIT_USAGE, "%s: option '%s' takes no value", command, arg);
    if (c == ':' && is_long)
        die(EXIT_USAGE, "%s: option '%s' needs a value", command, arg);
    if (c == ':')
        die(EXIT_USAGE, "%s: option '-%c' needs a value", command, optopt);
    if (!is_long)
        die(EXIT_USAGE, "%s: unknown option '-%c' (see '%s %s --help')", command, optopt,
            program, command);
    if (optopt != 0)
        die(EXIT_USAGE, "%s: option '%s' takes no value", command, arg);
    die(EXIT_USAGE, "%s: unknown option '%s' (see '%s %s --help')", command, arg, program,
        command);
}

static void no_operands(int argc, char **argv, const char *command)
{
    if (optind < argc)
        die(EXIT_USAGE, "%s: unexpected argument '%s' (see '%s %s --help')", command,
            argv[optind], program, command);
}

/* getopt takes "-5" for an option, but int's bounds may be negative. Returns
 * a copy of argv with the options (and their values) first, then "--", then
 * the operands in their order: every argument that does not start with '-',
 * "-" itself, those that start with '-' and a digit, and all after a "--".
 * An option left without its value is reported here, as getopt would, since
 * getopt would take the "--" for it. */
static char **operands_last(int argc, char **argv, const char *shortopts,
                            const struct option *longopts, const char *command)
{
    char **out = malloc(((size_t)argc + 2) * sizeof *out);
    char **operands = malloc(((size_t)argc + 1) * sizeof *operands);
    if (out == NULL || operands == NULL)
        die(EXIT_RUNTIME, "out of memory");
    int n_out = 0, n_operands = 0;
    out[n_out++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            while (++i < argc)
                operands[n_operands++] = argv[i];
        } else if (arg[0] != '-' || arg[1] == '\0' || (arg[1] >= '0' && arg[1] <= '9')) {
            operands[n_operands++] = argv[i];
        } else {
            out[n_out++] = argv[i];
            if (value_follows(arg, shortopts, longopts)) {
                if (i + 1 == argc && arg[1] == '-')
                    die(EXIT_USAGE, "%s: option '%s' needs a value", command, arg);
                if (i + 1 == argc)
                    die(EXIT_USAGE, "%s: option '-%c' needs a value", command, arg[strlen(arg) - 1]);
                out[n_out++] = argv[++i];
            }
        }
    }
    out[n_out++] = "--";
    memcpy(out + n_out, operands, (size_t)n_operands * sizeof *operands);
    out[n_out + n_operands] = NULL;
    free(operands);
    return out;
}

/* --seed HEX: a turboshake256 engine seeded with HEX, a reproducible stream.
 * Without it NULL, which the samplers take for the system generator, seeded
 * here so that a failure is reported rather than fatal. */
static shakerand_engine *generator(const char *seed_arg, const char *command)
{
    static shakerand_engine engine;
    if (seed_arg == NULL) {
        const int status = shakerand_system_init();
        if (status != SHAKERAND_OK)
            die_status("cannot seed the system generator", status);
        return NULL;
    }
    size_t seed_len;
    const char *why = NULL;
    uint8_t *seed = parse_hex(seed_arg, &seed_len, &why);
    if (seed == NULL)
        die(EXIT_USAGE, "%s: seed %s", command, why);
    const int status = shakerand_engine_init(&engine, SHAKERAND_TURBOSHAKE256, seed, seed_len);
    shakerand_memzero(seed, seed_len);
    free(seed);
    if (status != SHAKERAND_OK)
        die_status("cannot seed the engine", status);
    return &engine;
}

/* Wipes the engine generator() returned, if any. */
static void generator_wipe(shakerand_engine *engine)
{
    if (engine != NULL)
        shakerand_engine_wipe(engine);
}

/* Uniform in [0, n), n >= 1: the samplers fail only for n == 0. */
static uint64_t draw_below(shakerand_engine *engine, uint64_t n)
{
    uint64_t value = 0;
    if (n > 1 && shakerand_uniform_u64(engine, n, &value) != SHAKERAND_OK)
        die(EXIT_RUNTIME, "internal error: empty range");
    return value;
}

/* ---- output --------------------------------------------------------------- */

/* Writes all of buf or exits with a runtime error. */
static void write_all(int fd, const unsigned char *buf, size_t len, const char *name)
{
    while (len > 0) {
        const ssize_t n = write(fd, buf, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            platform_exit_if_reader_gone(fd);
            die(EXIT_RUNTIME, "write error on %s: %s", name, strerror(errno));
        }
        buf += n;
        len -= (size_t)n;
    }
}

/* Opens -o FILE for writing as platform_open_output says, or exits with a
 * runtime error. */
static int open_output(const char *path)
{
    enum output_refusal refusal;
    const char *detail = NULL;
    const int fd = platform_open_output(path, &refusal, &detail);
    if (fd >= 0)
        return fd;
    switch (refusal) {
    case OUTPUT_SYMBOLIC_LINK:
        die(EXIT_RUNTIME, "'%s' is a symbolic link: -o does not follow one", path);
    case OUTPUT_OTHER_USER:
        die(EXIT_RUNTIME, "'%s' belongs to another user: -o writes only to your own files", path);
    case OUTPUT_HARD_LINKS:
        die(EXIT_RUNTIME, "'%s' has other hard links: -o does not write through them", path);
    case OUTPUT_CANNOT_RESTRICT:
        die(EXIT_RUNTIME, "cannot make '%s' %s: %s", path, platform_owner_only, detail);
    case OUTPUT_CANNOT_TRUNCATE:
        die(EXIT_RUNTIME, "cannot truncate '%s': %s", path, detail);
    case OUTPUT_CANNOT_OPEN:
        break;
    }
    die(EXIT_RUNTIME, "cannot open '%s' for writing: %s", path, detail);
}

/* -o FILE for the commands that print text through stdout: descriptor 1
 * becomes FILE (opened as open_output says), so the text passes through
 * stdout's buffer, which flush_stdout wipes. */
static void redirect_stdout(const char *path)
{
    const int fd = open_output(path);
    if (fd != STDOUT_FILENO) {
        if (dup2(fd, STDOUT_FILENO) < 0)
            die(EXIT_RUNTIME, "cannot open '%s' for writing: %s", path, strerror(errno));
        close(fd);
    }
    stdout_name = path;
}

/* Flushes stdout (which wipes its buffer) and, after -o, closes FILE: a
 * network file system may report a write error only then. */
static void finish_stdout(void)
{
    flush_stdout();
    if (strcmp(stdout_name, "standard output") != 0 && close(STDOUT_FILENO) != 0)
        die(EXIT_RUNTIME, "write error on %s: %s", stdout_name, strerror(errno));
}

/* ---- input ---------------------------------------------------------------- */

static void wipe_free(void *p, size_t len)
{
    if (p != NULL)
        shakerand_memzero(p, len);
    free(p);
}

/* Reads all of path ("-" or NULL: standard input) into memory. The buffer
 * grows by copying, so that no unwiped copy of the input is left behind as
 * realloc would leave one. Returns the bytes (free with wipe_free) and their
 * number in *len; exits with a runtime error. */
static char *read_all(const char *path, size_t *len, const char *command)
{
    const int use_stdin = path == NULL || strcmp(path, "-") == 0;
    const char *name = use_stdin ? "standard input" : path;
    int fd = STDIN_FILENO;
    if (!use_stdin && (fd = platform_open_input(path)) < 0)
        die(EXIT_RUNTIME, "%s: cannot open '%s': %s", command, path, strerror(errno));
    size_t size = 0, capacity = 1 << 16;
    char *buf = malloc(capacity);
    if (buf == NULL)
        die(EXIT_RUNTIME, "out of memory");
#ifdef SHAKERAND_CLI_FUZZ
    if (use_stdin) {
        *len = 0;
        return buf;
    }
#endif
    for (;;) {
        if (size == capacity) {
            if (capacity > SIZE_MAX / 2)
                die(EXIT_RUNTIME, "out of memory");
            char *bigger = malloc(capacity * 2);
            if (bigger == NULL)
                die(EXIT_RUNTIME, "out of memory");
            memcpy(bigger, buf, size);
            shakerand_memzero(buf, size);
            free(buf);
            buf = bigger;
            capacity *= 2;
        }
        size_t want = capacity - size;
#ifdef SHAKERAND_CLI_FUZZ
        if (size >= FUZZ_INPUT_CAP)
            break;
        want = want < FUZZ_INPUT_CAP - size ? want : FUZZ_INPUT_CAP - size;
#endif
        const ssize_t n = platform_read(fd, buf + size, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int error = errno;
            wipe_free(buf, size);
            die(EXIT_RUNTIME, "%s: read error on %s: %s", command, name, strerror(error));
        }
        if (n == 0)
            break;
        size += (size_t)n;
    }
    if (!use_stdin)
        close(fd);
    *len = size;
    return buf;
}

/* A line of the input: its text without the newline. */
struct line {
    const char *text;
    size_t len;
};

/* Splits buf into lines at '\n'; a last line without one counts (as for
 * shuf). Returns the array (free with wipe_free) and the count in *count. */
static struct line *split_lines(const char *buf, size_t len, size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += buf[i] == '\n';
    if (len > 0 && buf[len - 1] != '\n')
        n++;
    struct line *lines = malloc((n ? n : 1) * sizeof *lines);
    if (lines == NULL)
        die(EXIT_RUNTIME, "out of memory");
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len ? i > start : buf[i] == '\n') {
            lines[k].text = buf + start;
            lines[k].len = i - start;
            k++;
            start = i + 1;
        }
    }
    *count = n;
    return lines;
}

/* ---- text encodings --------------------------------------------------------- */

static const char hex_digits[] = "0123456789abcdef";
static const char base64_standard[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char base64_url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* Each encoder writes its text to out (no NUL) and returns its length. */

static size_t encode_hex(const uint8_t *in, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex_digits[in[i] >> 4];
        out[2 * i + 1] = hex_digits[in[i] & 15];
    }
    return 2 * n;
}

/* RFC 4648 base64 with the given alphabet; '=' padding if pad. */
static size_t encode_base64(const uint8_t *in, size_t n, char *out, const char *alphabet,
                            int pad)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        const uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[v >> 12 & 63];
        out[o++] = alphabet[v >> 6 & 63];
        out[o++] = alphabet[v & 63];
    }
    if (i < n) {
        const uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[v >> 12 & 63];
        if (i + 1 < n)
            out[o++] = alphabet[v >> 6 & 63];
        else if (pad)
            out[o++] = '=';
        if (pad)
            out[o++] = '=';
    }
    return o;
}

/* RFC 4648 base32 (upper case), without '=' padding. */
static size_t encode_base32(const uint8_t *in, size_t n, char *out)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    size_t o = 0;
    uint32_t acc = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < n; i++) {
        acc = (acc << 8 | in[i]) & 0xFFF; /* at most 4 + 8 bits are pending */
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            out[o++] = alphabet[acc >> bits & 31];
        }
    }
    if (bits > 0)
        out[o++] = alphabet[acc << (5 - bits) & 31];
    return o;
}

/* ---- progress ------------------------------------------------------------ */

/* A one-line progress display on stderr, only when stderr is a terminal and
 * only once a run has lasted half a second; redrawn at most 5 times a
 * second. */
struct progress {
    int enabled, shown;
    uint64_t total;
    double start, last;
};

static void human_size(double bytes, char *out, size_t n)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, n, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
}

static void progress_start(struct progress *p, uint64_t total)
{
    p->enabled = platform_is_terminal(STDERR_FILENO);
    p->shown = 0;
    p->total = total;
    p->start = p->last = platform_monotonic_seconds();
}

static void progress_update(struct progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    const double now = platform_monotonic_seconds();
    if (now - p->start < 0.5 || (now - p->last < 0.2 && done < p->total))
        return;
    p->last = now;
    p->shown = 1;
    const double elapsed = now - p->start, rate = (double)done / elapsed;
    const double fraction = p->total ? (double)done / (double)p->total : 1.0;
    char done_s[32], total_s[32], rate_s[32];
    human_size((double)done, done_s, sizeof done_s);
    human_size((double)p->total, total_s, sizeof total_s);
    human_size(rate, rate_s, sizeof rate_s);
    enum { WIDTH = 30 };
    char bar[WIDTH + 1];
    const int filled = (int)(fraction * WIDTH);
    for (int i = 0; i < WIDTH; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[WIDTH] = '\0';
    const double eta = rate > 0 ? (double)(p->total - done) / rate : 0;
    fprintf(stderr, "\r[%s] %3.0f%%  %s / %s  %s/s  ETA %02d:%02d ", bar, 100 * fraction, done_s,
            total_s, rate_s, (int)eta / 60, (int)eta % 60);
    fflush(stderr);
}

static void progress_finish(struct progress *p)
{
    if (p->shown)
        fputc('\n', stderr);
}

/* ---- bytes ---------------------------------------------------------------- */

/* The engine kinds, from the core's table: "a, b, c or d". */
static const char *kind_list(void)
{
    static char list[256];
    if (list[0] == '\0') {
        const size_t n = shakerand_kind_count();
        size_t len = 0;
        for (size_t i = 0; i < n && len < sizeof list; i++) {
            const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
            const int w = snprintf(list + len, sizeof list - len, "%s%s", sep,
                                   shakerand_kind_name(shakerand_kind_at(i)));
            if (w < 0)
                break;
            len += (size_t)w;
        }
    }
    return list;
}

/* The line of bytes --help that names the engines, printed from the table
 * between the two halves of the text. */
static const char bytes_usage[] =
    "Usage: shakerand bytes -n SIZE [--hex | --base64] [--engine ENGINE] [--seed HEX]\n"
    "                       [-o FILE]\n"
    "\n"
    "Write SIZE random bytes to standard output or FILE, raw or as text.\n"
    "\n"
    "  -n, --size SIZE      number of bytes; K, M, G, T suffixes are powers of 1024\n"
    "      --hex            lower-case hexadecimal on one line (like openssl rand -hex)\n"
    "      --base64         base64 in lines of 64 characters (like openssl rand -base64)\n";
static const char bytes_usage_after_engines[] =
    "  -s, --seed HEX       seed the engine (default turboshake256) with these\n"
    "                       bytes for a reproducible stream ('' is the empty seed)\n"
    "  -o, --output FILE    write to FILE instead of standard output; a regular\n"
    "                       FILE, new or existing, is made mode 0600 (owner only),\n"
    "                       and a symbolic link, another user's file or FIFO,\n"
    "                       or a file with other hard links is refused\n"
    "                       (/dev/stdout and /dev/fd/N are followed)\n"
    "  -h, --help           show this help\n"
    "\n"
    "Without --seed the bytes come from the system generator (chacha8rand unless\n"
    "SHAKERAND_SYSTEM_ENGINE says turboshake256x8, seeded from the operating\n"
    "system mixed with the CPU's random instructions),\n"
    "or with --engine from that engine seeded the same way. On a terminal, long\n"
    "runs show their progress on standard error.\n";

/* How bytes writes: raw, or text. A text chunk is whole base64 lines (48
 * bytes each) so that lines can be cut chunk by chunk. */
enum bytes_format { RAW, HEX = 1000, BASE64 }; /* also the options' getopt codes */
enum { RAW_CHUNK = 1 << 20, TEXT_CHUNK = 48 << 14, BASE64_LINE = 48 };

/* Encodes n bytes of a text chunk into text; the last chunk adds the final
 * line end. Returns the text's length. */
static size_t bytes_text(enum bytes_format format, const uint8_t *buf, size_t n, char *text,
                         int last)
{
    size_t len = 0;
    if (format == HEX) {
        len = encode_hex(buf, n, text);
        if (last)
            text[len++] = '\n';
        return len;
    }
    for (size_t i = 0; i < n; i += BASE64_LINE) {
        const size_t line = n - i < BASE64_LINE ? n - i : BASE64_LINE;
        len += encode_base64(buf + i, line, text + len, base64_standard, 1);
        text[len++] = '\n';
    }
    return len;
}

static int cmd_bytes(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 'n'},   {"engine", required_argument, NULL, 'e'},
        {"seed", required_argument, NULL, 's'},   {"output", required_argument, NULL, 'o'},
        {"hex", no_argument, NULL, HEX},          {"base64", no_argument, NULL, BASE64},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    const char *size_arg = NULL, *seed_arg = NULL, *output = NULL, *engine_arg = NULL;
    shakerand_kind kind = SHAKERAND_TURBOSHAKE256;
    enum bytes_format format = RAW;
    int c;
    while ((c = next_option(argc, argv, ":n:e:s:o:h", longopts, "bytes")) != -1) {
        switch (c) {
        case 'n': size_arg = optarg; break;
        case HEX:
        case BASE64:
            if (format != RAW && format != (enum bytes_format)c)
                die(EXIT_USAGE, "bytes: --hex and --base64 exclude each other");
            format = (enum bytes_format)c;
            break;
        case 's': seed_arg = optarg; break;
        case 'o': output = optarg; break;
        case 'e':
            engine_arg = optarg;
            if (shakerand_kind_from_name(optarg, &kind) != SHAKERAND_OK)
                die(EXIT_USAGE, "bytes: unknown engine '%s' (%s)", optarg, kind_list());
            break;
        case 'h':
            fputs(bytes_usage, stdout);
            printf("  -e, --engine ENGINE  %s\n", kind_list());
            return print_usage(bytes_usage_after_engines);
        }
    }
    no_operands(argc, argv, "bytes");
    if (size_arg == NULL)
        die(EXIT_USAGE, "bytes: missing -n SIZE (see 'shakerand bytes --help')");
    uint64_t size;
    if (parse_size(size_arg, &size) != 0)
        die(EXIT_USAGE, "bytes: invalid size '%s' (a whole number, optionally with K, M, G or T)",
            size_arg);
    FUZZ_CAP(size);

    /* --seed: the engine's deterministic stream. --engine alone: that
     * engine seeded from the entropy sources. Neither: the system
     * generator. */
    unsigned char *seed = NULL;
    size_t seed_len = 0;
    if (seed_arg != NULL) {
        const char *why = NULL;
        seed = parse_hex(seed_arg, &seed_len, &why);
        if (seed == NULL)
            die(EXIT_USAGE, "bytes: seed %s", why);
        const size_t seed_size = shakerand_kind_seed_size(kind);
        if (seed_size != 0 && seed_len != seed_size)
            die(EXIT_USAGE, "bytes: a %s seed is exactly %zu bytes (%zu hex digits), not %zu",
                shakerand_kind_name(kind), seed_size, 2 * seed_size, seed_len);
    } else if (engine_arg != NULL) {
        /* 64 bytes where any length goes: twice the 256-bit security level. */
        seed_len = shakerand_kind_seed_size(kind) != 0 ? shakerand_kind_seed_size(kind) : 64;
        seed = malloc(seed_len);
        if (seed == NULL)
            die(EXIT_RUNTIME, "out of memory");
        const int status = shakerand_entropy(seed, seed_len);
        if (status != SHAKERAND_OK)
            die_status("cannot seed the engine", status);
    } else {
        const int status = shakerand_system_init();
        if (status != SHAKERAND_OK)
            die_status("cannot seed the system generator", status);
    }

    int fd = STDOUT_FILENO;
    const char *name = "standard output";
    if (output != NULL) {
        fd = open_output(output);
        name = output;
    }

    platform_grow_pipe(fd);

    static shakerand_engine engine;
    if (seed != NULL) {
        const int status = shakerand_engine_init(&engine, kind, seed, seed_len);
        shakerand_memzero(seed, seed_len);
        free(seed);
        if (status != SHAKERAND_OK)
            die_status("cannot seed the engine", status);
    }

    const size_t chunk = format == RAW ? RAW_CHUNK : TEXT_CHUNK;
    unsigned char *buf = malloc(chunk);
    /* Hex doubles the size; base64 adds a third and a line end per line. */
    char *text = format == RAW ? NULL : malloc(2 * chunk + 1);
    if (buf == NULL || (format != RAW && text == NULL))
        die(EXIT_RUNTIME, "out of memory");
    struct progress progress;
    progress_start(&progress, size);
    for (uint64_t done = 0; done < size;) {
        const size_t n = size - done < chunk ? (size_t)(size - done) : chunk;
        if (seed_arg != NULL || engine_arg != NULL)
            shakerand_engine_fill(&engine, buf, n);
        else
            shakerand_system_fill(buf, n);
        done += n;
        if (format == RAW)
            write_all(fd, buf, n, name);
        else
            write_all(fd, (const unsigned char *)text,
                      bytes_text(format, buf, n, text, done == size), name);
        progress_update(&progress, done);
    }
    if (format == HEX && size == 0)
        write_all(fd, (const unsigned char *)"\n", 1, name); /* an empty line, as for any size */
    progress_finish(&progress);
    shakerand_engine_wipe(&engine);
    wipe_free(buf, chunk);
    wipe_free(text, format == RAW ? 0 : 2 * chunk + 1);
    if (output != NULL && close(fd) != 0)
        die(EXIT_RUNTIME, "write error on %s: %s", name, strerror(errno));
    return 0;
}

/* ---- big integers ---------------------------------------------------------- */

/* int's numbers, of any size: a sign and a magnitude of len big-endian bytes
 * (the form shakerand_below takes), all of one command the same len. Text
 * is converted digit by digit, schoolbook fashion: the numbers are short. */
struct bignum {
    int negative; /* never set for zero */
    uint8_t *mag;
};

/* Bytes enough for the magnitude of a number written in `digits`
 * characters, decimal or hex (4 bits or fewer each), plus a spare byte for
 * the sum or difference of two such numbers. */
static size_t bignum_bytes(size_t digits) { return digits / 2 + 2; }

static int is_zero(const uint8_t *mag, size_t len)
{
    uint8_t any = 0;
    for (size_t i = 0; i < len; i++)
        any |= mag[i];
    return any == 0;
}

/* mag = mag * base + digit; base and digit below 256. */
static void mag_mul_add(uint8_t *mag, size_t len, unsigned base, unsigned digit)
{
    unsigned carry = digit;
    for (size_t i = len; i-- > 0;) {
        carry += mag[i] * base;
        mag[i] = (uint8_t)carry;
        carry >>= 8;
    }
}

/* Parses decimal digits, or hex digits after "0x", with an optional '-'.
 * The magnitude must fit len bytes less one (bignum_bytes's spare byte).
 * Returns 0, or -1 for anything else. */
static int bignum_parse(const char *s, struct bignum *out, size_t len)
{
    const int negative = *s == '-';
    s += negative;
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*s == '\0')
        return -1;
    memset(out->mag, 0, len);
    for (; *s != '\0'; s++) {
        const int digit = hex_value(*s);
        if (digit < 0 || (unsigned)digit >= base || out->mag[0] != 0)
            return -1;
        mag_mul_add(out->mag, len, base, (unsigned)digit);
    }
    if (out->mag[0] != 0)
        return -1;
    out->negative = negative && !is_zero(out->mag, len);
    return 0;
}

static int mag_compare(const uint8_t *a, const uint8_t *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* out = a + b; out may be a or b. */
static void mag_add(const uint8_t *a, const uint8_t *b, uint8_t *out, size_t len)
{
    unsigned carry = 0;
    for (size_t i = len; i-- > 0;) {
        carry += (unsigned)a[i] + b[i];
        out[i] = (uint8_t)carry;
        carry >>= 8;
    }
}

/* out = a - b for a >= b; out may be a or b. */
static void mag_sub(const uint8_t *a, const uint8_t *b, uint8_t *out, size_t len)
{
    unsigned borrow = 0;
    for (size_t i = len; i-- > 0;) {
        const unsigned d = (unsigned)a[i] - b[i] - borrow;
        out[i] = (uint8_t)d;
        borrow = d >> 8 & 1;
    }
}

/* out = a + b, signed; out may be a or b. The magnitudes fit, as the
 * operands' have a spare top byte. */
static void bignum_add(const struct bignum *a, const struct bignum *b, struct bignum *out,
                       size_t len)
{
    if (a->negative == b->negative) {
        out->negative = a->negative;
        mag_add(a->mag, b->mag, out->mag, len);
    } else if (mag_compare(a->mag, b->mag, len) >= 0) {
        out->negative = a->negative;
        mag_sub(a->mag, b->mag, out->mag, len);
    } else {
        out->negative = b->negative;
        mag_sub(b->mag, a->mag, out->mag, len);
    }
    out->negative &= !is_zero(out->mag, len);
}

/* Characters bignum_format may write for len bytes: a sign, up to 2.41
 * decimal or 2 hex digits per byte, the digits of one more short group, a
 * line end. */
static size_t bignum_text_size(size_t len) { return 3 * len + 16; }

/* Writes the number in decimal (or hex, lower case), without leading zeros,
 * '-' before a negative one, then '\n'; scratch holds len bytes and is
 * left dirty. Returns the text's length. */
static size_t bignum_format(const struct bignum *x, size_t len, int hex, uint8_t *scratch,
                            char *text)
{
    size_t n = 0;
    if (x->negative)
        text[n++] = '-';
    if (hex) {
        const size_t digits = encode_hex(x->mag, len, text + n);
        size_t skip = 0;
        while (skip + 1 < digits && text[n + skip] == '0')
            skip++;
        memmove(text + n, text + n + skip, digits - skip);
        n += digits - skip;
        text[n++] = '\n';
        return n;
    }
    /* Divide by 10^9 until nothing is left; the remainders are the groups of
     * nine digits, last first, written from the end of text. */
    memcpy(scratch, x->mag, len);
    const size_t size = bignum_text_size(len);
    size_t pos = size;
    size_t first = 0;
    do {
        uint64_t rem = 0;
        while (first < len && scratch[first] == 0)
            first++;
        for (size_t i = first; i < len; i++) {
            const uint64_t cur = rem << 8 | scratch[i];
            scratch[i] = (uint8_t)(cur / 1000000000u);
            rem = cur % 1000000000u;
        }
        const int last = is_zero(scratch + first, len - first);
        for (int d = 0; d < 9 && (!last || rem != 0 || d == 0); d++) {
            text[--pos] = (char)('0' + rem % 10);
            rem /= 10;
        }
        if (last)
            break;
    } while (1);
    memmove(text + n, text + pos, size - pos);
    n += size - pos;
    text[n++] = '\n';
    return n;
}

/* ---- int ------------------------------------------------------------------ */

static const char int_usage[] =
    "Usage: shakerand int LO HI [OPTIONS]\n"
    "       shakerand int --below B [OPTIONS]\n"
    "\n"
    "Print N random integers, one per line, in decimal: uniform from LO to HI,\n"
    "both included (like shuf -i), or from 0 to B - 1. Numbers may have any size,\n"
    "in decimal or in hexadecimal after 0x; LO and HI may be negative.\n"
    "\n"
    "  -b, --below B        the exclusive upper bound, greater than zero\n"
    "  -n, --count N        how many (default 1)\n"
    "      --hex            print lower-case hexadecimal without leading zeros\n"
    "  -m, --method METHOD  rng-bc-1 (default), rng-bc-8, simple-discard or\n"
    "                       simple-modular: how the sampler rejects\n"
    "  -s, --seed HEX       draw from turboshake256 with this seed (reproducible);\n"
    "                       without it, from the system generator\n"
    "      --stats          print {\"method\",\"count\",\"avg_bits\",\"max_bits\"} as one\n"
    "                       JSON line on standard error: bits drawn per integer,\n"
    "                       counted as the Optimized Simple Discard paper counts them\n"
    "  -h, --help           show this help\n"
    "\n"
    "LO to HI is drawn as LO + a number below HI - LO + 1, so 'int 0 99' and\n"
    "'int --below 100' print the same numbers for the same seed.\n";

static int cmd_int(int argc, char **argv)
{
    enum { OPT_STATS = 1000, OPT_HEX };
    static const struct option longopts[] = {
        {"below", required_argument, NULL, 'b'}, {"count", required_argument, NULL, 'n'},
        {"hex", no_argument, NULL, OPT_HEX},     {"method", required_argument, NULL, 'm'},
        {"seed", required_argument, NULL, 's'},  {"stats", no_argument, NULL, OPT_STATS},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0},
    };
    static const char shortopts[] = ":b:n:m:s:h";
    char **args = operands_last(argc, argv, shortopts, longopts, "int");
    int nargs = 0;
    while (args[nargs] != NULL)
        nargs++;
    const char *below = NULL, *seed_arg = NULL;
    uint64_t count = 1;
    shakerand_method method = SHAKERAND_RNG_BC_1;
    int stats = 0, hex = 0, c;
    while ((c = next_option(nargs, args, shortopts, longopts, "int")) != -1) {
        switch (c) {
        case 'b': below = optarg; break;
        case 's': seed_arg = optarg; break;
        case OPT_STATS: stats = 1; break;
        case OPT_HEX: hex = 1; break;
        case 'n':
            if (parse_count(optarg, &count) != 0)
                die(EXIT_USAGE, "int: invalid count '%s' (a whole number)", optarg);
            break;
        case 'm':
            if (shakerand_method_from_name(optarg, &method) != SHAKERAND_OK)
                die(EXIT_USAGE,
                    "int: unknown method '%s' (rng-bc-1, rng-bc-8, simple-discard, simple-modular)",
                    optarg);
            break;
        case 'h': free(args); return print_usage(int_usage);
        }
    }
    FUZZ_CAP(count);
    const int operands = nargs - optind;
    if (below != NULL && operands > 0)
        die(EXIT_USAGE, "int: give LO HI or --below B, not both");
    if (below == NULL && operands < 2)
        die(EXIT_USAGE, "int: missing %s (see 'shakerand int --help')",
            operands == 0 ? "LO HI or --below B" : "HI");
    if (operands > 2)
        die(EXIT_USAGE, "int: unexpected argument '%s' (see 'shakerand int --help')",
            args[optind + 2]);
    const char *lo_arg = below != NULL ? "0" : args[optind];
    const char *hi_arg = below != NULL ? below : args[optind + 1];

    /* lo, width = hi - lo + 1 (or the bound), a draw r below width, and the
     * result lo + r share one size, with room for the sum. */
    const size_t lo_len = strlen(lo_arg), hi_len = strlen(hi_arg);
    const size_t len = bignum_bytes(lo_len > hi_len ? lo_len : hi_len);
    uint8_t *mags = calloc(5, len);
    char *text = malloc(bignum_text_size(len));
    if (mags == NULL || text == NULL)
        die(EXIT_RUNTIME, "out of memory");
    struct bignum lo = {0, mags}, width = {0, mags + len}, r = {0, mags + 2 * len},
                  value = {0, mags + 3 * len};
    uint8_t *scratch = mags + 4 * len;
    for (int i = 0; i < 2; i++) {
        const char *arg = i ? hi_arg : lo_arg;
        if (bignum_parse(arg, i ? &width : &lo, len) != 0)
            die(EXIT_USAGE, "int: invalid number '%s' (decimal digits, or hex digits after 0x)",
                arg);
    }
    if (below != NULL) {
        if (width.negative || is_zero(width.mag, len))
            die(EXIT_USAGE, "int: the bound must be greater than zero");
    } else {
        struct bignum minus_lo = lo;
        minus_lo.negative = !lo.negative && !is_zero(lo.mag, len);
        bignum_add(&width, &minus_lo, &width, len);
        if (width.negative)
            die(EXIT_USAGE, "int: LO is greater than HI");
        for (size_t i = len; i-- > 0 && ++width.mag[i] == 0;)
            ; /* + 1, carrying */
    }

    shakerand_engine *engine = generator(seed_arg, "int");
    uint64_t total_bits = 0, max_bits = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t bits = 0;
        const int status = shakerand_below(engine, method, width.mag, len, r.mag, &bits);
        if (status != SHAKERAND_OK)
            die_status("int", status);
        total_bits += bits;
        if (bits > max_bits)
            max_bits = bits;
        bignum_add(&lo, &r, &value, len);
        fwrite(text, 1, bignum_format(&value, len, hex, scratch, text), stdout);
    }
    flush_stdout();
    if (stats)
        fprintf(stderr, "{\"method\":\"%s\",\"count\":%llu,\"avg_bits\":%.6f,\"max_bits\":%llu}\n",
                shakerand_method_name(method), (unsigned long long)count,
                count ? (double)total_bits / (double)count : 0.0, (unsigned long long)max_bits);
    generator_wipe(engine);
    wipe_free(mags, 5 * len);
    wipe_free(text, bignum_text_size(len));
    free(args);
    return 0;
}

/* ---- uuid ----------------------------------------------------------------- */

static const char uuid_usage[] =
    "Usage: shakerand uuid [-n N] [--v7] [--upper | --binary]\n"
    "\n"
    "Print N UUIDs (RFC 9562), one per line, from the system generator.\n"
    "\n"
    "  -n, --count N  how many (default 1)\n"
    "      --v7       version 7 (Unix time in milliseconds, then random; increasing\n"
    "                 within one run) instead of version 4 (random)\n"
    "      --upper    upper-case hexadecimal digits\n"
    "      --binary   write the 16-byte binary form instead of text\n"
    "  -h, --help     show this help\n";

static int cmd_uuid(int argc, char **argv)
{
    enum { OPT_V7 = 1000, OPT_BINARY, OPT_UPPER };
    static const struct option longopts[] = {
        {"count", required_argument, NULL, 'n'},   {"v7", no_argument, NULL, OPT_V7},
        {"upper", no_argument, NULL, OPT_UPPER},   {"binary", no_argument, NULL, OPT_BINARY},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    uint64_t count = 1;
    int v7 = 0, binary = 0, upper = 0, c;
    while ((c = next_option(argc, argv, ":n:h", longopts, "uuid")) != -1) {
        switch (c) {
        case 'n':
            if (parse_count(optarg, &count) != 0)
                die(EXIT_USAGE, "uuid: invalid count '%s' (a whole number)", optarg);
            break;
        case OPT_V7: v7 = 1; break;
        case OPT_BINARY: binary = 1; break;
        case OPT_UPPER: upper = 1; break;
        case 'h': return print_usage(uuid_usage);
        }
    }
    no_operands(argc, argv, "uuid");
    if (upper && binary)
        die(EXIT_USAGE, "uuid: --upper is for text, not --binary");
    FUZZ_CAP(count);
    const int status = shakerand_system_init();
    if (status != SHAKERAND_OK)
        die_status("cannot seed the system generator", status);
    uint8_t u[16];
    char text[SHAKERAND_UUID_STRING_SIZE];
    for (uint64_t i = 0; i < count; i++) {
        if (v7)
            shakerand_uuid7(NULL, u);
        else
            shakerand_uuid4(NULL, u);
        if (binary) {
            fwrite(u, 1, sizeof u, stdout);
        } else {
            shakerand_uuid_format(u, text);
            for (size_t k = 0; upper && k < SHAKERAND_UUID_STRING_SIZE - 1; k++)
                if (text[k] >= 'a' && text[k] <= 'f')
                    text[k] = (char)(text[k] - 'a' + 'A');
            text[SHAKERAND_UUID_STRING_SIZE - 1] = '\n';
            fwrite(text, 1, SHAKERAND_UUID_STRING_SIZE, stdout);
        }
    }
    flush_stdout();
    shakerand_memzero(u, sizeof u);
    shakerand_memzero(text, sizeof text);
    return 0;
}

/* ---- token ------------------------------------------------------------------ */

static const char token_usage[] =
    "Usage: shakerand token [--bytes N] [--hex | --base32] [-n N]\n"
    "\n"
    "Print N random tokens, one per line, from the system generator: by default\n"
    "32 bytes as URL-safe base64 without padding (RFC 4648 section 5), 43\n"
    "characters, for session keys, API keys and the like.\n"
    "\n"
    "  -b, --bytes N  random bytes per token, 1 to 1048576 (default 32)\n"
    "      --hex      lower-case hexadecimal instead\n"
    "      --base32   base32 (RFC 4648 section 6, upper case) without padding\n"
    "  -n, --count N  how many (default 1)\n"
    "  -h, --help     show this help\n";

/* A whole number from min to max, or -1. */
static int parse_limited(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    return parse_count(s, out) == 0 && *out >= min && *out <= max ? 0 : -1;
}

static int cmd_token(int argc, char **argv)
{
    enum { OPT_HEX = 1000, OPT_BASE32 };
    static const struct option longopts[] = {
        {"bytes", required_argument, NULL, 'b'}, {"hex", no_argument, NULL, OPT_HEX},
        {"base32", no_argument, NULL, OPT_BASE32}, {"count", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    uint64_t size = 32, count = 1;
    int format = 0, c;
    while ((c = next_option(argc, argv, ":b:n:h", longopts, "token")) != -1) {
        switch (c) {
        case 'b':
            if (parse_limited(optarg, 1, 1 << 20, &size) != 0)
                die(EXIT_USAGE, "token: invalid size '%s' (a whole number of bytes, 1 to 1048576)",
                    optarg);
            break;
        case 'n':
            if (parse_count(optarg, &count) != 0)
                die(EXIT_USAGE, "token: invalid count '%s' (a whole number)", optarg);
            break;
        case OPT_HEX:
        case OPT_BASE32:
            if (format != 0 && format != c)
                die(EXIT_USAGE, "token: --hex and --base32 exclude each other");
            format = c;
            break;
        case 'h': return print_usage(token_usage);
        }
    }
    no_operands(argc, argv, "token");
    FUZZ_CAP(count);
    generator(NULL, "token");
    uint8_t *raw = malloc(size);
    char *text = malloc(2 * size + 1); /* hex is the longest */
    if (raw == NULL || text == NULL)
        die(EXIT_RUNTIME, "out of memory");
    for (uint64_t i = 0; i < count; i++) {
        shakerand_system_fill(raw, size);
        size_t n = format == OPT_HEX      ? encode_hex(raw, size, text)
                   : format == OPT_BASE32 ? encode_base32(raw, size, text)
                                          : encode_base64(raw, size, text, base64_url, 0);
        text[n++] = '\n';
        fwrite(text, 1, n, stdout);
    }
    flush_stdout();
    wipe_free(raw, size);
    wipe_free(text, 2 * size + 1);
    return 0;
}

/* ---- password ----------------------------------------------------------------- */

static const char password_usage[] =
    "Usage: shakerand password [--length N] [--charset NAME | --chars SET] [-n N]\n"
    "                          [--verbose]\n"
    "       shakerand password --words N --wordlist FILE [-n N] [--verbose]\n"
    "\n"
    "Print N random passwords, one per line, from the system generator: each\n"
    "character drawn uniformly and independently from a set, or each word from a\n"
    "list, by an unbiased draw.\n"
    "\n"
    "  -l, --length N       characters per password, 1 to 1048576 (default 20)\n"
    "  -c, --charset NAME   alnum (A-Z a-z 0-9, the default), alnum-symbols (alnum and\n"
    "                       the 32 ASCII punctuation characters), lower (a-z),\n"
    "                       digits (0-9) or hex (0-9 a-f)\n"
    "      --chars SET      the characters given literally, e.g. --chars 'abc123':\n"
    "                       printable ASCII other than space, at least 2 different;\n"
    "                       one given twice counts once\n"
    "  -w, --words N        N words joined by '-' instead of characters (1 to 65536)\n"
    "      --wordlist FILE  the words, one per line ('-': standard input); empty lines\n"
    "                       and repeats are dropped, at least 2 words must remain;\n"
    "                       a word with a '-' is refused (two choices of words could\n"
    "                       join into the same password)\n"
    "  -n, --count N        how many (default 1)\n"
    "  -v, --verbose        print each password's entropy in bits on standard error:\n"
    "                       length * log2(set size), or words * log2(list size)\n"
    "  -s, --seed HEX       for tests: draw from turboshake256 with this seed, so the\n"
    "                       passwords are only as secret as HEX\n"
    "  -h, --help           show this help\n";

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
    const struct line *x = a, *y = b;
    const int c = memcmp(x->text, y->text, x->len < y->len ? x->len : y->len);
    return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

/* What --words puts between the words of a password. */
static const char word_separator = '-';

/* The list's distinct non-empty lines (a '\r' before the '\n' dropped), in
 * sorted order; their number in *count. -v counts a password of N words
 * from a list of n as n^N passwords, which holds only if different choices
 * of words print differently, that is if a password split at the separator
 * gives back the words chosen. So a word containing the separator is
 * refused (a-b + a and a + b-a both print a-b-a), even when N is 1, so that
 * a list is good or not whatever N is; and a repeat is dropped, as it would
 * be counted twice in n. Empty lines are not words. */
static struct line *distinct_words(const char *buf, size_t len, size_t *count)
{
    size_t n;
    struct line *words = split_lines(buf, len, &n);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (words[i].len > 0 && words[i].text[words[i].len - 1] == '\r')
            words[i].len--;
        for (size_t j = 0; j < words[i].len; j++) {
            const unsigned char ch = (unsigned char)words[i].text[j];
            if (ch < 0x20 || ch == 0x7f)
                die(EXIT_RUNTIME, "password: line %zu of the word list has a control character",
                    i + 1);
        }
        if (memchr(words[i].text, word_separator, words[i].len) != NULL) {
            enum { SHOWN = 60 }; /* of a word, at most, in the message */
            const int cut = words[i].len > SHOWN;
            die(EXIT_RUNTIME,
                "password: line %zu of the word list, '%.*s%s', contains the separator '%c': "
                "different words could join into the same password",
                i + 1, cut ? SHOWN : (int)words[i].len, words[i].text, cut ? "..." : "",
                word_separator);
        }
        if (words[i].len > 0)
            words[kept++] = words[i];
    }
    qsort(words, kept, sizeof *words, compare_lines);
    size_t distinct = 0;
    for (size_t i = 0; i < kept; i++)
        if (distinct == 0 || compare_lines(&words[distinct - 1], &words[i]) != 0)
            words[distinct++] = words[i];
    *count = distinct;
    return words;
}

static int cmd_password(int argc, char **argv)
{
    enum { OPT_CHARS = 1000, OPT_WORDLIST };
    static const struct option longopts[] = {
        {"length", required_argument, NULL, 'l'},  {"charset", required_argument, NULL, 'c'},
        {"chars", required_argument, NULL, OPT_CHARS}, {"words", required_argument, NULL, 'w'},
        {"wordlist", required_argument, NULL, OPT_WORDLIST},
        {"count", required_argument, NULL, 'n'},   {"verbose", no_argument, NULL, 'v'},
        {"seed", required_argument, NULL, 's'},    {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *charset = NULL, *chars = NULL, *wordlist = NULL, *seed_arg = NULL;
    uint64_t length = 20, words = 0, count = 1;
    int length_given = 0, verbose = 0, c;
    while ((c = next_option(argc, argv, ":l:c:w:n:vs:h", longopts, "password")) != -1) {
        switch (c) {
        case 'l':
            if (parse_limited(optarg, 1, 1 << 20, &length) != 0)
                die(EXIT_USAGE, "password: invalid length '%s' (a whole number, 1 to 1048576)",
                    optarg);
            length_given = 1;
            break;
        case 'w':
            if (parse_limited(optarg, 1, 1 << 16, &words) != 0)
                die(EXIT_USAGE, "password: invalid number of words '%s' (1 to 65536)", optarg);
            break;
        case 'n':
            if (parse_count(optarg, &count) != 0)
                die(EXIT_USAGE, "password: invalid count '%s' (a whole number)", optarg);
            break;
        case 'c': charset = optarg; break;
        case OPT_CHARS: chars = optarg; break;
        case OPT_WORDLIST: wordlist = optarg; break;
        case 'v': verbose = 1; break;
        case 's': seed_arg = optarg; break;
        case 'h': return print_usage(password_usage);
        }
    }
    no_operands(argc, argv, "password");
    FUZZ_CAP(count);
    FUZZ_CAP(length);
    if (charset != NULL && chars != NULL)
        die(EXIT_USAGE, "password: --charset and --chars exclude each other");
    if (words != 0 && (length_given || charset != NULL || chars != NULL))
        die(EXIT_USAGE, "password: --words excludes --length, --charset and --chars");
    if (words != 0 && wordlist == NULL)
        die(EXIT_USAGE, "password: --words needs --wordlist FILE");
    if (words == 0 && wordlist != NULL)
        die(EXIT_USAGE, "password: --wordlist needs --words N");

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
                die(EXIT_USAGE,
                    "password: unknown charset '%s' (alnum, alnum-symbols, lower, digits, hex; "
                    "--chars SET for others)",
                    name);
        }
        for (const char *p = given; *p != '\0'; p++) {
            if (*p <= ' ' || *p > '~')
                die(EXIT_USAGE,
                    "password: --chars takes printable ASCII characters other than space");
            if (memchr(set, *p, set_size) == NULL)
                set[set_size++] = *p;
        }
        if (set_size < 2)
            die(EXIT_USAGE, "password: --chars needs at least 2 different characters");
    }

    shakerand_engine *engine = generator(seed_arg, "password");
    char *list = NULL;
    size_t list_len = 0, list_size = 0, longest = 0;
    struct line *list_words = NULL;
    if (words != 0) {
        list = read_all(wordlist, &list_len, "password");
        list_words = distinct_words(list, list_len, &list_size);
        if (list_size < 2)
            die(EXIT_RUNTIME, "password: the word list '%s' has fewer than 2 different words",
                wordlist);
        if (list_size > UINT32_MAX)
            die(EXIT_RUNTIME, "password: the word list '%s' has more than 2^32 words", wordlist);
        for (size_t i = 0; i < list_size; i++)
            longest = list_words[i].len > longest ? list_words[i].len : longest;
    }

    /* Each line: length characters, or words words with a separator or '\n' after each. */
    if (words != 0 && longest + 1 > SIZE_MAX / words)
        die(EXIT_RUNTIME, "out of memory");
    const size_t line_size = words != 0 ? (size_t)words * (longest + 1) : (size_t)length + 1;
    char *line = malloc(line_size);
    if (line == NULL)
        die(EXIT_RUNTIME, "out of memory");
    for (uint64_t i = 0; i < count; i++) {
        size_t n = 0;
        for (uint64_t k = 0; k < (words != 0 ? words : length); k++) {
            uint32_t pick;
            if (shakerand_uniform_u32(engine, (uint32_t)(words != 0 ? list_size : set_size),
                                      &pick) != SHAKERAND_OK)
                die(EXIT_RUNTIME, "internal error: empty set");
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
    flush_stdout();
    if (verbose) {
        const double bits = words != 0 ? (double)words * log2_of((double)list_size)
                                       : (double)length * log2_of((double)set_size);
        /* Rounded down, so as never to claim more than there is. */
        fprintf(stderr, "%s: password: %.1f bits of entropy each (%llu %s %zu)\n", program,
                (double)(uint64_t)(bits * 10) / 10,
                (unsigned long long)(words != 0 ? words : length),
                words != 0 ? "words from a list of" : "characters from a set of",
                words != 0 ? list_size : set_size);
    }
    generator_wipe(engine);
    wipe_free(line, line_size);
    wipe_free(list_words, list_size * sizeof *list_words);
    wipe_free(list, list_len);
    return 0;
}

/* ---- shuffle and pick ----------------------------------------------------------- */

static const char shuffle_usage[] =
    "Usage: shakerand shuffle [FILE] [-o FILE] [--seed HEX]\n"
    "\n"
    "Print the lines of FILE, or of standard input without FILE or for '-', in a\n"
    "random order, every order equally likely (like shuf): a Fisher-Yates shuffle\n"
    "with unbiased draws from the system generator. A last line without a newline\n"
    "is printed with one. The input is held in memory, and wiped.\n"
    "\n"
    "  -o, --output FILE  write to FILE instead of standard output, after reading\n"
    "                     all the input (FILE may be the input); as for bytes -o, a\n"
    "                     regular FILE is made mode 0600 and a symbolic link refused\n"
    "  -s, --seed HEX     draw from turboshake256 with this seed: the same input and\n"
    "                     HEX give the same order (like shuf --random-source)\n"
    "  -h, --help         show this help\n";

static const char pick_usage[] =
    "Usage: shakerand pick [-n K] [FILE] [-o FILE] [--seed HEX]\n"
    "\n"
    "Print K lines of FILE, or of standard input without FILE or for '-', chosen\n"
    "at random without repetition, in random order (like shuf -n K): every\n"
    "ordered choice of K different lines of the input is equally likely. With\n"
    "fewer than K lines, all are printed, shuffled. Equal lines of the input are\n"
    "different lines; the input is held in memory, and wiped.\n"
    "\n"
    "  -n, --count K      how many lines (default 1)\n"
    "  -o, --output FILE  write to FILE instead of standard output, after reading\n"
    "                     all the input (FILE may be the input); as for bytes -o, a\n"
    "                     regular FILE is made mode 0600 and a symbolic link refused\n"
    "  -s, --seed HEX     draw from turboshake256 with this seed: the same input and\n"
    "                     HEX give the same choice (like shuf --random-source)\n"
    "  -h, --help         show this help\n";

/* shuffle is pick with K = every line: a Fisher-Yates shuffle stopped after
 * K steps leaves a uniform ordered choice of K lines in front. */
static int cmd_lines(int argc, char **argv, int pick)
{
    const char *command = pick ? "pick" : "shuffle";
    static const struct option longopts[] = {
        {"count", required_argument, NULL, 'n'}, {"output", required_argument, NULL, 'o'},
        {"seed", required_argument, NULL, 's'},  {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL, *seed_arg = NULL;
    uint64_t k = pick ? 1 : UINT64_MAX;
    int c;
    /* shuffle has no --count: its options are the table without the first. */
    while ((c = next_option(argc, argv, pick ? ":n:o:s:h" : ":o:s:h", longopts + !pick,
                            command)) != -1) {
        switch (c) {
        case 'n': /* any size: with fewer lines than K, all are printed */
            if (parse_size(optarg, &k) != 0 || optarg[strspn(optarg, "0123456789")] != '\0')
                die(EXIT_USAGE, "pick: invalid count '%s' (a whole number)", optarg);
            break;
        case 'o': output = optarg; break;
        case 's': seed_arg = optarg; break;
        case 'h': return print_usage(pick ? pick_usage : shuffle_usage);
        }
    }
    const char *input = optind < argc ? argv[optind++] : NULL;
    no_operands(argc, argv, command);
    shakerand_engine *engine = generator(seed_arg, command);
    size_t len, n;
    char *buf = read_all(input, &len, command);
    struct line *lines = split_lines(buf, len, &n);
    if (output != NULL)
        redirect_stdout(output);
    if (k > n)
        k = n;
    for (size_t i = 0; i < k; i++) {
        const size_t j = i + (size_t)draw_below(engine, n - i);
        const struct line chosen = lines[j];
        lines[j] = lines[i];
        lines[i] = chosen;
        fwrite(chosen.text, 1, chosen.len, stdout);
        putchar('\n');
    }
    finish_stdout();
    generator_wipe(engine);
    wipe_free(lines, n * sizeof *lines);
    wipe_free(buf, len);
    return 0;
}

/* ---- sources ------------------------------------------------------------- */

static const char sources_usage[] =
    "Usage: shakerand sources [--json]\n"
    "\n"
    "Report the entropy sources: which are present on this machine, which are\n"
    "mixed into seeds, and why any is not. The operating system's source is\n"
    "required; the CPU's random instructions are mixed in when present and\n"
    "healthy, never used alone. Also the number of automatic reseeds of the\n"
    "system generator that failed in this process.\n"
    "\n"
    "  -j, --json  one JSON object instead of a table\n"
    "  -h, --help  show this help\n";

static void json_string(const char *s)
{
    if (s == NULL) {
        fputs("null", stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}

static int cmd_sources(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    int json = 0, c;
    while ((c = next_option(argc, argv, ":jh", longopts, "sources")) != -1) {
        if (c == 'j')
            json = 1;
        if (c == 'h') {
            return print_usage(sources_usage);
        }
    }
    no_operands(argc, argv, "sources");
    shakerand_source_info info[16];
    size_t n = shakerand_sources(info, 16);
    if (n > 16)
        n = 16;
    const unsigned long long reseed_failures = shakerand_system_reseed_failures();
    if (json) {
        printf("{\"kernel\":");
        json_string(shakerand_kernel_name());
        printf(",\"system_engine\":");
        json_string(shakerand_kind_name(shakerand_system_kind()));
        printf(",\"sources\":[");
        for (size_t i = 0; i < n; i++) {
            printf("%s{\"name\":", i ? "," : "");
            json_string(info[i].name);
            printf(",\"present\":%s,\"used\":%s", info[i].present ? "true" : "false",
                   info[i].used ? "true" : "false");
            if (strcmp(info[i].name, "os") == 0) {
                printf(",\"method\":");
                json_string(info[i].method);
            }
            printf(",\"reason\":");
            json_string(info[i].reason);
            putchar('}');
        }
        printf("],\"reseed_failures\":%llu}\n", reseed_failures);
    } else {
        printf("%-8s %-8s %-5s %s\n", "source", "present", "used", "note");
        for (size_t i = 0; i < n; i++)
            printf("%-8s %-8s %-5s %s\n", info[i].name, info[i].present ? "yes" : "no",
                   info[i].used ? "yes" : "no",
                   info[i].reason != NULL ? info[i].reason
                   : strcmp(info[i].name, "os") == 0 ? info[i].method : "");
        printf("\nsystem generator engine: %s\n", shakerand_kind_name(shakerand_system_kind()));
        printf("reseed failures in this process: %llu\n", reseed_failures);
    }
    flush_stdout();
    if (!info[0].used)
        die(EXIT_RUNTIME, "the operating system's entropy source is not usable: %s",
            info[0].reason != NULL ? info[0].reason : "unknown reason");
    return 0;
}

/* ---- main ----------------------------------------------------------------- */

static const char main_usage[] =
    "Usage: shakerand COMMAND [OPTIONS]\n"
    "\n"
    "Cryptographically secure random numbers from Keccak and ChaCha8.\n"
    "\n"
    "Commands:\n"
    "  bytes     random bytes, raw, hex or base64 (like openssl rand)\n"
    "  int       random integers in a range, of any size (like shuf -i)\n"
    "  token     random tokens: URL-safe base64, hex or base32\n"
    "  password  random passwords from a character set or a word list (like pwgen)\n"
    "  shuffle   the lines of a file in random order (like shuf)\n"
    "  pick      K different random lines of a file (like shuf -n K)\n"
    "  uuid      UUIDs, version 4 or 7 (like uuidgen)\n"
    "  sources   report the entropy sources\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help ('shakerand COMMAND --help' for a command)\n"
    "  -V, --version  show the version and the kernel in use\n";

int main(int argc, char **argv)
{
    platform_init();
    setvbuf(stdout, stdout_buffer, platform_is_terminal(STDOUT_FILENO) ? _IOLBF : _IOFBF,
            sizeof stdout_buffer);

    if (argc < 2)
        die(EXIT_USAGE, "missing command (see 'shakerand --help')");
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
        strcmp(command, "help") == 0) {
        return print_usage(main_usage);
    }
    if (strcmp(command, "--version") == 0 || strcmp(command, "-V") == 0) {
        printf("shakerand %s (kernel %s)\n", shakerand_version(), shakerand_kernel_name());
        flush_stdout();
        return 0;
    }
    if (strcmp(command, "bytes") == 0)
        return cmd_bytes(argc - 1, argv + 1);
    if (strcmp(command, "int") == 0)
        return cmd_int(argc - 1, argv + 1);
    if (strcmp(command, "token") == 0)
        return cmd_token(argc - 1, argv + 1);
    if (strcmp(command, "password") == 0)
        return cmd_password(argc - 1, argv + 1);
    if (strcmp(command, "shuffle") == 0)
        return cmd_lines(argc - 1, argv + 1, 0);
    if (strcmp(command, "pick") == 0)
        return cmd_lines(argc - 1, argv + 1, 1);
    if (strcmp(command, "uuid") == 0)
        return cmd_uuid(argc - 1, argv + 1);
    if (strcmp(command, "sources") == 0)
        return cmd_sources(argc - 1, argv + 1);
    if (command[0] == '-') {
        /* "-help" as openssl spells it, "--vers" abbreviated: named, not run. */
        static const struct option own_options[] = {
            {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, 'V'},
            {NULL, 0, NULL, 0},
        };
        const char *name = command + 1 + (command[1] == '-');
        const size_t len = strcspn(name, "=");
        char meant[64];
        if ((len >= 2 || (len == 1 && name != command + 1)) &&
            long_options_spelled(name, len, own_options, meant, sizeof meant) > 0)
            die(EXIT_USAGE, "unknown option '%.*s'; did you mean %s?",
                (int)(name - command + len), command, meant);
        die(EXIT_USAGE, "unknown option '%s' (see 'shakerand --help')", command);
    }
    die(EXIT_USAGE, "unknown command '%s' (see 'shakerand --help')", command);
}
