//! The lexer and parser never panic, whatever the bytes; and the `use`
//! items a batch run reads before it parses a module whole
//! (`parse_uses`) are exactly those of the module's tree.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = claim_syntax::parse_module(&text);
    let uses = claim_syntax::parse_uses(&text);
    let in_tree: Vec<&claim_syntax::ast::UseDecl> = parsed.module.uses().collect();
    assert!(uses.iter().eq(in_tree.iter().copied()), "the uses differ from the tree's:\n{text}");
});
