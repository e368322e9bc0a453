// shakerand's benchmark: every engine on every kernel beside the machine's
// other generators, in one run, printed as a table (and with --markdown FILE
// written as BENCHMARKS.md). Each figure is the best of several timed runs
// of at least 0.2 s, so a brief stall of this shared machine does not count.
#include <sys/random.h>
#include <sys/utsname.h>
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
#include "shakerand.h"
}

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

struct row {
    std::string name;
    double mbs_1m, mbs_64, mbs_16, ns_u64;
};

volatile std::uint64_t sink;

// A generator under test: fill(buf, n) and next_u64().
template <class Fill, class Next>
row measure(const std::string &name, const Fill &fill, const Next &next_u64)
{
    static std::vector<std::uint8_t> buf(1 << 20);
    row r{name, 0, 0, 0, 0};
    r.mbs_1m = (1 << 20) / time_per_call([&] { fill(buf.data(), 1 << 20); }) / 1e6;
    r.mbs_64 = 64 / time_per_call([&] { fill(buf.data(), 64); }) / 1e6;
    r.mbs_16 = 16 / time_per_call([&] { fill(buf.data(), 16); }) / 1e6;
    r.ns_u64 = 1e9 * time_per_call([&] { sink = next_u64(); });
    std::fprintf(stderr, "  %-34s %9.0f %9.0f %9.0f %9.2f\n", name.c_str(), r.mbs_1m, r.mbs_64,
                 r.mbs_16, r.ns_u64);
    return r;
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

std::string verdict(double measured, double minimum)
{
    if (measured >= minimum)
        return "met";
    char text[64];
    std::snprintf(text, sizeof text, "missed by %.1f %%", 100 * (1 - measured / minimum));
    return text;
}

}  // namespace

int main(int argc, char **argv)
{
    const char *markdown = nullptr;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--markdown") == 0 && i + 1 < argc)
            markdown = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--markdown FILE]\n", argv[0]);
            return 2;
        }
    }
    if (sodium_init() < 0)
        return 1;

    std::vector<row> rows;
    std::fprintf(stderr, "  %-34s %9s %9s %9s %9s\n", "generator", "1MiB MB/s", "64B MB/s",
                 "16B MB/s", "ns/u64");
    std::vector<const shakerand_kernel *> kernels;
    for (std::size_t i = 0; shakerand_kernel_list[i] != nullptr; i++)
        if (shakerand_kernel_find(shakerand_kernel_list[i]->name) != nullptr)
            kernels.push_back(shakerand_kernel_list[i]);

    static shakerand_engine engine;
    for (const auto *k : kernels) {
        shakerand_kernel_set_for_testing(k);
        for (shakerand_kind kind : {SHAKERAND_TURBOSHAKE256, SHAKERAND_SHAKE256, SHAKERAND_TURBOSHAKE256X8}) {
            shakerand_engine_init(&engine, kind, "bench", 5);
            rows.push_back(measure(std::string("shakerand ") + shakerand_kind_name(kind) + " (" + k->name + ")",
                                   [](std::uint8_t *b, std::size_t n) { shakerand_engine_fill(&engine, b, n); },
                                   [] { return shakerand_engine_u64(&engine); }));
        }
    }
    shakerand_kernel_set_for_testing(nullptr);

    rows.push_back(measure("shakerand system generator",
                           [](std::uint8_t *b, std::size_t n) { shakerand_system_fill(b, n); },
                           [] { return shakerand_system_u64(); }));

    rows.push_back(measure("OpenSSL RAND_bytes",
                           [](std::uint8_t *b, std::size_t n) { RAND_bytes(b, static_cast<int>(n)); },
                           [] { std::uint64_t v; RAND_bytes(reinterpret_cast<unsigned char *>(&v), 8); return v; }));
    rows.push_back(measure("OpenSSL RAND_priv_bytes",
                           [](std::uint8_t *b, std::size_t n) { RAND_priv_bytes(b, static_cast<int>(n)); },
                           [] { std::uint64_t v; RAND_priv_bytes(reinterpret_cast<unsigned char *>(&v), 8); return v; }));
    rows.push_back(measure("getrandom(2)",
                           [](std::uint8_t *b, std::size_t n) {
                               for (std::size_t got = 0; got < n;) {
                                   const ssize_t r = getrandom(b + got, n - got, 0);
                                   if (r > 0) got += static_cast<std::size_t>(r);
                               }
                           },
                           [] { std::uint64_t v; if (getrandom(&v, 8, 0) != 8) std::abort(); return v; }));
    rows.push_back(measure("glibc arc4random_buf",
                           [](std::uint8_t *b, std::size_t n) { arc4random_buf(b, n); },
                           [] { std::uint64_t v; arc4random_buf(&v, 8); return v; }));
    rows.push_back(measure("libsodium randombytes_buf",
                           [](std::uint8_t *b, std::size_t n) { randombytes_buf(b, n); },
                           [] { std::uint64_t v; randombytes_buf(&v, 8); return v; }));
    static std::mt19937_64 mt(42);
    rows.push_back(measure("std::mt19937_64 (not secure)",
                           [](std::uint8_t *b, std::size_t n) {
                               for (std::size_t i = 0; i + 8 <= n; i += 8) {
                                   const std::uint64_t v = mt();
                                   std::memcpy(b + i, &v, 8);
                               }
                           },
                           [] { return mt(); }));

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

    // Aggregate 1 MiB fills from 1 and 2 threads, each running 1 s.
    auto aggregate = [](int threads) {
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
    };
    const double one_thread = aggregate(1), two_threads = aggregate(2);
    std::fprintf(stderr, "  system generator, 1 MiB fills: 1 thread %.0f MB/s, 2 threads %.0f MB/s (%.2fx)\n",
                 one_thread, two_threads, two_threads / one_thread);

    // One permutation per kernel, in ns and TSC cycles.
    const double ghz = tsc_ghz();
    std::ostringstream perm;
    for (const auto *k : kernels) {
        for (unsigned ways : {1u, 4u, 8u}) {
            for (unsigned rounds : {12u, 24u}) {
                if (ways > 1 && rounds == 24)
                    continue; /* the parallel kernels serve TurboSHAKE only */
                static std::uint64_t s[25 * 8] = {1};
                const double ns = 1e9 * time_per_call([&] {
                    if (ways == 1) k->p1600(s, rounds);
                    else if (ways == 4) k->p1600x4(s, rounds);
                    else k->p1600x8(s, rounds);
                });
                sink = s[0];
                const double cycles = ns * ghz;
                char line[200];
                std::snprintf(line, sizeof line, "| %s | x%u | %u | %.1f | %.0f | %.1f | %.2f |\n", k->name, ways,
                              rounds, ns, cycles, cycles / rounds, cycles / (136.0 * ways));
                perm << line;
                std::fprintf(stderr, "  permutation %-9s x%u %2u rounds: %6.1f ns, %5.0f cycles, %.2f c/B\n",
                             k->name, ways, rounds, ns, cycles, cycles / (136.0 * ways));
            }
        }
    }

    if (markdown == nullptr)
        return 0;
    struct utsname u;
    uname(&u);
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::ofstream md(markdown);
    md << "# Benchmarks\n\n"
       << "Written by `make bench` (bench/shakerand_bench.cpp); do not edit by hand: the notes at\n"
       << "the end come from bench/NOTES.md. All rows come from one run on one machine; each\n"
       << "figure is the best of 5 timed runs of at least 0.2 s.\n\n"
       << "- Date: " << date << "\n"
       << "- CPU: " << cpu_model() << ", " << sysconf(_SC_NPROCESSORS_ONLN) << " cores online, TSC "
       << std::fixed << std::setprecision(2) << ghz << " GHz\n"
       << "- OS: " << u.sysname << " " << u.release << " " << u.machine << "\n"
       << "- Compiler: " << __VERSION__ << "\n"
       << "- Kernel picked by dispatch: " << shakerand_kernel_name() << "\n\n"
       << "## Throughput, one thread\n\n"
       << "| generator | 1 MiB requests, MB/s | 64 B requests, MB/s | 16 B requests, MB/s | ns per u64 |\n"
       << "|---|---:|---:|---:|---:|\n";
    for (const auto &r : rows)
        md << "| " << r.name << " | " << std::setprecision(0) << r.mbs_1m << " | " << r.mbs_64 << " | "
           << r.mbs_16 << " | " << std::setprecision(2) << r.ns_u64 << " |\n";
    md << "\nMB/s is 10^6 bytes per second. std::mt19937_64 is the non-secure floor: its fill\n"
       << "writes one 64-bit word at a time.\n\n"
       << "## System generator\n\n"
       << "| measure | value |\n|---|---:|\n"
       << "| first use on a new thread, seeding included (median of 200 threads) | "
       << std::setprecision(1) << first_use_us << " us |\n"
       << "| 1 MiB fills, 1 thread, aggregate | " << std::setprecision(0) << one_thread << " MB/s |\n"
       << "| 1 MiB fills, 2 threads, aggregate | " << two_threads << " MB/s (" << std::setprecision(2)
       << two_threads / one_thread << "x) |\n\n"
       << "## Keccak-p[1600] permutation, per kernel\n\n"
       << "| kernel set | states | rounds | ns | TSC cycles | cycles per round | cycles per rate byte |\n"
       << "|---|---|---:|---:|---:|---:|---:|\n"
       << perm.str() << "\n";

    // Issue targets for this machine kind, checked against this run's rows.
    struct target {
        const char *row;
        double minimum_mbs_1m;
        const char *why;
    };
    const target targets[] = {
        {"shakerand turboshake256 (avx512)", 950, "about 2x RandomSHAKE's 493 MB/s"},
        {"shakerand shake256 (avx512)", 520, "about 1.8x RandomSHAKE's 289 MB/s"},
    };
    double priv = 0, mt_ns = 0;
    const row *system = nullptr;
    for (const auto &r : rows) {
        if (r.name == "OpenSSL RAND_priv_bytes") priv = r.mbs_1m;
        if (r.name == "std::mt19937_64 (not secure)") mt_ns = r.ns_u64;
        if (r.name == "shakerand system generator") system = &r;
    }
    md << "## Targets\n\n| engine, 1 MiB requests | target MB/s | measured MB/s | verdict |\n|---|---:|---:|---|\n";
    for (const auto &t : targets)
        for (const auto &r : rows)
            if (r.name == t.row)
                md << "| " << r.name << " (" << t.why << ") | " << std::setprecision(0) << t.minimum_mbs_1m
                   << " | " << r.mbs_1m << " | "
                   << verdict(r.mbs_1m, t.minimum_mbs_1m)
                   << " |\n";
    if (system != nullptr) {
        md << "\n| system generator | target | measured | verdict |\n|---|---:|---:|---|\n";
        auto line = [&md](const char *what, double target, double measured, bool higher_is_better,
                          const char *unit) {
            const bool met = higher_is_better ? measured >= target : measured <= target;
            char text[256];
            std::snprintf(text, sizeof text, "| %s | %s %.1f %s | %.1f %s | %s |\n", what,
                          higher_is_better ? ">=" : "<=", target, unit, measured, unit,
                          met ? "met"
                              : (std::string("missed by ") +
                                 std::to_string(static_cast<int>(
                                     100 * (higher_is_better ? 1 - measured / target : measured / target - 1) + 0.5)) +
                                 " %").c_str());
            md << text;
        };
        line("1 MiB fills vs 0.8x OpenSSL RAND_priv_bytes", 0.8 * priv, system->mbs_1m, true, "MB/s");
        line("1 MiB fills vs 1.3x Rust rand::rng() (3750 MB/s, the issue's figure)", 1.3 * 3750, system->mbs_1m,
             true, "MB/s");
        line("16-byte fill", 10, 16 / system->mbs_16 * 1e3, false, "ns");
        line("u64 vs 2x std::mt19937_64", 2 * mt_ns, system->ns_u64, false, "ns");
        line("2 threads vs 1 thread", 1.8, two_threads / one_thread, true, "x");
        line("first use on a new thread", 20, first_use_us, false, "us");
    }
    md << "\n";

    std::ifstream notes(std::string(SHAKERAND_SOURCE_DIR) + "/bench/NOTES.md");
    md << notes.rdbuf();
    return 0;
}
