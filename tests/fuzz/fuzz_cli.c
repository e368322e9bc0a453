/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The command-line front end in-process: the input is split at NUL bytes
 * into arguments after "shakerand" (so the fuzzer reaches option parsing,
 * sizes, counts, seed and bound hex). Exits come back here by longjmp; the
 * CLI is built with SHAKERAND_CLI_FUZZ, which also caps output sizes.
 * Sanitizer findings and wrong exit statuses abort. */
#include <fcntl.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int shakerand_cli_main(int argc, char **argv);

/* Exits by longjmp skip the CLI's frees: leaks here are the harness's. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

static jmp_buf back;
static volatile int exit_status;

_Noreturn void shakerand_cli_fuzz_exit(int status)
{
    exit_status = status;
    longjmp(back, 1);
}

enum { MAX_ARGS = 12, MAX_INPUT = 512 };

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static int quiet;
    if (!quiet) { /* output goes nowhere; files from -o land in the cwd */
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        close(null);
        quiet = 1;
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
    optind = 0; /* glibc: a full getopt reset */
    exit_status = -1;
    int status;
    if (setjmp(back) == 0)
        status = shakerand_cli_main(argc, argv);
    else
        status = exit_status;
    fflush(stdout);
    clearerr(stdout);
    /* 0 success, 1 runtime, 2 usage: nothing else. */
    if (status < 0 || status > 2)
        abort();
    return 0;
}
