/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Where the commands draw from: see cli.h. */
#define _GNU_SOURCE
#include <stdint.h>

#include "cli.h"

int cli_generator(const char *seed_arg, const char *command, shakerand_engine **out)
{
    static shakerand_engine engine;
    *out = NULL;
    if (seed_arg == NULL) {
        const int status = shakerand_system_init();
        return status == SHAKERAND_OK ? 0
                                      : cli_fail_status("cannot seed the system generator", status);
    }
    uint8_t *seed;
    size_t seed_len;
    const char *why = NULL;
    int status = cli_parse_hex(seed_arg, &seed, &seed_len, &why);
    if (status == EXIT_USAGE)
        return cli_fail(EXIT_USAGE, "%s: seed %s", command, why);
    if (status != 0)
        return status;
    status = shakerand_engine_init(&engine, SHAKERAND_TURBOSHAKE256, seed, seed_len);
    cli_wipe_free(seed, seed_len);
    if (status != SHAKERAND_OK)
        return cli_fail_status("cannot seed the engine", status);
    *out = &engine;
    return 0;
}

void cli_generator_wipe(shakerand_engine *engine)
{
    if (engine != NULL)
        shakerand_engine_wipe(engine);
}

uint64_t cli_draw_below(shakerand_engine *engine, uint64_t n)
{
    uint64_t value = 0;
    /* Fails only for n == 0, which no caller passes. */
    if (n > 1 && shakerand_uniform_u64(engine, n, &value) != SHAKERAND_OK)
        value = 0;
    return value;
}

const char *cli_kind_choice(size_t i)
{
    return i < shakerand_kind_count() ? shakerand_kind_name(shakerand_kind_at(i)) : NULL;
}
