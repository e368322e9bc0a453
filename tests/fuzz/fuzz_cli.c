/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The command-line front end in-process: the input is split at NUL bytes
 * into arguments after "shakerand" (so the fuzzer reaches option parsing,
 * sizes, counts, seed and bound hex), and cli_main runs them as main would.
 * The commands return their status (none calls exit), so the CLI is built
 * as it ships; cli_main's limits cap what a run writes, keep it off
 * standard input and read files only so far. Sanitizer findings (leaks
 * included: every path frees what it took), and statuses other than 0, 1
 * and 2, abort. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum { MAX_ARGS = 12, MAX_INPUT = 512 };

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    /* Output goes nowhere, again each time: a run with -o FILE leaves
     * descriptor 1 on FILE, closed. Files from -o land in the cwd. */
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0 && null != STDOUT_FILENO) {
        dup2(null, STDOUT_FILENO);
        close(null);
    }
    if (size > MAX_INPUT)
        return 0;
    static char text[MAX_INPUT + 1];
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"shakerand"};
    int argc = 1;
    for (size_t i = 0; i <= size && argc <= MAX_ARGS; argc++) {
        argv[argc] = text + i;
        i += strlen(text + i) + 1;
    }
    argv[argc] = NULL;
    static const struct cli_limits limits = {4096, 4096, 1};
    const int status = cli_main(argc, argv, &limits);
    fflush(stdout);
    clearerr(stdout);
    /* 0 success, 1 runtime, 2 usage: nothing else. */
    if (status < 0 || status > 2)
        abort();
    return 0;
}
