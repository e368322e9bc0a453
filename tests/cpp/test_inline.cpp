// SPDX-License-Identifier: MIT OR Apache-2.0
// The header's opt-in inlined takes (SHAKERAND_INLINE_SYSTEM) against the
// shipped shared library: each value is the bytes the core made ahead,
// zeroed there; a new epoch, a fork and a signal handler that draws are
// handled as the core's own fast path handles them; std::<random> takes
// system_rng built on them.
#define SHAKERAND_INLINE_SYSTEM 1
// A handler landing at each step of the inlined take (the test below).
void inline_step_hook(int step);
#define SHAKERAND_INLINE_STEP_FOR_TESTING(step) inline_step_hook(step)
#include <shakerand.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <cstring>
#include <random>
#include <set>
#include <thread>
#include <vector>

#if !defined(_WIN32)
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

// At step `fire_at` of a take, what a signal handler landing there draws:
// enough words that the library would make its output again in place, were
// the handler let into the state the interrupted take is using.
static int fire_at = -1;
static std::vector<std::uint64_t> handler_words_at_step;

void inline_step_hook(int step)
{
    if (step != fire_at)
        return;
    fire_at = -1;
    for (int i = 0; i < 400; ++i)
        handler_words_at_step.push_back(shakerand_system_u64_inline());
}

namespace {

#if !defined(_WIN32)
// This thread's state, seeded, with at least n bytes made ahead; NULL where
// the library shares no view or keeps no fast path (no WIPEONFORK).
shakerand_system_view_state *ready(const shakerand_system_view &view, std::size_t n)
{
    (void)shakerand_system_u64();
    shakerand_system_view_state *s = view.thread->state;
    if (s == nullptr || s->fast_end == 0)
        return nullptr;
    while (s->fast_end < s->cursor + n)
        (void)shakerand_system_u64();
    return s;
}

unsigned char *made_ahead(shakerand_system_view_state *s)
{
    return reinterpret_cast<unsigned char *>(s) + SHAKERAND_SYSTEM_VIEW_AHEAD_OFFSET + s->cursor;
}

class Inline : public ::testing::Test {
  protected:
    void SetUp() override
    {
        if (shakerand_system_view_get(&view, SHAKERAND_SYSTEM_VIEW_LAYOUT) != SHAKERAND_OK)
            GTEST_SKIP() << "the library shares no view here: every value is a call";
        (void)shakerand_system_u64_inline(); // the inlined functions ask for their view
        state = ready(view, 64);
        if (state == nullptr)
            GTEST_SKIP() << "no fast path here (the kernel refused MADV_WIPEONFORK)";
    }
    shakerand_system_view view{};
    shakerand_system_view_state *state = nullptr;
};

TEST_F(Inline, WordsAndFillsAreTheBytesMadeAheadZeroedThere)
{
    unsigned char expected[8 + 4 + 20];
    std::memcpy(expected, made_ahead(state), sizeof expected);
    unsigned char *at = made_ahead(state);
    const std::size_t cursor = state->cursor;
    const std::uint64_t w = shakerand_system_u64_inline();
    const std::uint32_t h = shakerand_system_u32_inline();
    unsigned char fill[20];
    shakerand_system_fill_inline(fill, sizeof fill);
    EXPECT_EQ(0, std::memcmp(&w, expected, 8));
    EXPECT_EQ(0, std::memcmp(&h, expected + 8, 4));
    EXPECT_EQ(0, std::memcmp(fill, expected + 12, 20));
    EXPECT_EQ(cursor + sizeof expected, state->cursor);
    const std::array<unsigned char, sizeof expected> zeros{};
    EXPECT_EQ(0, std::memcmp(at, zeros.data(), sizeof expected));
}

TEST_F(Inline, ANewEpochIsNotServedFromTheOldBytes)
{
    std::uint64_t next;
    std::memcpy(&next, made_ahead(state), 8);
    shakerand_system_new_epoch();
    EXPECT_NE(next, shakerand_system_u64_inline());
    EXPECT_EQ(state->epoch, *view.epoch);
}

TEST_F(Inline, AChangedVmGenerationIsNotServedFromTheOldBytes)
{
    std::uint64_t next;
    std::memcpy(&next, made_ahead(state), 8);
    state->vm_generation ^= 1; // as a restore that moved the counter leaves it
    EXPECT_NE(next, shakerand_system_u64_inline());
    EXPECT_EQ(state->vm_generation, *view.vm_generation);
}

TEST_F(Inline, AForkedChildRepeatsNothingOfItsParent)
{
    int fds[2];
    ASSERT_EQ(0, pipe(fds));
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        std::uint64_t w[4];
        for (auto &x : w)
            x = shakerand_system_u64_inline();
        _exit(write(fds[1], w, sizeof w) == sizeof w ? 0 : 1);
    }
    std::uint64_t parent[4], child[4];
    for (auto &x : parent)
        x = shakerand_system_u64_inline();
    ASSERT_EQ(static_cast<ssize_t>(sizeof child), read(fds[0], child, sizeof child));
    int status = 0;
    waitpid(pid, &status, 0);
    close(fds[0]);
    close(fds[1]);
    for (auto c : child)
        EXPECT_EQ(parent + 4, std::find(parent, parent + 4, c));
}

TEST_F(Inline, AHandlerAtAnyStepNeitherDisturbsNorRepeatsTheTake)
{
    for (int step = 0; step < 5; ++step) {
        (void)ready(view, 16);
        handler_words_at_step.clear();
        fire_at = step;
        const std::uint64_t taken = shakerand_system_u64_inline();
        ASSERT_EQ(-1, fire_at) << "no handler at step " << step;
        std::vector<std::uint64_t> words = handler_words_at_step;
        ASSERT_EQ(400u, words.size());
        words.push_back(taken);
        for (int i = 0; i < 800; ++i) // past the whole output made ahead
            words.push_back(shakerand_system_u64_inline());
        EXPECT_EQ(words.size(), std::set<std::uint64_t>(words.begin(), words.end()).size())
            << "a word twice, step " << step;
        EXPECT_EQ(words.end(), std::find(words.begin(), words.end(), 0u))
            << "a zeroed word, step " << step;
    }
}

std::atomic<int> handler_draws{0};
std::uint64_t handler_words[400];

void draw_in_handler(int)
{
    const int i = handler_draws.load(std::memory_order_relaxed);
    if (i < 400) {
        handler_words[i] = shakerand_system_u64_inline();
        handler_draws.store(i + 1, std::memory_order_relaxed);
    }
}

TEST_F(Inline, ASignalHandlerThatDrawsNeitherDisturbsNorRepeatsTheThread)
{
    struct sigaction sa{};
    sa.sa_handler = draw_in_handler;
    sigemptyset(&sa.sa_mask);
    struct sigaction old{};
    ASSERT_EQ(0, sigaction(SIGALRM, &sa, &old));
    handler_draws = 0;
    itimerval every{{0, 50}, {0, 50}};
    ASSERT_EQ(0, setitimer(ITIMER_REAL, &every, nullptr));
    std::vector<std::uint64_t> words;
    words.reserve(4000000);
    while (handler_draws.load(std::memory_order_relaxed) < 200 && words.size() < 4000000)
        words.push_back(shakerand_system_u64_inline());
    itimerval stop{};
    setitimer(ITIMER_REAL, &stop, nullptr);
    sigaction(SIGALRM, &old, nullptr);
    const int n = handler_draws.load();
    ASSERT_GT(n, 0) << "no handler ran";
    words.insert(words.end(), handler_words, handler_words + n);
    const std::set<std::uint64_t> distinct(words.begin(), words.end());
    EXPECT_EQ(words.size(), distinct.size());
}
#endif

TEST(InlineEverywhere, ThreadsGetDistinctWordsAndRandomTakesSystemRng)
{
    std::vector<std::uint64_t> all;
    std::vector<std::vector<std::uint64_t>> per(4);
    std::vector<std::thread> threads;
    for (auto &v : per)
        threads.emplace_back([&v] {
            for (int i = 0; i < 20000; ++i)
                v.push_back(shakerand_system_u64_inline());
        });
    for (auto &t : threads)
        t.join();
    for (auto &v : per)
        all.insert(all.end(), v.begin(), v.end());
    EXPECT_EQ(all.size(), std::set<std::uint64_t>(all.begin(), all.end()).size());

    shakerand::inline_system_rng rng;
    std::uniform_int_distribution<int> die(1, 6);
    std::array<int, 7> counts{};
    for (int i = 0; i < 60000; ++i)
        ++counts[static_cast<std::size_t>(die(rng))];
    for (int face = 1; face <= 6; ++face)
        EXPECT_NEAR(counts[static_cast<std::size_t>(face)], 10000, 600);
    std::array<std::uint8_t, 1000> big{};
    rng.generate(big);
    EXPECT_NE(std::count(big.begin(), big.end(), 0), 1000);
}

} // namespace
