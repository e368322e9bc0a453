// SPDX-License-Identifier: MIT OR Apache-2.0
//! The system generator through Rust: threads, fork (libc's and a raw
//! system call the C library never saw), a signal handler drawing while the
//! thread it interrupted draws, and rand's distributions on it.
use rand::seq::SliceRandom;
use rand::RngExt;
use rand_core::Rng;
use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard};

/// One test at a time: the signal test needs 200 handler draws within its
/// loop, and the other tests' threads starve it of the CPU (run in parallel
/// on 2 cores, 8 of 557 runs fell short, with 112 to 185). The raw clone's
/// child once hung here too, on the entropy sources' lock a seeding thread
/// of another test held (gdb); the core now makes its locks anew in such a
/// child (docs/system.md, the library's locks); besides its draw, that
/// child only writes to a pipe and exits.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn threads_get_distinct_words() {
    let _serial = serial();
    let words: Vec<u64> = (0..8)
        .map(|_| {
            std::thread::spawn(|| {
                (0..10_000)
                    .map(|_| shakerand::rng().next_u64())
                    .collect::<Vec<_>>()
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    assert_eq!(words.iter().collect::<HashSet<_>>().len(), words.len());
}

/// What a child made by `fork` draws first, and what this process draws
/// after it: they must differ (the child never repeats its parent).
#[cfg(unix)]
fn child_and_parent(fork: impl Fn() -> libc::pid_t) -> ([u8; 32], [u8; 32]) {
    let mut rng = shakerand::rng();
    let _ = rng.next_u64(); // output made ahead in this thread before the fork
    let mut fds = [0; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let pid = fork();
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let mut b = [0u8; 32];
        shakerand::rng().fill_bytes(&mut b);
        unsafe {
            libc::write(fds[1], b.as_ptr().cast(), 32);
            libc::_exit(0);
        }
    }
    let mut parent = [0u8; 32];
    rng.fill_bytes(&mut parent);
    let mut child = [0u8; 32];
    assert_eq!(
        unsafe { libc::read(fds[0], child.as_mut_ptr().cast(), 32) },
        32
    );
    let mut status = 0;
    unsafe {
        libc::waitpid(pid, &mut status, 0);
        libc::close(fds[0]);
        libc::close(fds[1]);
    }
    (child, parent)
}

#[cfg(unix)]
#[test]
fn a_forked_child_repeats_nothing_of_its_parent() {
    let _serial = serial();
    let (child, parent) = child_and_parent(|| unsafe { libc::fork() });
    assert_ne!(child, parent);
}

#[cfg(target_os = "linux")]
#[test]
fn a_child_of_a_raw_clone_repeats_nothing_of_its_parent() {
    let _serial = serial();
    // clone(SIGCHLD) as a system call: no atfork handler of the C library
    // runs in the child, so only the core's own checks can tell.
    let raw_clone = || {
        // s390x's clone takes the stack first and the flags second.
        let (first, second) = if cfg!(target_arch = "s390x") {
            (0, libc::SIGCHLD)
        } else {
            (libc::SIGCHLD, 0)
        };
        unsafe { libc::syscall(libc::SYS_clone, first, second, 0, 0, 0) as libc::pid_t }
    };
    if !wipe_on_fork_is_done(raw_clone) {
        // qemu-user before 8.1 accepts MADV_WIPEONFORK and does not wipe:
        // such a child goes on with its parent's stream until its next
        // reseed (docs/system.md), which the C suites skip there too.
        eprintln!("skipped: MADV_WIPEONFORK is accepted but not done here (qemu-user before 8.1)");
        return;
    }
    let (child, parent) = child_and_parent(raw_clone);
    assert_ne!(child, parent);
}

/// Whether a page marked MADV_WIPEONFORK reads zero in a child made by
/// `fork` (true where the kernel refuses the advice: the core then compares
/// the pid instead).
#[cfg(target_os = "linux")]
fn wipe_on_fork_is_done(fork: impl Fn() -> libc::pid_t) -> bool {
    unsafe {
        let page = libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        assert_ne!(page, libc::MAP_FAILED);
        if libc::madvise(page, 4096, libc::MADV_WIPEONFORK) != 0 {
            libc::munmap(page, 4096);
            return true;
        }
        *(page as *mut u8) = 1;
        let pid = fork();
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            libc::_exit(i32::from(*(page as *const u8)));
        }
        let mut status = 0;
        libc::waitpid(pid, &mut status, 0);
        libc::munmap(page, 4096);
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
    }
}

/// Signals sent by another thread land anywhere in the drawing thread's
/// loop, inside its takes included (the take's unit tests land a handler
/// at each step of it deterministically).
#[cfg(unix)]
#[test]
fn a_signal_handler_that_draws_neither_disturbs_nor_repeats_the_thread_it_interrupted() {
    let _serial = serial();
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    const SLOTS: usize = 4096;
    static DRAWN: AtomicUsize = AtomicUsize::new(0);
    static WORDS: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];
    extern "C" fn handler(_: libc::c_int) {
        let i = DRAWN.load(Ordering::Relaxed);
        if i < SLOTS {
            WORDS[i].store(shakerand::rng().next_u64(), Ordering::Relaxed);
            DRAWN.store(i + 1, Ordering::Relaxed);
        }
    }
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler as extern "C" fn(libc::c_int) as usize;
        libc::sigaction(libc::SIGUSR1, &action, std::ptr::null_mut());
    }
    let (tx, rx) = std::sync::mpsc::channel();
    static DONE: AtomicBool = AtomicBool::new(false);
    let drawer = std::thread::spawn(move || {
        let mut rng = shakerand::rng();
        let _ = rng.next_u64(); // seeded before the handler can run
        tx.send(unsafe { libc::pthread_self() } as usize).unwrap();
        let mut words = Vec::with_capacity(8_000_000);
        while DRAWN.load(Ordering::Relaxed) < 200 && words.len() < 8_000_000 {
            words.push(rng.next_u64());
        }
        DONE.store(true, Ordering::Relaxed);
        words
    });
    let target = rx.recv().unwrap() as libc::pthread_t;
    while !DONE.load(Ordering::Relaxed) {
        unsafe { libc::pthread_kill(target, libc::SIGUSR1) };
        std::thread::sleep(std::time::Duration::from_micros(50));
    }
    let mut words = drawer.join().unwrap();
    let drawn = DRAWN.load(Ordering::Relaxed).min(SLOTS);
    assert!(drawn >= 200, "only {drawn} handler draws");
    words.extend(WORDS[..drawn].iter().map(|w| w.load(Ordering::Relaxed)));
    let distinct: HashSet<_> = words.iter().collect();
    assert_eq!(distinct.len(), words.len(), "a word came twice");
    assert!(!words.contains(&0));
}

#[test]
fn rand_s_distributions_take_it() {
    let _serial = serial();
    let mut rng = shakerand::rng();
    let mut counts = [0u32; 6];
    for _ in 0..60_000 {
        counts[rng.random_range(0..6)] += 1;
    }
    assert!(
        counts.iter().all(|&c| (9_000..11_000).contains(&c)),
        "{counts:?}"
    );
    let mut deck: Vec<u32> = (0..52).collect();
    deck.shuffle(&mut rng);
    assert_ne!(deck, (0..52).collect::<Vec<_>>());
    let x: f64 = rng.random();
    assert!((0.0..1.0).contains(&x));
}

#[test]
fn samplers_and_uuids() {
    let _serial = serial();
    assert!(shakerand::below_u64(0).is_err());
    assert!((0..1000).all(|_| shakerand::below_u64(7).unwrap() < 7));
    let bound = [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01]; // 2^64 + 1
    for _ in 0..100 {
        let v = shakerand::below_bytes(&bound).unwrap();
        assert_eq!(v.len(), bound.len());
        assert!(v <= bound.to_vec() && v != bound.to_vec());
    }
    assert!(shakerand::below_bytes(&[0, 0]).is_err());
    let u = shakerand::uuid_v4();
    assert_eq!(u[6] >> 4, 4);
    assert_eq!(u[8] >> 6, 2);
    let (a, b) = (shakerand::uuid_v7(), shakerand::uuid_v7());
    assert_eq!(a[6] >> 4, 7);
    assert!(a < b, "UUIDv7 is monotonic within the process");
}

#[cfg(feature = "uuid")]
#[test]
fn uuids_as_the_uuid_crate_s_type() {
    let _serial = serial();
    let v4 = shakerand::uuid::new_v4();
    assert_eq!(v4.get_version_num(), 4);
    assert_eq!(v4.get_variant(), uuid::Variant::RFC4122);
    let (a, b) = (shakerand::uuid::now_v7(), shakerand::uuid::now_v7());
    assert_eq!(a.get_version_num(), 7);
    assert!(a < b);
    assert_ne!(v4, shakerand::uuid::new_v4());
}

#[cfg(feature = "num-bigint")]
#[test]
fn big_integers_below_a_biguint() {
    use num_bigint::BigUint;
    let _serial = serial();
    let bound = (BigUint::from(1u8) << 512u32) - 569u32;
    let draws: Vec<BigUint> = (0..200)
        .map(|_| shakerand::below_biguint(&bound).unwrap())
        .collect();
    assert!(draws.iter().all(|d| d < &bound));
    // About half of them have the top bit (2^511 and up).
    let top = draws.iter().filter(|d| d.bits() == 512).count();
    assert!((60..=140).contains(&top), "{top} of 200 with bit 511");
    assert!(shakerand::below_biguint(&BigUint::from(0u8)).is_err());
    assert_eq!(
        shakerand::below_biguint(&BigUint::from(1u8)).unwrap(),
        BigUint::from(0u8)
    );
    // An engine's draws are the byte form's, as a number.
    let r = BigUint::from(10u8).pow(40);
    let mut a = shakerand::Engine::new(shakerand::Kind::TurboShake256, b"seed").unwrap();
    let mut b = shakerand::Engine::new(shakerand::Kind::TurboShake256, b"seed").unwrap();
    for _ in 0..20 {
        assert_eq!(
            a.below_biguint(&r).unwrap(),
            BigUint::from_bytes_be(&b.below_bytes(&r.to_bytes_be()).unwrap())
        );
    }
}
