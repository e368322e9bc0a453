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

use core::convert::Infallible;
use core::fmt;
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
        pub fn shakerand_system_new_epoch();
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

/// The core's made-ahead output, read without a call (the header's
/// `shakerand_system_view_get` states the protocol, which is the core's own
/// fast path step for step).
mod view {
    use core::cell::Cell;
    use core::ptr;
    use core::sync::atomic::{compiler_fence, AtomicI32, AtomicU64, Ordering};
    use std::os::raw::c_int;

    const LAYOUT: u32 = 1;
    const AHEAD_OFFSET: usize = 128;
    /// The largest take: larger requests go to the core's bulk path.
    pub const TAKE_MAX: usize = 768;

    #[repr(C)]
    struct State {
        epoch: u64,
        vm_generation: u64,
        cursor: usize,
        fast_end: usize,
    }

    /// The C `int` marker is read and written as an atomic of its size:
    /// with the compiler fences, the order a signal handler on this
    /// thread sees.
    #[repr(C)]
    struct Thread {
        state: *mut State,
        inside: AtomicI32,
    }

    const _: () = assert!(core::mem::size_of::<AtomicI32>() == core::mem::size_of::<c_int>());

    /// A thread's words, or a null `thread` where the core shares none
    /// (every value then comes from a call). Raw pointers: neither `Send`
    /// nor `Sync`, as the thread's words are this thread's.
    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct View {
        thread: *mut Thread,
        epoch: *const u64,
        vm_generation: *const u64,
    }

    extern "C" {
        fn shakerand_system_view_get(view: *mut View, layout: u32) -> c_int;
    }

    const NONE: View = View {
        thread: ptr::null_mut(),
        epoch: ptr::null(),
        vm_generation: ptr::null(),
    };

    thread_local! {
        // Asked once per thread: the view is stored before the flag that
        // says it is there. No destructor, so a handle can be made from
        // another thread-local's destructor too.
        static THIS_THREAD: Cell<View> = const { Cell::new(NONE) };
        static ASKED: Cell<bool> = const { Cell::new(false) };
    }

    // In the unit tests, a function run at each step of a take, as a
    // signal handler landing there would run.
    #[cfg(test)]
    thread_local! {
        pub(crate) static STEP: Cell<Option<fn(u32)>> = const { Cell::new(None) };
    }

    #[inline(always)]
    fn step(_at: u32) {
        #[cfg(test)]
        if let Some(f) = STEP.with(Cell::get) {
            f(_at);
        }
    }

    impl View {
        /// The calling thread's words.
        #[inline]
        pub fn of_this_thread() -> View {
            if ASKED.with(Cell::get) {
                return THIS_THREAD.with(Cell::get);
            }
            let mut view = NONE;
            // SAFETY: view is writable; on failure it is untouched.
            if unsafe { shakerand_system_view_get(&mut view, LAYOUT) } != 0 {
                view = NONE;
            }
            THIS_THREAD.with(|cell| cell.set(view));
            compiler_fence(Ordering::SeqCst);
            ASKED.with(|asked| asked.set(true));
            view
        }

        /// Whether the core shares its words here (not on Windows, macOS or
        /// a big-endian host).
        pub fn is_shared(&self) -> bool {
            !self.thread.is_null()
        }

        /// `n <= TAKE_MAX` bytes of the thread's made-ahead output into
        /// `out`, zeroed there as they are taken; false if the core must
        /// serve them (`out` may then hold bytes to be overwritten).
        ///
        /// # Safety
        /// `out` is valid for `n` bytes, and the view is the calling
        /// thread's.
        #[inline(always)]
        pub unsafe fn take(&self, out: *mut u8, n: usize) -> bool {
            // Copied before the first fence, which would otherwise make the
            // compiler load them again from a handle whose address escaped.
            let View {
                thread: t,
                epoch: epoch_word,
                vm_generation: vm_word,
            } = *self;
            if t.is_null() {
                return false;
            }
            let inside = &(*t).inside;
            if inside.load(Ordering::Relaxed) != 0 {
                return false; // a handler interrupted a draw of this thread
            }
            inside.store(1, Ordering::Relaxed);
            compiler_fence(Ordering::SeqCst);
            step(0);
            let s = ptr::read_volatile(ptr::addr_of!((*t).state));
            let mut done = false;
            if !s.is_null() {
                let c = (*s).cursor;
                // What is left before fast_end: none if the cursor is past it
                // (a state whose fast path is closed).
                let room = (*s).fast_end.saturating_sub(c);
                if n <= room {
                    (*s).cursor = c + n;
                    compiler_fence(Ordering::SeqCst);
                    step(1);
                    let src = s.cast::<u8>().add(AHEAD_OFFSET + c);
                    ptr::copy_nonoverlapping(src, out, n);
                    step(2);
                    ptr::write_bytes(src, 0, n);
                    compiler_fence(Ordering::SeqCst);
                    step(3);
                    let epoch = (*epoch_word.cast::<AtomicU64>()).load(Ordering::Relaxed);
                    let vm = ptr::read_volatile(vm_word);
                    done = (((*s).epoch ^ epoch) | ((*s).vm_generation ^ vm)) == 0;
                }
            }
            compiler_fence(Ordering::SeqCst);
            step(4);
            inside.store(0, Ordering::Relaxed);
            done
        }
    }

    /// The take against the core's own state, step by step.
    #[cfg(all(test, unix, target_endian = "little"))]
    mod tests {
        use super::*;

        extern "C" {
            fn shakerand_system_u64() -> u64;
            fn shakerand_system_new_epoch();
        }

        /// One test at a time: a new epoch is the whole process's.
        fn serial() -> std::sync::MutexGuard<'static, ()> {
            static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
            SERIAL.lock().unwrap_or_else(|e| e.into_inner())
        }

        /// This thread's view and state, seeded, with at least n bytes made
        /// ahead for takes.
        fn ready(n: usize) -> (View, *mut State) {
            let view = View::of_this_thread();
            assert!(view.is_shared());
            loop {
                // SAFETY: the calls take no arguments; the pointers are the
                // core's for this thread.
                unsafe {
                    let _ = shakerand_system_u64();
                    let s = (*view.thread).state;
                    assert!(!s.is_null());
                    if (*s).fast_end >= (*s).cursor + n {
                        return (view, s);
                    }
                }
            }
        }

        fn made_ahead(s: *mut State, n: usize) -> Vec<u8> {
            // SAFETY: the state's made-ahead bytes from its cursor, which
            // ready() found to hold n more.
            unsafe {
                let start = s.cast::<u8>().add(AHEAD_OFFSET + (*s).cursor);
                core::slice::from_raw_parts(start, n).to_vec()
            }
        }

        #[test]
        fn a_take_hands_out_the_bytes_made_ahead_and_zeroes_them() {
            let _serial = serial();
            let (view, s) = ready(24);
            // SAFETY: this thread's state and view.
            unsafe {
                let cursor = (*s).cursor;
                let expected = made_ahead(s, 24);
                assert_ne!(expected, [0u8; 24]);
                let mut out = [0u8; 24];
                assert!(view.take(out.as_mut_ptr(), 24));
                assert_eq!(out[..], expected[..]);
                assert_eq!((*s).cursor, cursor + 24);
                let there = s.cast::<u8>().add(AHEAD_OFFSET + cursor);
                assert_eq!(core::slice::from_raw_parts(there, 24), [0u8; 24]);
            }
        }

        #[test]
        fn a_new_epoch_makes_a_take_not_count_and_the_core_reseeds() {
            let _serial = serial();
            let (view, s) = ready(16);
            // SAFETY: this thread's state and view.
            unsafe {
                let next = made_ahead(s, 8);
                shakerand_system_new_epoch();
                let mut out = [0u8; 8];
                assert!(!view.take(out.as_mut_ptr(), 8));
                let word = shakerand_system_u64().to_le_bytes();
                assert_ne!(word[..], next[..]);
                assert_eq!((*s).epoch, *view.epoch);
                assert!(view.take(out.as_mut_ptr(), 8) || (*s).fast_end < (*s).cursor + 8);
            }
        }

        #[test]
        fn a_changed_vm_generation_makes_a_take_not_count() {
            let _serial = serial();
            let (view, s) = ready(16);
            // SAFETY: this thread's state and view; the counter outlives
            // the takes.
            unsafe {
                let restored = (*s).vm_generation.wrapping_add(1);
                let after_a_restore = View {
                    vm_generation: &restored,
                    ..view
                };
                let mut out = [0u8; 8];
                assert!(!after_a_restore.take(out.as_mut_ptr(), 8));
                let (view, _) = ready(8);
                assert!(view.take(out.as_mut_ptr(), 8));
            }
        }

        #[test]
        fn nothing_is_taken_where_the_fast_path_is_closed() {
            let _serial = serial();
            let (view, s) = ready(16);
            // SAFETY: this thread's state and view, restored before the
            // next call into the core.
            unsafe {
                // A state without WIPEONFORK: fast_end 0, the cursor above it.
                let (cursor, fast_end) = ((*s).cursor, (*s).fast_end);
                assert!(cursor > 0);
                (*s).fast_end = 0;
                let mut out = [0u8; 8];
                assert!(!view.take(out.as_mut_ptr(), 8));
                assert_eq!((*s).cursor, cursor);
                (*s).fast_end = fast_end;
            }
        }

        thread_local! {
            static FIRE_AT: Cell<Option<u32>> = const { Cell::new(None) };
            static HANDLER_WORDS: core::cell::RefCell<Vec<u64>> =
                const { core::cell::RefCell::new(Vec::new()) };
        }

        /// What a signal handler landing at a step draws: enough words that
        /// the core would make its output again in place, were the handler
        /// let into the state the interrupted take is using.
        fn handler(at: u32) {
            if FIRE_AT.with(Cell::get) != Some(at) {
                return;
            }
            FIRE_AT.with(|f| f.set(None));
            let mut rng = crate::rng();
            let words: Vec<u64> = (0..400)
                .map(|_| rand_core::Rng::next_u64(&mut rng))
                .collect();
            HANDLER_WORDS.with(|w| w.borrow_mut().extend(words));
        }

        #[test]
        fn a_handler_at_any_step_neither_disturbs_nor_repeats_the_take() {
            let _serial = serial();
            for at in 0..5 {
                let _ = ready(16);
                HANDLER_WORDS.with(|w| w.borrow_mut().clear());
                FIRE_AT.with(|f| f.set(Some(at)));
                STEP.with(|s| s.set(Some(handler)));
                let mut rng = crate::rng();
                let taken = rand_core::Rng::next_u64(&mut rng);
                STEP.with(|s| s.set(None));
                assert_eq!(FIRE_AT.with(Cell::get), None, "no handler at step {at}");
                let mut words = HANDLER_WORDS.with(|w| w.borrow().clone());
                assert_eq!(words.len(), 400);
                words.push(taken);
                // Past the whole output made ahead: a byte handed out twice
                // would show.
                words.extend((0..800).map(|_| rand_core::Rng::next_u64(&mut rng)));
                let distinct: std::collections::HashSet<_> = words.iter().collect();
                assert_eq!(distinct.len(), words.len(), "a word twice, step {at}");
                assert!(!words.contains(&0), "a zeroed word handed out, step {at}");
            }
        }

        #[test]
        fn nothing_is_taken_inside_the_generator_or_past_fast_end() {
            let _serial = serial();
            let (view, s) = ready(16);
            // SAFETY: this thread's state and view, restored before the
            // next call into the core.
            unsafe {
                let cursor = (*s).cursor;
                let mut out = [0u8; 8];
                (*view.thread).inside.store(1, Ordering::Relaxed);
                assert!(!view.take(out.as_mut_ptr(), 8));
                (*view.thread).inside.store(0, Ordering::Relaxed);
                let fast_end = (*s).fast_end;
                (*s).fast_end = cursor + 7;
                assert!(!view.take(out.as_mut_ptr(), 8));
                (*s).fast_end = fast_end;
                assert_eq!((*s).cursor, cursor);
                assert_eq!(out, [0u8; 8]);
            }
        }
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
        draw_below_u64(&mut *self.state, n)
    }

    /// Uniform in `[0, r)` for a bound of any size given as big-endian
    /// bytes, by RNG-BC-1 (the result has `r`'s length). An empty or zero
    /// bound is an error.
    pub fn below_bytes(&mut self, r: &[u8]) -> Result<Vec<u8>, Error> {
        draw_below_bytes(&mut *self.state, Method::RngBc1, r)
    }

    /// [`Engine::below_bytes`] by the given method.
    pub fn below_bytes_with(&mut self, method: Method, r: &[u8]) -> Result<Vec<u8>, Error> {
        draw_below_bytes(&mut *self.state, method, r)
    }

    /// Uniform in `[0, r)` by RNG-BC-1, for a `num-bigint` bound (the
    /// `num-bigint` feature); the same draws as [`Engine::below_bytes`] of
    /// `r`'s big-endian bytes.
    #[cfg(feature = "num-bigint")]
    pub fn below_biguint(&mut self, r: &num_bigint::BigUint) -> Result<num_bigint::BigUint, Error> {
        draw_below_biguint(&mut *self.state, r)
    }

    /// A version 4 UUID (RFC 9562), 16 bytes in network order.
    pub fn uuid_v4(&mut self) -> [u8; 16] {
        make_uuid(&mut *self.state, ffi::shakerand_uuid4)
    }
}

/// How a bound of any size is met without bias (docs/samplers.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// RNG-BC-1: Optimized Simple Discard, bit by bit (the default).
    RngBc1,
    /// RNG-BC-8: the same, a byte at a time.
    RngBc8,
    /// NIST SP 800-90A Rev. 1, A.5.1.
    SimpleDiscard,
    /// NIST SP 800-90A Rev. 1, A.5.3 with s = 128 (bias below 2^-128). Its
    /// reduction takes time quadratic in the bound's length (about 60 ms
    /// for an 8 KiB bound): for the sizes of cryptographic moduli.
    SimpleModular,
}

impl Method {
    fn c(self) -> c_int {
        match self {
            Method::RngBc1 => 1,
            Method::RngBc8 => 2,
            Method::SimpleDiscard => 3,
            Method::SimpleModular => 4,
        }
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

/// A handle to the calling thread's system generator (see the crate's
/// documentation). Not `Send`: it stands for this thread's generator,
/// whose made-ahead output it reads without a call into the core.
#[derive(Clone)]
pub struct SystemRng {
    view: view::View,
}

impl Default for SystemRng {
    fn default() -> SystemRng {
        rng()
    }
}

impl fmt::Debug for SystemRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SystemRng")
    }
}

/// This thread's system generator. Its first use on a thread seeds it; if
/// the operating system gives no entropy then, the draw ends the process
/// rather than hand out weak output (the crate's documentation,
/// "Failures"; [`init`] reports it as an error instead).
///
/// The handle stands for this thread's generator, so it cannot be sent to
/// another thread:
/// ```compile_fail
/// let rng = shakerand::rng();
/// std::thread::spawn(move || drop(rng));
/// ```
pub fn rng() -> SystemRng {
    SystemRng {
        view: view::View::of_this_thread(),
    }
}

/// Whether [`SystemRng`] reads the core's made-ahead output without a call
/// on this platform (not on Windows, macOS or big-endian hosts, where every value
/// is a call into the core). The output is the same either way.
pub fn inlined() -> bool {
    rng().view.is_shared()
}

/// Seeds the calling thread's system generator now: `Err` if the operating
/// system gave no entropy or no memory could be had for its state.
pub fn init() -> Result<(), Error> {
    // SAFETY: no arguments.
    Error::check(unsafe { ffi::shakerand_system_init() })
}

/// Starts a new epoch: every thread's system generator seeds again before
/// it hands out another byte. For a restore hook (a process or VM restored
/// from a snapshot, perhaps many times) where the hypervisor's VM
/// generation counter is not watched (docs/system.md, "Snapshots and
/// clones"). Async-signal-safe.
pub fn new_epoch() {
    // SAFETY: no arguments.
    unsafe { ffi::shakerand_system_new_epoch() }
}

/// Reseeds the calling thread's system generator from fresh entropy now.
pub fn reseed() -> Result<(), Error> {
    // SAFETY: no arguments.
    Error::check(unsafe { ffi::shakerand_system_reseed() })
}

/// Fills `dst` from the calling thread's system generator.
pub fn fill(dst: &mut [u8]) -> Result<(), Error> {
    rng().fill(dst)
}

/// Uniform in `[0, n)` from the system generator; `n == 0` is an error.
pub fn below_u64(n: u64) -> Result<u64, Error> {
    draw_below_u64(core::ptr::null_mut(), n)
}

/// Uniform in `[0, r)` from the system generator, for a bound of any size
/// given as big-endian bytes (RNG-BC-1).
pub fn below_bytes(r: &[u8]) -> Result<Vec<u8>, Error> {
    draw_below_bytes(core::ptr::null_mut(), Method::RngBc1, r)
}

/// [`below_bytes`] by the given method.
pub fn below_bytes_with(method: Method, r: &[u8]) -> Result<Vec<u8>, Error> {
    draw_below_bytes(core::ptr::null_mut(), method, r)
}

/// Uniform in `[0, r)` from the system generator by RNG-BC-1, for a
/// `num-bigint` bound (the `num-bigint` feature).
#[cfg(feature = "num-bigint")]
pub fn below_biguint(r: &num_bigint::BigUint) -> Result<num_bigint::BigUint, Error> {
    draw_below_biguint(core::ptr::null_mut(), r)
}

/// A version 4 UUID from the system generator.
pub fn uuid_v4() -> [u8; 16] {
    make_uuid(core::ptr::null_mut(), ffi::shakerand_uuid4)
}

/// A version 7 UUID (Unix milliseconds, a counter, random bits), monotonic
/// within the process.
pub fn uuid_v7() -> [u8; 16] {
    make_uuid(core::ptr::null_mut(), ffi::shakerand_uuid7)
}

/// UUIDs as the `uuid` crate's type (the `uuid` feature), from the system
/// generator: drop-in for `Uuid::new_v4()` and `Uuid::now_v7()`.
#[cfg(feature = "uuid")]
pub mod uuid {
    /// [`crate::uuid_v4`] as a [`::uuid::Uuid`].
    pub fn new_v4() -> ::uuid::Uuid {
        ::uuid::Uuid::from_bytes(crate::uuid_v4())
    }

    /// [`crate::uuid_v7`] as a [`::uuid::Uuid`].
    pub fn now_v7() -> ::uuid::Uuid {
        ::uuid::Uuid::from_bytes(crate::uuid_v7())
    }
}

fn draw_below_u64(e: *mut ffi::EngineState, n: u64) -> Result<u64, Error> {
    let mut out = 0u64;
    // SAFETY: e is an engine's state or NULL (the system generator).
    Error::check(unsafe { ffi::shakerand_uniform_u64(e, n, &mut out) })?;
    Ok(out)
}

fn draw_below_bytes(e: *mut ffi::EngineState, method: Method, r: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; r.len()];
    // SAFETY: e is an engine's state or NULL; r and out are valid for r.len() bytes.
    Error::check(unsafe {
        ffi::shakerand_below(
            e,
            method.c(),
            r.as_ptr(),
            r.len(),
            out.as_mut_ptr(),
            core::ptr::null_mut(),
        )
    })?;
    Ok(out)
}

#[cfg(feature = "num-bigint")]
fn draw_below_biguint(
    e: *mut ffi::EngineState,
    r: &num_bigint::BigUint,
) -> Result<num_bigint::BigUint, Error> {
    let bound = r.to_bytes_be(); // [0] for zero, which the core refuses
    let out = draw_below_bytes(e, Method::RngBc1, &bound)?;
    Ok(num_bigint::BigUint::from_bytes_be(&out))
}

fn make_uuid(
    e: *mut ffi::EngineState,
    make: unsafe extern "C" fn(*mut ffi::EngineState, *mut u8),
) -> [u8; 16] {
    let mut out = [0u8; 16];
    // SAFETY: e is an engine's state or NULL; out holds 16 bytes.
    unsafe { make(e, out.as_mut_ptr()) };
    out
}

impl SystemRng {
    #[inline]
    fn fill(&self, dst: &mut [u8]) -> Result<(), Error> {
        // SAFETY: dst is valid for its length.
        unsafe { self.fill_raw(dst.as_mut_ptr(), dst.len()) }
    }

    /// # Safety
    /// `dst` is valid for writes of `n` bytes (which may be uninitialised).
    #[inline]
    unsafe fn fill_raw(&self, dst: *mut u8, n: usize) -> Result<(), Error> {
        // The view is this thread's: the handle is not Send.
        if n == 0 || (n <= view::TAKE_MAX && self.view.take(dst, n)) {
            return Ok(());
        }
        let status = Error::check(ffi::shakerand_system_try_fill(dst, n));
        if status.is_err() {
            // A take that did not count (a new epoch) may have written
            // bytes of the old one: none of them may reach the caller.
            core::ptr::write_bytes(dst, 0, n);
        }
        status
    }
}

/// Defines getrandom's custom back end in the program that invokes it, so
/// that every `getrandom::fill` of the program is served by the calling
/// thread's system generator (the crate's documentation, "Features"). For
/// the program's root crate only (`main.rs`), once; getrandom calls it when
/// the program is built with `--cfg getrandom_backend="custom"`. Needs the
/// `getrandom` feature.
///
/// ```ignore
/// shakerand::getrandom_backend!();
/// ```
#[cfg(feature = "getrandom")]
#[macro_export]
macro_rules! getrandom_backend {
    () => {
        #[unsafe(no_mangle)]
        unsafe extern "Rust" fn __getrandom_v03_custom(
            dest: *mut u8,
            len: usize,
        ) -> ::core::result::Result<(), $crate::__private::getrandom::Error> {
            // SAFETY: getrandom passes a buffer valid for len bytes.
            unsafe { $crate::__private::getrandom_fill(dest, len) }
        }
    };
}

/// What [`getrandom_backend!`] expands to calls; not an API.
#[cfg(feature = "getrandom")]
#[doc(hidden)]
pub mod __private {
    pub use getrandom;

    /// getrandom's custom back end: `len` bytes at `dest` (which may be
    /// uninitialised) from the system generator. The core seeds from the
    /// operating system itself, never through getrandom, so this cannot
    /// recurse.
    ///
    /// # Safety
    /// `dest` is valid for writes of `len` bytes.
    pub unsafe fn getrandom_fill(dest: *mut u8, len: usize) -> Result<(), getrandom::Error> {
        // SAFETY: as the caller promises.
        unsafe { crate::rng().fill_raw(dest, len) }
            .map_err(|e| getrandom::Error::new_custom(e.code().unsigned_abs() as u16))
    }
}

impl TryRng for SystemRng {
    type Error = Infallible;

    #[inline(always)]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        // SAFETY: b holds 4 bytes; the view is this thread's.
        if unsafe { self.view.take(b.as_mut_ptr(), 4) } {
            return Ok(u32::from_le_bytes(b));
        }
        // SAFETY: no arguments; a failed first seed ends the process in the core.
        Ok(unsafe { ffi::shakerand_system_u32() })
    }

    #[inline(always)]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        // SAFETY: b holds 8 bytes; the view is this thread's.
        if unsafe { self.view.take(b.as_mut_ptr(), 8) } {
            return Ok(u64::from_le_bytes(b));
        }
        // SAFETY: as above.
        Ok(unsafe { ffi::shakerand_system_u64() })
    }

    #[inline]
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        if let Err(e) = self.fill(dst) {
            panic!("shakerand: the system generator could not be seeded: {e}");
        }
        Ok(())
    }
}

impl TryCryptoRng for SystemRng {}
