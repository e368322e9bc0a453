// SPDX-License-Identifier: MIT OR Apache-2.0
//! The C core's functions as include/shakerand.h declares them, and its
//! engine state; the view the inlined take reads is declared with its
//! layout in `take`.

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

/// One of the core's static strings (a name, a version, an error's text).
pub fn static_str(p: *const c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: the core returns pointers to static NUL-terminated ASCII.
    unsafe { std::ffi::CStr::from_ptr(p) }
        .to_str()
        .unwrap_or("")
}
