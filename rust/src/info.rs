// SPDX-License-Identifier: MIT OR Apache-2.0
//! What the core says about itself (src/util.c): its version and the
//! kernel it chose.

use crate::ffi;

/// The core's version, `X.Y.Z`.
pub fn version() -> &'static str {
    // SAFETY: no arguments; a static string.
    ffi::static_str(unsafe { ffi::shakerand_version() })
}

/// The kernel the core chose for this CPU (`"avx512"`, `"avx2"`, `"neon"`,
/// `"portable"`, …; `SHAKERAND_KERNEL` in the environment can force one).
pub fn kernel() -> &'static str {
    // SAFETY: no arguments; a static string.
    ffi::static_str(unsafe { ffi::shakerand_kernel_name() })
}
