/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* pthread_atfork failing (ENOMEM) when the entropy layer installs its lock's
 * fork handlers: seeding returns SHAKERAND_ENOMEM and the report says the
 * sources were not checked, instead of going on without the handlers. This
 * program's own pthread_atfork takes the place of libc's (static link). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shakerand.h"

static int calls;

int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
    (void)prepare;
    (void)parent;
    (void)child;
    calls++;
    return ENOMEM;
}

int main(void)
{
    unsigned char out[32];
    int failed = 0;
    if (shakerand_entropy(out, sizeof out) != SHAKERAND_ENOMEM) {
        puts("FAIL: shakerand_entropy did not return SHAKERAND_ENOMEM");
        failed = 1;
    }
    if (shakerand_system_reseed() == SHAKERAND_OK) {
        puts("FAIL: the system generator was seeded without fork handlers");
        failed = 1;
    }
    shakerand_source_info os;
    if (shakerand_sources(&os, 1) < 1 || os.used || os.reason == NULL) {
        puts("FAIL: the report shows the OS source used");
        failed = 1;
    }
    if (calls == 0) {
        puts("FAIL: the library's pthread_atfork call did not reach this one");
        failed = 1;
    }
    if (!failed)
        printf("passed (%s)\n", os.reason);
    return failed;
}
