/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Errors, standard output and -o FILE: see cli.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "platform.h"

const char cli_program[] = "shakerand";

int cli_fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", cli_program);
    /* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): va_start is above */
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return status;
}

int cli_fail_status(const char *what, int status)
{
    return cli_fail(EXIT_RUNTIME, "%s: %s", what, shakerand_strerror(status));
}

int cli_out_of_memory(void) { return cli_fail(EXIT_RUNTIME, "out of memory"); }

static char stdout_buffer[BUFSIZ];

/* Where stdout goes: -o FILE replaces descriptor 1 (cli_redirect_stdout). */
static const char standard_output[] = "standard output";
static const char *stdout_name = standard_output;

void cli_stdout_buffer(void)
{
    setvbuf(stdout, stdout_buffer, platform_is_terminal(STDOUT_FILENO) ? _IOLBF : _IOFBF,
            sizeof stdout_buffer);
}

void cli_output_reset(void) { stdout_name = standard_output; }

int cli_flush_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        const int error = errno;
        platform_exit_if_reader_gone(STDOUT_FILENO);
        return cli_fail(EXIT_RUNTIME, "write error on %s: %s", stdout_name, strerror(error));
    }
    shakerand_memzero(stdout_buffer, sizeof stdout_buffer);
    return 0;
}

int cli_finish_stdout(void)
{
    const int status = cli_flush_stdout();
    if (status != 0 || stdout_name == standard_output)
        return status;
    if (close(STDOUT_FILENO) != 0)
        return cli_fail(EXIT_RUNTIME, "write error on %s: %s", stdout_name, strerror(errno));
    return 0;
}

int cli_write_all(int fd, const void *buf, size_t len, const char *name)
{
    const unsigned char *p = buf;
    while (len > 0) {
        const ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int error = errno;
            platform_exit_if_reader_gone(fd);
            return cli_fail(EXIT_RUNTIME, "write error on %s: %s", name, strerror(error));
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int cli_open_output(const char *path, const struct platform_file_id *same_as, int *fd)
{
    enum output_refusal refusal;
    const char *detail = NULL;
    *fd = platform_open_output(path, same_as, &refusal, &detail);
    if (*fd >= 0)
        return 0;
    switch (refusal) {
        case OUTPUT_SYMBOLIC_LINK:
            return cli_fail(EXIT_RUNTIME, "'%s' is a symbolic link: -o does not follow one", path);
        case OUTPUT_OTHER_USER:
            return cli_fail(EXIT_RUNTIME,
                            "'%s' belongs to another user: -o writes only to your own files", path);
        case OUTPUT_HARD_LINKS:
            return cli_fail(EXIT_RUNTIME,
                            "'%s' has other hard links: -o does not write through them", path);
        case OUTPUT_CANNOT_RESTRICT:
            return cli_fail(EXIT_RUNTIME, "cannot make '%s' %s: %s", path, platform_owner_only,
                            detail);
        case OUTPUT_CANNOT_TRUNCATE:
            return cli_fail(EXIT_RUNTIME, "cannot truncate '%s': %s", path, detail);
        case OUTPUT_CANNOT_OPEN: break;
    }
    return cli_fail(EXIT_RUNTIME, "cannot open '%s' for writing: %s", path, detail);
}

int cli_redirect_stdout(const char *path, const struct platform_file_id *same_as)
{
    int fd;
    const int status = cli_open_output(path, same_as, &fd);
    if (status != 0)
        return status;
    if (fd != STDOUT_FILENO) {
        if (dup2(fd, STDOUT_FILENO) < 0) {
            const int error = errno;
            close(fd);
            return cli_fail(EXIT_RUNTIME, "cannot open '%s' for writing: %s", path,
                            strerror(error));
        }
        close(fd);
    }
    stdout_name = path;
    return 0;
}
