// SPDX-License-Identifier: MIT OR Apache-2.0
// Prints the first 8 bytes of turboshake256 with seed "abc" as hex, through
// the C++ engine and a <random> distribution's URBG interface.
#include <cstdio>
#include <random>

#include <shakerand.hpp>

int main()
{
    const std::uint8_t seed[] = {'a', 'b', 'c'};
    shakerand::engine<std::uint8_t> rng(seed);
    for (int i = 0; i < 8; i++)
        std::printf("%02x", rng());
    std::printf("\n");
    std::uniform_int_distribution<int> die(1, 6);
    return die(rng) >= 1 ? 0 : 1;
}
