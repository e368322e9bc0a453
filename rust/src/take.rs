// SPDX-License-Identifier: MIT OR Apache-2.0
//! The inlined take: the system generator's made-ahead output read without
//! a call into the core. It is `shakerand_system_take_inline_` of
//! include/shakerand.h in Rust, step for step, and that header's comment
//! above `shakerand_system_view_get` states the protocol (docs/system.md,
//! "Inlined takes", gives its reasons); the comments here only say where
//! each step stands. The steps are numbered as the header's
//! `SHAKERAND_INLINE_STEP_FOR_TESTING(n)`.

use core::cell::Cell;
use core::ptr;
use core::sync::atomic::{compiler_fence, AtomicI32, AtomicU64, Ordering};
use std::os::raw::c_int;

// The header's SHAKERAND_SYSTEM_VIEW_LAYOUT, _AHEAD_OFFSET and _TAKE_MAX.
const LAYOUT: u32 = 1;
const AHEAD_OFFSET: usize = 128;
/// The largest take: larger requests go to the core's bulk path.
pub const TAKE_MAX: usize = 768;

/// The header's `shakerand_system_view_state`.
#[repr(C)]
struct State {
    epoch: u64,
    vm_generation: u64,
    cursor: usize,
    fast_end: usize,
}

/// The header's `shakerand_system_view_thread`. The C `int` marker is read
/// and written as an atomic of its size: with the compiler fences, the
/// order a signal handler on this thread sees.
#[repr(C)]
struct Thread {
    state: *mut State,
    inside: AtomicI32,
}

const _: () = assert!(core::mem::size_of::<AtomicI32>() == core::mem::size_of::<c_int>());

/// The header's `shakerand_system_view`: a thread's words, or a null
/// `thread` where the core shares none (every value then comes from a
/// call). Raw pointers: neither `Send` nor `Sync`, as the thread's words
/// are this thread's.
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
        // Mark the thread inside the generator, unless a handler
        // interrupted a draw of this thread, which then is a call.
        let inside = &(*t).inside;
        if inside.load(Ordering::Relaxed) != 0 {
            return false;
        }
        inside.store(1, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        step(0);
        // The thread's state, null until its first draw.
        let s = ptr::read_volatile(ptr::addr_of!((*t).state));
        let mut done = false;
        if !s.is_null() {
            let c = (*s).cursor;
            // What is left before fast_end: none if the cursor is past it
            // (a state whose fast path is closed), as the header's
            // `c <= end && n <= end - c`.
            let room = (*s).fast_end.saturating_sub(c);
            if n <= room {
                // Advance the cursor, then copy the n bytes at
                // AHEAD_OFFSET + the old cursor and zero them there.
                (*s).cursor = c + n;
                compiler_fence(Ordering::SeqCst);
                step(1);
                let src = s.cast::<u8>().add(AHEAD_OFFSET + c);
                ptr::copy_nonoverlapping(src, out, n);
                step(2);
                ptr::write_bytes(src, 0, n);
                compiler_fence(Ordering::SeqCst);
                step(3);
                // The take counts only if neither the process's epoch nor
                // the VM generation moved since the state was seeded (an
                // atomic load of the epoch: any thread's new_epoch stores
                // it).
                let epoch = (*epoch_word.cast::<AtomicU64>()).load(Ordering::Relaxed);
                let vm = ptr::read_volatile(vm_word);
                done = (((*s).epoch ^ epoch) | ((*s).vm_generation ^ vm)) == 0;
            }
        }
        // Leave the generator.
        compiler_fence(Ordering::SeqCst);
        step(4);
        inside.store(0, Ordering::Relaxed);
        done
    }
}

/// The take against the core's own state, step by step.
#[cfg(all(test, unix, target_endian = "little"))]
mod tests;
