//! On a generated 100-module program (the benchmarks' corpus), an edit
//! inside one function body re-runs only that module's queries, as the
//! salsa event log shows: its parse and check, and the program-wide merge;
//! no other module is re-parsed, re-indexed or re-checked.

use claim_sema::{compile, Database, Program, SourceFile};
use claim_syntax::FileId;
use salsa::Setter;
use std::collections::BTreeMap;

#[test]
fn an_edit_in_one_function_body_of_100_modules_rechecks_one_module() {
    let (mut db, log) = Database::with_log();
    let mut modules = BTreeMap::new();
    let mut files = Vec::new();
    for f in claim_testkit::corpus::generate(100, 7) {
        let Some(name) = f.path.strip_prefix("claim/").and_then(|p| p.strip_suffix(".claim")) else { continue };
        let text = String::from_utf8(f.bytes).expect("utf-8");
        let file = SourceFile::new(&db, name.to_string(), text.into(), FileId(files.len() as u32));
        files.push(file);
        modules.insert(name.to_string(), file);
    }
    assert_eq!(files.len(), 100);
    for (m, src) in claim_cli::stdlib::MODULES {
        let file = SourceFile::new(&db, (*m).to_string(), (*src).into(), FileId(1000 + modules.len() as u32));
        modules.insert((*m).to_string(), file);
    }
    let entries: Vec<String> = modules.keys().filter(|m| !m.starts_with("std")).cloned().collect();
    let program = Program::new(&db, modules, entries, BTreeMap::new());
    assert!(!compile(&db, program).has_errors());
    let first = std::mem::take(&mut *log.lock().expect("log"));
    let checks = |log: &[String]| log.iter().filter(|l| l.starts_with("check_module(")).count();
    assert!(checks(&first) >= 100, "the cold check checks every module");

    let m42 = files[42];
    let text = m42.text(&db).clone();
    let edited = text.replace("if len(x.name) > 0])", "if len(x.name) >= 1])");
    assert_ne!(edited.as_str(), &*text, "the edit must land inside the function body");
    m42.set_text(&mut db).to(edited.into());
    assert!(!compile(&db, program).has_errors());
    let second = std::mem::take(&mut *log.lock().expect("log"));
    let id = format!("{:?}", salsa::plumbing::AsId::as_id(&m42));
    let of = |q: &str| second.iter().filter(|l| l.starts_with(&format!("{q}("))).collect::<Vec<_>>();
    assert_eq!(of("parse").len(), 1, "{second:#?}");
    assert!(of("parse")[0].contains(&id), "the edited module is the one re-parsed");
    assert!(of("item_index").iter().all(|l| l.contains(&id)), "{second:#?}");
    // These are keyed by (program, module), an interned id of its own: at
    // most one module's ran again, and it can only be the edited one, the
    // only one whose inputs changed.
    assert_eq!(of("check_module").len(), 1, "only the edited module is re-checked: {second:#?}");
    assert!(of("module_scope").len() <= 1 && of("module_sigs").len() <= 1, "{second:#?}");
    // The program-wide merge joins per-module summaries: one is redone.
    assert_eq!(of("module_summary").len(), 1, "only the edited module is summarised again: {second:#?}");
    assert!(checks(&first) <= first.iter().filter(|l| l.starts_with("module_summary(")).count());
}
