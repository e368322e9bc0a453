/*
 * shakerand: the command-line front end.
 *
 * Exit status: 0 success, 1 runtime error (I/O, entropy), 2 usage error.
 * Every error is one line on stderr. A reader that closes the pipe early
 * ends the program through SIGPIPE, silently, as for other Unix filters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shakerand.h"

enum { EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

static const char *program = "shakerand";

static void die(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(status);
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
            free(bytes);
            *why = "is not hexadecimal";
            return NULL;
        }
        bytes[i] = (unsigned char)(hi << 4 | lo);
    }
    *len = n / 2;
    return bytes;
}

/* getopt_long with our own one-line messages instead of getopt's. */
static int next_option(int argc, char **argv, const char *shortopts,
                       const struct option *longopts, const char *command)
{
    opterr = 0;
    const int c = getopt_long(argc, argv, shortopts, longopts, NULL);
    if (c == '?') {
        const char *arg = argv[optind - 1];
        if (optopt != 0 && strncmp(arg, "--", 2) == 0)
            die(EXIT_USAGE, "%s: option '%s' takes no value", command, arg);
        if (optopt != 0)
            die(EXIT_USAGE, "%s: unknown option '-%c' (see '%s %s --help')", command, optopt,
                program, command);
        die(EXIT_USAGE, "%s: unknown option '%s' (see '%s %s --help')", command, arg, program,
            command);
    }
    if (c == ':')
        die(EXIT_USAGE, "%s: option '%s' needs a value", command, argv[optind - 1]);
    return c;
}

static void no_operands(int argc, char **argv, const char *command)
{
    if (optind < argc)
        die(EXIT_USAGE, "%s: unexpected argument '%s' (see '%s %s --help')", command,
            argv[optind], program, command);
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
            die(EXIT_RUNTIME, "write error on %s: %s", name, strerror(errno));
        }
        buf += n;
        len -= (size_t)n;
    }
}

/* A pipe's default 64 KiB buffer makes the writer and the reader take turns
 * in small steps; 1 MiB (the unprivileged maximum) lets each side run
 * longer. Best effort: failure only costs speed. */
static void grow_pipe(int fd)
{
#if defined(F_SETPIPE_SZ)
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
        (void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
    (void)fd;
#endif
}

/* ---- bytes ---------------------------------------------------------------- */

static const char bytes_usage[] =
    "Usage: shakerand bytes -n SIZE [--engine ENGINE] [--seed HEX] [-o FILE]\n"
    "\n"
    "Write SIZE random bytes to standard output or FILE.\n"
    "\n"
    "  -n, --size SIZE      number of bytes; K, M, G, T suffixes are powers of 1024\n"
    "  -e, --engine ENGINE  turboshake256 (default), shake256 or turboshake256x8\n"
    "  -s, --seed HEX       seed the engine with these bytes for a reproducible\n"
    "                       stream ('' is the empty seed); without it the engine\n"
    "                       is seeded from the operating system\n"
    "  -o, --output FILE    write to FILE instead of standard output\n"
    "  -h, --help           show this help\n";

static int cmd_bytes(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 'n'},   {"engine", required_argument, NULL, 'e'},
        {"seed", required_argument, NULL, 's'},   {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    const char *size_arg = NULL, *seed_arg = NULL, *output = NULL;
    shakerand_kind kind = SHAKERAND_TURBOSHAKE256;
    int c;
    while ((c = next_option(argc, argv, ":n:e:s:o:h", longopts, "bytes")) != -1) {
        switch (c) {
        case 'n': size_arg = optarg; break;
        case 's': seed_arg = optarg; break;
        case 'o': output = optarg; break;
        case 'e':
            if (shakerand_kind_from_name(optarg, &kind) != SHAKERAND_OK)
                die(EXIT_USAGE, "bytes: unknown engine '%s' (turboshake256, shake256, turboshake256x8)",
                    optarg);
            break;
        case 'h': fputs(bytes_usage, stdout); return 0;
        }
    }
    no_operands(argc, argv, "bytes");
    if (size_arg == NULL)
        die(EXIT_USAGE, "bytes: missing -n SIZE (see 'shakerand bytes --help')");
    uint64_t size;
    if (parse_size(size_arg, &size) != 0)
        die(EXIT_USAGE, "bytes: invalid size '%s' (a whole number, optionally with K, M, G or T)",
            size_arg);

    unsigned char *seed;
    size_t seed_len;
    if (seed_arg != NULL) {
        const char *why = NULL;
        seed = parse_hex(seed_arg, &seed_len, &why);
        if (seed == NULL)
            die(EXIT_USAGE, "bytes: seed %s", why);
    } else {
        seed_len = 64;
        seed = malloc(seed_len);
        if (seed == NULL)
            die(EXIT_RUNTIME, "out of memory");
        for (size_t got = 0; got < seed_len;) {
            const ssize_t n = getrandom(seed + got, seed_len - got, 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                die(EXIT_RUNTIME, "cannot get entropy from the operating system: %s",
                    strerror(errno));
            got += (size_t)n;
        }
    }

    int fd = STDOUT_FILENO;
    const char *name = "standard output";
    if (output != NULL) {
        fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0)
            die(EXIT_RUNTIME, "cannot open '%s' for writing: %s", output, strerror(errno));
        name = output;
    }

    grow_pipe(fd);

    static shakerand_engine engine;
    shakerand_engine_init(&engine, kind, seed, seed_len);
    shakerand_memzero(seed, seed_len);
    free(seed);

    enum { CHUNK = 1 << 20 };
    unsigned char *buf = malloc(CHUNK);
    if (buf == NULL)
        die(EXIT_RUNTIME, "out of memory");
    while (size > 0) {
        const size_t n = size < CHUNK ? (size_t)size : CHUNK;
        shakerand_engine_fill(&engine, buf, n);
        write_all(fd, buf, n, name);
        size -= n;
    }
    shakerand_engine_wipe(&engine);
    shakerand_memzero(buf, CHUNK);
    free(buf);
    if (output != NULL && close(fd) != 0)
        die(EXIT_RUNTIME, "write error on %s: %s", name, strerror(errno));
    return 0;
}

/* ---- main ----------------------------------------------------------------- */

static const char main_usage[] =
    "Usage: shakerand COMMAND [OPTIONS]\n"
    "\n"
    "Cryptographically secure random numbers from Keccak.\n"
    "\n"
    "Commands:\n"
    "  bytes    write random bytes\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help ('shakerand COMMAND --help' for a command)\n"
    "  -V, --version  show the version and the Keccak kernel in use\n";

int main(int argc, char **argv)
{
    /* A parent that ignored SIGPIPE would turn a closed pipe into EPIPE
     * errors; restore the default so the program ends quietly. */
    signal(SIGPIPE, SIG_DFL);

    if (argc < 2)
        die(EXIT_USAGE, "missing command (see 'shakerand --help')");
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
        strcmp(command, "help") == 0) {
        fputs(main_usage, stdout);
        return 0;
    }
    if (strcmp(command, "--version") == 0 || strcmp(command, "-V") == 0) {
        printf("shakerand %s (kernel %s)\n", shakerand_version(), shakerand_kernel_name());
        return 0;
    }
    if (strcmp(command, "bytes") == 0)
        return cmd_bytes(argc - 1, argv + 1);
    if (command[0] == '-')
        die(EXIT_USAGE, "unknown option '%s' (see 'shakerand --help')", command);
    die(EXIT_USAGE, "unknown command '%s' (see 'shakerand --help')", command);
}
