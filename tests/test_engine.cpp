// SPDX-License-Identifier: MIT OR Apache-2.0
// The engines: RandomSHAKE's own output, the project's vector file, stream
// independence from request slicing, word reads, and every error path.
#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include <cstdio>
#include <cstring>

#include <gtest/gtest.h>

#include "stack_read_back.hpp"
#include "test_support.hpp"

namespace {

using test::bytes;

shakerand_kind kind_of(const std::string &name)
{
    shakerand_kind k;
    if (shakerand_kind_from_name(name.c_str(), &k) != SHAKERAND_OK)
        throw std::invalid_argument(name);
    return k;
}

bytes stream(shakerand_kind kind, const bytes &seed, std::size_t n)
{
    shakerand_engine e;
    EXPECT_EQ(SHAKERAND_OK, shakerand_engine_init(&e, kind, seed.data(), seed.size()));
    bytes out(n);
    shakerand_engine_fill(&e, out.data(), n);
    shakerand_engine_wipe(&e);
    return out;
}

std::string file_contents(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

TEST(Engine, ReproducesRandomShakeOutput)
{
    const auto doc = test::load_json("vectors/randomshake.json");
    ASSERT_EQ(doc.at("vectors").size(), 4u);
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        for (const auto &v : doc.at("vectors")) {
            const bytes out = stream(kind_of(v.at("engine")), test::from_hex(v.at("seed_hex")), 65536);
            EXPECT_EQ(test::to_hex(out.data(), 64), v.at("first_64_hex").get<std::string>()) << k->name;
            EXPECT_EQ(test::to_hex(out.data() + 1088, 64), v.at("bytes_1088_to_1152_hex").get<std::string>()) << k->name;
            EXPECT_EQ(test::sha256_hex(out), v.at("sha256_of_first_65536").get<std::string>()) << k->name;
        }
    }
}

// The copy in vectors/ is RandomSHAKE's file as handed to the project.
TEST(Engine, RandomShakeVectorCopyMatchesSharedOriginal)
{
    const std::string shared = std::string(SHAKERAND_SOURCE_DIR) + "/../shared/vectors/randomshake.json";
    if (!std::ifstream(shared))
        GTEST_SKIP() << "no ../shared beside this checkout";
    EXPECT_EQ(file_contents(shared),
              file_contents(std::string(SHAKERAND_SOURCE_DIR) + "/vectors/randomshake.json"));
}

TEST(Engine, ReproducesProjectVectorFile)
{
    const auto doc = test::load_json("vectors/shakerand.json");
    std::size_t checked = 0;
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        for (const auto &v : doc.at("engines")) {
            const bytes out = stream(kind_of(v.at("engine")), test::from_hex(v.at("seed_hex")), 65536);
            for (const auto &c : v.at("chunks")) {
                const auto off = c.at("offset").get<std::size_t>();
                EXPECT_EQ(test::to_hex(out.data() + off, 64), c.at("hex").get<std::string>())
                    << k->name << " " << v.at("engine") << " seed length "
                    << v.at("seed_hex").get<std::string>().size() / 2 << " offset " << off;
            }
            EXPECT_EQ(test::sha256_hex(out), v.at("sha256_of_first_65536").get<std::string>());
            checked++;
        }
    }
    EXPECT_GE(checked, 27u);
}

// The fast engine's lanes are plain TurboSHAKE256 (docs/engines.md): check
// the first refill and the key chain against the one-shot XOF.
TEST(Engine, FastEngineIsInterleavedTurboShakeLanes)
{
    const bytes seed = test::ptn(50);
    const bytes s = stream(SHAKERAND_TURBOSHAKE256X8, seed, 2 * 1056);
    std::uint8_t key[32];
    shakerand_turboshake256(key, 32, seed.data(), seed.size(), 0x20);
    for (int refill = 0; refill < 2; refill++) {
        bytes r(1088);
        for (unsigned j = 0; j < 8; j++) {
            std::uint8_t msg[33], block[136];
            std::memcpy(msg, key, 32);
            msg[32] = static_cast<std::uint8_t>(j);
            shakerand_turboshake256(block, 136, msg, 33, 0x21);
            for (unsigned w = 0; w < 17; w++)
                std::memcpy(&r[64 * w + 8 * j], block + 8 * w, 8);
        }
        EXPECT_EQ(bytes(s.begin() + 1056 * refill, s.begin() + 1056 * (refill + 1)),
                  bytes(r.begin(), r.begin() + 1056))
            << "refill " << refill;
        std::memcpy(key, &r[1056], 32);
    }
}

// The keyed engines.
class KeyedKinds : public ::testing::TestWithParam<shakerand_kind> {};

INSTANTIATE_TEST_SUITE_P(All, KeyedKinds, ::testing::Values(SHAKERAND_TURBOSHAKE256X8, SHAKERAND_CHACHA8RAND));

// Key erasure (docs/engines.md): bytes handed out by a keyed engine are
// nowhere in its memory afterwards.
TEST_P(KeyedKinds, ForgetsWhatItHandedOut)
{
    shakerand_engine e;
    shakerand_engine_init(&e, GetParam(), "forget: thirty-two bytes of key.", 32);
    for (std::size_t n : {std::size_t{16}, std::size_t{8}, std::size_t{500}, std::size_t{992}, std::size_t{1056},
                          std::size_t{3000}}) {
        bytes out(n);
        if (n == 8) {
            const std::uint64_t w = shakerand_engine_u64(&e);
            std::memcpy(out.data(), &w, 8);
        } else {
            shakerand_engine_fill(&e, out.data(), n);
        }
        const std::size_t probe = std::min<std::size_t>(n, 16);
        for (std::size_t at = 0; at + probe <= n; at += probe) {
            const auto *hay = e.opaque_;
            const auto *end = hay + sizeof e.opaque_;
            EXPECT_EQ(std::search(hay, end, out.begin() + static_cast<long>(at),
                                  out.begin() + static_cast<long>(at + probe)),
                      end)
                << "delivered bytes " << at << ".." << at + probe << " of a " << n << "-byte request remain";
        }
    }
}

// The kernels leave keys and output in their stack frames; a fill that ran
// one wipes the stack below it before it returns. Read back here as the
// uninitialised contents of a frame at the same depth.
__attribute__((noinline)) void scrub_stack()
{
    volatile unsigned char region[65536];
    for (auto &b : region)
        b = 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized" // reading what earlier frames left is the point
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
__attribute__((noinline)) std::size_t words_left_on_stack(const std::set<std::uint32_t> &words)
{
    volatile std::uint32_t region[4096];
    std::size_t hits = 0;
    for (std::size_t i = 0; i < 4096; i++)
        hits += words.count(static_cast<std::uint32_t>(region[i]));
    return hits;
}
#pragma GCC diagnostic pop

TEST(Engine, KernelsLeaveNoKeyOrOutputOnTheStack)
{
    if (!STACK_READ_BACK_WORKS)
        GTEST_SKIP() << "sanitizers move frames off the stack: read-back is meaningless";
    const std::uint64_t k0[4] = {1, 2, 3, 4};
    std::uint64_t i0[124], k1[4], i1[124], k2[4];
    shakerand_chacha8rand_portable(k0, i0, k1);
    shakerand_chacha8rand_portable(k1, i1, k2);
    std::set<std::uint32_t> secret; // K_1 and I_1 as 32-bit words
    for (std::uint64_t w : k1)
        secret.insert({static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(w >> 32)});
    for (std::uint64_t w : i1)
        secret.insert({static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(w >> 32)});
    secret.erase(0);
    std::uint8_t seed[32];
    std::memcpy(seed, k0, sizeof seed);
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        for (std::size_t first : {std::size_t{992}, std::size_t{5000}}) {
            scrub_stack();
            shakerand_engine e;
            ASSERT_EQ(SHAKERAND_OK, shakerand_engine_init(&e, SHAKERAND_CHACHA8RAND, seed, sizeof seed));
            std::vector<std::uint8_t> out(first);
            shakerand_engine_fill(&e, out.data(), first); // I_0 (and more), I_1 or later built
            EXPECT_EQ(0u, words_left_on_stack(secret)) << k->name << " after a " << first << "-byte fill";
            shakerand_engine_wipe(&e);
        }
    }
}

// The vector published with the C2SP chacha8rand specification, read as
// words (Go's Uint64), on every kernel.
TEST(Engine, ChaCha8RandMatchesThePublishedVector)
{
    const auto doc = test::load_json("vectors/shakerand.json");
    const auto &v = doc.at("c2sp_chacha8rand");
    const bytes seed = test::from_hex(v.at("seed_hex"));
    ASSERT_EQ(seed.size(), 32u);
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        shakerand_engine e;
        ASSERT_EQ(SHAKERAND_OK, shakerand_engine_init(&e, SHAKERAND_CHACHA8RAND, seed.data(), seed.size()));
        std::size_t i = 0;
        for (const auto &word : v.at("uint64_hex")) {
            char hex[17];
            std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(shakerand_engine_u64(&e)));
            EXPECT_EQ(std::string(hex), word.get<std::string>()) << k->name << " word " << i;
            i++;
        }
        EXPECT_EQ(i, 32u);
    }
}

// The first 1088 bytes are the XOF's output for the seed.
TEST(Engine, FirstPeriodIsTheXofOutput)
{
    const bytes seed = test::ptn(77);
    bytes xof(1088);
    shakerand_turboshake256(xof.data(), xof.size(), seed.data(), seed.size(), 0x1F);
    EXPECT_EQ(stream(SHAKERAND_TURBOSHAKE256, seed, 1088), xof);
    shakerand_shake256(xof.data(), xof.size(), seed.data(), seed.size());
    EXPECT_EQ(stream(SHAKERAND_SHAKE256, seed, 1088), xof);
    // ...and the second period is not (the ratchet happened).
    bytes longer(2176);
    shakerand_shake256(longer.data(), longer.size(), seed.data(), seed.size());
    const bytes s = stream(SHAKERAND_SHAKE256, seed, 2176);
    EXPECT_NE(bytes(s.begin() + 1088, s.end()), bytes(longer.begin() + 1088, longer.end()));
}

TEST(Engine, SlicingDoesNotChangeStream)
{
    std::mt19937_64 rng(99);
    const std::size_t total = 5 * 1088 + 333;
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        for (std::size_t i = 0; i < shakerand_kind_count(); i++) {
            const shakerand_kind kind = shakerand_kind_at(i);
            const std::size_t seed_size = shakerand_kind_seed_size(kind);
            const bytes seed = test::ptn(seed_size != 0 ? seed_size : 40);
            const bytes whole = stream(kind, seed, total);

            shakerand_engine e;
            shakerand_engine_init(&e, kind, seed.data(), seed.size());
            bytes ones(total);
            for (std::size_t i = 0; i < total; i++)
                shakerand_engine_fill(&e, &ones[i], 1);
            EXPECT_EQ(ones, whole) << "1-byte reads, " << k->name;

            shakerand_engine_init(&e, kind, seed.data(), seed.size());
            bytes pieces(total);
            for (std::size_t pos = 0; pos < total;) {
                const std::size_t n = std::min<std::size_t>(total - pos, rng() % 2500);
                shakerand_engine_fill(&e, pieces.data() + pos, n);
                pos += n;
            }
            EXPECT_EQ(pieces, whole) << "random sizes, " << k->name;
        }
    }
}

// Large requests: chacha8rand writes its middle iterations straight into
// the caller's memory (from 992 bytes), turboshake256x8 goes through its
// buffer; the same stream at every alignment and around those sizes, and
// the engine keeps nothing delivered.
TEST(Engine, LargeRequestsAtEveryAlignmentGiveTheSameStream)
{
    const bytes seed = test::ptn(32);
    for (const auto *k : test::kernels()) {
        test::kernel_guard guard(k);
        for (shakerand_kind kind : {SHAKERAND_TURBOSHAKE256X8, SHAKERAND_CHACHA8RAND})
        for (std::size_t prefix : {std::size_t{0}, std::size_t{5}, std::size_t{1056}, std::size_t{992}, std::size_t{1000}}) {
            for (std::size_t n : {1023, 1024, 1025, 1599, 1600, 1601, 1983, 1984, 2016, 2047, 2048, 2111, 2112,
                                  2655, 2656, 2657, 3200, 10000, 65536}) {
                const bytes whole = stream(kind, seed, prefix + n);
                for (std::size_t offset = 0; offset < 9; offset++) {
                    shakerand_engine e;
                    shakerand_engine_init(&e, kind, seed.data(), seed.size());
                    bytes head(prefix);
                    shakerand_engine_fill(&e, head.data(), prefix);
                    std::vector<std::uint64_t> storage(n / 8 + 3);
                    auto *out = reinterpret_cast<std::uint8_t *>(storage.data()) + offset;
                    shakerand_engine_fill(&e, out, n);
                    ASSERT_EQ(0, std::memcmp(out, whole.data() + prefix, n))
                        << k->name << " " << shakerand_kind_name(kind) << " prefix " << prefix << " n " << n
                        << " offset " << offset;
                    ASSERT_EQ(std::search(e.opaque_, e.opaque_ + sizeof e.opaque_, out + n - 16, out + n),
                              e.opaque_ + sizeof e.opaque_);
                }
            }
        }
    }
}

class EngineKinds : public ::testing::TestWithParam<shakerand_kind> {};

// Every kind of the core's table.
std::vector<shakerand_kind> all_kinds()
{
    std::vector<shakerand_kind> kinds;
    for (std::size_t i = 0; i < shakerand_kind_count(); i++)
        kinds.push_back(shakerand_kind_at(i));
    return kinds;
}

INSTANTIATE_TEST_SUITE_P(All, EngineKinds, ::testing::ValuesIn(all_kinds()));

TEST_P(EngineKinds, WordsAreTheStreamReadLittleEndian)
{
    const std::size_t seed_size = shakerand_kind_seed_size(GetParam());
    const bytes seed = test::ptn(seed_size != 0 ? seed_size : 136);
    const bytes s = stream(GetParam(), seed, 4096);
    shakerand_engine e;
    shakerand_engine_init(&e, GetParam(), seed.data(), seed.size());
    std::size_t pos = 0;
    while (pos + 12 <= s.size()) {
        std::uint64_t w = 0;
        for (int i = 7; i >= 0; i--)
            w = w << 8 | s[pos + static_cast<std::size_t>(i)];
        ASSERT_EQ(shakerand_engine_u64(&e), w) << pos;
        pos += 8;
        std::uint32_t h = 0;
        for (int i = 3; i >= 0; i--)
            h = h << 8 | s[pos + static_cast<std::size_t>(i)];
        ASSERT_EQ(shakerand_engine_u32(&e), h) << pos;
        pos += 4;
    }
}

TEST(Engine, SeedsOfEveryLengthGiveDistinctStreams)
{
    std::set<bytes> seen;
    for (std::size_t n = 0; n <= 300; n++)
        seen.insert(stream(SHAKERAND_TURBOSHAKE256, test::ptn(n), 32));
    EXPECT_EQ(seen.size(), 301u);
    EXPECT_NE(stream(SHAKERAND_TURBOSHAKE256, {}, 32), stream(SHAKERAND_SHAKE256, {}, 32));
}

TEST(Engine, Names)
{
    shakerand_kind k = SHAKERAND_SHAKE256;
    EXPECT_EQ(SHAKERAND_OK, shakerand_kind_from_name("turboshake256", &k));
    EXPECT_EQ(k, SHAKERAND_TURBOSHAKE256);
    EXPECT_STREQ(shakerand_kind_name(SHAKERAND_SHAKE256), "shake256");
    EXPECT_STREQ(shakerand_kind_name(SHAKERAND_CHACHA8RAND), "chacha8rand");
    EXPECT_EQ(SHAKERAND_OK, shakerand_kind_from_name("chacha8rand", &k));
    EXPECT_EQ(k, SHAKERAND_CHACHA8RAND);
    EXPECT_EQ(SHAKERAND_OK, shakerand_kind_from_name("turboshake256", &k));
    EXPECT_EQ(shakerand_kind_name(static_cast<shakerand_kind>(99)), nullptr);
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_kind_from_name("TurboSHAKE256", &k));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_kind_from_name(nullptr, &k));
    EXPECT_EQ(k, SHAKERAND_TURBOSHAKE256);
    EXPECT_EQ(shakerand_engine_size(), sizeof(shakerand_engine));
    EXPECT_EQ(alignof(shakerand_engine), 64u);
}

// The core's table of kinds is the reference model's, as the vector file
// records it; every kind's seed rule holds in shakerand_engine_init.
TEST(Engine, KindTableIsTheVectorFiles)
{
    const auto expected = test::load_json("vectors/shakerand.json").at("kinds");
    ASSERT_EQ(shakerand_kind_count(), expected.size());
    for (std::size_t i = 0; i < expected.size(); i++) {
        const auto &row = expected[i];
        const shakerand_kind kind = shakerand_kind_at(i);
        EXPECT_EQ(static_cast<int>(kind), row.at("value").get<int>()) << i;
        ASSERT_NE(shakerand_kind_name(kind), nullptr) << i;
        EXPECT_EQ(shakerand_kind_name(kind), row.at("name").get<std::string>());
        EXPECT_EQ(shakerand_kind_seed_size(kind), row.at("seed_size").get<std::size_t>()) << i;
        EXPECT_EQ(shakerand_kind_block_size(kind), row.at("block_size").get<std::size_t>()) << i;
        EXPECT_EQ(kind_of(row.at("name").get<std::string>()), kind);
    }
    EXPECT_EQ(shakerand_kind_at(expected.size()), static_cast<shakerand_kind>(0));
    EXPECT_EQ(shakerand_kind_at(SIZE_MAX), static_cast<shakerand_kind>(0));
    for (int unknown : {0, 5, 99}) {
        EXPECT_EQ(shakerand_kind_seed_size(static_cast<shakerand_kind>(unknown)), 0u);
        EXPECT_EQ(shakerand_kind_block_size(static_cast<shakerand_kind>(unknown)), 0u);
    }
}

TEST(Engine, EveryKindTakesTheSeedsItsRowSays)
{
    const bytes seed = test::ptn(300);
    for (std::size_t i = 0; i < shakerand_kind_count(); i++) {
        const shakerand_kind kind = shakerand_kind_at(i);
        const std::size_t size = shakerand_kind_seed_size(kind);
        for (std::size_t n : {0, 1, 31, 32, 33, 64, 136, 300}) {
            shakerand_engine e;
            const int expected = size == 0 || n == size ? SHAKERAND_OK : SHAKERAND_EINVAL;
            EXPECT_EQ(expected, shakerand_engine_init(&e, kind, seed.data(), n))
                << shakerand_kind_name(kind) << " " << n;
            if (expected == SHAKERAND_OK)
                shakerand_engine_wipe(&e);
        }
    }
}

TEST(EngineErrors, BadInitChangesNothing)
{
    shakerand_engine e, before;
    const bytes seed = test::ptn(10);
    shakerand_engine_init(&e, SHAKERAND_TURBOSHAKE256, seed.data(), seed.size());
    std::uint8_t skip[5];
    shakerand_engine_fill(&e, skip, sizeof skip);
    before = e;
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_engine_init(&e, static_cast<shakerand_kind>(0), seed.data(), 1));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_engine_init(&e, static_cast<shakerand_kind>(5), seed.data(), 1));
    const bytes long_seed = test::ptn(64);
    for (std::size_t n : {0, 1, 31, 33, 64})
        EXPECT_EQ(SHAKERAND_EINVAL, shakerand_engine_init(&e, SHAKERAND_CHACHA8RAND, long_seed.data(), n)) << n;
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_engine_init(&e, SHAKERAND_SHAKE256, nullptr, 1));
    EXPECT_EQ(SHAKERAND_EINVAL, shakerand_engine_init(nullptr, SHAKERAND_SHAKE256, seed.data(), 1));
    EXPECT_EQ(0, std::memcmp(&e, &before, sizeof e));
    EXPECT_EQ(SHAKERAND_OK, shakerand_engine_init(&e, SHAKERAND_SHAKE256, nullptr, 0));
}

TEST(EngineErrors, WipeZeroisesAndWipedEngineRefusesToProduce)
{
    shakerand_engine e;
    shakerand_engine_init(&e, SHAKERAND_SHAKE256, "k", 1);
    shakerand_engine_wipe(&e);
    for (std::size_t i = 0; i < sizeof e.opaque_; i++)
        ASSERT_EQ(e.opaque_[i], 0) << i;
    std::uint8_t out[8];
    EXPECT_DEATH(shakerand_engine_fill(&e, out, sizeof out), "after wipe");
    EXPECT_DEATH(shakerand_engine_u64(&e), "after wipe");
    EXPECT_DEATH(shakerand_engine_fill(nullptr, out, sizeof out), "NULL");
    shakerand_engine_init(&e, SHAKERAND_SHAKE256, "k", 1);
    EXPECT_DEATH(shakerand_engine_fill(&e, nullptr, 1), "NULL");
    shakerand_engine_fill(&e, nullptr, 0);
}

}  // namespace
