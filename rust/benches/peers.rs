// SPDX-License-Identifier: MIT OR Apache-2.0
//! shakerand::rng() beside rand's generators in one run (`cargo bench`):
//! ns per call, the median of five rounds. No criterion: a few numbers,
//! the same loop for every generator.
use rand::{RngExt, SeedableRng};
use rand_core::Rng;
use std::hint::black_box;
use std::time::Instant;

fn time<R: Rng>(rng: &mut R, per_round: usize, mut f: impl FnMut(&mut R)) -> f64 {
    let mut rounds: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_round {
                f(rng);
            }
            start.elapsed().as_nanos() as f64 / per_round as f64
        })
        .collect();
    rounds.sort_by(|a, b| a.partial_cmp(b).unwrap());
    rounds[2]
}

fn row<R: Rng>(name: &str, rng: &mut R) {
    let n = 2_000_000;
    let u64_ns = time(rng, n, |r| {
        black_box(r.next_u64());
    });
    let u32_ns = time(rng, n, |r| {
        black_box(r.next_u32());
    });
    let range_ns = time(rng, n, |r| {
        black_box(r.random_range(0..100u32));
    });
    let mut b16 = [0u8; 16];
    let f16 = time(rng, n, |r| {
        r.fill_bytes(&mut b16);
        black_box(&b16);
    });
    let mut b1m = vec![0u8; 1 << 20];
    let f1m = time(rng, 200, |r| {
        r.fill_bytes(&mut b1m);
        black_box(&b1m);
    });
    println!(
        "| {name} | {u64_ns:.2} | {u32_ns:.2} | {range_ns:.2} | {f16:.2} | {:.0} |",
        (1u64 << 20) as f64 / f1m * 1e9 / 1e6
    );
}

fn main() {
    println!("kernel {}", shakerand::kernel());
    println!("| generator | next_u64 ns | next_u32 ns | random_range(0..100) ns | fill 16 B ns | fill 1 MiB MB/s |");
    println!("|---|---|---|---|---|---|");
    row("shakerand::rng()", &mut shakerand::rng());
    row("rand::rng() (ChaCha12)", &mut rand::rng());
    row(
        "rand::rngs::StdRng",
        &mut rand::rngs::StdRng::from_rng(&mut rand::rng()),
    );
}
