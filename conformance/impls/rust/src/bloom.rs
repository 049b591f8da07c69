//! A TLBF v1 Bloom filter (docs/format.md), the specification's section 4.
//!
//! Written from docs/format.md, sharing no code with the C++ oracle. The
//! planted bugs s01 .. s10 of `tlbf mutate` (mutants/patches/rust) are
//! patches of this file, so each rule lives in exactly one place here.

use std::fmt;

pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
pub const MAGIC: [u8; 4] = *b"TLBF";
pub const VERSION: u32 = 1;
pub const HEADER_LEN: usize = 32;
pub const MAX_BITS: u64 = 1 << 40;
/// The format's bound on k (docs/format.md, section 5).
const MAX_K: u32 = 1 << 16;
const LN2: f64 = 0.6931471805599453; // the double nearest ln 2

/// `len` zero bytes, or None when the machine cannot allocate them. A filter
/// of 2^40 bits is 128 GiB, and `vec![0; len]` aborts the process when its
/// allocation fails, leaving the request unanswered; every request gets one
/// line (docs/protocol.md, section 1). alloc_zeroed, like vec!, takes pages
/// the kernel zeroes when first touched, so a large filter costs nothing
/// until it is written.
fn zeroed(len: usize) -> Option<Vec<u8>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u8>(len).ok()?;
    // SAFETY: the layout has a size of len > 0 bytes; the block is zeroed,
    // so all len bytes are initialised u8; the Vec owns it with the layout
    // it was allocated with (align 1, capacity len).
    unsafe {
        let p = std::alloc::alloc_zeroed(layout);
        if p.is_null() {
            return None;
        }
        Some(Vec::from_raw_parts(p, len, len))
    }
}

/// What went wrong, with a message naming the field and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BloomError {
    /// The parameters make no TLBF v1 filter.
    BadParams(String),
    /// A union of filters that differ in m or k.
    Mismatch(String),
    /// Bytes that are not one TLBF v1 filter.
    Format(String),
}

impl fmt::Display for BloomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BloomError::BadParams(m) => write!(f, "BadParams: {}", m),
            BloomError::Mismatch(m) => write!(f, "Mismatch: {}", m),
            BloomError::Format(m) => write!(f, "Format: {}", m),
        }
    }
}

impl std::error::Error for BloomError {}

/// FNV-1a, 64 bits: XOR each byte in, then multiply.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = FNV_OFFSET;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

/// The SplitMix64 finalizer.
pub fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

// Rust's float-to-int `as` casts saturate and send NaN to 0, as the format
// page asks, so the formulas read as they do there.

/// Bits for `n` items at false-positive rate `p`: ceil(-n ln p / (ln 2)^2).
pub fn optimal_m(n: u64, p: f64) -> u64 {
    ((-(n as f64) * p.ln()) / (LN2 * LN2)).ceil() as u64
}

/// Hashes for `m` bits and `n` items: round(m/n ln 2), halves away from zero, at least 1.
pub fn optimal_k(m: u64, n: u64) -> u32 {
    let k = ((m as f64 / n as f64) * LN2).round() as u32;
    k.max(1)
}

/// (1 - e^(-kn/m))^k.
pub fn predicted_fp_rate(m: u64, k: u32, n: u64) -> f64 {
    let load = (k as f64 * n as f64) / m as f64;
    (1.0 - (-load).exp()).powf(k as f64)
}

/// The byte holding bit `g`, and the mask of `g` in it: least significant bit first.
fn byte_and_mask(g: u64) -> (usize, u8) {
    ((g / 8) as usize, 1u8 << (g % 8))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bloom {
    m: u64,
    k: u32,
    n_inserted: u64,
    bits: Vec<u8>,
}

impl Bloom {
    /// Sized for `n` items at rate `p`. BadParams unless n >= 1, 0 < p < 1,
    /// and the size is at most MAX_BITS.
    pub fn with_rate(n: u64, p: f64) -> Result<Bloom, BloomError> {
        if n < 1 {
            return Err(BloomError::BadParams("n = 0; must be at least 1".to_string()));
        }
        if !(p > 0.0 && p < 1.0) {
            return Err(BloomError::BadParams(format!("p = {}; must lie in (0, 1)", p)));
        }
        let m = optimal_m(n, p);
        if m > MAX_BITS {
            return Err(BloomError::BadParams(format!("n = {}, p = {} need m = {} > 2^40", n, p, m)));
        }
        Bloom::new(m, optimal_k(m, n))
    }

    /// An empty filter. BadParams unless 1 <= m <= 2^40 and 1 <= k <= 65536.
    pub fn new(m: u64, k: u32) -> Result<Bloom, BloomError> {
        if !(1..=MAX_BITS).contains(&m) {
            return Err(BloomError::BadParams(format!("m = {}; must be 1 ..= 2^40", m)));
        }
        if !(1..=MAX_K).contains(&k) {
            return Err(BloomError::BadParams(format!("k = {}; must be 1 ..= 65536", k)));
        }
        let bits = zeroed(((m + 7) / 8) as usize).ok_or_else(|| {
            BloomError::BadParams(format!("m = {}: this machine cannot allocate its bits", m))
        })?;
        Ok(Bloom { m, k, n_inserted: 0, bits })
    }

    pub fn m(&self) -> u64 {
        self.m
    }

    pub fn k(&self) -> u32 {
        self.k
    }

    /// Insert calls, plus the counts of every filter merged in (saturating).
    pub fn n_inserted(&self) -> u64 {
        self.n_inserted
    }

    /// g_i = (h1 + i h2) mod 2^64 mod m for i in 0..k, with h1 = fnv1a64(item)
    /// and h2 = mix64(h1) forced odd.
    pub fn bit_positions(&self, item: &[u8]) -> Vec<u64> {
        let h1 = fnv1a64(item);
        let h2 = mix64(h1) | 1;
        (0..self.k as u64).map(|i| h1.wrapping_add(i.wrapping_mul(h2)) % self.m).collect()
    }

    pub fn insert(&mut self, item: &[u8]) {
        for g in self.bit_positions(item) {
            let (byte, mask) = byte_and_mask(g);
            self.bits[byte] |= mask;
        }
        self.n_inserted = self.n_inserted.saturating_add(1);
    }

    /// True when all k bits of `item` are set: never false for an inserted item.
    pub fn contains(&self, item: &[u8]) -> bool {
        self.bit_positions(item).into_iter().all(|g| {
            let (byte, mask) = byte_and_mask(g);
            self.bits[byte] & mask != 0
        })
    }

    /// ORs `other` in and adds its count. Mismatch, leaving self unchanged,
    /// when m or k differ.
    pub fn union(&mut self, other: &Bloom) -> Result<(), BloomError> {
        if self.m != other.m || self.k != other.k {
            return Err(BloomError::Mismatch(format!(
                "m = {}, k = {} vs m = {}, k = {}",
                self.m, self.k, other.m, other.k
            )));
        }
        for (mine, theirs) in self.bits.iter_mut().zip(other.bits.iter()) {
            *mine |= *theirs;
        }
        self.n_inserted = self.n_inserted.saturating_add(other.n_inserted);
        Ok(())
    }

    pub fn count_ones(&self) -> u64 {
        // By blocks of 64 bytes, a block of zeros skipped after one OR of its
        // words: tlbf check counts a filter of 2^31 + 64 bits with three items
        // set, which a count per byte took 0.2 s for.
        let mut ones = 0u64;
        let mut blocks = self.bits.chunks_exact(64);
        for block in &mut blocks {
            let mut words = [0u64; 8];
            for (word, bytes) in words.iter_mut().zip(block.chunks_exact(8)) {
                *word = u64::from_le_bytes(bytes.try_into().unwrap());
            }
            if words.iter().fold(0, |any, w| any | w) != 0 {
                ones += words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
            }
        }
        ones + blocks.remainder().iter().map(|b| u64::from(b.count_ones())).sum::<u64>()
    }

    /// The 32-byte little-endian header, then ceil(m/8) bytes of bits.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.bits.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.m.to_le_bytes());
        out.extend_from_slice(&self.k.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&self.n_inserted.to_le_bytes());
        out.extend_from_slice(&self.bits);
        out
    }

    /// Exactly the byte strings to_bytes can write; Format for anything else,
    /// checked in the order of docs/format.md section 10, the length before
    /// anything is allocated.
    pub fn from_bytes(b: &[u8]) -> Result<Bloom, BloomError> {
        let format = |message: String| Err(BloomError::Format(message));
        if b.len() < HEADER_LEN {
            return format(format!("short: {} bytes, the header alone is {}", b.len(), HEADER_LEN));
        }
        let u32_at = |at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        let u64_at = |at: usize| {
            let mut word = [0u8; 8];
            word.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(word)
        };
        if b[0..4] != MAGIC {
            return format("magic: not TLBF".to_string());
        }
        if u32_at(4) != VERSION {
            return format(format!("version = {}; must be 1", u32_at(4)));
        }
        let m = u64_at(8);
        if !(1..=MAX_BITS).contains(&m) {
            return format(format!("m = {} in header; must be 1 ..= 2^40", m));
        }
        let k = u32_at(16);
        if !(1..=MAX_K).contains(&k) {
            return format(format!("k = {} in header; must be 1 ..= 65536", k));
        }
        if u32_at(20) != 0 {
            return format(format!("reserved = {}; must be 0", u32_at(20)));
        }
        let want = (m + 7) / 8;
        let body = (b.len() - HEADER_LEN) as u64;
        if body != want {
            return format(format!("length: m = {} needs {} bytes of bits, not {}", m, want, body));
        }
        if m % 8 != 0 && b[b.len() - 1] >> (m % 8) != 0 {
            return format("padding: a bit beyond m is set".to_string());
        }
        Ok(Bloom { m, k, n_inserted: u64_at(24), bits: b[HEADER_LEN..].to_vec() })
    }
}
