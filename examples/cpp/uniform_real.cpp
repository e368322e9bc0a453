// SPDX-License-Identifier: MIT OR Apache-2.0
// Points in the unit square with std::uniform_real_distribution.
#include <cstdio>
#include <random>

#include <shakerand.hpp>

int main()
{
    shakerand::engine<std::uint32_t, shakerand::kind::turboshake256x8> rng;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int i = 0; i < 5; i++) {
        const double x = unit(rng), y = unit(rng);
        std::printf("[UNIFORM REAL] point (%.6f, %.6f)\n", x, y);
    }
}
