// SPDX-License-Identifier: MIT OR Apache-2.0
//! The `getrandom` feature's back end, in a build with
//! `--cfg getrandom_backend="custom"` (rust/run-tests.sh makes one): that
//! build links only because the macro below defines getrandom's custom
//! symbol, so every `getrandom::fill` here is the system generator's.
#![cfg(all(feature = "getrandom", getrandom_backend = "custom"))]

use std::collections::HashSet;
shakerand::getrandom_backend!();

#[test]
fn a_thread_s_first_draw_through_getrandom_seeds_it_without_recursion() {
    // The thread's generator is seeded by this call; were the seed drawn
    // through getrandom, it would recurse until the stack ran out.
    let words = std::thread::spawn(|| {
        let mut b = [0u8; 16];
        getrandom::fill(&mut b).unwrap();
        b
    })
    .join()
    .unwrap();
    assert_ne!(words, [0u8; 16]);
}

#[test]
fn every_size_is_filled_and_nothing_repeats() {
    let mut seen = HashSet::new();
    for len in [1usize, 7, 16, 64, 767, 768, 769, 4096, 1 << 20] {
        let mut b = vec![0u8; len];
        getrandom::fill(&mut b).unwrap();
        if len >= 16 {
            assert!(b
                .chunks(16)
                .all(|c| c.len() < 16 || seen.insert(c.to_vec())));
        }
        assert!(len < 64 || b.iter().filter(|&&x| x == 0).count() < len / 16);
    }
    let a = getrandom::u64().unwrap();
    assert_ne!(a, getrandom::u64().unwrap());
    let mut empty = [];
    getrandom::fill(&mut empty).unwrap();
}

#[test]
fn rand_s_os_rng_is_served_too() {
    use rand::rngs::SysRng;
    use rand_core::TryRng;
    let mut os = SysRng;
    assert_ne!(os.try_next_u64().unwrap(), os.try_next_u64().unwrap());
}
