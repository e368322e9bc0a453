// SPDX-License-Identifier: MIT OR Apache-2.0
// No key material outlives a public call (docs/system.md, "Stack and
// registers"). Each case paints the stack below the calling frame, makes one
// public call (or a loop of them), and reads the same memory back; then
//  - residue: every byte the call wrote below its own thin frame must be
//    zero again (the entry point wiped what its work used), and
//  - secrets: no 32-byte window of it works as a chacha8rand key for the
//    stream the call drew from, and no 8 bytes of that stream's output not
//    yet handed out (nor, for fills and hashes, of what was handed out) lie
//    there.
// Only the public API is used, so the same file runs against the static
// library (test_stack) and the shared one (test_stack_shared); ctest runs
// each once per kernel this architecture has (SHAKERAND_KERNEL), and the
// cross suites run it under qemu for aarch64, ppc64le and s390x.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <csignal>
#include <pthread.h>
#if !defined(__APPLE__) && !defined(_WIN32) // macOS: deprecated, and only with _XOPEN_SOURCE
#include <ucontext.h>
#endif
#include <cstdint>
#include <cstdio>
#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#endif
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

extern "C" {
#include "chacha8rand.h"
#include "engine.h"
#include "shakerand.h"
}

#include "stack_read_back.hpp"
#if defined(SHAKERAND_TESTING)
#include "testing.h"
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#endif

namespace {

using bytes = std::vector<std::uint8_t>;

constexpr std::size_t kRegion = 64 * 1024; // read back below the calling frame
// The public function's own frame (a thin wrapper: return address, saved
// registers, a returned word) and the reader's lie in the top bytes; they
// are left out of the residue check, not out of the secrets check.
#if defined(__s390x__)
constexpr std::size_t kOwnFrames = 512; // every frame has a 160-byte register save area
#elif defined(__aarch64__)
constexpr std::size_t kOwnFrames = 384; // frame records at the bottom make the harness's frames deeper
#else
constexpr std::size_t kOwnFrames = 256;
#endif
constexpr std::uint8_t kPaint = 0x5a;

__attribute__((noinline)) void paint_stack()
{
    volatile std::uint8_t region[kRegion + 8192];
    for (auto &b : region)
        b = kPaint;
}

// Copies the kRegion bytes below this function's frame address, which lies
// where the frame of the call just made from the same caller began. A leaf
// that keeps its loop in registers, so it writes nothing it reads.
__attribute__((noinline)) void read_stack(std::uint64_t *out)
{
    const auto top = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) & ~std::uintptr_t{7};
    const volatile std::uint64_t *p = reinterpret_cast<const volatile std::uint64_t *>(top - kRegion);
    for (std::size_t i = 0; i < kRegion / 8; i++)
        out[i] = p[i];
}

// The stack below the caller after `op`, lowest address first.
__attribute__((noinline)) bytes stack_after(const std::function<void()> &op)
{
    std::vector<std::uint64_t> words(kRegion / 8);
    paint_stack();
    op();
    read_stack(words.data());
    bytes out(kRegion);
    std::memcpy(out.data(), words.data(), kRegion);
    return out;
}

bool uniform_word(std::uint64_t w)
{
    static const std::uint64_t paint = 0x0101010101010101ULL * kPaint;
    return w == 0 || w == paint;
}

// The address ranges mapped in this process (/proc/self/maps).
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> mappings()
{
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
    std::FILE *f = std::fopen("/proc/self/maps", "r");
    if (f == nullptr)
        return ranges;
    char line[512];
    while (std::fgets(line, sizeof line, f) != nullptr) {
        unsigned long long lo, hi;
        if (std::sscanf(line, "%llx-%llx", &lo, &hi) == 2)
            ranges.emplace_back(lo, hi);
    }
    std::fclose(f);
    return ranges;
}

// A 4-byte store of a small number over paint, or the paint itself.
bool innocent_half(std::uint32_t h) { return h == 0x01010101U * kPaint || h < (1U << 24); }

// Words left below the public function's own frame that the work may have
// computed: not the paint, not zero, and not what every frame holds
// whatever the work was (return addresses and saved frame or stack
// pointers, which point into a mapping; counts, sizes and flags: a word
// below 2^32, or two halves each below 2^24 or paint). A random word passes
// for one of those with probability about 2^-16, a 32-byte key about
// 2^-64. The wipe's own frame, below what it zeroed, holds only those.
// `touched`: how deep the call wrote at all.
struct Residue {
    std::size_t words = 0, deepest = 0, touched = 0;
    std::string sample; // the deepest few, for the failure message
};

// Addresses in each kind of mapping a frame may point into (code of the
// test and of the library, stack, heap, thread-local, anonymous mappings),
// for where /proc/self/maps shows the host's mappings, not the program's
// (qemu-user): a word within 4 GiB of one is taken for a pointer.
std::vector<std::uintptr_t> anchors_of(const bytes &stack)
{
    static thread_local int tls_anchor;
    static const auto heap = std::make_unique<int>(0);
#if defined(_WIN32)
    static void *const anon = VirtualAlloc(nullptr, 4096, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
#else
    static void *const anon = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#endif
    return {reinterpret_cast<std::uintptr_t>(&paint_stack), reinterpret_cast<std::uintptr_t>(&shakerand_version),
            reinterpret_cast<std::uintptr_t>(&std::memcpy), reinterpret_cast<std::uintptr_t>(stack.data()),
            reinterpret_cast<std::uintptr_t>(&stack), reinterpret_cast<std::uintptr_t>(heap.get()),
            reinterpret_cast<std::uintptr_t>(&tls_anchor), reinterpret_cast<std::uintptr_t>(anon)};
}

Residue residue_of(const bytes &stack, std::size_t own_frames)
{
    static const auto maps = mappings();
    const auto anchors = anchors_of(stack);
    Residue r;
    for (std::size_t i = 0; i + 8 <= stack.size(); i += 8) {
        const std::size_t depth = stack.size() - i;
        std::uint64_t w;
        std::memcpy(&w, stack.data() + i, 8);
        if (r.touched == 0 && !std::all_of(stack.data() + i, stack.data() + i + 8,
                                           [](std::uint8_t b) { return b == kPaint; }))
            r.touched = depth;
        if (depth <= own_frames || uniform_word(w) || (w >> 32) == 0 ||
            (innocent_half(static_cast<std::uint32_t>(w >> 32)) &&
             innocent_half(static_cast<std::uint32_t>(w))))
            continue;
        bool pointer = false;
        for (const auto &[lo, hi] : maps)
            pointer = pointer || (w >= lo && w < hi);
        for (const std::uintptr_t a : anchors)
            pointer = pointer || (w - a + (std::uint64_t{1} << 32)) < (std::uint64_t{1} << 33);
        if (!pointer) {
            if (r.words++ < 4) {
                char text[48];
                std::snprintf(text, sizeof text, " %016llx@%zu", static_cast<unsigned long long>(w), depth);
                r.sample += text;
            }
            if (r.deepest == 0)
                r.deepest = depth;
        }
    }
    return r;
}

// 8-byte values of output: at every byte offset, or every 8th where the
// stream's word boundaries are known (long deliveries).
struct OutputSet {
    std::unordered_set<std::uint64_t> words;
    void add(const std::uint8_t *p, std::size_t n, std::size_t step = 1)
    {
        for (std::size_t i = 0; i + 8 <= n; i += step) {
            std::uint64_t w;
            std::memcpy(&w, p + i, 8);
            words.insert(w);
        }
    }
    void add(const bytes &b, std::size_t step = 1) { add(b.data(), b.size(), step); }
    bool has(std::uint64_t w) const { return words.count(w) != 0; }
};


// 8-byte pieces of the stack (at every 4-byte offset) found in `set`,
// below the top `skip` bytes.
std::size_t output_found(const bytes &stack, const OutputSet &set, std::size_t skip, std::string *where)
{
    std::size_t hits = 0;
    for (std::size_t i = 0; i + 8 <= stack.size() - skip; i += 4) {
        std::uint64_t w;
        std::memcpy(&w, stack.data() + i, 8);
        if (!uniform_word(w) && set.has(w)) {
            if (hits++ == 0)
                *where = std::to_string(stack.size() - i) + " bytes below the caller";
        }
    }
    return hits;
}

// 32-byte windows of the stack (at every 4-byte offset) that, used as a
// chacha8rand key, give output found in either set: a key of that stream.
std::size_t chacha8_keys_found(const bytes &stack, const OutputSet &handed_out, const OutputSet &future,
                               std::string *where)
{
    std::size_t hits = 0;
    std::uint8_t out[CHACHA8_OUTPUT_BYTES];
    for (std::size_t i = 0; i + CHACHA8_KEY_BYTES <= stack.size(); i += 4) {
        bool plausible = true; // a random key has no zero or painted word
        for (std::size_t w = 0; w < CHACHA8_KEY_BYTES / 8 && plausible; w++) {
            std::uint64_t v;
            std::memcpy(&v, stack.data() + i + 8 * w, 8);
            plausible = !uniform_word(v);
        }
        if (!plausible)
            continue;
        shakerand_engine e;
        if (shakerand_engine_init(&e, SHAKERAND_CHACHA8RAND, stack.data() + i, CHACHA8_KEY_BYTES) !=
            SHAKERAND_OK)
            continue;
        shakerand_engine_fill(&e, out, sizeof out);
        shakerand_engine_wipe(&e);
        for (std::size_t w = 0; w < sizeof out; w += 8) {
            std::uint64_t v;
            std::memcpy(&v, out + w, 8);
            if (handed_out.has(v) || future.has(v)) {
                if (hits++ == 0)
                    *where = std::to_string(stack.size() - i) + " bytes below the caller";
                break;
            }
        }
    }
    return hits;
}

// What one case knows about the stream its call drew from.
struct Case {
    bytes stack;
    // What the call returned may still lie in its own frame (a word on
    // its way out): looked for below that; what is still to come, anywhere.
    OutputSet handed_out, future;
    bool chacha8_keys = false; // the stream is chacha8rand's: look for its keys
    std::size_t own_frames = kOwnFrames;
    bool residue = true; // look for words the work left (else only for keys and output)
};

void expect_clean(const Case &c, const std::string &what)
{
    const Residue r = c.residue ? residue_of(c.stack, c.own_frames) : Residue{};
    EXPECT_EQ(r.words, 0u) << what << ": " << r.words << " words left unwiped, the deepest "
                           << r.deepest << " bytes below the caller (the call reached "
                           << r.touched << "):" << r.sample;
    std::string where;
    EXPECT_EQ(output_found(c.stack, c.future, 0, &where), 0u)
        << what << ": output still to come on the stack, first at " << where;
    EXPECT_EQ(output_found(c.stack, c.handed_out, c.own_frames, &where), 0u)
        << what << ": output handed out on the stack, first at " << where;
    if (c.chacha8_keys) {
        where.clear();
        EXPECT_EQ(chacha8_keys_found(c.stack, c.handed_out, c.future, &where), 0u)
            << what << ": a chacha8rand key of the stream on the stack, first at " << where;
    }
}

// Runs `body` on a new thread (a fresh system generator state).
void on_new_thread(const std::function<void()> &body)
{
    std::thread t(body);
    t.join();
}

bool system_is_chacha8() { return shakerand_system_kind() == SHAKERAND_CHACHA8RAND; }

// The system generator's output still to come on this thread, after a
// call: three refills' worth, so the next keys' output is in it.
void add_future_system_output(OutputSet &set)
{
    bytes future(4 * CHACHA8_REFILL_BYTES);
    shakerand_system_fill(future.data(), future.size());
    set.add(future);
}

class Stack : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!STACK_READ_BACK_WORKS)
            GTEST_SKIP() << "sanitizers move frames off the stack: read-back is meaningless";
        const char *expected = std::getenv("EXPECT_KERNEL");
        if (expected != nullptr && std::strcmp(expected, shakerand_kernel_name()) != 0)
            GTEST_SKIP() << "this CPU cannot run kernel " << expected << " (runs "
                         << shakerand_kernel_name() << ")";
        std::printf("kernel %s, system engine %s\n", shakerand_kernel_name(),
                    shakerand_kind_name(shakerand_system_kind()));
    }
};

TEST_F(Stack, SystemFirstUseOnANewThread)
{
    for (std::size_t n : {std::size_t{8}, std::size_t{1000}, std::size_t{1} << 20}) {
        on_new_thread([n] {
            Case c;
            c.chacha8_keys = system_is_chacha8();
            bytes out(n);
            c.stack = stack_after([&] { shakerand_system_fill(out.data(), n); });
            c.handed_out.add(out, n > 65536 ? 8 : 1);
            add_future_system_output(c.future);
            expect_clean(c, "first fill of " + std::to_string(n) + " bytes on a new thread");
        });
    }
    on_new_thread([] {
        Case c;
        c.chacha8_keys = system_is_chacha8();
        std::uint64_t first = 0;
        c.stack = stack_after([&] { first = shakerand_system_u64(); });
        c.handed_out.add(reinterpret_cast<const std::uint8_t *>(&first), 8);
        add_future_system_output(c.future);
        expect_clean(c, "first u64 on a new thread");
    });
    on_new_thread([] {
        Case c;
        c.chacha8_keys = system_is_chacha8();
        int status = -1;
        c.stack = stack_after([&] { status = shakerand_system_init(); });
        EXPECT_EQ(status, SHAKERAND_OK);
        add_future_system_output(c.future);
        expect_clean(c, "shakerand_system_init on a new thread");
    });
}

TEST_F(Stack, SystemFillsOfEverySize)
{
    on_new_thread([] {
        for (std::size_t n : {1, 7, 16, 17, 991, 992, 993, 5000, 65536, 1 << 20}) {
            ASSERT_EQ(shakerand_system_reseed(), SHAKERAND_OK); // the stream starts afresh
            Case c;
            c.chacha8_keys = system_is_chacha8();
            bytes out(n);
            c.stack = stack_after([&] {
                for (int i = 0; i < 3; i++) // crosses refills for the small sizes too
                    shakerand_system_fill(out.data(), n);
            });
            c.handed_out.add(out, n > 65536 ? 8 : 1);
            add_future_system_output(c.future);
            expect_clean(c, "three fills of " + std::to_string(n) + " bytes");
        }
    });
}

TEST_F(Stack, SystemWordLoops)
{
    on_new_thread([] {
        for (int width : {64, 32}) {
            ASSERT_EQ(shakerand_system_reseed(), SHAKERAND_OK);
            Case c;
            c.chacha8_keys = system_is_chacha8();
            std::vector<std::uint64_t> words(65536);
            c.stack = stack_after([&] {
                for (auto &w : words)
                    w = width == 64 ? shakerand_system_u64() : shakerand_system_u32();
            });
            if (width == 64)
                c.handed_out.add(reinterpret_cast<const std::uint8_t *>(words.data()), words.size() * 8, 8);
            add_future_system_output(c.future);
            expect_clean(c, std::to_string(width) + "-bit word loop");
        }
    });
}

TEST_F(Stack, SystemReseeds)
{
    on_new_thread([] {
        (void)shakerand_system_u64();
        const std::uint8_t extra[40] = {1, 2, 3};
        // The third: a reseed after a restore, which takes a jitter sample.
        for (int variant : {0, 1, 2}) {
            const bool with_data = variant == 1;
            if (variant == 2)
                shakerand_system_new_epoch();
            Case c;
            c.chacha8_keys = system_is_chacha8();
            int status = -1;
            c.stack = stack_after([&] {
                status = with_data ? shakerand_system_reseed_with(extra, sizeof extra) : shakerand_system_reseed();
            });
            EXPECT_EQ(status, SHAKERAND_OK);
            add_future_system_output(c.future);
            expect_clean(c, variant == 1   ? "shakerand_system_reseed_with"
                            : variant == 2 ? "shakerand_system_reseed after a restore"
                                           : "shakerand_system_reseed");
        }
    });
}

TEST_F(Stack, SystemSamplersAndUuids)
{
    on_new_thread([] {
        bytes bound(64); // 512 bits, rejections likely
        bound[0] = 0x80;
        bound[3] = 7;
        bytes out(64); // the callers' outputs, off the stack read back
        std::uint64_t word = 0;
        const std::vector<std::pair<std::string, std::function<void()>>> calls = {
            {"uuid4", [&] { shakerand_uuid4(nullptr, out.data()); }},
            {"uuid7", [&] { shakerand_uuid7(nullptr, out.data()); }},
            {"uniform_u64", [&] { (void)shakerand_uniform_u64(nullptr, 1000003, &word); }},
            {"double", [] { (void)shakerand_double(nullptr); }},
            {"below (RNG-BC-1, 512 bits)",
             [&] {
                 (void)shakerand_below(nullptr, SHAKERAND_RNG_BC_1, bound.data(), bound.size(),
                                       out.data(), nullptr);
             }},
        };
        for (const auto &entry : calls) {
            const std::string &name = entry.first;
            const auto &call = entry.second; // not a structured binding: clang 14 cannot capture one
            ASSERT_EQ(shakerand_system_reseed(), SHAKERAND_OK);
            Case c;
            c.chacha8_keys = system_is_chacha8();
            // A sampler's frame is larger than a thin entry point's; one
            // that returns at most 16 bytes may leave that value in it, as
            // a word call does (docs/system.md). shakerand_below may not.
            if (name.rfind("below", 0) != 0)
                c.own_frames = 2 * kOwnFrames;
            c.stack = stack_after([&] {
                for (int i = 0; i < 300; i++) // several refills
                    call();
            });
            add_future_system_output(c.future);
            expect_clean(c, name + " from the system generator, 300 calls");
        }
    });
}

TEST_F(Stack, Entropy)
{
    on_new_thread([] {
        for (std::size_t n : {std::size_t{32}, std::size_t{4096}}) {
            Case c;
            bytes out(n);
            int status = -1;
            c.stack = stack_after([&] { status = shakerand_entropy(out.data(), n); });
            EXPECT_EQ(status, SHAKERAND_OK);
            c.handed_out.add(out);
            expect_clean(c, "shakerand_entropy of " + std::to_string(n) + " bytes");
        }
    });
}

// Every kind of the core's table, on a thread that never draws from the
// system generator: there the wipe after a seeded engine's work is its own
// (a thread that drew has its stack bounds recorded, and every wipe then
// also clears the signal-frame allowance, which would hide a wipe too
// shallow for the engines alone).
static void seeded_engines();

TEST_F(Stack, SeededEngines)
{
    on_new_thread([] { seeded_engines(); });
}

#if defined(SHAKERAND_TESTING) && defined(__x86_64__)
// The XSAVE area of the register states the OS enabled but AMX's tiles
// (which no resolver saves), read here rather than asked of the library:
// CPUID leaf 0xD, sub-leaf 0, EBX is the whole standard area; with AMX
// enabled, the tiles (sub-leaves 17 and 18) come last and are taken off.
std::size_t cpu_register_save_bytes()
{
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !((ecx >> 27) & 1) || __get_cpuid_max(0, nullptr) < 0xD)
        return 512;
    __cpuid_count(0xD, 0, eax, ebx, ecx, edx);
    std::size_t size = ebx;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo >> 17) & 1) { // TILECFG's offset: where the tiles begin
        __cpuid_count(0xD, 17, eax, ebx, ecx, edx);
        size = ebx;
    }
    return size > 512 ? size : 512;
}

// Run first in a process of its own (ctest: stack_lazy_binding_*), against
// a copy of the library linked with lazy binding and every symbol exported,
// so the first calls of each engine bind symbols inside their work: the
// resolver saves the CPU's whole register state below it (on AVX-512 about
// 2.7 KiB, where the suite failed when the work's depth was a constant).
// With the wipe off, each first call's reach is measured; the depth the
// library gives the work must cover it on this CPU and, the register save
// swapped for a larger CPU's, there too.
TEST_F(Stack, LazyBindingIsCovered)
{
    if (std::getenv("LD_BIND_NOW") != nullptr && *std::getenv("LD_BIND_NOW") != '\0')
        GTEST_SKIP() << "LD_BIND_NOW is set: nothing is bound lazily";
    const std::size_t here = cpu_register_save_bytes();
    on_new_thread([here] {
        bytes seed(32, 0x3c), out(64);
        std::size_t bound_in_a_call = 0;
        shakerand_stack_skip_wipe_for_testing(1);
        for (std::size_t k = 0; k < shakerand_kind_count(); k++) {
            const shakerand_kind kind = shakerand_kind_at(k);
            std::size_t reach[2];
            for (std::size_t &r : reach) {
                shakerand_engine e;
                r = residue_of(stack_after([&] {
                                   shakerand_engine_init(&e, kind, seed.data(), seed.size());
                                   shakerand_engine_fill(&e, out.data(), out.size());
                               }),
                               0)
                        .touched;
                shakerand_engine_wipe(&e);
            }
            std::printf("%s: the first init and fill reached %zu bytes, the second %zu\n",
                        shakerand_kind_name(kind), reach[0], reach[1]);
            if (reach[0] >= reach[1] + here)
                bound_in_a_call++;
            // The first call's frames with the largest register saves a
            // CPU may make instead of this one's: AVX-512 with PKRU in the
            // standard layout, and AMX's tiles on top.
            for (std::size_t save : {here, std::size_t{2696}, std::size_t{11016}}) {
                shakerand_stack_register_save_for_testing(save == here ? 0 : save);
                const std::size_t depth = shakerand_stack_work_bytes_for_testing(0);
                EXPECT_LE(reach[0] - here + save, depth)
                    << shakerand_kind_name(kind) << ": a first call with a lazy binding reaches "
                    << reach[0] << " bytes here (register save " << here << "); with a save of " << save
                    << " it would reach " << reach[0] - here + save << ", past the " << depth
                    << " the wipe gives the work";
            }
            shakerand_stack_register_save_for_testing(0);
        }
        shakerand_stack_skip_wipe_for_testing(0);
        EXPECT_GT(bound_in_a_call, 0u) << "no first call made a lazy binding deeper than the register save "
                                       << here << ": the test measures nothing (it must run first in a process of its own, "
                                       << "as ctest's stack_lazy_binding_* run it)";
    });
}
#endif

static void seeded_engines()
{
    bytes seed(32);
    for (std::size_t i = 0; i < seed.size(); i++)
        seed[i] = static_cast<std::uint8_t>(0xA5 ^ (37 * i + 11));
    for (std::size_t k = 0; k < shakerand_kind_count(); k++) {
        const shakerand_kind kind = shakerand_kind_at(k);
        const std::string name = shakerand_kind_name(kind);
        for (std::size_t n : {std::size_t{0}, std::size_t{8}, std::size_t{5000}, std::size_t{1} << 20}) {
            shakerand_engine e;
            Case c;
            c.chacha8_keys = kind == SHAKERAND_CHACHA8RAND;
            bytes out(n);
            int status = -1;
            c.stack = stack_after([&] {
                status = shakerand_engine_init(&e, kind, seed.data(), seed.size());
                if (status == SHAKERAND_OK && n > 0)
                    shakerand_engine_fill(&e, out.data(), n);
            });
            ASSERT_EQ(status, SHAKERAND_OK);
            c.handed_out.add(out, n > 65536 ? 8 : 1);
            bytes future(4 * CHACHA8_REFILL_BYTES);
            shakerand_engine_fill(&e, future.data(), future.size());
            c.future.add(future);
            if (kind == SHAKERAND_CHACHA8RAND)
                c.future.add(seed); // the first key
            if (kind == SHAKERAND_TURBOSHAKE256X8) {
                bytes key(32); // the engine's first key (docs/engines.md)
                shakerand_turboshake256(key.data(), key.size(), seed.data(), seed.size(), X8_KEY_DOMAIN);
                c.future.add(key);
            }
            expect_clean(c, name + ": init and a fill of " + std::to_string(n) + " bytes");
            shakerand_engine_wipe(&e);
        }
        shakerand_engine e;
        ASSERT_EQ(shakerand_engine_init(&e, kind, seed.data(), seed.size()), SHAKERAND_OK);
        Case c;
        c.chacha8_keys = kind == SHAKERAND_CHACHA8RAND;
        std::vector<std::uint64_t> words(4096);
        c.stack = stack_after([&] {
            for (auto &w : words)
                w = shakerand_engine_u64(&e);
        });
        bytes future(4 * CHACHA8_REFILL_BYTES);
        shakerand_engine_fill(&e, future.data(), future.size());
        c.future.add(future);
        c.handed_out.add(reinterpret_cast<const std::uint8_t *>(words.data()), words.size() * 8, 8);
        expect_clean(c, name + ": u64 loop");
        shakerand_engine_wipe(&e);
    }
}

TEST_F(Stack, Hashes)
{
    bytes secret(100);
    shakerand_system_fill(secret.data(), secret.size());
    // Called straight from the case's frame, as the other cases call.
    auto hash = [](int which, void *o, std::size_t n, const void *i, std::size_t m) __attribute__((always_inline)) {
        switch (which) {
        case 0: return shakerand_turboshake256(o, n, i, m, 0x1F);
        case 1: return shakerand_turboshake128(o, n, i, m, 0x1F);
        case 2: return shakerand_shake256(o, n, i, m);
        default: return shakerand_shake128(o, n, i, m);
        }
    };
    const char *const names[] = {"turboshake256", "turboshake128", "shake256", "shake128"};
    for (int which = 0; which < 4; which++) {
        const std::string name = names[which];
        for (std::size_t n : {std::size_t{32}, std::size_t{1000}}) {
            Case c;
            bytes out(n);
            int status = -1;
            c.stack = stack_after([&] { status = hash(which, out.data(), n, secret.data(), secret.size()); });
            ASSERT_EQ(status, 0);
            bytes longer(n + 1000); // the output that follows, from the same state
            ASSERT_EQ(hash(which, longer.data(), longer.size(), secret.data(), secret.size()), 0);
            c.future.add(longer);
            c.future.add(secret);
            expect_clean(c, name + " of a secret, " + std::to_string(n) + " bytes out");
        }
    }
    // The incremental API: absorb in pieces, squeeze in pieces.
    Case c;
    bytes out(600);
    auto x = std::make_unique<shakerand_xof>(); // the caller's state, off the stack read back
    c.stack = stack_after([&] {
        shakerand_turboshake256_init(x.get(), 0x1F);
        for (int round = 0; round < 3; round++) // 300 bytes: across two blocks
            for (std::size_t i = 0; i < secret.size(); i += 10)
                shakerand_xof_absorb(x.get(), secret.data() + i, 10);
        for (std::size_t i = 0; i < out.size(); i += 100)
            shakerand_xof_squeeze(x.get(), out.data() + i, 100);
    });
    bytes thrice;
    for (int round = 0; round < 3; round++)
        thrice.insert(thrice.end(), secret.begin(), secret.end());
    bytes longer(1600);
    shakerand_turboshake256(longer.data(), longer.size(), thrice.data(), thrice.size(), 0x1F);
    c.future.add(longer);
    c.future.add(reinterpret_cast<const std::uint8_t *>(x->state_), sizeof x->state_); // the state as it is now, capacity included
    expect_clean(c, "incremental turboshake256");
    Case r;
    r.stack = stack_after([&] { ASSERT_EQ(shakerand_xof_ratchet(x.get(), 32), SHAKERAND_OK); });
    r.future.add(reinterpret_cast<const std::uint8_t *>(x->state_), sizeof x->state_);
    expect_clean(r, "shakerand_xof_ratchet");
    shakerand_xof_wipe(x.get());
}

#if !defined(_WIN32) // no signals
// Signals while the kernels run: the operating system saves every register,
// keys in vector registers included, in a frame below the interrupted one,
// and the wipe must reach past it. Another thread signals this one all the
// time while it refills; each case is many refills, and a signal frame
// left by any of them would stay below a wipe that is too shallow.
TEST_F(Stack, SignalsDuringRefills)
{
    struct sigaction action{}, old{};
    action.sa_handler = [](int) {};
    action.sa_flags = SA_RESTART;
    ASSERT_EQ(sigaction(SIGUSR1, &action, &old), 0);
    on_new_thread([] {
        // The signal frame's part of the wipe needs the thread's stack
        // bounds, recorded at its first draw (docs/system.md): without this
        // draw, round 0's engine fills wipe only the work's depth, and a
        // signal frame saved during them may lie below it (CI once found
        // output 3904 bytes below the caller).
        (void)shakerand_system_u64();
        const pthread_t target = pthread_self();
        std::atomic<bool> stop{false};
        std::thread signaller([&] {
            while (!stop.load())
                pthread_kill(target, SIGUSR1);
        });
        bytes seed(32, 7);
        bytes out(CHACHA8_OUTPUT_BYTES);
        // 20 rounds take about 3 s natively; under qemu-user a signal costs
        // so much more that they took 20 to 170 s from run to run, so there
        // the rounds stop after 10 s (at least two).
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        for (int round = 0; round < 20 && (round < 2 || std::chrono::steady_clock::now() < deadline); round++) {
            shakerand_engine e;
            ASSERT_EQ(shakerand_engine_init(&e, SHAKERAND_CHACHA8RAND, seed.data(), seed.size()), SHAKERAND_OK);
            // A signal that lands while the wipe itself runs saves its frame
            // below the wipe: the registers, zeroed by then, and the
            // kernel's bookkeeping (xsave magic numbers, addresses), which
            // the residue check cannot tell from data. Keys and output are
            // still looked for everywhere.
            Case c;
            c.chacha8_keys = true;
            c.residue = false;
            c.stack = stack_after([&] {
                for (int i = 0; i < 300; i++)
                    shakerand_engine_fill(&e, out.data(), out.size());
            });
            c.handed_out.add(out);
            bytes future(4 * CHACHA8_REFILL_BYTES);
            shakerand_engine_fill(&e, future.data(), future.size());
            c.future.add(future);
            shakerand_engine_wipe(&e);
            expect_clean(c, "300 refills of a chacha8rand engine under signals, round " + std::to_string(round));
            Case sys;
            sys.chacha8_keys = system_is_chacha8();
            sys.residue = false;
            sys.stack = stack_after([&] {
                for (int i = 0; i < 300; i++)
                    shakerand_system_fill(out.data(), out.size());
            });
            add_future_system_output(sys.future);
            expect_clean(sys, "300 system fills under signals, round " + std::to_string(round));
            if (HasFailure())
                break;
        }
        stop = true;
        signaller.join();
    });
    sigaction(SIGUSR1, &old, nullptr);
}
#endif

// The wipe never runs past the stack it is on: a thread with the smallest
// stack the C library allows, a stack of the program's own with data below
// it, and a handler on the alternate signal stack.
void *draw_everything(void *)
{
    std::uint8_t buf[64];
    (void)shakerand_system_u64();
    shakerand_system_fill(buf, sizeof buf);
    (void)shakerand_system_reseed();
    (void)shakerand_entropy(buf, 32);
    shakerand_turboshake256(buf, sizeof buf, buf, sizeof buf, 0x1F);
    std::uint8_t uuid[16];
    shakerand_uuid4(nullptr, uuid);
    return nullptr;
}

// Sanitizers make frames several times larger: these stacks are too small.
#define SKIP_UNDER_SANITIZERS()                                                                    \
    do {                                                                                           \
        if (!STACK_READ_BACK_WORKS)                                                                \
            GTEST_SKIP() << "sanitizers make frames too large for the small stacks";               \
    } while (0)

#if defined(_WIN32)
// Runs `body` on a new thread with `reserve` bytes of stack (0: the
// default) and returns its exit code, or 99 when the thread cannot start.
DWORD run_win32_thread(LPTHREAD_START_ROUTINE body, SIZE_T reserve)
{
    HANDLE t = CreateThread(nullptr, reserve, body, nullptr,
                            reserve != 0 ? STACK_SIZE_PARAM_IS_A_RESERVATION : 0, nullptr);
    if (t == nullptr)
        return 99;
    DWORD code = 1;
    if (WaitForSingleObject(t, INFINITE) != WAIT_OBJECT_0 || !GetExitCodeThread(t, &code))
        code = 98;
    CloseHandle(t);
    return code;
}

// A thread made with a 64 KiB stack (the allocation granularity, the
// smallest reservation): the wipe stays above the stack's guard pages.
DWORD WINAPI draw_everything_win32(void *arg) { return draw_everything(arg) == nullptr ? 0 : 1; }

TEST(StackBounds, SmallestThreadStack)
{
    SKIP_UNDER_SANITIZERS();
    EXPECT_EQ(0u, run_win32_thread(draw_everything_win32, 64 * 1024));
}

// The bounds are the running fiber's, read at each wipe: fibers with the
// smallest reservation, one after the other on one thread (the second may
// reuse the first one's range), draw everything within their stacks.
struct small_fiber {
    LPVOID main = nullptr;
    int done = 0;
};

void WINAPI draw_everything_on_fiber(void *arg)
{
    auto *f = static_cast<small_fiber *>(arg);
    if (draw_everything(nullptr) == nullptr)
        f->done++;
    SwitchToFiber(f->main);
}

DWORD WINAPI draw_on_small_fibers(void *)
{
    small_fiber f;
    f.main = ConvertThreadToFiber(nullptr);
    if (f.main == nullptr)
        return 2;
    for (int i = 0; i < 2; i++) {
        LPVOID fiber = CreateFiberEx(4096, 64 * 1024, 0, draw_everything_on_fiber, &f);
        if (fiber == nullptr)
            return 3;
        SwitchToFiber(fiber);
        DeleteFiber(fiber);
    }
    ConvertFiberToThread();
    return f.done == 2 ? 0 : 1;
}

TEST(StackBounds, SmallFiberStacks)
{
    SKIP_UNDER_SANITIZERS();
    EXPECT_EQ(0u, run_win32_thread(draw_on_small_fibers, 0));
}

// A 64 KiB stack whose thread keeps 32 KiB for handling an overflow
// (SetThreadStackGuarantee): the wipe stays above that too.
DWORD WINAPI draw_with_stack_guarantee(void *arg)
{
    ULONG guarantee = 32 * 1024;
    if (!SetThreadStackGuarantee(&guarantee))
        return 2;
    return draw_everything(arg) == nullptr ? 0 : 1;
}

TEST(StackBounds, SmallThreadStackWithAGuarantee)
{
    SKIP_UNDER_SANITIZERS();
    EXPECT_EQ(0u, run_win32_thread(draw_with_stack_guarantee, 64 * 1024));
}
#else
TEST(StackBounds, SmallestThreadStack)
{
    SKIP_UNDER_SANITIZERS();
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    ASSERT_EQ(pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN), 0);
    pthread_t t;
    ASSERT_EQ(pthread_create(&t, &attr, draw_everything, nullptr), 0);
    pthread_join(t, nullptr);
    pthread_attr_destroy(&attr);
}

TEST(StackBounds, AStackOfTheProgramsOwnKeepsWhatLiesBelowIt)
{
    SKIP_UNDER_SANITIZERS();
    // 24 KiB, or the smallest stack this architecture allows, in whole pages.
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t kStack = (std::max<std::size_t>(24 * 1024, PTHREAD_STACK_MIN) + page - 1) / page * page;
    const std::size_t kBelow = 16 * 1024;
    std::vector<std::uint8_t> memory(kBelow + kStack + page, 0xA5);
    auto *base = reinterpret_cast<std::uint8_t *>(
        (reinterpret_cast<std::uintptr_t>(memory.data()) + kBelow + page - 1) & ~(std::uintptr_t{page} - 1));
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    ASSERT_EQ(pthread_attr_setstack(&attr, base, kStack), 0);
    pthread_t t;
    ASSERT_EQ(pthread_create(&t, &attr, draw_everything, nullptr), 0);
    pthread_join(t, nullptr);
    pthread_attr_destroy(&attr);
    const std::size_t below = static_cast<std::size_t>(base - memory.data());
    EXPECT_EQ(std::count(memory.begin(), memory.begin() + static_cast<long>(below), 0xA5),
              static_cast<long>(below))
        << "memory below the thread's stack was written";
}

#endif

#if !defined(_WIN32) // signal stacks, ucontext fibers
std::atomic<int> handler_draws{0};

// The operating system's signal frame (as stack_wipe.c reads it).
std::size_t signal_frame_size()
{
#if defined(_SC_MINSIGSTKSZ)
    const long n = sysconf(_SC_MINSIGSTKSZ);
    if (n > 0)
        return static_cast<std::size_t>(n);
#endif
    return MINSIGSTKSZ;
}

// `usable` bytes of stack in their own mapping, with an inaccessible guard
// page below (where mmap puts them: near the threads' stacks), as fiber
// and alternate-stack libraries lay them out; a write below is a crash.
// The stack is exactly `usable` bytes above the guard page (the mapping is
// rounded up to whole pages beyond its top).
struct GuardedStack {
    std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), size, mapped;
    std::uint8_t *map = nullptr;
    explicit GuardedStack(std::size_t usable) : size(usable), mapped((usable + page - 1) / page * page + page)
    {
        void *m = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        map = m == MAP_FAILED ? nullptr : static_cast<std::uint8_t *>(m);
        if (map != nullptr)
            mprotect(map, page, PROT_NONE);
    }
    ~GuardedStack()
    {
        if (map != nullptr)
            munmap(map, mapped);
    }
    std::uint8_t *base() const { return map + page; }
};

TEST(StackBounds, AHandlerOnTheAlternateSignalStack)
{
    SKIP_UNDER_SANITIZERS();
    on_new_thread([] {
        (void)shakerand_system_u64(); // a thread that has drawn: the handler's calls are safe
        GuardedStack alt(std::max<std::size_t>(8192, signal_frame_size() + 4608));
        ASSERT_NE(alt.map, nullptr);
        stack_t ss{}, old_ss{};
        ss.ss_sp = alt.base();
        ss.ss_size = alt.size;
        ASSERT_EQ(sigaltstack(&ss, &old_ss), 0);
        struct sigaction action{}, old{};
        action.sa_handler = [](int) {
            static std::uint8_t buf[4096];
            shakerand_system_fill(buf, sizeof buf); // a refill, so a wipe, on the alternate stack
            (void)shakerand_system_reseed(); // and a seed's
            handler_draws++;
        };
        action.sa_flags = SA_ONSTACK;
        ASSERT_EQ(sigaction(SIGUSR2, &action, &old), 0);
        for (int i = 0; i < 20; i++)
            pthread_kill(pthread_self(), SIGUSR2);
        sigaction(SIGUSR2, &old, nullptr);
        ss.ss_flags = SS_DISABLE;
        sigaltstack(&ss, nullptr);
        EXPECT_EQ(handler_draws.load(), 20);
    });
}

#if !defined(__APPLE__)
// A fiber: a stack of the program's own, of a size the library cannot
// know, partly used already when it draws for the first time and again.
ucontext_t fiber_return, fiber_context;

void fiber_body()
{
    volatile std::uint8_t used[4096];
    for (auto &b : used)
        b = 1;
    draw_everything(nullptr);
    draw_everything(nullptr);
}

TEST(StackBounds, AFiberWithASmallStack)
{
    SKIP_UNDER_SANITIZERS();
    on_new_thread([] {
#if defined(SHAKERAND_TESTING)
        // Room for the body's 4 KiB, a seed's work (which grows with the
        // CPU's register state: 2.7 KiB more on AVX-512 than on AVX2) and
        // the callers' frames, not for the signal frame a full wipe adds.
        const std::size_t frames = 1024;
        ASSERT_GT(signal_frame_size(), frames) << "the test could not tell the two wipes apart";
        GuardedStack stack((4096 + shakerand_stack_work_bytes_for_testing(1) + frames + 15) / 16 * 16);
#else
        GTEST_SKIP() << "the shipped library has no hook saying its work depth, which sizes the "
                        "fiber's stack (test_stack and test_stack_lazy run this)";
        GuardedStack stack(0);
#endif
        ASSERT_NE(stack.map, nullptr);
        ASSERT_EQ(getcontext(&fiber_context), 0);
        fiber_context.uc_stack.ss_sp = stack.base();
        fiber_context.uc_stack.ss_size = stack.size;
        fiber_context.uc_link = &fiber_return;
        makecontext(&fiber_context, fiber_body, 0);
        ASSERT_EQ(swapcontext(&fiber_return, &fiber_context), 0);
    });
}
#endif
#endif // !_WIN32

#if defined(__x86_64__)
// The registers right after a refill: the kernels keep keys and output in
// them, and a signal delivered after the call would save them on the stack.
__attribute__((noinline, target("avx"))) void fill_then_read_registers(shakerand_engine *e, std::uint8_t *out,
                                                                       std::size_t n, std::uint8_t *regs)
{
    shakerand_engine_fill(e, out, n);
    __asm__ __volatile__(
        "mov %%rax, 0(%0)\n\tmov %%rcx, 8(%0)\n\tmov %%rdx, 16(%0)\n\tmov %%rsi, 24(%0)\n\t"
        "mov %%rdi, 32(%0)\n\tmov %%r8, 40(%0)\n\tmov %%r9, 48(%0)\n\tmov %%r10, 56(%0)\n\t"
        "mov %%r11, 64(%0)\n\t"
        "vmovdqu %%ymm0, 96(%0)\n\tvmovdqu %%ymm1, 128(%0)\n\tvmovdqu %%ymm2, 160(%0)\n\t"
        "vmovdqu %%ymm3, 192(%0)\n\tvmovdqu %%ymm4, 224(%0)\n\tvmovdqu %%ymm5, 256(%0)\n\t"
        "vmovdqu %%ymm6, 288(%0)\n\tvmovdqu %%ymm7, 320(%0)\n\tvmovdqu %%ymm8, 352(%0)\n\t"
        "vmovdqu %%ymm9, 384(%0)\n\tvmovdqu %%ymm10, 416(%0)\n\tvmovdqu %%ymm11, 448(%0)\n\t"
        "vmovdqu %%ymm12, 480(%0)\n\tvmovdqu %%ymm13, 512(%0)\n\tvmovdqu %%ymm14, 544(%0)\n\t"
        "vmovdqu %%ymm15, 576(%0)"
        :
        : "b"(regs)
        : "memory");
}

TEST_F(Stack, RegistersAfterARefill)
{
    if (!__builtin_cpu_supports("avx"))
        GTEST_SKIP() << "no AVX: the test reads ymm registers";
    bytes seed(32, 9), out(3 * CHACHA8_OUTPUT_BYTES), regs(608);
    shakerand_engine e;
    ASSERT_EQ(shakerand_engine_init(&e, SHAKERAND_CHACHA8RAND, seed.data(), seed.size()), SHAKERAND_OK);
    fill_then_read_registers(&e, out.data(), out.size(), regs.data());
    Case c;
    c.stack = regs;
    c.residue = false;
    c.chacha8_keys = true;
    c.own_frames = 0;
    c.handed_out.add(out);
    bytes future(4 * CHACHA8_REFILL_BYTES);
    shakerand_engine_fill(&e, future.data(), future.size());
    c.future.add(future);
    shakerand_engine_wipe(&e);
    expect_clean(c, "the caller-saved registers after a chacha8rand refill");
}
#endif

} // namespace
