//! What the editor asks never panics, whatever the text and the cursor:
//! the name at a position, hover, completion, signature help, highlights,
//! inlay types, symbols, links and rename. A rename puts the module's text
//! back whatever it answers, and edits it gives compile with no more errors
//! than before.
//!
//! The first two bytes choose the cursor (a fraction of the text's length)
//! and the third the new name; the rest is the module `main`.
#![no_main]
use claim_sema::compile;
use libfuzzer_sys::fuzz_target;

#[path = "shared.rs"]
mod shared;

const NAMES: &[&str] = &["x", "renamed", "match", "Built", "count", "1x", "", "a b", "produced", "r"];

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let text = String::from_utf8_lossy(&data[3..]).into_owned();
    let at = (u16::from_le_bytes([data[0], data[1]]) as usize * (text.len() + 1) / 65536) as u32;
    let new_name = NAMES[data[2] as usize % NAMES.len()];
    shared::with_db(text.clone(), |db, main, program| {
        let _ = claim_ide::at(db, program, main, at);
        let _ = claim_ide::hover(db, program, main, at);
        let _ = claim_ide::completions(db, program, main, at);
        let _ = claim_ide::signature_help(db, program, main, at);
        let _ = claim_ide::highlights(db, program, main, at);
        let _ = claim_ide::inlay_types(db, program, main);
        let _ = claim_ide::document_symbols(db, main);
        // Each link's letters lie inside the text, on character boundaries.
        for (span, path) in claim_ide::world_paths(db, program, main) {
            let letters = text.get(span.start as usize..span.end as usize);
            assert_eq!(letters, Some(&*path), "a link's span is its path's letters");
        }
        let errors =
            |db: &claim_sema::Database| compile(db, program).diagnostics.iter().filter(|d| d.is_error()).count();
        let before = errors(db);
        let answer = claim_ide::rename::rename(db, program, main, at, new_name);
        assert_eq!(&**main.text(db), text.as_str(), "a rename left the text changed");
        if let Ok(edits) = answer {
            let mut edited = text.clone();
            for e in edits.iter().rev() {
                edited.replace_range(e.span.start as usize..e.span.end as usize, &e.text);
            }
            main.edit(db, edited.clone().into());
            assert!(errors(db) <= before, "a rename added errors:\n{text}\n=>\n{edited}");
        }
    });
});
