// Ivan -- ds08_bloom.rs (R4)
// Worked example, reference sizing rows (copied from the table in the notes),
// proptest properties with a fixed seed, union and file errors.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use tl_ds::bloom::*;

fn cfg(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config { cases, failure_persistence: None, ..Config::default() },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[11u8; 32]),
    )
}

fn item_lists() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(any::<u8>(), 0..8), 0..64)
}

#[test]
fn example_filter() {
    let mut f = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!((f.m(), f.k()), (20, 3));
    assert_eq!(f.bit_positions(b"cat"), vec![11, 14, 17]);
    assert_eq!(f.bit_positions(b"dog"), vec![13, 0, 3]);
    assert_eq!(f.bit_positions(b"bird"), vec![14, 7, 16]);
    f.insert(b"cat");
    f.insert(b"dog");
    assert!(!f.contains(b"bird"));
    let bytes = f.to_bytes();
    assert_eq!(&bytes[0..8], b"TLBF\x01\x00\x00\x00");
    assert_eq!(&bytes[8..16], &20u64.to_le_bytes());
    assert_eq!(&bytes[16..24], &[3, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(&bytes[24..32], &2u64.to_le_bytes());
    assert_eq!(&bytes[32..], &[0x09, 0x68, 0x02]);
}

#[test]
fn hash_values() {
    assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a64(b"cat"), 0xf5e307190ce4a327);
    assert_eq!(mix64(1), 0x5692161d100b05e5);
}

#[test]
fn reference_rows() {
    //      n     p       m     k
    let rows = [
        (4, 0.1, 20, 3),
        (1000, 0.01, 9585, 7),
        (100, 0.001, 1438, 10),
        (10, 1e-6, 288, 20),
        (1, 0.5, 2, 1),
        (3, 0.3, 8, 2),
    ];
    for (n, p, m, k) in rows {
        let f = Bloom::with_rate(n, p).unwrap();
        assert_eq!(f.m(), m, "m for n={} p={}", n, p);
        assert_eq!(f.k(), k, "k for n={} p={}", n, p);
        assert_eq!(optimal_k(m, n), k);
    }
}

#[test]
fn prop_no_false_negatives_and_round_trip() {
    cfg(250)
        .run(&(1u64..1000, 1u32..10, item_lists()), |(m, k, items)| {
            let mut f = Bloom::new(m, k).unwrap();
            for it in &items {
                f.insert(it);
            }
            for it in &items {
                prop_assert!(f.contains(it));
            }
            prop_assert_eq!(f.n_inserted(), items.len() as u64);
            let g = Bloom::from_bytes(&f.to_bytes()).unwrap();
            prop_assert_eq!(g, f);
            Ok(())
        })
        .unwrap();
}

#[test]
fn prop_union() {
    cfg(250)
        .run(&(1u64..1000, 1u32..10, item_lists(), item_lists()), |(m, k, xs, ys)| {
            let mut a = Bloom::new(m, k).unwrap();
            let mut b = Bloom::new(m, k).unwrap();
            xs.iter().for_each(|x| a.insert(x));
            ys.iter().for_each(|y| b.insert(y));
            let mut all = Bloom::new(m, k).unwrap();
            xs.iter().chain(ys.iter()).for_each(|x| all.insert(x));
            a.union(&b).unwrap();
            prop_assert_eq!(a, all);
            Ok(())
        })
        .unwrap();
}

#[test]
fn union_mismatch() {
    let mut a = Bloom::new(20, 3).unwrap();
    assert!(matches!(a.union(&Bloom::new(20, 2).unwrap()), Err(BloomError::Mismatch(_))));
    assert!(matches!(a.union(&Bloom::new(30, 3).unwrap()), Err(BloomError::Mismatch(_))));
}

#[test]
fn malformed_files() {
    let mut f = Bloom::with_rate(4, 0.1).unwrap();
    f.insert(b"cat");
    let good = f.to_bytes();
    let mut long = good.clone();
    long.push(0);
    let mut bad_version = good.clone();
    bad_version[4] = 3;
    let mut zero_k = good.clone();
    zero_k[16] = 0;
    let mut padding = good.clone();
    padding[34] |= 0x10;
    for b in [&good[..0], &good[..30], &good[..34], &long[..], &bad_version[..], &zero_k[..], &padding[..]] {
        assert!(matches!(Bloom::from_bytes(b), Err(BloomError::Format(_))));
    }
}
