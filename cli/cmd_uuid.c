/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* shakerand uuid: UUIDs (like uuidgen). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OPT_V7 = 1000, OPT_UPPER, OPT_BINARY, OPT_SHA1, OPT_NAMESPACE, OPT_NAME };

/* RFC 9562's namespaces, by util-linux uuidgen's names. */
static const struct namespace {
    const char *name;
    uint8_t uuid[16];
} namespaces[] = {
    {"@dns",
     {0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30,
      0xc8}},
    {"@url",
     {0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30,
      0xc8}},
    {"@oid",
     {0x6b, 0xa7, 0xb8, 0x12, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30,
      0xc8}},
    {"@x500",
     {0x6b, 0xa7, 0xb8, 0x14, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30,
      0xc8}},
};

static const char *namespace_choice(size_t i)
{
    return i < sizeof namespaces / sizeof *namespaces ? namespaces[i].name : NULL;
}

static const struct cli_option options[] = {
    {'n', 'n', "count", "N", "how many (default 1)", COMPLETE_NOTHING, NULL, NULL, NULL},
    {'r', 'r', "random", NULL, "version 4, random: the default (like uuidgen -r)", COMPLETE_NOTHING,
     NULL, "time v7 sha1", "version 4, random"},
    {'t', 't', "time", NULL,
     "version 7: Unix time in milliseconds, then random;\n"
     "increasing within one run (uuidgen -t makes version 1)",
     COMPLETE_NOTHING, NULL, "sha1", "version 7, time-ordered"},
    {OPT_V7, 0, "v7", NULL, "the same as --time", COMPLETE_NOTHING, NULL, "sha1",
     "version 7, time-ordered"},
    {OPT_SHA1, 0, "sha1", NULL,
     "version 5: from the SHA-1 hash of a namespace and a\n"
     "name (--namespace, --name), the same UUID for the same\n"
     "two (like uuidgen --sha1)",
     COMPLETE_NOTHING, NULL, "count", "version 5, from a namespace and a name"},
    {OPT_NAMESPACE, 0, "namespace", "NS", "for --sha1: @dns, @url, @oid, @x500 or a UUID",
     COMPLETE_CHOICE, namespace_choice, NULL, "for --sha1: the namespace"},
    {OPT_NAME, 0, "name", "NAME", "for --sha1: the name, its bytes as given", COMPLETE_NOTHING,
     NULL, NULL, "for --sha1: the name"},
    {OPT_UPPER, 0, "upper", NULL, "upper-case hexadecimal digits", COMPLETE_NOTHING, NULL, "binary",
     NULL},
    {OPT_BINARY, 0, "binary", NULL, "write the 16-byte binary form instead of text",
     COMPLETE_NOTHING, NULL, NULL, "16-byte binary form"},
    CLI_OPTION_HELP,
    CLI_OPTION_END,
};

/* A namespace by name, or a UUID in the canonical form (either case). */
static int parse_namespace(const char *s, uint8_t out[16])
{
    for (size_t i = 0; i < sizeof namespaces / sizeof *namespaces; i++) {
        if (strcmp(s, namespaces[i].name) == 0) {
            memcpy(out, namespaces[i].uuid, 16);
            return 0;
        }
    }
    if (strlen(s) != 36)
        return -1;
    for (size_t i = 0, k = 0; i < 36; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-')
                return -1;
            continue;
        }
        const int hi = cli_hex_value(s[i]), lo = cli_hex_value(s[i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[k++] = (uint8_t)(hi << 4 | lo);
        i++;
    }
    return 0;
}

/* Version 5 (RFC 9562 section 5.5): SHA-1 of the namespace and the name,
 * cut to 16 bytes, with the version and the variant set. 0, or
 * EXIT_RUNTIME for no memory. */
static int uuid5(const uint8_t ns[16], const char *name, uint8_t u[16])
{
    const size_t len = strlen(name);
    uint8_t *data = malloc(16 + len + 1), hash[20];
    if (data == NULL)
        return cli_out_of_memory();
    memcpy(data, ns, 16);
    memcpy(data + 16, name, len + 1); /* the NUL too, not hashed */
    cli_sha1(data, 16 + len, hash);
    free(data);
    memcpy(u, hash, 16);
    u[6] = (uint8_t)(0x50 | (u[6] & 0x0F));
    u[8] = (uint8_t)(0x80 | (u[8] & 0x3F));
    return 0;
}

static int run(const struct cli_args *args)
{
    uint64_t count = 1;
    int v7 = 0, sha1 = 0, binary = 0, upper = 0;
    const char *namespace_arg = NULL, *name = NULL;
    for (size_t i = 0; i < args->n_given; i++) {
        const char *value = args->given[i].value;
        switch (args->given[i].option->id) {
            case 'n':
                if (cli_parse_count(value, &count) != 0)
                    return cli_fail(EXIT_USAGE, "uuid: invalid count '%s' (a whole number)", value);
                break;
            case 't':
            case OPT_V7: v7 = 1; break;
            case OPT_SHA1: sha1 = 1; break;
            case OPT_NAMESPACE: namespace_arg = value; break;
            case OPT_NAME: name = value; break;
            case OPT_BINARY: binary = 1; break;
            case OPT_UPPER: upper = 1; break;
        }
    }
    int status = cli_no_operands("uuid", args, 0);
    if (status != 0)
        return status;
    uint8_t ns[16];
    if (!sha1 && (namespace_arg != NULL || name != NULL))
        return cli_fail(EXIT_USAGE, "uuid: --namespace and --name are for --sha1");
    if (sha1 && (namespace_arg == NULL || name == NULL))
        return cli_fail(EXIT_USAGE, "uuid: --sha1 needs --namespace and --name");
    if (sha1 && parse_namespace(namespace_arg, ns) != 0)
        return cli_fail(EXIT_USAGE,
                        "uuid: invalid namespace '%s' (@dns, @url, @oid, @x500 or a UUID such "
                        "as 6ba7b810-9dad-11d1-80b4-00c04fd430c8)",
                        namespace_arg);
    count = cli_cap(count);
    if (!sha1) {
        const int seeded = shakerand_system_init();
        if (seeded != SHAKERAND_OK)
            return cli_fail_status("cannot seed the system generator", seeded);
    }
    uint8_t u[16];
    char text[SHAKERAND_UUID_STRING_SIZE];
    for (uint64_t i = 0; i < count; i++) {
        if (sha1 && (status = uuid5(ns, name, u)) != 0)
            return status;
        else if (!sha1 && v7)
            shakerand_uuid7(NULL, u);
        else if (!sha1)
            shakerand_uuid4(NULL, u);
        if (binary) {
            fwrite(u, 1, sizeof u, stdout);
            continue;
        }
        shakerand_uuid_format(u, text);
        /* 'a'-'f' to 'A'-'F' without a branch on the digits. */
        for (size_t k = 0; upper && k < SHAKERAND_UUID_STRING_SIZE - 1; k++)
            text[k] =
                (char)(text[k] - (((unsigned)'`' - (unsigned)(unsigned char)text[k]) >> 8 & 0x20));
        text[SHAKERAND_UUID_STRING_SIZE - 1] = '\n';
        fwrite(text, 1, SHAKERAND_UUID_STRING_SIZE, stdout);
    }
    status = cli_flush_stdout();
    shakerand_memzero(u, sizeof u);
    shakerand_memzero(text, sizeof text);
    return status;
}

const struct cli_command cli_uuid = {
    "uuid",
    "UUIDs, version 4, 7 or 5 (like uuidgen)",
    "Usage: shakerand uuid [-n N] [-r | -t] [--upper | --binary]\n"
    "       shakerand uuid --sha1 --namespace NS --name NAME [--upper | --binary]\n"
    "\n"
    "Print N UUIDs (RFC 9562), one per line: random ones (version 4) or\n"
    "time-ordered ones (version 7) from the system generator, or the name-based\n"
    "one (version 5) of a namespace and a name.\n"
    "\n",
    NULL,
    options,
    0,
    NULL,
    COMPLETE_NOTHING,
    run,
};
