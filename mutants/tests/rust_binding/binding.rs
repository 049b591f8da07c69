//! The Rust binding's behaviour against the served oracle (mutants/tests/test_rust_binding.py).
//! Every expected value is the specification's worked example or docs/protocol.md's transcript.
use tl_ds::bloom::*;

#[test]
fn the_functions_answer_as_the_reference() {
    assert_eq!(fnv1a64(b""), FNV_OFFSET);
    assert_eq!(fnv1a64(b"cat"), 0xf5e3_0719_0ce4_a327);
    assert_eq!(mix64(0xf5e3_0719_0ce4_a327), 0xabc5_5d31_7f9d_6792);
    assert_eq!(optimal_m(4, 0.1), 20);
    assert_eq!(optimal_k(20, 4), 3);
    assert!((predicted_fp_rate(20, 3, 2) - 0.017410586496326586).abs() < 1e-15);
}

#[test]
fn errors_are_bloom_errors() {
    assert!(matches!(Bloom::new(0, 3), Err(BloomError::BadParams(_))));
    assert!(matches!(Bloom::with_rate(4, f64::NAN), Err(BloomError::BadParams(_))));
    assert!(matches!(Bloom::with_rate(0, 0.1), Err(BloomError::BadParams(_))));
    assert!(matches!(Bloom::from_bytes(b"TLBF"), Err(BloomError::Format(_))));
    assert!(matches!(Bloom::from_bytes(b""), Err(BloomError::Format(_))));
    let mut a = Bloom::new(20, 3).unwrap();
    let b = Bloom::new(24, 3).unwrap();
    assert!(matches!(a.union(&b), Err(BloomError::Mismatch(_))));
    assert!(a.union(&Bloom::new(20, 3).unwrap()).is_ok());
}

#[test]
fn the_worked_example_with_clone_eq_and_debug() {
    let mut a = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!((a.m(), a.k(), a.n_inserted()), (20, 3, 0));
    assert_eq!(a.bit_positions(b"cat"), vec![11, 14, 17]);
    a.insert(b"cat");
    a.insert(b"dog");
    assert!(a.contains(b"cat") && !a.contains(b"bird"));
    assert_eq!(a.count_ones(), 6);
    let c = a.clone();
    assert_eq!(a, c);
    assert_eq!(format!("{:?}", a), "Bloom { m: 20, k: 3, n_inserted: 2, bits: [9, 104, 2] }");
    a.insert(b"bird");
    assert_ne!(a, c);
    assert_eq!((a.n_inserted(), c.n_inserted()), (3, 2));
    assert_eq!(Bloom::from_bytes(&c.to_bytes()).unwrap(), c);
    assert_eq!(&c.to_bytes()[32..], &[0x09, 0x68, 0x02]);
}

#[test]
fn many_threads_share_one_connection() {
    let threads: Vec<_> = (0..8u8)
        .map(|t| {
            std::thread::spawn(move || {
                for round in 0..50u8 {
                    let mut b = Bloom::with_rate(4, 0.1).unwrap();
                    b.insert(b"cat");
                    b.insert(&[t, round]);
                    b.insert(b"dog");
                    assert_eq!(b.n_inserted(), 3);
                    assert!(b.contains(b"cat") && b.contains(&[t, round]));
                    assert_eq!(b.bit_positions(b"dog"), vec![13, 0, 3]);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

#[test]
fn a_long_run_of_inserts_sent_ahead_ends() {
    let mut b = Bloom::new(1 << 20, 7).unwrap();
    for i in 0u32..50_000 {
        b.insert(&i.to_le_bytes());
    }
    assert_eq!(b.n_inserted(), 50_000);
    assert!((0u32..50_000).step_by(997).all(|i| b.contains(&i.to_le_bytes())));
}

/// What the docs quote: 100,000 contains of fresh items, timed (printed with --nocapture).
#[test]
fn hundred_thousand_contains() {
    let mut b = Bloom::with_rate(100_000, 0.01).unwrap();
    let started = std::time::Instant::now();
    for i in 0u32..100_000 {
        b.insert(&i.to_le_bytes());
    }
    let _ = b.count_ones();
    let inserted = started.elapsed();
    let started = std::time::Instant::now();
    let positives = (1_000_000u32..1_100_000).filter(|i| b.contains(&i.to_le_bytes())).count();
    println!("tl_ds binding: 100000 inserts {:.2} s, 100000 contains {:.2} s", inserted.as_secs_f64(),
             started.elapsed().as_secs_f64());
    assert!(positives < 2_000, "{} false positives at a 1% design", positives);
}
