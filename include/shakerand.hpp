// SPDX-License-Identifier: MIT OR Apache-2.0
// shakerand for C++20: engines for every <random> distribution.
//
// A drop-in for RandomSHAKE: <randomshake/randomshake.hpp> gives its API
// unchanged on these engines. For the same 136-byte seed, engine<std::uint8_t>
// yields exactly RandomSHAKE's bytes, and engine<T> for any unsigned integer
// type T the same stream sizeof(T) bytes at a time (little-endian).
//
//   shakerand::engine<std::uint64_t> rng;                 // seeded from the system generator
//   std::uniform_int_distribution<int> die(1, 6);
//   int roll = die(rng);
//
//   shakerand::engine<std::uint8_t> fixed(seed);          // any seed length: reproducible
//   fixed.generate(buffer);                                // std::span<std::uint8_t>
//
//   shakerand::system_rng sys;                             // per-thread system generator
//   std::normal_distribution<double> normal;
//   double x = normal(sys);
//
// Header-only over the C library (link shakerand::shakerand).
#ifndef SHAKERAND_HPP
#define SHAKERAND_HPP

// C++20 or later, said once instead of dozens of errors from std::endian
// on. MSVC reports its mode in _MSVC_LANG (its __cplusplus says 199711L
// unless /Zc:__cplusplus).
#if !(__cplusplus >= 202002L || (defined(_MSVC_LANG) && _MSVC_LANG >= 202002L))
#error "shakerand.hpp needs C++20: compile with -std=c++20 or later (MSVC: /std:c++20)"
#else

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "shakerand.h"

namespace shakerand {

// The engines' streams (docs/engines.md).
enum class kind : int {
    turboshake256 = SHAKERAND_TURBOSHAKE256,     // RandomSHAKE's default
    shake256 = SHAKERAND_SHAKE256,               // RandomSHAKE's SHAKE256 variant
    turboshake256x8 = SHAKERAND_TURBOSHAKE256X8, // the 8-lane Keccak engine
    chacha8rand = SHAKERAND_CHACHA8RAND,         // Go's ChaCha8 stream; 32-byte seeds
};

// A failure the C library reports (for example no entropy from the OS).
class error : public std::runtime_error {
  public:
    explicit error(int status)
        : std::runtime_error(std::string("shakerand: ") + shakerand_strerror(status)), status_(status)
    {
    }
    int status() const noexcept { return status_; }

  private:
    int status_;
};

namespace detail {

__extension__ typedef unsigned __int128 u128; // GCC and Clang, the compilers supported

inline void check(int status)
{
    if (status != SHAKERAND_OK)
        throw error(status);
}

// Every unsigned integer type RandomSHAKE takes: unsigned char to unsigned
// long long, char8_t, char16_t, char32_t (and unsigned __int128 where the
// standard library counts it as unsigned, as in GNU mode). Not bool: a random
// byte is not a valid bool.
template <class T>
inline constexpr bool is_word =
    std::is_unsigned_v<T> && std::is_same_v<T, std::remove_cv_t<T>> && !std::is_same_v<T, bool>;

// Little-endian word from bytes, whatever the host's byte order.
template <class T>
inline T load_le(const std::uint8_t *p) noexcept
{
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
        T w = 0;
        for (std::size_t i = sizeof(T); i-- > 0;)
            w = static_cast<T>((w << 8) | p[i]);
        v = w;
    }
    return v;
}

// Lemire's multiply-and-reject on 64-bit draws: the same algorithm, and so
// the same values for the same draws, as the C library's
// shakerand_uniform_u64 (the proof is in src/samplers.c).
template <class Draw>
inline std::uint64_t below(Draw &&draw, std::uint64_t n)
{
    if (n == 0)
        throw std::invalid_argument("shakerand::uniform_below: the bound must be positive");
    u128 m = static_cast<u128>(draw()) * n;
    if (static_cast<std::uint64_t>(m) < n) {
        const std::uint64_t t = (0 - n) % n;
        while (static_cast<std::uint64_t>(m) < t)
            m = static_cast<u128>(draw()) * n;
    }
    return static_cast<std::uint64_t>(m >> 64);
}

} // namespace detail

// A deterministic random bit generator over one of the engines, usable with
// every <random> distribution (std::uniform_random_bit_generator).
//
// Not copyable (a copy would repeat the stream); movable, and a moved-from
// engine must be assigned before it is used again (using it aborts rather
// than produce output). The state, and the words buffered ahead of the
// caller, are wiped on destruction; each word is zeroed in the buffer as it
// is handed out.
template <class UIntType = std::uint8_t, kind K = kind::turboshake256>
class engine {
    static_assert(detail::is_word<UIntType>,
                  "shakerand::engine: result type must be an unsigned integer type other than bool");

  public:
    using result_type = UIntType;
    static constexpr kind engine_kind = K;
    // RandomSHAKE's seed length (the other kinds accept any length);
    // chacha8rand takes exactly 32 bytes.
    static constexpr std::size_t seed_byte_len = K == kind::chacha8rand ? 32 : 136;

    static constexpr result_type min() noexcept { return 0; }
    static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

    // Seeded from the system generator (64 bytes; 32 for chacha8rand):
    // non-deterministic.
    engine()
    {
        std::array<std::uint8_t, K == kind::chacha8rand ? 32 : 64> seed;
        shakerand_system_fill(seed.data(), seed.size());
        init(seed);
        shakerand_memzero(seed.data(), seed.size());
    }

    // Seeded with these bytes (any length, empty included; exactly 32 for
    // chacha8rand, else std::invalid_argument): deterministic.
    explicit engine(std::span<const std::uint8_t> seed) { init(seed); }
    explicit engine(std::span<const std::byte> seed)
        : engine(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t *>(seed.data()), seed.size()))
    {
    }
    // A string seed is its UTF-8 bytes (docs/engines.md, "Seeds"): a
    // u8string_view's, and a string_view's bytes as they are, which are
    // UTF-8 where the program's narrow strings are (GCC's and Clang's
    // default; MSVC's with /utf-8).
    explicit engine(std::string_view seed)
        : engine(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t *>(seed.data()), seed.size()))
    {
    }
    explicit engine(std::u8string_view seed)
        : engine(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t *>(seed.data()), seed.size()))
    {
    }

    engine(const engine &) = delete;
    engine &operator=(const engine &) = delete;

    engine(engine &&other) noexcept { take(other); }
    engine &operator=(engine &&other) noexcept
    {
        if (this != &other) {
            wipe();
            take(other);
        }
        return *this;
    }

    ~engine() { wipe(); }

    // The next sizeof(result_type) bytes of the stream, little-endian.
    result_type operator()() noexcept
    {
        // The position in a local and stored last: the zeroing store may
        // alias pos_ (a byte store), and re-reading pos_ after it would put
        // a store-to-load round trip on every call's critical path.
        std::size_t p = pos_;
        if (p > buffer_bytes - sizeof(result_type)) {
            refill();
            p = 0;
        }
        const result_type v = detail::load_le<result_type>(buf_.data() + p);
        std::memset(buf_.data() + p, 0, sizeof(result_type));
        pos_ = p + sizeof(result_type);
        return v;
    }

    // The next out.size() bytes of the stream.
    void generate(std::span<std::uint8_t> out) noexcept
    {
        if (out.empty())
            return; // out.data() may be null: no memcpy from or to it
        std::size_t n = out.size(), done = 0;
        const std::size_t buffered = buffer_bytes - pos_;
        const std::size_t first = n < buffered ? n : buffered;
        std::memcpy(out.data(), buf_.data() + pos_, first);
        std::memset(buf_.data() + pos_, 0, first);
        pos_ += first;
        done = first;
        if (done < n)
            shakerand_engine_fill(&engine_, out.data() + done, n - done);
    }

    // Skips n results.
    void discard(unsigned long long n) noexcept
    {
        for (; n > 0; n--)
            (void)(*this)();
    }

    // The next 8 bytes of the stream as a little-endian word, whatever
    // result_type is; the samplers draw with it.
    std::uint64_t next_u64() noexcept
    {
        std::array<std::uint8_t, 8> b;
        generate(b);
        return detail::load_le<std::uint64_t>(b.data());
    }

  private:
    // One refill of the C engine a buffer: a period of 8 blocks
    // (turboshake256, shake256), a turboshake256x8 refill or a chacha8rand
    // iteration's output, so each refill is one bulk copy.
    static constexpr std::size_t buffer_bytes = K == kind::chacha8rand       ? 992
                                                : K == kind::turboshake256x8 ? 1056
                                                                             : 1088;

    void init(std::span<const std::uint8_t> seed)
    {
        const auto c_kind = static_cast<shakerand_kind>(K);
        const std::size_t seed_size = shakerand_kind_seed_size(c_kind);
        if (seed_size != 0 && seed.size() != seed_size)
            throw std::invalid_argument(std::string("shakerand::engine: a ") + shakerand_kind_name(c_kind) +
                                        " seed is exactly " + std::to_string(seed_size) + " bytes, not " +
                                        std::to_string(seed.size()));
        detail::check(shakerand_engine_init(&engine_, static_cast<shakerand_kind>(K), seed.data(),
                                            seed.size()));
        pos_ = buffer_bytes;
    }

    // Bytes left over (after generate() took part of a word) move to the
    // front so the stream stays in order.
    void refill() noexcept
    {
        const std::size_t left = buffer_bytes - pos_;
        std::memmove(buf_.data(), buf_.data() + pos_, left);
        shakerand_engine_fill(&engine_, buf_.data() + left, buffer_bytes - left);
        pos_ = 0;
    }

    void take(engine &other) noexcept
    {
        std::memcpy(&engine_, &other.engine_, sizeof engine_);
        buf_ = other.buf_;
        pos_ = other.pos_;
        other.wipe();
    }

    void wipe() noexcept
    {
        shakerand_engine_wipe(&engine_);
        shakerand_memzero(buf_.data(), buf_.size());
        pos_ = buffer_bytes;
    }

    shakerand_engine engine_;
    std::array<std::uint8_t, buffer_bytes> buf_{};
    std::size_t pos_ = buffer_bytes;
};

// The calling thread's system generator as a URBG: stateless, free to make,
// usable from any thread, safe across fork().
class system_rng {
  public:
    using result_type = std::uint64_t;
    static constexpr result_type min() noexcept { return 0; }
    static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

    result_type operator()() const noexcept { return shakerand_system_u64(); }
    void generate(std::span<std::uint8_t> out) const noexcept { shakerand_system_fill(out.data(), out.size()); }
    std::uint64_t next_u64() const noexcept { return shakerand_system_u64(); }

    // A new epoch: every thread reseeds before its next byte (after a
    // snapshot restore; async-signal-safe). shakerand_system_new_epoch.
    static void new_epoch() noexcept { shakerand_system_new_epoch(); }
    // Whether a restore is detected without new_epoch (Linux's vmclock
    // device). shakerand_system_watches_vm_generation.
    static bool watches_vm_generation() noexcept { return shakerand_system_watches_vm_generation() != 0; }
};

#if defined(SHAKERAND_SYSTEM_INLINE_DEFINED)
// system_rng with the take inlined in the caller's code (shakerand.h,
// SHAKERAND_INLINE_SYSTEM defined before its first inclusion): the same
// values and guarantees, a type of its own so that translation units with
// and without the macro agree on what each type is.
class inline_system_rng {
  public:
    using result_type = std::uint64_t;
    static constexpr result_type min() noexcept { return 0; }
    static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

    result_type operator()() const noexcept { return shakerand_system_u64_inline(); }
    void generate(std::span<std::uint8_t> out) const noexcept { shakerand_system_fill_inline(out.data(), out.size()); }
    std::uint64_t next_u64() const noexcept { return shakerand_system_u64_inline(); }
};
#endif

// Uniform in [0, n), unbiased (Lemire). n == 0 throws std::invalid_argument.
template <class UIntType, kind K>
std::uint64_t uniform_below(engine<UIntType, K> &rng, std::uint64_t n)
{
    return detail::below([&rng] { return rng.next_u64(); }, n);
}

inline std::uint64_t uniform_below(const system_rng &, std::uint64_t n)
{
    if (n == 0)
        throw std::invalid_argument("shakerand::uniform_below: the bound must be positive");
    std::uint64_t v;
    detail::check(shakerand_uniform_u64(nullptr, n, &v));
    return v;
}

// UUIDs (RFC 9562) from the system generator, 16 bytes in network order.
using uuid = std::array<std::uint8_t, 16>;

inline uuid uuid4() noexcept
{
    uuid u;
    shakerand_uuid4(nullptr, u.data());
    return u;
}

inline uuid uuid7() noexcept
{
    uuid u;
    shakerand_uuid7(nullptr, u.data());
    return u;
}

// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower case.
inline std::string to_string(const uuid &u)
{
    char text[SHAKERAND_UUID_STRING_SIZE];
    shakerand_uuid_format(u.data(), text);
    return text;
}

} // namespace shakerand

#endif // C++20
#endif
