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
#include <time.h>
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
    "\n"
    "Without --seed the bytes come from the system generator (turboshake256x8,\n"
    "seeded from the operating system mixed with the CPU's random instructions),\n"
    "or with --engine from that engine seeded the same way. On a terminal, long\n"
    "runs show their progress on standard error.\n"
    "  -o, --output FILE    write to FILE instead of standard output\n"
    "  -h, --help           show this help\n";

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
        if (shakerand_entropy(seed, seed_len) != SHAKERAND_OK)
            die(EXIT_RUNTIME, "cannot get entropy from the operating system");
    } else if (shakerand_system_init() != SHAKERAND_OK) {
        die(EXIT_RUNTIME, "cannot get entropy from the operating system");
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
    if (seed != NULL) {
        shakerand_engine_init(&engine, kind, seed, seed_len);
        shakerand_memzero(seed, seed_len);
        free(seed);
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

/* ---- sources ------------------------------------------------------------- */

static const char sources_usage[] =
    "Usage: shakerand sources [--json]\n"
    "\n"
    "Report the entropy sources: which are present on this machine, which are\n"
    "mixed into seeds, and why any is not. The operating system's source is\n"
    "required; the CPU's random instructions are mixed in when present and\n"
    "healthy, never used alone.\n"
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
            fputs(sources_usage, stdout);
            return 0;
        }
    }
    no_operands(argc, argv, "sources");
    shakerand_source_info info[16];
    size_t n = shakerand_sources(info, 16);
    if (n > 16)
        n = 16;
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
        printf("]}\n");
    } else {
        printf("%-8s %-8s %-5s %s\n", "source", "present", "used", "note");
        for (size_t i = 0; i < n; i++)
            printf("%-8s %-8s %-5s %s\n", info[i].name, info[i].present ? "yes" : "no",
                   info[i].used ? "yes" : "no",
                   info[i].reason != NULL ? info[i].reason
                   : strcmp(info[i].name, "os") == 0 ? info[i].method : "");
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        die(EXIT_RUNTIME, "write error on standard output: %s", strerror(errno));
    return info[0].used ? 0 : EXIT_RUNTIME;
}

/* ---- main ----------------------------------------------------------------- */

static const char main_usage[] =
    "Usage: shakerand COMMAND [OPTIONS]\n"
    "\n"
    "Cryptographically secure random numbers from Keccak.\n"
    "\n"
    "Commands:\n"
    "  bytes    write random bytes\n"
    "  sources  report the entropy sources\n"
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
    if (strcmp(command, "sources") == 0)
        return cmd_sources(argc - 1, argv + 1);
    if (command[0] == '-')
        die(EXIT_USAGE, "unknown option '%s' (see 'shakerand --help')", command);
    die(EXIT_USAGE, "unknown command '%s' (see 'shakerand --help')", command);
}
