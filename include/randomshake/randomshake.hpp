// SPDX-License-Identifier: MIT OR Apache-2.0
// RandomSHAKE's C++ API (https://github.com/itzmeanjan/RandomShake) on
// shakerand: code written for RandomSHAKE compiles against this header
// unmodified and, for the same seed, produces the same bytes.
//
//   randomshake_t<T, X>      shakerand::engine<T, turboshake256 or shake256>,
//                            whose streams are RandomSHAKE's (docs/engines.md)
//   xof_selector_t<X>        RandomSHAKE's constants for the XOF, and as
//                            ::type the XOF object (reset, absorb, finalize,
//                            squeeze, ratchet) over shakerand_xof
//
// Where it differs, on purpose: the default constructor seeds from
// shakerand's system generator (docs/system.md) instead of
// std::random_device, so there is no zero-entropy warning to print (the
// system generator never runs without the operating system's entropy);
// big-endian hosts get the same little-endian words instead of a compile
// error; bool is refused as a result type; the XOF object finalises with
// TurboSHAKE's default domain byte only (no finalize<D>()) and is not
// usable in constant expressions. Link shakerand::shakerand (or
// shakerand::shakerand_static).
#ifndef RANDOMSHAKE_RANDOMSHAKE_HPP
#define RANDOMSHAKE_RANDOMSHAKE_HPP

// C++20 or later, as RandomSHAKE itself (see shakerand.hpp).
#if !(__cplusplus >= 202002L || (defined(_MSVC_LANG) && _MSVC_LANG >= 202002L))
#error "randomshake/randomshake.hpp needs C++20: compile with -std=c++20 or later (MSVC: /std:c++20)"
#else

#include <shakerand.hpp>

// What RandomSHAKE's header brings in, itself and through its sha3 headers:
// its examples use std::cout, std::string and std::vector through them
// (<vector> is here for standard libraries whose <random> lacks it).
#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

namespace randomshake {

// True on a little-endian host. RandomSHAKE requires it; shakerand does not.
consteval auto check_endianness() { return std::endian::native == std::endian::little; }

// Makes the compiler treat `value` as read and written in memory here, so
// stores to it before this point are not removed as dead.
template <typename Tp>
inline void DoNotOptimize(Tp &value)
{
    asm volatile("" : "+m"(value));
}

// The XOF under a randomshake_t; the enumerators' order is RandomSHAKE's.
enum class xof_kind_t : uint8_t {
    SHAKE256,      // Keccak-f[1600], 24 rounds
    TURBOSHAKE256, // Keccak-p[1600, 12]: about twice as fast; the default
};

namespace detail {

// The XOF object RandomSHAKE's xof_selector_t<X>::type names, with its
// semantics: absorb any number of times, finalize (domain byte 0x1F), then
// squeeze any number of times; absorb after finalize, and squeeze and
// ratchet before it, do nothing.
template <xof_kind_t X>
class xof {
  public:
    xof() noexcept { reset(); }
    xof(const xof &) = default;
    xof &operator=(const xof &) = default;
    ~xof() { shakerand_xof_wipe(&x_); }

    // Back to a fresh sponge, ready to absorb.
    void reset() noexcept
    {
        if constexpr (X == xof_kind_t::SHAKE256)
            shakerand_shake256_init(&x_);
        else
            shakerand_turboshake256_init(&x_, 0x1F);
        finalized_ = false;
        squeezable_ = 0;
    }

    void absorb(std::span<const uint8_t> msg) noexcept
    {
        if (!finalized_)
            shakerand_xof_absorb(&x_, msg.data(), msg.size());
    }

    void finalize() noexcept
    {
        if (!finalized_) {
            shakerand_xof_squeeze(&x_, nullptr, 0); // the first squeeze finalises
            finalized_ = true;
            squeezable_ = block_bytes;
        }
    }

    void squeeze(std::span<uint8_t> out) noexcept
    {
        if (finalized_) {
            shakerand_xof_squeeze(&x_, out.data(), out.size());
            squeezable_ = block_bytes - (block_bytes - squeezable_ + out.size()) % block_bytes;
        }
    }

    // Zero the first min(byte_len, 200) bytes of the state and permute
    // (shakerand_xof_ratchet); squeezing goes on at the same offset.
    void ratchet(const std::size_t byte_len) noexcept
    {
        if (finalized_)
            shakerand_xof_ratchet(&x_, std::min<std::size_t>(byte_len, 200));
    }

    // Bytes left in the current block before the next permutation.
    [[nodiscard]] std::size_t squeezable_num_bytes() const noexcept { return squeezable_; }

  private:
    static constexpr std::size_t block_bytes = 136;

    shakerand_xof x_;
    bool finalized_ = false;
    std::size_t squeezable_ = 0;
};

template <xof_kind_t X>
struct xof_traits {
    using type = xof<X>;

    // The rate in bits: 1600 - 2 * 256 for 256-bit security.
    static constexpr size_t rate = 1088;
    // A seed fills one rate block.
    static constexpr size_t seed_byte_len = rate / std::numeric_limits<uint8_t>::digits;
    // Bytes squeezed between ratchets: 8 blocks (RandomSHAKE takes the
    // rate's bit count as the byte count).
    static constexpr size_t ratchet_period_byte_len = rate;
    // State bytes zeroed by a ratchet: the 256-bit security level.
    static constexpr size_t ratchet_byte_len = 256 / std::numeric_limits<uint8_t>::digits;
};

constexpr shakerand::kind engine_kind(xof_kind_t x)
{
    return x == xof_kind_t::SHAKE256 ? shakerand::kind::shake256 : shakerand::kind::turboshake256;
}

} // namespace detail

// RandomSHAKE's traits: defined only for the two XOFs.
template <xof_kind_t xof_kind>
struct xof_selector_t {};

template <>
struct xof_selector_t<xof_kind_t::SHAKE256> : detail::xof_traits<xof_kind_t::SHAKE256> {};

template <>
struct xof_selector_t<xof_kind_t::TURBOSHAKE256> : detail::xof_traits<xof_kind_t::TURBOSHAKE256> {};

// RandomSHAKE's CSPRNG: a std::uniform_random_bit_generator whose
// operator() returns the next sizeof(UIntType) bytes of the stream
// (little-endian) and generate() the next bytes. Neither copyable nor
// movable, as in RandomSHAKE.
template <typename UIntType = uint8_t, xof_kind_t xof_kind = xof_kind_t::TURBOSHAKE256>
    requires(std::is_unsigned_v<UIntType>)
struct randomshake_t : shakerand::engine<UIntType, detail::engine_kind(xof_kind)> {
  private:
    using engine = shakerand::engine<UIntType, detail::engine_kind(xof_kind)>;

  public:
    using result_type = UIntType;

    static constexpr auto seed_byte_len = xof_selector_t<xof_kind>::seed_byte_len;

    // Seeded from shakerand's system generator: non-deterministic.
    randomshake_t() = default;

    // Seeded with these bytes: deterministic, and RandomSHAKE's output.
    explicit randomshake_t(std::span<const uint8_t, seed_byte_len> seed) : engine(std::span<const uint8_t>(seed)) {}

    randomshake_t(const randomshake_t &) = delete;
    randomshake_t(randomshake_t &&) = delete;
    randomshake_t &operator=(const randomshake_t &) = delete;
    randomshake_t &operator=(randomshake_t &&) = delete;

    [[nodiscard("the CSPRNG has moved on: use the value")]] result_type operator()() noexcept
    {
        return engine::operator()();
    }
};

} // namespace randomshake

#endif // C++20
#endif
