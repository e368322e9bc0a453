/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The CLI on POSIX systems (Linux, macOS, FreeBSD): see platform.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "platform.h"

const char platform_owner_only[] = "mode 0600";

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

void platform_init(void)
{
    open_standard_descriptors();
    /* A parent that ignored or blocked SIGPIPE would turn a closed pipe into
     * EPIPE errors; restore the default so the program ends quietly. */
    signal(SIGPIPE, SIG_DFL);
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigprocmask(SIG_UNBLOCK, &pipe_only, NULL);
}

int platform_is_terminal(int fd) { return isatty(fd); }

double platform_monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int platform_open_input(const char *path) { return open(path, O_RDONLY | O_CLOEXEC); }

ssize_t platform_read(int fd, void *buf, size_t n) { return read(fd, buf, n); }

/* The system's own links to a descriptor (/dev/stdout, /dev/fd/N from a
 * shell's process substitution): the only symbolic links -o follows. Other
 * names under /dev are no safer than /tmp (/dev/shm is world-writable). */
static int is_descriptor_link(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/stderr") == 0)
        return 1;
    const char *digits = strncmp(path, "/dev/fd/", 8) == 0          ? path + 8
                         : strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14
                                                                    : NULL;
    if (digits == NULL || *digits == '\0')
        return 0;
    for (; *digits != '\0'; digits++)
        if (*digits < '0' || *digits > '9')
            return 0;
    return 1;
}

/* Closes fd and returns -1 with the refusal and, for a failed call, errno's
 * message. */
static int refuse(int fd, enum output_refusal why, int error, enum output_refusal *refusal,
                  const char **detail)
{
    if (fd >= 0)
        close(fd);
    *refusal = why;
    *detail = error != 0 ? strerror(error) : NULL;
    return -1;
}

/* For -o FILE, which may hold a key:
 * - a new file is created mode 0600, whatever the umask;
 * - an existing regular file must be the user's own (even root does not
 *   write a key into a file another user owns and can read) with no other
 *   hard link (another name could be readable elsewhere); it is made 0600
 *   before it is emptied, so no one else can read what follows (a reader
 *   that opened it earlier still can: only a new name avoids that), which
 *   is why it is truncated with ftruncate after fchmod rather than by
 *   O_TRUNC, and a file refused is left as it was;
 * - anything else (/dev/null, a FIFO, a terminal) is used as it is if the
 *   user or the system (root) owns it: a FIFO another user planted would
 *   hand that user the key;
 * - a symbolic link at FILE is refused (O_NOFOLLOW): one planted in a shared
 *   directory such as /tmp could otherwise send the key to its maker or
 *   overwrite a file of the user's. Links earlier in the path are followed,
 *   and so are the system's links to a descriptor (is_descriptor_link);
 * - the input file (same_as) keeps its mode: see platform.h. */
void platform_file_id(int fd, struct platform_file_id *id)
{
    struct stat st;
    id->valid = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    id->device = id->valid ? (unsigned long long)st.st_dev : 0;
    id->index = id->valid ? (unsigned long long)st.st_ino : 0;
}

int platform_open_output(const char *path, const struct platform_file_id *same_as,
                         enum output_refusal *refusal, const char **detail)
{
    const int nofollow = is_descriptor_link(path) ? 0 : O_NOFOLLOW;
    const int flags = O_WRONLY | O_CREAT | nofollow | O_CLOEXEC;
    /* O_NONBLOCK first: a FIFO with no reader yet answers ENXIO at once
     * instead of blocking, so another user's is refused before any wait. */
    int fd = open(path, flags | O_NONBLOCK, 0600);
    if (fd < 0 && errno == ENXIO) {
        struct stat st;
        if (stat(path, &st) == 0 && st.st_uid != geteuid() && st.st_uid != 0)
            return refuse(-1, OUTPUT_OTHER_USER, 0, refusal, detail);
        fd = open(path, flags, 0600); /* checked again below, once open */
    } else if (fd >= 0) {
        (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }
    if (fd < 0) {
        const int error = errno;
        struct stat st;
        if (error == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
            return refuse(-1, OUTPUT_SYMBOLIC_LINK, 0, refusal, detail);
        return refuse(-1, OUTPUT_CANNOT_OPEN, error, refusal, detail);
    }
    struct stat st;
    if (fstat(fd, &st) != 0)
        return refuse(fd, OUTPUT_CANNOT_OPEN, errno, refusal, detail);
    if (!S_ISREG(st.st_mode) && st.st_uid != geteuid() && st.st_uid != 0)
        return refuse(fd, OUTPUT_OTHER_USER, 0, refusal, detail);
    if (S_ISREG(st.st_mode)) {
        if (st.st_uid != geteuid())
            return refuse(fd, OUTPUT_OTHER_USER, 0, refusal, detail);
        if (st.st_nlink > 1)
            return refuse(fd, OUTPUT_HARD_LINKS, 0, refusal, detail);
        const int input = same_as != NULL && same_as->valid &&
                          same_as->device == (unsigned long long)st.st_dev &&
                          same_as->index == (unsigned long long)st.st_ino;
        if (!input && (st.st_mode & 07777) != 0600 && fchmod(fd, 0600) != 0)
            return refuse(fd, OUTPUT_CANNOT_RESTRICT, errno, refusal, detail);
        if (ftruncate(fd, 0) != 0)
            return refuse(fd, OUTPUT_CANNOT_TRUNCATE, errno, refusal, detail);
    }
    return fd;
}

/* A pipe's default 64 KiB buffer makes the writer and the reader take turns
 * in small steps; 1 MiB (the unprivileged maximum) lets each side run
 * longer. */
void platform_grow_pipe(int fd)
{
#if defined(F_SETPIPE_SZ)
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
        (void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
    (void)fd;
#endif
}

void platform_exit_if_reader_gone(int fd) { (void)fd; }
