// SPDX-License-Identifier: MIT OR Apache-2.0
// The C++ engines under Google Benchmark: RandomSHAKE's own table re-made
// (seeding, sampling u8/u16/u32/u64, generate) for every kind, and the
// system generator (on the engine SHAKERAND_SYSTEM_ENGINE picks: `make
// bench` runs system_u64 once more under turboshake256x8).
// tools/bench_cpp_markdown.py turns the JSON into the C++ section of
// BENCHMARKS.md.
#include <array>
#include <vector>

#include <benchmark/benchmark.h>

#include <shakerand.hpp>

namespace {

using shakerand::kind;

template <kind K>
void seed_deterministic(benchmark::State &state)
{
    // RandomSHAKE's 136 bytes; chacha8rand's 32.
    std::array<std::uint8_t, shakerand::engine<std::uint64_t, K>::seed_byte_len> seed{};
    seed.fill(0xde);
    for (auto _ : state) {
        shakerand::engine<std::uint64_t, K> rng(seed);
        benchmark::DoNotOptimize(rng);
    }
}

template <kind K>
void seed_default(benchmark::State &state)
{
    for (auto _ : state) {
        shakerand::engine<std::uint64_t, K> rng;
        benchmark::DoNotOptimize(rng);
    }
}

template <class T, kind K>
void sample(benchmark::State &state)
{
    shakerand::engine<T, K> rng;
    for (auto _ : state)
        benchmark::DoNotOptimize(rng());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(sizeof(T)));
}

template <kind K>
void generate(benchmark::State &state)
{
    shakerand::engine<std::uint8_t, K> rng;
    std::vector<std::uint8_t> buf(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        rng.generate(buf);
        benchmark::DoNotOptimize(buf.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void system_u64(benchmark::State &state)
{
    shakerand::system_rng rng;
    for (auto _ : state)
        benchmark::DoNotOptimize(rng());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 8);
}

#define EVERY_KIND(macro)                                                                          \
    macro(kind::turboshake256) macro(kind::shake256) macro(kind::turboshake256x8) macro(kind::chacha8rand)

#define REGISTER(K)                                                                                \
    BENCHMARK(seed_deterministic<K>);                                                              \
    BENCHMARK(seed_default<K>);                                                                    \
    BENCHMARK(sample<std::uint8_t, K>);                                                            \
    BENCHMARK(sample<std::uint16_t, K>);                                                           \
    BENCHMARK(sample<std::uint32_t, K>);                                                           \
    BENCHMARK(sample<std::uint64_t, K>);                                                           \
    BENCHMARK(generate<K>)->Arg(1 << 20);

EVERY_KIND(REGISTER)
BENCHMARK(system_u64);

} // namespace

BENCHMARK_MAIN();
