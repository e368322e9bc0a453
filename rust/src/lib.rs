// SPDX-License-Identifier: MIT OR Apache-2.0
//! Cryptographically secure random numbers from the shakerand C core, for
//! [`rand`](https://docs.rs/rand) 0.10.
//!
//! * [`rng()`] is this thread's system generator: a ChaCha8 generator per
//!   thread, seeded from the operating system (with the CPU's random
//!   instruction mixed in, never alone), reseeded on a byte and time
//!   budget, after `fork` (also a raw `clone` or `vfork`-free fork the C
//!   library never saw) and after a VM snapshot restore where the
//!   hypervisor says so, its key erased as it goes and its output zeroed
//!   as it is handed out. It implements [`rand_core::Rng`] and
//!   [`rand_core::CryptoRng`], so every `rand` distribution, `shuffle` and
//!   `sample` takes it.
//!   Its words and small fills are read from the thread's made-ahead
//!   output without a call into the C core (on Windows, macOS and big-endian
//!   hosts, each is a call: [`inlined`] says which).
//! * [`Engine`] is a seeded, reproducible stream of one of four [`Kind`]s,
//!   byte for byte the C, C++, Go, Java, JavaScript and Python ones for the
//!   same seed; [`ChaCha8Rand`] is its 32-byte-seed kind as rand's
//!   `SeedableRng`.
//! * Samplers equal to the other languages' for the same stream:
//!   [`below_u64`], big bounds by RNG-BC-1 and the other [`Method`]s
//!   ([`below_bytes`]), UUID v4 and v7 ([`uuid_v4`], [`uuid_v7`]).
//!
//! # Features
//! * `uuid`: `shakerand::uuid::new_v4` and `now_v7` return the
//!   `uuid` crate's `Uuid`.
//! * `num-bigint`: `Engine::below_biguint` and `below_biguint` take and
//!   return a `num_bigint::BigUint`.
//! * `getrandom`: `getrandom_backend!()`, a back end for getrandom 0.4, so
//!   that every `getrandom::fill` in the program (rand's `SysRng`, the
//!   `uuid` crate, crates that seed hash maps through getrandom) is served
//!   by the calling thread's system generator. The program invokes the
//!   macro once in its `main.rs` and turns on getrandom's custom back-end
//!   switch in its `.cargo/config.toml`:
//!   ```toml
//!   [build]
//!   rustflags = ['--cfg', 'getrandom_backend="custom"']
//!   ```
//!   The feature alone changes nothing, so a library may turn it on; only a
//!   program invokes the macro. The core seeds from the operating system
//!   itself, never through getrandom, so this cannot recurse. getrandom 0.3
//!   calls a function of the same name but is not tested here.
//!
//! # Failures
//! A thread's first draw seeds its generator from the operating system.
//! If that fails (no entropy, no memory for the state), the calls that
//! cannot return an error (`next_u64`, `next_u32`, the system samplers
//! `below_u64`, `below_bytes`, `uuid_v4`, `uuid_v7`) end the process through
//! the core's fatal handler rather than hand out weak output, and
//! `fill_bytes` panics; [`init`] and [`fill`] return the error instead, so a
//! program that must survive it calls [`init`] first on each thread. The
//! `Result`s of the samplers are for bad arguments.
//!
//! ```
//! use rand::RngExt;
//! let mut rng = shakerand::rng();
//! let roll = rng.random_range(1..=6);
//! assert!((1..=6).contains(&roll));
//!
//! let mut engine = shakerand::Engine::new(shakerand::Kind::ChaCha8Rand, b"ABCDEFGHIJKLMNOPQRSTUVWXYZ123456").unwrap();
//! use rand_core::Rng;
//! assert_eq!(engine.next_u64(), 0xb773b6063d4616a5); // Go's math/rand/v2 ChaCha8, C2SP's vector
//! ```
#![deny(missing_docs)]

// What is where: a module for each concept, whose own comment names the
// core's file it stands for.
// - ffi: the core's functions (include/shakerand.h) and its engine state.
// - take: the inlined take, include/shakerand.h's
//   shakerand_system_take_inline_ in Rust, with its unit tests in take/.
// - system: SystemRng and rng(), init, reseed, new_epoch, fill.
// - engine: Kind, Engine and ChaCha8Rand.
// - samplers: Method, below_*, uuid_v4 and uuid_v7, for the engines'
//   methods and the system generator.
// - error: Error, the core's status codes.
// - info: version and kernel.
// - uuid (feature uuid): the samplers' UUIDs as uuid::Uuid.
// - getrandom_backend (feature getrandom): getrandom_backend!() and what
//   it expands to calls.
mod engine;
mod error;
mod ffi;
#[cfg(feature = "getrandom")]
mod getrandom_backend;
mod info;
mod samplers;
mod system;
mod take;
#[cfg(feature = "uuid")]
pub mod uuid;

pub use engine::{ChaCha8Rand, Engine, Kind};
pub use error::Error;
#[cfg(feature = "getrandom")]
pub use getrandom_backend::__private;
pub use info::{kernel, version};
#[cfg(feature = "num-bigint")]
pub use samplers::below_biguint;
pub use samplers::{below_bytes, below_bytes_with, below_u64, uuid_v4, uuid_v7, Method};
pub use system::{fill, init, inlined, new_epoch, reseed, rng, SystemRng};
