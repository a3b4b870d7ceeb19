//! The lexer and parser never panic, whatever the bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = claim_syntax::parse_module(&text);
});
