// SPDX-License-Identifier: MIT OR Apache-2.0
// Helpers shared by the C test suites (googletest).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sha256.hpp"

extern "C" {
#include "engine.h"
#include "keccakp1600.h"
#include "shakerand.h"
}

namespace test {

using bytes = std::vector<std::uint8_t>;

bytes from_hex(const std::string &hex);
std::string to_hex(const std::uint8_t *p, std::size_t n);
inline std::string to_hex(const bytes &b) { return to_hex(b.data(), b.size()); }
bytes ptn(std::size_t n);  // RFC 9861's pattern: byte i is i mod 251

// The first n bytes of a system generator keyed from seed material
// `material` as the core keys one (shakerand_system_key_engine_for_testing).
bytes system_output_of(const bytes &material, std::size_t n);

// A JSON file of the repository, by path relative to its root.
nlohmann::json load_json(const std::string &relative_path);

// Every kernel this CPU can run, portable first.
std::vector<const shakerand_kernel *> kernels();

// Makes `k` the active kernel for the lifetime of the guard.
struct kernel_guard {
    explicit kernel_guard(const shakerand_kernel *k) { shakerand_kernel_set_for_testing(k); }
    ~kernel_guard() { shakerand_kernel_set_for_testing(nullptr); }
};

#if defined(__linux__) || defined(__FreeBSD__)
// A raw fork (the system call: no pthread_atfork handler runs) made while
// another thread is stopped at each step of `holder` in turn (the
// SHAKERAND_TEST_STEP hook, on the thread that called
// stop_this_thread_at_steps() inside `holder`): at each step a child runs
// `child` and sends back what it returns (at most 64 bytes). A child that
// has not finished after 10 s ends with SIGALRM: a lock left held in it
// fails the test instead of hanging it. One entry per step, in order:
// whether the child exited with 0 and the bytes it sent.
struct raw_fork_result {
    bool finished;
    bytes sent;
};
std::vector<raw_fork_result> raw_fork_at_every_step(const std::function<void()> &holder,
                                                     const std::function<bytes()> &child);
void stop_this_thread_at_steps();
// fork as the system call: no fork handler (pthread_atfork) runs.
pid_t raw_fork();
#endif

}  // namespace test
