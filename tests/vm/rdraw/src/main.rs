// SPDX-License-Identifier: MIT OR Apache-2.0
//! The Rust front end in tests/vm's guest, run by agent.c: says its kernel,
//! then for each line N on standard input writes N words of each channel in
//! this order, one per line in 16 hex digits (gdraw's protocol):
//! `shakerand::rng().next_u64()` (the inlined take from the thread's view)
//! and `getrandom::u64()`, which this program's `getrandom_backend!()`
//! serves from the same generator.

use std::io::{BufRead, Write};

use rand_core::Rng;

shakerand::getrandom_backend!();

fn main() {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    writeln!(out, "kernel={}", shakerand::kernel()).unwrap();
    out.flush().unwrap();
    let mut rng = shakerand::rng();
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let n: usize = match line.trim().parse() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("rdraw: want a count, got {line}");
                std::process::exit(2);
            }
        };
        for _ in 0..n {
            writeln!(out, "{:016x}", rng.next_u64()).unwrap();
        }
        for _ in 0..n {
            writeln!(out, "{:016x}", getrandom::u64().unwrap()).unwrap();
        }
        out.flush().unwrap();
    }
}
