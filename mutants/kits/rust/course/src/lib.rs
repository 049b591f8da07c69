//! tl-ds as `tlbf grade` gives it to a learner's tests: `tl_ds::bloom` is the
//! TLBF v1 Bloom filter with exactly the interface of the specification's
//! section 4, but it computes nothing. Every call is a request of line
//! protocol v1 (docs/protocol.md) to the implementation under test, which
//! `tlbf grade` serves where a test cannot look (docs/mutants.md, "The Rust
//! kind"). This crate is the same bytes in every run, so reading it says
//! nothing about what it is bound to; only the answers do.
pub mod bloom;
