//! The whole compile (parse → resolve → type-check, with the standard
//! library present) never panics, whatever the source.
//!
//! One database serves every input, as in the language server: each input
//! becomes the new text of the module `main`, so the standard library is
//! parsed and checked once and each execution re-checks only what the edit
//! touched — which is also the incremental path under test.
#![no_main]
use claim_sema::{compile, Database, Program, SourceFile};
use claim_syntax::FileId;
use libfuzzer_sys::fuzz_target;
use salsa::Setter;
use std::cell::RefCell;
use std::collections::BTreeMap;

thread_local! {
    static STATE: RefCell<Option<(Database, SourceFile, Program)>> = const { RefCell::new(None) };
}

fn fresh() -> (Database, SourceFile, Program) {
    let db = Database::default();
    let mut modules = BTreeMap::new();
    let main = SourceFile::new(&db, "main".to_string(), "".into(), FileId(0));
    modules.insert("main".to_string(), main);
    for (i, (m, src)) in claim_cli::stdlib::MODULES.iter().enumerate() {
        modules.insert((*m).to_string(), SourceFile::new(&db, (*m).to_string(), (*src).into(), FileId(i as u32 + 1)));
    }
    let program = Program::new(&db, modules, vec!["main".to_string()], BTreeMap::new());
    (db, main, program)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let (db, main, program) = s.get_or_insert_with(fresh);
        main.set_text(db).to(text.into());
        let _ = compile(db, *program);
    });
});
