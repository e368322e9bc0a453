// SPDX-License-Identifier: MIT OR Apache-2.0
// The C++20 front end: the URBG concept, RandomSHAKE's own output through
// engine<uint8_t> and engine<uint64_t>, the project's vectors, <random>
// distributions, move semantics, and the sampler helpers.
#include <algorithm>
#include <array>
#include <span>
#include <cmath>
#include <concepts>
#include <fstream>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <shakerand.hpp>

#include "../sha256.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;
using shakerand::kind;

template <class T, kind K>
constexpr bool urbg = std::uniform_random_bit_generator<shakerand::engine<T, K>>;

static_assert(urbg<std::uint8_t, kind::turboshake256> && urbg<std::uint16_t, kind::turboshake256> &&
              urbg<std::uint32_t, kind::turboshake256> && urbg<std::uint64_t, kind::turboshake256>);
static_assert(urbg<std::uint8_t, kind::shake256> && urbg<std::uint16_t, kind::shake256> &&
              urbg<std::uint32_t, kind::shake256> && urbg<std::uint64_t, kind::shake256>);
static_assert(urbg<std::uint8_t, kind::turboshake256x8> && urbg<std::uint16_t, kind::turboshake256x8> &&
              urbg<std::uint32_t, kind::turboshake256x8> && urbg<std::uint64_t, kind::turboshake256x8>);
static_assert(std::uniform_random_bit_generator<shakerand::system_rng>);
static_assert(!std::is_copy_constructible_v<shakerand::engine<>> && !std::is_copy_assignable_v<shakerand::engine<>>);
static_assert(std::is_nothrow_move_constructible_v<shakerand::engine<>> &&
              std::is_nothrow_move_assignable_v<shakerand::engine<>>);
static_assert(std::is_same_v<shakerand::engine<>::result_type, std::uint8_t> &&
              shakerand::engine<>::engine_kind == kind::turboshake256);

nlohmann::json load(const std::string &relative)
{
    std::ifstream in(std::string(SHAKERAND_SOURCE_DIR) + "/" + relative);
    return nlohmann::json::parse(in);
}

bytes from_hex(const std::string &hex)
{
    bytes out(hex.size() / 2);
    for (std::size_t i = 0; i < out.size(); i++)
        out[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return out;
}

std::string to_hex(const std::uint8_t *p, std::size_t n)
{
    static const char d[] = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; i++) {
        s += d[p[i] >> 4];
        s += d[p[i] & 15];
    }
    return s;
}

// The first n bytes of the stream, read through operator() one word at a
// time and laid out little-endian.
template <class T, kind K>
bytes through_words(const bytes &seed, std::size_t n)
{
    shakerand::engine<T, K> rng(seed);
    bytes out;
    while (out.size() < n) {
        const T w = rng();
        for (std::size_t i = 0; i < sizeof(T); i++)
            out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(w) >> (8 * i)));
    }
    return out;
}

template <kind K>
void check_randomshake(const nlohmann::json &v)
{
    const bytes seed = from_hex(v.at("seed_hex"));
    for (const bytes &out : {through_words<std::uint8_t, K>(seed, 65536), through_words<std::uint64_t, K>(seed, 65536),
                             through_words<std::uint16_t, K>(seed, 65536)}) {
        EXPECT_EQ(to_hex(out.data(), 64), v.at("first_64_hex").get<std::string>());
        EXPECT_EQ(to_hex(out.data() + 1088, 64), v.at("bytes_1088_to_1152_hex").get<std::string>());
        EXPECT_EQ(test::sha256_hex(out), v.at("sha256_of_first_65536").get<std::string>());
    }
}

TEST(Engine, ReproducesRandomShakeThroughWords)
{
    const auto doc = load("vectors/randomshake.json");
    for (const auto &v : doc.at("vectors")) {
        if (v.at("engine") == "turboshake256")
            check_randomshake<kind::turboshake256>(v);
        else
            check_randomshake<kind::shake256>(v);
    }
}

template <kind K>
void check_project_vector(const nlohmann::json &v)
{
    const bytes seed = from_hex(v.at("seed_hex"));
    const bytes words = through_words<std::uint32_t, K>(seed, 65536);
    shakerand::engine<std::uint8_t, K> rng(seed);
    bytes gen(65536);
    rng.generate(gen);
    for (const bytes *out : std::initializer_list<const bytes *>{&words, &gen}) {
        for (const auto &c : v.at("chunks"))
            EXPECT_EQ(to_hex(out->data() + c.at("offset").get<std::size_t>(), 64), c.at("hex").get<std::string>());
        EXPECT_EQ(test::sha256_hex(*out), v.at("sha256_of_first_65536").get<std::string>());
    }
}

// Every unsigned integer type reads the same stream, sizeof(T) bytes at a
// time, little-endian (the types RandomSHAKE accepts, not just uintN_t).
template <class T>
void check_result_type(const bytes &seed, const bytes &expected)
{
    static_assert(urbg<T, kind::turboshake256> && urbg<T, kind::turboshake256x8>);
    shakerand::engine<T> rng(seed);
    bytes got;
    while (got.size() < expected.size()) {
        const T w = rng();
        for (std::size_t i = 0; i < sizeof(T); i++)
            got.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
    }
    EXPECT_EQ(got, expected) << sizeof(T);
}

TEST(Engine, EveryUnsignedResultTypeReadsTheStream)
{
    const bytes seed(136, 0xde);
    const bytes expected = through_words<std::uint8_t, kind::turboshake256>(seed, 4352);
    check_result_type<unsigned char>(seed, expected);
    check_result_type<unsigned short>(seed, expected);
    check_result_type<unsigned int>(seed, expected);
    check_result_type<unsigned long>(seed, expected);
    check_result_type<unsigned long long>(seed, expected);
    check_result_type<char8_t>(seed, expected);
    check_result_type<char16_t>(seed, expected);
    check_result_type<char32_t>(seed, expected);
    check_result_type<std::size_t>(seed, expected);
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    if constexpr (std::is_unsigned_v<u128>) // in GNU mode
        check_result_type<u128>(seed, expected);
#endif
}

// std::as_bytes of a seed, of any extent, is the same seed.
TEST(Engine, ByteSeedsAreTheSameSeeds)
{
    const std::array<std::uint8_t, 136> fixed = [] {
        std::array<std::uint8_t, 136> a;
        std::iota(a.begin(), a.end(), std::uint8_t{0});
        return a;
    }();
    const bytes dynamic(fixed.begin(), fixed.begin() + 40);
    shakerand::engine<std::uint64_t> a(fixed), b(std::as_bytes(std::span(fixed)));
    shakerand::engine<std::uint64_t, kind::turboshake256x8> c(dynamic), d(std::as_bytes(std::span(dynamic)));
    for (int i = 0; i < 300; i++) {
        ASSERT_EQ(a(), b());
        ASSERT_EQ(c(), d());
    }
    shakerand::engine<std::uint8_t> e(std::span<const std::byte>{});
    shakerand::engine<std::uint8_t> f(bytes{});
    for (int i = 0; i < 300; i++)
        ASSERT_EQ(e(), f());
}

TEST(Engine, ReproducesProjectVectors)
{
    const auto doc = load("vectors/shakerand.json");
    for (const auto &v : doc.at("engines")) {
        if (v.at("engine") == "turboshake256")
            check_project_vector<kind::turboshake256>(v);
        else if (v.at("engine") == "shake256")
            check_project_vector<kind::shake256>(v);
        else if (v.at("engine") == "turboshake256x8")
            check_project_vector<kind::turboshake256x8>(v);
        else if (v.at("engine") == "chacha8rand")
            check_project_vector<kind::chacha8rand>(v);
        else
            ADD_FAILURE() << "unknown engine " << v.at("engine");
    }
}

template <kind K>
void check_string_seed(const nlohmann::json &v)
{
    const std::string text = v.at("seed_text"); // nlohmann gives UTF-8
    const std::u8string text8(text.begin(), text.end());
    bytes a(64), b(64), c(64);
    shakerand::engine<std::uint8_t, K>(std::string_view(text)).generate(a);
    shakerand::engine<std::uint8_t, K>(std::u8string_view(text8)).generate(b);
    shakerand::engine<std::uint8_t, K>(from_hex(v.at("seed_hex"))).generate(c);
    for (const bytes *out : {&a, &b, &c})
        EXPECT_EQ(to_hex(out->data(), 64), v.at("first_64_hex").get<std::string>()) << text;
}

// A string seed is its UTF-8 bytes (docs/engines.md, "Seeds").
TEST(Engine, StringSeedsAreTheirUtf8Bytes)
{
    const auto doc = load("vectors/shakerand.json");
    std::size_t checked = 0;
    for (const auto &v : doc.at("string_seeds")) {
        if (v.at("engine") == "turboshake256")
            check_string_seed<kind::turboshake256>(v);
        else if (v.at("engine") == "shake256")
            check_string_seed<kind::shake256>(v);
        else if (v.at("engine") == "turboshake256x8")
            check_string_seed<kind::turboshake256x8>(v);
        else if (v.at("engine") == "chacha8rand")
            check_string_seed<kind::chacha8rand>(v);
        else
            ADD_FAILURE() << "unknown engine " << v.at("engine");
        checked++;
    }
    EXPECT_EQ(checked, 4u);
    // Literals: this file is UTF-8, and so are its narrow strings.
    bytes a(64), b(64);
    shakerand::engine<std::uint8_t>("Gr\u00fc\u00dfe, \u00e9 \u2603 \U0001f3b2").generate(a);
    shakerand::engine<std::uint8_t>(u8"Gr\u00fc\u00dfe, \u00e9 \u2603 \U0001f3b2").generate(b);
    EXPECT_EQ(to_hex(a.data(), 64), doc.at("string_seeds")[0].at("first_64_hex").get<std::string>());
    EXPECT_EQ(a, b);
}

// chacha8rand takes exactly 32 bytes: anything else is invalid_argument,
// and the default constructor seeds it.
TEST(Engine, ChaCha8RandSeedsAreThirtyTwoBytes)
{
    static_assert(shakerand::engine<std::uint64_t, kind::chacha8rand>::seed_byte_len == 32);
    for (std::size_t n : {std::size_t{0}, std::size_t{31}, std::size_t{33}, std::size_t{136}})
        EXPECT_THROW((shakerand::engine<std::uint64_t, kind::chacha8rand>(bytes(n, 1))), std::invalid_argument) << n;
    shakerand::engine<std::uint64_t, kind::chacha8rand> a, b;
    EXPECT_NE(a(), b());
}

// Words and generate() interleaved read one stream, in order.
TEST(Engine, WordsAndBytesInterleaveInOrder)
{
    const bytes seed(40, 7);
    const bytes expected = through_words<std::uint8_t, kind::turboshake256x8>(seed, 20000);
    shakerand::engine<std::uint32_t, kind::turboshake256x8> rng(seed);
    std::mt19937 pick(1);
    bytes got;
    while (got.size() < 19000) {
        if (pick() % 2) {
            bytes chunk(pick() % 700);
            rng.generate(chunk);
            got.insert(got.end(), chunk.begin(), chunk.end());
        } else {
            const std::uint32_t w = rng();
            for (int i = 0; i < 4; i++)
                got.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
        }
    }
    EXPECT_EQ(got, bytes(expected.begin(), expected.begin() + static_cast<long>(got.size())));
}

TEST(Engine, DefaultConstructedEnginesDiffer)
{
    shakerand::engine<std::uint64_t> a, b;
    EXPECT_NE(a(), b());
    shakerand::engine<std::uint64_t, kind::turboshake256x8> c, d;
    EXPECT_NE(c(), d());
}

TEST(Engine, MoveContinuesTheStreamAndEmptiesTheSource)
{
    const bytes seed(16, 1);
    shakerand::engine<std::uint64_t> reference(seed), moving(seed);
    for (int i = 0; i < 10; i++)
        ASSERT_EQ(reference(), moving());
    shakerand::engine<std::uint64_t> moved(std::move(moving));
    for (int i = 0; i < 1000; i++)
        ASSERT_EQ(reference(), moved());
    shakerand::engine<std::uint64_t> assigned(bytes{9});
    assigned = std::move(moved);
    for (int i = 0; i < 1000; i++)
        ASSERT_EQ(reference(), assigned());
    // A moved-from engine refuses to produce rather than repeat or zero.
    EXPECT_DEATH((void)moved(), "after wipe");
}

// ---- distributions -----------------------------------------------------------

double chi_square_p(const std::vector<double> &counts, double expected)
{
    double x = 0;
    for (double c : counts)
        x += (c - expected) * (c - expected) / expected;
    const double df = static_cast<double>(counts.size() - 1);
    const double z = (std::cbrt(x / df) - (1 - 2 / (9 * df))) / std::sqrt(2 / (9 * df));
    return 0.5 * std::erfc(z / std::sqrt(2.0));
}

template <class Rng>
void check_distributions(Rng &rng)
{
    const int n = 100000;
    std::uniform_int_distribution<int> die(1, 10);
    std::vector<double> counts(10, 0);
    for (int i = 0; i < n; i++) {
        const int v = die(rng);
        ASSERT_GE(v, 1);
        ASSERT_LE(v, 10);
        counts[static_cast<std::size_t>(v - 1)] += 1;
    }
    EXPECT_GT(chi_square_p(counts, n / 10.0), 1e-6);

    std::uniform_real_distribution<double> real(-2.0, 3.0);
    std::normal_distribution<double> normal(5.0, 2.0);
    std::bernoulli_distribution coin(0.3);
    std::binomial_distribution<int> flips(100, 0.5);
    double sum = 0, nsum = 0, nsum2 = 0, heads = 0, bsum = 0;
    for (int i = 0; i < n; i++) {
        const double r = real(rng);
        ASSERT_GE(r, -2.0);
        ASSERT_LT(r, 3.0);
        sum += r;
        const double x = normal(rng);
        nsum += x;
        nsum2 += x * x;
        heads += coin(rng);
        const int f = flips(rng);
        ASSERT_GE(f, 0);
        ASSERT_LE(f, 100);
        bsum += f;
    }
    EXPECT_NEAR(sum / n, 0.5, 0.03);
    EXPECT_NEAR(nsum / n, 5.0, 0.03);
    EXPECT_NEAR(std::sqrt(nsum2 / n - (nsum / n) * (nsum / n)), 2.0, 0.03);
    EXPECT_NEAR(heads / n, 0.3, 0.01);
    EXPECT_NEAR(bsum / n, 50.0, 0.1);

    std::vector<int> deck(52);
    std::iota(deck.begin(), deck.end(), 0);
    std::shuffle(deck.begin(), deck.end(), rng);
    std::vector<int> sorted = deck;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 52; i++)
        ASSERT_EQ(sorted[static_cast<std::size_t>(i)], i);
}

TEST(Distributions, WorkWithEveryEngineAndTheSystemGenerator)
{
    shakerand::engine<std::uint8_t> a(bytes{1});
    check_distributions(a);
    shakerand::engine<std::uint16_t, kind::shake256> b(bytes{2});
    check_distributions(b);
    shakerand::engine<std::uint32_t, kind::turboshake256x8> c(bytes{3});
    check_distributions(c);
    shakerand::engine<std::uint64_t, kind::turboshake256x8> d(bytes{4});
    check_distributions(d);
    shakerand::system_rng s;
    check_distributions(s);
}

// The snapshot calls pass straight to C (whose suite, test_snapshot.cpp,
// tests what they do: this suite links the shipped library, which has no
// hooks to count seeds), usable in a signal handler.
TEST(SystemRng, SnapshotCallsAreTheCores)
{
    static_assert(noexcept(shakerand::system_rng::new_epoch()));
    static_assert(noexcept(shakerand::system_rng::watches_vm_generation()));
    shakerand::system_rng rng;
    const std::uint64_t before = rng();
    shakerand::system_rng::new_epoch();
    EXPECT_NE(rng(), before);
    EXPECT_EQ(shakerand::system_rng::watches_vm_generation(), shakerand_system_watches_vm_generation() != 0);
}

// ---- helpers ---------------------------------------------------------------

// uniform_below draws the same values as the C sampler on the same stream.
TEST(Helpers, UniformBelowMatchesTheCSampler)
{
    const bytes seed(20, 5);
    shakerand::engine<std::uint8_t, kind::turboshake256x8> rng(seed);
    shakerand_engine c;
    shakerand_engine_init(&c, SHAKERAND_TURBOSHAKE256X8, seed.data(), seed.size());
    for (std::uint64_t n : {1ull, 3ull, 1000000007ull, (1ull << 63) + 1, ~0ull}) {
        for (int i = 0; i < 200; i++) {
            std::uint64_t expected;
            ASSERT_EQ(SHAKERAND_OK, shakerand_uniform_u64(&c, n, &expected));
            ASSERT_EQ(shakerand::uniform_below(rng, n), expected) << n;
        }
    }
    EXPECT_THROW(shakerand::uniform_below(rng, 0), std::invalid_argument);
    shakerand::system_rng sys;
    EXPECT_LT(shakerand::uniform_below(sys, 7), 7u);
    EXPECT_THROW(shakerand::uniform_below(sys, 0), std::invalid_argument);
}

TEST(Helpers, Uuids)
{
    const auto a = shakerand::uuid4(), b = shakerand::uuid4();
    EXPECT_NE(a, b);
    EXPECT_EQ(a[6] >> 4, 4);
    const std::string text = shakerand::to_string(a);
    ASSERT_EQ(text.size(), 36u);
    EXPECT_EQ(text[8], '-');
    EXPECT_EQ(text[14], '4');
    const auto u = shakerand::uuid7(), v = shakerand::uuid7();
    EXPECT_EQ(u[6] >> 4, 7);
    EXPECT_LT(u, v);
}

TEST(Helpers, ErrorsCarryTheStatus)
{
    const shakerand::error e(SHAKERAND_EENTROPY);
    EXPECT_EQ(e.status(), SHAKERAND_EENTROPY);
    EXPECT_NE(std::string(e.what()).find("entropy"), std::string::npos);
}

} // namespace
