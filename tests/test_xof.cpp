// SPDX-License-Identifier: MIT OR Apache-2.0
// TurboSHAKE and SHAKE: published vectors (RFC 9861, FIPS 202 / CAVP) under
// every kernel, slicing independence, and every error path.
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using test::bytes;

int init_for(shakerand_xof *x, const std::string &function, unsigned domain)
{
    if (function == "TurboSHAKE128") return shakerand_turboshake128_init(x, domain);
    if (function == "TurboSHAKE256") return shakerand_turboshake256_init(x, domain);
    if (function == "SHAKE128") return shakerand_shake128_init(x);
    if (function == "SHAKE256") return shakerand_shake256_init(x);
    throw std::invalid_argument(function);
}

bytes message_of(const nlohmann::json &m)
{
    if (m.at("kind") == "ptn")
        return test::ptn(m.at("length").get<std::size_t>());
    return test::from_hex(m.at("hex").get<std::string>());
}

void check_vector_file(const char *path, std::size_t minimum)
{
    const auto doc = test::load_json(path);
    ASSERT_GE(doc.at("vectors").size(), minimum);
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        for (const auto &v : doc.at("vectors")) {
            const bytes msg = message_of(v.at("message"));
            const auto out_len = v.at("output_length").get<std::size_t>();
            const auto skip = v.at("skip").get<std::size_t>();
            shakerand_xof x;
            ASSERT_EQ(SHAKERAND_OK, init_for(&x, v.at("function"), v.at("domain").get<unsigned>()));
            ASSERT_EQ(SHAKERAND_OK, shakerand_xof_absorb(&x, msg.data(), msg.size()));
            bytes out(out_len);
            ASSERT_EQ(SHAKERAND_OK, shakerand_xof_squeeze(&x, out.data(), out.size()));
            EXPECT_EQ(test::to_hex(out.data() + skip, out_len - skip), v.at("expected_hex").get<std::string>())
                << k->name << " " << v.at("function") << " msg=" << v.at("message").dump()
                << " D=" << v.at("domain");
        }
    }
}

TEST(Xof, Rfc9861TurboShakeVectors) { check_vector_file("tests/kat/rfc9861.json", 31); }

TEST(Xof, Fips202ShakeVectors) { check_vector_file("tests/kat/fips202.json", 20); }

// Absorbing and squeezing in random pieces gives the one-shot answer.
TEST(Xof, SlicingDoesNotChangeOutput)
{
    std::mt19937_64 rng(7);
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        for (int trial = 0; trial < 200; trial++) {
            const std::size_t in_len = rng() % 700, out_len = rng() % 900;
            const unsigned domain = 1 + static_cast<unsigned>(rng() % 0x7F);
            bytes msg(in_len);
            for (auto &b : msg)
                b = static_cast<std::uint8_t>(rng());
            for (const char *fn : {"TurboSHAKE128", "TurboSHAKE256", "SHAKE128", "SHAKE256"}) {
                bytes whole(out_len), pieces(out_len);
                shakerand_xof x;
                ASSERT_EQ(SHAKERAND_OK, init_for(&x, fn, domain));
                ASSERT_EQ(SHAKERAND_OK, shakerand_xof_absorb(&x, msg.data(), msg.size()));
                ASSERT_EQ(SHAKERAND_OK, shakerand_xof_squeeze(&x, whole.data(), whole.size()));

                ASSERT_EQ(SHAKERAND_OK, init_for(&x, fn, domain));
                for (std::size_t pos = 0; pos < in_len;) {
                    const std::size_t n = std::min<std::size_t>(in_len - pos, rng() % 200);
                    ASSERT_EQ(SHAKERAND_OK, shakerand_xof_absorb(&x, msg.data() + pos, n));
                    pos += n;
                }
                for (std::size_t pos = 0; pos < out_len;) {
                    const std::size_t n = std::min<std::size_t>(out_len - pos, rng() % 300);
                    ASSERT_EQ(SHAKERAND_OK, shakerand_xof_squeeze(&x, pieces.data() + pos, n));
                    pos += n;
                }
                ASSERT_EQ(whole, pieces) << fn << " trial " << trial;
            }
        }
    }
}

TEST(Xof, OneShotEqualsIncremental)
{
    const bytes msg = test::ptn(300);
    bytes a(200), b(200);
    shakerand_xof x;
    ASSERT_EQ(SHAKERAND_OK, shakerand_turboshake256(a.data(), a.size(), msg.data(), msg.size(), 0x0B));
    shakerand_turboshake256_init(&x, 0x0B);
    shakerand_xof_absorb(&x, msg.data(), msg.size());
    shakerand_xof_squeeze(&x, b.data(), b.size());
    EXPECT_EQ(a, b);
    ASSERT_EQ(SHAKERAND_OK, shakerand_turboshake128(a.data(), a.size(), msg.data(), msg.size(), 0x1F));
    shakerand_turboshake128_init(&x, 0x1F);
    shakerand_xof_absorb(&x, msg.data(), msg.size());
    shakerand_xof_squeeze(&x, b.data(), b.size());
    EXPECT_EQ(a, b);
    ASSERT_EQ(SHAKERAND_OK, shakerand_shake128(a.data(), a.size(), msg.data(), msg.size()));
    shakerand_shake128_init(&x);
    shakerand_xof_absorb(&x, msg.data(), msg.size());
    shakerand_xof_squeeze(&x, b.data(), b.size());
    EXPECT_EQ(a, b);
    ASSERT_EQ(SHAKERAND_OK, shakerand_shake256(a.data(), a.size(), msg.data(), msg.size()));
    shakerand_shake256_init(&x);
    shakerand_xof_absorb(&x, msg.data(), msg.size());
    shakerand_xof_squeeze(&x, b.data(), b.size());
    EXPECT_EQ(a, b);
}

// Periods of 1088 bytes with a 32-byte ratchet between them are the
// RandomSHAKE engines' streams (docs/engines.md).
TEST(XofRatchet, PeriodsAndRatchetsAreTheRandomShakeEngines)
{
    const bytes seed = test::ptn(136);
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        for (shakerand_kind kind : {SHAKERAND_TURBOSHAKE256, SHAKERAND_SHAKE256}) {
            shakerand_engine e;
            ASSERT_EQ(SHAKERAND_OK, shakerand_engine_init(&e, kind, seed.data(), seed.size()));
            bytes expected(5 * 1088), got(expected.size());
            shakerand_engine_fill(&e, expected.data(), expected.size());
            shakerand_xof x;
            ASSERT_EQ(SHAKERAND_OK, kind == SHAKERAND_SHAKE256 ? shakerand_shake256_init(&x)
                                                                : shakerand_turboshake256_init(&x, 0x1F));
            ASSERT_EQ(SHAKERAND_OK, shakerand_xof_absorb(&x, seed.data(), seed.size()));
            for (std::size_t off = 0; off < got.size(); off += 1088) {
                if (off > 0) {
                    ASSERT_EQ(SHAKERAND_OK, shakerand_xof_ratchet(&x, 32));
                }
                ASSERT_EQ(SHAKERAND_OK, shakerand_xof_squeeze(&x, got.data() + off, 1088));
            }
            EXPECT_EQ(got, expected) << k->name << " kind " << kind;
        }
    }
}

// A model of a sponge that permutes as soon as a block is used up (as
// RandomSHAKE's XOF does): ratchets of any length at any offset, mixed with
// squeezes of any length, give the model's bytes.
struct eager_sponge {
    std::uint64_t s[25];
    std::size_t rate, pos;
    unsigned rounds;
    std::uint8_t byte(std::size_t i) const { return static_cast<std::uint8_t>(s[i / 8] >> (8 * (i % 8))); }
    void squeeze(std::uint8_t *out, std::size_t n)
    {
        for (std::size_t i = 0; i < n; i++) {
            out[i] = byte(pos++);
            if (pos == rate) {
                shakerand_keccakp1600_permute_portable(s, rounds);
                pos = 0;
            }
        }
    }
    void ratchet(std::size_t n)
    {
        for (std::size_t i = 0; i < n; i++)
            s[i / 8] &= ~(std::uint64_t{0xFF} << (8 * (i % 8)));
        shakerand_keccakp1600_permute_portable(s, rounds);
    }
};

TEST(XofRatchet, AnyLengthAtAnyOffsetMatchesAModel)
{
    std::mt19937_64 rng(11);
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        for (int trial = 0; trial < 100; trial++) {
            const bool shake = trial % 2;
            shakerand_xof x;
            ASSERT_EQ(SHAKERAND_OK, shake ? shakerand_shake256_init(&x) : shakerand_turboshake256_init(&x, 0x1F));
            const bytes msg = test::ptn(rng() % 300);
            shakerand_xof_absorb(&x, msg.data(), msg.size());
            ASSERT_EQ(SHAKERAND_OK, shakerand_xof_squeeze(&x, nullptr, 0)); // finalises
            eager_sponge m{};
            std::memcpy(m.s, x.state_, sizeof m.s);
            m.rate = 136;
            m.pos = 0;
            m.rounds = shake ? 24 : 12;
            for (int step = 0; step < 40; step++) {
                if (rng() % 3 == 0) {
                    const std::size_t n = rng() % 201;
                    ASSERT_EQ(SHAKERAND_OK, shakerand_xof_ratchet(&x, n));
                    m.ratchet(n);
                } else {
                    // Often exactly to a block's end, where the two sponges differ in when they permute.
                    const std::size_t n = rng() % 2 ? 136 - m.pos : rng() % 400;
                    bytes a(n), b(n);
                    ASSERT_EQ(SHAKERAND_OK, shakerand_xof_squeeze(&x, a.data(), n));
                    m.squeeze(b.data(), n);
                    ASSERT_EQ(a, b) << k->name << " trial " << trial << " step " << step;
                }
            }
        }
    }
}

TEST(XofErrors, RatchetRefusesAnAbsorbingXofAndALengthOver200)
{
    shakerand_xof x, reference;
    shakerand_turboshake256_init(&x, 0x1F);
    shakerand_xof_absorb(&x, "abc", 3);
    reference = x;
    EXPECT_EQ(SHAKERAND_ESTATE, shakerand_xof_ratchet(&x, 32));
    EXPECT_EQ(0, std::memcmp(&x, &reference, sizeof x));
    std::uint8_t out[1];
    shakerand_xof_squeeze(&x, out, 1);
    reference = x;
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_xof_ratchet(&x, 201));
    EXPECT_EQ(0, std::memcmp(&x, &reference, sizeof x));
    EXPECT_EQ(SHAKERAND_OK, shakerand_xof_ratchet(&x, 200));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_xof_ratchet(nullptr, 32));
    shakerand_xof_wipe(&x);
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_xof_ratchet(&x, 32));
}

TEST(XofErrors, DomainByteOutOfRange)
{
    shakerand_xof x;
    for (unsigned bad : {0x00u, 0x80u, 0xFFu, 0x100u}) {
        EXPECT_EQ(SHAKERAND_EINVAL, shakerand_turboshake128_init(&x, bad));
        EXPECT_EQ(SHAKERAND_EINVAL, shakerand_turboshake256_init(&x, bad));
        std::uint8_t out[8];
        EXPECT_EQ(SHAKERAND_EINVAL, shakerand_turboshake256(out, 8, "", 0, bad));
    }
    EXPECT_EQ(SHAKERAND_OK, shakerand_turboshake256_init(&x, 0x01));
    EXPECT_EQ(SHAKERAND_OK, shakerand_turboshake256_init(&x, 0x7F));
}

TEST(XofErrors, AbsorbAfterSqueezeIsRefusedAndChangesNothing)
{
    shakerand_xof x, reference;
    shakerand_turboshake256_init(&x, 0x1F);
    shakerand_xof_absorb(&x, "abc", 3);
    std::uint8_t first[10];
    shakerand_xof_squeeze(&x, first, sizeof first);
    reference = x;
    EXPECT_EQ(SHAKERAND_ESTATE, shakerand_xof_absorb(&x, "d", 1));
    EXPECT_EQ(0, std::memcmp(&x, &reference, sizeof x));
}

TEST(XofErrors, NullArguments)
{
    shakerand_xof x;
    std::uint8_t out[4];
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_turboshake256_init(nullptr, 0x1F));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_shake256_init(nullptr));
    shakerand_shake256_init(&x);
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_xof_absorb(&x, nullptr, 1));
    EXPECT_EQ(SHAKERAND_OK, shakerand_xof_absorb(&x, nullptr, 0));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_xof_squeeze(&x, nullptr, 1));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_xof_absorb(nullptr, "a", 1));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_shake256(nullptr, 4, "a", 1));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_shake256(out, 4, nullptr, 1));
}

TEST(XofErrors, UninitialisedOrWipedObjectIsRefused)
{
    shakerand_xof x;
    shakerand_shake256_init(&x);
    shakerand_xof_wipe(&x);
    std::uint8_t out[4];
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_xof_absorb(&x, "a", 1));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_xof_squeeze(&x, out, 4));
    const auto *raw = reinterpret_cast<const unsigned char *>(&x);
    for (std::size_t i = 0; i < sizeof x; i++)
        ASSERT_EQ(raw[i], 0) << "wipe left byte " << i;
}

TEST(Status, EveryCodeHasAMessage)
{
    for (int s : {SHAKERAND_OK, SHAKERAND_EINVAL, SHAKERAND_ESTATE, SHAKERAND_EENTROPY, 42})
        EXPECT_GT(std::strlen(shakerand_strerror(s)), 0u);
    EXPECT_STREQ(shakerand_version(), SHAKERAND_VERSION_STRING);
}

}  // namespace
