// ds.08 / R4 -- heidi
// Tests for tl_ds::bloom. I ran these against my own copy of the crate
// (this folder) while I was changing bloom.rs; they only use the public API.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use tl_ds::bloom::{fnv1a64, mix64, optimal_k, optimal_m, Bloom, BloomError};

fn run<S: Strategy>(cases: u32, s: S, f: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[0x5a; 32]));
    runner.run(&s, f).unwrap();
}

fn byte_strings() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(any::<u8>(), 0..20), 0..50)
}

mod spec_example {
    use super::*;

    #[test]
    fn m_and_k() {
        let f = Bloom::with_rate(4, 0.1).unwrap();
        assert_eq!(f.m(), 20);
        assert_eq!(f.k(), 3);
    }

    #[test]
    fn h1_h2_positions() {
        let table: [(&[u8], u64, u64, [u64; 3]); 3] = [
            (b"cat", 0xf5e307190ce4a327, 0xabc55d317f9d6793, [11, 14, 17]),
            (b"dog", 0xcaaf3b18f47478e9, 0x82e76f0678a0c26f, [13, 0, 3]),
            (b"bird", 0xdeec1c9bd0d98672, 0x74ec5c2ba1867951, [14, 7, 16]),
        ];
        let f = Bloom::with_rate(4, 0.1).unwrap();
        for (item, h1, h2, pos) in table {
            assert_eq!(fnv1a64(item), h1);
            assert_eq!(mix64(h1) | 1, h2);
            assert_eq!(f.bit_positions(item), pos.to_vec());
        }
    }

    #[test]
    fn the_35_bytes() {
        let mut f = Bloom::with_rate(4, 0.1).unwrap();
        f.insert(b"cat");
        f.insert(b"dog");
        let hex = "544c42460100000014000000000000000300000000000000020000000000000009680" .to_string() + "2";
        let want: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        assert_eq!(want.len(), 35);
        assert_eq!(f.to_bytes(), want);
        assert_eq!(f.count_ones(), 6);
        assert!(!f.contains(b"bird"));
        assert_eq!(Bloom::from_bytes(&want).unwrap(), f);
    }

    #[test]
    fn fnv_test_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn reference_rows() {
        for (n, p, m, k) in [(1000u64, 0.01f64, 9586u64, 7u32), (100, 0.001, 1438, 10), (10, 1e-6, 288, 20), (1, 0.5, 2, 1), (3, 0.3, 8, 2)] {
            assert_eq!(optimal_m(n, p), m);
            assert_eq!(optimal_k(m, n), k);
            assert_eq!(Bloom::with_rate(n, p).map(|f| (f.m(), f.k())), Ok((m, k)));
        }
    }
}

mod properties {
    use super::*;

    #[test]
    fn found_after_insert() {
        run(200, (1u64..400, 1u32..12, byte_strings()), |(m, k, items)| {
            let mut f = Bloom::new(m, k).unwrap();
            for x in &items {
                f.insert(x);
            }
            for x in &items {
                prop_assert!(f.contains(x));
            }
            Ok(())
        });
    }

    #[test]
    fn bytes_round_trip() {
        run(200, (1u64..400, 1u32..12, byte_strings()), |(m, k, items)| {
            let mut f = Bloom::new(m, k).unwrap();
            for x in &items {
                f.insert(x);
            }
            let b = f.to_bytes();
            prop_assert_eq!(b.len() as u64, 32 + (m + 7) / 8);
            prop_assert_eq!(Bloom::from_bytes(&b), Ok(f));
            Ok(())
        });
    }

    #[test]
    fn union_equals_inserting_everything() {
        run(200, (1u64..400, 1u32..12, byte_strings(), byte_strings()), |(m, k, xs, ys)| {
            let mut a = Bloom::new(m, k).unwrap();
            let mut b = Bloom::new(m, k).unwrap();
            let mut c = Bloom::new(m, k).unwrap();
            for x in &xs {
                a.insert(x);
                c.insert(x);
            }
            for y in &ys {
                b.insert(y);
                c.insert(y);
            }
            a.union(&b).unwrap();
            prop_assert_eq!(a, c);
            Ok(())
        });
    }
}

mod errors {
    use super::*;

    fn format_err(b: &[u8]) -> bool {
        matches!(Bloom::from_bytes(b), Err(BloomError::Format(_)))
    }

    #[test]
    fn params() {
        assert!(matches!(Bloom::with_rate(0, 0.1), Err(BloomError::BadParams(_))));
        assert!(matches!(Bloom::with_rate(10, 0.0), Err(BloomError::BadParams(_))));
        assert!(matches!(Bloom::with_rate(10, 1.0), Err(BloomError::BadParams(_))));
        assert!(matches!(Bloom::new(0, 1), Err(BloomError::BadParams(_))));
        assert!(matches!(Bloom::new(1, 0), Err(BloomError::BadParams(_))));
    }

    #[test]
    fn union_mismatch_leaves_filter_alone() {
        let mut a = Bloom::new(40, 3).unwrap();
        a.insert(b"x");
        let snapshot = a.clone();
        assert!(matches!(a.union(&Bloom::new(41, 3).unwrap()), Err(BloomError::Mismatch(_))));
        assert!(matches!(a.union(&Bloom::new(40, 5).unwrap()), Err(BloomError::Mismatch(_))));
        assert_eq!(a, snapshot);
    }

    #[test]
    fn bad_files() {
        let mut f = Bloom::new(40, 3).unwrap(); // 5 bytes of bits, no padding
        f.insert(b"x");
        let good = f.to_bytes();
        assert!(Bloom::from_bytes(&good).is_ok());
        for len in [0, 8, 31, 32, 36] {
            assert!(format_err(&good[..len]), "{} bytes", len);
        }
        let mut more = good.clone();
        more.extend_from_slice(&[0, 0, 0]);
        assert!(format_err(&more));
        let edits: [(usize, u8); 5] = [(0, 0), (5, 1), (8, 0), (16, 0), (23, 0x80)];
        for (at, v) in edits {
            let mut b = good.clone();
            b[at] = v;
            assert!(format_err(&b), "byte {} = {}", at, v);
        }
        let mut g = Bloom::new(13, 2).unwrap().to_bytes(); // 3 padding bits in byte 33
        g[33] = 0x20;
        assert!(format_err(&g));
    }
}
