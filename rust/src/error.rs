// SPDX-License-Identifier: MIT OR Apache-2.0
//! The core's failures as a Rust error.

use core::fmt;
use std::os::raw::c_int;

use crate::ffi;

/// A failure the core reports: a bad argument, or no entropy or memory for
/// a thread's first seed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Error {
    status: c_int,
}

impl Error {
    /// `Ok` for the core's `SHAKERAND_OK`, else its status as an `Error`.
    pub(crate) fn check(status: c_int) -> Result<(), Error> {
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
        let text = unsafe { ffi::shakerand_strerror(self.status) };
        f.write_str(ffi::static_str(text))
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "shakerand::Error({}: {})", self.status, self)
    }
}

impl std::error::Error for Error {}
