/* Private declarations shared by the library's translation units. */
#ifndef SHAKERAND_INTERNAL_H
#define SHAKERAND_INTERNAL_H

#include "shakerand.h"

#if defined(__GNUC__)
#define SHAKERAND_NORETURN __attribute__((noreturn))
#else
#define SHAKERAND_NORETURN _Noreturn
#endif

/* Unrecoverable misuse: print one line and abort. */
SHAKERAND_NORETURN void shakerand_fatal(const char *message);

#endif
