/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Prints the first 8 bytes of turboshake256 with seed "abc" as hex. */
#include <stdio.h>

#include <shakerand.h>

int main(void)
{
    shakerand_engine e;
    unsigned char out[8];
    if (shakerand_engine_init(&e, SHAKERAND_TURBOSHAKE256, "abc", 3) != SHAKERAND_OK)
        return 1;
    shakerand_engine_fill(&e, out, sizeof out);
    for (size_t i = 0; i < sizeof out; i++)
        printf("%02x", out[i]);
    printf("\n");
    return 0;
}
