//! The whole compile (parse → resolve → type-check, with the standard
//! library present) never panics, whatever the source.
//!
//! One database serves every input, as in the language server: each input
//! becomes the new text of the module `main`, so the standard library is
//! parsed and checked once and each execution re-checks only what the edit
//! touched — which is also the incremental path under test.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "shared.rs"]
mod shared;

fuzz_target!(|data: &[u8]| {
    shared::with_compiled(String::from_utf8_lossy(data).into_owned(), |_, _, _| ());
});
