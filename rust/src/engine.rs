// SPDX-License-Identifier: MIT OR Apache-2.0
//! Seeded engines (src/engine.c): the kinds, [`Engine`] and
//! [`ChaCha8Rand`] as rand's `SeedableRng`.

use core::convert::Infallible;
use core::fmt;
use std::os::raw::c_int;

use rand_core::{TryCryptoRng, TryRng};

use crate::ffi;
use crate::samplers::{self, Method};
use crate::Error;

/// The engine kinds (docs/engines.md has their exact definitions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// TurboSHAKE256 (RFC 9861) of the seed, ratcheted: any seed length.
    TurboShake256,
    /// SHAKE256 (FIPS 202) of the seed, ratcheted: RandomSHAKE's stream.
    Shake256,
    /// Eight TurboSHAKE256 lanes, rekeyed from their own output.
    TurboShake256x8,
    /// C2SP chacha8rand: Go's `math/rand/v2` ChaCha8 for a 32-byte seed.
    ChaCha8Rand,
}

impl Kind {
    /// Every kind, in the core's table order.
    pub const ALL: [Kind; 4] = [
        Kind::TurboShake256,
        Kind::Shake256,
        Kind::TurboShake256x8,
        Kind::ChaCha8Rand,
    ];

    /// The kind's name as every front end spells it (`"chacha8rand"`, …).
    pub fn name(self) -> &'static str {
        match self {
            Kind::TurboShake256 => "turboshake256",
            Kind::Shake256 => "shake256",
            Kind::TurboShake256x8 => "turboshake256x8",
            Kind::ChaCha8Rand => "chacha8rand",
        }
    }

    /// The kind called `name`, if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The seed length the kind requires (32 for ChaCha8Rand), or `None` if
    /// it takes a seed of any length.
    pub fn seed_size(self) -> Option<usize> {
        // SAFETY: a valid kind.
        match unsafe { ffi::shakerand_kind_seed_size(self.c()) } {
            0 => None,
            n => Some(n),
        }
    }

    fn c(self) -> c_int {
        match self {
            Kind::TurboShake256 => 1,
            Kind::Shake256 => 2,
            Kind::TurboShake256x8 => 3,
            Kind::ChaCha8Rand => 4,
        }
    }
}

/// A seeded engine: the same stream for the same kind and seed in every
/// language. Its state (the key) is wiped when it is dropped. Not `Clone`,
/// so a stream is never handed out twice by accident.
pub struct Engine {
    state: Box<ffi::EngineState>,
    kind: Kind,
}

impl Engine {
    /// An engine of `kind` seeded with `seed`: bytes, or a `&str` or
    /// `String` as its UTF-8 bytes (docs/engines.md, "Seeds", the rule in
    /// every language). Fails for a ChaCha8Rand seed that is not 32 bytes.
    pub fn new(kind: Kind, seed: impl AsRef<[u8]>) -> Result<Engine, Error> {
        let seed = seed.as_ref();
        // SAFETY: no arguments.
        debug_assert_eq!(
            unsafe { ffi::shakerand_engine_size() },
            core::mem::size_of::<ffi::EngineState>()
        );
        let mut state = Box::new(ffi::EngineState([0; 4096]));
        // SAFETY: a 64-byte-aligned state of the core's size; seed is valid for its length.
        Error::check(unsafe {
            ffi::shakerand_engine_init(&mut *state, kind.c(), seed.as_ptr(), seed.len())
        })?;
        Ok(Engine { state, kind })
    }

    /// The engine's kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Uniform in `[0, n)`, unbiased (the core's sampler, the same values as
    /// every other language's for the same stream). `n == 0` is an error.
    pub fn below_u64(&mut self, n: u64) -> Result<u64, Error> {
        samplers::draw_below_u64(&mut *self.state, n)
    }

    /// Uniform in `[0, r)` for a bound of any size given as big-endian
    /// bytes, by RNG-BC-1 (the result has `r`'s length). An empty or zero
    /// bound is an error.
    pub fn below_bytes(&mut self, r: &[u8]) -> Result<Vec<u8>, Error> {
        samplers::draw_below_bytes(&mut *self.state, Method::RngBc1, r)
    }

    /// [`Engine::below_bytes`] by the given method.
    pub fn below_bytes_with(&mut self, method: Method, r: &[u8]) -> Result<Vec<u8>, Error> {
        samplers::draw_below_bytes(&mut *self.state, method, r)
    }

    /// Uniform in `[0, r)` by RNG-BC-1, for a `num-bigint` bound (the
    /// `num-bigint` feature); the same draws as [`Engine::below_bytes`] of
    /// `r`'s big-endian bytes.
    #[cfg(feature = "num-bigint")]
    pub fn below_biguint(&mut self, r: &num_bigint::BigUint) -> Result<num_bigint::BigUint, Error> {
        samplers::draw_below_biguint(&mut *self.state, r)
    }

    /// A version 4 UUID (RFC 9562), 16 bytes in network order.
    pub fn uuid_v4(&mut self) -> [u8; 16] {
        samplers::make_uuid(&mut *self.state, ffi::shakerand_uuid4)
    }
}

/// C2SP chacha8rand with a 32-byte seed, as rand's [`SeedableRng`]: Go's
/// `math/rand/v2` `ChaCha8`, and [`Engine`] of [`Kind::ChaCha8Rand`], which
/// it dereferences to (so rand_core's traits, by their `DerefMut` impls,
/// and the samplers).
///
/// [`SeedableRng`]: rand_core::SeedableRng
#[derive(Debug)]
pub struct ChaCha8Rand {
    engine: Engine,
}

impl rand_core::SeedableRng for ChaCha8Rand {
    type Seed = [u8; 32];

    fn from_seed(seed: [u8; 32]) -> ChaCha8Rand {
        let engine = Engine::new(Kind::ChaCha8Rand, seed.as_slice())
            .unwrap_or_else(|e| unreachable!("a 32-byte chacha8rand seed: {e}"));
        ChaCha8Rand { engine }
    }
}

impl core::ops::Deref for ChaCha8Rand {
    type Target = Engine;
    fn deref(&self) -> &Engine {
        &self.engine
    }
}

impl core::ops::DerefMut for ChaCha8Rand {
    fn deref_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: the engine's own state.
        unsafe { ffi::shakerand_engine_wipe(&mut *self.state) }
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl TryRng for Engine {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        // SAFETY: the engine's own state.
        Ok(unsafe { ffi::shakerand_engine_u32(&mut *self.state) })
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        // SAFETY: the engine's own state.
        Ok(unsafe { ffi::shakerand_engine_u64(&mut *self.state) })
    }

    #[inline]
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        // SAFETY: the engine's own state; dst is valid for its length.
        unsafe { ffi::shakerand_engine_fill(&mut *self.state, dst.as_mut_ptr(), dst.len()) };
        Ok(())
    }
}

impl TryCryptoRng for Engine {}
