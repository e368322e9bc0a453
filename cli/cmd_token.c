/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* shakerand token: random tokens, URL-safe base64, hex or base32. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

enum { OPT_HEX = 1000, OPT_BASE32 };

static const struct cli_option options[] = {
    {'b', 'b', "bytes", "N", "random bytes per token, 1 to 1048576 (default 32)", COMPLETE_NOTHING,
     NULL, NULL, NULL},
    {OPT_HEX, 0, "hex", NULL, "lower-case hexadecimal instead", COMPLETE_NOTHING, NULL, "base32",
     "lower-case hexadecimal"},
    {OPT_BASE32, 0, "base32", NULL, "base32 (RFC 4648 section 6, upper case) without padding",
     COMPLETE_NOTHING, NULL, NULL, "base32 without padding"},
    {'n', 'n', "count", "N", "how many (default 1)", COMPLETE_NOTHING, NULL, NULL, NULL},
    CLI_OPTION_HELP,
    CLI_OPTION_END,
};

static int run(const struct cli_args *args)
{
    uint64_t size = 32, count = 1;
    int format = 0;
    for (size_t i = 0; i < args->n_given; i++) {
        const char *value = args->given[i].value;
        switch (args->given[i].option->id) {
            case 'b':
                if (cli_parse_limited(value, 1, 1 << 20, &size) != 0)
                    return cli_fail(
                        EXIT_USAGE,
                        "token: invalid size '%s' (a whole number of bytes, 1 to 1048576)", value);
                break;
            case 'n':
                if (cli_parse_count(value, &count) != 0)
                    return cli_fail(EXIT_USAGE, "token: invalid count '%s' (a whole number)",
                                    value);
                break;
            case OPT_HEX:
            case OPT_BASE32: format = args->given[i].option->id; break;
        }
    }
    int status = cli_no_operands("token", args, 0);
    if (status != 0)
        return status;
    count = cli_cap(count);
    shakerand_engine *engine;
    if ((status = cli_generator(NULL, "token", &engine)) != 0)
        return status;
    uint8_t *raw = malloc(size);
    char *text = malloc(2 * size + 1); /* hex is the longest */
    if (raw == NULL || text == NULL) {
        status = cli_out_of_memory();
        goto out;
    }
    for (uint64_t i = 0; i < count; i++) {
        shakerand_system_fill(raw, size);
        size_t n = format == OPT_HEX      ? cli_encode_hex(raw, size, text)
                   : format == OPT_BASE32 ? cli_encode_base32(raw, size, text)
                                          : cli_encode_base64(raw, size, text, cli_base64_url, 0);
        text[n++] = '\n';
        fwrite(text, 1, n, stdout);
    }
    status = cli_flush_stdout();
out:
    cli_wipe_free(raw, size);
    cli_wipe_free(text, 2 * size + 1);
    return status;
}

const struct cli_command cli_token = {
    "token",
    "random tokens: URL-safe base64, hex or base32",
    "Usage: shakerand token [--bytes N] [--hex | --base32] [-n N]\n"
    "\n"
    "Print N random tokens, one per line, from the system generator: by default\n"
    "32 bytes as URL-safe base64 without padding (RFC 4648 section 5), 43\n"
    "characters, for session keys, API keys and the like.\n"
    "\n",
    NULL,
    options,
    0,
    NULL,
    COMPLETE_NOTHING,
    run,
};
