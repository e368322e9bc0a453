// SPDX-License-Identifier: MIT OR Apache-2.0
// RandomSHAKE-style program: a seeded CSPRNG feeding
// std::uniform_int_distribution, reproducible from its seed.
#include <randomshake/randomshake.hpp>

int main()
{
    std::array<uint8_t, randomshake::randomshake_t<>::seed_byte_len> seed{};
    seed.fill(0x42);

    randomshake::randomshake_t<uint32_t> csprng(seed);
    randomshake::randomshake_t<uint32_t> again(seed);
    std::uniform_int_distribution<int> die{1, 6};

    std::array<size_t, 6> faces{};
    for (int i = 0; i < 6000; i++) {
        const int a = die(csprng);
        if (a != die(again))
            return 1;
        faces[static_cast<size_t>(a - 1)]++;
    }
    for (size_t f = 0; f < faces.size(); f++)
        std::cout << "[UNIFORM iNT dISTRIBUTION] face " << f + 1 << ": " << faces[f] << '\n';
    return std::ranges::all_of(faces, [](size_t n) { return n > 800 && n < 1200; }) ? 0 : 1;
}
