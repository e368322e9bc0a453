// SPDX-License-Identifier: MIT OR Apache-2.0
// Random bytes, deterministic from a seed and from the system generator.
#include <cstdio>
#include <vector>

#include <shakerand.hpp>

int main()
{
    std::vector<std::uint8_t> seed(shakerand::engine<>::seed_byte_len, 0xde); // never in practice
    shakerand::engine<std::uint8_t> fixed(seed);
    std::vector<std::uint8_t> bytes(16);
    fixed.generate(bytes);
    std::printf("[BYTES] seeded:  ");
    for (auto b : bytes)
        std::printf("%02x", b);
    shakerand::engine<std::uint8_t> fresh;
    fresh.generate(bytes);
    std::printf("\n[BYTES] default: ");
    for (auto b : bytes)
        std::printf("%02x", b);
    std::printf("\n");
}
