//! Compile and evaluate never panic, whatever the source: where the source
//! type-checks, every fact, every witness (with the call memo and again
//! traced, which must agree) and every frontier (`shared::evaluate_all`).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "shared.rs"]
mod shared;

fuzz_target!(|data: &[u8]| {
    shared::with_compiled(String::from_utf8_lossy(data).into_owned(), shared::evaluate_all);
});
