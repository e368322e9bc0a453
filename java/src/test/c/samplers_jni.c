/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Test-only JNI (never in the jar): the C samplers themselves on an engine of this library's
 * own, for CrossCheckTest's value-by-value comparison with the Java ports. Built by
 * src/main/c/build.sh into target/test-native/PLATFORM/; org.shakerand.NativeSamplers (a test
 * class) loads it. */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shakerand.h"
#include "../../main/c/engine_alloc.h"

static void throw_new(JNIEnv *env, const char *cls, const char *msg)
{
    jclass c = (*env)->FindClass(env, cls);
    if (c != NULL)
        (*env)->ThrowNew(env, c, msg);
}

static shakerand_engine *engine_of(JNIEnv *env, jlong h)
{
    if (h == 0)
        throw_new(env, "java/lang/IllegalStateException", "shakerand: engine was freed");
    return (shakerand_engine *)(intptr_t)h;
}

JNIEXPORT jlong JNICALL Java_org_shakerand_NativeSamplers_engineNew(JNIEnv *env, jclass c, jint kind,
                                                                    jbyteArray seed)
{
    (void)c;
    const jsize n = (*env)->GetArrayLength(env, seed);
    uint8_t *s = malloc(n > 0 ? (size_t)n : 1);
    shakerand_engine *e = engine_alloc();
    if (s == NULL || e == NULL) {
        free(s);
        engine_release(e);
        throw_new(env, "java/lang/OutOfMemoryError", "engine");
        return 0;
    }
    (*env)->GetByteArrayRegion(env, seed, 0, n, (jbyte *)s);
    const int status = shakerand_engine_init(e, (shakerand_kind)kind, s, (size_t)n);
    shakerand_memzero(s, (size_t)n);
    free(s);
    if (status != SHAKERAND_OK) {
        engine_release(e);
        throw_new(env, "java/lang/IllegalArgumentException", shakerand_strerror(status));
        return 0;
    }
    return (jlong)(intptr_t)e;
}

JNIEXPORT void JNICALL Java_org_shakerand_NativeSamplers_engineFree(JNIEnv *env, jclass c, jlong h)
{
    (void)env;
    (void)c;
    shakerand_engine *e = (shakerand_engine *)(intptr_t)h;
    if (e != NULL) {
        shakerand_engine_wipe(e);
        engine_release(e);
    }
}

JNIEXPORT jint JNICALL Java_org_shakerand_NativeSamplers_uniformU32(JNIEnv *env, jclass c, jlong h,
                                                               jint n)
{
    (void)c;
    shakerand_engine *e = engine_of(env, h);
    uint32_t v = 0;
    if (e != NULL && shakerand_uniform_u32(e, (uint32_t)n, &v) != SHAKERAND_OK)
        throw_new(env, "java/lang/IllegalArgumentException", "bound");
    return (jint)v;
}

JNIEXPORT jlong JNICALL Java_org_shakerand_NativeSamplers_uniformU64(JNIEnv *env, jclass c, jlong h,
                                                                jlong n)
{
    (void)c;
    shakerand_engine *e = engine_of(env, h);
    uint64_t v = 0;
    if (e != NULL && shakerand_uniform_u64(e, (uint64_t)n, &v) != SHAKERAND_OK)
        throw_new(env, "java/lang/IllegalArgumentException", "bound");
    return (jlong)v;
}

JNIEXPORT jlong JNICALL Java_org_shakerand_NativeSamplers_rangeI64(JNIEnv *env, jclass c, jlong h,
                                                              jlong lo, jlong hi)
{
    (void)c;
    shakerand_engine *e = engine_of(env, h);
    int64_t v = 0;
    if (e != NULL && shakerand_range_i64(e, lo, hi, &v) != SHAKERAND_OK)
        throw_new(env, "java/lang/IllegalArgumentException", "range");
    return (jlong)v;
}

JNIEXPORT jdouble JNICALL Java_org_shakerand_NativeSamplers_nextDouble(JNIEnv *env, jclass c, jlong h)
{
    (void)c;
    shakerand_engine *e = engine_of(env, h);
    return e != NULL ? shakerand_double(e) : 0;
}

JNIEXPORT jfloat JNICALL Java_org_shakerand_NativeSamplers_nextFloat(JNIEnv *env, jclass c, jlong h)
{
    (void)c;
    shakerand_engine *e = engine_of(env, h);
    return e != NULL ? shakerand_float(e) : 0;
}

JNIEXPORT jbyteArray JNICALL Java_org_shakerand_NativeSamplers_below(JNIEnv *env, jclass c, jlong h,
                                                                jbyteArray r)
{
    (void)c;
    shakerand_engine *e = engine_of(env, h);
    if (e == NULL)
        return NULL;
    if (r == NULL) {
        throw_new(env, "java/lang/NullPointerException", "bound");
        return NULL;
    }
    const jsize n = (*env)->GetArrayLength(env, r);
    uint8_t *in = malloc(n > 0 ? (size_t)n : 1), *out = malloc(n > 0 ? (size_t)n : 1);
    jbyteArray result = NULL;
    if (in == NULL || out == NULL) {
        throw_new(env, "java/lang/OutOfMemoryError", "shakerand_below");
    } else {
        (*env)->GetByteArrayRegion(env, r, 0, n, (jbyte *)in);
        if (shakerand_below(e, SHAKERAND_RNG_BC_1, in, (size_t)n, out, NULL) != SHAKERAND_OK) {
            throw_new(env, "java/lang/IllegalArgumentException", "bound must be positive");
        } else if ((result = (*env)->NewByteArray(env, n)) != NULL) {
            (*env)->SetByteArrayRegion(env, result, 0, n, (const jbyte *)out);
        }
        shakerand_memzero(out, (size_t)n);
    }
    free(in);
    free(out);
    return result;
}

JNIEXPORT jbyteArray JNICALL Java_org_shakerand_NativeSamplers_uuid4(JNIEnv *env, jclass c, jlong h)
{
    (void)c;
    shakerand_engine *e = engine_of(env, h);
    if (e == NULL)
        return NULL;
    uint8_t u[16];
    shakerand_uuid4(e, u);
    jbyteArray result = (*env)->NewByteArray(env, 16);
    if (result != NULL)
        (*env)->SetByteArrayRegion(env, result, 0, 16, (const jbyte *)u);
    return result;
}
