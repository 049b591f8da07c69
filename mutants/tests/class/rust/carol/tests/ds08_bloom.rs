//! ds.08 R4 -- Carol's suite for tl_ds::bloom.
//!
//! Plan: (1) the worked example byte for byte, (2) the sizing rows,
//! (3) properties over a few hundred generated items, (4) malformed files,
//! (5) every "Decision" box of docs/format.md, since the page says each one
//! is part of the format.

use tl_ds::bloom::*;

fn items(count: usize) -> Vec<Vec<u8>> {
    (0..count).map(|i| format!("item-{}", i * 7919).into_bytes()).collect()
}

fn example() -> Bloom {
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    b.insert(b"cat");
    b.insert(b"dog");
    b
}

const EXAMPLE_FILE: [u8; 35] = [
    0x54, 0x4c, 0x42, 0x46, 0x01, 0x00, 0x00, 0x00, // "TLBF", version 1
    0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // m = 20
    0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // k = 3, reserved
    0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // n_inserted = 2
    0x09, 0x68, 0x02, // bits
];

// (1) -----------------------------------------------------------------------

#[test]
fn example_sizes() {
    let b = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!(b.m(), 20);
    assert_eq!(b.k(), 3);
}

#[test]
fn example_hashes_and_positions() {
    assert_eq!(fnv1a64(b"cat"), 0xf5e307190ce4a327);
    assert_eq!(fnv1a64(b"dog"), 0xcaaf3b18f47478e9);
    assert_eq!(fnv1a64(b"bird"), 0xdeec1c9bd0d98672);
    assert_eq!(mix64(fnv1a64(b"cat")) | 1, 0xabc55d317f9d6793);
    assert_eq!(mix64(fnv1a64(b"dog")) | 1, 0x82e76f0678a0c26f);
    assert_eq!(mix64(fnv1a64(b"bird")) | 1, 0x74ec5c2ba1867951);
    let b = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!(b.bit_positions(b"cat"), vec![11, 14, 17]);
    assert_eq!(b.bit_positions(b"dog"), vec![13, 0, 3]);
    assert_eq!(b.bit_positions(b"bird"), vec![14, 7, 16]);
}

#[test]
fn example_file() {
    let b = example();
    assert_eq!(b.count_ones(), 6);
    assert!(!b.contains(b"bird"));
    assert_eq!(b.to_bytes(), EXAMPLE_FILE.to_vec());
    assert_eq!(Bloom::from_bytes(&EXAMPLE_FILE).unwrap(), b);
}

#[test]
fn fnv_published_values() {
    assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
}

// (2) -----------------------------------------------------------------------

#[test]
fn sizing_rows() {
    assert_eq!((optimal_m(4, 0.1), optimal_k(20, 4)), (20, 3));
    assert_eq!((optimal_m(1000, 0.01), optimal_k(9586, 1000)), (9586, 7));
    assert_eq!((optimal_m(100, 0.001), optimal_k(1438, 100)), (1438, 10));
    assert_eq!((optimal_m(10, 1e-6), optimal_k(288, 10)), (288, 20));
    assert_eq!((optimal_m(1, 0.5), optimal_k(2, 1)), (2, 1));
    assert_eq!((optimal_m(3, 0.3), optimal_k(8, 3)), (8, 2));
    let b = Bloom::with_rate(1000, 0.01).unwrap();
    assert_eq!((b.m(), b.k(), b.to_bytes().len()), (9586, 7, 32 + 1199));
}

// (3) -----------------------------------------------------------------------

#[test]
fn everything_inserted_is_found() {
    let xs = items(300);
    let mut b = Bloom::with_rate(300, 0.01).unwrap();
    for x in &xs {
        b.insert(x);
    }
    assert_eq!(b.n_inserted(), 300);
    for x in &xs {
        assert!(b.contains(x), "{:?}", String::from_utf8_lossy(x));
    }
}

#[test]
fn round_trips() {
    for n in [1u64, 2, 3, 5, 8, 13, 21, 34, 55] {
        let mut b = Bloom::with_rate(n, 0.05).unwrap();
        for x in items(n as usize) {
            b.insert(&x);
        }
        let again = Bloom::from_bytes(&b.to_bytes()).unwrap();
        assert_eq!(again, b, "n = {}", n);
    }
}

#[test]
fn union_matches_inserting_both() {
    let xs = items(60);
    let (left, right) = xs.split_at(25);
    let mut a = Bloom::with_rate(60, 0.02).unwrap();
    let mut b = a.clone();
    let mut both = a.clone();
    left.iter().for_each(|x| a.insert(x));
    right.iter().for_each(|x| b.insert(x));
    xs.iter().for_each(|x| both.insert(x));
    a.union(&b).unwrap();
    assert_eq!(a, both);
    assert_eq!(a.n_inserted(), 60);
}

#[test]
fn union_mismatch() {
    let mut a = example();
    let before = a.clone();
    assert!(matches!(a.union(&Bloom::new(20, 4).unwrap()), Err(BloomError::Mismatch(_))));
    assert!(matches!(a.union(&Bloom::new(19, 3).unwrap()), Err(BloomError::Mismatch(_))));
    assert_eq!(a, before);
}

// (4) -----------------------------------------------------------------------

#[test]
fn bad_files() {
    let good = EXAMPLE_FILE.to_vec();
    let mut bad: Vec<Vec<u8>> = Vec::new();
    bad.push(good[..20].to_vec());
    bad.push(good[..34].to_vec());
    let mut longer = good.clone();
    longer.extend_from_slice(&[0, 0]);
    bad.push(longer);
    for (at, value) in [(1, 0x4d), (4, 7), (8, 0), (16, 0), (21, 1), (34, 0x22)] {
        let mut b = good.clone();
        b[at] = value;
        bad.push(b);
    }
    for b in bad {
        assert!(matches!(Bloom::from_bytes(&b), Err(BloomError::Format(_))), "{:02x?}", b);
    }
}

#[test]
fn bad_params() {
    for r in [Bloom::with_rate(0, 0.5), Bloom::with_rate(9, 0.0), Bloom::with_rate(9, 1.0), Bloom::new(0, 1), Bloom::new(8, 0)] {
        assert!(matches!(r, Err(BloomError::BadParams(_))));
    }
}

// (5) the Decision boxes ----------------------------------------------------

#[test]
fn decision_k_is_at_most_65536() {
    assert!(Bloom::new(8, 65536).is_ok());
    assert!(matches!(Bloom::new(8, 70000), Err(BloomError::BadParams(_))));
    let mut file = Bloom::new(8, 3).unwrap().to_bytes();
    file[16..20].copy_from_slice(&70000u32.to_le_bytes());
    assert!(matches!(Bloom::from_bytes(&file), Err(BloomError::Format(_))));
}

#[test]
fn decision_sizing_saturates_like_rust_casts() {
    assert_eq!(optimal_m(0, 0.5), 0);
    assert_eq!(optimal_m(5, 0.0), u64::MAX);
    assert_eq!(optimal_k(10, 0), u32::MAX);
    assert_eq!(optimal_k(0, 0), 1);
}

#[test]
fn decision_counts_saturate() {
    let mut file = Bloom::new(8, 1).unwrap().to_bytes();
    file[24..32].copy_from_slice(&(u64::MAX - 1).to_le_bytes());
    let mut a = Bloom::from_bytes(&file).unwrap();
    let b = a.clone();
    a.union(&b).unwrap();
    assert_eq!(a.n_inserted(), u64::MAX);
}
