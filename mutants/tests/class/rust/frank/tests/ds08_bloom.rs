// frank / ds08 bloom
// Random testing without the proptest boilerplate: a little xorshift RNG
// seeded fresh each run (clock + RandomState), so every run tries something
// new. Over many runs this covers more than fixed cases would.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};
use tl_ds::bloom::*;

struct Rng(u64);

impl Rng {
    fn new() -> Rng {
        // the clock, and std's HashMap keys (random per process) for good measure
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos() as u64;
        let mut h = RandomState::new().build_hasher();
        h.write_u64(nanos);
        let mut rng = Rng(h.finish() | 1);
        for _ in 0..8 {
            rng.next(); // warm up
        }
        rng
    }
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545f4914f6cdd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        (self.next() >> 11) % n
    }
    fn word(&mut self) -> Vec<u8> {
        let len = 1 + self.below(8) as usize;
        (0..len).map(|_| self.next() as u8).collect()
    }
}

#[test]
fn worked_example() {
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    assert_eq!(b.m(), 20);
    assert_eq!(b.k(), 3);
    b.insert(b"cat");
    b.insert(b"dog");
    assert!(b.contains(b"cat"));
    assert!(b.contains(b"dog"));
    assert!(!b.contains(b"bird"));
    assert_eq!(b.n_inserted(), 2);
    // the same two words, one in each filter, merged
    let mut cats = Bloom::with_rate(4, 0.1).unwrap();
    let mut dogs = Bloom::with_rate(4, 0.1).unwrap();
    cats.insert(b"cat");
    dogs.insert(b"dog");
    cats.union(&dogs).unwrap();
    assert!(cats.contains(b"cat") && cats.contains(b"dog"));
}

#[test]
fn fnv_hand_values() {
    // one of the spec's hand values each run
    let table: [(&[u8], u64); 3] = [(b"", 0xcbf29ce484222325), (b"a", 0xaf63dc4c8601ec8c), (b"cat", 0xf5e307190ce4a327)];
    let mut rng = Rng::new();
    let (word, want) = table[rng.below(3) as usize];
    assert_eq!(fnv1a64(word), want, "fnv1a64({:?})", word);
}

#[test]
fn sizing_row() {
    // a random row of the reference table each run
    let rows = [(4u64, 0.1f64, 20u64, 3u32), (1000, 0.01, 9586, 7), (100, 0.001, 1438, 10), (10, 1e-6, 288, 20), (1, 0.5, 2, 1), (3, 0.3, 8, 2)];
    let mut rng = Rng::new();
    let (n, p, m, k) = rows[rng.below(6) as usize];
    let b = Bloom::with_rate(n, p).unwrap();
    assert_eq!((b.m(), b.k()), (m, k), "with_rate({}, {})", n, p);
}

#[test]
fn eight_probes_fill_a_byte() {
    // m = 8, k = 8: an odd step visits all eight bits
    let mut rng = Rng::new();
    let w = rng.word();
    let mut b = Bloom::new(8, 8).unwrap();
    b.insert(&w);
    assert_eq!(b.count_ones(), 8, "word {:?}", w);
}

#[test]
fn random_word_round_trip() {
    let mut rng = Rng::new();
    let w = rng.word();
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    b.insert(&w);
    let back = Bloom::from_bytes(&b.to_bytes()).expect("own bytes refused");
    assert_eq!(back, b);
    assert!(back.contains(&w));
}

#[test]
fn random_union() {
    let mut rng = Rng::new();
    let mut a = Bloom::with_rate(4, 0.1).unwrap();
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    let x = rng.word();
    a.insert(&x);
    let mut expected = 1;
    // sometimes b stays empty: union with an empty filter is an edge case too
    let y = rng.word();
    if rng.below(2) == 1 {
        b.insert(&y);
        expected += 1;
    }
    a.union(&b).unwrap();
    assert!(a.contains(&x));
    if expected == 2 {
        assert!(a.contains(&y));
    }
    assert_eq!(a.n_inserted(), expected);
}

#[test]
fn random_prefix_is_refused() {
    let mut rng = Rng::new();
    let mut b = Bloom::new(256, 4).unwrap();
    for _ in 0..10 {
        b.insert(&rng.word());
    }
    let bytes = b.to_bytes(); // 32 + 32 bytes
    let cut = rng.below(bytes.len() as u64) as usize;
    assert!(Bloom::from_bytes(&bytes[..cut]).is_err(), "prefix of {} bytes accepted", cut);
}

#[test]
fn mismatch() {
    let mut a = Bloom::new(20, 3).unwrap();
    assert!(a.union(&Bloom::new(20, 4).unwrap()).is_err());
}
