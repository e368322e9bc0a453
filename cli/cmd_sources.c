/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* shakerand sources: the entropy sources. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct cli_option options[] = {
    {'j', 'j', "json", NULL, "one JSON object instead of a table", COMPLETE_NOTHING, NULL, NULL,
     "one JSON object"},
    CLI_OPTION_HELP,
    CLI_OPTION_END,
};

static void json_string(const char *s)
{
    if (s == NULL) {
        fputs("null", stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}

static int run(const struct cli_args *args)
{
    int json = 0;
    for (size_t i = 0; i < args->n_given; i++)
        json |= args->given[i].option->id == 'j';
    int status = cli_no_operands("sources", args, 0);
    if (status != 0)
        return status;
    shakerand_source_info info[16];
    size_t n = shakerand_sources(info, 16);
    if (n > 16)
        n = 16;
    const unsigned long long reseed_failures = shakerand_system_reseed_failures();
    if (json) {
        printf("{\"kernel\":");
        json_string(shakerand_kernel_name());
        printf(",\"system_engine\":");
        json_string(shakerand_kind_name(shakerand_system_kind()));
        printf(",\"sources\":[");
        for (size_t i = 0; i < n; i++) {
            printf("%s{\"name\":", i ? "," : "");
            json_string(info[i].name);
            printf(",\"present\":%s,\"used\":%s", info[i].present ? "true" : "false",
                   info[i].used ? "true" : "false");
            if (strcmp(info[i].name, "os") == 0) {
                printf(",\"method\":");
                json_string(info[i].method);
            }
            printf(",\"reason\":");
            json_string(info[i].reason);
            putchar('}');
        }
        printf("],\"reseed_failures\":%llu}\n", reseed_failures);
    } else {
        printf("%-8s %-8s %-5s %s\n", "source", "present", "used", "note");
        for (size_t i = 0; i < n; i++)
            printf("%-8s %-8s %-5s %s\n", info[i].name, info[i].present ? "yes" : "no",
                   info[i].used ? "yes" : "no",
                   info[i].reason != NULL            ? info[i].reason
                   : strcmp(info[i].name, "os") == 0 ? info[i].method
                                                     : "");
        printf("\nsystem generator engine: %s\n", shakerand_kind_name(shakerand_system_kind()));
        printf("reseed failures in this process: %llu\n", reseed_failures);
    }
    if ((status = cli_flush_stdout()) != 0)
        return status;
    if (!info[0].used)
        return cli_fail(EXIT_RUNTIME, "the operating system's entropy source is not usable: %s",
                        info[0].reason != NULL ? info[0].reason : "unknown reason");
    return 0;
}

const struct cli_command cli_sources = {
    "sources",
    "report the entropy sources",
    "Usage: shakerand sources [--json]\n"
    "\n"
    "Report the entropy sources: which are present on this machine, which are\n"
    "mixed into seeds, and why any is not. The operating system's source is\n"
    "required; the CPU's random instructions are mixed in when present and\n"
    "healthy, never used alone. Also the number of automatic reseeds of the\n"
    "system generator that failed in this process.\n"
    "\n",
    NULL,
    options,
    0,
    NULL,
    COMPLETE_NOTHING,
    run,
};
