//! The parser's hand-written descent (the fast path for well-formed items)
//! answers exactly what the chumsky grammar answers: the same tree, spans
//! and errors, whatever the bytes. Start it from the `parse` corpus, which
//! is grammar-shaped after its campaigns.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let fast = claim_syntax::parse_module(&text);
    let slow = claim_syntax::parse_module_by_combinators(&text);
    assert!(fast == slow, "the descent and the grammar disagree on:\n{text}\n{fast:#?}\n{slow:#?}");
});
