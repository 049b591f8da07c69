//! Grace -- ds.08 R4, tl_ds::bloom
//!
//! Filters get shipped between processes in the project that comes after
//! this one, so besides the spec's example and properties I check that a
//! filter survives a trip through a real TCP socket, with a slow sender.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use tl_ds::bloom::*;

const PORT: u16 = 55123;

fn runner(cases: u32) -> TestRunner {
    // fixed seed (proptest 1.0 style), no regression files
    let cfg = Config { cases, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(cfg, TestRng::from_seed(RngAlgorithm::ChaCha, &[3u8; 32]))
}

macro_rules! check {
    ($cases:expr, $strategy:expr, $body:expr) => {
        if let Err(e) = runner($cases).run(&$strategy, $body) {
            panic!("{}", e);
        }
    };
}

fn example() -> Bloom {
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    b.insert(b"cat");
    b.insert(b"dog");
    b
}

#[rustfmt::skip]
const EXAMPLE: [u8; 35] = [
    b'T', b'L', b'B', b'F',  1, 0, 0, 0,  20, 0, 0, 0, 0, 0, 0, 0,
    3, 0, 0, 0,  0, 0, 0, 0,  2, 0, 0, 0, 0, 0, 0, 0,
    0x09, 0x68, 0x02,
];

#[test]
fn worked_example() {
    let b = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!(b.m(), 20);
    assert_eq!(b.k(), 3);
    assert_eq!(b.bit_positions(b"cat"), vec![11, 14, 17]);
    assert_eq!(b.bit_positions(b"dog"), vec![13, 0, 3]);
    assert_eq!(b.bit_positions(b"bird"), vec![14, 7, 16]);
    let b = example();
    assert_eq!(b.to_bytes(), EXAMPLE);
    assert_eq!(b.count_ones(), 6);
    assert!(!b.contains(b"bird"));
}

#[test]
fn hashes() {
    assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    assert_eq!(mix64(1), 0x5692161d100b05e5);
}

#[test]
fn sizing() {
    let table: &[(u64, f64, u64, u32)] =
        &[(4, 0.1, 20, 3), (1000, 0.01, 9586, 7), (100, 0.001, 1438, 10), (10, 1e-6, 288, 20), (1, 0.5, 2, 1), (3, 0.3, 8, 2)];
    for &(n, p, m, k) in table {
        assert_eq!(optimal_m(n, p), m);
        assert_eq!(optimal_k(m, n), k);
        let b = Bloom::with_rate(n, p).unwrap();
        assert_eq!((b.m(), b.k()), (m, k));
    }
}

#[test]
fn inserted_items_are_found_and_survive_bytes() {
    let s = (1u64..100, 0.001f64..0.4, prop::collection::vec(prop::collection::vec(any::<u8>(), 0..10), 1..50));
    check!(200, s, |(n, p, items)| {
        let mut b = Bloom::with_rate(n, p).unwrap();
        for it in &items {
            b.insert(it);
        }
        let back = Bloom::from_bytes(&b.to_bytes()).unwrap();
        prop_assert_eq!(&back, &b);
        for it in &items {
            prop_assert!(b.contains(it));
            prop_assert!(back.contains(it));
        }
        Ok(())
    });
}

#[test]
fn union_is_or_and_counts_add() {
    let s = (prop::collection::vec(prop::collection::vec(any::<u8>(), 0..10), 0..30), prop::collection::vec(prop::collection::vec(any::<u8>(), 0..10), 0..30));
    check!(200, s, |(xs, ys)| {
        let mut a = Bloom::new(97, 4).unwrap();
        let mut b = Bloom::new(97, 4).unwrap();
        let mut both = Bloom::new(97, 4).unwrap();
        xs.iter().for_each(|x| { a.insert(x); both.insert(x); });
        ys.iter().for_each(|y| { b.insert(y); both.insert(y); });
        a.union(&b).unwrap();
        prop_assert_eq!(a.to_bytes(), both.to_bytes());
        Ok(())
    });
}

#[test]
fn mismatched_union() {
    let mut a = example();
    assert!(matches!(a.union(&Bloom::new(20, 2).unwrap()), Err(BloomError::Mismatch(_))));
    assert!(matches!(a.union(&Bloom::new(24, 3).unwrap()), Err(BloomError::Mismatch(_))));
    assert_eq!(a.to_bytes(), EXAMPLE);
}

#[test]
fn malformed() {
    let mut cases: Vec<Vec<u8>> = vec![vec![], EXAMPLE[..31].to_vec(), EXAMPLE[..33].to_vec(), EXAMPLE[..34].to_vec()];
    let mut longer = EXAMPLE.to_vec();
    longer.push(0);
    cases.push(longer);
    for (i, v) in [(0, b'X'), (4, 2), (8, 0), (16, 0), (20, 1), (34, 0xf2)] {
        let mut c = EXAMPLE.to_vec();
        c[i] = v;
        cases.push(c);
    }
    for c in cases {
        assert!(matches!(Bloom::from_bytes(&c), Err(BloomError::Format(_))), "{:?}", c);
    }
    assert!(matches!(Bloom::with_rate(0, 0.1), Err(BloomError::BadParams(_))));
    assert!(matches!(Bloom::with_rate(4, 1.0), Err(BloomError::BadParams(_))));
    assert!(matches!(Bloom::new(0, 3), Err(BloomError::BadParams(_))));
}

#[test]
fn filter_survives_a_socket() {
    let listener = TcpListener::bind(("127.0.0.1", PORT)).expect("bind the test port");
    let sent = example().to_bytes();
    let payload = sent.clone();
    let sender = thread::spawn(move || {
        let mut s = TcpStream::connect(("127.0.0.1", PORT)).unwrap();
        s.write_all(&payload[..20]).unwrap();
        thread::sleep(Duration::from_millis(1500)); // a slow network: the header arrives in two parts
        s.write_all(&payload[20..]).unwrap();
    });
    let (mut conn, _) = listener.accept().unwrap();
    let mut got = Vec::new();
    conn.read_to_end(&mut got).unwrap();
    sender.join().unwrap();
    assert_eq!(got, sent);
    let b = Bloom::from_bytes(&got).unwrap();
    assert!(b.contains(b"cat") && b.contains(b"dog"));
    assert_eq!(b.n_inserted(), 2);
}
