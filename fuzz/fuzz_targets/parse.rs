//! The lexer and parser never panic, whatever the bytes; nor does the
//! scan of `use` lines a batch run reads before it parses, nor its
//! comparison with the parse (which may disagree, never fail).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = claim_syntax::parse_module(&text);
    let scanned = claim_syntax::uses::scan_uses(&text);
    let _ = claim_syntax::uses::scan_agrees(&scanned, &parsed.module);
});
