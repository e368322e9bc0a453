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
//! * [`Engine`] is a seeded, reproducible stream of one of four [`Kind`]s,
//!   byte for byte the C, C++, Go, Java, JavaScript and Python ones for the
//!   same seed.
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

use core::convert::Infallible;
use core::fmt;
use core::marker::PhantomData;
use std::os::raw::{c_char, c_int};

use rand_core::{TryCryptoRng, TryRng};

mod ffi {
    use std::os::raw::{c_char, c_int};

    /// The C core's `shakerand_engine`: 4096 bytes aligned to 64.
    #[repr(C, align(64))]
    pub struct EngineState(pub [u8; 4096]);

    extern "C" {
        pub fn shakerand_engine_size() -> usize;
        pub fn shakerand_engine_init(
            e: *mut EngineState,
            kind: c_int,
            seed: *const u8,
            len: usize,
        ) -> c_int;
        pub fn shakerand_engine_fill(e: *mut EngineState, out: *mut u8, len: usize);
        pub fn shakerand_engine_u64(e: *mut EngineState) -> u64;
        pub fn shakerand_engine_u32(e: *mut EngineState) -> u32;
        pub fn shakerand_engine_wipe(e: *mut EngineState);
        pub fn shakerand_system_init() -> c_int;
        pub fn shakerand_system_try_fill(out: *mut u8, len: usize) -> c_int;
        pub fn shakerand_system_u64() -> u64;
        pub fn shakerand_system_u32() -> u32;
        pub fn shakerand_system_reseed() -> c_int;
        pub fn shakerand_uniform_u64(e: *mut EngineState, n: u64, out: *mut u64) -> c_int;
        pub fn shakerand_below(
            e: *mut EngineState,
            method: c_int,
            r: *const u8,
            r_len: usize,
            out: *mut u8,
            bits_drawn: *mut u64,
        ) -> c_int;
        pub fn shakerand_uuid4(e: *mut EngineState, uuid: *mut u8);
        pub fn shakerand_uuid7(e: *mut EngineState, uuid: *mut u8);
        pub fn shakerand_kind_seed_size(kind: c_int) -> usize;
        pub fn shakerand_strerror(status: c_int) -> *const c_char;
        pub fn shakerand_version() -> *const c_char;
        pub fn shakerand_kernel_name() -> *const c_char;
    }
}

fn c_str(p: *const c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: the core returns pointers to static NUL-terminated ASCII.
    unsafe { std::ffi::CStr::from_ptr(p) }
        .to_str()
        .unwrap_or("")
}

/// The core's version, `X.Y.Z`.
pub fn version() -> &'static str {
    // SAFETY: no arguments; a static string.
    c_str(unsafe { ffi::shakerand_version() })
}

/// The kernel the core chose for this CPU (`"avx512"`, `"avx2"`, `"neon"`,
/// `"portable"`, …; `SHAKERAND_KERNEL` in the environment can force one).
pub fn kernel() -> &'static str {
    // SAFETY: no arguments; a static string.
    c_str(unsafe { ffi::shakerand_kernel_name() })
}

/// A failure the core reports: a bad argument, or no entropy or memory for
/// a thread's first seed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Error {
    status: c_int,
}

impl Error {
    fn check(status: c_int) -> Result<(), Error> {
        if status == 0 {
            Ok(())
        } else {
            Err(Error { status })
        }
    }

    /// The C core's status code (`SHAKERAND_EINVAL` = -1, `SHAKERAND_ESTATE`
    /// = -2, `SHAKERAND_EENTROPY` = -3, `SHAKERAND_ENOMEM` = -4).
    pub fn code(&self) -> i32 {
        self.status
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SAFETY: any status; a static string.
        f.write_str(c_str(unsafe { ffi::shakerand_strerror(self.status) }))
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "shakerand::Error({}: {})", self.status, self)
    }
}

impl std::error::Error for Error {}

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
    /// An engine of `kind` seeded with `seed`. Fails for a ChaCha8Rand seed
    /// that is not 32 bytes.
    pub fn new(kind: Kind, seed: &[u8]) -> Result<Engine, Error> {
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
        draw_below_u64(&mut *self.state, n)
    }

    /// Uniform in `[0, r)` for a bound of any size given as big-endian
    /// bytes, by RNG-BC-1 (the result has `r`'s length). An empty or zero
    /// bound is an error.
    pub fn below_bytes(&mut self, r: &[u8]) -> Result<Vec<u8>, Error> {
        draw_below_bytes(&mut *self.state, r)
    }

    /// A version 4 UUID (RFC 9562), 16 bytes in network order.
    pub fn uuid_v4(&mut self) -> [u8; 16] {
        uuid(&mut *self.state, ffi::shakerand_uuid4)
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

/// A handle to the calling thread's system generator (see the crate's
/// documentation). Not `Send`: it stands for this thread's generator.
#[derive(Clone, Default)]
pub struct SystemRng {
    not_send: PhantomData<*const ()>,
}

impl fmt::Debug for SystemRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SystemRng")
    }
}

/// This thread's system generator. Its first use on a thread seeds it; if
/// the operating system gives no entropy then, the draw panics rather than
/// hand out weak output ([`init`] reports that as an error instead).
pub fn rng() -> SystemRng {
    SystemRng {
        not_send: PhantomData,
    }
}

/// Seeds the calling thread's system generator now: `Err` if the operating
/// system gave no entropy or no memory could be had for its state.
pub fn init() -> Result<(), Error> {
    // SAFETY: no arguments.
    Error::check(unsafe { ffi::shakerand_system_init() })
}

/// Reseeds the calling thread's system generator from fresh entropy now.
pub fn reseed() -> Result<(), Error> {
    // SAFETY: no arguments.
    Error::check(unsafe { ffi::shakerand_system_reseed() })
}

/// Fills `dst` from the calling thread's system generator.
pub fn fill(dst: &mut [u8]) -> Result<(), Error> {
    // SAFETY: dst is valid for its length.
    Error::check(unsafe { ffi::shakerand_system_try_fill(dst.as_mut_ptr(), dst.len()) })
}

/// Uniform in `[0, n)` from the system generator; `n == 0` is an error.
pub fn below_u64(n: u64) -> Result<u64, Error> {
    draw_below_u64(core::ptr::null_mut(), n)
}

/// Uniform in `[0, r)` from the system generator, for a bound of any size
/// given as big-endian bytes (RNG-BC-1).
pub fn below_bytes(r: &[u8]) -> Result<Vec<u8>, Error> {
    draw_below_bytes(core::ptr::null_mut(), r)
}

/// A version 4 UUID from the system generator.
pub fn uuid_v4() -> [u8; 16] {
    uuid(core::ptr::null_mut(), ffi::shakerand_uuid4)
}

/// A version 7 UUID (Unix milliseconds, a counter, random bits), monotonic
/// within the process.
pub fn uuid_v7() -> [u8; 16] {
    uuid(core::ptr::null_mut(), ffi::shakerand_uuid7)
}

fn draw_below_u64(e: *mut ffi::EngineState, n: u64) -> Result<u64, Error> {
    let mut out = 0u64;
    // SAFETY: e is an engine's state or NULL (the system generator).
    Error::check(unsafe { ffi::shakerand_uniform_u64(e, n, &mut out) })?;
    Ok(out)
}

fn draw_below_bytes(e: *mut ffi::EngineState, r: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; r.len()];
    // SAFETY: e is an engine's state or NULL; r and out are valid for r.len() bytes.
    Error::check(unsafe {
        ffi::shakerand_below(
            e,
            1,
            r.as_ptr(),
            r.len(),
            out.as_mut_ptr(),
            core::ptr::null_mut(),
        )
    })?;
    Ok(out)
}

fn uuid(
    e: *mut ffi::EngineState,
    make: unsafe extern "C" fn(*mut ffi::EngineState, *mut u8),
) -> [u8; 16] {
    let mut out = [0u8; 16];
    // SAFETY: e is an engine's state or NULL; out holds 16 bytes.
    unsafe { make(e, out.as_mut_ptr()) };
    out
}

impl TryRng for SystemRng {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        // SAFETY: no arguments; a failed first seed ends the process in the core.
        Ok(unsafe { ffi::shakerand_system_u32() })
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        // SAFETY: as above.
        Ok(unsafe { ffi::shakerand_system_u64() })
    }

    #[inline]
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        if let Err(e) = fill(dst) {
            panic!("shakerand: the system generator could not be seeded: {e}");
        }
        Ok(())
    }
}

impl TryCryptoRng for SystemRng {}
