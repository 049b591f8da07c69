//! TLBF v1 over line protocol v1, standard library only.
//!
//! Written from docs/format.md and docs/protocol.md, sharing no code with the
//! C++ oracle. Copy it to start your own implementation: run it as a child
//! process, it answers one protocol line for each request line on stdin.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};

// ---- the format (docs/format.md) -------------------------------------------

const MAX_BITS: u64 = 1 << 40;
const MAX_K: u32 = 1 << 16;
const LN2: f64 = 0.6931471805599453; // the double nearest ln 2
const HEADER_LEN: usize = 32;

struct Failure {
    kind: &'static str,
    message: String,
}

fn fail<T>(kind: &'static str, message: String) -> Result<T, Failure> {
    Err(Failure { kind, message })
}

fn fnv1a64(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

// Rust's float-to-int `as` casts saturate and send NaN to 0, exactly as the
// format page asks, so the formulas can be written as they read there.
fn optimal_m(n: u64, p: f64) -> u64 {
    ((-(n as f64) * p.ln()) / (LN2 * LN2)).ceil() as u64
}

fn optimal_k(m: u64, n: u64) -> u32 {
    let k = (((m as f64) / (n as f64)) * LN2).round() as u32; // round: halves away from zero
    k.max(1)
}

fn predicted_fp_rate(m: u64, k: u32, n: u64) -> f64 {
    let load = ((k as f64) * (n as f64)) / (m as f64);
    (1.0 - (-load).exp()).powf(k as f64)
}

fn positions(m: u64, k: u32, item: &[u8]) -> Vec<u64> {
    let h1 = fnv1a64(item);
    let h2 = mix64(h1) | 1;
    (0..k as u64).map(|i| h1.wrapping_add(i.wrapping_mul(h2)) % m).collect()
}

fn check_params(m: u64, k: u32) -> Result<(), Failure> {
    if !(1..=MAX_BITS).contains(&m) {
        return fail("BadParams", format!("m = {}; must be 1 ..= 2^40", m));
    }
    if !(1..=MAX_K).contains(&k) {
        return fail("BadParams", format!("k = {}; must be 1 ..= 65536", k));
    }
    Ok(())
}

#[derive(Clone)]
struct Bloom {
    m: u64,
    k: u32,
    n_inserted: u64,
    bits: Vec<u8>,
}

impl Bloom {
    fn new(m: u64, k: u32) -> Result<Bloom, Failure> {
        check_params(m, k)?;
        Ok(Bloom { m, k, n_inserted: 0, bits: vec![0; ((m + 7) / 8) as usize] })
    }

    fn with_rate(n: u64, p: f64) -> Result<Bloom, Failure> {
        if n < 1 {
            return fail("BadParams", "n = 0; must be at least 1".to_string());
        }
        if !(p > 0.0 && p < 1.0) {
            return fail("BadParams", format!("p = {}; must lie in (0, 1)", p));
        }
        let m = optimal_m(n, p);
        if m > MAX_BITS {
            return fail("BadParams", format!("n = {}, p = {} need m = {}", n, p, m));
        }
        Bloom::new(m, optimal_k(m, n))
    }

    fn insert(&mut self, item: &[u8]) {
        for g in positions(self.m, self.k, item) {
            self.bits[(g / 8) as usize] |= 1 << (g % 8);
        }
        self.n_inserted = self.n_inserted.saturating_add(1);
    }

    fn contains(&self, item: &[u8]) -> bool {
        let h1 = fnv1a64(item);
        let h2 = mix64(h1) | 1;
        let mut h = h1;
        for _ in 0..self.k {
            let g = h % self.m;
            if self.bits[(g / 8) as usize] >> (g % 8) & 1 == 0 {
                return false;
            }
            h = h.wrapping_add(h2);
        }
        true
    }

    fn union(&mut self, other: &Bloom) -> Result<(), Failure> {
        if self.m != other.m || self.k != other.k {
            return fail(
                "Mismatch",
                format!("m = {}, k = {} vs m = {}, k = {}", self.m, self.k, other.m, other.k),
            );
        }
        for (mine, theirs) in self.bits.iter_mut().zip(other.bits.iter()) {
            *mine |= *theirs;
        }
        self.n_inserted = self.n_inserted.saturating_add(other.n_inserted);
        Ok(())
    }

    fn count_ones(&self) -> u64 {
        self.bits.iter().map(|b| b.count_ones() as u64).sum()
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.bits.len());
        out.extend_from_slice(b"TLBF");
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&self.m.to_le_bytes());
        out.extend_from_slice(&self.k.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&self.n_inserted.to_le_bytes());
        out.extend_from_slice(&self.bits);
        out
    }

    fn from_bytes(data: &[u8]) -> Result<Bloom, Failure> {
        let u32_at = |at: usize| u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
        let u64_at = |at: usize| {
            let mut word = [0u8; 8];
            word.copy_from_slice(&data[at..at + 8]);
            u64::from_le_bytes(word)
        };
        if data.len() < HEADER_LEN {
            return fail("Format", format!("short: {} bytes", data.len()));
        }
        if &data[0..4] != b"TLBF" {
            return fail("Format", "magic".to_string());
        }
        if u32_at(4) != 1 {
            return fail("Format", format!("version = {}", u32_at(4)));
        }
        let m = u64_at(8);
        if !(1..=MAX_BITS).contains(&m) {
            return fail("Format", format!("m = {}", m));
        }
        let k = u32_at(16);
        if !(1..=MAX_K).contains(&k) {
            return fail("Format", format!("k = {}", k));
        }
        if u32_at(20) != 0 {
            return fail("Format", "reserved".to_string());
        }
        let want = (m + 7) / 8; // checked before anything is allocated
        if (data.len() - HEADER_LEN) as u64 != want {
            return fail("Format", format!("length: m = {} needs {} bytes of bits", m, want));
        }
        if m % 8 != 0 && data[data.len() - 1] >> (m % 8) != 0 {
            return fail("Format", "padding bits set".to_string());
        }
        Ok(Bloom { m, k, n_inserted: u64_at(24), bits: data[HEADER_LEN..].to_vec() })
    }
}

// ---- the protocol (docs/protocol.md) ---------------------------------------

fn protocol<T>(message: String) -> Result<T, Failure> {
    fail("Protocol", message)
}

fn all_digits(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(|c| c.is_ascii_digit())
}

fn read_u64(w: &str) -> Result<u64, Failure> {
    // str::parse alone would accept a leading '+'.
    match w.parse::<u64>() {
        Ok(v) if all_digits(w) => Ok(v),
        _ => protocol(format!("'{}' is not a u64", w)),
    }
}

fn read_u32(w: &str) -> Result<u32, Failure> {
    match w.parse::<u32>() {
        Ok(v) if all_digits(w) => Ok(v),
        _ => protocol(format!("'{}' is not a u32", w)),
    }
}

fn read_hash(w: &str) -> Result<u64, Failure> {
    if w.len() == 16 && w.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)) {
        return Ok(u64::from_str_radix(w, 16).unwrap_or(0));
    }
    protocol(format!("'{}' is not 16 lowercase hex digits", w))
}

fn read_bytes(w: &str) -> Result<Vec<u8>, Failure> {
    if w == "-" {
        return Ok(Vec::new());
    }
    let digit = |c: u8| (c as char).to_digit(16);
    let raw = w.as_bytes();
    if raw.is_empty() || raw.len() % 2 != 0 {
        return protocol("bytes must be an even number of hex digits, or -".to_string());
    }
    let mut out = Vec::with_capacity(raw.len() / 2);
    for pair in raw.chunks(2) {
        match (digit(pair[0]), digit(pair[1])) {
            (Some(hi), Some(lo)) => out.push((hi * 16 + lo) as u8),
            _ => return protocol("bytes must be hex, or -".to_string()),
        }
    }
    Ok(out)
}

// -? ( digits ( . digits* )? | . digits ) ( [eE] [+-]? digits )?, or nan, inf, -inf
fn is_decimal_real(w: &str) -> bool {
    let b = w.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'-' {
        i += 1;
    }
    let whole = digits(&mut i);
    let mut fraction = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        fraction = digits(&mut i);
    }
    if whole == 0 && fraction == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

fn read_real(w: &str) -> Result<f64, Failure> {
    match w {
        "nan" => Ok(f64::NAN),
        "inf" => Ok(f64::INFINITY),
        "-inf" => Ok(f64::NEG_INFINITY),
        _ if is_decimal_real(w) => w.parse::<f64>().or_else(|_| protocol(format!("'{}' is not a real", w))),
        _ => protocol(format!("'{}' is not a real", w)),
    }
}

fn read_name(w: &str) -> Result<String, Failure> {
    if !w.is_empty() && w.len() <= 32 && w.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return Ok(w.to_string());
    }
    protocol(format!("'{}' is not a filter name", w))
}

fn write_real(x: f64) -> String {
    if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{:e}", x) // shortest digits that round-trip
    }
}

fn hex(data: &[u8]) -> String {
    if data.is_empty() {
        return "-".to_string();
    }
    data.iter().map(|b| format!("{:02x}", b)).collect()
}

struct Session {
    filters: HashMap<String, Bloom>,
}

/// The command words this implementation offers, with their argument counts.
const COMMANDS: &[(&str, usize)] = &[
    ("hello", 0),
    ("fnv1a64", 1),
    ("mix64", 1),
    ("positions_for", 3),
    ("optimal_m", 2),
    ("optimal_k", 2),
    ("predicted_fp_rate", 3),
    ("with_rate", 3),
    ("new", 3),
    ("info", 1),
    ("positions", 2),
    ("insert", 2),
    ("contains", 2),
    ("count_ones", 1),
    ("drop", 1),
    ("to_bytes", 1),
    ("from_bytes", 2),
    ("union", 2),
];

impl Session {
    fn handle(&mut self, line: &str) -> String {
        match self.answer(line) {
            Ok(words) if words.is_empty() => "ok".to_string(),
            Ok(words) => format!("ok {}", words.join(" ")),
            Err(e) => format!("err {} {}", e.kind, e.message),
        }
    }

    fn filter(&self, name: &str) -> Result<&Bloom, Failure> {
        match self.filters.get(name) {
            Some(b) => Ok(b),
            None => fail("NoSuchFilter", format!("no filter '{}'", name)),
        }
    }

    fn filter_mut(&mut self, name: &str) -> Result<&mut Bloom, Failure> {
        match self.filters.get_mut(name) {
            Some(b) => Ok(b),
            None => fail("NoSuchFilter", format!("no filter '{}'", name)),
        }
    }

    fn answer(&mut self, line: &str) -> Result<Vec<String>, Failure> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let printable = line.bytes().all(|c| (0x20..=0x7e).contains(&c));
        let words: Vec<&str> = line.split(' ').collect();
        if line.is_empty() || !printable || words.iter().any(|w| w.is_empty()) {
            return protocol("a request is printable ASCII words separated by single spaces".to_string());
        }
        let (word, args) = (words[0], &words[1..]);
        let arity = match COMMANDS.iter().find(|(name, _)| *name == word) {
            Some((_, arity)) => *arity,
            None => return fail("Unknown", format!("no command '{}'", word)),
        };
        if args.len() != arity {
            return protocol(format!("{} takes {} arguments, not {}", word, arity, args.len()));
        }
        // Arguments are read left to right; filters are looked up after all
        // of them have been read (docs/protocol.md, order of checks).
        match word {
            "hello" => Ok(vec!["1".into(), "tlbf-rust".into(), "1".into()]),
            "fnv1a64" => Ok(vec![format!("{:016x}", fnv1a64(&read_bytes(args[0])?))]),
            "mix64" => Ok(vec![format!("{:016x}", mix64(read_hash(args[0])?))]),
            "positions_for" => {
                let (m, k, item) = (read_u64(args[0])?, read_u32(args[1])?, read_bytes(args[2])?);
                check_params(m, k)?;
                Ok(positions(m, k, &item).iter().map(|g| g.to_string()).collect())
            }
            "optimal_m" => {
                let (n, p) = (read_u64(args[0])?, read_real(args[1])?);
                Ok(vec![optimal_m(n, p).to_string()])
            }
            "optimal_k" => {
                let (m, n) = (read_u64(args[0])?, read_u64(args[1])?);
                Ok(vec![optimal_k(m, n).to_string()])
            }
            "predicted_fp_rate" => {
                let (m, k, n) = (read_u64(args[0])?, read_u32(args[1])?, read_u64(args[2])?);
                Ok(vec![write_real(predicted_fp_rate(m, k, n))])
            }
            "with_rate" => {
                let (name, n, p) = (read_name(args[0])?, read_u64(args[1])?, read_real(args[2])?);
                let bloom = Bloom::with_rate(n, p)?;
                self.filters.insert(name, bloom);
                Ok(vec![])
            }
            "new" => {
                let (name, m, k) = (read_name(args[0])?, read_u64(args[1])?, read_u32(args[2])?);
                let bloom = Bloom::new(m, k)?;
                self.filters.insert(name, bloom);
                Ok(vec![])
            }
            "from_bytes" => {
                let (name, data) = (read_name(args[0])?, read_bytes(args[1])?);
                let bloom = Bloom::from_bytes(&data)?;
                self.filters.insert(name, bloom);
                Ok(vec![])
            }
            "info" => {
                let b = self.filter(&read_name(args[0])?)?;
                Ok(vec![b.m.to_string(), b.k.to_string(), b.n_inserted.to_string()])
            }
            "positions" => {
                let (name, item) = (read_name(args[0])?, read_bytes(args[1])?);
                let b = self.filter(&name)?;
                Ok(positions(b.m, b.k, &item).iter().map(|g| g.to_string()).collect())
            }
            "insert" => {
                let (name, item) = (read_name(args[0])?, read_bytes(args[1])?);
                self.filter_mut(&name)?.insert(&item);
                Ok(vec![])
            }
            "contains" => {
                let (name, item) = (read_name(args[0])?, read_bytes(args[1])?);
                Ok(vec![self.filter(&name)?.contains(&item).to_string()])
            }
            "count_ones" => Ok(vec![self.filter(&read_name(args[0])?)?.count_ones().to_string()]),
            "drop" => {
                let name = read_name(args[0])?;
                self.filter(&name)?;
                self.filters.remove(&name);
                Ok(vec![])
            }
            "to_bytes" => Ok(vec![hex(&self.filter(&read_name(args[0])?)?.to_bytes())]),
            "union" => {
                let (a, b) = (read_name(args[0])?, read_name(args[1])?);
                let other = self.filter(&a).and(self.filter(&b))?.clone();
                self.filter_mut(&a)?.union(&other)?;
                Ok(vec![])
            }
            _ => fail("Unknown", format!("no command '{}'", word)),
        }
    }
}

/// Answers every complete line that has arrived, then flushes before waiting
/// for more input: pipelined requests never wait on a full buffer.
fn serve() -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = io::BufReader::with_capacity(1 << 16, stdin.lock());
    let stdout = io::stdout();
    let mut output = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut session = Session { filters: HashMap::new() };
    let mut line = Vec::new();
    loop {
        if !input.buffer().contains(&b'\n') {
            output.flush()?; // the next line needs a read, which may wait
        }
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        // Bytes outside ASCII fail the printable check inside handle().
        let text = String::from_utf8_lossy(&line);
        let response = session.handle(&text);
        output.write_all(response.as_bytes())?;
        output.write_all(b"\n")?;
    }
    output.flush()
}

fn main() {
    if let Err(e) = serve() {
        eprintln!("tlbf-rust: {}", e);
        std::process::exit(3);
    }
}
