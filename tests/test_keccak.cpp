// SPDX-License-Identifier: MIT OR Apache-2.0
// The permutation kernels: a published answer for Keccak-f[1600], every
// kernel equal to the portable one, and the dispatch rules.
#include <cstdlib>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

// Keccak-f[1600] applied once to the all-zero state: the first lanes of the
// Keccak team's published intermediate values (KeccakF-1600-IntermediateValues.txt).
TEST(Keccak, ZeroStatePermutationKnownAnswer)
{
    for (const auto *k : test::kernels()) {
        std::uint64_t s[25] = {};
        k->p1600(s, 24);
        EXPECT_EQ(s[0], 0xF1258F7940E1DDE7ULL) << k->name;
        EXPECT_EQ(s[1], 0x84D5CCF933C0478AULL) << k->name;
        EXPECT_EQ(s[24], 0xEAF1FF7B5CECA249ULL) << k->name;
    }
}

// Named single-state permutations against the portable one on random
// states, 12 and 24 rounds.
void check_single_state(const std::vector<std::pair<std::string, shakerand_p1600_fn>> &fns, int trials)
{
    std::mt19937_64 rng(12345);
    for (int trial = 0; trial < trials; trial++) {
        std::uint64_t input[25];
        for (auto &lane : input)
            lane = rng();
        for (unsigned rounds : {12u, 24u}) {
            std::uint64_t expected[25];
            std::memcpy(expected, input, sizeof input);
            shakerand_keccakp1600_permute_portable(expected, rounds);
            for (const auto &[name, fn] : fns) {
                std::uint64_t got[25];
                std::memcpy(got, input, sizeof input);
                fn(got, rounds);
                ASSERT_EQ(0, std::memcmp(got, expected, sizeof got))
                    << name << " rounds=" << rounds << " trial=" << trial;
            }
        }
    }
}

TEST(Keccak, EveryKernelEqualsPortableOnRandomStates)
{
    std::vector<std::pair<std::string, shakerand_p1600_fn>> fns;
    for (const auto *k : test::kernels())
        fns.emplace_back(k->name, k->p1600);
    ASSERT_GE(fns.size(), 1u);
    check_single_state(fns, 2000);
}

// The single-state functions one by one: the AVX-512 set runs whichever of
// its own and the BMI2 one dispatch timed faster, so the sets alone would
// test only one of them.
TEST(Keccak, EverySingleStateFunctionEqualsPortable)
{
    std::vector<std::pair<std::string, shakerand_p1600_fn>> fns;
#if defined(SHAKERAND_HAVE_X86_64_KERNELS)
    if (shakerand_kernel_find("avx2") != nullptr)
        fns.emplace_back("bmi2", shakerand_keccakp1600_permute_bmi2);
    if (shakerand_kernel_find("avx512") != nullptr)
        fns.emplace_back("avx512", shakerand_keccakp1600_permute_avx512);
#endif
    check_single_state(fns, 1000);
}

// x4 and x8: every kernel's parallel permutation equals the portable
// single-state permutation applied to each de-interleaved state.
template <unsigned N>
void check_parallel(shakerand_p1600xn_fn shakerand_kernel::*member)
{
    std::mt19937_64 rng(N);
    for (int trial = 0; trial < 300; trial++) {
        std::uint64_t input[25 * N];
        for (auto &lane : input)
            lane = rng();
        for (unsigned rounds : {12u, 24u}) {
            std::uint64_t expected[25 * N];
            for (unsigned j = 0; j < N; j++) {
                std::uint64_t one[25];
                for (unsigned i = 0; i < 25; i++)
                    one[i] = input[N * i + j];
                shakerand_keccakp1600_permute_portable(one, rounds);
                for (unsigned i = 0; i < 25; i++)
                    expected[N * i + j] = one[i];
            }
            for (const auto *k : test::kernels()) {
                std::uint64_t got[25 * N];
                std::memcpy(got, input, sizeof input);
                (k->*member)(got, rounds);
                ASSERT_EQ(0, std::memcmp(got, expected, sizeof got))
                    << k->name << " x" << N << " rounds=" << rounds << " trial=" << trial;
            }
        }
    }
}

TEST(Keccak, EveryX4KernelEqualsPortable) { check_parallel<4>(&shakerand_kernel::p1600x4); }

TEST(Keccak, EveryX8KernelEqualsPortable) { check_parallel<8>(&shakerand_kernel::p1600x8); }

// chacha8rand: every kernel's iteration equals the portable one's on
// random keys, at every output alignment, writes nothing outside its 992
// output bytes, and puts the next key only where it is told, the key it
// read included.
TEST(ChaCha8Rand, EveryKernelEqualsPortable)
{
    std::mt19937_64 rng(8);
    for (int trial = 0; trial < 500; trial++) {
        std::uint64_t key[4];
        for (auto &w : key)
            w = rng();
        unsigned char expected[992];
        std::uint64_t expected_key[4];
        shakerand_chacha8rand_portable(key, expected, expected_key);
        for (const auto *k : test::kernels()) {
            unsigned char got[992 + 16];
            const std::size_t offset = static_cast<std::size_t>(trial) % 8;
            std::memset(got, 0xA5, sizeof got);
            std::uint64_t next[4];
            k->chacha8rand(key, got + offset, next);
            ASSERT_EQ(0, std::memcmp(got + offset, expected, sizeof expected)) << k->name << " trial=" << trial;
            ASSERT_EQ(0, std::memcmp(next, expected_key, sizeof next)) << k->name;
            for (std::size_t i = 0; i < offset; i++)
                ASSERT_EQ(got[i], 0xA5) << k->name << " wrote before its output";
            for (std::size_t i = offset + 992; i < sizeof got; i++)
                ASSERT_EQ(got[i], 0xA5) << k->name << " wrote past its output";
            std::uint64_t in_place[4];
            std::memcpy(in_place, key, sizeof key);
            k->chacha8rand(in_place, got, in_place);
            ASSERT_EQ(0, std::memcmp(got, expected, sizeof expected)) << k->name << " in place";
            ASSERT_EQ(0, std::memcmp(in_place, expected_key, sizeof in_place)) << k->name << " in place";
        }
    }
}

TEST(Dispatch, DetectedKernelIsSupportedAndNamed)
{
    const char *name = shakerand_kernel_name();
    ASSERT_NE(name, nullptr);
    EXPECT_NE(shakerand_kernel_find(name), nullptr);
    if (const char *expected = std::getenv("EXPECT_KERNEL")) {
        EXPECT_STREQ(name, expected);
    }
}

TEST(Dispatch, UnknownKernelNameIsRefused)
{
    EXPECT_EQ(shakerand_kernel_find("no-such-kernel"), nullptr);
    EXPECT_EQ(shakerand_kernel_find(nullptr), nullptr);
    EXPECT_NE(shakerand_kernel_find("portable"), nullptr);
}

}  // namespace

// The tests' own SHA-256 (stream digests) against FIPS 180-4's examples.
TEST(TestSupport, Sha256KnownAnswers)
{
    const std::string abc = "abc";
    EXPECT_EQ(test::sha256_hex(test::bytes(abc.begin(), abc.end())),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    EXPECT_EQ(test::sha256_hex(test::bytes(two.begin(), two.end())),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(test::sha256_hex(test::bytes(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
