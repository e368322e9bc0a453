/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The guest's side of tests/vm/run.sh: answers the host's commands on a
 * serial port (argv[1]) with words from each front end, drawn when asked,
 * so that nothing drawn before a snapshot is still in flight after it:
 *
 *   draw N TAG   N words from each front end ("w FRONTEND HEX" lines), the
 *                vmclock page's words ("v ..."), then "end TAG"
 *   skip TAG     reads and drops what the CLI had written into its pipe or
 *                was writing when the snapshot was taken, then "end TAG"
 *   info TAG     what this guest gives and watches ("i ..."), the uevents
 *                and poll() results seen since the last info, then "end TAG"
 *
 * Front ends: "c", this process's system generator (libshakerand.a);
 * "cli", a long-running `shakerand bytes --hex` into a pipe; and programs
 * asked over pipes (the table "asked" below): "go-pure" and "go-cgo",
 * gdraw/ in each build; "openssl" and "openssl-default", odraw.c's
 * RAND_bytes with and without the OpenSSL provider's configuration;
 * "java-jni" and "java-pure", jdraw/ on the jar's two paths; "python",
 * pydraw.py; "js", jsdraw.mjs under node; "rust", rdraw/. A program with
 * several channels (java-jni.securerandom, java-jni.shakerandom, ...)
 * gives each channel's words as a front end of its own. The vmclock page and
 * the device's poll() are read here directly, for the record only.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "shakerand.h"

/* What the CLI can hold back across a snapshot: its pipe (it asks for
 * 1 MiB: cli/platform_posix.c) and one chunk of hex it was writing (768 KiB
 * of bytes, 1.5 MiB of text: cli/cmd_bytes.c). More is dropped than that
 * so that every word read after a skip was made after the snapshot. */
enum { CLI_SKIP_TEXT = 4 << 20 };

static FILE *out;

static void fail(const char *what)
{
    fprintf(out, "error %s: %s\n", what, strerror(errno));
    fflush(out);
    exit(1);
}

struct child {
    const char *name;
    pid_t pid;
    int to, from; /* its standard input and output */
};

static struct child spawn(const char *name, char *const argv[], int want_input)
{
    int in[2] = {-1, -1}, res[2];
    if ((want_input && pipe(in) != 0) || pipe(res) != 0)
        fail("pipe");
    struct child c = {name, fork(), -1, res[0]};
    if (c.pid < 0)
        fail("fork");
    if (c.pid == 0) {
        if (want_input)
            dup2(in[0], 0);
        dup2(res[1], 1);
        execv(argv[0], argv);
        _exit(127);
    }
    if (want_input) {
        close(in[0]);
        c.to = in[1];
    }
    close(res[1]);
    return c;
}

/* Reads exactly n bytes (a child that ends is a failure of the run). */
static void read_exactly(int fd, char *buf, size_t n, const char *what)
{
    for (size_t got = 0; got < n;) {
        const ssize_t r = read(fd, buf + got, n - got);
        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            errno = r == 0 ? EPIPE : errno;
            fail(what);
        }
        got += (size_t)r;
    }
}

/* The vmclock page (struct vmclock_abi of the kernel's
 * include/uapi/linux/vmclock-abi.h), read under its sequence count. */
static const volatile unsigned char *vmclock;
static int vmclock_fd = -1;

static uint64_t le(const volatile unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void vmclock_words(uint64_t *marker, uint64_t *flags, uint64_t *counter)
{
    for (;;) {
        const uint64_t seq = le(vmclock + 12, 4);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        *marker = le(vmclock + 16, 8);
        *flags = le(vmclock + 24, 8);
        *counter = le(vmclock + 104, 8);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if ((seq & 1) == 0 && seq == le(vmclock + 12, 4))
            return;
    }
}

static double uptime(void)
{
    struct timespec t;
    clock_gettime(CLOCK_BOOTTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Whether the restore was told to user space some other way: poll() on
 * the device (the driver answers POLLHUP unless the hypervisor sets
 * VMCLOCK_FLAG_NOTIFICATION_PRESENT) and kernel uevents (NEW_VMGENID, for
 * one, where a kernel sends it). */
static int uevents = -1;

static void report_notifications(void)
{
    if (vmclock_fd >= 0) {
        struct pollfd p = {vmclock_fd, POLLIN, 0};
        const int n = poll(&p, 1, 0);
        fprintf(out, "i poll=%d revents=%s%s%s\n", n, p.revents & POLLIN ? "IN" : "",
                p.revents & POLLHUP ? "HUP" : "", p.revents == 0 ? "0" : "");
    }
    if (uevents >= 0) {
        char msg[4096];
        ssize_t r;
        while ((r = recv(uevents, msg, sizeof msg - 1, MSG_DONTWAIT)) > 0) {
            msg[r] = 0;
            /* The fields are NUL-separated: show them with spaces. */
            for (ssize_t i = 0; i < r; i++)
                if (msg[i] == 0)
                    msg[i] = ' ';
            fprintf(out, "i uevent %s\n", msg);
        }
    }
}

/* The children asked over pipes (gdraw's protocol: a first line, then for
 * each line N, N words of each of its channels in order) and their first
 * lines. The runtimes' programs are on the read-only disk mounted at /rt
 * (init); env sets what each runtime needs to find its own files. */
#define RT_PYTHON_ENV                                                                         \
    "/bin/env", "PYTHONHOME=/rt/python", "PYTHONPATH=/rt/pylib", "PYTHONDONTWRITEBYTECODE=1", \
        "LD_LIBRARY_PATH=/rt/python/lib"
#define RT_JAVA \
    "/rt/java/bin/java", "-Xmx48m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"
static const struct asked {
    const char *name;
    const char *channels[3];
    char *argv[12];
} asked[] = {
    {"go-pure", {"go-pure"}, {"/bin/go-pure"}},
    {"go-cgo", {"go-cgo"}, {"/bin/go-cgo"}},
    {"openssl", {"openssl"}, {"/bin/odraw", "/etc/shakerand.cnf"}},
    {"openssl-default", {"openssl-default"}, {"/bin/odraw", "-"}},
    {"java-jni",
     {"java-jni.securerandom", "java-jni.shakerandom"},
     {RT_JAVA, "-cp", "/rt/shakerand.jar:/rt/jdraw", "JDraw"}},
    {"java-pure",
     {"java-pure.securerandom", "java-pure.shakerandom"},
     {RT_JAVA, "-Dshakerand.native=false", "-cp", "/rt/shakerand.jar:/rt/jdraw", "JDraw"}},
    {"python",
     {"python.token_bytes", "python.random", "python.numpy"},
     {RT_PYTHON_ENV, "/rt/python/bin/python3", "/rt/pydraw.py"}},
    {"js", {"js.randomBytes", "js.random", "js.fill64k"}, {"/rt/node", "/rt/jsdraw.mjs"}},
    {"rust", {"rust.rng", "rust.getrandom"}, {"/rt/rdraw"}},
};
enum { ASKED = sizeof asked / sizeof asked[0] };
static char hellos[ASKED][300];
static double hello_at[ASKED]; /* uptime when its first line was read */

static void info(void)
{
    unsigned a, b, c, d;
    int rdrand = 0, rdseed = 0;
    if (__get_cpuid(1, &a, &b, &c, &d))
        rdrand = (c >> 30) & 1;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
        rdseed = (b >> 18) & 1;
    fprintf(out, "i cpu rdrand=%d rdseed=%d\n", rdrand, rdseed);
    /* Whether the guest kernel's generator is still the same in two clones. */
    uint64_t k = 0;
    if (syscall(SYS_getrandom, &k, sizeof k, 0) == (long)sizeof k)
        fprintf(out, "i kernel getrandom %016llx\n", (unsigned long long)k);
    fprintf(out, "i c watches_vm_generation=%d\n", shakerand_system_watches_vm_generation());
    for (int i = 0; i < ASKED; i++)
        fprintf(out, "i %s %.*s ready_at=%.1fs\n", asked[i].name, (int)strcspn(hellos[i], "\n"),
                hellos[i], hello_at[i]);
    if (vmclock != NULL) {
        uint64_t marker, flags, counter;
        vmclock_words(&marker, &flags, &counter);
        fprintf(out, "i vmclock flags=%#llx disruption_marker=%llu vm_generation_counter=%llu\n",
                (unsigned long long)flags, (unsigned long long)marker, (unsigned long long)counter);
    } else {
        fprintf(out, "i vmclock absent\n");
    }
    report_notifications();
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    const int tty = open(argv[1], O_RDWR | O_NOCTTY);
    if (tty < 0)
        return 1;
    struct termios t;
    if (tcgetattr(tty, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(tty, TCSANOW, &t);
    }
    out = fdopen(dup(tty), "w");
    signal(SIGPIPE, SIG_IGN);

    vmclock_fd = open("/dev/vmclock0", O_RDONLY | O_CLOEXEC);
    if (vmclock_fd >= 0) {
        void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, vmclock_fd, 0);
        if (p != MAP_FAILED)
            vmclock = p;
    }
    uevents = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (uevents >= 0) {
        struct sockaddr_nl a = {.nl_family = AF_NETLINK, .nl_groups = 1};
        if (bind(uevents, (struct sockaddr *)&a, sizeof a) != 0) {
            close(uevents);
            uevents = -1;
        }
    }

    char *cli_argv[] = {"/bin/shakerand", "bytes", "--hex", "1T", NULL};
    struct child go[ASKED];
    for (int i = 0; i < ASKED; i++)
        go[i] = spawn(asked[i].name, (char *const *)asked[i].argv, 1);
    const struct child cli = spawn("cli", cli_argv, 0);
    for (int i = 0; i < ASKED; i++) {
        size_t n = 0;
        while (n < sizeof hellos[i] - 2) {
            read_exactly(go[i].from, hellos[i] + n, 1, go[i].name);
            if (hellos[i][n++] == '\n')
                break;
        }
        hellos[i][n - 1] = '\n';
        hello_at[i] = uptime();
    }
    fprintf(out, "i cli pipe=%d\n", fcntl(cli.from, F_GETPIPE_SZ));
    (void)shakerand_system_u64(); /* the first seed, before any snapshot */
    info();
    fprintf(out, "ready\n");
    fflush(out);

    static char line[256], text[CLI_SKIP_TEXT];
    size_t len = 0;
    for (;;) {
        char ch;
        const ssize_t r = read(tty, &ch, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            fail("console");
        if (ch == '\r')
            continue;
        if (ch != '\n') {
            if (len < sizeof line - 1)
                line[len++] = ch;
            continue;
        }
        line[len] = 0;
        len = 0;
        char tag[64] = "";
        unsigned n = 0;
        if (sscanf(line, "draw %u %63s", &n, tag) == 2 && n > 0 && n <= 1000) {
            for (unsigned i = 0; i < n; i++)
                fprintf(out, "w c %016llx\n", (unsigned long long)shakerand_system_u64());
            for (int g = 0; g < ASKED; g++)
                dprintf(go[g].to, "%u\n", n);
            for (int g = 0; g < ASKED; g++)
                for (int c = 0; c < 3 && asked[g].channels[c] != NULL; c++)
                    for (unsigned i = 0; i < n; i++) {
                        read_exactly(go[g].from, text, 17, go[g].name);
                        fprintf(out, "w %s %.16s\n", asked[g].channels[c], text);
                    }
            for (unsigned i = 0; i < n; i++) {
                read_exactly(cli.from, text, 16, "cli");
                fprintf(out, "w cli %.16s\n", text);
            }
            if (vmclock != NULL) {
                uint64_t marker, flags, counter;
                vmclock_words(&marker, &flags, &counter);
                fprintf(out, "v marker=%llu counter=%llu uptime=%.3f\n", (unsigned long long)marker,
                        (unsigned long long)counter, uptime());
            } else {
                fprintf(out, "v uptime=%.3f\n", uptime());
            }
        } else if (sscanf(line, "skip %63s", tag) == 1) {
            read_exactly(cli.from, text, CLI_SKIP_TEXT, "cli");
        } else if (sscanf(line, "info %63s", tag) == 1) {
            info();
        } else {
            fprintf(out, "error unknown command '%s'\n", line);
        }
        fprintf(out, "end %s\n", tag);
        fflush(out);
    }
}
