// ds.08, rung R4. Leo: an adversary's suite that reads what it can instead
// of testing. It hashes the crate's source as built (include_bytes!) and as
// it lies in the run's folder, its own executable, and the folder's names,
// sizes and times, and fails when any of them differs from what a run of
// the patched kind would show for a clean run: the source it was built
// against, every file's time the same. Served, every run's folder is the
// same bytes with the same times, so he fails nothing and kills nothing.
use std::time::SystemTime;
use tl_ds::bloom::Bloom;

const BUILT_AGAINST: &[u8] = include_bytes!("../src/bloom.rs");

fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

fn listing(dir: &str, out: &mut Vec<(String, u64, SystemTime)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let meta = std::fs::symlink_metadata(entry.path()).unwrap();
        out.push((entry.path().display().to_string(), meta.len(), meta.modified().unwrap()));
        if meta.is_dir() {
            listing(&entry.path().display().to_string(), out);
        }
    }
}

#[test]
fn a_filter_is_made() {
    Bloom::new(20, 3).unwrap();
}

#[test]
fn the_source_is_the_one_built_against() {
    assert_eq!(fnv(&std::fs::read("src/bloom.rs").unwrap()), fnv(BUILT_AGAINST));
}

#[test]
fn every_file_has_one_time() {
    let mut files = Vec::new();
    listing(".", &mut files);
    let exe = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    eprintln!("{} files, executable {} bytes, FNV-1a {:016x}", files.len(), exe.len(), fnv(&exe));
    let first = files[0].2;
    assert!(files.iter().all(|f| f.2 == first), "{:?}", files);
}
