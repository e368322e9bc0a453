// SPDX-License-Identifier: MIT OR Apache-2.0
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
#include "testing.h"
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
    // Rust's rand::rng(), built by `make bench` (bench/rust-peer); 1 MiB fills only.
    double rust_mbs = 0;
    {
        const std::string peer = std::string(SHAKERAND_SOURCE_DIR) + "/bench/rust-peer/target/release/rust-peer";
        if (FILE *p = popen(peer.c_str(), "r")) {
            if (std::fscanf(p, "%lf", &rust_mbs) != 1)
                rust_mbs = 0;
            pclose(p);
        }
        if (rust_mbs > 0) {
            rows.push_back(row{"Rust rand::rng() (ChaCha12), 1 MiB only", rust_mbs, 0, 0, 0});
            std::fprintf(stderr, "  %-34s %9.0f\n", rows.back().name.c_str(), rust_mbs);
        }
    }
    static std::mt19937_64 mt(42);
    rows.push_back(measure("std::mt19937_64 (not secure)",
                           [](std::uint8_t *b, std::size_t n) {
                               for (std::size_t i = 0; i + 8 <= n; i += 8) {
                                   const std::uint64_t v = mt();
                                   std::memcpy(b + i, &v, 8);
                               }
                           },
                           [] { return mt(); }));

    // Samplers, from the system generator.
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
    md << "\nMB/s is 10^6 bytes per second. std::mt19937_64 is the non-secure floor: its fill\n"
       << "writes one 64-bit word at a time.\n\n"
       << "## System generator\n\n"
       << "| measure | value |\n|---|---:|\n"
       << "| first use on a new thread, seeding included (median of 200 threads) | "
       << std::setprecision(1) << first_use_us << " us |\n"
       << "| seed material (64 bytes): OS by " << os_method << " + hardware | " << seed_all_us << " us |\n"
       << "| seed material: OS by the getrandom system call + hardware | " << seed_all_syscall_us << " us |\n"
       << "| seed material: OS by " << os_method << " only | " << seed_os_us << " us |\n"
       << "| seed material: OS by the getrandom system call only | " << seed_os_syscall_us << " us |\n"
       << "| 1 MiB fills, 1 thread, aggregate | " << std::setprecision(0) << one_thread << " MB/s |\n"
       << "| 1 MiB fills, 2 threads, aggregate | " << two_threads << " MB/s (" << std::setprecision(2)
       << two_threads / one_thread << "x) |\n\n"
       << "## Samplers (system generator)\n\n"
       << "| measure | ns |\n|---|---:|\n" << std::setprecision(2)
       << "| plain u64 | " << plain_u64_ns << " |\n"
       << "| bounded u64, n = 10^9 + 7 | " << bounded_u64_ns << " |\n"
       << "| bounded u64, n = 2^63 + 1 (rejects almost half) | " << bounded_worst_ns << " |\n"
       << "| UUID v4 | " << uuid4_ns << " |\n"
       << "| UUID v7 | " << uuid7_ns << " |\n\n"
       << "The Optimized Simple Discard paper's table re-made (its figures: Java, AMD Ryzen 7 3700X, \"DRBG\"\n"
       << "SecureRandom, 1,000,000 draws; ours: the system generator on this machine, averages over the timed\n"
       << "calls). Simple Discard is compared with the paper's \"byte array\" implementation.\n\n"
       << paper_md.str() << "\n"
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
        if (rust_mbs > 0)
            line("1 MiB fills vs 1.3x Rust rand::rng() (same run)", 1.3 * rust_mbs, system->mbs_1m, true, "MB/s");
        else
            line("1 MiB fills vs 1.3x Rust rand::rng() (3750 MB/s, the issue's figure; not built)", 1.3 * 3750,
                 system->mbs_1m, true, "MB/s");
        line("16-byte fill", 10, 16 / system->mbs_16 * 1e3, false, "ns");
        line("u64 vs 2x std::mt19937_64", 2 * mt_ns, system->ns_u64, false, "ns");
        line("2 threads vs 1 thread", 1.8, two_threads / one_thread, true, "x");
        line("first use on a new thread", 20, first_use_us, false, "us");
        line("bounded u64 vs 1.5x plain u64", 1.5 * plain_u64_ns, bounded_u64_ns, false, "ns");
        line("UUID v4", 15, uuid4_ns, false, "ns");
    }
    md << "\n";

    std::ifstream notes(std::string(SHAKERAND_SOURCE_DIR) + "/bench/NOTES.md");
    md << notes.rdbuf();
    return 0;
}
