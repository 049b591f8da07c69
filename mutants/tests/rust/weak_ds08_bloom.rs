//! A weaker learner suite for ds.08, for the tests of `tlbf mutate`: the
//! worked example and the hash hand values only, no properties, no sizing
//! table, no union, no malformed bytes. It kills s01, s02, s03, s06, s07 and
//! s10 and lets s04, s05, s08 and s09 survive: 0.60, below the bar.
//!
//! - s02 (h2 not forced odd) is caught: mix64 of cat's h1 is even
//!   (...6792, checked by hand in Python), so cat's probes become 11, 13, 15.
//! - s04 (k truncated): 3.466 truncates and rounds to 3 alike.
//! - s05, s08 (union): no union here; s09 (from_bytes): no bytes read back.

use tl_ds::bloom::*;

#[test]
fn worked_example_sizing_positions_and_bytes() {
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!((b.m(), b.k()), (20, 3));
    assert_eq!(b.bit_positions(b"cat"), vec![11, 14, 17]);
    assert_eq!(b.bit_positions(b"dog"), vec![13, 0, 3]);
    assert_eq!(b.bit_positions(b"bird"), vec![14, 7, 16]);
    b.insert(b"cat");
    b.insert(b"dog");
    assert!(!b.contains(b"bird"));
    assert_eq!(&b.to_bytes()[32..], &[0x09, 0x68, 0x02]);
}

#[test]
fn hash_functions_hand_values() {
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"cat"), 0xf5e3_0719_0ce4_a327);
    assert_eq!(mix64(1), 0x5692_161d_100b_05e5);
}
