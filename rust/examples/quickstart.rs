// SPDX-License-Identifier: MIT OR Apache-2.0
//! shakerand with rand: dice, a shuffle, a token, a UUID, and a seeded
//! stream that every other language reproduces.
use rand::seq::SliceRandom;
use rand::RngExt;
use rand_core::Rng;

fn main() {
    let mut rng = shakerand::rng();
    let dice: Vec<u32> = (0..5).map(|_| rng.random_range(1..=6)).collect();
    let mut deck: Vec<u8> = (1..=10).collect();
    deck.shuffle(&mut rng);
    let mut token = [0u8; 16];
    rng.fill_bytes(&mut token);
    let uuid = shakerand::uuid_v4();
    println!("dice {dice:?}, deck {deck:?}");
    println!(
        "token {}",
        token.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    println!(
        "uuid {}",
        uuid.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    let mut seeded = shakerand::Engine::new(
        shakerand::Kind::ChaCha8Rand,
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZ123456",
    )
    .expect("a 32-byte seed");
    println!("seeded chacha8rand: {:016x}", seeded.next_u64()); // b773b6063d4616a5 in every language
}
