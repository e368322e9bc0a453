// SPDX-License-Identifier: MIT OR Apache-2.0
//! getrandom's custom back end on the system generator (the `getrandom`
//! feature): the macro a program invokes, and what it expands to calls.

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
