// SPDX-License-Identifier: MIT OR Apache-2.0
// Helpers shared by the C test suites (googletest).
#pragma once

#include <cstdint>
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

// A JSON file of the repository, by path relative to its root.
nlohmann::json load_json(const std::string &relative_path);

// Every kernel this CPU can run, portable first.
std::vector<const shakerand_kernel *> kernels();

// Makes `k` the active kernel for the lifetime of the guard.
struct kernel_guard {
    explicit kernel_guard(const shakerand_kernel *k) { shakerand_kernel_set_for_testing(k); }
    ~kernel_guard() { shakerand_kernel_set_for_testing(nullptr); }
};

}  // namespace test
