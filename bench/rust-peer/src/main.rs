// SPDX-License-Identifier: MIT OR Apache-2.0
//! Rust's default secure generator, `rand::rng()` (ChaCha12, reseeding,
//! thread-local), timed for `make bench` the way bench/shakerand_bench.cpp
//! times every other generator: best of 5 runs of at least 0.2 s each.
//! Prints one line, `fill_1m_mbs=.. fill_64_mbs=.. fill_16_mbs=.. u64_ns=.. u32_ns=..`
//! (MB/s is 10^6 bytes per second).
use rand::RngCore;
use std::hint::black_box;
use std::time::Instant;

/// Seconds per call of `op`, best of 5 runs of at least 0.2 s.
fn time_per_call(mut op: impl FnMut()) -> f64 {
    let mut best = f64::INFINITY;
    let mut calls: u64 = 1;
    for _ in 0..5 {
        loop {
            let start = Instant::now();
            for _ in 0..calls {
                op();
            }
            let t = start.elapsed().as_secs_f64();
            if t >= 0.2 {
                best = best.min(t / calls as f64);
                break;
            }
            calls = if t > 0.0 { (calls as f64 * 1.5 * 0.2 / t) as u64 + 1 } else { calls * 10 };
        }
    }
    best
}

fn main() {
    // One handle, used in a loop, as a caller holding `rand::rng()` would.
    let mut rng = rand::rng();
    let mut buf = vec![0u8; 1 << 20];
    let mut fill_mbs = |len: usize| {
        let t = time_per_call(|| {
            rng.fill_bytes(black_box(&mut buf[..len]));
        });
        len as f64 / t / 1e6
    };
    let (mbs_1m, mbs_64, mbs_16) = (fill_mbs(1 << 20), fill_mbs(64), fill_mbs(16));
    let ns_u64 = 1e9 * time_per_call(|| {
        black_box(rng.next_u64());
    });
    let ns_u32 = 1e9 * time_per_call(|| {
        black_box(rng.next_u32());
    });
    println!(
        "fill_1m_mbs={mbs_1m:.1} fill_64_mbs={mbs_64:.1} fill_16_mbs={mbs_16:.1} u64_ns={ns_u64:.3} u32_ns={ns_u32:.3}"
    );
}
