// SPDX-License-Identifier: MIT OR Apache-2.0
// Signal handlers that draw while their thread is inside the generator: a
// timer firing 20 us after each of its handlers, and a signal delivered at
// each step of a take, a refill and a seed (through the test build's step
// hook). The system generator must never repeat, never crash and never
// hang; an engine observed at any step must hold a state of its own stream.
#include <sys/time.h>
#include <sys/wait.h>
#if defined(__linux__) || defined(__FreeBSD__)
#include <sys/syscall.h> /* SYS_fork: a fork that runs no fork handlers */
#endif
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <csetjmp>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"

extern "C" {
#include "testing.h"
}

namespace {

using test::bytes;

// Words drawn inside handlers go here: no allocation in a handler.
constexpr std::size_t handler_capacity = std::size_t{1} << 22;
std::vector<std::uint64_t> handler_words(handler_capacity);
std::atomic<std::size_t> handler_count{0};
std::atomic<std::size_t> handler_runs{0};

// One u64, one 24-byte fill and one 2 KiB fill (more than a refill).
void draw_in_handler(int)
{
    const int saved = errno;
    std::size_t n = handler_count.load(std::memory_order_relaxed);
    if (n + 1 + 3 + 256 <= handler_capacity) {
        handler_words[n++] = shakerand_system_u64();
        shakerand_system_fill(&handler_words[n], 24);
        n += 3;
        shakerand_system_fill(&handler_words[n], 2048);
        n += 256;
        handler_count.store(n, std::memory_order_relaxed);
    }
    handler_runs.fetch_add(1, std::memory_order_relaxed);
    errno = saved;
}

// The timer: one shot, armed again by its handler, so that the interrupted
// threads get 20 us to run between two ticks whatever a tick costs. An
// interval timer leaves them only what its ticks' cost leaves of each
// period, and a tick costs that much or more on some machines (about 30 us
// of CPU on the virtual machine here, natively and under ThreadSanitizer;
// AVX-512's signal frames are larger): a loop bounded by a count of words
// then slows without bound as the cost nears the period.
std::atomic<bool> ticking{false};

void arm_tick()
{
    const itimerval once{{0, 0}, {0, 20}};
    setitimer(ITIMER_REAL, &once, nullptr);
}

struct ticker {
    ticker()
    {
        ticking = true;
        arm_tick();
    }
    // Arms the timer again if it is idle: a tick can be lost with its
    // handler. ThreadSanitizer runs a handler at the thread's next call into
    // its runtime; in HandlerDuringThreadExit, where threads exit all the
    // time, the ticks stopped after a few dozen.
    static void keep()
    {
        itimerval left{};
        if (getitimer(ITIMER_REAL, &left) == 0 && left.it_value.tv_sec == 0 && left.it_value.tv_usec == 0)
            arm_tick();
    }
    ~ticker()
    {
        ticking = false; // before the timer is stopped: a handler still running arms it no more
        const itimerval off{};
        setitimer(ITIMER_REAL, &off, nullptr);
    }
};

// The timer's handler: one u64 and one 24-byte fill a tick, into slots it
// reserves (the timer's signal may land on any thread).
void draw_on_tick(int)
{
    const int saved = errno;
    const std::size_t n = handler_count.fetch_add(4, std::memory_order_relaxed);
    if (n + 4 <= handler_capacity) {
        handler_words[n] = shakerand_system_u64();
        shakerand_system_fill(&handler_words[n + 1], 24);
    }
    handler_runs.fetch_add(1, std::memory_order_relaxed);
    if (ticking.load(std::memory_order_relaxed))
        arm_tick();
    errno = saved;
}

struct handler_guard {
    int sig;
    struct sigaction old {};
    handler_guard(int s, void (*fn)(int)) : sig(s)
    {
        struct sigaction sa {};
        sa.sa_handler = fn;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(sig, &sa, &old);
        handler_count = 0;
        handler_runs = 0;
    }
    ~handler_guard() { sigaction(sig, &old, nullptr); }
};

std::size_t repeats(std::vector<std::uint64_t> words)
{
    std::sort(words.begin(), words.end());
    std::size_t r = 0;
    for (std::size_t i = 1; i < words.size(); i++)
        r += words[i] == words[i - 1];
    return r;
}

void append_handler_words(std::vector<std::uint64_t> &all)
{
    const std::size_t n = std::min(handler_count.load(), handler_capacity);
    all.insert(all.end(), handler_words.begin(), handler_words.begin() + static_cast<std::ptrdiff_t>(n));
}

// The main loop draws in every shape (u64, 16 and 40 bytes, and now and
// then 2 KiB, across refills) while the timer's handler draws on every
// tick; at least 4 million words in all, on every kernel.
TEST(Reentrancy, IntervalTimerHandlerNeverRepeatsTheInterruptedCall)
{
    for (const shakerand_kernel *k : test::kernels()) {
        SCOPED_TRACE(k->name);
        test::kernel_guard kernel(k);
        handler_guard handler(SIGALRM, draw_on_tick);
        std::vector<std::uint64_t> words;
        words.reserve(std::size_t{12} << 20);
        std::optional<ticker> timer(std::in_place);
        const auto start = std::chrono::steady_clock::now();
        std::uint64_t b[256];
        for (std::size_t i = 0;; i++) {
            switch (i % 4) {
            case 0: words.push_back(shakerand_system_u64()); break;
            case 1: shakerand_system_fill(b, 16); words.insert(words.end(), b, b + 2); break;
            case 2: shakerand_system_fill(b, 40); words.insert(words.end(), b, b + 5); break;
            default:
                if (i % 64 == 3) {
                    shakerand_system_fill(b, sizeof b);
                    words.insert(words.end(), b, b + 256);
                } else {
                    (void)shakerand_system_u32();
                }
            }
            if (i % 256 == 255)
                ticker::keep();
            const std::size_t total = words.size() + handler_count.load(std::memory_order_relaxed);
            const bool enough_ticks = handler_runs.load(std::memory_order_relaxed) >= 20000 ||
                                      std::chrono::steady_clock::now() - start > std::chrono::seconds(10);
            if ((total >= (std::size_t{4} << 20) && enough_ticks) || words.size() >= (std::size_t{12} << 20))
                break;
        }
        timer.reset();
        const std::size_t runs = handler_runs.load();
        append_handler_words(words);
        std::printf("  %s: %zu words, %zu timer ticks drew in the handler\n", k->name, words.size(), runs);
        EXPECT_GE(words.size(), std::size_t{4} << 20);
        EXPECT_GE(runs, 1000u) << "the timer hardly fired: the test proves nothing";
        EXPECT_EQ(0u, repeats(words));
    }
}

// The step hook raises a signal when the step counter reaches `fire_at`.
std::atomic<long> step_counter{0};
std::atomic<long> fire_at{-1};
thread_local bool in_hook = false;

void raise_at_step()
{
    if (in_hook)
        return;
    in_hook = true;
    if (step_counter.fetch_add(1) == fire_at.load())
        raise(SIGUSR1);
    in_hook = false;
}

struct step_hook_guard {
    step_hook_guard() { shakerand_step_hook_for_testing = raise_at_step; }
    ~step_hook_guard()
    {
        shakerand_step_hook_for_testing = nullptr;
        fire_at = -1;
    }
};

// A fresh seed, with no step counted, so `op` starts at the same place in
// a refill on every run and takes the same steps.
void from_a_fresh_seed(const std::function<void()> &op)
{
    in_hook = true;
    EXPECT_EQ(SHAKERAND_OK, shakerand_system_reseed());
    in_hook = false;
    op();
}

// Runs `op` once to count its steps, then once with the signal delivered at
// each step; every word drawn by `op` and by the handler is kept.
void at_every_step(const std::function<void(std::vector<std::uint64_t> &)> &op,
                   std::vector<std::uint64_t> &all, bool fresh_thread)
{
    auto run = [&](std::vector<std::uint64_t> &out) {
        if (fresh_thread)
            std::thread([&] { op(out); }).join();
        else
            op(out);
    };
    step_hook_guard hook;
    step_counter = 0;
    fire_at = -1;
    std::vector<std::uint64_t> scratch;
    run(scratch);
    const long steps = step_counter.load();
    ASSERT_GE(steps, 2);
    all.insert(all.end(), scratch.begin(), scratch.end());
    for (long k = 0; k < steps; k++) {
        const std::size_t runs_before = handler_runs.load();
        step_counter = 0;
        fire_at = k;
        run(all);
        ASSERT_EQ(handler_runs.load(), runs_before + 1) << "no signal at step " << k;
    }
}

TEST(Reentrancy, SignalAtEveryStepOfTakesRefillsAndSeeds)
{
    handler_guard handler(SIGUSR1, draw_in_handler);
    std::vector<std::uint64_t> all;
    static constexpr std::uint64_t budget_skip = 61ull * 1000000000ull; // past the 60 s reseed
    struct {
        const char *name;
        bool fresh_thread;
        std::function<void(std::vector<std::uint64_t> &)> op;
    } cases[] = {
        {"first seed, u64", true, [](auto &w) { w.push_back(shakerand_system_u64()); }},
        {"first seed, 40 bytes", true,
         [](auto &w) {
             std::uint64_t b[5];
             shakerand_system_fill(b, sizeof b);
             w.insert(w.end(), b, b + 5);
         }},
        // A handler on a thread with no state yet would seed it, taking the
        // sources' lock that the interrupted call holds.
        {"shakerand_entropy on a fresh thread", true,
         [](auto &w) {
             std::uint64_t b[4];
             EXPECT_EQ(SHAKERAND_OK, shakerand_entropy(b, sizeof b));
             w.insert(w.end(), b, b + 4);
         }},
        {"shakerand_sources on a fresh thread", true,
         [](auto &) {
             shakerand_source_info info[8];
             EXPECT_GE(shakerand_sources(info, 8), 1u);
         }},
        {"u64", false, [](auto &w) { from_a_fresh_seed([&] { w.push_back(shakerand_system_u64()); }); }},
        {"16 bytes", false,
         [](auto &w) {
             from_a_fresh_seed([&] {
                 std::uint64_t b[2];
                 shakerand_system_fill(b, sizeof b);
                 w.insert(w.end(), b, b + 2);
             });
         }},
        {"2 KiB, across two refills", false,
         [](auto &w) {
             from_a_fresh_seed([&] {
                 std::uint64_t b[8];
                 shakerand_system_fill(b, sizeof b); // so the 2 KiB ends in a third refill
                 w.insert(w.end(), b, b + 8);
                 std::uint64_t c[256];
                 shakerand_system_fill(c, sizeof c);
                 w.insert(w.end(), c, c + 256);
             });
         }},
        {"u64 across a refill", false,
         [](auto &w) {
             from_a_fresh_seed([&] {
                 for (int i = 0; i < 140; i++)
                     w.push_back(shakerand_system_u64());
             });
         }},
        {"explicit reseed", false,
         [](auto &w) {
             EXPECT_EQ(SHAKERAND_OK, shakerand_system_reseed());
             w.push_back(shakerand_system_u64());
         }},
        {"reseed on the time budget", false,
         [](auto &w) {
             from_a_fresh_seed([&] {
                 static std::uint64_t offset = 0;
                 offset += budget_skip;
                 shakerand_system_clock_offset_for_testing(offset);
                 std::uint64_t b[640]; // past the 4 KiB check interval
                 shakerand_system_fill(b, sizeof b);
                 w.insert(w.end(), b, b + 640);
             });
         }},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.name);
        at_every_step(c.op, all, c.fresh_thread);
    }
    shakerand_system_clock_offset_for_testing(0);
    append_handler_words(all);
    std::printf("  %zu words, %zu signals\n", all.size(), handler_runs.load());
    EXPECT_EQ(0u, repeats(all));
}

// An engine looked at between any two steps (as a handler could) holds a
// state of its own stream: continued from a copy, it gives bytes that the
// stream has, never a half-written or public state's, and never bytes the
// call has already written out (a caller that left by longjmp would get
// them again).
TEST(Reentrancy, EngineObservedAtAnyStepContinuesItsOwnStream)
{
    for (const shakerand_kernel *k : test::kernels()) {
        test::kernel_guard kernel(k);
        for (shakerand_kind kind : {SHAKERAND_CHACHA8RAND, SHAKERAND_TURBOSHAKE256X8, SHAKERAND_TURBOSHAKE256,
                                    SHAKERAND_SHAKE256}) {
            SCOPED_TRACE(std::string(k->name) + " " + shakerand_kind_name(kind));
            static shakerand_engine engine, reference_engine;
            static const char seed[] = "observed: a 32-byte engine seed.";
            ASSERT_EQ(SHAKERAND_OK, shakerand_engine_init(&engine, kind, seed, 32));
            ASSERT_EQ(SHAKERAND_OK, shakerand_engine_init(&reference_engine, kind, seed, 32));
            bytes reference(1 << 16);
            shakerand_engine_fill(&reference_engine, reference.data(), reference.size());

            static std::vector<bytes> seen;
            static bytes out;
            static std::size_t repeated, abandoned;
            seen.clear();
            out.assign(9000, 0); // past several refills, in place for chacha8rand
            repeated = abandoned = 0;
            shakerand_step_hook_for_testing = [] {
                static bool observing = false; // the copy's own steps
                if (observing)
                    return;
                observing = true;
                static shakerand_engine copy;
                std::memcpy(&copy, &engine, sizeof copy);
                if (as_engine(&copy)->tag == TAG_ABANDONED) {
                    // Writing iterations into the caller's memory: a copy
                    // taken now refuses to produce (EngineErrors.
                    // AbandonedFillRefusesToProduce) instead of repeating.
                    abandoned++;
                    observing = false;
                    return;
                }
                bytes b(64);
                shakerand_engine_fill(&copy, b.data(), b.size());
                seen.push_back(b);
                repeated += std::search(out.begin(), out.end(), b.begin(), b.end()) != out.end();
                observing = false;
            };
            shakerand_engine_fill(&engine, out.data(), out.size());
            for (int i = 0; i < 300; i++)
                (void)shakerand_engine_u64(&engine);
            std::uint8_t small[7];
            for (int i = 0; i < 300; i++)
                shakerand_engine_fill(&engine, small, sizeof small);
            shakerand_step_hook_for_testing = nullptr;

            ASSERT_GT(seen.size(), 100u);
            EXPECT_EQ(0u, repeated) << "a copy taken mid-call repeats bytes already written out";
            if (kind == SHAKERAND_CHACHA8RAND && shakerand_host_is_little_endian()) {
                EXPECT_GT(abandoned, 0u) << "the 9000-byte fill wrote no iteration in place";
            }
            for (std::size_t i = 0; i < seen.size(); i++) {
                const auto at = std::search(reference.begin(), reference.end(), seen[i].begin(), seen[i].end());
                ASSERT_NE(at, reference.end()) << "observation " << i << " is not in the stream";
            }
            EXPECT_EQ(0, std::memcmp(out.data(), reference.data(), out.size()));
        }
    }
}

// A fill left by longjmp while it wrote iterations into the caller's
// memory: the engine still holds the key of bytes already there, so it
// refuses to produce rather than repeat them.
TEST(Reentrancy, AbandonedInPlaceFillRefusesToProduce)
{
    if (!shakerand_host_is_little_endian())
        GTEST_SKIP() << "iterations are written in place on little-endian hosts only";
    static shakerand_engine engine;
    static std::jmp_buf escape;
    ASSERT_EQ(SHAKERAND_OK, shakerand_engine_init(&engine, SHAKERAND_CHACHA8RAND, "abandoned: 32 bytes of a seed...", 32));
    static bytes out(5000);
    shakerand_step_hook_for_testing = [] {
        if (as_engine(&engine)->tag == TAG_ABANDONED)
            std::longjmp(escape, 1);
    };
    if (setjmp(escape) == 0)
        shakerand_engine_fill(&engine, out.data(), out.size());
    shakerand_step_hook_for_testing = nullptr;
    std::uint8_t b[16];
    EXPECT_DEATH(shakerand_engine_fill(&engine, b, sizeof b), "abandoned");
    EXPECT_DEATH((void)shakerand_engine_u64(&engine), "abandoned");
    ASSERT_EQ(SHAKERAND_OK, shakerand_engine_init(&engine, SHAKERAND_CHACHA8RAND, "abandoned: 32 bytes of a seed...", 32));
    shakerand_engine_fill(&engine, b, sizeof b); // usable again once initialised
}

// A handler that forks at any step: the child goes on with the interrupted
// call and then draws on; neither the child's words after the call nor the
// parent's may repeat any other process's, nor may any child's state be a
// public one (it would repeat across steps). The value a call has already
// produced when the fork lands is the one thing the two share, as with a
// fork right after the call returns, so the call's own output is left out.
bool forked_child = false;
volatile sig_atomic_t body_done = 0, forked_after_body = 0;

void fork_in_handler(int)
{
    const int saved = errno;
    forked_after_body = body_done; // in the thread's exit: nothing of ours to go on with
    const pid_t pid = fork();
    if (pid == 0)
        forked_child = true;
    handler_runs.fetch_add(1, std::memory_order_relaxed);
    errno = saved;
}

void at_every_step_forking(const std::function<void()> &op, std::vector<std::uint64_t> &after,
                           bool fresh_thread)
{
    step_hook_guard hook;
    auto run_once = [&](long k) {
        step_counter = 0;
        fire_at = k;
        int fds[2];
        ASSERT_EQ(0, pipe(fds));
        body_done = 0;
        forked_after_body = 0;
        auto body = [&] {
            op();
            // Steps of these draws are not counted: a fork among them
            // would copy the words already drawn into the child.
            in_hook = true;
            std::uint64_t w[4];
            for (auto &x : w)
                x = shakerand_system_u64();
            in_hook = false;
            if (forked_child) {
                const bool ok = write(fds[1], w, sizeof w) == static_cast<ssize_t>(sizeof w);
                _exit(ok ? 0 : 1);
            }
            after.insert(after.end(), w, w + 4);
            body_done = 1;
        };
        if (fresh_thread)
            std::thread(body).join();
        else
            body();
        close(fds[1]);
        if (k < 0 || forked_after_body) {
            close(fds[0]);
            while (waitpid(-1, nullptr, 0) > 0) {
            }
            return;
        }
        std::uint64_t w[4];
        ASSERT_EQ(static_cast<ssize_t>(sizeof w), read(fds[0], w, sizeof w)) << "no child at step " << k;
        close(fds[0]);
        int status = 0;
        while (waitpid(-1, &status, 0) > 0)
            EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child at step " << k;
        after.insert(after.end(), w, w + 4);
    };
    run_once(-1);
    const long steps = step_counter.load();
    ASSERT_GE(steps, 2);
    for (long k = 0; k < steps; k++)
        run_once(k);
}

TEST(Reentrancy, HandlerThatForksAtEveryStepLeavesTheChildItsOwnStream)
{
    handler_guard handler(SIGUSR1, fork_in_handler);
    std::vector<std::uint64_t> after;
    for (const int skip_wipeonfork : {0, 1}) {
        SCOPED_TRACE(skip_wipeonfork ? "without WIPEONFORK" : "with WIPEONFORK");
        shakerand_system_skip_wipeonfork_for_testing(skip_wipeonfork);
        struct {
            const char *name;
            bool fresh_thread;
            std::function<void()> op;
        } cases[] = {
            {"first seed, u64", true, [] { (void)shakerand_system_u64(); }},
            {"first seed, 40 bytes", true,
             [] {
                 std::uint8_t b[40];
                 shakerand_system_fill(b, sizeof b);
             }},
            {"explicit reseed, then u64", true,
             [] {
                 (void)shakerand_system_u64();
                 EXPECT_EQ(SHAKERAND_OK, shakerand_system_reseed());
             }},
            {"reseed on the time budget", true,
             [] {
                 (void)shakerand_system_u64();
                 static std::uint64_t offset = 0;
                 offset += 61ull * 1000000000ull;
                 shakerand_system_clock_offset_for_testing(offset);
                 std::uint8_t b[5000];
                 shakerand_system_fill(b, sizeof b);
             }},
            {"2 KiB across a refill", true,
             [] {
                 std::uint8_t b[2048];
                 shakerand_system_fill(b, sizeof b);
             }},
            {"5000 aligned bytes (chacha8rand: iterations in the caller's memory)", true,
             [] {
                 alignas(8) std::uint8_t b[5000];
                 shakerand_system_fill(b, sizeof b);
             }},
            {"shakerand_entropy (the sources' lock)", true,
             [] {
                 std::uint8_t b[32];
                 EXPECT_EQ(SHAKERAND_OK, shakerand_entropy(b, sizeof b));
             }},
            {"UUIDv7 (its lock)", true,
             [] {
                 std::uint8_t u[16];
                 shakerand_uuid7(nullptr, u);
             }},
        };
        for (const auto &c : cases) {
            SCOPED_TRACE(c.name);
            at_every_step_forking(c.op, after, c.fresh_thread);
        }
    }
    shakerand_system_skip_wipeonfork_for_testing(0);
    shakerand_system_clock_offset_for_testing(0);
    std::printf("  %zu words after the calls, %zu forks\n", after.size(), handler_runs.load());
    EXPECT_EQ(0u, repeats(after));
}

// A handler that needs a reseed while its thread is inside fork(), where
// the library's prepare handler holds the sources' lock.
void draw_5000_in_handler(int)
{
    const int saved = errno;
    static std::uint8_t b[5000];
    shakerand_system_fill(b, sizeof b);
    handler_runs.fetch_add(1, std::memory_order_relaxed);
    errno = saved;
}

TEST(Reentrancy, HandlerDrawingDuringForkDoesNotDeadlock)
{
    handler_guard handler(SIGUSR1, draw_5000_in_handler);
    std::vector<std::uint64_t> all;
    at_every_step(
        [](auto &) {
            shakerand_system_clock_offset_for_testing(61ull * 1000000000ull * 1000);
            const pid_t pid = fork();
            if (pid == 0)
                _exit(0);
            waitpid(pid, nullptr, 0);
        },
        all, true);
    shakerand_system_clock_offset_for_testing(0);
}

// Threads that exit while the timer's handler draws on whichever thread it
// lands on, the exiting ones included.
TEST(Reentrancy, HandlerDuringThreadExit)
{
    handler_guard handler(SIGALRM, draw_on_tick);
    std::optional<ticker> timer(std::in_place);
    const auto start = std::chrono::steady_clock::now();
    std::size_t threads = 0;
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(2)) {
        std::thread([] {
            for (int i = 0; i < 16; i++)
                (void)shakerand_system_u64();
        }).join();
        threads++;
        ticker::keep();
    }
    timer.reset();
    std::printf("  %zu threads, %zu ticks\n", threads, handler_runs.load());
    std::vector<std::uint64_t> words;
    append_handler_words(words);
    EXPECT_EQ(0u, repeats(words));
}

// A fork that runs no fork handlers (a raw fork system call, as _Fork() is
// in a handler) at every step of a fast-path take, with WIPEONFORK: the
// child finds its page zeroed, epoch 0, never the process's (which starts
// at 1), and must serve neither zeros nor its parent's value (except at the
// take's last step, after which the value is the parent's to keep) nor its
// parent's later words. With the process's epoch starting at 0 the child
// returned zeros.
#if defined(SYS_fork)
bool raw_fork_child = false;

void raw_fork_in_handler(int)
{
    const int saved = errno;
    if (syscall(SYS_fork) == 0)
        raw_fork_child = true;
    handler_runs.fetch_add(1, std::memory_order_relaxed);
    errno = saved;
}

void raw_fork_at_every_step_of_a_take(size_t n)
{
    SCOPED_TRACE(n);
    step_hook_guard hook;
    // A fresh seed and a general-path word, outside the hook: the next
    // draw of n bytes is a fast-path take.
    auto open_fast_path = [] {
        in_hook = true;
        EXPECT_EQ(SHAKERAND_OK, shakerand_system_reseed());
        (void)shakerand_system_u64();
        in_hook = false;
    };
    open_fast_path();
    step_counter = 0;
    fire_at = -1;
    std::vector<unsigned char> buf(n);
    shakerand_system_fill(buf.data(), n);
    const long steps = step_counter.load();
    ASSERT_GE(steps, 2);
    for (long k = 0; k < steps; k++) {
        open_fast_path();
        int fds[2];
        ASSERT_EQ(0, pipe(fds));
        step_counter = 0;
        fire_at = k;
        std::vector<unsigned char> v(n);
        shakerand_system_fill(v.data(), n);
        in_hook = true;
        std::uint64_t w[4];
        for (auto &x : w)
            x = shakerand_system_u64();
        in_hook = false;
        if (raw_fork_child) {
            bool ok = write(fds[1], v.data(), n) == static_cast<ssize_t>(n);
            ok = ok && write(fds[1], w, sizeof w) == static_cast<ssize_t>(sizeof w);
            _exit(ok ? 0 : 1);
        }
        close(fds[1]);
        std::vector<unsigned char> cv(n);
        std::uint64_t cw[4];
        ASSERT_EQ(static_cast<ssize_t>(n), read(fds[0], cv.data(), n)) << "no child at step " << k;
        ASSERT_EQ(static_cast<ssize_t>(sizeof cw), read(fds[0], cw, sizeof cw));
        close(fds[0]);
        int status = 0;
        while (waitpid(-1, &status, 0) > 0) {
        }
        EXPECT_NE(std::vector<unsigned char>(n, 0), cv) << "the child served zeros at step " << k << " of " << steps;
        if (k < steps - 1) {
            EXPECT_NE(v, cv) << "the child repeated its parent's value at step " << k << " of " << steps;
        }
        for (auto a : w) {
            for (auto b : cw) {
                EXPECT_NE(a, b) << "the child repeated its parent's later words at step " << k;
            }
        }
    }
}

TEST(Reentrancy, RawForkFromAHandlerAtEveryStepOfAFastTake)
{
    handler_guard handler(SIGUSR1, raw_fork_in_handler);
    for (size_t n : {8, 16, 100, 768})
        raw_fork_at_every_step_of_a_take(n);
}
#endif

}  // namespace
