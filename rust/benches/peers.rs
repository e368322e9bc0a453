// SPDX-License-Identifier: MIT OR Apache-2.0
//! shakerand beside Rust's generators in one run (`make bench-rust`, which
//! runs rust/bench.sh): ns per call, the median of seven rounds, the same
//! loop for every generator. No criterion: a few numbers.
//!
//! Built with `--cfg getrandom_backend="custom"` and the `getrandom`
//! feature, it times only `getrandom::fill` of 16 bytes (served by
//! shakerand's back end then) and prints that one number; rust/bench.sh
//! passes it to the ordinary build in SHAKERAND_BENCH_GETRANDOM_CUSTOM_NS,
//! which prints the tables and the targets of issue 39 in Markdown.
// The tables' helpers are unused in the build that times the back end alone.
#![cfg_attr(
    all(feature = "getrandom", getrandom_backend = "custom"),
    allow(dead_code, unused_imports)
)]

use rand::{RngExt, SeedableRng};
use rand_core::Rng;
use std::hint::black_box;
use std::time::Instant;

const ROUNDS: usize = 7;

fn median_ns(per_round: usize, mut f: impl FnMut()) -> f64 {
    let mut rounds: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_round {
                f();
            }
            start.elapsed().as_nanos() as f64 / per_round as f64
        })
        .collect();
    rounds.sort_by(|a, b| a.partial_cmp(b).unwrap());
    rounds[ROUNDS / 2]
}

fn getrandom_fill_16_ns() -> f64 {
    let mut b = [0u8; 16];
    median_ns(1_000_000, || {
        getrandom::fill(&mut b).unwrap();
        black_box(&b);
    })
}

#[cfg(all(feature = "getrandom", getrandom_backend = "custom"))]
shakerand::getrandom_backend!();

#[cfg(all(feature = "getrandom", getrandom_backend = "custom"))]
fn main() {
    println!("{:.2}", getrandom_fill_16_ns());
}

/// One generator's figures: next_u64, next_u32, random_range(0..100) and
/// fills of 16 B and 64 B in ns, and a 1 MiB fill in MB/s.
struct Row {
    name: &'static str,
    ns: [f64; 5],
    mib_mb_s: f64,
}

// One function per figure, each kept out of line: each loop is compiled
// on its own, as a user's loop would be, rather than inside one large
// function whose size changes what the compiler inlines into it.
#[inline(never)]
fn time_u64<R: Rng>(rng: &mut R, calls: usize) -> f64 {
    median_ns(calls, || {
        black_box(rng.next_u64());
    })
}

#[inline(never)]
fn time_u32<R: Rng>(rng: &mut R, calls: usize) -> f64 {
    median_ns(calls, || {
        black_box(rng.next_u32());
    })
}

#[inline(never)]
fn time_range<R: Rng>(rng: &mut R, calls: usize) -> f64 {
    median_ns(calls, || {
        black_box(rng.random_range(0..100u32));
    })
}

#[inline(never)]
fn time_fill<R: Rng, const N: usize>(rng: &mut R, calls: usize) -> f64 {
    let mut b = [0u8; N];
    median_ns(calls, || {
        rng.fill_bytes(&mut b);
        black_box(&b);
    })
}

#[inline(never)]
fn time_fill_mib<R: Rng>(rng: &mut R, calls: usize) -> f64 {
    let mut b = vec![0u8; 1 << 20];
    median_ns(calls, || {
        rng.fill_bytes(&mut b);
        black_box(&b);
    })
}

fn row<R: Rng>(name: &'static str, rng: &mut R, calls: usize) -> Row {
    let ns = [
        time_u64(rng, calls),
        time_u32(rng, calls),
        time_range(rng, calls),
        time_fill::<R, 16>(rng, calls),
        time_fill::<R, 64>(rng, calls),
    ];
    let mib_ns = time_fill_mib(rng, (calls / 10_000).max(20));
    Row {
        name,
        ns,
        mib_mb_s: (1u64 << 20) as f64 / mib_ns * 1e3,
    }
}

/// fastrand (Wyrand: fast, not secure) behind rand_core's traits: the floor.
struct Fastrand(fastrand::Rng);

impl rand_core::TryRng for Fastrand {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.0.u32(..))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0.u64(..))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.0.fill(dst);
        Ok(())
    }
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "missed"
    }
}

#[cfg(not(all(feature = "getrandom", getrandom_backend = "custom")))]
fn main() {
    let calls = 10_000_000;
    let rows = [
        row("shakerand::rng()", &mut shakerand::rng(), calls),
        row("rand::rng() (ChaCha12)", &mut rand::rng(), calls),
        row(
            "rand::rngs::StdRng (ChaCha12, seeded)",
            &mut rand::rngs::StdRng::from_rng(&mut rand::rng()),
            calls,
        ),
        row(
            "rand::rngs::SysRng (getrandom: the OS)",
            &mut rand_core::UnwrapErr(rand::rngs::SysRng),
            calls / 20,
        ),
        row(
            "fastrand (Wyrand, not secure: the floor)",
            &mut Fastrand(fastrand::Rng::new()),
            calls,
        ),
    ];
    let uuid_ns = [
        (
            "shakerand::uuid::new_v4()",
            median_ns(calls, || {
                black_box(shakerand::uuid::new_v4());
            }),
        ),
        (
            "uuid::Uuid::new_v4() (getrandom: the OS)",
            median_ns(calls / 20, || {
                black_box(uuid::Uuid::new_v4());
            }),
        ),
        (
            "shakerand::uuid::now_v7()",
            median_ns(calls, || {
                black_box(shakerand::uuid::now_v7());
            }),
        ),
        (
            "uuid::Uuid::now_v7()",
            median_ns(calls / 20, || {
                black_box(uuid::Uuid::now_v7());
            }),
        ),
    ];
    let os_16 = getrandom_fill_16_ns();
    let custom_16: Option<f64> = std::env::var("SHAKERAND_BENCH_GETRANDOM_CUSTOM_NS")
        .ok()
        .and_then(|v| v.parse().ok());

    println!("Kernel in use: {}. Median of {ROUNDS} rounds per figure, all in one process (rust/benches/peers.rs).\n", shakerand::kernel());
    println!("| generator | next_u64 | next_u32 | random_range(0..100) | fill 16 B | fill 64 B | fill 1 MiB |");
    println!("|---|---|---|---|---|---|---|");
    for r in &rows {
        let [a, b, c, d, e] = r.ns;
        println!(
            "| {} | {a:.2} ns | {b:.2} ns | {c:.2} ns | {d:.2} ns | {e:.2} ns | {:.0} MB/s |",
            r.name, r.mib_mb_s
        );
    }
    println!("\n| UUID | time per call |\n|---|---|");
    for (name, ns) in uuid_ns {
        println!("| {name} | {ns:.1} ns |");
    }
    println!("\n| `getrandom::fill` of 16 B | time per call |\n|---|---|");
    println!("| getrandom's own back end (the OS) | {os_16:.1} ns |");
    match custom_16 {
        Some(ns) => println!("| shakerand's back end (`--cfg getrandom_backend=\"custom\"`, feature `getrandom`) | {ns:.1} ns |"),
        None => println!("| shakerand's back end | not measured (rust/bench.sh measures it) |"),
    }

    let (ours, rand) = (&rows[0], &rows[1]);
    let ratio = |i: usize| ours.ns[i] / rand.ns[i];
    let wide = if shakerand::kernel() == "avx512" {
        2.5
    } else {
        1.5
    };
    let fill_x = ours.mib_mb_s / rand.mib_mb_s;
    println!(
        "\n### Targets (issue 39), same run\n\n| target | measured | verdict |\n|---|---|---|"
    );
    println!(
        "| `next_u64` <= 0.8x `rand::rng()`'s time | {:.2} vs {:.2} ns: {:.2}x | {} |",
        ours.ns[0],
        rand.ns[0],
        ratio(0),
        verdict(ratio(0) <= 0.8)
    );
    println!(
        "| `next_u32` no slower than rand's | {:.2} vs {:.2} ns: {:.2}x | {} |",
        ours.ns[1],
        rand.ns[1],
        ratio(1),
        verdict(ratio(1) <= 1.0)
    );
    println!(
        "| `random_range(0..100)` no slower than rand's | {:.2} vs {:.2} ns: {:.2}x | {} |",
        ours.ns[2],
        rand.ns[2],
        ratio(2),
        verdict(ratio(2) <= 1.0)
    );
    println!(
        "| 16-byte fill no slower than rand's | {:.2} vs {:.2} ns: {:.2}x | {} |",
        ours.ns[3],
        rand.ns[3],
        ratio(3),
        verdict(ratio(3) <= 1.0)
    );
    println!(
        "| 1 MiB fill >= {wide}x rand's ({} kernel) | {:.0} vs {:.0} MB/s: {fill_x:.2}x | {} |",
        shakerand::kernel(),
        ours.mib_mb_s,
        rand.mib_mb_s,
        verdict(fill_x >= wide)
    );
    match custom_16 {
        Some(ns) => println!(
            "| `getrandom::fill` of 16 B through the back end >= 10x faster than the OS back end | {ns:.1} vs {os_16:.1} ns: {:.1}x | {} |",
            os_16 / ns,
            verdict(os_16 / ns >= 10.0)
        ),
        None => println!("| `getrandom::fill` of 16 B through the back end >= 10x faster | not measured | - |"),
    }
}
