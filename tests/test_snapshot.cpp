// SPDX-License-Identifier: MIT OR Apache-2.0
// Snapshots and clones (docs/system.md): after a restore, every thread's
// next byte comes from a new seed, whether a restore hook called
// shakerand_system_new_epoch or the hypervisor's VM generation counter
// (Linux's vmclock device, here a file laid out as struct vmclock_abi)
// moved. A restore is played in the process: the thread's state page is
// saved (the snapshot) and written back (a restore), which is what a
// restored VM's memory holds; without detection the thread would then hand
// out again what it handed out after the snapshot.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <sys/wait.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"

extern "C" {
#include "engine.h"
#include "policy.h"
#include "shakerand.h"
#include "testing.h"
}

namespace
{

using bytes = std::vector<std::uint8_t>;

bytes draw(std::size_t n)
{
    bytes b(n);
    shakerand_system_fill(b.data(), n);
    return b;
}

// Words: the u64 path (the fast take when the refill holds them).
bytes draw_words(std::size_t words)
{
    bytes b(8 * words);
    for (std::size_t i = 0; i < words; i++) {
        const std::uint64_t w = shakerand_system_u64();
        std::memcpy(b.data() + 8 * i, &w, 8);
    }
    return b;
}

// The calling thread's state mapping, as a snapshot would hold it.
struct Snapshot {
    bytes page;
    void *live = nullptr;
};

Snapshot snapshot_thread_state()
{
    Snapshot s;
    s.live = const_cast<void *>(shakerand_system_state_for_testing());
    EXPECT_NE(s.live, nullptr);
    s.page.assign(static_cast<const std::uint8_t *>(s.live),
                  static_cast<const std::uint8_t *>(s.live) + shakerand_system_state_size_for_testing());
    return s;
}

void restore(const Snapshot &s) { std::memcpy(s.live, s.page.data(), s.page.size()); }

// What the snapshot's state would hand out next: the bytes a restored
// copy repeats if nothing tells it to reseed.
bytes continuation(const Snapshot &s, std::size_t n)
{
    bytes b(n);
    shakerand_system_continuation_for_testing(s.page.data(), b.data(), n);
    return b;
}

// Whether any 8 bytes of `drawn` (at a word boundary) lie in `stream` (at
// any offset).
bool shares_a_word(const bytes &drawn, const bytes &stream)
{
    std::unordered_set<std::uint64_t> words;
    for (std::size_t i = 0; i + 8 <= stream.size(); i++) {
        std::uint64_t w;
        std::memcpy(&w, stream.data() + i, 8);
        words.insert(w);
    }
    for (std::size_t i = 0; i + 8 <= drawn.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, drawn.data() + i, 8);
        if (words.count(w) != 0)
            return true;
    }
    return false;
}

// Runs body on a new thread whose state is mapped with or without
// MADV_WIPEONFORK (without: every call takes the general path).
void on_new_thread(bool wipe_on_fork, const std::function<void()> &body)
{
    shakerand_system_skip_wipeonfork_for_testing(!wipe_on_fork);
    std::thread t(body);
    t.join();
    shakerand_system_skip_wipeonfork_for_testing(0);
}

// The restore played twice from one snapshot, `after_restore` run after
// each (what tells the generator): both copies' first bytes must differ
// from each other and from what the snapshot's engine would give.
void two_restores(const std::function<void()> &after_restore)
{
    for (bool wipe_on_fork : {true, false}) {
        SCOPED_TRACE(wipe_on_fork ? "with WIPEONFORK" : "without WIPEONFORK");
        on_new_thread(wipe_on_fork, [&] {
            (void)draw(16);
            const Snapshot snap = snapshot_thread_state();
            const bytes next = continuation(snap, 4096);
            const bytes original = draw_words(4);
            ASSERT_EQ(bytes(next.begin(), next.begin() + 32), original)
                << "the oracle is the live engine";
            restore(snap);
            after_restore();
            const std::uint64_t seeds = shakerand_system_seed_count_for_testing();
            const bytes first = draw_words(4);
            EXPECT_EQ(shakerand_system_seed_count_for_testing(), seeds + 1);
            restore(snap);
            after_restore();
            const bytes second = draw(32);
            EXPECT_NE(first, second);
            EXPECT_FALSE(shares_a_word(first, next))
                << "the first restore repeated the snapshot's stream";
            EXPECT_FALSE(shares_a_word(second, next))
                << "the second restore repeated the snapshot's stream";
            restore(snap); // the page holds a state to wipe at exit either way
        });
    }
}

TEST(Epoch, TwoRestoresOfOneSnapshotDifferAfterNewEpoch)
{
    two_restores([] { shakerand_system_new_epoch(); });
}

// The control: a restore nothing reports repeats the stream (this is what
// the other tests guard against, and the proof that the play is a restore).
TEST(Epoch, ARestoreNothingReportsRepeatsTheSnapshot)
{
    on_new_thread(true, [] {
        (void)draw(16);
        const Snapshot snap = snapshot_thread_state();
        const bytes original = draw_words(4);
        restore(snap);
        EXPECT_EQ(draw_words(4), original);
    });
}

// UUIDv7 keeps a millisecond and a counter: after a new epoch, as after a
// fork, the next UUID moves on to a fresh counter in a later millisecond,
// so two restores in one millisecond of their clocks share no more than
// the timestamp (the clock frozen: a restored VM resumes at the snapshot's
// time).
TEST(Epoch, Uuid7LeavesTheSnapshotsMillisecondAndCounter)
{
    shakerand_uuid7_freeze_clock_for_testing(1700000000000);
    std::uint8_t a[16], b[16], c[16];
    shakerand_uuid7(nullptr, a);
    shakerand_uuid7(nullptr, b);
    shakerand_system_new_epoch();
    shakerand_uuid7(nullptr, c);
    shakerand_uuid7_freeze_clock_for_testing(0);
    auto ms = [](const std::uint8_t *u) {
        std::uint64_t v = 0;
        for (int i = 0; i < 6; i++)
            v = v << 8 | u[i];
        return v;
    };
    EXPECT_EQ(ms(a), ms(b)) << "within a millisecond the counter moves on";
    EXPECT_EQ(ms(c), ms(b) + 1) << "after a new epoch: the next millisecond, a fresh counter";
}

#if defined(__linux__)
// A raw fork system call runs no fork handler: the child's next UUIDv7
// must still leave the parent's millisecond and counter (a guard word in a
// page the fork zeroes, or the pid where the kernel refuses that; ctest
// runs this again under tests/no_wipeonfork.c).
TEST(Uuid7, ARawForkChildLeavesTheParentsMillisecondAndCounter)
{
    shakerand_uuid7_freeze_clock_for_testing(1700000000000);
    std::uint8_t a[16], b[16], c[16] = {0};
    shakerand_uuid7(nullptr, a);
    shakerand_uuid7(nullptr, b);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
#if defined(SYS_fork)
    const pid_t pid = static_cast<pid_t>(syscall(SYS_fork));
#else
    const pid_t pid = static_cast<pid_t>(syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
#endif
    if (pid == 0) {
        shakerand_uuid7(nullptr, c);
        const bool sent = write(fds[1], c, sizeof c) == static_cast<ssize_t>(sizeof c);
        syscall(SYS_exit_group, sent ? 0 : 1);
    }
    ASSERT_GT(pid, 0);
    close(fds[1]);
    ASSERT_EQ(read(fds[0], c, sizeof c), static_cast<ssize_t>(sizeof c));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    shakerand_uuid7_freeze_clock_for_testing(0);
    auto ms = [](const std::uint8_t *u) {
        std::uint64_t v = 0;
        for (int i = 0; i < 6; i++)
            v = v << 8 | u[i];
        return v;
    };
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_EQ(ms(a), ms(b));
    EXPECT_EQ(ms(c), ms(b) + 1) << "the child went on with the parent's millisecond and counter";
}

std::uint64_t uuid_ms(const std::uint8_t *u)
{
    std::uint64_t v = 0;
    for (int i = 0; i < 6; i++)
        v = v << 8 | u[i];
    return v;
}

// A raw fork made while another thread holds UUIDv7's lock (stopped at
// each step of a shakerand_uuid7 in turn, inside the lock included): the
// child's own UUIDv7 completes (under an alarm) and still leaves the
// parent's millisecond and counter, whatever the parent's thread had
// written of them; the parent goes on in its millisecond.
TEST(Uuid7, ARawForkWhileAnotherThreadHoldsTheLockDoesNotHang)
{
    shakerand_uuid7_freeze_clock_for_testing(1700000000000);
    std::uint8_t a[16], held[16], after[16];
    shakerand_uuid7(nullptr, a);
    const auto children = test::raw_fork_at_every_step(
        [&] {
            (void)draw(16); // seeded: the steps are the UUID's
            test::stop_this_thread_at_steps();
            shakerand_uuid7(nullptr, held);
        },
        [] {
            std::uint8_t c[16];
            shakerand_uuid7(nullptr, c);
            return bytes(c, c + 16);
        });
    shakerand_uuid7(nullptr, after);
    shakerand_uuid7_freeze_clock_for_testing(0);
    EXPECT_EQ(uuid_ms(held), uuid_ms(a));
    EXPECT_EQ(uuid_ms(after), uuid_ms(a));
    ASSERT_GE(children.size(), 4u);
    for (std::size_t i = 0; i < children.size(); i++) {
        EXPECT_TRUE(children[i].finished) << "the child of step " << i + 1 << " did not finish";
        if (children[i].sent.size() != 16u) {
            ADD_FAILURE() << "step " << i + 1 << ": no UUID";
            continue;
        }
        EXPECT_EQ(uuid_ms(children[i].sent.data()), uuid_ms(a) + 1)
            << "step " << i + 1 << ": the child went on with the parent's millisecond and counter";
    }
}
#endif

// Every thread reseeds at its next call, whichever thread moved the epoch.
TEST(Epoch, EveryThreadReseedsBeforeItsNextByte)
{
    constexpr int kThreads = 4;
    std::atomic<int> seeded{0};
    std::atomic<bool> moved{false};
    std::vector<std::thread> threads;
    std::vector<int> repeated(kThreads, 0);
    const std::uint64_t before = shakerand_system_seed_count_for_testing();
    for (int i = 0; i < kThreads; i++) {
        threads.emplace_back([&, i] {
            (void)draw(16);
            const Snapshot snap = snapshot_thread_state();
            const bytes next = continuation(snap, 4096);
            seeded++;
            while (!moved.load())
                std::this_thread::yield();
            repeated[static_cast<std::size_t>(i)] =
                shares_a_word(i % 2 ? draw(64) : draw_words(8), next);
        });
    }
    while (seeded.load() < kThreads)
        std::this_thread::yield();
    const std::uint64_t seeded_once = shakerand_system_seed_count_for_testing();
    EXPECT_EQ(seeded_once, before + kThreads);
    shakerand_system_new_epoch();
    moved = true;
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(shakerand_system_seed_count_for_testing(), seeded_once + kThreads);
    for (int i = 0; i < kThreads; i++)
        EXPECT_EQ(repeated[static_cast<std::size_t>(i)], 0) << "thread " << i;
}

// From a signal handler that interrupted a draw of its own thread, at every
// step of the draw (the testing library's step hook): the handler's call is
// one atomic increment; the thread's next call reseeds.
std::atomic<int> step_counter{0}, fire_at{-1};

void bump_at_step()
{
    if (step_counter++ == fire_at.load())
        raise(SIGUSR1);
}

TEST(Epoch, FromASignalHandlerAtEveryStepOfADraw)
{
    struct sigaction action{}, old{};
    action.sa_handler = [](int) { shakerand_system_new_epoch(); };
    ASSERT_EQ(sigaction(SIGUSR1, &action, &old), 0);
    for (bool wipe_on_fork : {true, false}) {
        for (std::size_t n : {std::size_t{8}, std::size_t{2000}}) {
            SCOPED_TRACE(std::string(wipe_on_fork ? "with" : "without") + " WIPEONFORK, " +
                         std::to_string(n) + " bytes");
            on_new_thread(wipe_on_fork, [n] {
                (void)draw(16);
                step_counter = 0;
                fire_at = -1;
                shakerand_step_hook_for_testing = bump_at_step;
                (void)draw(n);
                const int steps = step_counter.load();
                shakerand_step_hook_for_testing = nullptr;
                ASSERT_GT(steps, 0);
                for (int k = 0; k < steps; k++) {
                    const Snapshot snap = snapshot_thread_state();
                    const bytes next = continuation(snap, 8192);
                    step_counter = 0;
                    fire_at = k;
                    shakerand_step_hook_for_testing = bump_at_step;
                    const bytes during = draw(n);
                    shakerand_step_hook_for_testing = nullptr;
                    const std::uint64_t seeds = shakerand_system_seed_count_for_testing();
                    const bytes after = draw(n);
                    // The draw the handler interrupted may end from the old
                    // state or a new one; the next reseeds unless that one
                    // already did.
                    EXPECT_FALSE(shares_a_word(after, next)) << "step " << k;
                    EXPECT_LE(shakerand_system_seed_count_for_testing(), seeds + 1) << "step " << k;
                    (void)during;
                }
            });
        }
    }
    sigaction(SIGUSR1, &old, nullptr);
}

// The epoch moved directly (the hook is the mover, as another thread or a
// restore would be) at every step of a draw: the bytes that draw returns
// come from the state before the move only if the move landed after the
// draw's last check (its last step). Words and requests of one piece, every
// step; a request of two pieces, at the steps of its second piece (a move
// there takes the whole request again, the first piece included).
void move_epoch_at_step()
{
    if (step_counter++ == fire_at.load())
        shakerand_system_new_epoch();
}

TEST(Epoch, ADrawHandsOutNothingFromBeforeAMoveAtAnyStepButItsLast)
{
    for (bool wipe_on_fork : {true, false}) {
        for (std::size_t n : {std::size_t{8}, std::size_t{2000}, std::size_t{SHAKERAND_MAX_PIECE_BYTES + 16}}) {
            SCOPED_TRACE(std::string(wipe_on_fork ? "with" : "without") + " WIPEONFORK, " + std::to_string(n) +
                         " bytes");
            on_new_thread(wipe_on_fork, [n] {
                (void)draw(16);
                step_counter = 0;
                fire_at = -1;
                shakerand_step_hook_for_testing = move_epoch_at_step;
                (void)draw(n);
                const int steps = step_counter.load();
                shakerand_step_hook_for_testing = nullptr;
                const int first = n > SHAKERAND_MAX_PIECE_BYTES ? steps - 12 : 0;
                for (int k = first; k < steps; k++) {
                    const Snapshot snap = snapshot_thread_state();
                    const bytes before = continuation(snap, n + 4096);
                    step_counter = 0;
                    fire_at = k;
                    shakerand_step_hook_for_testing = move_epoch_at_step;
                    const bytes during = draw(n);
                    shakerand_step_hook_for_testing = nullptr;
                    // Of a two-piece request, its first piece's start: what a
                    // request not taken again would have kept from before.
                    const std::size_t look = std::min<std::size_t>(n, 4096);
                    if (k < steps - 1) {
                        EXPECT_FALSE(shares_a_word(bytes(during.begin(), during.begin() + look),
                                                   bytes(before.begin(), before.begin() + look + 4096)))
                            << "moved at step " << k << " of " << steps;
                    }
                }
            });
        }
    }
}

// A move while a thread's first seed gathers its material (a snapshot
// taken then: both copies would hold the same material) leaves the state
// marked as older, so the draw seeds again. The seed's steps are the three
// before the step at which the seed count has moved (at its start, after
// the gathering, after the keying); a move at any of them costs a second
// seed (one read of the epoch after the gathering would miss the first two).
std::atomic<std::uint64_t> seeds_at_start{0};
std::atomic<int> seed_done_at{-1};

void note_seed_done()
{
    if (seed_done_at.load() < 0 && shakerand_system_seed_count_for_testing() != seeds_at_start.load())
        seed_done_at = step_counter.load();
    move_epoch_at_step();
}

TEST(Epoch, AMoveDuringASeedSeedsAgain)
{
    auto first_draw = [](int k) {
        std::uint64_t seeds = 0;
        on_new_thread(true, [&] {
            step_counter = 0;
            fire_at = k;
            seed_done_at = -1;
            seeds_at_start = shakerand_system_seed_count_for_testing();
            shakerand_step_hook_for_testing = note_seed_done;
            (void)draw(64);
            shakerand_step_hook_for_testing = nullptr;
            seeds = shakerand_system_seed_count_for_testing() - seeds_at_start.load();
        });
        return seeds;
    };
    ASSERT_EQ(first_draw(-1), 1u);
    const int done = seed_done_at.load();
    ASSERT_GE(done, 3);
    for (int k = done - 3; k < done; k++)
        EXPECT_EQ(first_draw(k), 2u) << "a move at the seed's step " << k - (done - 3);
}

#if defined(__linux__)
// A file laid out as struct vmclock_abi (include/uapi/linux/vmclock-abi.h):
// magic, size, the sequence count, the flags, the VM generation counter.
class Vmclock : public ::testing::Test
{
  protected:
    static constexpr std::size_t kSeq = 12, kDisruption = 16, kFlags = 24, kVmGen = 104;
    std::string path;
    std::uint8_t *page = nullptr;
    std::size_t size = 4096;

    void make(std::size_t file_size, std::uint32_t magic = 0x4b4c4356,
              std::uint64_t flags = 1u << 8, std::uint32_t declared_size = 4096,
              std::uint16_t version = 1)
    {
        char name[] = "/tmp/shakerand-vmclock-XXXXXX";
        const int fd = mkstemp(name);
        ASSERT_GE(fd, 0);
        path = name;
        size = file_size;
        ASSERT_EQ(ftruncate(fd, static_cast<off_t>(std::max<std::size_t>(file_size, 1))), 0);
        void *p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        ASSERT_NE(p, MAP_FAILED);
        page = static_cast<std::uint8_t *>(p);
        if (file_size >= 112) {
            std::memcpy(page, &magic, 4);
            std::memcpy(page + 4, &declared_size, 4);
            std::memcpy(page + 8, &version, 2);
            std::memcpy(page + kFlags, &flags, 8);
            set_generation(7);
        }
    }
    std::atomic<std::uint32_t> &seq()
    {
        return *reinterpret_cast<std::atomic<std::uint32_t> *>(page + kSeq);
    }
    std::atomic<std::uint64_t> &word(std::size_t offset)
    {
        return *reinterpret_cast<std::atomic<std::uint64_t> *>(page + offset);
    }
    std::atomic<std::uint64_t> &generation() { return word(kVmGen); }
    // As the hypervisor writes it: the count odd, the value, the count even.
    void set_word(std::size_t offset, std::uint64_t v)
    {
        seq().fetch_add(1);
        word(offset).store(v);
        seq().fetch_add(1);
    }
    void set_generation(std::uint64_t g) { set_word(kVmGen, g); }
    void set_disruption(std::uint64_t d) { set_word(kDisruption, d); }
    void watch() { shakerand_system_vmclock_path_for_testing(path.c_str()); }
    void TearDown() override
    {
        shakerand_system_vmclock_path_for_testing("/nonexistent/vmclock");
        if (page != nullptr)
            munmap(page, 4096);
        if (!path.empty())
            unlink(path.c_str());
    }
};

TEST_F(Vmclock, TwoRestoresOfOneSnapshotDiffer)
{
    make(4096);
    watch();
    ASSERT_EQ(shakerand_system_watches_vm_generation(), 1);
    std::uint64_t g = 7;
    two_restores([&] { set_generation(++g); });
}

// A hypervisor that keeps no generation counter (QEMU 10 and 11): the
// disruption marker, which a restore moves, is watched instead; the
// counter's bytes then mean nothing and are not looked at.
TEST_F(Vmclock, WithoutTheCounterTheDisruptionMarkerIsWatched)
{
    make(4096, 0x4b4c4356, 0);
    set_disruption(1);
    watch();
    ASSERT_EQ(shakerand_system_watches_vm_generation(), 1);
    std::uint64_t d = 1;
    two_restores([&] { set_disruption(++d); });
    on_new_thread(true, [this] {
        (void)draw(16);
        const std::uint64_t seeds = shakerand_system_seed_count_for_testing();
        set_generation(1234);
        (void)draw_words(4);
        EXPECT_EQ(shakerand_system_seed_count_for_testing(), seeds) << "the counter's word moved";
        set_disruption(99);
        (void)draw_words(4);
        EXPECT_EQ(shakerand_system_seed_count_for_testing(), seeds + 1) << "the marker moved";
    });
}

// With the counter kept, the marker alone (a live migration) does not
// reseed: the counter is the signal then.
TEST_F(Vmclock, WithTheCounterTheDisruptionMarkerIsNotWatched)
{
    make(4096);
    watch();
    on_new_thread(true, [this] {
        (void)draw(16);
        const std::uint64_t seeds = shakerand_system_seed_count_for_testing();
        set_disruption(5);
        (void)draw_words(4);
        EXPECT_EQ(shakerand_system_seed_count_for_testing(), seeds);
    });
}

TEST_F(Vmclock, EveryThreadReseedsWhileThreadsDraw)
{
    make(4096);
    watch();
    constexpr int kThreads = 4;
    std::atomic<int> ready{0};
    std::atomic<bool> moved{false};
    std::vector<int> repeated(kThreads, 0);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; i++) {
        threads.emplace_back([&, i] {
            (void)draw(16);
            // Draws without pause until the counter moves. The first draw
            // begun after the move must not continue the stream of the
            // state as it was at the start of the last draw begun before
            // it (which may itself have seen the move, and reseeded).
            bytes before_move;
            bool counted = false;
            for (;;) {
                const Snapshot snap = snapshot_thread_state();
                const bool was_moved = moved.load();
                if (!was_moved) {
                    before_move = continuation(snap, 4096);
                    (void)draw_words(2);
                    if (!counted)
                        ready++; // not before one draw from the state the move must end
                    counted = true;
                    continue;
                }
                repeated[static_cast<std::size_t>(i)] = shares_a_word(draw_words(2), before_move);
                break;
            }
        });
    }
    while (ready.load() < kThreads)
        std::this_thread::yield();
    const std::uint64_t seeds = shakerand_system_seed_count_for_testing();
    set_generation(8);
    moved = true;
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(shakerand_system_seed_count_for_testing(), seeds + kThreads);
    for (int i = 0; i < kThreads; i++)
        EXPECT_EQ(repeated[static_cast<std::size_t>(i)], 0) << "thread " << i;
}

// A sequence count left odd (a hypervisor that never finishes writing) must
// not hang a draw: the value read is taken as it is, once.
TEST_F(Vmclock, AnOddSequenceCountHeldForeverDoesNotHang)
{
    make(4096);
    watch();
    on_new_thread(true, [this] {
        (void)draw(16);
        const std::uint64_t seeds = shakerand_system_seed_count_for_testing();
        seq().fetch_add(1); // odd, for good
        generation().store(99);
        (void)draw_words(100);
        EXPECT_EQ(shakerand_system_seed_count_for_testing(), seeds + 1);
    });
}

// Not a device with the counter: ignored, and nothing reseeds when its
// bytes change.
TEST_F(Vmclock, PagesThatAreNotSuchADeviceAreIgnored)
{
    struct Case {
        const char *what;
        std::size_t file_size;
        std::uint32_t magic;
        std::uint64_t flags;
        std::uint32_t declared_size;
        std::uint16_t version;
    };
    for (const Case &c : {Case{"wrong magic", 4096, 0x4b4c4357, 1u << 8, 4096, 1},
                          Case{"another version", 4096, 0x4b4c4356, 1u << 8, 4096, 2},
                          Case{"a short file", 100, 0x4b4c4356, 1u << 8, 4096, 1},
                          Case{"a size too small", 4096, 0x4b4c4356, 1u << 8, 64, 1}}) {
        SCOPED_TRACE(c.what);
        make(c.file_size, c.magic, c.flags, c.declared_size, c.version);
        watch();
        EXPECT_EQ(shakerand_system_watches_vm_generation(), 0);
        on_new_thread(true, [this] {
            (void)draw(16);
            const std::uint64_t seeds = shakerand_system_seed_count_for_testing();
            if (size >= 112) {
                set_generation(1234);
                set_disruption(1234);
            }
            (void)draw_words(4);
            EXPECT_EQ(shakerand_system_seed_count_for_testing(), seeds);
        });
        munmap(page, 4096);
        page = nullptr;
        unlink(path.c_str());
    }
    shakerand_system_vmclock_path_for_testing("/nonexistent/vmclock");
    EXPECT_EQ(shakerand_system_watches_vm_generation(), 0);
}

// Every source repeats itself: the operating system gives the same bytes
// in every process and no hardware source is used. Undone at the end.
struct RepeatingSources {
    std::vector<std::string> hardware;
    RepeatingSources()
    {
        std::vector<shakerand_source_info> info(shakerand_sources(nullptr, 0));
        shakerand_sources(info.data(), info.size());
        for (std::size_t i = 1; i < info.size(); i++) {
            hardware.emplace_back(info[i].name);
            EXPECT_EQ(shakerand_entropy_fault_for_testing(info[i].name, SHAKERAND_FAULT_FAIL), 0);
        }
        EXPECT_EQ(shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_FIXED), 0);
        shakerand_sources(info.data(), info.size());
        for (std::size_t i = 1; i < info.size(); i++)
            EXPECT_EQ(info[i].used, 0) << info[i].name;
    }
    ~RepeatingSources()
    {
        for (const auto &name : hardware)
            shakerand_entropy_fault_for_testing(name.c_str(), SHAKERAND_FAULT_NONE);
        shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NONE);
        shakerand_entropy_jitter_fixed_for_testing(0);
    }
};

// Two clones of one process (a fork child and its parent, the generator
// seeded before the fork) see the disruption marker move, and each draws
// 32 bytes from its reseed; the child's bytes come back through a pipe.
struct ClonePair {
    bytes parent, child;
    std::uint64_t parent_samples = 0, child_samples = 0; // taken after the fork
    bool child_ok = false;
};

class VmclockClones : public Vmclock
{
  protected:
    std::uint64_t marker = 1;

    ClonePair restore_two_clones()
    {
        ClonePair r;
        (void)draw(16);
        int go[2], back[2];
        EXPECT_EQ(pipe(go), 0);
        EXPECT_EQ(pipe(back), 0);
        const std::uint64_t before = shakerand_entropy_jitter_samples_for_testing();
        const pid_t pid = fork();
        if (pid == 0) {
            char c;
            bool ok = read(go[0], &c, 1) == 1;
            const bytes b = draw(32);
            const std::uint64_t n = shakerand_entropy_jitter_samples_for_testing() - before;
            ok = ok && write(back[1], b.data(), b.size()) == static_cast<ssize_t>(b.size()) &&
                 write(back[1], &n, sizeof n) == static_cast<ssize_t>(sizeof n);
            _exit(ok ? 0 : 1);
        }
        EXPECT_GT(pid, 0);
        set_disruption(++marker); // the page is shared: both see the restore
        EXPECT_EQ(write(go[1], "g", 1), 1);
        r.parent = draw(32);
        r.parent_samples = shakerand_entropy_jitter_samples_for_testing() - before;
        r.child.resize(32);
        EXPECT_EQ(read(back[0], r.child.data(), 32), 32);
        EXPECT_EQ(read(back[0], &r.child_samples, sizeof r.child_samples),
                  static_cast<ssize_t>(sizeof r.child_samples));
        int status = 0;
        waitpid(pid, &status, 0);
        r.child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        for (int fd : {go[0], go[1], back[0], back[1]})
            close(fd);
        return r;
    }
};

// No vmgenid and no CPU source (QEMU's qemu64): both clones read the same
// operating-system bytes and have the same seed counter, so their reseeds
// after the restore differ only by the CPU-jitter sample each takes. The
// control: with the sample's timer made to tick alike in both, they match.
TEST_F(VmclockClones, ClonesWhoseSourcesRepeatDifferByTheirJitterAlone)
{
    make(4096, 0x4b4c4356, 0);
    set_disruption(marker);
    watch();
    on_new_thread(true, [this] {
        RepeatingSources repeating;
        shakerand_entropy_jitter_fixed_for_testing(1);
        const ClonePair same = restore_two_clones();
        EXPECT_TRUE(same.child_ok);
        EXPECT_EQ(same.parent, same.child) << "something besides the jitter differs";
        EXPECT_EQ(same.parent_samples, 1u);
        EXPECT_EQ(same.child_samples, 1u);

        shakerand_entropy_jitter_fixed_for_testing(0);
        const ClonePair clones = restore_two_clones();
        EXPECT_TRUE(clones.child_ok);
        EXPECT_NE(clones.parent, clones.child) << "the clones hand out the same bytes";
        EXPECT_EQ(clones.parent_samples, 1u);
        EXPECT_EQ(clones.child_samples, 1u) << "the child reused the parent's sample";
    });
}

// shakerand_entropy (Java's generateSeed, the CLI's engine seeds) is a seed
// for another generator: after a restore the process saw it mixes in that
// restore's digest as the system generator's seeds do, one sample per
// restore. (Earlier tests' new_epoch calls are restores this process saw,
// so the first call here may take a sample of its own.)
TEST_F(VmclockClones, EntropyAfterARestoreTakesItsSample)
{
    make(4096, 0x4b4c4356, 0);
    set_disruption(marker);
    watch();
    on_new_thread(true, [this] {
        unsigned char out[32];
        ASSERT_EQ(shakerand_entropy(out, sizeof out), SHAKERAND_OK);
        const std::uint64_t samples = shakerand_entropy_jitter_samples_for_testing();
        ASSERT_EQ(shakerand_entropy(out, sizeof out), SHAKERAND_OK);
        EXPECT_EQ(shakerand_entropy_jitter_samples_for_testing(), samples) << "no new restore";
        // A marker the other tests' pages never reach: the process keeps the
        // digest under the restore's words, which outlive this test's page.
        set_disruption(marker += 1000);
        ASSERT_EQ(shakerand_entropy(out, sizeof out), SHAKERAND_OK);
        EXPECT_EQ(shakerand_entropy_jitter_samples_for_testing(), samples + 1);
        ASSERT_EQ(shakerand_entropy(out, sizeof out), SHAKERAND_OK);
        EXPECT_EQ(shakerand_entropy_jitter_samples_for_testing(), samples + 1) << "one per restore";
    });
}

// One sample per restore for the process: the first thread to reseed takes
// it, the others (and later reseeds in the same epoch) reuse its digest; a
// new restore, by the marker or by new_epoch, takes a new one, and a child
// process takes its own.
TEST_F(VmclockClones, OneSamplePerRestoreForTheProcess)
{
    make(4096, 0x4b4c4356, 0);
    set_disruption(marker);
    watch();
    on_new_thread(true, [] { (void)draw(16); });
    constexpr int kThreads = 4;
    const std::uint64_t samples = shakerand_entropy_jitter_samples_for_testing();
    const std::uint64_t seeds = shakerand_system_seed_count_for_testing();
    set_disruption(++marker);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; i++)
        threads.emplace_back([] {
            (void)draw(16);
            shakerand_system_reseed(); // later in the same epoch
            (void)draw(16);
        });
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(shakerand_system_seed_count_for_testing(), seeds + 2 * kThreads);
    EXPECT_EQ(shakerand_entropy_jitter_samples_for_testing(), samples + 1);

    on_new_thread(true, [] { (void)draw(16); });
    EXPECT_EQ(shakerand_entropy_jitter_samples_for_testing(), samples + 1);
    set_disruption(++marker);
    on_new_thread(true, [] { (void)draw(16); });
    EXPECT_EQ(shakerand_entropy_jitter_samples_for_testing(), samples + 2);
    shakerand_system_new_epoch();
    on_new_thread(true, [] { (void)draw(16); });
    EXPECT_EQ(shakerand_entropy_jitter_samples_for_testing(), samples + 3);

    // A child of a process that took this restore's sample takes its own:
    // the parent's digest is no fresher in the child than in the parent.
    on_new_thread(true, [] {
        (void)draw(16);
        const std::uint64_t before = shakerand_entropy_jitter_samples_for_testing();
        int back[2];
        ASSERT_EQ(pipe(back), 0);
        const pid_t pid = fork();
        if (pid == 0) {
            (void)draw(16);
            const std::uint64_t n = shakerand_entropy_jitter_samples_for_testing() - before;
            _exit(write(back[1], &n, sizeof n) == static_cast<ssize_t>(sizeof n) ? 0 : 1);
        }
        ASSERT_GT(pid, 0);
        std::uint64_t in_child = 0;
        EXPECT_EQ(read(back[0], &in_child, sizeof in_child),
                  static_cast<ssize_t>(sizeof in_child));
        int status = 0;
        waitpid(pid, &status, 0);
        close(back[0]);
        close(back[1]);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        EXPECT_EQ(in_child, 1u) << "the child reused its parent's sample";
        shakerand_system_reseed();
        (void)draw(16);
        EXPECT_EQ(shakerand_entropy_jitter_samples_for_testing(), before) << "the parent's is kept";
    });
}

// The material after a restore, with every input fixed, is the reference
// model's (tools/shakerand_ref.py: system_conditioner(os, [], counter,
// jitter_digest([100] * 2048)), os byte i being 0xA5 ^ i, the FIXED
// fault's): the operating system's bytes, the counter and the digest of
// 2048 deltas of 100 ticks, with domain byte 0x26. The generator's first
// bytes are those of an engine keyed as it keys one from that material.
// A later reseed in the same restore, on another thread, with the timer
// real again, mixes in the same digest (counter 2): it takes no sample.
TEST(Restore, TheMaterialAfterARestoreIsTheModels)
{
    const bytes first = test::from_hex(
        "71b6af073081489ee43a97fbc7244cc4bdd5b5e08660f7ff62d2d2134e875fd0"
        "d9481a41387e242dcb9198eb59439f806fe9c4bfbe3f81e2e507aa0289881979");
    const bytes later = test::from_hex(
        "91b22e14639ace76e6f59ed2699b00d780299414905e12b9db1f7cb9dcb86678"
        "124d659e4668b21cc576ac8aea4b6a4cfa03af36a4ac8e49fe9ab8c85f4b50bc");
    bytes got_first, got_later;
    {
        RepeatingSources repeating;
        shakerand_entropy_jitter_fixed_for_testing(1);
        shakerand_system_new_epoch();
        shakerand_entropy_seed_counter_for_testing(1);
        on_new_thread(true, [&got_first] { got_first = draw(64); });
        shakerand_entropy_jitter_fixed_for_testing(0);
        on_new_thread(true, [&got_later] { got_later = draw(64); });
    }
    shakerand_system_new_epoch(); // the fixed sample's digest is no later restore's
    for (const auto &[material, got] : {std::pair{first, got_first}, std::pair{later, got_later}})
        EXPECT_EQ(test::to_hex(got), test::to_hex(test::system_output_of(material, 64)));
}

// A front end's buffer check compares both epoch words with no branch of
// its own for a counter that is not watched: the core hands out a word
// that stays 0 then, never NULL, and the counter's own word when watched.
TEST_F(Vmclock, TheEpochWordsAreNeverNull)
{
    const volatile std::uint64_t *epoch = nullptr, *vm = nullptr;
    shakerand_system_epoch_words(&epoch, &vm);
    ASSERT_NE(epoch, nullptr);
    ASSERT_NE(vm, nullptr);
    EXPECT_EQ(*vm, 0u);
    make(4096);
    watch();
    set_generation(41);
    shakerand_system_epoch_words(&epoch, &vm);
    ASSERT_NE(vm, nullptr);
    EXPECT_EQ(*vm, 41u);
}
#endif

} // namespace
