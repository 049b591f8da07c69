//! The binding against implementations that fail on purpose (mutants/tests/test_rust_binding.py
//! runs each test alone, with its own TLBF_IMPL).
use tl_ds::bloom::*;

/// TLBF_IMPL ends at once: the call panics, and so does every later one; the
/// process exits 101 even though the test caught both panics.
#[test]
fn a_dead_subject_is_caught_and_still_fails_the_run() {
    assert!(std::panic::catch_unwind(|| fnv1a64(b"a")).is_err());
    assert!(std::panic::catch_unwind(|| Bloom::new(20, 3).is_ok()).is_err());
}

/// TLBF_IMPL refuses every insert: the contains after them panics.
#[test]
fn a_refused_insert_fails_the_next_call() {
    let mut b = Bloom::new(20, 3).unwrap();
    b.insert(b"cat");
    let _ = b.contains(b"cat");
}

/// ... and when nothing follows but the filter's drop, the drop.
#[test]
fn a_refused_insert_fails_the_drop() {
    let mut b = Bloom::new(20, 3).unwrap();
    b.insert(b"cat");
}

/// ... and when the filter is never dropped, the process's exit.
#[test]
fn a_refused_insert_fails_the_exit() {
    let mut b = Bloom::new(20, 3).unwrap();
    b.insert(b"cat");
    std::mem::forget(b);
}
