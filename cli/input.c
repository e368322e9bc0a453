/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Reading files and standard input, and splitting lines: see cli.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "platform.h"

void cli_wipe_free(void *p, size_t len)
{
    if (p != NULL)
        shakerand_memzero(p, len);
    free(p);
}

int cli_read_all(const char *path, const char *command, char **out, size_t *len,
                 struct platform_file_id *id)
{
    const int use_stdin = path == NULL || strcmp(path, "-") == 0;
    const char *name = use_stdin ? "standard input" : path;
    int fd = STDIN_FILENO;
    if (!use_stdin && (fd = platform_open_input(path)) < 0)
        return cli_fail(EXIT_RUNTIME, "%s: cannot open '%s': %s", command, path, strerror(errno));
    size_t size = 0, capacity = 1 << 16;
    char *buf = malloc(capacity);
    int status = 0;
    if (buf == NULL) {
        status = cli_out_of_memory();
        goto done;
    }
    if (id != NULL)
        platform_file_id(fd, id);
    const size_t limit = use_stdin && cli_limits.no_stdin ? 0 : cli_limits.max_input;
    while (size < limit) {
        if (size == capacity) {
            char *bigger = capacity > SIZE_MAX / 2 ? NULL : malloc(capacity * 2);
            if (bigger == NULL) {
                status = cli_out_of_memory();
                goto done;
            }
            memcpy(bigger, buf, size);
            shakerand_memzero(buf, size);
            free(buf);
            buf = bigger;
            capacity *= 2;
        }
        size_t want = capacity - size;
        want = want < limit - size ? want : limit - size;
        const ssize_t n = platform_read(fd, buf + size, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            status =
                cli_fail(EXIT_RUNTIME, "%s: read error on %s: %s", command, name, strerror(errno));
            goto done;
        }
        if (n == 0)
            break;
        size += (size_t)n;
    }
done:
    if (!use_stdin)
        close(fd);
    if (status != 0) {
        cli_wipe_free(buf, size);
        return status;
    }
    *out = buf;
    *len = size;
    return 0;
}

int cli_split_lines(const char *buf, size_t len, char delimiter, struct cli_line **out,
                    size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += buf[i] == delimiter;
    if (len > 0 && buf[len - 1] != delimiter)
        n++;
    struct cli_line *lines = malloc((n ? n : 1) * sizeof *lines);
    if (lines == NULL)
        return cli_out_of_memory();
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len ? i > start : buf[i] == delimiter) {
            lines[k].text = buf + start;
            lines[k].len = i - start;
            k++;
            start = i + 1;
        }
    }
    *out = lines;
    *count = n;
    return 0;
}
