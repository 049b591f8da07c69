// Bob - ds08 bloom tests
// TODO: proptest part, didn't get it to work in time

use tl_ds::bloom::*;

#[test]
fn test_size() {
    let b = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!(b.m(), 20);
    assert_eq!(b.k(), 3);
}

#[test]
fn test_positions() {
    let b = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!(b.bit_positions(b"cat"), vec![11, 14, 17]);
    assert_eq!(b.bit_positions(b"dog"), vec![13, 0, 3]);
    assert_eq!(b.bit_positions(b"bird"), vec![14, 7, 16]);
}

#[test]
fn test_hash() {
    assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
}

#[test]
fn test_insert_and_contains() {
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    b.insert(b"cat");
    b.insert(b"dog");
    assert!(b.contains(b"cat"));
    assert!(b.contains(b"dog"));
    assert!(!b.contains(b"bird"));
    assert_eq!(b.n_inserted(), 2);
}

#[test]
fn test_union() {
    let mut a = Bloom::with_rate(4, 0.1).unwrap();
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    a.insert(b"cat");
    b.insert(b"dog");
    a.union(&b).unwrap();
    assert!(a.contains(b"cat"));
    assert!(a.contains(b"dog"));
}

#[test]
fn test_bad_params() {
    assert!(Bloom::with_rate(0, 0.1).is_err());
    assert!(Bloom::with_rate(4, 1.5).is_err());
    assert!(Bloom::new(0, 3).is_err());
}
