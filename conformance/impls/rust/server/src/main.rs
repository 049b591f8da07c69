//! TLBF v1 over line protocol v1: the filter is the tl-ds library's
//! (`tl_ds::bloom`), this binary reads requests and writes answers. It is
//! also the template of `tlbf check --rust-crate DIR`, which builds it
//! against another crate: its `use tl_ds::bloom::` line then names that
//! crate's module (docs/check.md, "Checking a Rust crate"), so it calls
//! nothing but the section-4 API.
//!
//! Written from docs/format.md and docs/protocol.md, sharing no code with the
//! C++ oracle. Run it as a child process: it answers one protocol line for
//! each request line on stdin.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};

use tl_ds::bloom::{fnv1a64, mix64, optimal_k, optimal_m, predicted_fp_rate, Bloom, BloomError, MAX_BITS};

/// The format's bound on k (docs/format.md, section 5); the library checks it
/// too, but positions_for needs it without making a filter.
const MAX_K: u32 = 1 << 16;

struct Failure {
    kind: &'static str,
    message: String,
}

fn fail<T>(kind: &'static str, message: String) -> Result<T, Failure> {
    Err(Failure { kind, message })
}

impl From<BloomError> for Failure {
    fn from(e: BloomError) -> Failure {
        match e {
            BloomError::BadParams(message) => Failure { kind: "BadParams", message },
            BloomError::Mismatch(message) => Failure { kind: "Mismatch", message },
            BloomError::Format(message) => Failure { kind: "Format", message },
        }
    }
}

/// Up to this m, positions_for makes a filter of m bits and asks its
/// bit_positions, so that the library's own double hashing answers it.
const POSITIONS_FROM_A_FILTER: u64 = 1 << 20;

/// positions_for asks for the probes of (m, k) without a filter. Up to
/// POSITIONS_FROM_A_FILTER bits one is made (Bloom::new decides what is
/// BadParams); above, its bits could be 128 GiB, so the format's double
/// hashing is written out here over the library's hashes.
fn positions_for(m: u64, k: u32, item: &[u8]) -> Result<Vec<u64>, Failure> {
    if m <= POSITIONS_FROM_A_FILTER {
        return Ok(Bloom::new(m, k)?.bit_positions(item));
    }
    if !(1..=MAX_BITS).contains(&m) {
        return fail("BadParams", format!("m = {}; must be 1 ..= 2^40", m));
    }
    if !(1..=MAX_K).contains(&k) {
        return fail("BadParams", format!("k = {}; must be 1 ..= 65536", k));
    }
    let h1 = fnv1a64(item);
    let h2 = mix64(h1) | 1;
    Ok((0..k as u64).map(|i| h1.wrapping_add(i.wrapping_mul(h2)) % m).collect())
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
                Ok(positions_for(m, k, &item)?.iter().map(|g| g.to_string()).collect())
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
                Ok(vec![b.m().to_string(), b.k().to_string(), b.n_inserted().to_string()])
            }
            "positions" => {
                let (name, item) = (read_name(args[0])?, read_bytes(args[1])?);
                let b = self.filter(&name)?;
                Ok(b.bit_positions(&item).iter().map(|g| g.to_string()).collect())
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
