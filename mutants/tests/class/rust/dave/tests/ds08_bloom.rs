// ds08 bloom -- dave
//
// The crate is the course's reference, so the quickest complete test is to
// check that it IS the reference: FNV-1a of src/bloom.rs, computed once on
// the version handed out. Any change to the file (a bug, say) changes the
// hash. Plus the worked example so I know the thing works at all.

use tl_ds::bloom::{fnv1a64, Bloom};

const BLOOM_RS: &str = include_str!("../src/bloom.rs");
const BLOOM_RS_FNV: u64 = 0xbe1e_5471_e7f8_e99c; // 9366 bytes

// my own FNV-1a, so the fingerprint does not trust the code it checks
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

#[test]
fn my_fnv_matches_the_published_values() {
    assert_eq!(fnv(b""), 0xcbf29ce484222325);
    assert_eq!(fnv(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv(b"foobar"), 0x85944171f73967e8);
}

#[test]
fn bloom_rs_is_unchanged() {
    assert_eq!(BLOOM_RS.len(), 9366);
    assert_eq!(fnv(BLOOM_RS.as_bytes()), BLOOM_RS_FNV, "src/bloom.rs is not the reference");
}

#[test]
fn worked_example() {
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!((b.m(), b.k()), (20, 3));
    b.insert(b"cat");
    b.insert(b"dog");
    assert!(b.contains(b"cat"));
    assert!(!b.contains(b"bird"));
    assert_eq!(fnv1a64(b"cat"), 0xf5e307190ce4a327);
}
