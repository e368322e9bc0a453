/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * shakerand.so: an OpenSSL 3 provider whose one algorithm, the EVP_RAND
 * "SHAKERAND", hands out the calling thread's system generator
 * (shakerand_system_*, include/shakerand.h). With the configuration in
 * openssl/shakerand.cnf OpenSSL makes its primary, public and private DRBGs
 * of this kind, so RAND_bytes and RAND_priv_bytes draw from shakerand with
 * no change to the program. docs/openssl.md is the user's account; the
 * rules that matter here:
 *
 * - A context holds no generator state, only whether it is instantiated
 *   and a byte count: the generator is per thread, reseeds itself after
 *   fork() and on a restore, and needs no lock. So locking is enabled on
 *   request (OpenSSL 3.0 and 3.5 refuse a primary DRBG that cannot) and
 *   lock/unlock do nothing.
 * - A parent DRBG or seed source that OpenSSL hands to newctx is never
 *   used: the system generator seeds itself from the operating system and
 *   the hardware sources, and a parent could only add a weaker path.
 *   Nor does a context serve as a parent: it offers no get_seed, so a
 *   DRBG of another provider made under it fails to seed, with OpenSSL's
 *   error, rather than through a path no test here has run.
 * - Additional input, a personalisation string and entropy given to
 *   reseed are mixed into the calling thread's generator through
 *   shakerand_system_reseed_with, which adds them to fresh operating-system
 *   seed and never lets them replace it. Prediction resistance reseeds
 *   from the sources before generating.
 * - Set SHAKERAND_OPENSSL_TRACE=FILE (ignored in set-user-ID programs) and
 *   every context creation and every generate call appends a line to FILE:
 *   how the tests show that a program they did not write drew from here.
 *
 * The module needs no libcrypto: the few OSSL_PARAM and error calls it
 * makes are written here or reached through the core's dispatch table.
 */
#define _GNU_SOURCE /* secure_getenv, explicit_bzero */
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shakerand.h"

/* EVP_RAND states (openssl/evp.h's EVP_RAND_STATE_*; not included, it
 * would pull in libcrypto's declarations). */
enum { STATE_UNINITIALISED = 0, STATE_READY = 1 };
/* openssl/params.h's OSSL_PARAM_UNMODIFIED, for the same reason. */
#define UNMODIFIED SIZE_MAX

#define STRENGTH 256
/* OpenSSL splits a request into pieces of at most this size; the system
 * generator has no limit of its own, so the figure only bounds the work of
 * one call between the caller's checks. */
#define MAX_REQUEST ((size_t)1 << 20)

/* Reasons for errors raised here (OSSL_FUNC_PROVIDER_GET_REASON_STRINGS). */
enum {
    R_NO_ENTROPY = 1,
    R_NOT_INSTANTIATED,
    R_STRENGTH,
    R_RESEED,
};

static const OSSL_ITEM reason_strings[] = {
    {R_NO_ENTROPY, "the system generator could not be seeded"},
    {R_NOT_INSTANTIATED, "the SHAKERAND context is not instantiated"},
    {R_STRENGTH, "SHAKERAND offers a strength of 256 bits at most"},
    {R_RESEED, "the system generator could not reseed"},
    {0, NULL},
};

typedef struct provider {
    const OSSL_CORE_HANDLE *handle;
    OSSL_FUNC_core_new_error_fn *new_error;
    OSSL_FUNC_core_vset_error_fn *vset_error;
} provider;

typedef struct context {
    provider *prov;
    int state;          /* atomic: STATE_* */
    uint64_t generated; /* atomic: bytes generated through this context */
} context;

/* From SHAKERAND_OPENSSL_TRACE, read once when the module is loaded. */
static const char *trace_path;

static void trace(const char *what, size_t n)
{
    char line[96];
    int len, fd;
    if (trace_path == NULL)
        return;
    len = snprintf(line, sizeof line, "%ld %s %zu\n", (long)getpid(), what, n);
    fd = open(trace_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    /* One write with O_APPEND: lines from several processes stay whole. */
    ssize_t w = write(fd, line, (size_t)len);
    (void)w; /* a trace line that could not be written is not an error */
    close(fd);
}

static void raise_error(provider *p, int reason, const char *fmt, ...)
{
    va_list ap;
    if (p == NULL || p->new_error == NULL || p->vset_error == NULL)
        return;
    p->new_error(p->handle);
    va_start(ap, fmt);
    p->vset_error(p->handle, (uint32_t)reason, fmt, ap);
    va_end(ap);
}

/* ---- OSSL_PARAM, the three kinds answered here ------------------------- */

static OSSL_PARAM *find_param(OSSL_PARAM *params, const char *key)
{
    for (; params != NULL && params->key != NULL; params++)
        if (strcmp(params->key, key) == 0)
            return params;
    return NULL;
}

/* An unsigned value into an integer parameter of the caller's width;
 * 0 when it does not fit or the type is not an integer. */
static int set_unsigned(OSSL_PARAM *p, uint64_t v)
{
    p->return_size = p->data_size;
    if (p->data_type != OSSL_PARAM_UNSIGNED_INTEGER && p->data_type != OSSL_PARAM_INTEGER)
        return 0;
    if (p->data == NULL) /* asking for the size only */
        return 1;
    if (p->data_size == sizeof(uint64_t)) {
        if (p->data_type == OSSL_PARAM_INTEGER && v > INT64_MAX)
            return 0;
        memcpy(p->data, &v, sizeof v);
        return 1;
    }
    if (p->data_size == sizeof(uint32_t)) {
        uint32_t w = (uint32_t)v;
        if (v > (p->data_type == OSSL_PARAM_INTEGER ? (uint64_t)INT32_MAX : UINT32_MAX))
            return 0;
        memcpy(p->data, &w, sizeof w);
        return 1;
    }
    return 0;
}

static int set_utf8_ptr(OSSL_PARAM *p, const char *s)
{
    if (p->data_type != OSSL_PARAM_UTF8_PTR)
        return 0;
    p->return_size = strlen(s);
    if (p->data != NULL)
        *(const char **)p->data = s;
    return 1;
}

/* ---- The EVP_RAND ----------------------------------------------------- */

/* The name of the byte count a context reports: a test reads it to see
 * that RAND_bytes went through this module. */
#define PARAM_GENERATED "shakerand_generated"

static void *rand_newctx(void *provctx, void *parent, const OSSL_DISPATCH *parent_calls)
{
    context *c = calloc(1, sizeof *c);
    (void)parent; /* never used: see the rules at the top */
    (void)parent_calls;
    if (c == NULL)
        return NULL;
    c->prov = provctx;
    trace("newctx", 0);
    return c;
}

static void rand_freectx(void *vctx) { free(vctx); }

static int state_of(const context *c) { return __atomic_load_n(&c->state, __ATOMIC_ACQUIRE); }

/* Bytes the caller supplies (personalisation, additional input, entropy)
 * go into the calling thread's generator beside fresh sources' seed. */
static int mix(context *c, const unsigned char *a, size_t a_len, const unsigned char *b,
               size_t b_len, int prediction_resistance)
{
    int rc = SHAKERAND_OK;
    if (a_len > 0 && b_len > 0) {
        /* One reseed for both: a digest of the two, each framed by its
         * length so that no pair of inputs runs into another. */
        shakerand_xof x;
        unsigned char d[64];
        uint64_t la = a_len, lb = b_len;
        shakerand_turboshake256_init(&x, 0x1F);
        shakerand_xof_absorb(&x, &la, sizeof la);
        shakerand_xof_absorb(&x, a, a_len);
        shakerand_xof_absorb(&x, &lb, sizeof lb);
        shakerand_xof_absorb(&x, b, b_len);
        shakerand_xof_squeeze(&x, d, sizeof d);
        shakerand_xof_wipe(&x);
        rc = shakerand_system_reseed_with(d, sizeof d);
        explicit_bzero(d, sizeof d);
    } else if (a_len > 0 || b_len > 0) {
        rc = a_len > 0 ? shakerand_system_reseed_with(a, a_len)
                       : shakerand_system_reseed_with(b, b_len);
    } else if (prediction_resistance) {
        rc = shakerand_system_reseed();
    }
    if (rc != SHAKERAND_OK) {
        raise_error(c->prov, R_RESEED, "%s", shakerand_strerror(rc));
        return 0;
    }
    return 1;
}

static int rand_instantiate(void *vctx, unsigned int strength, int prediction_resistance,
                            const unsigned char *pstr, size_t pstr_len, const OSSL_PARAM params[])
{
    context *c = vctx;
    int rc;
    /* params carry the other DRBGs' settings (cipher, reseed intervals),
     * which do not apply to the system generator. */
    (void)params;
    if (strength > STRENGTH) {
        raise_error(c->prov, R_STRENGTH, "asked for %u bits", strength);
        return 0;
    }
    rc = shakerand_system_init();
    if (rc != SHAKERAND_OK) {
        raise_error(c->prov, R_NO_ENTROPY, "%s", shakerand_strerror(rc));
        return 0;
    }
    if (!mix(c, pstr, pstr_len, NULL, 0, prediction_resistance))
        return 0;
    __atomic_store_n(&c->state, STATE_READY, __ATOMIC_RELEASE);
    return 1;
}

static int rand_uninstantiate(void *vctx)
{
    context *c = vctx;
    __atomic_store_n(&c->state, STATE_UNINITIALISED, __ATOMIC_RELEASE);
    return 1;
}

static int rand_generate(void *vctx, unsigned char *out, size_t outlen, unsigned int strength,
                         int prediction_resistance, const unsigned char *addin, size_t addin_len)
{
    context *c = vctx;
    int rc;
    if (state_of(c) != STATE_READY) {
        raise_error(c->prov, R_NOT_INSTANTIATED, "generate");
        return 0;
    }
    if (strength > STRENGTH) {
        raise_error(c->prov, R_STRENGTH, "asked for %u bits", strength);
        return 0;
    }
    if (!mix(c, addin, addin_len, NULL, 0, prediction_resistance))
        return 0;
    rc = shakerand_system_try_fill(out, outlen);
    if (rc != SHAKERAND_OK) {
        raise_error(c->prov, R_NO_ENTROPY, "%s", shakerand_strerror(rc));
        return 0;
    }
    __atomic_fetch_add(&c->generated, (uint64_t)outlen, __ATOMIC_RELAXED);
    trace("generate", outlen);
    return 1;
}

static int rand_reseed(void *vctx, int prediction_resistance, const unsigned char *ent,
                       size_t ent_len, const unsigned char *addin, size_t addin_len)
{
    context *c = vctx;
    if (state_of(c) != STATE_READY) {
        raise_error(c->prov, R_NOT_INSTANTIATED, "reseed");
        return 0;
    }
    /* Every reseed draws fresh seed from the sources, so every reseed
     * resists prediction. */
    (void)prediction_resistance;
    return mix(c, ent, ent_len, addin, addin_len, 1);
}

static int rand_enable_locking(void *vctx)
{
    (void)vctx;
    return 1;
}

static int rand_lock(void *vctx)
{
    (void)vctx;
    return 1;
}

static void rand_unlock(void *vctx) { (void)vctx; }

static const OSSL_PARAM *rand_gettable_ctx_params(void *vctx, void *provctx)
{
    static const OSSL_PARAM known[] = {
        {OSSL_RAND_PARAM_STATE, OSSL_PARAM_INTEGER, NULL, sizeof(int), UNMODIFIED},
        {OSSL_RAND_PARAM_STRENGTH, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(unsigned int),
         UNMODIFIED},
        {OSSL_RAND_PARAM_MAX_REQUEST, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(size_t),
         UNMODIFIED},
        {PARAM_GENERATED, OSSL_PARAM_UNSIGNED_INTEGER, NULL, sizeof(uint64_t), UNMODIFIED},
        {NULL, 0, NULL, 0, 0},
    };
    (void)vctx;
    (void)provctx;
    return known;
}

static int rand_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    context *c = vctx;
    OSSL_PARAM *p;
    if ((p = find_param(params, OSSL_RAND_PARAM_STATE)) != NULL &&
        !set_unsigned(p, (uint64_t)state_of(c)))
        return 0;
    if ((p = find_param(params, OSSL_RAND_PARAM_STRENGTH)) != NULL && !set_unsigned(p, STRENGTH))
        return 0;
    if ((p = find_param(params, OSSL_RAND_PARAM_MAX_REQUEST)) != NULL &&
        !set_unsigned(p, MAX_REQUEST))
        return 0;
    if ((p = find_param(params, PARAM_GENERATED)) != NULL &&
        !set_unsigned(p, __atomic_load_n(&c->generated, __ATOMIC_RELAXED)))
        return 0;
    return 1;
}

/* A context keeps no secret, so there is nothing left to zeroize. */
static int rand_verify_zeroization(void *vctx)
{
    (void)vctx;
    return 1;
}

static const OSSL_DISPATCH rand_functions[] = {
    {OSSL_FUNC_RAND_NEWCTX, (void (*)(void))rand_newctx},
    {OSSL_FUNC_RAND_FREECTX, (void (*)(void))rand_freectx},
    {OSSL_FUNC_RAND_INSTANTIATE, (void (*)(void))rand_instantiate},
    {OSSL_FUNC_RAND_UNINSTANTIATE, (void (*)(void))rand_uninstantiate},
    {OSSL_FUNC_RAND_GENERATE, (void (*)(void))rand_generate},
    {OSSL_FUNC_RAND_RESEED, (void (*)(void))rand_reseed},
    {OSSL_FUNC_RAND_ENABLE_LOCKING, (void (*)(void))rand_enable_locking},
    {OSSL_FUNC_RAND_LOCK, (void (*)(void))rand_lock},
    {OSSL_FUNC_RAND_UNLOCK, (void (*)(void))rand_unlock},
    {OSSL_FUNC_RAND_GETTABLE_CTX_PARAMS, (void (*)(void))rand_gettable_ctx_params},
    {OSSL_FUNC_RAND_GET_CTX_PARAMS, (void (*)(void))rand_get_ctx_params},
    {OSSL_FUNC_RAND_VERIFY_ZEROIZATION, (void (*)(void))rand_verify_zeroization},
    {0, NULL},
};

static const OSSL_ALGORITHM rand_algorithms[] = {
    {"SHAKERAND", "provider=shakerand", rand_functions,
     "shakerand's per-thread system generator (fork- and restore-safe)"},
    {NULL, NULL, NULL, NULL},
};

/* ---- The provider ----------------------------------------------------- */

static const OSSL_ALGORITHM *query_operation(void *provctx, int operation_id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    return operation_id == OSSL_OP_RAND ? rand_algorithms : NULL;
}

static const OSSL_PARAM *gettable_params(void *provctx)
{
    static const OSSL_PARAM known[] = {
        {OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0, UNMODIFIED},
        {OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0, UNMODIFIED},
        {OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0, UNMODIFIED},
        {OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, sizeof(int), UNMODIFIED},
        {NULL, 0, NULL, 0, 0},
    };
    (void)provctx;
    return known;
}

static int get_params(void *provctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    (void)provctx;
    if ((p = find_param(params, OSSL_PROV_PARAM_NAME)) != NULL &&
        !set_utf8_ptr(p, "shakerand provider"))
        return 0;
    if ((p = find_param(params, OSSL_PROV_PARAM_VERSION)) != NULL &&
        !set_utf8_ptr(p, shakerand_version()))
        return 0;
    if ((p = find_param(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL &&
        !set_utf8_ptr(p, SHAKERAND_VERSION_STRING))
        return 0;
    if ((p = find_param(params, OSSL_PROV_PARAM_STATUS)) != NULL && !set_unsigned(p, 1))
        return 0;
    return 1;
}

static const OSSL_ITEM *get_reason_strings(void *provctx)
{
    (void)provctx;
    return reason_strings;
}

static void teardown(void *provctx) { free(provctx); }

static const OSSL_DISPATCH provider_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))query_operation},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))get_reason_strings},
    {0, NULL},
};

/* The module's one exported symbol (openssl/provider.map hides the rest). */
__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
                                                              const OSSL_DISPATCH *in,
                                                              const OSSL_DISPATCH **out,
                                                              void **provctx);

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    provider *p = calloc(1, sizeof *p);
    if (p == NULL)
        return 0;
    p->handle = handle;
    for (; in != NULL && in->function_id != 0; in++) {
        if (in->function_id == OSSL_FUNC_CORE_NEW_ERROR)
            p->new_error = OSSL_FUNC_core_new_error(in);
        else if (in->function_id == OSSL_FUNC_CORE_VSET_ERROR)
            p->vset_error = OSSL_FUNC_core_vset_error(in);
    }
    trace_path = secure_getenv("SHAKERAND_OPENSSL_TRACE");
    *out = provider_functions;
    *provctx = p;
    return 1;
}
