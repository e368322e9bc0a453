/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* shakerand bytes: random bytes, raw or as text (like openssl rand). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "platform.h"

/* How bytes writes: raw, or text; also the options' ids. */
enum { RAW = 0, HEX = 1000, BASE64 };

static const struct cli_option options[] = {
    {'n', 'n', "size", "SIZE", "SIZE as an option: 'bytes -n 32' is 'bytes 32'", COMPLETE_NOTHING,
     NULL, NULL, "number of bytes (K, M, G, T suffixes)"},
    {HEX, 0, "hex", NULL, "lower-case hexadecimal on one line (like openssl rand -hex)",
     COMPLETE_NOTHING, NULL, "base64", NULL},
    {BASE64, 0, "base64", NULL, "base64 in lines of 64 characters (like openssl rand -base64)",
     COMPLETE_NOTHING, NULL, NULL, NULL},
    /* The engines, listed from the core's table. */
    {'e', 'e', "engine", "ENGINE", NULL, COMPLETE_CHOICE, cli_kind_choice, NULL, "engine"},
    {'s', 's', "seed", "HEX",
     "seed the engine (default turboshake256) with these\n"
     "bytes for a reproducible stream ('' is the empty seed)",
     COMPLETE_NOTHING, NULL, NULL, "seed in hex, for a reproducible stream"},
    {'o', 'o', "output", "FILE",
     "write to FILE instead of standard output; a regular\n"
     "FILE, new or existing, is made mode 0600 (owner only),\n"
     "and a symbolic link, another user's file or FIFO,\n"
     "or a file with other hard links is refused\n"
     "(/dev/stdout and /dev/fd/N are followed)",
     COMPLETE_FILE, NULL, NULL, "write to FILE, mode 0600"},
    CLI_OPTION_HELP,
    CLI_OPTION_END,
};

/* A text chunk is whole base64 lines (48 bytes each) so that lines can be
 * cut chunk by chunk. */
enum { RAW_CHUNK = 1 << 20, TEXT_CHUNK = 48 << 14, BASE64_LINE = 48 };

/* Encodes n bytes of a text chunk into text; the last chunk adds the final
 * line end. Returns the text's length. */
static size_t bytes_text(int format, const uint8_t *buf, size_t n, char *text, int last)
{
    size_t len = 0;
    if (format == HEX) {
        len = cli_encode_hex(buf, n, text);
        if (last)
            text[len++] = '\n';
        return len;
    }
    for (size_t i = 0; i < n; i += BASE64_LINE) {
        const size_t line = n - i < BASE64_LINE ? n - i : BASE64_LINE;
        len += cli_encode_base64(buf + i, line, text + len, cli_base64_standard, 1);
        text[len++] = '\n';
    }
    return len;
}

static int run(const struct cli_args *args)
{
    const char *size_arg = NULL, *seed_arg = NULL, *output = NULL, *engine_arg = NULL;
    shakerand_kind kind = SHAKERAND_TURBOSHAKE256;
    int format = RAW;
    for (size_t i = 0; i < args->n_given; i++) {
        const char *value = args->given[i].value;
        switch (args->given[i].option->id) {
            case 'n': size_arg = value; break;
            case HEX:
            case BASE64: format = args->given[i].option->id; break;
            case 's': seed_arg = value; break;
            case 'o': output = value; break;
            case 'e':
                engine_arg = value;
                if (shakerand_kind_from_name(value, &kind) != SHAKERAND_OK) {
                    char kinds[256];
                    cli_choice_list(&options[3], kinds, sizeof kinds);
                    return cli_fail(EXIT_USAGE, "bytes: unknown engine '%s' (%s)", value, kinds);
                }
                break;
        }
    }
    /* SIZE, or -n SIZE as before SIZE could be an operand. */
    int status = cli_no_operands("bytes", args, size_arg != NULL ? 0 : 1);
    if (status != 0)
        return status;
    if (size_arg == NULL && args->n_operands == 1)
        size_arg = args->operands[0];
    if (size_arg == NULL)
        return cli_fail(EXIT_USAGE, "bytes: missing SIZE (see 'shakerand bytes --help')");
    uint64_t size;
    if (cli_parse_size(size_arg, &size) != 0)
        return cli_fail(EXIT_USAGE,
                        "bytes: invalid size '%s' (a whole number, optionally with K, M, G or T)",
                        size_arg);
    size = cli_cap(size);

    /* --seed: the engine's deterministic stream. --engine alone: that
     * engine seeded from the entropy sources. Neither: the system
     * generator. */
    uint8_t *seed = NULL;
    size_t seed_len = 0;
    if (seed_arg != NULL) {
        const char *why = NULL;
        status = cli_parse_hex(seed_arg, &seed, &seed_len, &why);
        if (status == EXIT_USAGE)
            return cli_fail(EXIT_USAGE, "bytes: seed %s", why);
        if (status != 0)
            return status;
        const size_t seed_size = shakerand_kind_seed_size(kind);
        if (seed_size != 0 && seed_len != seed_size) {
            cli_wipe_free(seed, seed_len);
            return cli_fail(EXIT_USAGE,
                            "bytes: a %s seed is exactly %zu bytes (%zu hex digits), not %zu",
                            shakerand_kind_name(kind), seed_size, 2 * seed_size, seed_len);
        }
    } else if (engine_arg != NULL) {
        /* 64 bytes where any length goes: twice the 256-bit security level. */
        seed_len = shakerand_kind_seed_size(kind) != 0 ? shakerand_kind_seed_size(kind) : 64;
        if ((seed = malloc(seed_len)) == NULL)
            return cli_out_of_memory();
        const int got = shakerand_entropy(seed, seed_len);
        if (got != SHAKERAND_OK) {
            cli_wipe_free(seed, seed_len);
            return cli_fail_status("cannot seed the engine", got);
        }
    } else {
        const int got = shakerand_system_init();
        if (got != SHAKERAND_OK)
            return cli_fail_status("cannot seed the system generator", got);
    }

    static shakerand_engine engine;
    const size_t chunk = format == RAW ? RAW_CHUNK : TEXT_CHUNK;
    /* Hex doubles the size; base64 adds a third and a line end per line. */
    const size_t text_size = format == RAW ? 0 : 2 * chunk + 1;
    uint8_t *buf = NULL;
    char *text = NULL;
    int fd = STDOUT_FILENO;
    const char *name = "standard output";
    if (output != NULL) {
        if ((status = cli_open_output(output, NULL, &fd)) != 0)
            goto out;
        name = output;
    }
    platform_grow_pipe(fd);
    if (seed != NULL) {
        const int seeded = shakerand_engine_init(&engine, kind, seed, seed_len);
        cli_wipe_free(seed, seed_len);
        seed = NULL;
        if (seeded != SHAKERAND_OK) {
            status = cli_fail_status("cannot seed the engine", seeded);
            goto out;
        }
    }
    buf = malloc(chunk);
    text = format == RAW ? NULL : malloc(text_size);
    if (buf == NULL || (format != RAW && text == NULL)) {
        status = cli_out_of_memory();
        goto out;
    }
    struct cli_progress progress;
    cli_progress_start(&progress, size);
    for (uint64_t done = 0; done < size && status == 0;) {
        const size_t n = size - done < chunk ? (size_t)(size - done) : chunk;
        if (seed_arg != NULL || engine_arg != NULL)
            shakerand_engine_fill(&engine, buf, n);
        else
            shakerand_system_fill(buf, n);
        done += n;
        if (format == RAW)
            status = cli_write_all(fd, buf, n, name);
        else
            status = cli_write_all(fd, text, bytes_text(format, buf, n, text, done == size), name);
        cli_progress_update(&progress, done);
    }
    if (status == 0 && format == HEX && size == 0)
        status = cli_write_all(fd, "\n", 1, name); /* an empty line, as for any size */
    cli_progress_finish(&progress);
out:
    shakerand_engine_wipe(&engine);
    cli_wipe_free(seed, seed_len);
    cli_wipe_free(buf, chunk);
    cli_wipe_free(text, text_size);
    if (output != NULL && fd >= 0 && close(fd) != 0 && status == 0)
        status = cli_fail(EXIT_RUNTIME, "write error on %s: %s", name, strerror(errno));
    return status;
}

const struct cli_command cli_bytes = {
    "bytes",
    "random bytes, raw, hex or base64 (like openssl rand)",
    "Usage: shakerand bytes SIZE [--hex | --base64] [--engine ENGINE] [--seed HEX]\n"
    "                       [-o FILE]\n"
    "       shakerand bytes -n SIZE [OPTIONS]\n"
    "\n"
    "Write SIZE random bytes to standard output or FILE, raw or as text (like\n"
    "openssl rand -hex SIZE). SIZE is a whole number; the suffixes K, M, G and T\n"
    "are powers of 1024.\n"
    "\n",
    "\n"
    "Without --seed the bytes come from the system generator (chacha8rand unless\n"
    "SHAKERAND_SYSTEM_ENGINE says turboshake256x8, seeded from the operating\n"
    "system mixed with the CPU's random instructions),\n"
    "or with --engine from that engine seeded the same way. On a terminal, long\n"
    "runs show their progress on standard error.\n",
    options,
    CLI_NUMERIC_OPERANDS, /* "bytes -5": an invalid SIZE */
    "size",
    COMPLETE_NOTHING,
    run,
};
