// SPDX-License-Identifier: MIT OR Apache-2.0
// A shuffled deck with std::shuffle.
#include <algorithm>
#include <array>
#include <cstdio>

#include <shakerand.hpp>

int main()
{
    std::array<int, 10> deck{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    shakerand::engine<std::uint64_t, shakerand::kind::turboshake256x8> rng;
    std::shuffle(deck.begin(), deck.end(), rng);
    std::printf("[SHUFFLE] ");
    for (int card : deck)
        std::printf("%d ", card);
    std::printf("\n[UUID] %s\n", shakerand::to_string(shakerand::uuid4()).c_str());
}
