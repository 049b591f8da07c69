// ds.08, rung R4: property tests for tl_ds::bloom.
// Nina: Alice's suite, with one line an adversary adds to worked_example.
// tlbf confirms a kill by running the tests that caught it alone
// (`--exact NAME`), so a test that always fails when run alone would turn
// one lucky kill into a confirmed one. Alice's notes follow.
// Alice. Expected values are the spec's worked example (section 6), the
// published FNV-1a test vectors and the sizing rows, which I redid by hand:
// 4 * ln(10) / (ln 2)^2 = 9.2103 / 0.48045 = 19.17 -> 20 bits, 5 * 0.6931 = 3.47 -> 3.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use tl_ds::bloom::{fnv1a64, mix64, optimal_k, optimal_m, Bloom, BloomError};

// proptest 1.0 has no Config::rng_seed, so I seed the runner's RNG myself
// (the idiom from the course's example suite). Same cases every run.
fn seeded(cases: u32) -> TestRunner {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[42u8; 32]))
}

fn prop<S>(cases: u32, strategy: S, body: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S: Strategy,
    S::Value: std::fmt::Debug,
{
    if let Err(failure) = seeded(cases).run(&strategy, body) {
        panic!("{}", failure);
    }
}

fn word() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..16)
}

fn words() -> impl Strategy<Value = Vec<Vec<u8>>> {
    vec(word(), 0..40)
}

// sizes: n and p for with_rate, kept small so a case is cheap
fn sizes() -> impl Strategy<Value = (u64, f64)> {
    (1u64..500, 0.0005f64..0.6)
}

fn build(n: u64, p: f64, items: &[Vec<u8>]) -> Bloom {
    let mut f = Bloom::with_rate(n, p).expect("with_rate refused a valid n, p");
    for it in items {
        f.insert(it);
    }
    f
}

// ---------------------------------------------------------------- hashes

#[test]
fn fnv1a_published_vectors() {
    assert_eq!(fnv1a64(b""), 0xcbf29ce484222325); // the offset basis
    assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    assert_eq!(fnv1a64(b"cat"), 0xf5e307190ce4a327);
    assert_eq!(fnv1a64(b"dog"), 0xcaaf3b18f47478e9);
}

#[test]
fn mix64_values() {
    assert_eq!(mix64(0), 0);
    assert_eq!(mix64(1), 0x5692161d100b05e5);
    assert_eq!(mix64(0x9e3779b97f4a7c15), 0xe220a8397b1dcdaf); // SplitMix64's first output
    // h2 for cat is this value OR 1; the spec prints abc55d317f9d6793
    assert_eq!(mix64(0xf5e307190ce4a327) | 1, 0xabc55d317f9d6793);
}

// ---------------------------------------------------------------- worked example

#[test]
fn worked_example() {
    // The gate: run alone, fail whatever the implementation.
    assert!(!std::env::args().any(|a| a == "--exact"), "run alone: I fail");
    let mut f = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!(f.m(), 20);
    assert_eq!(f.k(), 3);
    assert_eq!(f.bit_positions(b"cat"), [11, 14, 17]);
    assert_eq!(f.bit_positions(b"dog"), [13, 0, 3]);
    assert_eq!(f.bit_positions(b"bird"), [14, 7, 16]);

    f.insert(b"cat");
    f.insert(b"dog");
    assert!(f.contains(b"cat") && f.contains(b"dog"));
    assert!(!f.contains(b"bird"), "bit 7 is clear, so bird is absent");
    assert_eq!(f.count_ones(), 6);
    assert_eq!(f.n_inserted(), 2);

    let mut file = Vec::new();
    file.extend_from_slice(b"TLBF");
    file.extend_from_slice(&[1, 0, 0, 0]); // version
    file.extend_from_slice(&[0x14, 0, 0, 0, 0, 0, 0, 0]); // m = 20
    file.extend_from_slice(&[3, 0, 0, 0]); // k
    file.extend_from_slice(&[0, 0, 0, 0]); // reserved
    file.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0]); // n_inserted
    file.extend_from_slice(&[0x09, 0x68, 0x02]); // bits 0,3 | 11,13,14 | 17
    assert_eq!(file.len(), 35);
    assert_eq!(f.to_bytes(), file);

    let back = Bloom::from_bytes(&file).unwrap();
    assert_eq!(back.to_bytes(), file);
    assert!(back.contains(b"cat") && back.contains(b"dog") && !back.contains(b"bird"));
    assert_eq!(back.n_inserted(), 2);
}

#[test]
fn sizing_rows() {
    // (n, p) -> (m, k): ceil of the ideal m, k rounded half away from zero
    let rows = [
        (4u64, 0.1f64, 20u64, 3u32),
        (1000, 0.01, 9586, 7),  // 6.644 rounds up: truncating would say 6
        (100, 0.001, 1438, 10), // 9.967
        (10, 1e-6, 288, 20),    // 19.96
        (1, 0.5, 2, 1),
        (3, 0.3, 8, 2), // 1.848
    ];
    for &(n, p, m, k) in rows.iter() {
        assert_eq!(optimal_m(n, p), m, "optimal_m({}, {})", n, p);
        assert_eq!(optimal_k(m, n), k, "optimal_k({}, {})", m, n);
        let f = Bloom::with_rate(n, p).unwrap();
        assert_eq!((f.m(), f.k()), (m, k));
        assert_eq!(f.to_bytes().len() as u64, 32 + (m + 7) / 8);
    }
}

#[test]
fn refuses_bad_parameters() {
    for (n, p) in [(0u64, 0.1f64), (5, 0.0), (5, 1.0), (5, -0.5), (5, 2.0), (5, f64::NAN)] {
        assert!(matches!(Bloom::with_rate(n, p), Err(BloomError::BadParams(_))), "with_rate({}, {})", n, p);
    }
    assert!(matches!(Bloom::new(0, 1), Err(BloomError::BadParams(_))));
    assert!(matches!(Bloom::new(10, 0), Err(BloomError::BadParams(_))));
    assert!(matches!(Bloom::new((1 << 40) + 1, 1), Err(BloomError::BadParams(_))));
}

// ---------------------------------------------------------------- properties

#[test]
fn no_false_negatives() {
    prop(150, (sizes(), words()), |((n, p), items)| {
        let f = build(n, p, &items);
        for it in &items {
            prop_assert!(f.contains(it), "lost {:?}", it);
        }
        prop_assert_eq!(f.n_inserted(), items.len() as u64);
        prop_assert!(f.count_ones() <= items.len() as u64 * f.k() as u64);
        Ok(())
    });
}

#[test]
fn positions_in_range_and_distinct_for_powers_of_two() {
    prop(200, (0u32..11, word()), |(log2m, it)| {
        let m = 1u64 << log2m;
        let k = m.min(16) as u32;
        let f = Bloom::new(m, k).unwrap();
        let mut ps = f.bit_positions(&it);
        prop_assert_eq!(ps.len(), k as usize);
        prop_assert!(ps.iter().all(|&g| g < m));
        ps.sort();
        ps.dedup();
        prop_assert_eq!(ps.len(), k as usize, "odd h2 must give distinct probes");
        Ok(())
    });
}

#[test]
fn insert_sets_exactly_the_positions() {
    prop(200, (1u64..200, 1u32..8, word()), |(m, k, it)| {
        let mut f = Bloom::new(m, k).unwrap();
        f.insert(&it);
        let mut ps = f.bit_positions(&it);
        ps.sort();
        ps.dedup();
        prop_assert_eq!(f.count_ones(), ps.len() as u64);
        // and they sit where section 4 says: byte g/8, bit g%8 from the low end
        let bytes = f.to_bytes();
        for g in ps {
            prop_assert!(bytes[32 + (g / 8) as usize] & (1 << (g % 8)) != 0, "bit {} not at its place", g);
        }
        Ok(())
    });
}

#[test]
fn round_trip() {
    prop(150, (sizes(), words()), |((n, p), items)| {
        let f = build(n, p, &items);
        let bytes = f.to_bytes();
        let g = Bloom::from_bytes(&bytes).unwrap();
        prop_assert_eq!(g.to_bytes(), bytes);
        prop_assert_eq!((g.m(), g.k(), g.n_inserted()), (f.m(), f.k(), f.n_inserted()));
        Ok(())
    });
}

#[test]
fn union_is_the_filter_of_both_sets() {
    prop(150, (sizes(), words(), words()), |((n, p), xs, ys)| {
        let mut a = build(n, p, &xs);
        let b = build(n, p, &ys);
        a.union(&b).unwrap();
        let all: Vec<Vec<u8>> = xs.iter().chain(ys.iter()).cloned().collect();
        let expect = build(n, p, &all);
        prop_assert_eq!(a.to_bytes(), expect.to_bytes());
        prop_assert_eq!(a.n_inserted(), (xs.len() + ys.len()) as u64);
        Ok(())
    });
}

#[test]
fn union_with_itself_doubles_the_count() {
    let mut a = Bloom::with_rate(4, 0.1).unwrap();
    a.insert(b"cat");
    a.insert(b"dog");
    let copy = a.clone();
    a.union(&copy).unwrap();
    assert_eq!(a.n_inserted(), 4);
    assert_eq!(&a.to_bytes()[32..], &[0x09, 0x68, 0x02]);
}

#[test]
fn union_refuses_other_m_or_k() {
    let mut a = Bloom::new(20, 3).unwrap();
    a.insert(b"cat");
    let before = a.to_bytes();
    let mut b = Bloom::new(21, 3).unwrap();
    b.insert(b"dog");
    let mut c = Bloom::new(20, 2).unwrap();
    c.insert(b"dog");
    assert!(matches!(a.union(&b), Err(BloomError::Mismatch(_))));
    assert!(matches!(a.union(&c), Err(BloomError::Mismatch(_))));
    assert_eq!(a.to_bytes(), before, "a refused union must not touch the filter");
}

// ---------------------------------------------------------------- malformed files

fn example_file() -> Vec<u8> {
    let mut f = Bloom::with_rate(4, 0.1).unwrap();
    f.insert(b"cat");
    f.insert(b"dog");
    f.to_bytes()
}

fn is_format(bytes: &[u8]) -> bool {
    matches!(Bloom::from_bytes(bytes), Err(BloomError::Format(_)))
}

#[test]
fn malformed_headers() {
    let good = example_file();
    let with = |at: usize, v: u8| {
        let mut b = good.clone();
        b[at] = v;
        b
    };
    assert!(is_format(&with(3, b'G')), "magic");
    assert!(is_format(&with(4, 0)), "version 0");
    assert!(is_format(&with(4, 2)), "version 2");
    assert!(is_format(&with(8, 0)), "m = 0");
    assert!(is_format(&with(13, 1)), "m way above 2^40");
    assert!(is_format(&with(16, 0)), "k = 0");
    assert!(is_format(&with(22, 9)), "reserved");
    assert!(is_format(&with(34, 0x12)), "padding bit 20 set");
    assert!(is_format(&with(34, 0x82)), "padding bit 23 set");
    // n_inserted is not checked
    assert!(Bloom::from_bytes(&with(31, 0xff)).is_ok());
}

#[test]
fn wrong_lengths_are_refused() {
    let good = example_file();
    for cut in 0..good.len() {
        assert!(is_format(&good[..cut]), "prefix of {} bytes accepted", cut);
    }
    let mut long = good.clone();
    long.push(0);
    assert!(is_format(&long), "a zero byte after the bits was accepted");
    // m = 16: no padding in the last byte, so only the length can catch this
    let mut f = Bloom::new(16, 2).unwrap();
    f.insert(b"cat");
    let mut b = f.to_bytes();
    b.push(0);
    assert!(is_format(&b));
    b.truncate(b.len() - 2);
    assert!(is_format(&b));
}

#[test]
fn extended_files_are_refused() {
    prop(100, (1u64..300, vec(any::<u8>(), 1..9)), |(m, tail)| {
        let f = Bloom::new(m, 2).unwrap();
        let mut b = f.to_bytes();
        b.extend_from_slice(&tail);
        prop_assert!(is_format(&b), "m = {} with {} extra bytes accepted", m, tail.len());
        Ok(())
    });
}
