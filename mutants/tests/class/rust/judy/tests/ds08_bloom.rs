// judy - ds08
// I wanted to understand the maths first, so these check the numbers from
// the spec with my own little helpers. (Hooking up the crate is next week.)

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf29ce484222325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100000001b3))
}

fn ideal_m(n: f64, p: f64) -> u64 {
    let ln2 = std::f64::consts::LN_2;
    (-n * p.ln() / (ln2 * ln2)).ceil() as u64
}

#[test]
fn fnv_vectors() {
    assert_eq!(fnv1a(b""), 0xcbf29ce484222325);
    assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
    assert_eq!(fnv1a(b"cat"), 0xf5e307190ce4a327);
}

#[test]
fn sizes() {
    assert_eq!(ideal_m(4.0, 0.1), 20);
    assert_eq!(ideal_m(1000.0, 0.01), 9586);
    let k = (20.0f64 / 4.0 * std::f64::consts::LN_2).round();
    assert_eq!(k, 3.0);
}

#[test]
fn example_bits() {
    // cat -> 11, 14, 17 and dog -> 13, 0, 3, bit g in byte g/8 at g%8
    let mut bits = [0u8; 3];
    for g in [11u64, 14, 17, 13, 0, 3] {
        bits[(g / 8) as usize] |= 1 << (g % 8);
    }
    assert_eq!(bits, [0x09, 0x68, 0x02]);
}
