// SPDX-License-Identifier: MIT OR Apache-2.0
// RandomSHAKE-style program: the CSPRNG against its XOF squeezed without
// ratcheting. They agree for the first ratchet period and differ after it.
#include <randomshake/randomshake.hpp>

template <randomshake::xof_kind_t xof_kind>
bool ratchets_after_one_period()
{
    using selector = randomshake::xof_selector_t<xof_kind>;
    std::array<uint8_t, selector::seed_byte_len> seed{};
    seed.fill(0xde);

    randomshake::randomshake_t<uint8_t, xof_kind> csprng(seed);
    typename selector::type xof;
    xof.reset();
    xof.absorb(seed);
    xof.finalize();

    std::vector<uint8_t> from_csprng(2 * selector::ratchet_period_byte_len, 0);
    std::vector<uint8_t> from_xof(from_csprng.size(), 0);
    std::ranges::generate(from_csprng, [&]() { return csprng(); });
    xof.squeeze(from_xof);

    const auto period = from_csprng.begin() + selector::ratchet_period_byte_len;
    const bool same_first = std::equal(from_csprng.begin(), period, from_xof.begin());
    const bool differ_after = !std::equal(period, from_csprng.end(), from_xof.begin() + selector::ratchet_period_byte_len);
    std::cout << "ratchet every " << selector::ratchet_period_byte_len << " bytes, zeroing "
              << selector::ratchet_byte_len << " bytes of state: " << (same_first && differ_after ? "ok" : "FAILED")
              << '\n';
    return same_first && differ_after;
}

int main()
{
    const bool ok = ratchets_after_one_period<randomshake::xof_kind_t::TURBOSHAKE256>() &&
                    ratchets_after_one_period<randomshake::xof_kind_t::SHAKE256>();
    return ok ? 0 : 1;
}
