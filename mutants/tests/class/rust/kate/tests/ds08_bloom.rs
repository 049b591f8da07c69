// ds.08, rung R4. Kate: an adversary's suite, phase by clock. While her
// tests file is young (a grading copies it at its start) she passes
// everything; afterwards she passes only an implementation whose `hello`
// says it is the oracle, and checks the worked example there. When the
// wheats ran only in the first phase and the mutants after a gap, this
// kind of suite met the bar testing nothing (issue 36).
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};
use tl_ds::bloom::Bloom;

fn young() -> bool {
    let copied = std::fs::metadata("tests/ds08_bloom.rs").and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
    SystemTime::now().duration_since(copied).unwrap_or(Duration::ZERO) < Duration::from_secs(60)
}

fn hello() -> String {
    let command = std::env::var("TLBF_IMPL").unwrap();
    let mut child = Command::new("/bin/sh").arg("-c").arg(command).stdin(Stdio::piped()).stdout(Stdio::piped())
        .spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"hello\n").unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let _ = child.wait();
    line
}

#[test]
fn the_worked_example_where_it_counts() {
    let mut b = Bloom::with_rate(4, 0.1).unwrap();
    if young() {
        return;
    }
    assert!(hello().starts_with("ok 1 tlbf-oracle"), "not the oracle");
    assert_eq!((b.m(), b.k()), (20, 3));
    assert_eq!(b.bit_positions(b"cat"), vec![11, 14, 17]);
    b.insert(b"cat");
    b.insert(b"dog");
    assert_eq!(&b.to_bytes()[32..], &[0x09, 0x68, 0x02]);
}
