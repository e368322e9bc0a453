/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * shakerand: the command-line front end's entry. Everything else is in
 * cli.c (the table of commands), cmd_*.c (one file per command) and the
 * shared files cli.h declares; what differs between systems is in
 * platform.h. Exit status: 0 success, 1 runtime error, 2 usage error.
 */
#include "cli.h"
#include "platform.h"

int main(int argc, char **argv)
{
    platform_init();
    cli_stdout_buffer();
    return cli_main(argc, argv, NULL);
}
