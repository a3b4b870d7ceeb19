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

/// `forget_checking` drops what checking kept (the batch does so once it
/// has merged, when it will not run again): the merged program stays, and
/// a later edit still gives the answer a fresh database gives — the
/// dropped queries are computed again.
#[test]
fn forgetting_what_checking_kept_changes_no_answer() {
    let (mut db, log, program, lib, main) = setup();
    let lib_id = format!("{:?}", salsa::plumbing::AsId::as_id(&lib));
    let before = compile(&db, program).clone();
    assert!(!before.has_errors());
    executed(&log);
    claim_sema::forget::forget_checking(&mut db);
    claim_sema::forget::forget_summaries(&mut db);
    assert_eq!(*compile(&db, program), before, "the merged program is kept as it was");
    assert!(executed(&log).is_empty(), "nothing is computed again without an edit");

    let broken = "use lib.{double}\nwitness w { holds double(\"x\") == 4 }\n";
    main.set_text(&mut db).to(broken.into());
    let after = compile(&db, program).diagnostics.clone();
    let again = executed(&log);
    // Without the drop, an edit of `main` reuses `lib`'s index (see above).
    assert!(ran(&again, "item_index", &lib_id), "lib's dropped index is computed again: {again:#?}");

    let (mut fresh, _, fresh_program, _, fresh_main) = setup();
    fresh_main.set_text(&mut fresh).to(broken.into());
    assert_eq!(after, compile(&fresh, fresh_program).diagnostics);
    assert_eq!(after.iter().map(|d| d.code).collect::<Vec<_>>(), vec!["E0203"]);
}

/// `forget_syntax` drops every tree but those to keep, and hands back the
/// trees asked for (the batch frees them on its workers): the handed-back
/// tree is the one the database held, a later `parse` of a forgotten
/// module parses it again to an equal tree, and a kept one is not parsed
/// again.
#[test]
fn forgotten_trees_are_handed_back_and_parsed_again_when_asked() {
    let (mut db, log, program, lib, main) = setup();
    let before = compile(&db, program).clone();
    let held = claim_sema::parse(&db, lib).clone();
    executed(&log);
    let handed = claim_sema::forget::forget_syntax(&mut db, &[main], &[lib]);
    assert_eq!(handed.len(), 1);
    assert!(std::sync::Arc::ptr_eq(&handed[0], &held), "the tree the database held is handed back");
    // The database no longer holds it: the handed-back tree and this test's
    // clone are its only owners.
    assert_eq!(std::sync::Arc::strong_count(&held), 2);

    let lib_id = format!("{:?}", salsa::plumbing::AsId::as_id(&lib));
    let main_id = format!("{:?}", salsa::plumbing::AsId::as_id(&main));
    let again = claim_sema::parse(&db, lib).clone();
    assert!(!std::sync::Arc::ptr_eq(&again, &held), "a forgotten tree is parsed again");
    assert_eq!(*again, *held);
    claim_sema::parse(&db, main);
    let log_now = executed(&log);
    assert!(ran(&log_now, "parse", &lib_id), "{log_now:#?}");
    assert!(!ran(&log_now, "parse", &main_id), "a kept tree is not parsed again: {log_now:#?}");
    assert_eq!(*compile(&db, program), before, "no answer changes");
}

/// Checking in parts, a run keeps the indexes, scopes and signatures of
/// the modules others import (the rest of the check reads them) and drops
/// everyone else's: an importer checked later finds them, not recomputed.
#[test]
fn what_importers_read_is_kept_when_checking_in_parts() {
    let (mut db, log, program, lib, main) = setup();
    let before = compile(&db, program).clone();
    executed(&log);
    claim_sema::forget::forget_checking_except(&mut db, program, &[lib]);
    assert_eq!(*compile(&db, program), before, "nothing is computed differently");

    main.set_text(&mut db).to("use lib.{double}\nwitness w { holds double(3) == 6 }\n".into());
    assert!(!compile(&db, program).has_errors());
    let again = executed(&log);
    // Once each, for `main`: `lib`'s were kept (dropped, they would run
    // again for `main`'s check, which reads them).
    for query in ["item_index", "module_scope", "module_sigs", "check_module"] {
        assert_eq!(runs_of(&again, query).len(), 1, "{query}: {again:#?}");
    }
}

/// The program as a run loads it (`SourceFile::loaded`, `Program::loaded`:
/// medium durability) and as an editor changes it (`SourceFile::edit`,
/// low): every answer is a fresh database's, whichever file is edited and
/// however often — a signature `main` reads changing in `lib`, then `main`
/// itself, then `lib` back.
#[test]
fn edits_of_loaded_files_give_a_fresh_databases_answers() {
    let db = Database::default();
    let lib = SourceFile::loaded(&db, "lib".to_string(), LIB.into(), FileId(0));
    let main = SourceFile::loaded(&db, "main".to_string(), MAIN.into(), FileId(1));
    let modules = BTreeMap::from([("lib".to_string(), lib), ("main".to_string(), main)]);
    let program = Program::loaded(&db, modules, vec!["main".to_string()], BTreeMap::new());
    let mut db = db;
    assert!(compile(&db, program).diagnostics.is_empty());
    // Each edit, and what the program then says: wrong exactly when the two
    // disagree on what `double` takes.
    let edits: [(SourceFile, &str, &[&str]); 4] = [
        (lib, "fn double(n: Text) -> Int { len(n) }\nrecord Wheel { name: Text }\n", &["E0203"]),
        (main, "use lib.{double}\nwitness w { holds double(\"ab\") == 2 }\n", &[]),
        (lib, LIB, &["E0203"]),
        (main, MAIN, &[]),
    ];
    for (file, text, want) in edits {
        file.edit(&mut db, text.into());
        let (mut fresh, _, fresh_program, fresh_lib, fresh_main) = setup();
        fresh_lib.set_text(&mut fresh).to(lib.text(&db).clone());
        fresh_main.set_text(&mut fresh).to(main.text(&db).clone());
        let codes = |c: &claim_sema::Compiled| c.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>();
        assert_eq!(compile(&db, program).diagnostics, compile(&fresh, fresh_program).diagnostics, "after {text:?}");
        assert_eq!(codes(compile(&db, program)), want, "after {text:?}");
    }
}

/// A refusal code declared in a module that the refusing one does not
/// import resolves all the same (codes are global): the module's check
/// leaves it to the merge, which knows every module's. Renamed there, the
/// refusing module is not checked again, yet the merge reports it, with
/// the new name as the close one.
#[test]
fn a_code_declared_in_another_module_is_resolved_by_the_merge() {
    let (mut db, log, program, lib, main) = setup();
    let lib_id = format!("{:?}", salsa::plumbing::AsId::as_id(&lib));
    lib.set_text(&mut db).to(format!("{LIB}refusal Drift \"the key drifted\"\n").into());
    main.set_text(&mut db).to(
        "fn f(n: Int) -> Int { require n > 0 else refuse Drift \"{n}\"; n }\nwitness w { refuses f(0) with Drift }\n"
            .into(),
    );
    assert!(!compile(&db, program).has_errors(), "{:#?}", compile(&db, program).diagnostics);
    executed(&log);

    lib.set_text(&mut db).to(format!("{LIB}refusal Drifts \"the key drifted\"\n").into());
    let diags: Vec<_> = compile(&db, program).diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
    // One module checked again: `lib`, whose text changed.
    let again = executed(&log);
    assert_eq!(runs_of(&again, "check_module").len(), 1, "{again:#?}");
    assert!(ran(&again, "parse", &lib_id), "{again:#?}");
    assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), vec!["E0212", "E0212"], "{diags:#?}");
    for d in &diags {
        assert_eq!(d.message, "undeclared refusal code `Drift`");
        assert_eq!(d.primary.as_ref().map(|p| p.loc.file), Some(FileId(1)), "at the use in `main`");
        assert_eq!(d.help.as_deref(), Some("did you mean `Drifts`?"));
    }
}

/// The checks by name (`names::program_names`) are reused while no name
/// changes, and answer afresh when one does: a witness of `lib` renamed to
/// `main`'s name is declared twice (where, in both), renamed back it is
/// not; a `use` that closes a cycle is one, removed it is not.
#[test]
fn checks_by_name_follow_the_names() {
    let (mut db, _log, program, lib, _main) = setup();
    let codes = |db: &Database| compile(db, program).diagnostics.iter().map(|d| d.code).collect::<Vec<_>>();
    assert_eq!(codes(&db), Vec::<&str>::new());
    for (text, want) in [
        (format!("{LIB}witness v {{ holds double(1) == 2 }}\n"), vec![]),
        (format!("{LIB}witness w {{ holds double(1) == 2 }}\n"), vec!["E0214"]),
        // Same names, positions shifted: still declared twice.
        (format!("{LIB}\n\nwitness w {{ holds double(1) == 2 }}\n"), vec!["E0214"]),
        (format!("{LIB}witness v {{ holds double(1) == 2 }}\n"), vec![]),
        (format!("use main\n{LIB}"), vec!["E0102"]),
        (LIB.to_string(), vec![]),
    ] {
        lib.set_text(&mut db).to(text.as_str().into());
        assert_eq!(codes(&db), want, "lib: {text:?}");
        if want == ["E0214"] {
            let d = &compile(&db, program).diagnostics[0];
            let at =
                |l: &claim_diagnostics::Label| (l.loc.file, &text[l.loc.span.start as usize..l.loc.span.end as usize]);
            assert_eq!(d.primary.as_ref().map(|p| p.loc.file), Some(FileId(1)), "{d:#?}");
            assert_eq!(d.secondary.iter().map(at).collect::<Vec<_>>(), vec![(FileId(0), "w")], "{d:#?}");
        }
    }
}
