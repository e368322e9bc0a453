/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * A process's first draw is an inlined one (SHAKERAND_INLINE_SYSTEM), and a
 * signal lands while it sets the library up; the handler draws. The handler
 * must be served (by the operating system: its thread is inside the
 * generator), not wait for the setup it interrupted. The signal is raised
 * from the setup itself: it reads SHAKERAND_SYSTEM_ENGINE, and getenv is
 * this program's. Exit 0 when the handler drew and the first draw returned;
 * a hang is ended by alarm (a failure).
 */
#define _POSIX_C_SOURCE 200809L
#define SHAKERAND_INLINE_SYSTEM 1
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <shakerand.h>

static volatile sig_atomic_t handler_drew, raised;

static void draw_in_handler(int sig)
{
    (void)sig;
    (void)shakerand_system_u64();
    handler_drew = 1;
}

/* Stands in for the C library's: every variable unset, and the system
 * generator's setup interrupted by a signal the first time it asks. */
char *getenv(const char *name)
{
    if (!raised && strcmp(name, "SHAKERAND_SYSTEM_ENGINE") == 0) {
        raised = 1;
        raise(SIGUSR1);
    }
    return NULL;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = draw_in_handler;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) != 0)
        return 1;
    alarm(30);
    const uint64_t a = shakerand_system_u64_inline(), b = shakerand_system_u64_inline();
    if (!raised) {
        fprintf(stderr, "inline_first_use: the setup never asked for SHAKERAND_SYSTEM_ENGINE\n");
        return 1;
    }
    if (!handler_drew || a == b) {
        fprintf(stderr, "inline_first_use: handler drew %d, words %s\n", (int)handler_drew,
                a == b ? "equal" : "distinct");
        return 1;
    }
    return 0;
}
