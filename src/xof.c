/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* TurboSHAKE128/256 (RFC 9861) and SHAKE128/256 (FIPS 202) over the
 * dispatched Keccak-p[1600] kernel. */
#include "internal.h"
#include "keccakp1600.h"

enum { RATE_128 = 168, RATE_256 = 136 };

static int xof_init(shakerand_xof *xof, unsigned rate, unsigned rounds, unsigned domain)
{
    if (xof == NULL)
        return SHAKERAND_EINVAL;
    memset(xof, 0, sizeof *xof);
    xof->rate_ = (uint16_t)rate;
    xof->rounds_ = (uint8_t)rounds;
    xof->domain_ = (uint8_t)domain;
    return SHAKERAND_OK;
}

/* RFC 9861 section 2.2: D is in 0x01..0x7F. */
static int turboshake_domain_ok(unsigned domain) { return domain >= 0x01 && domain <= 0x7F; }

int shakerand_turboshake128_init(shakerand_xof *xof, unsigned domain)
{
    return turboshake_domain_ok(domain) ? xof_init(xof, RATE_128, 12, domain) : SHAKERAND_EINVAL;
}

int shakerand_turboshake256_init(shakerand_xof *xof, unsigned domain)
{
    return turboshake_domain_ok(domain) ? xof_init(xof, RATE_256, 12, domain) : SHAKERAND_EINVAL;
}

/* SHAKE's suffix bits 1111 and the first padding bit make the byte 0x1F. */
int shakerand_shake128_init(shakerand_xof *xof) { return xof_init(xof, RATE_128, 24, 0x1F); }
int shakerand_shake256_init(shakerand_xof *xof) { return xof_init(xof, RATE_256, 24, 0x1F); }

static int xof_valid(const shakerand_xof *xof)
{
    return xof != NULL && (xof->rate_ == RATE_128 || xof->rate_ == RATE_256);
}

/* The public calls that permute wipe the stack the permutation used once
 * they return (internal.h); the work runs in these frames below them. */
__attribute__((noinline)) static int xof_absorb(shakerand_xof *xof, const void *in, size_t len,
                                                int *used)
{
    if (!xof_valid(xof) || (in == NULL && len > 0))
        return SHAKERAND_EINVAL;
    if (xof->squeezing_)
        return SHAKERAND_ESTATE;
    const shakerand_p1600_fn permute = shakerand_kernel_get()->p1600;
    const unsigned char *p = in;
    while (len > 0) {
        size_t take = xof->rate_ - xof->pos_;
        if (take > len)
            take = len;
        shakerand_state_xor_bytes(xof->state_, xof->pos_, p, take);
        xof->pos_ = (uint16_t)(xof->pos_ + take);
        p += take;
        len -= take;
        if (xof->pos_ == xof->rate_) {
            permute(xof->state_, xof->rounds_);
            *used = SHAKERAND_STACK_KERNEL;
            xof->pos_ = 0;
        }
    }
    return SHAKERAND_OK;
}

static void xof_finalize(shakerand_xof *xof, shakerand_p1600_fn permute)
{
    const unsigned char domain = xof->domain_, last = 0x80;
    shakerand_state_xor_bytes(xof->state_, xof->pos_, &domain, 1);
    shakerand_state_xor_bytes(xof->state_, xof->rate_ - 1u, &last, 1);
    permute(xof->state_, xof->rounds_);
    xof->pos_ = 0;
    xof->squeezing_ = 1;
}

int shakerand_xof_absorb(shakerand_xof *xof, const void *in, size_t len)
{
    int used = SHAKERAND_STACK_CLEAN;
    const int status = xof_absorb(xof, in, len, &used);
    shakerand_wipe_stack(used);
    return status;
}

__attribute__((noinline)) static int xof_squeeze(shakerand_xof *xof, void *out, size_t len,
                                                 int *used)
{
    if (!xof_valid(xof) || (out == NULL && len > 0))
        return SHAKERAND_EINVAL;
    const shakerand_p1600_fn permute = shakerand_kernel_get()->p1600;
    if (!xof->squeezing_) {
        xof_finalize(xof, permute);
        *used = SHAKERAND_STACK_KERNEL;
    }
    unsigned char *p = out;
    while (len > 0) {
        if (xof->pos_ == xof->rate_) {
            permute(xof->state_, xof->rounds_);
            *used = SHAKERAND_STACK_KERNEL;
            xof->pos_ = 0;
        }
        size_t take = xof->rate_ - xof->pos_;
        if (take > len)
            take = len;
        shakerand_state_extract_bytes(xof->state_, xof->pos_, p, take);
        xof->pos_ = (uint16_t)(xof->pos_ + take);
        p += take;
        len -= take;
    }
    return SHAKERAND_OK;
}

int shakerand_xof_squeeze(shakerand_xof *xof, void *out, size_t len)
{
    int used = SHAKERAND_STACK_CLEAN;
    const int status = xof_squeeze(xof, out, len, &used);
    shakerand_wipe_stack(used);
    return status;
}

__attribute__((noinline)) static int xof_ratchet(shakerand_xof *xof, size_t n)
{
    if (!xof_valid(xof) || n > 200)
        return SHAKERAND_EINVAL;
    if (!xof->squeezing_)
        return SHAKERAND_ESTATE;
    const shakerand_p1600_fn permute = shakerand_kernel_get()->p1600;
    /* Squeezing permutes lazily, before a block's first byte; RandomSHAKE
     * permutes as soon as a block is used up, and ratchets that state. */
    if (xof->pos_ == xof->rate_) {
        permute(xof->state_, xof->rounds_);
        xof->pos_ = 0;
    }
    shakerand_state_zero_bytes(xof->state_, 0, n);
    permute(xof->state_, xof->rounds_);
    return SHAKERAND_OK;
}

int shakerand_xof_ratchet(shakerand_xof *xof, size_t n)
{
    const int status = xof_ratchet(xof, n);
    shakerand_wipe_stack(SHAKERAND_STACK_KERNEL);
    return status;
}

void shakerand_xof_wipe(shakerand_xof *xof) { shakerand_memzero(xof, sizeof *xof); }

int shakerand_xof_absorb_unwiped(shakerand_xof *xof, const void *in, size_t len)
{
    int used;
    return xof_absorb(xof, in, len, &used);
}

int shakerand_xof_squeeze_unwiped(shakerand_xof *xof, void *out, size_t len)
{
    int used;
    return xof_squeeze(xof, out, len, &used);
}

/* A one-shot hash into an initialised (or, with a bad status, refused)
 * xof, which it wipes. */
static int one_shot(shakerand_xof *xof, int status, void *out, size_t out_len, const void *in,
                    size_t in_len)
{
    if (status == SHAKERAND_OK && (out == NULL && out_len > 0))
        status = SHAKERAND_EINVAL;
    if (status == SHAKERAND_OK)
        status = shakerand_xof_absorb_unwiped(xof, in, in_len);
    if (status == SHAKERAND_OK)
        status = shakerand_xof_squeeze_unwiped(xof, out, out_len);
    shakerand_xof_wipe(xof);
    return status;
}

static int one_shot_wiped(shakerand_xof *xof, int status, void *out, size_t out_len, const void *in,
                          size_t in_len)
{
    status = one_shot(xof, status, out, out_len, in, in_len);
    shakerand_wipe_stack(SHAKERAND_STACK_KERNEL);
    return status;
}

int shakerand_turboshake256_unwiped(void *out, size_t out_len, const void *in, size_t in_len,
                                    unsigned domain)
{
    shakerand_xof xof;
    return one_shot(&xof, shakerand_turboshake256_init(&xof, domain), out, out_len, in, in_len);
}

int shakerand_turboshake128(void *out, size_t out_len, const void *in, size_t in_len,
                            unsigned domain)
{
    shakerand_xof xof;
    return one_shot_wiped(&xof, shakerand_turboshake128_init(&xof, domain), out, out_len, in,
                          in_len);
}

int shakerand_turboshake256(void *out, size_t out_len, const void *in, size_t in_len,
                            unsigned domain)
{
    shakerand_xof xof;
    return one_shot_wiped(&xof, shakerand_turboshake256_init(&xof, domain), out, out_len, in,
                          in_len);
}

int shakerand_shake128(void *out, size_t out_len, const void *in, size_t in_len)
{
    shakerand_xof xof;
    return one_shot_wiped(&xof, shakerand_shake128_init(&xof), out, out_len, in, in_len);
}

int shakerand_shake256(void *out, size_t out_len, const void *in, size_t in_len)
{
    shakerand_xof xof;
    return one_shot_wiped(&xof, shakerand_shake256_init(&xof), out, out_len, in, in_len);
}
