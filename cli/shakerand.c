/*
 * shakerand: the command-line front end.
 *
 * Exit status: 0 success, 1 runtime error (I/O, entropy, memory), 2 usage error.
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
#include <time.h>
#include <unistd.h>

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

/* stdout's buffer, ours so that the text of results (int, uuid) does not
 * stay in it: main installs it, flush_stdout wipes it. */
static char stdout_buffer[BUFSIZ];

/* Writes stdout's buffered output, then wipes the buffer, or exits with a
 * runtime error. */
static void flush_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        die(EXIT_RUNTIME, "write error on standard output: %s", strerror(errno));
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

/* getopt_long with our own one-line messages instead of getopt's. */
static int next_option(int argc, char **argv, const char *shortopts,
                       const struct option *longopts, const char *command)
{
    opterr = 0;
    const int c = getopt_long(argc, argv, shortopts, longopts, NULL);
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

/* Opens -o FILE for writing. FILE may hold a key, so:
 * - a new file is created mode 0600, whatever the umask;
 * - an existing regular file is made 0600 too, before it is emptied, so no
 *   one else can read what follows (a reader that opened it earlier still
 *   can: only a new name avoids that); if its mode cannot be changed (not
 *   our file) it is refused and left as it was, which is why the file is
 *   truncated with ftruncate after fchmod rather than by O_TRUNC;
 * - anything else (/dev/null, a FIFO, a terminal) is used as it is: its mode
 *   belongs to the system or to whoever made it;
 * - a symbolic link at FILE is refused (O_NOFOLLOW): one planted in a shared
 *   directory such as /tmp could otherwise send the key to its maker or
 *   overwrite a file of the user's. Links earlier in the path are followed,
 *   and so are links under /dev (/dev/stdout, /dev/fd/N from a shell's
 *   process substitution), where only the system makes them. */
static int open_output(const char *path)
{
    const int nofollow = strncmp(path, "/dev/", 5) == 0 ? 0 : O_NOFOLLOW;
    const int fd = open(path, O_WRONLY | O_CREAT | nofollow | O_CLOEXEC, 0600);
    if (fd < 0) {
        const int error = errno;
        struct stat st;
        if (error == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
            die(EXIT_RUNTIME, "'%s' is a symbolic link: -o does not follow one", path);
        die(EXIT_RUNTIME, "cannot open '%s' for writing: %s", path, strerror(error));
    }
    struct stat st;
    if (fstat(fd, &st) != 0)
        die(EXIT_RUNTIME, "cannot open '%s' for writing: %s", path, strerror(errno));
    if (S_ISREG(st.st_mode)) {
        if ((st.st_mode & 07777) != 0600 && fchmod(fd, 0600) != 0)
            die(EXIT_RUNTIME, "cannot make '%s' mode 0600: %s", path, strerror(errno));
        if (ftruncate(fd, 0) != 0)
            die(EXIT_RUNTIME, "cannot truncate '%s': %s", path, strerror(errno));
    }
    return fd;
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

/* ---- progress ------------------------------------------------------------ */

/* A one-line progress display on stderr, only when stderr is a terminal and
 * only once a run has lasted half a second; redrawn at most 5 times a
 * second. */
struct progress {
    int enabled, shown;
    uint64_t total;
    double start, last;
};

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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
    p->enabled = isatty(STDERR_FILENO);
    p->shown = 0;
    p->total = total;
    p->start = p->last = monotonic_seconds();
}

static void progress_update(struct progress *p, uint64_t done)
{
    if (!p->enabled)
        return;
    const double now = monotonic_seconds();
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

static const char bytes_usage[] =
    "Usage: shakerand bytes -n SIZE [--engine ENGINE] [--seed HEX] [-o FILE]\n"
    "\n"
    "Write SIZE random bytes to standard output or FILE.\n"
    "\n"
    "  -n, --size SIZE      number of bytes; K, M, G, T suffixes are powers of 1024\n"
    "  -e, --engine ENGINE  turboshake256, shake256 or turboshake256x8\n"
    "  -s, --seed HEX       seed the engine (default turboshake256) with these\n"
    "                       bytes for a reproducible stream ('' is the empty seed)\n"
    "  -o, --output FILE    write to FILE instead of standard output; a regular\n"
    "                       FILE, new or existing, is made mode 0600 (owner only),\n"
    "                       and a symbolic link is refused (except\n"
    "                       the system's own under /dev, such as /dev/stdout)\n"
    "  -h, --help           show this help\n"
    "\n"
    "Without --seed the bytes come from the system generator (turboshake256x8,\n"
    "seeded from the operating system mixed with the CPU's random instructions),\n"
    "or with --engine from that engine seeded the same way. On a terminal, long\n"
    "runs show their progress on standard error.\n";

static int cmd_bytes(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 'n'},   {"engine", required_argument, NULL, 'e'},
        {"seed", required_argument, NULL, 's'},   {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    const char *size_arg = NULL, *seed_arg = NULL, *output = NULL, *engine_arg = NULL;
    shakerand_kind kind = SHAKERAND_TURBOSHAKE256;
    int c;
    while ((c = next_option(argc, argv, ":n:e:s:o:h", longopts, "bytes")) != -1) {
        switch (c) {
        case 'n': size_arg = optarg; break;
        case 's': seed_arg = optarg; break;
        case 'o': output = optarg; break;
        case 'e':
            engine_arg = optarg;
            if (shakerand_kind_from_name(optarg, &kind) != SHAKERAND_OK)
                die(EXIT_USAGE, "bytes: unknown engine '%s' (turboshake256, shake256, turboshake256x8)",
                    optarg);
            break;
        case 'h': return print_usage(bytes_usage);
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
    } else if (engine_arg != NULL) {
        seed_len = 64;
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

    grow_pipe(fd);

    static shakerand_engine engine;
    if (seed != NULL) {
        const int status = shakerand_engine_init(&engine, kind, seed, seed_len);
        shakerand_memzero(seed, seed_len);
        free(seed);
        if (status != SHAKERAND_OK)
            die_status("cannot seed the engine", status);
    }

    enum { CHUNK = 1 << 20 };
    unsigned char *buf = malloc(CHUNK);
    if (buf == NULL)
        die(EXIT_RUNTIME, "out of memory");
    struct progress progress;
    progress_start(&progress, size);
    for (uint64_t done = 0; done < size;) {
        const size_t n = size - done < CHUNK ? (size_t)(size - done) : CHUNK;
        if (seed_arg != NULL || engine_arg != NULL)
            shakerand_engine_fill(&engine, buf, n);
        else
            shakerand_system_fill(buf, n);
        write_all(fd, buf, n, name);
        done += n;
        progress_update(&progress, done);
    }
    progress_finish(&progress);
    shakerand_engine_wipe(&engine);
    shakerand_memzero(buf, CHUNK);
    free(buf);
    if (output != NULL && close(fd) != 0)
        die(EXIT_RUNTIME, "write error on %s: %s", name, strerror(errno));
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

/* ---- int ------------------------------------------------------------------ */

static const char int_usage[] =
    "Usage: shakerand int --below HEX [--count N] [--method METHOD] [--seed HEX] [--stats]\n"
    "\n"
    "Print N uniform random integers in [0, HEX), one per line, in lower-case\n"
    "hexadecimal without leading zeros.\n"
    "\n"
    "  -b, --below HEX      the exclusive upper bound, hexadecimal, any length\n"
    "  -c, --count N        how many (default 1)\n"
    "  -m, --method METHOD  rng-bc-1 (default), rng-bc-8, simple-discard or\n"
    "                       simple-modular\n"
    "  -s, --seed HEX       draw from turboshake256 with this seed (reproducible);\n"
    "                       without it, from the system generator\n"
    "      --stats          print {\"method\",\"count\",\"avg_bits\",\"max_bits\"} as one\n"
    "                       JSON line on standard error: bits drawn per integer,\n"
    "                       counted as the Optimized Simple Discard paper counts them\n"
    "  -h, --help           show this help\n";

static int cmd_int(int argc, char **argv)
{
    enum { OPT_STATS = 1000 };
    static const struct option longopts[] = {
        {"below", required_argument, NULL, 'b'}, {"count", required_argument, NULL, 'c'},
        {"method", required_argument, NULL, 'm'}, {"seed", required_argument, NULL, 's'},
        {"stats", no_argument, NULL, OPT_STATS},  {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *below = NULL, *seed_arg = NULL;
    uint64_t count = 1;
    shakerand_method method = SHAKERAND_RNG_BC_1;
    int stats = 0, c;
    while ((c = next_option(argc, argv, ":b:c:m:s:h", longopts, "int")) != -1) {
        switch (c) {
        case 'b': below = optarg; break;
        case 's': seed_arg = optarg; break;
        case OPT_STATS: stats = 1; break;
        case 'c':
            if (parse_count(optarg, &count) != 0)
                die(EXIT_USAGE, "int: invalid count '%s' (a whole number)", optarg);
            break;
        case 'm':
            if (shakerand_method_from_name(optarg, &method) != SHAKERAND_OK)
                die(EXIT_USAGE,
                    "int: unknown method '%s' (rng-bc-1, rng-bc-8, simple-discard, simple-modular)",
                    optarg);
            break;
        case 'h': return print_usage(int_usage);
        }
    }
    no_operands(argc, argv, "int");
    FUZZ_CAP(count);
    if (below == NULL)
        die(EXIT_USAGE, "int: missing --below HEX (see 'shakerand int --help')");
    /* An odd number of digits is a number too: pad it to whole bytes. */
    const size_t digits = strlen(below);
    char *padded = malloc(digits + 2);
    if (padded == NULL)
        die(EXIT_RUNTIME, "out of memory");
    snprintf(padded, digits + 2, "%s%s", digits % 2 ? "0" : "", below);
    size_t r_len = 0;
    const char *why = NULL;
    uint8_t *r = digits ? parse_hex(padded, &r_len, &why) : NULL;
    free(padded);
    if (r == NULL)
        die(EXIT_USAGE, "int: bound '%s' is not hexadecimal", below);
    size_t nonzero = 0;
    while (nonzero < r_len && r[nonzero] == 0)
        nonzero++;
    if (nonzero == r_len)
        die(EXIT_USAGE, "int: the bound must be greater than zero");

    static shakerand_engine engine;
    shakerand_engine *source = NULL;
    if (seed_arg != NULL) {
        size_t seed_len;
        uint8_t *seed = parse_hex(seed_arg, &seed_len, &why);
        if (seed == NULL)
            die(EXIT_USAGE, "int: seed %s", why);
        const int status = shakerand_engine_init(&engine, SHAKERAND_TURBOSHAKE256, seed, seed_len);
        shakerand_memzero(seed, seed_len);
        free(seed);
        if (status != SHAKERAND_OK)
            die_status("cannot seed the engine", status);
        source = &engine;
    } else {
        const int status = shakerand_system_init();
        if (status != SHAKERAND_OK)
            die_status("cannot seed the system generator", status);
    }

    uint8_t *out = malloc(r_len);
    char *line = malloc(2 * r_len + 2);
    if (out == NULL || line == NULL)
        die(EXIT_RUNTIME, "out of memory");
    static const char hexdigits[] = "0123456789abcdef";
    uint64_t total_bits = 0, max_bits = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t bits = 0;
        const int status = shakerand_below(source, method, r, r_len, out, &bits);
        if (status != SHAKERAND_OK)
            die_status("int", status);
        total_bits += bits;
        if (bits > max_bits)
            max_bits = bits;
        size_t n = 0;
        for (size_t k = 0; k < r_len; k++) {
            line[n++] = hexdigits[out[k] >> 4];
            line[n++] = hexdigits[out[k] & 15];
        }
        size_t start = 0;
        while (start + 1 < n && line[start] == '0')
            start++;
        line[n++] = '\n';
        fwrite(line + start, 1, n - start, stdout);
    }
    flush_stdout();
    if (stats)
        fprintf(stderr, "{\"method\":\"%s\",\"count\":%llu,\"avg_bits\":%.6f,\"max_bits\":%llu}\n",
                shakerand_method_name(method), (unsigned long long)count,
                count ? (double)total_bits / (double)count : 0.0, (unsigned long long)max_bits);
    shakerand_engine_wipe(&engine);
    free(r);
    shakerand_memzero(out, r_len);
    free(out);
    shakerand_memzero(line, 2 * r_len + 2);
    free(line);
    return 0;
}

/* ---- uuid ----------------------------------------------------------------- */

static const char uuid_usage[] =
    "Usage: shakerand uuid [-n N] [--v7] [--binary]\n"
    "\n"
    "Print N UUIDs (RFC 9562), one per line, from the system generator.\n"
    "\n"
    "  -n, --count N  how many (default 1)\n"
    "      --v7       version 7 (Unix time in milliseconds, then random; increasing\n"
    "                 within one run) instead of version 4 (random)\n"
    "      --binary   write the 16-byte binary form instead of text\n"
    "  -h, --help     show this help\n";

static int cmd_uuid(int argc, char **argv)
{
    enum { OPT_V7 = 1000, OPT_BINARY };
    static const struct option longopts[] = {
        {"count", required_argument, NULL, 'n'}, {"v7", no_argument, NULL, OPT_V7},
        {"binary", no_argument, NULL, OPT_BINARY}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    uint64_t count = 1;
    int v7 = 0, binary = 0, c;
    while ((c = next_option(argc, argv, ":n:h", longopts, "uuid")) != -1) {
        switch (c) {
        case 'n':
            if (parse_count(optarg, &count) != 0)
                die(EXIT_USAGE, "uuid: invalid count '%s' (a whole number)", optarg);
            break;
        case OPT_V7: v7 = 1; break;
        case OPT_BINARY: binary = 1; break;
        case 'h': return print_usage(uuid_usage);
        }
    }
    no_operands(argc, argv, "uuid");
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
            text[SHAKERAND_UUID_STRING_SIZE - 1] = '\n';
            fwrite(text, 1, SHAKERAND_UUID_STRING_SIZE, stdout);
        }
    }
    flush_stdout();
    shakerand_memzero(u, sizeof u);
    shakerand_memzero(text, sizeof text);
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
        printf("\nreseed failures in this process: %llu\n", reseed_failures);
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
    "Cryptographically secure random numbers from Keccak.\n"
    "\n"
    "Commands:\n"
    "  bytes    write random bytes\n"
    "  int      random integers below a bound, any size\n"
    "  uuid     UUIDs, version 4 or 7\n"
    "  sources  report the entropy sources\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help ('shakerand COMMAND --help' for a command)\n"
    "  -V, --version  show the version and the Keccak kernel in use\n";

/* A program started with descriptor 0, 1 or 2 closed would hand that number
 * to the first file it opens: with stderr closed, a diagnostic would land in
 * the -o file. Each closed one is opened on /dev/null, as glibc and the BSD
 * kernels do for set-user-ID programs. If even that fails there is nowhere
 * safe to write, so the program ends at once with status 127, saying
 * nothing. */
static void open_standard_descriptors(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        /* The lower descriptors are open, so open returns fd itself. */
        if (open("/dev/null", O_RDWR) != fd)
            _exit(127);
    }
}

int main(int argc, char **argv)
{
    open_standard_descriptors();
    setvbuf(stdout, stdout_buffer, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, sizeof stdout_buffer);

    /* A parent that ignored or blocked SIGPIPE would turn a closed pipe into
     * EPIPE errors; restore the default so the program ends quietly. */
    signal(SIGPIPE, SIG_DFL);
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigprocmask(SIG_UNBLOCK, &pipe_only, NULL);

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
    if (strcmp(command, "uuid") == 0)
        return cmd_uuid(argc - 1, argv + 1);
    if (strcmp(command, "sources") == 0)
        return cmd_sources(argc - 1, argv + 1);
    if (command[0] == '-')
        die(EXIT_USAGE, "unknown option '%s' (see 'shakerand --help')", command);
    die(EXIT_USAGE, "unknown command '%s' (see 'shakerand --help')", command);
}
