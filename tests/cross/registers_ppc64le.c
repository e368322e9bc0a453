/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The registers right after chacha8rand refills on little-endian ppc64, run
 * under qemu-user by run.sh (the ppc64le counterpart of test_stack.cpp's
 * x86-64 RegistersAfterARefill): the kernels keep keys and output in vector
 * and general-purpose registers, and a signal delivered after the call
 * would save them on the stack. For every kernel this CPU runs, a fill of
 * three iterations is made and every register is read at once; no 32-bit
 * word of them may be a word of the iterations' keys or output (the model
 * is the portable kernel). A word that is zero is not looked for, and the
 * callee-saved registers (f14-f31, v20-v31) hold this program's own values.
 *
 * Usage: registers_ppc64le. Prints "N passed, M failed".
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "shakerand.h"
#include "keccakp1600.h"
#include "testing.h"

#if !defined(__powerpc64__) || !defined(__BYTE_ORDER__) || \
    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "little-endian ppc64 only"
#endif

enum { GPRS = 11, VSRS = 64, ITERATIONS = 6, FILLED = 3 };

/* r0, r3-r12, then vs0-vs63. */
static unsigned char regs[8 * GPRS + 16 * VSRS];
static const char *const gpr_names[GPRS] = {"r0", "r3", "r4", "r5",  "r6", "r7",
                                            "r8", "r9", "r10", "r11", "r12"};

/* The fill, then every register stored before anything else runs: the
 * pointer lives in r31, callee-saved, so nothing reloads it in between. */
__attribute__((noinline)) static void fill_then_read(shakerand_engine *e, unsigned char *out,
                                                     size_t n)
{
    shakerand_engine_fill(e, out, n);
    register unsigned char *p __asm__("r31") = regs;
    __asm__ __volatile__(
        "std 0,0(31)\n\tstd 3,8(31)\n\tstd 4,16(31)\n\tstd 5,24(31)\n\tstd 6,32(31)\n\t"
        "std 7,40(31)\n\tstd 8,48(31)\n\tstd 9,56(31)\n\tstd 10,64(31)\n\tstd 11,72(31)\n\t"
        "std 12,80(31)\n\taddi 31,31,88\n\t"
        ".irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,"
        "28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,"
        "56,57,58,59,60,61,62,63\n\t"
        "stxvd2x \\n,0,31\n\taddi 31,31,16\n\t.endr"
        : "+r"(p)
        :
        : "memory");
}

static void name_of(size_t off, char *name, size_t size)
{
    if (off < 8 * GPRS)
        snprintf(name, size, "%s", gpr_names[off / 8]);
    else
        snprintf(name, size, "vs%zu", (off - 8 * GPRS) / 16);
}

int main(void)
{
    unsigned char seed[32];
    for (int i = 0; i < 32; i++)
        seed[i] = (unsigned char)(7 * i + 1);
    /* The model: keys K_0..K_ITERATIONS and each iteration's output. */
    static uint64_t keys[ITERATIONS + 1][4];
    static unsigned char outputs[ITERATIONS][CHACHA8_OUTPUT_BYTES];
    for (int i = 0; i < 4; i++)
        memcpy(&keys[0][i], seed + 8 * i, 8);
    for (int r = 0; r < ITERATIONS; r++)
        shakerand_chacha8rand_portable(keys[r], outputs[r], keys[r + 1]);

    int passed = 0, failed = 0;
    for (size_t i = 0; shakerand_kernel_list[i] != NULL; i++) {
        const struct shakerand_kernel *k = shakerand_kernel_list[i];
        if (shakerand_kernel_find(k->name) == NULL)
            continue;
        shakerand_kernel_set_for_testing(k);
        static shakerand_engine e;
        static unsigned char out[FILLED * CHACHA8_OUTPUT_BYTES];
        shakerand_engine_init(&e, SHAKERAND_CHACHA8RAND, seed, sizeof seed);
        memset(regs, 0, sizeof regs);
        fill_then_read(&e, out, sizeof out);
        shakerand_engine_wipe(&e);
        if (memcmp(out, outputs, sizeof out) != 0) {
            printf("FAIL kernel %s: the stream differs from the portable kernel's\n", k->name);
            failed++;
            continue;
        }
        int found = 0;
        for (size_t off = 0; off < sizeof regs; off += 4) {
            uint32_t w;
            memcpy(&w, regs + off, 4);
            if (w == 0)
                continue;
            char name[8];
            name_of(off, name, sizeof name);
            for (int r = 0; r <= ITERATIONS; r++)
                for (int j = 0; j < 8; j++)
                    if (w == (uint32_t)(keys[r][j / 2] >> (32 * (j % 2)))) {
                        printf("FAIL kernel %s: word %d of key %d in %s\n", k->name, j, r, name);
                        found++;
                    }
            for (int r = 0; r < ITERATIONS; r++)
                for (size_t j = 0; j < CHACHA8_OUTPUT_BYTES; j += 4) {
                    uint32_t o;
                    memcpy(&o, outputs[r] + j, 4);
                    if (w == o) {
                        printf("FAIL kernel %s: output of iteration %d in %s\n", k->name, r, name);
                        found++;
                    }
                }
        }
        printf("kernel %s: %d words of keys or output in the caller-saved registers\n", k->name,
               found);
        if (found == 0)
            passed++;
        else
            failed++;
    }
    shakerand_kernel_set_for_testing(NULL);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0 || passed == 0;
}
