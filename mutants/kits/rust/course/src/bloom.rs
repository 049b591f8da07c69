//! `tl_ds::bloom`, bound to the implementation under test.
//!
//! The specification's section 4, name for name and signature for signature
//! (conformance/impls/rust/src/bloom.rs is the course's reference), but every
//! call is a request of line protocol v1 (docs/protocol.md) to the
//! implementation that the environment variable TLBF_IMPL names: a shell
//! command, started once per test process at the first call and shared by
//! every test thread (one connection behind a mutex; filter names are
//! unique in the process).
//!
//!     TLBF_IMPL='tlbf serve' cargo test --test ds08_bloom
//!
//! What differs from a crate that computes in process:
//!
//! - Its panics name the calling line of the test (`#[track_caller]`).
//! - `err BadParams|Mismatch|Format MESSAGE` becomes that `BloomError`
//!   variant with the implementation's message. An answer the signature
//!   cannot carry (an error from a function that returns a number, another
//!   kind of error) panics the calling test.
//! - An implementation that ends, closes its output or answers what is no
//!   answer to the request **panics** the calling test, and every later call
//!   panics too; a process whose implementation failed so also exits with
//!   status 101 at its end, even when a test caught the panic
//!   (`catch_unwind`, `#[should_panic]`): a dead subject never passes.
//! - `insert` is sent without waiting for its answer, which every correct
//!   implementation gives as `ok`. The answers are read, in order, before
//!   the next call that needs one, when a `Bloom` is dropped, and at the
//!   process's exit; one that is not `ok` panics there.
//! - `m()`, `k()` and `n_inserted()` ask the implementation each time.
//!   `Clone` makes a new filter from `to_bytes`; `==` compares `to_bytes`
//!   (m, k, n_inserted and the bits: what the reference's derive compares);
//!   `Debug` prints the fields the reference's derive prints. Dropping a
//!   `Bloom` sends `drop`.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
pub const MAGIC: [u8; 4] = *b"TLBF";
pub const VERSION: u32 = 1;
pub const HEADER_LEN: usize = 32;
pub const MAX_BITS: u64 = 1 << 40;

/// What went wrong, with the implementation's message.
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

// ---- the connection ----------------------------------------------------------

// Requests sent ahead are written once this many bytes wait, and their
// answers read once this many are owed. 1024 answers of "ok\n" are 3 KiB,
// less than the smallest pipe the kernel makes: a correct implementation
// never waits to write an answer while requests are still being written.
const SEND_AT: usize = 1 << 16;
const READ_AT: usize = 1024;

/// What an answer read back must be: one sent ahead, whose only right
/// answer is "ok", or one nobody needs (drop).
#[derive(Clone, Copy, PartialEq)]
enum Owed {
    MustBeOk,
    Ignored,
}

struct Subject {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

/// The one connection of the process, and what it still owes.
struct Connection {
    subject: Option<Subject>,
    failure: Option<String>,
    unsent: Vec<u8>,
    owed: Vec<(String, Owed)>, // oldest first (a Vec: VecDeque::new is not const before Rust 1.68)
    must_be_ok: usize, // of the owed, those sent ahead
}

static CONNECTION: Mutex<Connection> = Mutex::new(Connection {
    subject: None,
    failure: None,
    unsent: Vec::new(),
    owed: Vec::new(),
    must_be_ok: 0,
});
static NAMES: AtomicU64 = AtomicU64::new(0);

/// The answer to a request that needs one: the words after "ok", or an error's kind and message.
enum Reply {
    Ok(String),
    Err(String, String),
}

extern "C" {
    fn atexit(callback: extern "C" fn()) -> i32;
    fn _exit(status: i32) -> !;
}

fn connection() -> MutexGuard<'static, Connection> {
    // A test that panicked holding it left nothing half-done: every change
    // is made before anything that can panic.
    CONNECTION.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// At the process's exit: the answers still owed, read and checked, and a
/// failure of the implementation at any time made the exit status.
extern "C" fn at_exit() {
    let mut c = match CONNECTION.try_lock() {
        Ok(c) => c,
        Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    // Only what was sent ahead needs checking: the answers to drops say nothing.
    if c.failure.is_none() && c.must_be_ok > 0 {
        let _ = c.settle();
    }
    if let Some(why) = &c.failure {
        let _ = std::io::stdout().flush();
        eprintln!("tl_ds::bloom: {}", why);
        // SAFETY: _exit ends the process at once; exit() would run this handler's siblings again.
        unsafe { _exit(101) }
    }
}

fn shortened(request: &str) -> &str {
    match request.char_indices().nth(200) {
        Some((at, _)) => &request[..at],
        None => request,
    }
}

impl Connection {
    fn fail(&mut self, why: String) -> String {
        let why = format!("the implementation under test (TLBF_IMPL) {}", why);
        self.failure = Some(why.clone());
        why
    }

    fn subject(&mut self) -> Result<&mut Subject, String> {
        if let Some(why) = &self.failure {
            return Err(why.clone());
        }
        if self.subject.is_none() {
            let command = match std::env::var("TLBF_IMPL") {
                Ok(command) if !command.is_empty() => command,
                _ => {
                    return Err(self.fail(
                        "is not set: TLBF_IMPL names the implementation to test (tlbf grade sets it for every run)"
                            .to_string(),
                    ))
                }
            };
            let started = Command::new("/bin/sh")
                .arg("-c")
                .arg(&command)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn();
            let mut child = match started {
                Ok(child) => child,
                Err(e) => return Err(self.fail(format!("could not be started ({}): {}", command, e))),
            };
            let input = child.stdin.take().expect("piped");
            let output = BufReader::with_capacity(1 << 16, child.stdout.take().expect("piped"));
            self.subject = Some(Subject { child, input, output });
            // SAFETY: at_exit is an extern "C" fn with no arguments, as atexit wants.
            unsafe {
                atexit(at_exit);
            }
        }
        Ok(self.subject.as_mut().expect("just made"))
    }

    fn queue(&mut self, request: &str, owed: Owed) {
        self.unsent.extend_from_slice(request.as_bytes());
        self.unsent.push(b'\n');
        self.owed.push((shortened(request).to_string(), owed));
    }

    fn write_all(&mut self) -> Result<(), String> {
        if self.unsent.is_empty() {
            return Ok(());
        }
        let unsent = std::mem::take(&mut self.unsent);
        // A write refused (EPIPE: it stopped reading) is told by the answers
        // that never come: its output says why.
        let _ = self.subject()?.input.write_all(&unsent);
        Ok(())
    }

    fn line(&mut self, request: &str) -> Result<String, String> {
        let subject = self.subject()?;
        let mut line = Vec::new();
        let read = subject.output.read_until(b'\n', &mut line);
        if matches!(read, Ok(n) if n > 0) && line.last() == Some(&b'\n') {
            line.pop();
            return Ok(String::from_utf8_lossy(&line).into_owned());
        }
        let how = how_it_ended(&mut subject.child);
        Err(self.fail(format!("ended without answering '{}' ({})", request, how)))
    }

    /// Every answer owed, read and checked.
    fn settle(&mut self) -> Result<(), String> {
        self.write_all()?;
        for (request, owed) in std::mem::take(&mut self.owed) {
            let line = self.line(&request)?;
            if owed == Owed::MustBeOk {
                self.must_be_ok -= 1;
                if line != "ok" {
                    return Err(self.fail(format!(
                        "answered '{}' to '{}', sent ahead of its answer (only \"ok\" is right)",
                        shortened(&line),
                        request
                    )));
                }
            }
        }
        Ok(())
    }

    fn ask(&mut self, request: &str) -> Result<Reply, String> {
        self.subject()?;
        // Written with whatever waits to be sent, in one write; its answer comes after theirs.
        self.unsent.extend_from_slice(request.as_bytes());
        self.unsent.push(b'\n');
        self.settle()?;
        let line = self.line(request)?;
        if line == "ok" {
            return Ok(Reply::Ok(String::new()));
        }
        if let Some(rest) = line.strip_prefix("ok ") {
            return Ok(Reply::Ok(rest.to_string()));
        }
        if let Some(rest) = line.strip_prefix("err ") {
            let (kind, message) = rest.split_once(' ').unwrap_or((rest, ""));
            if !kind.is_empty() {
                return Ok(Reply::Err(kind.to_string(), message.to_string()));
            }
        }
        Err(self.fail(format!("answered '{}' to '{}'", shortened(&line), shortened(request))))
    }

    fn send_ahead(&mut self, request: &str, owed: Owed) -> Result<(), String> {
        self.subject()?;
        self.queue(request, owed);
        if owed == Owed::MustBeOk {
            self.must_be_ok += 1;
        }
        if self.unsent.len() >= SEND_AT || self.owed.len() >= READ_AT {
            self.write_all()?;
        }
        if self.owed.len() >= READ_AT {
            self.settle()?;
        }
        Ok(())
    }
}

fn how_it_ended(child: &mut Child) -> String {
    for _ in 0..20 {
        if let Ok(Some(status)) = child.try_wait() {
            return match status.code() {
                Some(code) => format!("exit status {}", code),
                None => format!("ended by a signal ({})", status),
            };
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    "its output closed, the process still running".to_string()
}

/// The answer to `request`; a dead or garbled implementation panics the caller.
#[track_caller]
fn ask(request: &str) -> Reply {
    let asked = connection().ask(request);
    match asked {
        Ok(reply) => reply,
        Err(why) => panic!("{}", why),
    }
}

#[track_caller]
fn send_ahead(request: &str, owed: Owed) {
    let sent = connection().send_ahead(request, owed);
    if let Err(why) = sent {
        panic!("{}", why);
    }
}

/// An answer the Rust signature has no room for: this call panics, and the implementation stays usable.
#[track_caller]
fn cannot_carry(request: &str, kind: &str, message: &str) -> ! {
    panic!(
        "the implementation under test answered 'err {} {}' to '{}', which this function of the Rust API cannot return",
        kind,
        message,
        shortened(request)
    )
}

/// A well-formed answer that is no answer to `request`: the implementation is failed from here on.
#[track_caller]
fn garbled(request: &str, words: &str) -> ! {
    let why = connection().fail(format!("answered 'ok {}' to '{}'", shortened(words), shortened(request)));
    panic!("{}", why)
}

#[track_caller]
fn ok_words(request: &str) -> String {
    match ask(request) {
        Reply::Ok(words) => words,
        Reply::Err(kind, message) => cannot_carry(request, &kind, &message),
    }
}

/// An operation that may fail with a `BloomError`.
#[track_caller]
fn fallible(request: &str) -> Result<String, BloomError> {
    match ask(request) {
        Reply::Ok(words) => Ok(words),
        Reply::Err(kind, message) => match kind.as_str() {
            "BadParams" => Err(BloomError::BadParams(message)),
            "Mismatch" => Err(BloomError::Mismatch(message)),
            "Format" => Err(BloomError::Format(message)),
            _ => cannot_carry(request, &kind, &message),
        },
    }
}

// ---- words -------------------------------------------------------------------

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    if bytes.is_empty() {
        return "-".to_string();
    }
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

fn unhex(word: &str) -> Option<Vec<u8>> {
    if word == "-" {
        return Some(Vec::new());
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let b = word.as_bytes();
    if b.is_empty() || b.len() % 2 != 0 {
        return None;
    }
    b.chunks(2).map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?)).collect()
}

/// Shortest decimal that reads back as `p`, as the protocol spells it.
fn real(p: f64) -> String {
    if p.is_nan() {
        "nan".to_string()
    } else if p.is_infinite() {
        (if p > 0.0 { "inf" } else { "-inf" }).to_string()
    } else {
        format!("{:?}", p)
    }
}

fn count(word: &str) -> Option<u64> {
    if word.is_empty() || !word.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

/// A real as docs/protocol.md's grammar writes one.
fn parse_real(word: &str) -> Option<f64> {
    if matches!(word, "nan" | "inf" | "-inf") {
        return word.parse().ok();
    }
    let body = word.strip_prefix('-').unwrap_or(word);
    let (mantissa, exponent) = match body.find(|c: char| c == 'e' || c == 'E') {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
    let exponent_ok = exponent.map_or(true, |e| {
        let e = e.strip_prefix(|c: char| c == '+' || c == '-').unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if !digits(whole) || !digits(fraction) || (whole.is_empty() && fraction.is_empty()) || !exponent_ok {
        return None;
    }
    word.parse().ok()
}

#[track_caller]
fn one_number<T>(request: &str, read: impl Fn(&str) -> Option<T>) -> T {
    let words = ok_words(request);
    match read(&words) {
        Some(value) => value,
        None => garbled(request, &words),
    }
}

// ---- the module's functions --------------------------------------------------

#[track_caller]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let request = format!("fnv1a64 {}", hex(bytes));
    one_number(&request, hash)
}

#[track_caller]
pub fn mix64(z: u64) -> u64 {
    let request = format!("mix64 {:016x}", z);
    one_number(&request, hash)
}

fn hash(word: &str) -> Option<u64> {
    if word.len() != 16 || !word.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)) {
        return None;
    }
    u64::from_str_radix(word, 16).ok()
}

#[track_caller]
pub fn optimal_m(n: u64, p: f64) -> u64 {
    one_number(&format!("optimal_m {} {}", n, real(p)), count)
}

#[track_caller]
pub fn optimal_k(m: u64, n: u64) -> u32 {
    one_number(&format!("optimal_k {} {}", m, n), |w| count(w).and_then(|k| u32::try_from(k).ok()))
}

#[track_caller]
pub fn predicted_fp_rate(m: u64, k: u32, n: u64) -> f64 {
    one_number(&format!("predicted_fp_rate {} {} {}", m, k, n), parse_real)
}

// ---- the filter ----------------------------------------------------------------

/// A filter held by the implementation under test, by a name unique in this process.
pub struct Bloom {
    name: String,
}

impl Bloom {
    #[track_caller]
    fn made(request: impl Fn(&str) -> String) -> Result<Bloom, BloomError> {
        let name = format!("f{}", NAMES.fetch_add(1, Ordering::Relaxed) + 1);
        let asked = request(&name);
        let words = fallible(&asked)?;
        if !words.is_empty() {
            garbled(&asked, &words);
        }
        Ok(Bloom { name })
    }

    /// Sized for `n` items at rate `p`. BadParams unless n >= 1, 0 < p < 1,
    /// and the size is at most MAX_BITS.
    #[track_caller]
    pub fn with_rate(n: u64, p: f64) -> Result<Bloom, BloomError> {
        Bloom::made(|name| format!("with_rate {} {} {}", name, n, real(p)))
    }

    /// An empty filter. BadParams unless 1 <= m <= 2^40 and 1 <= k <= 65536.
    #[track_caller]
    pub fn new(m: u64, k: u32) -> Result<Bloom, BloomError> {
        Bloom::made(|name| format!("new {} {} {}", name, m, k))
    }

    #[track_caller]
    fn info(&self) -> (u64, u32, u64) {
        let request = format!("info {}", self.name);
        one_number(&request, |words| {
            let mut it = words.split(' ').map(count);
            match (it.next(), it.next(), it.next(), it.next()) {
                (Some(Some(m)), Some(Some(k)), Some(Some(n)), None) => Some((m, u32::try_from(k).ok()?, n)),
                _ => None,
            }
        })
    }

    #[track_caller]
    pub fn m(&self) -> u64 {
        self.info().0
    }

    #[track_caller]
    pub fn k(&self) -> u32 {
        self.info().1
    }

    /// Insert calls, plus the counts of every filter merged in (saturating).
    #[track_caller]
    pub fn n_inserted(&self) -> u64 {
        self.info().2
    }

    /// g_i = (h1 + i h2) mod 2^64 mod m for i in 0..k, with h1 = fnv1a64(item)
    /// and h2 = mix64(h1) forced odd.
    #[track_caller]
    pub fn bit_positions(&self, item: &[u8]) -> Vec<u64> {
        let request = format!("positions {} {}", self.name, hex(item));
        one_number(&request, |words| words.split(' ').map(count).collect::<Option<Vec<u64>>>())
    }

    #[track_caller]
    pub fn insert(&mut self, item: &[u8]) {
        send_ahead(&format!("insert {} {}", self.name, hex(item)), Owed::MustBeOk);
    }

    /// True when all k bits of `item` are set: never false for an inserted item.
    #[track_caller]
    pub fn contains(&self, item: &[u8]) -> bool {
        let request = format!("contains {} {}", self.name, hex(item));
        one_number(&request, |word| match word {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        })
    }

    /// ORs `other` in and adds its count. Mismatch, leaving self unchanged,
    /// when m or k differ.
    #[track_caller]
    pub fn union(&mut self, other: &Bloom) -> Result<(), BloomError> {
        let request = format!("union {} {}", self.name, other.name);
        let words = fallible(&request)?;
        if !words.is_empty() {
            garbled(&request, &words);
        }
        Ok(())
    }

    #[track_caller]
    pub fn count_ones(&self) -> u64 {
        one_number(&format!("count_ones {}", self.name), count)
    }

    /// The 32-byte little-endian header, then ceil(m/8) bytes of bits.
    #[track_caller]
    pub fn to_bytes(&self) -> Vec<u8> {
        one_number(&format!("to_bytes {}", self.name), unhex)
    }

    /// Exactly the byte strings to_bytes can write; Format for anything else.
    #[track_caller]
    pub fn from_bytes(b: &[u8]) -> Result<Bloom, BloomError> {
        let data = hex(b);
        Bloom::made(|name| format!("from_bytes {} {}", name, data))
    }
}

impl Clone for Bloom {
    fn clone(&self) -> Bloom {
        match Bloom::from_bytes(&self.to_bytes()) {
            Ok(copy) => copy,
            Err(e) => panic!("the implementation under test refused its own to_bytes in from_bytes ({})", e),
        }
    }
}

impl PartialEq for Bloom {
    fn eq(&self, other: &Bloom) -> bool {
        self.to_bytes() == other.to_bytes()
    }
}

impl Eq for Bloom {}

impl fmt::Debug for Bloom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.to_bytes();
        if b.len() < HEADER_LEN {
            return f.debug_struct("Bloom").field("to_bytes", &b).finish();
        }
        let u64_at = |at: usize| {
            let mut word = [0u8; 8];
            word.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(word)
        };
        let k = u32::from_le_bytes([b[16], b[17], b[18], b[19]]);
        f.debug_struct("Bloom")
            .field("m", &u64_at(8))
            .field("k", &k)
            .field("n_inserted", &u64_at(24))
            .field("bits", &b[HEADER_LEN..].to_vec())
            .finish()
    }
}

impl Drop for Bloom {
    fn drop(&mut self) {
        let mut c = connection();
        if c.failure.is_some() {
            return;
        }
        c.queue(&format!("drop {}", self.name), Owed::Ignored);
        // An insert sent ahead is checked here at the latest, in the test
        // that made the filter, unless that test is already failing.
        if c.must_be_ok == 0 || std::thread::panicking() {
            return;
        }
        let settled = c.settle();
        drop(c);
        if let Err(why) = settled {
            panic!("{}", why);
        }
    }
}
