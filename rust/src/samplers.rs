// SPDX-License-Identifier: MIT OR Apache-2.0
//! The samplers (src/samplers.c, src/uuid.c), the same values as every
//! other language's for the same stream: an engine's through its methods,
//! the system generator's as the functions here.

use std::os::raw::c_int;

use crate::ffi;
use crate::Error;

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

// The core's samplers on an engine's state, or on the system generator
// where `e` is NULL.

pub(crate) fn draw_below_u64(e: *mut ffi::EngineState, n: u64) -> Result<u64, Error> {
    let mut out = 0u64;
    // SAFETY: e is an engine's state or NULL (the system generator).
    Error::check(unsafe { ffi::shakerand_uniform_u64(e, n, &mut out) })?;
    Ok(out)
}

pub(crate) fn draw_below_bytes(
    e: *mut ffi::EngineState,
    method: Method,
    r: &[u8],
) -> Result<Vec<u8>, Error> {
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
pub(crate) fn draw_below_biguint(
    e: *mut ffi::EngineState,
    r: &num_bigint::BigUint,
) -> Result<num_bigint::BigUint, Error> {
    let bound = r.to_bytes_be(); // [0] for zero, which the core refuses
    let out = draw_below_bytes(e, Method::RngBc1, &bound)?;
    Ok(num_bigint::BigUint::from_bytes_be(&out))
}

pub(crate) fn make_uuid(
    e: *mut ffi::EngineState,
    make: unsafe extern "C" fn(*mut ffi::EngineState, *mut u8),
) -> [u8; 16] {
    let mut out = [0u8; 16];
    // SAFETY: e is an engine's state or NULL; out holds 16 bytes.
    unsafe { make(e, out.as_mut_ptr()) };
    out
}
