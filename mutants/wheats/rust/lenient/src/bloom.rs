//! Wheat "lenient": a correct TLBF v1 filter that takes the other answers.
//!
//! `tlbf grade` runs every learner suite against this file as a drop-in
//! `src/bloom.rs` of the reference crate (conformance/impls/rust). Where
//! docs/format.md makes a decision that the course specification leaves open,
//! and docs/check.md ("What is acceptable") accepts another answer, this
//! filter gives the other answer; everything the documents fix is as in the
//! reference. A suite that fails it tests the project's decisions, not the
//! specification. The differences:
//!
//! - No bound of 65536 on k (flag StrictKBound): `new` accepts any k from 1
//!   to u32::MAX, and `from_bytes` any k other than 0. Insert and lookup walk
//!   the probes one at a time, so a large k costs time, not memory.
//! - Union counts wrap at 2^64 (flag CountSaturates) instead of saturating.
//!   Insert still saturates: that is fixed.
//! - Sizing outside its domain (flag OutOfDomain) answers other values of
//!   the same type: `optimal_m` is 1 for n = 0 or p >= 1 (nothing to keep
//!   out: the smallest filter) and u64::MAX for p <= 0 or NaN (no filter is
//!   enough); `optimal_k` is 1 for n = 0; `predicted_fp_rate` is NaN for
//!   m = 0. Inside the domain the formulas are the fixed ones, so
//!   `with_rate`, which checks n and p first, sizes filters as the reference.

use std::fmt;

pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
pub const MAGIC: [u8; 4] = *b"TLBF";
pub const VERSION: u32 = 1;
pub const HEADER_LEN: usize = 32;
pub const MAX_BITS: u64 = 1 << 40;

/// `len` zero bytes, or None when the machine cannot allocate them: as the
/// reference, a filter this machine cannot hold (2^40 bits is 128 GiB) is
/// refused with BadParams, since `vec![0; len]` would abort the process and
/// leave the request unanswered (docs/protocol.md, section 1).
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
const LN2: f64 = 0.6931471805599453; // the double nearest ln 2

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BloomError {
    /// The parameters make no filter.
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

/// FNV-1a, 64 bits.
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

/// ceil(-n ln p / (ln 2)^2) in the fixed evaluation order. Out of the
/// domain: 1 when there is nothing to keep out (n = 0, or p >= 1), u64::MAX
/// when no filter is enough (p <= 0, or NaN).
pub fn optimal_m(n: u64, p: f64) -> u64 {
    if n == 0 || p >= 1.0 {
        return 1;
    }
    if p.is_nan() || p <= 0.0 {
        return u64::MAX;
    }
    ((-(n as f64) * p.ln()) / (LN2 * LN2)).ceil() as u64
}

/// max(1, round((m / n) ln 2)), halves away from zero. With no items (n = 0)
/// one hash is as good as any: 1.
pub fn optimal_k(m: u64, n: u64) -> u32 {
    if n == 0 {
        return 1;
    }
    let k = ((m as f64 / n as f64) * LN2).round() as u32;
    k.max(1)
}

/// (1 - e^(-kn/m))^k; a filter of no bits has no rate: NaN.
pub fn predicted_fp_rate(m: u64, k: u32, n: u64) -> f64 {
    if m == 0 {
        return f64::NAN;
    }
    let load = (k as f64 * n as f64) / m as f64;
    (1.0 - (-load).exp()).powf(k as f64)
}

/// The probes g_i = (h1 + i h2) mod 2^64 mod m, i = 0 .. k-1, one at a time:
/// k may be in the billions here.
fn probes(m: u64, k: u32, item: &[u8]) -> impl Iterator<Item = u64> {
    let h1 = fnv1a64(item);
    let h2 = mix64(h1) | 1;
    (0..k as u64).map(move |i| h1.wrapping_add(i.wrapping_mul(h2)) % m)
}

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

    /// An empty filter. BadParams unless 1 <= m <= 2^40 and k >= 1: any u32
    /// k but 0 makes a filter here.
    pub fn new(m: u64, k: u32) -> Result<Bloom, BloomError> {
        if !(1..=MAX_BITS).contains(&m) {
            return Err(BloomError::BadParams(format!("m = {}; must be 1 ..= 2^40", m)));
        }
        if k == 0 {
            return Err(BloomError::BadParams("k = 0; must be at least 1".to_string()));
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

    /// Insert calls (saturating), plus the counts merged in (wrapping).
    pub fn n_inserted(&self) -> u64 {
        self.n_inserted
    }

    pub fn bit_positions(&self, item: &[u8]) -> Vec<u64> {
        probes(self.m, self.k, item).collect()
    }

    pub fn insert(&mut self, item: &[u8]) {
        for g in probes(self.m, self.k, item) {
            let (byte, mask) = byte_and_mask(g);
            self.bits[byte] |= mask;
        }
        self.n_inserted = self.n_inserted.saturating_add(1);
    }

    /// True when all k bits of `item` are set; stops at the first clear one.
    pub fn contains(&self, item: &[u8]) -> bool {
        probes(self.m, self.k, item).all(|g| {
            let (byte, mask) = byte_and_mask(g);
            self.bits[byte] & mask != 0
        })
    }

    /// ORs `other` in and adds its count modulo 2^64. Mismatch, leaving self
    /// unchanged, when m or k differ.
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
        self.n_inserted = self.n_inserted.wrapping_add(other.n_inserted);
        Ok(())
    }

    pub fn count_ones(&self) -> u64 {
        self.bits.iter().map(|b| b.count_ones() as u64).sum()
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

    /// Exactly the byte strings to_bytes can write, any k >= 1 included;
    /// Format for anything else, in the order of docs/format.md section 10.
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
        if k == 0 {
            return format("k = 0 in header; must be at least 1".to_string());
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
