// SPDX-License-Identifier: MIT OR Apache-2.0
// RandomSHAKE-style program: random bytes from a default-seeded CSPRNG.
// It includes only the compatibility header and uses std::cout through it,
// as RandomSHAKE's own examples do.
#include <randomshake/randomshake.hpp>

int main()
{
    randomshake::randomshake_t csprng;
    randomshake::randomshake_t<uint8_t, randomshake::xof_kind_t::SHAKE256> csprng_shake;

    std::vector<uint8_t> key(32, 0), other(32, 0);
    csprng.generate(key);
    csprng_shake.generate(other);

    std::cout << "key: " << std::hex;
    for (const auto b : key)
        std::cout << static_cast<unsigned>(b);
    std::cout << std::dec << '\n';

    const bool all_zero = std::ranges::all_of(key, [](uint8_t b) { return b == 0; });
    return all_zero || key == other ? 1 : 0;
}
