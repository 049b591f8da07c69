//! Wheat "rewritten": a correct TLBF v1 filter written apart from the reference.
//!
//! `tlbf grade` runs every learner suite against this file as a drop-in
//! `src/bloom.rs` of the reference crate (conformance/impls/rust). It answers
//! exactly as the reference does for every input, decision for decision
//! (docs/format.md), but shares none of its text: the bits are kept in 64-bit
//! words, the probes come from a running wrapping sum, the header is read and
//! written at fixed offsets, the Rust `as` saturation is spelled out, union
//! walks indices and the error messages are worded differently (their kinds
//! are the same). A suite that passes the reference by recognising its source
//! (`include_str!` and a hash, line numbers, private names, `Debug` output)
//! instead of testing its behaviour fails here.

use std::f64::consts::LN_2;
use std::fmt;

pub const MAX_BITS: u64 = 1u64 << 40;
pub const HEADER_LEN: usize = 32;
pub const VERSION: u32 = 1;
pub const MAGIC: [u8; 4] = [0x54, 0x4c, 0x42, 0x46];
pub const FNV_PRIME: u64 = 1_099_511_628_211;
pub const FNV_OFFSET: u64 = 14_695_981_039_346_656_037;

/// Largest k a filter may have (docs/format.md, section 5).
const PROBE_LIMIT: u32 = 65_536;

/// The two SplitMix64 finalizer rounds: (shift, multiplier).
const MIX_ROUNDS: [(u32, u64); 2] = [(30, 0xbf58476d1ce4e5b9), (27, 0x94d049bb133111eb)];

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BloomError {
    BadParams(String),
    Mismatch(String),
    Format(String),
}

impl fmt::Display for BloomError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (label, detail) = match self {
            BloomError::BadParams(d) => ("bad parameters", d),
            BloomError::Mismatch(d) => ("filters do not match", d),
            BloomError::Format(d) => ("not a TLBF v1 file", d),
        };
        write!(out, "{} ({})", label, detail)
    }
}

impl std::error::Error for BloomError {}

pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |acc, &byte| (acc ^ u64::from(byte)).wrapping_mul(FNV_PRIME))
}

pub fn mix64(x: u64) -> u64 {
    let mut z = x;
    for &(shift, multiplier) in MIX_ROUNDS.iter() {
        z ^= z >> shift;
        z = z.wrapping_mul(multiplier);
    }
    z ^ (z >> 31)
}

/// A finite or infinite double to u64, the way Rust's `as` does it:
/// NaN and anything not above 0 give 0, 2^64 and above give u64::MAX.
fn clamp_to_u64(x: f64) -> u64 {
    const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= TWO_POW_64 {
        u64::MAX
    } else {
        x as u64
    }
}

/// The same for u32.
fn clamp_to_u32(x: f64) -> u32 {
    const TWO_POW_32: f64 = 4_294_967_296.0;
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= TWO_POW_32 {
        u32::MAX
    } else {
        x as u32
    }
}

pub fn optimal_m(n: u64, p: f64) -> u64 {
    // n * (-ln p) has the bits of (-n) * ln p: negation is exact.
    let ideal = (n as f64) * -p.ln() / (LN_2 * LN_2);
    clamp_to_u64(ideal.ceil())
}

pub fn optimal_k(m: u64, n: u64) -> u32 {
    let per_item = m as f64 / n as f64;
    match clamp_to_u32((per_item * LN_2).round()) {
        0 => 1,
        k => k,
    }
}

pub fn predicted_fp_rate(m: u64, k: u32, n: u64) -> f64 {
    let hashes = f64::from(k);
    let load = hashes * n as f64 / m as f64;
    let set_fraction = 1.0 - f64::exp(-load);
    set_fraction.powf(hashes)
}

/// Bytes of bits for a filter of `m` bits.
fn byte_len(m: u64) -> u64 {
    m / 8 + u64::from(m % 8 != 0)
}

/// 64-bit words that hold `m` bits.
fn word_len(m: u64) -> usize {
    (m / 64 + u64::from(m % 64 != 0)) as usize
}

/// `len` zero words, or None when the machine cannot allocate them: a filter
/// of 2^40 bits (128 GiB) is refused with BadParams, where `vec![0u64; len]`
/// would abort the process with the request unanswered.
fn zeroed_words(len: usize) -> Option<Vec<u64>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u64>(len).ok()?;
    // SAFETY: the layout has a size of 8 * len > 0 bytes and u64's alignment;
    // the block is zeroed, so all len words are initialised; the Vec owns it
    // with the layout it was allocated with (capacity len).
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut u64;
        if p.is_null() {
            return None;
        }
        Some(Vec::from_raw_parts(p, len, len))
    }
}

/// The probes of one item, produced one by one from a wrapping running sum.
struct Probes {
    next: u64,
    stride: u64,
    modulus: u64,
    remaining: u32,
}

impl Iterator for Probes {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let here = self.next % self.modulus;
        self.next = self.next.wrapping_add(self.stride);
        Some(here)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bloom {
    width: u64,
    probes: u32,
    tally: u64,
    /// Bit g is bit g % 64 of word g / 64; bits at and beyond `width` stay 0.
    words: Vec<u64>,
}

impl Bloom {
    pub fn with_rate(n: u64, p: f64) -> Result<Bloom, BloomError> {
        if n == 0 {
            return Err(BloomError::BadParams("with_rate needs n >= 1, got 0".into()));
        }
        let in_open_unit_interval = p > 0.0 && p < 1.0; // false for NaN
        if !in_open_unit_interval {
            return Err(BloomError::BadParams(format!("with_rate needs 0 < p < 1, got {}", p)));
        }
        let width = optimal_m(n, p);
        if width > MAX_BITS {
            return Err(BloomError::BadParams(format!(
                "with_rate({}, {}) asks for {} bits, more than 2^40",
                n, p, width
            )));
        }
        Bloom::new(width, optimal_k(width, n))
    }

    pub fn new(m: u64, k: u32) -> Result<Bloom, BloomError> {
        if m == 0 || m > MAX_BITS {
            return Err(BloomError::BadParams(format!("new: {} bits is outside 1 ..= 2^40", m)));
        }
        if k == 0 || k > PROBE_LIMIT {
            return Err(BloomError::BadParams(format!("new: {} hashes is outside 1 ..= 65536", k)));
        }
        let words = zeroed_words(word_len(m)).ok_or_else(|| {
            BloomError::BadParams(format!("new: {} bits are more than this machine can allocate", m))
        })?;
        Ok(Bloom { width: m, probes: k, tally: 0, words })
    }

    pub fn m(&self) -> u64 {
        self.width
    }

    pub fn k(&self) -> u32 {
        self.probes
    }

    pub fn n_inserted(&self) -> u64 {
        self.tally
    }

    fn probes_of(&self, item: &[u8]) -> Probes {
        let first = fnv1a64(item);
        Probes { next: first, stride: mix64(first) | 1, modulus: self.width, remaining: self.probes }
    }

    fn is_set(&self, g: u64) -> bool {
        (self.words[(g >> 6) as usize] >> (g & 63)) & 1 == 1
    }

    pub fn bit_positions(&self, item: &[u8]) -> Vec<u64> {
        let mut found = Vec::with_capacity(self.probes as usize);
        found.extend(self.probes_of(item));
        found
    }

    pub fn insert(&mut self, item: &[u8]) {
        let probes = self.probes_of(item);
        for g in probes {
            self.words[(g >> 6) as usize] |= 1u64 << (g & 63);
        }
        self.tally = self.tally.saturating_add(1);
    }

    pub fn contains(&self, item: &[u8]) -> bool {
        let mut probes = self.probes_of(item);
        probes.all(|g| self.is_set(g))
    }

    pub fn union(&mut self, other: &Bloom) -> Result<(), BloomError> {
        if (self.width, self.probes) != (other.width, other.probes) {
            return Err(BloomError::Mismatch(format!(
                "cannot merge (m {}, k {}) with (m {}, k {})",
                self.width, self.probes, other.width, other.probes
            )));
        }
        for i in 0..self.words.len() {
            self.words[i] |= other.words[i];
        }
        self.tally = self.tally.saturating_add(other.tally);
        Ok(())
    }

    pub fn count_ones(&self) -> u64 {
        let mut ones = 0u64;
        for word in &self.words {
            ones += u64::from(word.count_ones());
        }
        ones
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let total = HEADER_LEN + byte_len(self.width) as usize;
        let mut file = vec![0u8; HEADER_LEN];
        file[0..4].copy_from_slice(&MAGIC);
        file[4..8].copy_from_slice(&VERSION.to_le_bytes());
        file[8..16].copy_from_slice(&self.width.to_le_bytes());
        file[16..20].copy_from_slice(&self.probes.to_le_bytes());
        // 20..24 is the reserved field, left 0.
        file[24..32].copy_from_slice(&self.tally.to_le_bytes());
        file.reserve(total - HEADER_LEN);
        for word in &self.words {
            file.extend_from_slice(&word.to_le_bytes());
        }
        file.truncate(total); // the last word may reach past ceil(m / 8)
        file
    }

    pub fn from_bytes(b: &[u8]) -> Result<Bloom, BloomError> {
        fn refuse(why: String) -> Result<Bloom, BloomError> {
            Err(BloomError::Format(why))
        }
        fn le32(field: &[u8]) -> u32 {
            let mut raw = [0u8; 4];
            raw.copy_from_slice(field);
            u32::from_le_bytes(raw)
        }
        fn le64(field: &[u8]) -> u64 {
            let mut raw = [0u8; 8];
            raw.copy_from_slice(field);
            u64::from_le_bytes(raw)
        }

        let header = match b.get(..HEADER_LEN) {
            Some(h) => h,
            None => return refuse(format!("only {} bytes, fewer than a header", b.len())),
        };
        if header[0..4] != MAGIC[..] {
            return refuse("the file does not start with TLBF".into());
        }
        let version = le32(&header[4..8]);
        if version != VERSION {
            return refuse(format!("version {} is not 1", version));
        }
        let width = le64(&header[8..16]);
        if width == 0 || width > MAX_BITS {
            return refuse(format!("header m {} is outside 1 ..= 2^40", width));
        }
        let probes = le32(&header[16..20]);
        if probes == 0 || probes > PROBE_LIMIT {
            return refuse(format!("header k {} is outside 1 ..= 65536", probes));
        }
        let reserved = le32(&header[20..24]);
        if reserved != 0 {
            return refuse(format!("reserved field is {}, not 0", reserved));
        }
        // width <= 2^40, so this sum cannot overflow; nothing is allocated yet.
        let expected = HEADER_LEN as u64 + byte_len(width);
        let actual = b.len() as u64;
        if actual < expected {
            return refuse(format!("truncated: {} bytes, m = {} needs {}", actual, width, expected));
        }
        if actual > expected {
            return refuse(format!("{} bytes too many after the bits", actual - expected));
        }

        let mut words = vec![0u64; word_len(width)];
        for (word, chunk) in words.iter_mut().zip(b[HEADER_LEN..].chunks(8)) {
            let mut raw = [0u8; 8];
            raw[..chunk.len()].copy_from_slice(chunk);
            *word = u64::from_le_bytes(raw);
        }
        // Bits from width up to the end of the last word: those of the last
        // byte come from the file, the rest were filled with 0 above.
        let used = width % 64;
        if used != 0 && words[words.len() - 1] >> used != 0 {
            return refuse("a padding bit after bit m - 1 is set".into());
        }
        Ok(Bloom { width, probes, tally: le64(&header[24..32]), words })
    }
}
