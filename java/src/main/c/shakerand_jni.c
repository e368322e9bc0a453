/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* JNI glue between org.shakerand.NativeLib and the shakerand C core. Arrays are accessed
 * through critical regions (no copy) kept short: bulk fills are done in pieces. */
#if defined(__linux__)
#define _GNU_SOURCE /* MAP_ANONYMOUS, MADV_WIPEONFORK */
#endif
#include <jni.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <pthread.h>
#include <sys/mman.h>
#endif

#include "org_shakerand_NativeLib.h"
#include "shakerand.h"
#include "engine_alloc.h"

/* The core's own (src/internal.h): records the calling thread's stack bounds, once per thread.
 * Without them, every stack wipe of a thread that never drew from the system generator (which
 * records them after its first seed) asks sigaltstack whether it runs on the alternate signal
 * stack: a system call per seeded engine fill. */
void shakerand_stack_record_bounds(void);

/* The longest critical region: 256 KiB of output, well under a millisecond. */
#define PIECE ((jint)1 << 18)

static void throw_new(JNIEnv *env, const char *cls, const char *msg)
{
    jclass c = (*env)->FindClass(env, cls);
    if (c != NULL)
        (*env)->ThrowNew(env, c, msg);
}

/* A failed status of the system generator or the entropy sources (the operating system gave no
 * entropy, or no memory for a thread's state), as the JDK's NativePRNG reports a failed read of
 * /dev/urandom. Nothing was produced, and the next call tries again. */
static void throw_status(JNIEnv *env, const char *what, int status)
{
    char msg[160];
    snprintf(msg, sizeof msg, "shakerand: %s: %s", what, shakerand_strerror(status));
    throw_new(env, "java/security/ProviderException", msg);
}

/* Checks [off, off + len) against the array; throws as System.arraycopy does. */
static int check_range(JNIEnv *env, jarray a, jint off, jint len)
{
    if (a == NULL) {
        throw_new(env, "java/lang/NullPointerException", "array");
        return 0;
    }
    const jsize n = (*env)->GetArrayLength(env, a);
    if (off < 0 || len < 0 || off > n - len) {
        throw_new(env, "java/lang/ArrayIndexOutOfBoundsException", "range outside the array");
        return 0;
    }
    return 1;
}

static shakerand_engine *engine_of(JNIEnv *env, jlong h)
{
    if (h == 0)
        throw_new(env, "java/lang/IllegalStateException", "shakerand: engine was wiped");
    return (shakerand_engine *)(intptr_t)h;
}

JNIEXPORT jstring JNICALL Java_org_shakerand_NativeLib_version(JNIEnv *env, jclass c)
{
    (void)c;
    return (*env)->NewStringUTF(env, shakerand_version());
}

JNIEXPORT jstring JNICALL Java_org_shakerand_NativeLib_kernelName(JNIEnv *env, jclass c)
{
    (void)c;
    return (*env)->NewStringUTF(env, shakerand_kernel_name());
}

JNIEXPORT jstring JNICALL Java_org_shakerand_NativeLib_sources(JNIEnv *env, jclass c)
{
    (void)c;
    shakerand_source_info info[16];
    size_t n = shakerand_sources(info, 16);
    if (n > 16)
        n = 16;
    char text[1024];
    size_t o = 0;
    text[0] = '\0';
    for (size_t i = 0; i < n && o < sizeof text; i++) {
        if (!info[i].used)
            continue;
        int w = snprintf(text + o, sizeof text - o, "%s%s%s%s%s", o ? ", " : "", info[i].name,
                         info[i].method ? " (" : "", info[i].method ? info[i].method : "",
                         info[i].method ? ")" : "");
        if (w < 0)
            break;
        o += (size_t)w;
    }
    return (*env)->NewStringUTF(env, text);
}

/* The fork mark: a word that a fork zeroes in the child, however the child was made (a raw
 * fork or clone runs no fork handler, so the C core's epoch does not move in such a child, and
 * NativeSystemGenerator's buffers live in the Java heap, which no fork wipes). A buffer keeps
 * the mark it was filled under and serves a word only while the mark still reads so; a child's
 * first draw finds 0 there, and the refill sets a mark no buffer of this process holds: one
 * more than the last this line of processes set (the count is in ordinary memory, so a child
 * starts from its parent's). On Linux the word is alone in an anonymous mapping marked
 * MADV_WIPEONFORK. Where the kernel refuses that (before Linux 4.14) or the mapping fails,
 * there is none: the buffers are not used, and every draw calls the C core, which then compares
 * the pid on every call itself (seeded_here, src/system_state.h). Windows has no fork: a plain
 * word, never wiped. */
static _Atomic uint64_t fork_marks_set;
#if defined(__linux__) && defined(MADV_WIPEONFORK)
static _Atomic uint64_t *fork_mark;
static const char *fork_guard;

/* The length asked of mmap: the one word (the kernel maps a whole page). A length no other
 * mapping of JDK 17 or 25 asks for, so tests/no_wipeonfork.c's --refuse-mmap 8 refuses this
 * one alone (ForkTest). */
#define FORK_MARK_BYTES sizeof(uint64_t)

static void fork_mark_set_up(void)
{
    void *p =
        mmap(NULL, FORK_MARK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fork_guard = "none: the fork mark's page could not be mapped";
        return;
    }
    if (madvise(p, FORK_MARK_BYTES, MADV_WIPEONFORK) != 0) {
        munmap(p, FORK_MARK_BYTES);
        fork_guard = "none: the kernel refused MADV_WIPEONFORK";
        return;
    }
    fork_mark = p;
    atomic_store(fork_mark, atomic_fetch_add(&fork_marks_set, 1) + 1);
    fork_guard = "MADV_WIPEONFORK";
}

static pthread_once_t fork_mark_once = PTHREAD_ONCE_INIT;
#define FORK_MARK_SET_UP() pthread_once(&fork_mark_once, fork_mark_set_up)
#elif defined(_WIN32)
static _Atomic uint64_t fork_mark_word = 1;
static _Atomic uint64_t *const fork_mark = &fork_mark_word;
static const char *const fork_guard = "none needed: Windows has no fork";
#define FORK_MARK_SET_UP() ((void)0)
#else
static _Atomic uint64_t *const fork_mark = NULL;
static const char *const fork_guard = "none: no page that a fork wipes on this system";
#define FORK_MARK_SET_UP() ((void)0)
#endif

/* The mark now; a zero one (this is a child after a fork) is set anew first. */
static uint64_t fork_mark_now(void)
{
    uint64_t m = atomic_load(fork_mark);
    if (m == 0) {
        const uint64_t fresh = atomic_fetch_add(&fork_marks_set, 1) + 1;
        /* another thread of the child may have set one first: that one stands */
        if (atomic_compare_exchange_strong(fork_mark, &m, fresh))
            m = fresh;
    }
    return m;
}

/* Fills the words; returns the fork mark read before the fill (so a fork during the fill shows
 * in the child as a mark that no longer matches). */
JNIEXPORT jlong JNICALL Java_org_shakerand_NativeLib_systemFillLongs(JNIEnv *env, jclass c,
                                                                     jlongArray words)
{
    (void)c;
    if (words == NULL) {
        throw_new(env, "java/lang/NullPointerException", "array");
        return 0;
    }
    FORK_MARK_SET_UP();
    if (fork_mark == NULL) {
        throw_new(env, "java/lang/IllegalStateException", "shakerand: no fork mark to fill under");
        return 0;
    }
    const uint64_t mark = fork_mark_now();
    const jsize n = (*env)->GetArrayLength(env, words);
    void *p = (*env)->GetPrimitiveArrayCritical(env, words, NULL);
    if (p == NULL)
        return 0;
    const int status = shakerand_system_try_fill(p, (size_t)n * 8);
    (*env)->ReleasePrimitiveArrayCritical(env, words, p, 0);
    if (status != SHAKERAND_OK)
        throw_status(env, "cannot seed the system generator", status);
    return (jlong)mark;
}

/* The fork mark as a direct buffer of one word, read by Java without a call; null where there
 * is none. */
JNIEXPORT jobject JNICALL Java_org_shakerand_NativeLib_forkMarkWord(JNIEnv *env, jclass c)
{
    (void)c;
    FORK_MARK_SET_UP();
    return fork_mark == NULL ? NULL
                             : (*env)->NewDirectByteBuffer(env, (void *)(uintptr_t)fork_mark, 8);
}

/* What keeps a forked child from the buffers' words (NativeSystemGenerator.FORK_GUARD). */
JNIEXPORT jstring JNICALL Java_org_shakerand_NativeLib_forkGuard(JNIEnv *env, jclass c)
{
    (void)c;
    FORK_MARK_SET_UP();
    return (*env)->NewStringUTF(env, fork_guard);
}

JNIEXPORT void JNICALL Java_org_shakerand_NativeLib_systemFill(JNIEnv *env, jclass c,
                                                               jbyteArray b, jint off, jint len)
{
    (void)c;
    if (!check_range(env, b, off, len))
        return;
    while (len > 0) {
        const jint n = len < PIECE ? len : PIECE;
        uint8_t *p = (*env)->GetPrimitiveArrayCritical(env, b, NULL);
        if (p == NULL)
            return;
        const int status = shakerand_system_try_fill(p + off, (size_t)n);
        (*env)->ReleasePrimitiveArrayCritical(env, b, p, 0);
        if (status != SHAKERAND_OK) {
            throw_status(env, "cannot seed the system generator", status);
            return;
        }
        off += n;
        len -= n;
    }
}

JNIEXPORT jlong JNICALL Java_org_shakerand_NativeLib_systemU64(JNIEnv *env, jclass c)
{
    (void)c;
    uint64_t v = 0;
    const int status = shakerand_system_try_fill(&v, sizeof v);
    if (status != SHAKERAND_OK)
        throw_status(env, "cannot seed the system generator", status);
    return (jlong)v;
}

JNIEXPORT void JNICALL Java_org_shakerand_NativeLib_systemNewEpoch(JNIEnv *env, jclass c)
{
    (void)env;
    (void)c;
    shakerand_system_new_epoch();
}

JNIEXPORT jboolean JNICALL Java_org_shakerand_NativeLib_systemWatchesVmGeneration(JNIEnv *env,
                                                                                 jclass c)
{
    (void)env;
    (void)c;
    return shakerand_system_watches_vm_generation() ? JNI_TRUE : JNI_FALSE;
}

/* The epoch words (shakerand_system_epoch_words) as direct buffers of one
 * word, read by Java without a call (the VM generation's stays 0 when none
 * is watched). The C words live as long as the process. */
JNIEXPORT jobject JNICALL Java_org_shakerand_NativeLib_epochWord(JNIEnv *env, jclass c)
{
    (void)c;
    const volatile uint64_t *word;
    shakerand_system_epoch_words(&word, NULL);
    return (*env)->NewDirectByteBuffer(env, (void *)(uintptr_t)word, 8);
}

JNIEXPORT jobject JNICALL Java_org_shakerand_NativeLib_vmGenerationWord(JNIEnv *env, jclass c)
{
    (void)c;
    const volatile uint64_t *word;
    shakerand_system_epoch_words(NULL, &word);
    return (*env)->NewDirectByteBuffer(env, (void *)(uintptr_t)word, 8);
}

/* The address of a direct buffer's first byte, for the word reads of JDK 17
 * to 21 (NativeSystemGenerator). */
JNIEXPORT jlong JNICALL Java_org_shakerand_NativeLib_bufferAddress(JNIEnv *env, jclass c,
                                                                    jobject buffer)
{
    (void)c;
    return (jlong)(uintptr_t)(*env)->GetDirectBufferAddress(env, buffer);
}

/* setSeed: fresh entropy plus a digest of the caller's bytes, copied out
 * of the Java heap and wiped after. */
JNIEXPORT void JNICALL Java_org_shakerand_NativeLib_systemReseed(JNIEnv *env, jclass c,
                                                                  jbyteArray extra)
{
    (void)c;
    if (extra == NULL) {
        throw_new(env, "java/lang/NullPointerException", "seed");
        return;
    }
    const jsize len = (*env)->GetArrayLength(env, extra);
    unsigned char *copy = malloc(len > 0 ? (size_t)len : 1);
    if (copy == NULL) {
        throw_new(env, "java/lang/OutOfMemoryError", "shakerand_system_reseed_with");
        return;
    }
    (*env)->GetByteArrayRegion(env, extra, 0, len, (jbyte *)copy);
    const int status = shakerand_system_reseed_with(copy, (size_t)len);
    shakerand_memzero(copy, (size_t)len);
    free(copy);
    if (status != SHAKERAND_OK)
        throw_status(env, "cannot reseed the system generator", status);
}

JNIEXPORT void JNICALL Java_org_shakerand_NativeLib_entropy(JNIEnv *env, jclass c, jbyteArray out)
{
    (void)c;
    if (out == NULL) {
        throw_new(env, "java/lang/NullPointerException", "array");
        return;
    }
    const jsize n = (*env)->GetArrayLength(env, out);
    uint8_t *tmp = malloc(n > 0 ? (size_t)n : 1);
    if (tmp == NULL) {
        throw_new(env, "java/lang/OutOfMemoryError", "shakerand_entropy");
        return;
    }
    /* Outside a critical region: the OS call may take a while on a cold pool. */
    const int status = shakerand_entropy(tmp, (size_t)n);
    if (status == SHAKERAND_OK)
        (*env)->SetByteArrayRegion(env, out, 0, n, (const jbyte *)tmp);
    shakerand_memzero(tmp, (size_t)n);
    free(tmp);
    if (status != SHAKERAND_OK)
        throw_status(env, "cannot gather entropy", status);
}

JNIEXPORT jlong JNICALL Java_org_shakerand_NativeLib_engineNew(JNIEnv *env, jclass c, jint kind,
                                                               jbyteArray seed)
{
    (void)c;
    if (seed == NULL) {
        throw_new(env, "java/lang/NullPointerException", "seed");
        return 0;
    }
    const jsize n = (*env)->GetArrayLength(env, seed);
    shakerand_engine *e = engine_alloc();
    uint8_t *s = malloc(n > 0 ? (size_t)n : 1);
    if (e == NULL || s == NULL) {
        engine_release(e);
        free(s);
        throw_new(env, "java/lang/OutOfMemoryError", "shakerand engine");
        return 0;
    }
    (*env)->GetByteArrayRegion(env, seed, 0, n, (jbyte *)s);
    /* As in engineFill: the seed's stack wipe then reaches the whole depth a
     * signal frame could have taken, and makes no sigaltstack call. */
    shakerand_stack_record_bounds();
    const int status = shakerand_engine_init(e, (shakerand_kind)kind, s, (size_t)n);
    shakerand_memzero(s, (size_t)n);
    free(s);
    if (status != SHAKERAND_OK) {
        /* An unknown kind, or a seed length the kind refuses (shakerand_kind_seed_size); the
         * Java side checks the length against the same table first, so this is a backstop. */
        engine_release(e);
        const char *name = shakerand_kind_name((shakerand_kind)kind);
        char msg[160];
        snprintf(msg, sizeof msg, "shakerand: no %s engine from a seed of %d bytes: %s",
                 name != NULL ? name : "such", (int)n, shakerand_strerror(status));
        throw_new(env, "java/lang/IllegalArgumentException", msg);
        return 0;
    }
    return (jlong)(intptr_t)e;
}

/* The kind table, straight from the core's: Java reads it once (NativeLib.kinds) and lists no
 * kind of its own. The sizes are small (uint16_t in the core), so they fit a jint. */
JNIEXPORT jint JNICALL Java_org_shakerand_NativeLib_kindCount(JNIEnv *env, jclass c)
{
    (void)env;
    (void)c;
    return (jint)shakerand_kind_count();
}

JNIEXPORT jint JNICALL Java_org_shakerand_NativeLib_kindAt(JNIEnv *env, jclass c, jint index)
{
    (void)env;
    (void)c;
    return index < 0 ? 0 : (jint)shakerand_kind_at((size_t)index);
}

JNIEXPORT jstring JNICALL Java_org_shakerand_NativeLib_kindName(JNIEnv *env, jclass c, jint kind)
{
    (void)c;
    const char *name = shakerand_kind_name((shakerand_kind)kind);
    return name != NULL ? (*env)->NewStringUTF(env, name) : NULL;
}

JNIEXPORT jint JNICALL Java_org_shakerand_NativeLib_kindSeedSize(JNIEnv *env, jclass c, jint kind)
{
    (void)env;
    (void)c;
    return (jint)shakerand_kind_seed_size((shakerand_kind)kind);
}

JNIEXPORT jint JNICALL Java_org_shakerand_NativeLib_kindBlockSize(JNIEnv *env, jclass c, jint kind)
{
    (void)env;
    (void)c;
    return (jint)shakerand_kind_block_size((shakerand_kind)kind);
}

JNIEXPORT void JNICALL Java_org_shakerand_NativeLib_engineFill(JNIEnv *env, jclass c, jlong h,
                                                               jbyteArray b, jint off, jint len)
{
    (void)c;
    shakerand_engine *e = engine_of(env, h);
    if (e == NULL || !check_range(env, b, off, len))
        return;
    /* It allocates (pthread_getattr_np), so the core never calls it where a signal handler may
     * have interrupted it; a JNI entry point never runs in a signal handler, so here it is
     * safe. After the first call on a thread it returns at once. */
    shakerand_stack_record_bounds();
    while (len > 0) {
        const jint n = len < PIECE ? len : PIECE;
        uint8_t *p = (*env)->GetPrimitiveArrayCritical(env, b, NULL);
        if (p == NULL)
            return;
        shakerand_engine_fill(e, p + off, (size_t)n);
        (*env)->ReleasePrimitiveArrayCritical(env, b, p, 0);
        off += n;
        len -= n;
    }
}

JNIEXPORT void JNICALL Java_org_shakerand_NativeLib_engineFree(JNIEnv *env, jclass c, jlong h)
{
    (void)env;
    (void)c;
    shakerand_engine *e = (shakerand_engine *)(intptr_t)h;
    if (e != NULL) {
        shakerand_engine_wipe(e);
        engine_release(e);
    }
}
