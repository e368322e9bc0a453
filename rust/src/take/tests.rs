// SPDX-License-Identifier: MIT OR Apache-2.0
use super::*;
use crate::ffi::{shakerand_system_new_epoch, shakerand_system_u64};

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
