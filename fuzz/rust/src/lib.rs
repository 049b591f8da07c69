//! The C ABI of tlbf/fuzz.h over `tl_ds::bloom`, for the in-process
//! harness (docs/fuzzing.md, "Fuzzing your own parser"). Only the seed's
//! API is used (from_bytes, m, k, n_inserted, contains, to_bytes, insert,
//! count_ones, union), so any crate that offers it fits.
use std::os::raw::{c_char, c_int, c_void};
use std::slice;

use tl_ds::bloom::{Bloom, BloomError};

// The verdicts of tlbf/fuzz.h.
const OK: c_int = 0;
const FORMAT: c_int = 2;
const BAD_PARAMS: c_int = 3;
const MISMATCH: c_int = 4;

/// struct tlbf_fuzz_filter, field for field.
#[repr(C)]
pub struct Filter {
    handle: *mut c_void,
    m: u64,
    k: u32,
    n_inserted: u64,
    contains: Option<unsafe extern "C" fn(*mut c_void, *const u8, usize) -> c_int>,
    to_bytes: Option<unsafe extern "C" fn(*mut c_void, *mut u8, usize) -> usize>,
    insert: Option<unsafe extern "C" fn(*mut c_void, *const u8, usize)>,
    count_ones: Option<unsafe extern "C" fn(*mut c_void) -> u64>,
    union_with_self: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
    free: Option<unsafe extern "C" fn(*mut c_void)>,
}

fn kind(e: &BloomError) -> c_int {
    match e {
        BloomError::Format(_) => FORMAT,
        BloomError::BadParams(_) => BAD_PARAMS,
        BloomError::Mismatch(_) => MISMATCH,
    }
}

// C may pass a null pointer with a zero length; a Rust slice may not be null.
unsafe fn bytes<'a>(data: *const u8, size: usize) -> &'a [u8] {
    if size == 0 {
        &[]
    } else {
        slice::from_raw_parts(data, size)
    }
}

unsafe fn bloom<'a>(handle: *mut c_void) -> &'a mut Bloom {
    &mut *(handle as *mut Bloom)
}

unsafe extern "C" fn contains(handle: *mut c_void, item: *const u8, size: usize) -> c_int {
    bloom(handle).contains(bytes(item, size)) as c_int
}

unsafe extern "C" fn to_bytes(handle: *mut c_void, out: *mut u8, capacity: usize) -> usize {
    let file = bloom(handle).to_bytes();
    if file.len() <= capacity {
        std::ptr::copy_nonoverlapping(file.as_ptr(), out, file.len());
    }
    file.len()
}

unsafe extern "C" fn insert(handle: *mut c_void, item: *const u8, size: usize) {
    bloom(handle).insert(bytes(item, size));
}

unsafe extern "C" fn count_ones(handle: *mut c_void) -> u64 {
    bloom(handle).count_ones()
}

unsafe extern "C" fn union_with_self(handle: *mut c_void) -> c_int {
    let b = bloom(handle);
    // A copy through the crate's own bytes: the seed's API has no Clone.
    let copy = match Bloom::from_bytes(&b.to_bytes()) {
        Ok(copy) => copy,
        Err(e) => return kind(&e),
    };
    match b.union(&copy) {
        Ok(()) => OK,
        Err(e) => kind(&e),
    }
}

unsafe extern "C" fn free(handle: *mut c_void) {
    drop(Box::from_raw(handle as *mut Bloom));
}

#[no_mangle]
pub extern "C" fn tlbf_fuzz_name() -> *const c_char {
    b"tl-ds\0".as_ptr() as *const c_char
}

/// # Safety
/// `data` points to `size` readable bytes and `filter` to a writable
/// struct tlbf_fuzz_filter, as the harness passes them.
#[no_mangle]
pub unsafe extern "C" fn tlbf_fuzz_from_bytes(data: *const u8, size: usize, filter: *mut Filter) -> c_int {
    let b = match Bloom::from_bytes(bytes(data, size)) {
        Ok(b) => b,
        Err(e) => return kind(&e),
    };
    let f = &mut *filter;
    f.m = b.m();
    f.k = b.k();
    f.n_inserted = b.n_inserted();
    f.handle = Box::into_raw(Box::new(b)) as *mut c_void;
    f.contains = Some(contains);
    f.to_bytes = Some(to_bytes);
    f.insert = Some(insert);
    f.count_ones = Some(count_ones);
    f.union_with_self = Some(union_with_self);
    f.free = Some(free);
    OK
}
