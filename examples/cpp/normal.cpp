// SPDX-License-Identifier: MIT OR Apache-2.0
// Gaussian samples with std::normal_distribution.
#include <cmath>
#include <cstdio>
#include <random>

#include <shakerand.hpp>

int main()
{
    shakerand::engine<std::uint64_t> rng;
    std::normal_distribution<double> normal(10.0, 2.0);
    double sum = 0, sum2 = 0;
    const int n = 100000;
    for (int i = 0; i < n; i++) {
        const double x = normal(rng);
        sum += x;
        sum2 += x * x;
    }
    const double mean = sum / n;
    std::printf("[NORMAL DISTRIBUTION] mean %.3f, standard deviation %.3f (expected 10, 2)\n", mean,
                std::sqrt(sum2 / n - mean * mean));
}
