/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The table of commands and cli_main, which runs one (see cli.h). A new
 * command is a file cmd_NAME.c defining its struct cli_command, a line in
 * cli_commands below and in cli/sources.txt, its section of the man page,
 * and the completion scripts written again from the tables
 * (shakerand --generate-completion SHELL; tests/python/test_cli_docs.py
 * checks all of them against --help).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

extern const struct cli_command cli_bytes, cli_int, cli_token, cli_password, cli_shuffle, cli_pick,
    cli_uuid, cli_sources;

const struct cli_command *const cli_commands[] = {
    &cli_bytes, &cli_int,  &cli_token,   &cli_password, &cli_shuffle,
    &cli_pick,  &cli_uuid, &cli_sources, NULL,
};

/* shakerand's own options, before a command. */
static const struct cli_option own_options[] = {
    {CLI_HELP, 'h', "help", NULL, "show this help ('shakerand COMMAND --help' for a command)",
     COMPLETE_NOTHING, NULL, NULL, "show the help"},
    {'V', 'V', "version", NULL, "show the version and the kernel in use", COMPLETE_NOTHING, NULL,
     NULL, "show the version"},
    CLI_OPTION_END,
};
const struct cli_option *const cli_own_options = own_options;

static const struct cli_command main_command = {
    "",
    NULL,
    "Usage: shakerand COMMAND [OPTIONS]\n"
    "\n"
    "Cryptographically secure random numbers from Keccak and ChaCha8.\n"
    "\n",
    NULL,
    own_options,
    0,
    NULL,
    COMPLETE_NOTHING,
    NULL,
};

static void print_main_help(void)
{
    size_t width = 0;
    for (size_t i = 0; cli_commands[i] != NULL; i++)
        width = strlen(cli_commands[i]->name) > width ? strlen(cli_commands[i]->name) : width;
    struct cli_command help = main_command;
    help.usage = "Options:\n";
    fputs(main_command.usage, stdout);
    fputs("Commands:\n", stdout);
    for (size_t i = 0; cli_commands[i] != NULL; i++)
        printf("  %-*s  %s\n", (int)width, cli_commands[i]->name, cli_commands[i]->summary);
    putchar('\n');
    cli_print_help(&help);
}

struct cli_limits cli_limits = {UINT64_MAX, SIZE_MAX, 0};

uint64_t cli_cap(uint64_t n) { return n < cli_limits.max_count ? n : cli_limits.max_count; }

static int run_command(const struct cli_command *command, int argc, char **argv)
{
    struct cli_args args;
    int status = cli_parse(command, argc, argv, &args);
    if (status < 0)
        status = command->run(&args);
    cli_args_free(&args);
    return status;
}

static const struct cli_command *command_named(const char *name)
{
    for (size_t i = 0; cli_commands[i] != NULL; i++)
        if (strcmp(name, cli_commands[i]->name) == 0)
            return cli_commands[i];
    return NULL;
}

/* --help and --version take nothing after them: "shakerand --version x"
 * is a mistake, not a request for the version. argv[2] is the first
 * argument after argv[1], which is one of them. */
static int extra_argument(char **argv)
{
    const int help = strcmp(argv[1], "--version") != 0 && strcmp(argv[1], "-V") != 0;
    if (help && command_named(argv[2]) != NULL)
        return cli_fail(EXIT_USAGE,
                        "unexpected argument '%s' after '%s' (for its help: '%s %s --help')",
                        argv[2], argv[1], cli_program, argv[2]);
    return cli_fail(EXIT_USAGE, "unexpected argument '%s' after '%s' (see '%s --help')", argv[2],
                    argv[1], cli_program);
}

int cli_main(int argc, char **argv, const struct cli_limits *limits)
{
    static const struct cli_limits none = {UINT64_MAX, SIZE_MAX, 0};
    cli_limits = limits != NULL ? *limits : none;
    cli_output_reset();
    if (argc < 2)
        return cli_fail(EXIT_USAGE, "missing command (see 'shakerand --help')");
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
        strcmp(command, "help") == 0) {
        if (argc > 2)
            return extra_argument(argv);
        print_main_help();
        return cli_flush_stdout();
    }
    if (strcmp(command, "--version") == 0 || strcmp(command, "-V") == 0) {
        if (argc > 2)
            return extra_argument(argv);
        printf("shakerand %s (kernel %s)\n", shakerand_version(), shakerand_kernel_name());
        return cli_flush_stdout();
    }
    /* Not in --help: for writing cli/completions/ from the tables. */
    if (strcmp(command, "--generate-completion") == 0) {
        if (argc != 3)
            return cli_fail(EXIT_USAGE, "--generate-completion takes one of bash, zsh or fish");
        const int status = cli_completion_script(argv[2]);
        return status != 0 ? status : cli_flush_stdout();
    }
    const struct cli_command *named = command_named(command);
    if (named != NULL)
        return run_command(named, argc - 1, argv + 1);
    if (command[0] == '-') {
        /* "-help" as openssl spells it, "--vers" abbreviated: named, not run. */
        const char *name = command + 1 + (command[1] == '-');
        const size_t len = strcspn(name, "=");
        char meant[64];
        if ((len >= 2 || (len == 1 && name != command + 1)) &&
            cli_options_spelled(name, len, own_options, meant, sizeof meant) > 0)
            return cli_fail(EXIT_USAGE, "unknown option '%.*s'; did you mean %s?",
                            (int)(name - command + len), command, meant);
        return cli_fail(EXIT_USAGE, "unknown option '%s' (see 'shakerand --help')", command);
    }
    return cli_fail(EXIT_USAGE, "unknown command '%s' (see 'shakerand --help')", command);
}
