//! Incremental reuse: editing one module re-runs that module's queries and
//! reuses the other module's parse and type check, as the salsa event log
//! shows.

use claim_sema::{compile, Database, Program, SourceFile};
use claim_syntax::FileId;
use salsa::Setter;
use std::collections::BTreeMap;

const LIB: &str = "fn double(n: Int) -> Int { n * 2 }\nrecord Wheel { name: Text }\n";
const MAIN: &str = "use lib.{double}\nwitness w { holds double(2) == 4 }\n";

fn setup() -> (Database, claim_sema::db::QueryLog, Program, SourceFile, SourceFile) {
    let (db, log) = Database::with_log();
    let lib = SourceFile::new(&db, "lib".to_string(), LIB.into(), FileId(0));
    let main = SourceFile::new(&db, "main".to_string(), MAIN.into(), FileId(1));
    let modules = BTreeMap::from([("lib".to_string(), lib), ("main".to_string(), main)]);
    let program = Program::new(&db, modules, vec!["main".to_string()], BTreeMap::new());
    (db, log, program, lib, main)
}

fn executed(log: &claim_sema::db::QueryLog) -> Vec<String> {
    std::mem::take(&mut *log.lock().expect("log"))
}

fn ran(log: &[String], query: &str, input: &str) -> bool {
    log.iter().any(|l| l.starts_with(&format!("{query}(")) && l.contains(input))
}

fn runs_of<'a>(log: &'a [String], query: &str) -> Vec<&'a String> {
    log.iter().filter(|l| l.starts_with(&format!("{query}("))).collect()
}

/// Editing `main` re-parses and re-checks only `main`; editing a body in
/// `lib` re-checks only `lib` (its signatures are unchanged, so `main`'s
/// check is reused). The two re-checks are of different modules.
#[test]
fn an_edit_rechecks_only_the_edited_module() {
    let (mut db, log, program, lib, main) = setup();
    assert!(!compile(&db, program).has_errors());
    let first = executed(&log);
    let lib_id = format!("{:?}", salsa::plumbing::AsId::as_id(&lib));
    let main_id = format!("{:?}", salsa::plumbing::AsId::as_id(&main));
    assert!(ran(&first, "parse", &lib_id) && ran(&first, "parse", &main_id), "first run: {first:#?}");
    assert_eq!(runs_of(&first, "check_module").len(), 2, "{first:#?}");

    main.set_text(&mut db).to("use lib.{double}\nwitness w { holds double(3) == 6 }\n".into());
    assert!(!compile(&db, program).has_errors());
    let second = executed(&log);
    assert!(ran(&second, "parse", &main_id), "main was not re-parsed: {second:#?}");
    assert!(!ran(&second, "parse", &lib_id), "lib was re-parsed: {second:#?}");
    assert!(!ran(&second, "item_index", &lib_id), "lib was re-indexed: {second:#?}");
    let rechecked_main = runs_of(&second, "check_module");
    assert_eq!(rechecked_main.len(), 1, "only main is re-checked: {second:#?}");

    // Same signatures, same positions of declared names: only a body differs.
    lib.set_text(&mut db).to("fn double(n: Int) -> Int { n + n }\nrecord Wheel { name: Text }\n".into());
    assert!(!compile(&db, program).has_errors());
    let third = executed(&log);
    assert!(ran(&third, "parse", &lib_id), "lib was not re-parsed: {third:#?}");
    assert!(!ran(&third, "parse", &main_id), "main was re-parsed: {third:#?}");
    let rechecked_lib = runs_of(&third, "check_module");
    assert_eq!(rechecked_lib.len(), 1, "only lib is re-checked: {third:#?}");
    assert_ne!(rechecked_main, rechecked_lib, "the two edits re-checked the same module");
}

#[test]
fn an_error_edit_is_reported_and_repaired() {
    let (mut db, _log, program, _lib, main) = setup();
    main.set_text(&mut db).to("use lib.{double}\nwitness w { holds double(\"x\") == 4 }\n".into());
    let c = compile(&db, program);
    assert_eq!(c.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), vec!["E0203"]);
    main.set_text(&mut db).to(MAIN.into());
    assert!(compile(&db, program).diagnostics.is_empty());
}
