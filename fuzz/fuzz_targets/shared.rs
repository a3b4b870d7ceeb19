//! What the compile and evaluate targets share: one salsa database for all
//! inputs, as the language server keeps one — each input becomes the new
//! text of the module `main`, so the standard library is parsed and checked
//! once and every execution takes the incremental path — and the checks
//! run on a program that type-checks.
// Each target is its own crate and uses only some of these.
#![allow(dead_code)]

use claim_cli::db::CliDb;
use claim_eval::memo::CallMemo;
use claim_eval::{check_frontier, run_witness, run_witness_with, Evaluator, NoWorld, WitnessReport};
use claim_sema::{compile, Compiled, Database, Program, SourceFile};
use claim_syntax::FileId;
use salsa::Setter;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::Duration;

thread_local! {
    static STATE: RefCell<Option<(CliDb, SourceFile, Program)>> = const { RefCell::new(None) };
    static EDITOR: RefCell<Option<(Database, SourceFile, Program)>> = const { RefCell::new(None) };
}

/// Values are capped at a few thousand elements and each fact has a time
/// limit, so a program that would grow or loop without end stops as a
/// diagnostic, as it does in `claim_batch`.
const MAX_LEN: usize = 1 << 12;
const LIMIT: Duration = Duration::from_millis(250);

fn fresh() -> (CliDb, SourceFile, Program) {
    // The shipped database and fact queries, over a world with no files.
    let db = CliDb::without_files(MAX_LEN, Some(LIMIT));
    let (main, program) = program_in(&db);
    (db, main, program)
}

/// An empty `main` and the standard library, as a program of `db`.
fn program_in(db: &dyn claim_sema::Db) -> (SourceFile, Program) {
    let mut modules = BTreeMap::new();
    let main = SourceFile::new(db, "main".to_string(), "".into(), FileId(0));
    modules.insert("main".to_string(), main);
    for (i, (m, src)) in claim_cli::stdlib::MODULES.iter().enumerate() {
        modules.insert((*m).to_string(), SourceFile::new(db, (*m).to_string(), (*src).into(), FileId(i as u32 + 1)));
    }
    let program = Program::new(db, modules, vec!["main".to_string()], BTreeMap::new());
    (main, program)
}

/// Compiles `text` as the module `main` (with the standard library) and
/// hands the database, the program and the result to `f`.
pub fn with_compiled<R>(text: String, f: impl FnOnce(&CliDb, Program, &Compiled) -> R) -> R {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let (db, main, program) = s.get_or_insert_with(fresh);
        main.set_text(db).to(text.into());
        f(db, *program, compile(db, *program))
    })
}

/// Sets `text` as the module `main` (with the standard library) and hands
/// the database, the module and the program to `f`, which may edit them.
/// The editor's database, as the language server keeps one.
pub fn with_db<R>(text: String, f: impl FnOnce(&mut Database, SourceFile, Program) -> R) -> R {
    EDITOR.with(|s| {
        let mut s = s.borrow_mut();
        let (db, main, program) = s.get_or_insert_with(|| {
            let db = Database::default();
            let (main, program) = program_in(&db);
            (db, main, program)
        });
        main.set_text(db).to(text.into());
        f(db, *main, *program)
    })
}

/// Whether a report is of a witness that ran out of time (E0406): then the
/// two runs may differ in how far they got.
fn timed_out(r: &WitnessReport) -> bool {
    r.failure.as_ref().is_some_and(|d| d.code == "E0406")
}

/// Every fact (the shipped queries), then every witness (with the thread's
/// call memo, and again traced, which never uses it) and every frontier.
/// The world has no files (every read fails as a diagnostic), values are
/// capped and each fact and witness has a time limit (see `MAX_LEN`). The memo never changes an answer: a
/// witness that finished both times passes or fails alike, with the same
/// message. Returns the outcomes, by name: the facts' (the codes of those
/// that failed), each witness's that finished (its failure's message) and
/// each frontier's (whether it dissolved, and why); nothing where the
/// program has errors.
pub fn evaluate_all(db: &CliDb, program: Program, compiled: &Compiled) -> Vec<(String, Option<String>)> {
    if compiled.has_errors() {
        return Vec::new();
    }
    let limit = Some(LIMIT);
    let facts = claim_eval::incremental::evaluate_facts(db, program);
    // The facts' outcome is the codes of those that failed or broke, unless
    // one ran out of time (then another run may stop elsewhere).
    let failed: Vec<&str> = facts.fatal.iter().map(|d| d.code).chain(facts.broken.iter().map(|b| &*b.code)).collect();
    let ev = Evaluator::with_facts(compiled, &NoWorld, facts.values).with_max_len(MAX_LEN);
    let mut outcomes: Vec<(String, Option<String>)> = Vec::new();
    if !failed.contains(&"E0408") {
        outcomes.push(("facts".to_string(), Some(failed.join(" "))));
    }
    let mut memo = CallMemo::default();
    for m in compiled.modules.values() {
        for w in &m.witnesses {
            let kept = run_witness_with(&ev, w, false, limit, &mut memo);
            let traced = run_witness(&ev, w, true, limit);
            if !timed_out(&kept) && !timed_out(&traced) {
                let message = |r: &WitnessReport| r.failure.as_ref().map(|d| d.message.clone());
                assert_eq!(message(&kept), message(&traced), "witness `{}`", w.name);
                outcomes.push((w.name.to_string(), message(&kept)));
            }
        }
        for f in &m.frontiers {
            let r = check_frontier(&ev, f);
            outcomes.push((f.name.to_string(), r.dissolved.map(|d| format!("{}: {}", d.code, d.message))));
        }
    }
    outcomes
}
