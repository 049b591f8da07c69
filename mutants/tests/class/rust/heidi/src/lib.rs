//! tl-ds: the course's data-structure crate. `tl_ds::bloom` is the TLBF v1
//! Bloom filter with exactly the interface of the specification's section 4;
//! the protocol server in `server/` is a thin binary over it.
pub mod bloom;
