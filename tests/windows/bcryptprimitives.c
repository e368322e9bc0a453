/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * TEST SET-UP ONLY, NEVER SHIPPED: a stand-in for Windows'
 * bcryptprimitives.dll, which Wine 8 lacks. Go's Windows runtime (1.22 and
 * later) loads that DLL's ProcessPrng at start-up and stops without it, so
 * no Go test binary can run under Wine 8 until this DLL sits in the Wine
 * prefix's system32 (tests/windows/standin.sh installs and removes it). It
 * is not Microsoft's generator: it passes the request to RtlGenRandom
 * (advapi32's SystemFunction036), which Wine implements over the host's
 * random device. Nothing the project ships may depend on it or contain it.
 *
 * Built by standin.sh: x86_64-w64-mingw32-gcc -shared bcryptprimitives.c
 * bcryptprimitives.def -ladvapi32.
 */
#include <windows.h>

/* advapi32 exports RtlGenRandom under this name (ntsecapi.h's macro). */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* Lets standin.sh tell this DLL from any other file of the same name
 * (a Wine that has its own, which install and remove must leave alone). */
__attribute__((used)) static const char standin_marker[] =
    "shakerand test stand-in for bcryptprimitives.dll (never shipped)";

/*
 * Microsoft documents ProcessPrng as always returning TRUE, so a caller
 * written to that contract may not check it. The stand-in keeps the same
 * promise: if RtlGenRandom fails, the process ends rather than returning
 * with the buffer unfilled.
 */
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
    while (size > 0) {
        /* RtlGenRandom takes a ULONG (32 bits); SIZE_T is 64 bits on x64. */
        ULONG piece = size > 0x40000000u ? 0x40000000u : (ULONG)size;
        if (!SystemFunction036(data, piece)) {
            TerminateProcess(GetCurrentProcess(), 0xC0000001u); /* STATUS_UNSUCCESSFUL */
            __builtin_trap(); /* not reached: the call does not return for its own process */
        }
        data += piece;
        size -= piece;
    }
    return TRUE;
}
