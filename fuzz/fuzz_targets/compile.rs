//! The whole compile (parse → resolve → type-check, with the standard
//! library present) never panics, whatever the source.
#![no_main]
use claim_sema::{compile, Database, Program, SourceFile};
use claim_syntax::FileId;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let db = Database::default();
    let mut modules = BTreeMap::new();
    modules.insert("main".to_string(), SourceFile::new(&db, "main".to_string(), text, FileId(0)));
    for (i, (m, src)) in claim_cli::stdlib::MODULES.iter().enumerate() {
        modules.insert((*m).to_string(), SourceFile::new(&db, (*m).to_string(), (*src).to_string(), FileId(i as u32 + 1)));
    }
    let program = Program::new(&db, modules, vec!["main".to_string()], BTreeMap::new());
    let _ = compile(&db, program);
});
