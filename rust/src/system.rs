// SPDX-License-Identifier: MIT OR Apache-2.0
//! The system generator (src/system.c): [`SystemRng`], the handle that
//! takes its words and small fills through the inlined take, and the
//! calls that seed, reseed and fill it.

use core::convert::Infallible;
use core::fmt;

use rand_core::{TryCryptoRng, TryRng};

use crate::ffi;
use crate::take;
use crate::Error;

/// A handle to the calling thread's system generator (see the crate's
/// documentation). Not `Send`: it stands for this thread's generator,
/// whose made-ahead output it reads without a call into the core.
#[derive(Clone)]
pub struct SystemRng {
    view: take::View,
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
        view: take::View::of_this_thread(),
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

impl SystemRng {
    #[inline]
    fn fill(&self, dst: &mut [u8]) -> Result<(), Error> {
        // SAFETY: dst is valid for its length.
        unsafe { self.fill_raw(dst.as_mut_ptr(), dst.len()) }
    }

    /// # Safety
    /// `dst` is valid for writes of `n` bytes (which may be uninitialised).
    #[inline]
    pub(crate) unsafe fn fill_raw(&self, dst: *mut u8, n: usize) -> Result<(), Error> {
        // The view is this thread's: the handle is not Send.
        if n == 0 || (n <= take::TAKE_MAX && self.view.take(dst, n)) {
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
