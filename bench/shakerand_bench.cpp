// SPDX-License-Identifier: MIT OR Apache-2.0
// shakerand's benchmark: every engine on every kernel beside the machine's
// other generators, in one run, printed as a table (and with --markdown FILE
// written as BENCHMARKS.md, with --json FILE as data for the charts). Each
// figure is the best of several timed runs of at least 0.2 s, so a brief
// stall of this shared machine does not count. Every verdict compares
// figures of this run only.
//
// The system generator reads SHAKERAND_SYSTEM_ENGINE once per process, so
// its rows come from this program run again with --system-rows under each
// engine's setting.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <openssl/rand.h>
#include <sodium.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

extern "C" {
#include "keccakp1600.h"
// The opt-in inlined takes, timed beside the calls (shakerand_system_*_inline).
#define SHAKERAND_INLINE_SYSTEM 1
#include "shakerand.h"
#include "testing.h"
}

extern char **environ;

namespace {

using clock_type = std::chrono::steady_clock;

// Seconds per call of `op`, best of `reps` runs of at least `min_seconds`.
// A template, not std::function, so small operations are not charged for an
// indirect call the real caller would not make.
template <class Op>
double time_per_call(const Op &op, int reps = 5, double min_seconds = 0.2)
{
    double best = 1e100;
    std::size_t calls = 1;
    for (int r = 0; r < reps; r++) {
        for (;;) {
            const auto t0 = clock_type::now();
            for (std::size_t i = 0; i < calls; i++)
                op();
            const double t = std::chrono::duration<double>(clock_type::now() - t0).count();
            if (t >= min_seconds) {
                best = std::min(best, t / static_cast<double>(calls));
                break;
            }
            calls = t > 0 ? static_cast<std::size_t>(static_cast<double>(calls) * 1.5 * min_seconds / t) + 1
                          : calls * 10;
        }
    }
    return best;
}

// One generator's figures. `group` sorts the rows for the charts: "engine"
// (a shakerand engine on one kernel), "system" (the system generator),
// "peer" (another secure generator), "floor" (std::mt19937_64).
struct row {
    std::string name, group;
    double mbs_1m, mbs_64, mbs_16, ns_u64;
    double ns_u32 = 0; // measured for the system generator and Rust's peer only
};

volatile std::uint64_t sink;

// A generator under test: fill(buf, n) and next_u64().
template <class Fill, class Next>
row measure(const std::string &name, const std::string &group, const Fill &fill, const Next &next_u64)
{
    static std::vector<std::uint8_t> buf(1 << 20);
    row r{name, group, 0, 0, 0, 0};
    r.mbs_1m = (1 << 20) / time_per_call([&] { fill(buf.data(), 1 << 20); }) / 1e6;
    r.mbs_64 = 64 / time_per_call([&] { fill(buf.data(), 64); }) / 1e6;
    r.mbs_16 = 16 / time_per_call([&] { fill(buf.data(), 16); }) / 1e6;
    r.ns_u64 = 1e9 * time_per_call([&] { sink = next_u64(); });
    std::fprintf(stderr, "  %-44s %9.0f %9.0f %9.0f %9.2f\n", name.c_str(), r.mbs_1m, r.mbs_64,
                 r.mbs_16, r.ns_u64);
    return r;
}

// The system generator of this process (whichever engine it runs): fills,
// words, and aggregate 1 MiB fills from 1 and 2 threads, each running 1 s.
struct system_figures {
    std::string kind;
    double mbs_1m = 0, mbs_64 = 0, mbs_16 = 0, ns_u64 = 0, ns_u32 = 0, one_thread = 0, two_threads = 0;
    double ns_u64_inline = 0, ns_u32_inline = 0; // SHAKERAND_INLINE_SYSTEM
};

double aggregate_mbs(int threads)
{
    std::vector<std::thread> pool;
    std::vector<double> bytes(static_cast<std::size_t>(threads));
    const auto until = clock_type::now() + std::chrono::seconds(1);
    for (int i = 0; i < threads; i++)
        pool.emplace_back([&bytes, i, until] {
            std::vector<std::uint8_t> buf(1 << 20);
            double done = 0;
            while (clock_type::now() < until) {
                shakerand_system_fill(buf.data(), buf.size());
                done += static_cast<double>(buf.size());
            }
            bytes[static_cast<std::size_t>(i)] = done;
        });
    for (auto &t : pool)
        t.join();
    double total = 0;
    for (double b : bytes)
        total += b;
    return total / 1e6;
}

system_figures measure_system()
{
    system_figures s;
    s.kind = shakerand_kind_name(shakerand_system_kind());
    const row r = measure("shakerand system generator (" + s.kind + ")", "system",
                          [](std::uint8_t *b, std::size_t n) { shakerand_system_fill(b, n); },
                          [] { return shakerand_system_u64(); });
    s.mbs_1m = r.mbs_1m;
    s.mbs_64 = r.mbs_64;
    s.mbs_16 = r.mbs_16;
    s.ns_u64 = r.ns_u64;
    s.ns_u32 = 1e9 * time_per_call([] { sink = shakerand_system_u32(); });
    s.ns_u64_inline = 1e9 * time_per_call([] { sink = shakerand_system_u64_inline(); });
    s.ns_u32_inline = 1e9 * time_per_call([] { sink = shakerand_system_u32_inline(); });
    // Best of 2 one-second runs each, alternating, so a stall of the
    // machine hits neither side alone.
    for (int i = 0; i < 2; i++) {
        s.one_thread = std::max(s.one_thread, aggregate_mbs(1));
        s.two_threads = std::max(s.two_threads, aggregate_mbs(2));
    }
    return s;
}

// The same figures from this program run again with
// SHAKERAND_SYSTEM_ENGINE=engine (the variable is read once per process).
system_figures system_in_child(const char *engine)
{
    system_figures s;
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return s;
    self[n] = '\0';
    const std::string command = std::string("SHAKERAND_SYSTEM_ENGINE=") + engine + " '" + self + "' --system-rows";
    FILE *p = popen(command.c_str(), "r");
    if (p == nullptr)
        return s;
    char kind[64] = "";
    if (std::fscanf(p, "kind=%63s fill_1m_mbs=%lf fill_64_mbs=%lf fill_16_mbs=%lf u64_ns=%lf u32_ns=%lf "
                       "threads1_mbs=%lf threads2_mbs=%lf u64_inline_ns=%lf u32_inline_ns=%lf",
                    kind, &s.mbs_1m, &s.mbs_64, &s.mbs_16, &s.ns_u64, &s.ns_u32, &s.one_thread,
                    &s.two_threads, &s.ns_u64_inline, &s.ns_u32_inline) == 10)
        s.kind = kind;
    else
        s = system_figures{};
    pclose(p);
    return s;
}

// Rust's rand::rng(), built by `make bench` (bench/rust-peer): it times
// itself the same way and prints one line of figures.
row rust_peer()
{
    row r{"Rust rand::rng() (ChaCha12)", "peer", 0, 0, 0, 0};
    const std::string peer = std::string(SHAKERAND_SOURCE_DIR) + "/bench/rust-peer/target/release/rust-peer";
    if (access(peer.c_str(), X_OK) != 0)
        return r;
    if (FILE *p = popen(("'" + peer + "'").c_str(), "r")) {
        if (std::fscanf(p, "fill_1m_mbs=%lf fill_64_mbs=%lf fill_16_mbs=%lf u64_ns=%lf u32_ns=%lf", &r.mbs_1m,
                        &r.mbs_64, &r.mbs_16, &r.ns_u64, &r.ns_u32) != 5)
            r.mbs_1m = r.mbs_64 = r.mbs_16 = r.ns_u64 = r.ns_u32 = 0;
        pclose(p);
    }
    std::fprintf(stderr, "  %-44s %9.0f %9.0f %9.0f %9.2f\n", r.name.c_str(), r.mbs_1m, r.mbs_64, r.mbs_16,
                 r.ns_u64);
    return r;
}

// Wall seconds of one run of argv with standard output on /dev/null and
// `assignment` ("NAME=value", or null) added to the environment; -1 if it
// could not run or failed.
double wall_seconds(const std::vector<std::string> &argv, const char *assignment)
{
    std::vector<char *> args;
    for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char *> env;
    const std::size_t name_len = assignment != nullptr ? std::strchr(assignment, '=') - assignment + 1 : 0;
    for (char **e = environ; *e != nullptr; e++)
        if (assignment == nullptr || std::strncmp(*e, assignment, name_len) != 0)
            env.push_back(*e);
    if (assignment != nullptr)
        env.push_back(const_cast<char *>(assignment));
    env.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    const auto t0 = clock_type::now();
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        return -1;
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Instructions executed by op(), counted by single-stepping a forked child
// under ptrace between two raise(SIGSTOP)s (this virtual machine gives perf
// no hardware counters), less the same count around empty(), which differs
// from op() only in calling a function that returns at once. So the result
// is the callee's instructions, its call and return included, to within
// one or two. -1 if the child could not be traced.
template <class Op>
long steps_between_stops(const Op &op)
{
    const pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0)
            _exit(1);
        raise(SIGSTOP);
        op();
        raise(SIGSTOP);
        _exit(0);
    }
    int status = 0;
    long steps = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
        waitpid(pid, &status, 0);
        return -1;
    }
    for (;;) {
        if (ptrace(PTRACE_SINGLESTEP, pid, nullptr, nullptr) != 0 || waitpid(pid, &status, 0) != pid ||
            !WIFSTOPPED(status)) {
            steps = -1;
            break;
        }
        if (WSTOPSIG(status) == SIGSTOP)
            break;
        steps++;
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return steps;
}

template <class Op, class Empty>
long count_instructions(const Op &op, const Empty &empty)
{
    const long with = steps_between_stops(op), without = steps_between_stops(empty);
    return with < 0 || without < 0 ? -1 : with - without;
}

__attribute__((noinline)) void empty_chacha8rand(const std::uint64_t *, void *, std::uint64_t *) { __asm__ volatile(""); }
__attribute__((noinline)) void empty_p1600(std::uint64_t *, unsigned) { __asm__ volatile(""); }

// The 1-, 5- and 15-minute load averages: how busy this shared machine was.
std::string load_average()
{
    std::ifstream in("/proc/loadavg");
    double a = 0, b = 0, c = 0;
    if (!(in >> a >> b >> c))
        return "unknown";
    char text[64];
    std::snprintf(text, sizeof text, "%.2f %.2f %.2f", a, b, c);
    return text;
}

std::string cpu_model()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0)
            return line.substr(line.find(':') + 2);
    return "unknown";
}

double tsc_ghz()
{
#if defined(__x86_64__)
    const auto t0 = clock_type::now();
    const auto c0 = __rdtsc();
    while (clock_type::now() - t0 < std::chrono::milliseconds(200)) {
    }
    const double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
    return static_cast<double>(__rdtsc() - c0) / secs / 1e9;
#else
    return 0;
#endif
}

std::string fmt(const char *format, double v)
{
    char text[64];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

// A target's verdict from this run's figures: `ratio` against `limit`, met
// when at least (at most) the limit.
std::string verdict(double ratio, double limit, bool at_least, const char *unit = "x")
{
    if (!(ratio > 0))
        return "not measured";
    const bool met = at_least ? ratio >= limit : ratio <= limit;
    const int digits = ratio >= 10 ? 1 : 2;
    char text[96];
    std::snprintf(text, sizeof text, "%s: %.*f%s", met ? "**met**" : "**missed**", digits, ratio, unit);
    return text;
}

std::string json_string(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

}  // namespace

int main(int argc, char **argv)
{
    const char *markdown = nullptr, *json = nullptr, *cli = nullptr;
    bool system_rows = false;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--markdown") == 0 && i + 1 < argc)
            markdown = argv[++i];
        else if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc)
            json = argv[++i];
        else if (std::strcmp(argv[i], "--cli") == 0 && i + 1 < argc)
            cli = argv[++i];
        else if (std::strcmp(argv[i], "--system-rows") == 0)
            system_rows = true;
        else {
            std::fprintf(stderr, "usage: %s [--markdown FILE] [--json FILE] [--cli SHAKERAND]\n", argv[0]);
            return 2;
        }
    }
    if (system_rows) {
        const system_figures s = measure_system();
        std::printf("kind=%s fill_1m_mbs=%.1f fill_64_mbs=%.1f fill_16_mbs=%.1f u64_ns=%.3f u32_ns=%.3f "
                    "threads1_mbs=%.1f threads2_mbs=%.1f u64_inline_ns=%.3f u32_inline_ns=%.3f\n",
                    s.kind.c_str(), s.mbs_1m, s.mbs_64, s.mbs_16, s.ns_u64, s.ns_u32, s.one_thread, s.two_threads,
                    s.ns_u64_inline, s.ns_u32_inline);
        return 0;
    }
    if (sodium_init() < 0)
        return 1;
    const std::string load_at_start = load_average();

    std::vector<row> rows;
    std::fprintf(stderr, "  %-44s %9s %9s %9s %9s\n", "generator", "1MiB MB/s", "64B MB/s",
                 "16B MB/s", "ns/u64");
    std::vector<const shakerand_kernel *> kernels;
    for (std::size_t i = 0; shakerand_kernel_list[i] != nullptr; i++)
        if (shakerand_kernel_find(shakerand_kernel_list[i]->name) != nullptr)
            kernels.push_back(shakerand_kernel_list[i]);

    static shakerand_engine engine;
    static const std::uint8_t seed32[32] = {'b', 'e', 'n', 'c', 'h'};
    for (const auto *k : kernels) {
        shakerand_kernel_set_for_testing(k);
        for (shakerand_kind kind : {SHAKERAND_TURBOSHAKE256, SHAKERAND_SHAKE256, SHAKERAND_TURBOSHAKE256X8,
                                    SHAKERAND_CHACHA8RAND}) {
            if (shakerand_engine_init(&engine, kind, seed32, kind == SHAKERAND_CHACHA8RAND ? 32 : 5) != SHAKERAND_OK)
                return 1;
            rows.push_back(measure(std::string("shakerand ") + shakerand_kind_name(kind) + " (" + k->name + ")",
                                   "engine",
                                   [](std::uint8_t *b, std::size_t n) { shakerand_engine_fill(&engine, b, n); },
                                   [] { return shakerand_engine_u64(&engine); }));
        }
    }
    shakerand_kernel_set_for_testing(nullptr);

    // The system generator on each engine and Rust's rand::rng(), each in
    // processes of their own: the best of 3 processes per figure, the three
    // alternating. On this virtual machine a process's figures move by up
    // to 40 % from one process to the next even when the machine is quiet
    // (the best of 5 within one process does not see that), so the
    // processes whose figures the targets compare are run in turns.
    const char *const system_engines[] = {"chacha8rand", "turboshake256x8"};
    system_figures best_system[2];
    row rust{"Rust rand::rng() (ChaCha12)", "peer", 0, 0, 0, 0};
    auto keep_max = [](double &best, double v) { best = std::max(best, v); };
    auto keep_min = [](double &best, double v) {
        if (v > 0) best = best > 0 ? std::min(best, v) : v;
    };
    for (int round = 0; round < 3; round++) {
        for (int e = 0; e < 2; e++) {
            const system_figures s = system_in_child(system_engines[e]);
            if (s.kind.empty())
                continue;
            system_figures &b = best_system[e];
            b.kind = s.kind;
            keep_max(b.mbs_1m, s.mbs_1m);
            keep_max(b.mbs_64, s.mbs_64);
            keep_max(b.mbs_16, s.mbs_16);
            keep_min(b.ns_u64, s.ns_u64);
            keep_min(b.ns_u32, s.ns_u32);
            keep_min(b.ns_u64_inline, s.ns_u64_inline);
            keep_min(b.ns_u32_inline, s.ns_u32_inline);
            keep_max(b.one_thread, s.one_thread);
            keep_max(b.two_threads, s.two_threads);
        }
        const row r = rust_peer();
        keep_max(rust.mbs_1m, r.mbs_1m);
        keep_max(rust.mbs_64, r.mbs_64);
        keep_max(rust.mbs_16, r.mbs_16);
        keep_min(rust.ns_u64, r.ns_u64);
        keep_min(rust.ns_u32, r.ns_u32);
    }
    std::vector<system_figures> systems;
    for (int e = 0; e < 2; e++) {
        const system_figures &s = best_system[e];
        if (s.kind.empty()) {
            std::fprintf(stderr, "  system generator with SHAKERAND_SYSTEM_ENGINE=%s: no figures\n", system_engines[e]);
            continue;
        }
        std::fprintf(stderr, "  best of 3: %-33s %9.0f %9.0f %9.0f %9.2f  (u32 %.2f ns; 1 MiB fills, 1 thread %.0f MB/s, "
                     "2 threads %.0f MB/s)\n",
                     ("system generator (" + s.kind + ")").c_str(), s.mbs_1m, s.mbs_64, s.mbs_16, s.ns_u64, s.ns_u32,
                     s.one_thread, s.two_threads);
        rows.push_back(row{"shakerand system generator (" + s.kind + ")", "system", s.mbs_1m, s.mbs_64, s.mbs_16,
                           s.ns_u64});
        systems.push_back(s);
    }
    if (rust.mbs_1m > 0)
        std::fprintf(stderr, "  best of 3: %-33s %9.0f %9.0f %9.0f %9.2f\n", rust.name.c_str(), rust.mbs_1m,
                     rust.mbs_64, rust.mbs_16, rust.ns_u64);

    rows.push_back(measure("OpenSSL RAND_bytes", "peer",
                           [](std::uint8_t *b, std::size_t n) { RAND_bytes(b, static_cast<int>(n)); },
                           [] { std::uint64_t v; RAND_bytes(reinterpret_cast<unsigned char *>(&v), 8); return v; }));
    rows.push_back(measure("OpenSSL RAND_priv_bytes", "peer",
                           [](std::uint8_t *b, std::size_t n) { RAND_priv_bytes(b, static_cast<int>(n)); },
                           [] { std::uint64_t v; RAND_priv_bytes(reinterpret_cast<unsigned char *>(&v), 8); return v; }));
    rows.push_back(measure("getrandom(2)", "peer",
                           [](std::uint8_t *b, std::size_t n) {
                               for (std::size_t got = 0; got < n;) {
                                   const ssize_t r = getrandom(b + got, n - got, 0);
                                   if (r > 0) got += static_cast<std::size_t>(r);
                               }
                           },
                           [] { std::uint64_t v; if (getrandom(&v, 8, 0) != 8) std::abort(); return v; }));
    rows.push_back(measure("glibc arc4random_buf", "peer",
                           [](std::uint8_t *b, std::size_t n) { arc4random_buf(b, n); },
                           [] { std::uint64_t v; arc4random_buf(&v, 8); return v; }));
    rows.push_back(measure("libsodium randombytes_buf", "peer",
                           [](std::uint8_t *b, std::size_t n) { randombytes_buf(b, n); },
                           [] { std::uint64_t v; randombytes_buf(&v, 8); return v; }));
    if (rust.mbs_1m > 0)
        rows.push_back(rust);
    static std::mt19937_64 mt(42);
    rows.push_back(measure("std::mt19937_64 (not secure)", "floor",
                           [](std::uint8_t *b, std::size_t n) {
                               for (std::size_t i = 0; i + 8 <= n; i += 8) {
                                   const std::uint64_t v = mt();
                                   std::memcpy(b + i, &v, 8);
                               }
                           },
                           [] { return mt(); }));

    // The CLI against openssl rand, 2 GiB - 1 to /dev/null (openssl rand
    // takes an int), best of 3 wall times each, alternating.
    struct cli_run {
        std::string what;
        std::vector<std::string> argv;
        const char *env;
        double best;
    };
    std::vector<cli_run> cli_runs;
    if (cli != nullptr) {
        cli_runs = {
            {"`shakerand bytes -n 2147483647 > /dev/null` (chacha8rand)", {cli, "bytes", "-n", "2147483647"},
             "SHAKERAND_SYSTEM_ENGINE=chacha8rand", 1e100},
            {"the same with SHAKERAND_SYSTEM_ENGINE=turboshake256x8", {cli, "bytes", "-n", "2147483647"},
             "SHAKERAND_SYSTEM_ENGINE=turboshake256x8", 1e100},
            {"`openssl rand -out /dev/null 2147483647`", {"openssl", "rand", "-out", "/dev/null", "2147483647"},
             nullptr, 1e100},
        };
        for (int i = 0; i < 3; i++)
            for (auto &c : cli_runs) {
                const double t = wall_seconds(c.argv, c.env);
                c.best = t < 0 ? -1 : std::min(c.best, t);
            }
        for (const auto &c : cli_runs)
            std::fprintf(stderr, "  CLI %-70s %.3f s\n", c.what.c_str(), c.best);
    }

    // Samplers, from this process's system generator.
    const std::string sampler_kind = shakerand_kind_name(shakerand_system_kind());
    const double plain_u64_ns = 1e9 * time_per_call([] { sink = shakerand_system_u64(); });
    const double bounded_u64_ns = 1e9 * time_per_call([] {
        std::uint64_t v;
        shakerand_uniform_u64(nullptr, 1000000007ull, &v);
        sink = v;
    });
    const double bounded_worst_ns = 1e9 * time_per_call([] {
        std::uint64_t v; // 2^63 + 1: almost half of all draws are rejected
        shakerand_uniform_u64(nullptr, (1ull << 63) + 1, &v);
        sink = v;
    });
    const double uuid4_ns = 1e9 * time_per_call([] {
        std::uint8_t u[16];
        shakerand_uuid4(nullptr, u);
        sink = u[0];
    });
    const double uuid7_ns = 1e9 * time_per_call([] {
        std::uint8_t u[16];
        shakerand_uuid7(nullptr, u);
        sink = u[15];
    });
    std::fprintf(stderr, "  u64 %.2f ns, bounded u64 %.2f ns (worst case %.2f), uuid4 %.2f ns, uuid7 %.2f ns\n",
                 plain_u64_ns, bounded_u64_ns, bounded_worst_ns, uuid4_ns, uuid7_ns);

    // The word path's snapshot check (docs/system.md, "Snapshots and
    // clones"): no vmclock device (this machine has none) against a file
    // laid out as the device's page, watched through the testing hook; the
    // two alternate, best of each.
    double u64_no_device_ns = 1e100, u64_device_ns = 1e100;
    {
        char name[] = "/tmp/shakerand-bench-vmclock-XXXXXX";
        const int fd = mkstemp(name);
        unsigned char page[4096] = {0};
        const std::uint32_t magic = 0x4b4c4356, size = sizeof page;
        const std::uint64_t flags = 1u << 8, generation = 1;
        std::memcpy(page, &magic, 4);
        std::memcpy(page + 4, &size, 4);
        page[8] = 1; // version
        std::memcpy(page + 24, &flags, 8);
        std::memcpy(page + 104, &generation, 8);
        if (fd >= 0 && write(fd, page, sizeof page) == static_cast<ssize_t>(sizeof page)) {
            for (int r = 0; r < 3; r++) {
                shakerand_system_vmclock_path_for_testing("/nonexistent/vmclock");
                u64_no_device_ns =
                    std::min(u64_no_device_ns, 1e9 * time_per_call([] { sink = shakerand_system_u64(); }, 3));
                shakerand_system_vmclock_path_for_testing(name);
                if (shakerand_system_watches_vm_generation() != 1)
                    break;
                u64_device_ns =
                    std::min(u64_device_ns, 1e9 * time_per_call([] { sink = shakerand_system_u64(); }, 3));
            }
            shakerand_system_vmclock_path_for_testing(nullptr);
        }
        if (fd >= 0) {
            close(fd);
            unlink(name);
        }
    }
    std::fprintf(stderr, "  u64 with no vmclock device %.2f ns, with one watched %.2f ns\n", u64_no_device_ns,
                 u64_device_ns);

    struct paper_range {
        const char *name, *hex;
        double paper_bits[4], paper_us[4]; // rng-bc-1, rng-bc-8, simple discard (byte array), simple modular
    };
    static const paper_range ranges[] = {
        {"Minimum 256 bit", "8000000000000000000000000000000000000000000000000000000000000000",
         {258.999684, 264.065944, 511.960064, 384}, {0.569, 0.922, 0.910, 0.836}},
        {"Minimum 256 bit + 1", "8000000000000000000000000000000000000000000000000000000000000001",
         {258.995740, 264.043960, 512.193792, 384}, {0.561, 0.942, 0.904, 0.859}},
        {"Mid 256 bit - 1", "BFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
         {256.662856, 258.667016, 341.273088, 384}, {0.498, 0.648, 0.624, 0.900}},
        {"Mid 256", "C000000000000000000000000000000000000000000000000000000000000000",
         {257.330163, 258.712184, 341.479424, 384}, {0.518, 0.651, 0.630, 0.854}},
        {"Mid 256 + 1", "C000000000000000000000000000000000000000000000000000000000000001",
         {257.335282, 258.712392, 341.316096, 384}, {0.517, 0.651, 0.627, 0.864}},
        {"Max 256 - 1", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
         {256, 256, 256, 384}, {0.479, 0.490, 0.485, 0.872}},
        {"Brainpool P512r1 Q",
         "AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA70330870553E5C414CA92619418661197FAC10471DB1D3"
         "81085DDADDB58796829CA90069",
         {513.315474, 515.997576, 767.051264, 640}, {0.649, 0.859, 0.893, 1.368}},
        {"Random modulus 4096",
         "99A9312FD775C94D804827B6011C9FCC8180AD142ADEC24C772C24709DB89EB6FF4A7C8C876837920F8C49CF23FF8C9DA0D8E7"
         "FBB722E0D3E6671D39DEBD95079D56C57C0D9DB9D2CAD074BC57E22F8811BA163ECB3342F24CE97DF551BD3D9353796EFA7F5F"
         "9C9ED5EF98A7A0FF30D1E805FAA8EA8747A6AE3734CFD8046E56278D36AD2666C612270298FA87356DEDFFF13EAC082AB7D406"
         "510D367C6CA034DDB92C297B65A233B74BAAE3CA2165E3FE699DBCBE82B48831C52222F10FDBD29ACA5608616F09AD6FDD2BFE"
         "90ECB135F4976E93660714B2FCC0CD0A713723FF835229628480444E0DC75D3FD44AEE9465AC719C0A605E4F5917A91E09C0EB"
         "E23B08E467766D6329BB83443A17EAB39A310AAB8B59628F90F4B40B50F2AF6FF49C3307441FEAB0F0978177798123207B21AE"
         "8FD7A6CC5D307155843161EE4C54E3685BA402F5A2F155A52C4521B76ECA6E2B9D5362341E37B8CB4DCBF7BC9CAAFFBD31A62C"
         "E3240F5161F43598D0F8AE5FE418F4784F8DDD444BD314E73F8C870895BDE24388BB905E42AE80DE34885C6D64EDBAB2E85205"
         "3B737BF85471D5DFED98BA878E806DE82AA762791DACEF47895D66378B6F94256A0D3E7E77026AAB58540246EB9952C8C54777"
         "FAA879026498C169835DF5866FE867734D21E9E921D6A6FCF64260D8B98F195D0585D445D611607008F7D15407FCC32C1A55F1"
         "F9A5",
         {4097.730171, 4101.351224, 6824.448000, 4224}, {2.436, 2.774, 3.583, 5.918}},
    };
    const shakerand_method methods[] = {SHAKERAND_RNG_BC_1, SHAKERAND_RNG_BC_8, SHAKERAND_SIMPLE_DISCARD,
                                        SHAKERAND_SIMPLE_MODULAR};
    std::ostringstream paper_md;
    paper_md << "| range | method | avg bits | paper avg bits | us per integer | paper us |\n"
             << "|---|---|---:|---:|---:|---:|\n";
    for (const auto &pr : ranges) {
        std::vector<std::uint8_t> r(std::strlen(pr.hex) / 2), out(std::strlen(pr.hex) / 2);
        for (std::size_t i = 0; i < r.size(); i++)
            r[i] = static_cast<std::uint8_t>(std::stoul(std::string(pr.hex + 2 * i, 2), nullptr, 16));
        for (int m = 0; m < 4; m++) {
            std::uint64_t bits = 0, calls = 0;
            const double us = 1e6 * time_per_call(
                                        [&] {
                                            shakerand_below(nullptr, methods[m], r.data(), r.size(), out.data(), &bits);
                                            calls++;
                                        },
                                        3, 0.1);
            char line[256];
            std::snprintf(line, sizeof line, "| %s | %s | %.3f | %.3f | %.3f | %.3f |\n", pr.name,
                          shakerand_method_name(methods[m]), double(bits) / double(calls), pr.paper_bits[m], us,
                          pr.paper_us[m]);
            paper_md << line;
            std::fprintf(stderr, "  %-20s %-15s avg bits %9.3f  %8.3f us\n", pr.name, shakerand_method_name(methods[m]),
                         double(bits) / double(calls), us);
        }
    }

    // Seed material: the OS read through the vDSO against the system call,
    // with and without the hardware sources.
    auto entropy_us = [] {
        return 1e6 * time_per_call([] {
            std::uint8_t b[64];
            shakerand_entropy(b, sizeof b);
            sink = b[0];
        }, 3, 0.1);
    };
    std::string os_method;
    {
        shakerand_source_info info[8];
        shakerand_sources(info, 8);
        os_method = info[0].method;
    }
    const double seed_all_us = entropy_us();
    shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NO_VDSO);
    const double seed_all_syscall_us = entropy_us();
    shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NONE);
    std::vector<std::string> hardware;
    {
        shakerand_source_info info[8];
        const std::size_t n = std::min<std::size_t>(shakerand_sources(info, 8), 8);
        for (std::size_t i = 1; i < n; i++)
            if (info[i].used)
                hardware.push_back(info[i].name);
    }
    for (const auto &h : hardware)
        shakerand_entropy_fault_for_testing(h.c_str(), SHAKERAND_FAULT_FAIL);
    const double seed_os_us = entropy_us();
    shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NO_VDSO);
    const double seed_os_syscall_us = entropy_us();
    shakerand_entropy_fault_for_testing("os", SHAKERAND_FAULT_NONE);
    for (const auto &h : hardware)
        shakerand_entropy_fault_for_testing(h.c_str(), SHAKERAND_FAULT_NONE);
    std::fprintf(stderr, "  seed material: %.2f us (%s + hardware), %.2f us (syscall + hardware), %.2f us (%s only), %.2f us (syscall only)\n",
                 seed_all_us, os_method.c_str(), seed_all_syscall_us, seed_os_us, os_method.c_str(), seed_os_syscall_us);

    // First use on a new thread (allocation and seeding included): median
    // over many threads, timed inside each thread.
    std::vector<double> first_use;
    for (int i = 0; i < 200; i++) {
        double ns = 0;
        std::thread t([&ns] {
            const auto t0 = clock_type::now();
            sink = shakerand_system_u64();
            ns = std::chrono::duration<double, std::nano>(clock_type::now() - t0).count();
        });
        t.join();
        first_use.push_back(ns);
    }
    std::sort(first_use.begin(), first_use.end());
    const double first_use_us = first_use[first_use.size() / 2] / 1e3;
    std::fprintf(stderr, "  system generator, first use on a new thread: %.1f us (median)\n", first_use_us);

    // One chacha8rand iteration (1024 bytes: 992 of output and the next
    // key) and one permutation per kernel: time (best of 10 short runs, to
    // catch a quiet moment of this shared machine), TSC cycles, and the
    // instructions one call executes.
    const double ghz = tsc_ghz();
    std::ostringstream chacha;
    for (const auto *k : kernels) {
        static std::uint64_t key[4] = {1, 2, 3, 4};
        alignas(64) static std::uint8_t out[992];
        static std::uint64_t next_key[4];
        const shakerand_chacha8_fn fn = k->chacha8rand;
        const double ns = 1e9 * time_per_call([&] { fn(key, out, next_key); }, 10, 0.05);
        sink = out[0];
        const long insns = count_instructions([&] { volatile shakerand_chacha8_fn f = fn; f(key, out, next_key); },
                                              [&] { volatile shakerand_chacha8_fn f = empty_chacha8rand; f(key, out, next_key); });
        const double cycles = ns * ghz;
        chacha << "| " << k->name << " | " << fmt("%.1f", ns) << " | " << fmt("%.0f", cycles) << " | "
               << fmt("%.3f", cycles / 992) << " | " << fmt("%.0f", 992e3 / ns) << " | "
               << (insns > 0 ? std::to_string(insns) : "-") << " | "
               << (insns > 0 ? fmt("%.2f", static_cast<double>(insns) / 1024) : "-") << " | "
               << (insns > 0 ? fmt("%.2f", static_cast<double>(insns) / cycles) : "-") << " |\n";
        std::fprintf(stderr, "  chacha8rand %-9s %6.1f ns, %5.0f cycles, %.3f c/B, %ld instructions\n", k->name, ns,
                     cycles, cycles / 992, insns);
    }
    std::ostringstream perm;
    for (const auto *k : kernels) {
        for (unsigned ways : {1u, 4u, 8u}) {
            for (unsigned rounds : {12u, 24u}) {
                if (ways > 1 && rounds == 24)
                    continue; /* the parallel kernels serve TurboSHAKE only */
                static std::uint64_t s[25 * 8] = {1};
                const shakerand_p1600_fn fn = ways == 1 ? k->p1600 : ways == 4 ? k->p1600x4 : k->p1600x8;
                const double ns = 1e9 * time_per_call([&] { fn(s, rounds); }, 10, 0.05);
                sink = s[0];
                const long insns = count_instructions([&] { volatile shakerand_p1600_fn f = fn; f(s, rounds); },
                                                      [&] { volatile shakerand_p1600_fn f = empty_p1600; f(s, rounds); });
                const double cycles = ns * ghz;
                char line[256];
                std::snprintf(line, sizeof line, "| %s | x%u | %u | %.1f | %.0f | %.1f | %.2f | %s | %s |\n", k->name,
                              ways, rounds, ns, cycles, cycles / rounds, cycles / (136.0 * ways),
                              insns > 0 ? std::to_string(insns).c_str() : "-",
                              insns > 0 ? fmt("%.2f", static_cast<double>(insns) / cycles).c_str() : "-");
                perm << line;
                std::fprintf(stderr, "  permutation %-9s x%u %2u rounds: %6.1f ns, %5.0f cycles, %.2f c/B, %ld instructions\n",
                             k->name, ways, rounds, ns, cycles, cycles / (136.0 * ways), insns);
            }
        }
    }

    const system_figures *sys = nullptr; // the default engine's, for the targets
    for (const auto &s : systems)
        if (s.kind == "chacha8rand")
            sys = &s;
    const row *priv = nullptr, *mt_row = nullptr, *chacha_engine = nullptr;
    const std::string chacha_name = std::string("shakerand chacha8rand (") + shakerand_kernel_name() + ")";
    for (const auto &r : rows) {
        if (r.name == "OpenSSL RAND_priv_bytes") priv = &r;
        if (r.name == "std::mt19937_64 (not secure)") mt_row = &r;
        if (r.name == chacha_name) chacha_engine = &r;
    }

    struct utsname u;
    uname(&u);
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));

    if (json != nullptr) {
        std::ofstream js(json);
        js << std::setprecision(6) << "{\n  \"date\": " << json_string(date) << ",\n  \"cpu\": "
           << json_string(cpu_model()) << ",\n  \"kernel\": " << json_string(shakerand_kernel_name())
           << ",\n  \"rows\": [\n";
        for (std::size_t i = 0; i < rows.size(); i++) {
            const auto &r = rows[i];
            js << "    {\"name\": " << json_string(r.name) << ", \"group\": " << json_string(r.group)
               << ", \"mbs_1m\": " << r.mbs_1m << ", \"mbs_64\": " << r.mbs_64 << ", \"mbs_16\": " << r.mbs_16
               << ", \"ns_u64\": " << r.ns_u64 << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
        }
        js << "  ],\n  \"system\": [\n";
        for (std::size_t i = 0; i < systems.size(); i++) {
            const auto &s = systems[i];
            js << "    {\"kind\": " << json_string(s.kind) << ", \"ns_u32\": " << s.ns_u32
               << ", \"ns_u64_inline\": " << s.ns_u64_inline << ", \"ns_u32_inline\": " << s.ns_u32_inline
               << ", \"threads1_mbs\": " << s.one_thread << ", \"threads2_mbs\": " << s.two_threads << "}"
               << (i + 1 < systems.size() ? "," : "") << "\n";
        }
        js << "  ],\n  \"cli\": [\n";
        for (std::size_t i = 0; i < cli_runs.size(); i++)
            js << "    {\"command\": " << json_string(cli_runs[i].what) << ", \"seconds\": " << cli_runs[i].best << "}"
               << (i + 1 < cli_runs.size() ? "," : "") << "\n";
        js << "  ]\n}\n";
    }

    if (markdown == nullptr)
        return 0;
    std::ofstream md(markdown);
    md << "# Benchmarks\n\n"
       << "Written by `make bench` (bench/shakerand_bench.cpp, bench/cpp_bench.cpp, tools/bench_*.py);\n"
       << "do not edit by hand: the notes at the end come from bench/NOTES.md. Every row of every\n"
       << "table, and every verdict, comes from this one run on this one machine, peers included; each\n"
       << "figure is the best of 5 timed runs of at least 0.2 s (kernel tables: of 10 runs of 0.05 s;\n"
       << "the C++ table: the fastest of 3 repetitions).\n"
       << "Figures measured elsewhere are quoted as such and never judged against.\n\n"
       << "- Date: " << date << "\n"
       << "- CPU: " << cpu_model() << ", " << sysconf(_SC_NPROCESSORS_ONLN) << " cores online, TSC "
       << std::fixed << std::setprecision(2) << ghz << " GHz\n"
       << "- OS: " << u.sysname << " " << u.release << " " << u.machine << "\n"
       << "- Compiler: " << __VERSION__ << "; " << OPENSSL_VERSION_TEXT << "; libsodium "
       << sodium_version_string() << "\n"
       << "- Load average (1, 5, 15 min) at the start: " << load_at_start << "; at the end: " << load_average()
       << " (other work shares this machine; a second busy core shows in the 2-thread rows)\n"
       << "- Kernel picked by dispatch: " << shakerand_kernel_name()
       << " (engine rows are given for every kernel this CPU runs, forced one at a time)\n"
       << "- System generator: chacha8rand by default; `SHAKERAND_SYSTEM_ENGINE=turboshake256x8` selects\n"
       << "  the Keccak engine. The variable is read once per process, so each engine's rows come from\n"
       << "  this program run again under that setting.\n\n"
       << "## Throughput, one thread\n\n"
       << "| generator | 1 MiB requests, MB/s | 64 B requests, MB/s | 16 B requests, MB/s | ns per u64 |\n"
       << "|---|---:|---:|---:|---:|\n";
    auto cell = [](double v, int digits) {
        if (v <= 0)
            return std::string("-"); /* not measured */
        char text[32];
        std::snprintf(text, sizeof text, "%.*f", digits, v);
        return std::string(text);
    };
    for (const auto &r : rows)
        md << "| " << r.name << " | " << cell(r.mbs_1m, 0) << " | " << cell(r.mbs_64, 0) << " | "
           << cell(r.mbs_16, 0) << " | " << cell(r.ns_u64, 2) << " |\n";
    md << "\nMB/s is 10^6 bytes per second. A word is `shakerand_engine_u64` or `shakerand_system_u64`,\n"
       << "an 8-byte request for the byte-only peers, `next_u64()` on one `rand::rng()` handle for Rust\n"
       << "(bench/rust-peer, timed the same way in its own process; best of 3 processes, like the\n"
       << "system generator's rows). std::mt19937_64 is the non-secure\n"
       << "floor: its fill writes one 64-bit word at a time.\n\n"
       << "## System generator\n\n"
       << "| measure |";
    for (const auto &s : systems)
        md << " " << s.kind << (s.kind == "chacha8rand" ? " (default)" : "") << " |";
    md << "\n|---|";
    for (std::size_t i = 0; i < systems.size(); i++)
        md << "---:|";
    md << "\n";
    auto system_line = [&](const char *what, auto value) {
        md << "| " << what << " |";
        for (const auto &s : systems)
            md << " " << value(s) << " |";
        md << "\n";
    };
    system_line("1 MiB fills, MB/s", [&](const system_figures &s) { return cell(s.mbs_1m, 0); });
    system_line("64-byte fill, ns", [&](const system_figures &s) { return cell(64e3 / s.mbs_64, 2); });
    system_line("16-byte fill, ns", [&](const system_figures &s) { return cell(16e3 / s.mbs_16, 2); });
    system_line("u64, ns", [&](const system_figures &s) { return cell(s.ns_u64, 2); });
    system_line("u32, ns", [&](const system_figures &s) { return cell(s.ns_u32, 2); });
    system_line("u64 inlined (`SHAKERAND_INLINE_SYSTEM`), ns",
                [&](const system_figures &s) { return cell(s.ns_u64_inline, 2); });
    system_line("u32 inlined, ns", [&](const system_figures &s) { return cell(s.ns_u32_inline, 2); });
    system_line("1 MiB fills, 1 thread, aggregate MB/s", [&](const system_figures &s) { return cell(s.one_thread, 0); });
    system_line("1 MiB fills, 2 threads, aggregate MB/s", [&](const system_figures &s) {
        return cell(s.two_threads, 0) + " (" + cell(s.two_threads / s.one_thread, 2) + "x)";
    });
    md << "\nEach engine's figures are the best of 3 processes (run in turns with each other and with\n"
       << "Rust's peer), each figure within a process the best of 5 runs as above; threads: 2 one-second\n"
       << "runs each per process, alternating.\n\n"
       << "| measure (" << sampler_kind << ") | value |\n|---|---:|\n"
       << "| first use on a new thread, seeding included (median of 200 threads) | "
       << std::setprecision(1) << first_use_us << " us |\n"
       << "| seed material (64 bytes): OS by " << os_method << " + hardware | " << seed_all_us << " us |\n"
       << "| seed material: OS by the getrandom system call + hardware | " << seed_all_syscall_us << " us |\n"
       << "| seed material: OS by " << os_method << " only | " << seed_os_us << " us |\n"
       << "| seed material: OS by the getrandom system call only | " << seed_os_syscall_us << " us |\n\n";
    if (!cli_runs.empty()) {
        md << "## Command line\n\n"
           << "2 GiB - 1 bytes (`openssl rand` takes an int) to /dev/null; wall time of the whole process,\n"
           << "best of 3, the commands alternating.\n\n"
           << "| command | seconds | GB/s |\n|---|---:|---:|\n";
        for (const auto &c : cli_runs)
            md << "| " << c.what << " | " << cell(c.best, 3) << " | " << cell(2147483647e-9 / c.best, 2) << " |\n";
        md << "\n";
    }
    md << "## Samplers (system generator, " << sampler_kind << ")\n\n"
       << "| measure | ns |\n|---|---:|\n" << std::setprecision(2)
       << "| plain u64 | " << plain_u64_ns << " |\n"
       << "| bounded u64, n = 10^9 + 7 | " << bounded_u64_ns << " |\n"
       << "| bounded u64, n = 2^63 + 1 (rejects almost half) | " << bounded_worst_ns << " |\n"
       << "| UUID v4 | " << uuid4_ns << " |\n"
       << "| UUID v7 | " << uuid7_ns << " |\n"
       << "| u64, no vmclock device (the snapshot check's other half) | " << u64_no_device_ns << " |\n"
       << "| u64, a vmclock device watched (a file in its layout) | " << u64_device_ns << " |\n\n"
       << "The Optimized Simple Discard paper's table re-made (its figures: Java, AMD Ryzen 7 3700X, \"DRBG\"\n"
       << "SecureRandom, 1,000,000 draws; ours: the system generator on this machine, averages over the timed\n"
       << "calls). Simple Discard is compared with the paper's \"byte array\" implementation.\n\n"
       << paper_md.str() << "\n"
       << "## chacha8rand iteration, per kernel\n\n"
       << "One call computes 16 ChaCha8 blocks (1024 bytes): 992 bytes of output and the next key.\n"
       << "Instructions are counted, not estimated: the benchmark single-steps one call in a child\n"
       << "process under ptrace (this virtual machine gives `perf stat` no hardware counters), call and\n"
       << "return included. Cycles are TSC cycles (time x TSC rate), so instructions per cycle is only\n"
       << "as exact as the core's clock is steady.\n\n"
       << "| kernel | ns | TSC cycles | cycles per output byte | MB/s (kernel alone) | instructions | "
          "instructions per byte | instructions per cycle |\n"
       << "|---|---:|---:|---:|---:|---:|---:|---:|\n"
       << chacha.str() << "\n"
       << "## Keccak-p[1600] permutation, per kernel\n\n"
       << "Instructions counted the same way.\n\n"
       << "| kernel set | states | rounds | ns | TSC cycles | cycles per round | cycles per rate byte | "
          "instructions | instructions per cycle |\n"
       << "|---|---|---:|---:|---:|---:|---:|---:|---:|\n"
       << perm.str() << "\n";

    // The targets, each against figures of this run only.
    md << "## Targets\n\n"
       << "Issues 15's, 29's and 40's targets, each judged only against figures measured above in this run; the\n"
       << "verdict gives the measured ratio (or time).\n\n"
       << "| target | this run | verdict |\n|---|---|---|\n";
    auto target = [&md](const std::string &what, const std::string &figures, const std::string &v) {
        md << "| " << what << " | " << figures << " | " << v << " |\n";
    };
    if (sys != nullptr && priv != nullptr)
        target("system generator, 1 MiB fills >= 1.5x OpenSSL `RAND_priv_bytes`",
               cell(sys->mbs_1m, 0) + " vs " + cell(priv->mbs_1m, 0) + " MB/s",
               verdict(sys->mbs_1m / priv->mbs_1m, 1.5, true));
    if (sys != nullptr)
        target("system generator, 16-byte fill <= 8 ns", cell(16e3 / sys->mbs_16, 2) + " ns",
               verdict(16e3 / sys->mbs_16, 8, false, " ns"));
    if (sys != nullptr && rust.ns_u64 > 0)
        target("system generator, u64 <= 1.5x Rust `rand::rng().next_u64()`",
               cell(sys->ns_u64, 2) + " vs " + cell(rust.ns_u64, 2) + " ns",
               verdict(sys->ns_u64 / rust.ns_u64, 1.5, false));
    else
        target("system generator, u64 <= 1.5x Rust `rand::rng().next_u64()`", "Rust peer not built (no cargo)",
               "not measured");
    if (sys != nullptr && rust.ns_u64 > 0 && rust.ns_u32 > 0) {
        target("system generator, u64 <= Rust `rand::rng().next_u64()` (issue 29)",
               cell(sys->ns_u64, 2) + " vs " + cell(rust.ns_u64, 2) + " ns",
               verdict(sys->ns_u64 / rust.ns_u64, 1.0, false));
        target("system generator, u32 <= Rust `rand::rng().next_u32()` (issue 29)",
               cell(sys->ns_u32, 2) + " vs " + cell(rust.ns_u32, 2) + " ns",
               verdict(sys->ns_u32 / rust.ns_u32, 1.0, false));
        target("system generator, u64 inlined (`SHAKERAND_INLINE_SYSTEM`) <= Rust `next_u64()` (issue 40)",
               cell(sys->ns_u64_inline, 2) + " vs " + cell(rust.ns_u64, 2) + " ns",
               verdict(sys->ns_u64_inline / rust.ns_u64, 1.0, false));
        target("system generator, u32 inlined <= Rust `next_u32()` (issue 40)",
               cell(sys->ns_u32_inline, 2) + " vs " + cell(rust.ns_u32, 2) + " ns",
               verdict(sys->ns_u32_inline / rust.ns_u32, 1.0, false));
    }
    if (sys != nullptr && mt_row != nullptr)
        target("system generator, u64 <= 2x `std::mt19937_64`",
               cell(sys->ns_u64, 2) + " vs " + cell(mt_row->ns_u64, 2) + " ns",
               verdict(sys->ns_u64 / mt_row->ns_u64, 2, false));
    if (sys != nullptr)
        target("system generator, 2 threads >= 1.8x one thread (1 MiB fills)",
               cell(sys->two_threads, 0) + " vs " + cell(sys->one_thread, 0) + " MB/s",
               verdict(sys->two_threads / sys->one_thread, 1.8, true));
    if (chacha_engine != nullptr && priv != nullptr)
        target(std::string("chacha8rand engine (") + shakerand_kernel_name() +
                   "), 1 MiB >= 2x OpenSSL `RAND_priv_bytes`",
               cell(chacha_engine->mbs_1m, 0) + " vs " + cell(priv->mbs_1m, 0) + " MB/s",
               verdict(chacha_engine->mbs_1m / priv->mbs_1m, 2, true));
    if (cli_runs.size() == 3 && cli_runs[0].best > 0 && cli_runs[2].best > 0)
        target("CLI `shakerand bytes` >= 2.5x `openssl rand`, 2147483647 bytes to /dev/null",
               cell(cli_runs[0].best, 3) + " vs " + cell(cli_runs[2].best, 3) + " s",
               verdict(cli_runs[2].best / cli_runs[0].best, 2.5, true));
    else
        target("CLI `shakerand bytes` >= 2.5x `openssl rand`", "not run (no --cli, or a command failed)",
               "not measured");
    target("bounded u64 (n = 10^9 + 7) <= 1.5x plain u64 (an earlier issue's)",
           cell(bounded_u64_ns, 2) + " vs " + cell(plain_u64_ns, 2) + " ns",
           verdict(bounded_u64_ns / plain_u64_ns, 1.5, false));
    if (u64_device_ns < 1e99)
        target("u64 with a vmclock device watched <= 0.3 ns more than with none (issue 28)",
               cell(u64_device_ns, 2) + " vs " + cell(u64_no_device_ns, 2) + " ns",
               verdict(std::max(u64_device_ns - u64_no_device_ns, 0.001), 0.3, false, " ns more"));
    md << "\nThe C++ header's targets against RandomSHAKE are judged in the RandomSHAKE section below,\n"
       << "which has its own date: RandomSHAKE is not built by `make bench`.\n\n"
       << "## Charts\n\n"
       << "Drawn by tools/bench_charts.py from this run's figures (bench/charts/).\n\n"
       << "![1 MiB fills, GB/s per generator](bench/charts/bulk.svg)\n\n"
       << "![ns per 64-bit word per generator](bench/charts/words.svg)\n\n"
       << "![ns per 16-byte request per generator](bench/charts/small.svg)\n\n";

    std::ifstream randomshake(std::string(SHAKERAND_SOURCE_DIR) + "/bench/RANDOMSHAKE.md");
    if (randomshake)
        md << randomshake.rdbuf() << "\n";
    std::ifstream notes(std::string(SHAKERAND_SOURCE_DIR) + "/bench/NOTES.md");
    md << notes.rdbuf();
    return 0;
}
