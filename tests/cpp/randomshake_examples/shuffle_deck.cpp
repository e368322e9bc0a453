// SPDX-License-Identifier: MIT OR Apache-2.0
// RandomSHAKE-style program: std::shuffle and std::normal_distribution with
// 64-bit results over SHAKE256.
#include <randomshake/randomshake.hpp>

int main()
{
    randomshake::randomshake_t<uint64_t, randomshake::xof_kind_t::SHAKE256> csprng;

    std::array<int, 52> deck{};
    for (size_t i = 0; i < deck.size(); i++)
        deck[i] = static_cast<int>(i);
    std::shuffle(deck.begin(), deck.end(), csprng);
    std::cout << "top card: " << deck[0] << '\n';

    std::normal_distribution<double> normal{0.0, 1.0};
    double sum = 0;
    for (int i = 0; i < 100000; i++)
        sum += normal(csprng);
    std::cout << "[NORMAL dISTRIBUTION] mean of 100000 samples: " << sum / 100000 << '\n';

    std::ranges::sort(deck);
    for (size_t i = 0; i < deck.size(); i++)
        if (deck[i] != static_cast<int>(i))
            return 1;
    return sum / 100000 > -0.02 && sum / 100000 < 0.02 ? 0 : 1;
}
