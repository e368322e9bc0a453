// SPDX-License-Identifier: MIT OR Apache-2.0
// <randomshake/randomshake.hpp>: every name RandomSHAKE documents (README
// and header), its outputs (vectors/randomshake.json, taken from RandomSHAKE
// itself) for each XOF and result type, <random> distributions, and the XOF
// object with its ratchet against shakerand's own XOF and engines.
#include <randomshake/randomshake.hpp>

#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../sha256.hpp"

namespace {

using bytes = std::vector<uint8_t>;
using randomshake::xof_kind_t;

// ---- the names and their types -------------------------------------------

static_assert(std::is_same_v<std::underlying_type_t<xof_kind_t>, uint8_t>);
static_assert(static_cast<int>(xof_kind_t::SHAKE256) == 0 && static_cast<int>(xof_kind_t::TURBOSHAKE256) == 1);

// Defaults: uint8_t over TurboSHAKE256.
static_assert(std::is_same_v<randomshake::randomshake_t<>, randomshake::randomshake_t<uint8_t, xof_kind_t::TURBOSHAKE256>>);
static_assert(std::is_same_v<randomshake::randomshake_t<uint16_t>::result_type, uint16_t>);

template <xof_kind_t X>
constexpr bool constants_are_randomshakes =
    std::is_same_v<decltype(randomshake::xof_selector_t<X>::rate), const size_t> &&
    std::is_same_v<decltype(randomshake::xof_selector_t<X>::seed_byte_len), const size_t> &&
    std::is_same_v<decltype(randomshake::xof_selector_t<X>::ratchet_period_byte_len), const size_t> &&
    std::is_same_v<decltype(randomshake::xof_selector_t<X>::ratchet_byte_len), const size_t> &&
    randomshake::xof_selector_t<X>::rate == 1088 && randomshake::xof_selector_t<X>::seed_byte_len == 136 &&
    randomshake::xof_selector_t<X>::ratchet_period_byte_len == 1088 &&
    randomshake::xof_selector_t<X>::ratchet_byte_len == 32 &&
    std::is_same_v<decltype(randomshake::randomshake_t<uint8_t, X>::seed_byte_len), const size_t> &&
    randomshake::randomshake_t<uint8_t, X>::seed_byte_len == 136;
static_assert(constants_are_randomshakes<xof_kind_t::SHAKE256> && constants_are_randomshakes<xof_kind_t::TURBOSHAKE256>);

// Every unsigned integer type makes a URBG, with min() and max() its range.
template <class T, xof_kind_t X>
constexpr bool urbg = std::uniform_random_bit_generator<randomshake::randomshake_t<T, X>> &&
                      randomshake::randomshake_t<T, X>::min() == 0 &&
                      randomshake::randomshake_t<T, X>::max() == std::numeric_limits<T>::max();
template <class T>
constexpr bool urbg_both = urbg<T, xof_kind_t::SHAKE256> && urbg<T, xof_kind_t::TURBOSHAKE256>;
static_assert(urbg_both<uint8_t> && urbg_both<uint16_t> && urbg_both<uint32_t> && urbg_both<uint64_t> &&
              urbg_both<unsigned char> && urbg_both<unsigned short> && urbg_both<unsigned int> &&
              urbg_both<unsigned long> && urbg_both<unsigned long long> && urbg_both<char8_t> &&
              urbg_both<char16_t> && urbg_both<char32_t> && urbg_both<size_t>);

// Neither copyable nor movable, as RandomSHAKE's.
static_assert(!std::is_copy_constructible_v<randomshake::randomshake_t<>> &&
              !std::is_move_constructible_v<randomshake::randomshake_t<>> &&
              !std::is_copy_assignable_v<randomshake::randomshake_t<>> &&
              !std::is_move_assignable_v<randomshake::randomshake_t<>>);
// Seeded only from exactly seed_byte_len bytes, as RandomSHAKE.
static_assert(std::is_constructible_v<randomshake::randomshake_t<>, std::array<uint8_t, 136> &>);
static_assert(!std::is_constructible_v<randomshake::randomshake_t<>, std::array<uint8_t, 135> &>);
static_assert(!std::is_convertible_v<std::array<uint8_t, 136> &, randomshake::randomshake_t<>>);

static_assert(randomshake::check_endianness() == (std::endian::native == std::endian::little));

// ---- outputs --------------------------------------------------------------

nlohmann::json randomshake_vectors()
{
    std::ifstream in(std::string(SHAKERAND_SOURCE_DIR) + "/vectors/randomshake.json");
    return nlohmann::json::parse(in);
}

std::array<uint8_t, 136> seed_of(const nlohmann::json &v)
{
    const std::string hex = v.at("seed_hex");
    std::array<uint8_t, 136> seed{};
    EXPECT_EQ(hex.size(), 2 * seed.size());
    for (size_t i = 0; i < seed.size(); i++)
        seed[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return seed;
}

std::string to_hex(const uint8_t *p, size_t n)
{
    static const char d[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; i++) {
        s += d[p[i] >> 4];
        s += d[p[i] & 15];
    }
    return s;
}

void expect_vector(const bytes &out, const nlohmann::json &v, const char *how)
{
    EXPECT_EQ(to_hex(out.data(), 64), v.at("first_64_hex").get<std::string>()) << how;
    EXPECT_EQ(to_hex(out.data() + 1088, 64), v.at("bytes_1088_to_1152_hex").get<std::string>()) << how;
    EXPECT_EQ(test::sha256_hex(out), v.at("sha256_of_first_65536").get<std::string>()) << how;
}

// 65536 bytes through operator(), each result laid out little-endian.
template <class T, xof_kind_t X>
bytes through_results(std::span<const uint8_t, 136> seed)
{
    randomshake::randomshake_t<T, X> csprng(seed);
    bytes out;
    while (out.size() < 65536) {
        const T w = csprng();
        for (size_t i = 0; i < sizeof(T); i++)
            out.push_back(static_cast<uint8_t>(w >> (8 * i)));
    }
    return out;
}

template <xof_kind_t X>
void check_outputs(const nlohmann::json &v)
{
    const auto seed = seed_of(v);
    expect_vector(through_results<uint8_t, X>(seed), v, "uint8_t");
    expect_vector(through_results<uint16_t, X>(seed), v, "uint16_t");
    expect_vector(through_results<uint32_t, X>(seed), v, "uint32_t");
    expect_vector(through_results<uint64_t, X>(seed), v, "uint64_t");
    expect_vector(through_results<unsigned long long, X>(seed), v, "unsigned long long");
    expect_vector(through_results<char8_t, X>(seed), v, "char8_t");
    expect_vector(through_results<char16_t, X>(seed), v, "char16_t");
    expect_vector(through_results<char32_t, X>(seed), v, "char32_t");

    randomshake::randomshake_t<uint8_t, X> csprng(seed);
    bytes out(65536);
    csprng.generate(out);
    expect_vector(out, v, "generate");

    // RandomSHAKE's seed_byte_len is the XOF's, and the engine's stream is its.
    std::array<uint8_t, randomshake::xof_selector_t<X>::seed_byte_len> same = seed;
    randomshake::randomshake_t<uint64_t, X> words(same);
    constexpr auto kind = X == xof_kind_t::SHAKE256 ? shakerand::kind::shake256 : shakerand::kind::turboshake256;
    shakerand::engine<uint64_t, kind> engine(same);
    for (int i = 0; i < 1000; i++)
        ASSERT_EQ(words(), engine());
}

TEST(RandomShake, OutputsAreRandomShakesForEveryResultType)
{
    const auto doc = randomshake_vectors();
    ASSERT_EQ(doc.at("vectors").size(), 4u);
    for (const auto &v : doc.at("vectors")) {
        if (v.at("engine") == "turboshake256")
            check_outputs<xof_kind_t::TURBOSHAKE256>(v);
        else
            check_outputs<xof_kind_t::SHAKE256>(v);
    }
}

// The README's forms: CTAD from a seed and from nothing, the defaults.
TEST(RandomShake, ReadmeForms)
{
    std::array<uint8_t, randomshake::randomshake_t<>::seed_byte_len> seed{};
    seed.fill(0xde);

    randomshake::randomshake_t deduced(seed);
    static_assert(std::is_same_v<decltype(deduced), randomshake::randomshake_t<>>);
    randomshake::randomshake_t<uint8_t, xof_kind_t::TURBOSHAKE256> spelled(seed);
    std::vector<uint8_t> a(3000), b(3000);
    std::ranges::generate(a, [&]() { return deduced(); });
    spelled.generate(b);
    EXPECT_EQ(a, b);

    randomshake::randomshake_t csprng;
    static_assert(std::is_same_v<decltype(csprng), randomshake::randomshake_t<>>);
    randomshake::randomshake_t<uint64_t, xof_kind_t::SHAKE256> x, y;
    EXPECT_NE(x(), y()); // seeded from the system generator
}

// ---- <random> ---------------------------------------------------------------

template <class Rng>
void check_distributions(Rng &rng)
{
    const int n = 50000;
    std::uniform_int_distribution<int> die(1, 6);
    std::uniform_real_distribution<double> real(0.0, 1.0);
    std::normal_distribution<double> normal(5.0, 2.0);
    std::bernoulli_distribution coin(0.25);
    std::binomial_distribution<int> flips(1000, 0.5);
    std::vector<int> faces(6, 0);
    double rsum = 0, nsum = 0, heads = 0, fsum = 0;
    for (int i = 0; i < n; i++) {
        const int f = die(rng);
        ASSERT_GE(f, 1);
        ASSERT_LE(f, 6);
        faces[static_cast<size_t>(f - 1)]++;
        const double r = real(rng);
        ASSERT_GE(r, 0.0);
        ASSERT_LT(r, 1.0);
        rsum += r;
        nsum += normal(rng);
        heads += coin(rng);
        fsum += flips(rng);
    }
    for (int c : faces)
        EXPECT_NEAR(c, n / 6.0, 600); // > 6 standard deviations
    EXPECT_NEAR(rsum / n, 0.5, 0.01);
    EXPECT_NEAR(nsum / n, 5.0, 0.06);
    EXPECT_NEAR(heads / n, 0.25, 0.015);
    EXPECT_NEAR(fsum / n, 500.0, 0.7);
}

TEST(RandomShake, DistributionsWork)
{
    std::array<uint8_t, 136> seed{};
    seed.fill(0x5a);
    randomshake::randomshake_t a(seed);
    check_distributions(a);
    randomshake::randomshake_t<uint16_t, xof_kind_t::SHAKE256> b(seed);
    check_distributions(b);
    randomshake::randomshake_t<uint32_t> c;
    check_distributions(c);
    randomshake::randomshake_t<unsigned long long> d(seed);
    check_distributions(d);
    randomshake::randomshake_t<char32_t> e(seed);
    check_distributions(e);
}

// ---- the XOF object -----------------------------------------------------------

template <xof_kind_t X>
bytes xof_of(const bytes &msg, size_t n)
{
    bytes out(n);
    if constexpr (X == xof_kind_t::SHAKE256)
        EXPECT_EQ(SHAKERAND_OK, shakerand_shake256(out.data(), n, msg.data(), msg.size()));
    else
        EXPECT_EQ(SHAKERAND_OK, shakerand_turboshake256(out.data(), n, msg.data(), msg.size(), 0x1F));
    return out;
}

template <xof_kind_t X>
void check_xof_is_shakerands()
{
    using xof_t = typename randomshake::xof_selector_t<X>::type;
    bytes msg(500);
    for (size_t i = 0; i < msg.size(); i++)
        msg[i] = static_cast<uint8_t>(i * 7);
    const bytes expected = xof_of<X>(msg, 3000);

    xof_t x;
    EXPECT_EQ(x.squeezable_num_bytes(), 0u);
    bytes untouched(10, 0xaa);
    x.squeeze(untouched); // before finalize: nothing
    EXPECT_EQ(untouched, bytes(10, 0xaa));
    x.ratchet(32); // before finalize: nothing
    x.absorb(std::span(msg).first(123));
    x.absorb(std::span(msg).subspan(123));
    x.finalize();
    x.absorb(msg); // after finalize: nothing
    x.finalize();  // again: nothing
    EXPECT_EQ(x.squeezable_num_bytes(), 136u);
    bytes got(3000);
    for (size_t off = 0, step = 1; off < got.size(); off += step, step = step * 3 % 701) {
        step = std::min(step, got.size() - off);
        x.squeeze(std::span(got).subspan(off, step));
        EXPECT_EQ(x.squeezable_num_bytes(), 136 - (off + step) % 136);
    }
    EXPECT_EQ(got, expected);

    // reset starts over; the object can be copied mid-stream.
    x.reset();
    EXPECT_EQ(x.squeezable_num_bytes(), 0u);
    x.absorb(msg);
    x.finalize();
    bytes first(1000), rest(2000), copied(2000);
    x.squeeze(first);
    xof_t y = x;
    x.squeeze(rest);
    y.squeeze(copied);
    EXPECT_EQ(rest, copied);
    first.insert(first.end(), rest.begin(), rest.end());
    EXPECT_EQ(first, expected);
}

TEST(RandomShakeXof, AbsorbFinalizeSqueezeAreShakerandsXof)
{
    check_xof_is_shakerands<xof_kind_t::TURBOSHAKE256>();
    check_xof_is_shakerands<xof_kind_t::SHAKE256>();
}

// RandomSHAKE's loop over its XOF: squeeze a period, ratchet, squeeze the
// next. It is the randomshake_t stream, and so shakerand's engine's.
template <xof_kind_t X>
void check_ratchet_period()
{
    using sel = randomshake::xof_selector_t<X>;
    std::array<uint8_t, sel::seed_byte_len> seed{};
    for (size_t i = 0; i < seed.size(); i++)
        seed[i] = static_cast<uint8_t>(255 - i);

    typename sel::type x;
    x.reset();
    x.absorb(seed);
    x.finalize();
    bytes by_xof(10 * sel::ratchet_period_byte_len);
    for (size_t off = 0; off < by_xof.size(); off += sel::ratchet_period_byte_len) {
        if (off > 0)
            x.ratchet(sel::ratchet_byte_len);
        x.squeeze(std::span(by_xof).subspan(off, sel::ratchet_period_byte_len));
    }

    randomshake::randomshake_t<uint8_t, X> csprng(seed);
    bytes by_csprng(by_xof.size());
    std::ranges::generate(by_csprng, [&]() { return csprng(); });
    EXPECT_EQ(by_xof, by_csprng);

    // Without the ratchet the first period is the same and the rest is not.
    const bytes plain(xof_of<X>(bytes(seed.begin(), seed.end()), by_xof.size()));
    const auto period = static_cast<std::ptrdiff_t>(sel::ratchet_period_byte_len);
    EXPECT_TRUE(std::equal(plain.begin(), plain.begin() + period, by_xof.begin()));
    for (size_t p = 1; p < 10; p++) {
        const auto at = static_cast<std::ptrdiff_t>(p) * period;
        EXPECT_FALSE(std::equal(plain.begin() + at, plain.begin() + at + period, by_xof.begin() + at)) << p;
    }

    // A ratchet is many-to-one only through the zeroed bytes: the other
    // lengths give other streams, and lengths past the state are the state.
    auto after_ratchet = [&](size_t n) {
        typename sel::type z;
        z.absorb(seed);
        z.finalize();
        bytes out(200);
        z.squeeze(std::span(out).first(50));
        z.ratchet(n);
        z.squeeze(out);
        return out;
    };
    EXPECT_NE(after_ratchet(32), after_ratchet(0));
    EXPECT_NE(after_ratchet(32), after_ratchet(31));
    EXPECT_EQ(after_ratchet(200), after_ratchet(5000));
}

TEST(RandomShakeXof, RatchetEvery1088BytesIsTheCsprngStream)
{
    check_ratchet_period<xof_kind_t::TURBOSHAKE256>();
    check_ratchet_period<xof_kind_t::SHAKE256>();
}

TEST(RandomShake, DoNotOptimizeKeepsTheValue)
{
    std::array<uint8_t, 32> secret{};
    secret.fill(7);
    randomshake::DoNotOptimize(secret);
    EXPECT_EQ(secret[31], 7);
    uint64_t word = 42;
    randomshake::DoNotOptimize(word);
    EXPECT_EQ(word, 42u);
}

} // namespace
