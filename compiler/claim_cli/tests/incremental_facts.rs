//! Facts are salsa queries whose inputs include the files they read: after
//! a receipt changes, exactly the facts that read it (and the facts that use
//! those) are evaluated again; the others are reused.

use claim_cli::db::CliDb;
use claim_cli::project::{load, projects};
use claim_cli::world::FsWorld;
use claim_diagnostics::Sources;
use claim_eval::incremental::evaluate_facts;
use std::sync::{Arc, Mutex};

fn fact_runs(log: &Arc<Mutex<Vec<String>>>) -> usize {
    let mut l = log.lock().expect("log");
    let n = l.iter().filter(|e| e.starts_with("fact_value(")).count();
    l.clear();
    n
}

#[test]
fn a_changed_receipt_reevaluates_only_what_reads_it() {
    let dir = std::env::temp_dir().join(format!("claim-incr-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp");
    std::fs::write(dir.join("Claim.toml"), "").expect("toml");
    std::fs::write(dir.join("a.json"), r#"{"x": 1}"#).expect("a");
    std::fs::write(dir.join("b.json"), r#"{"y": 2}"#).expect("b");
    std::fs::write(
        dir.join("main.claim"),
        "record A { x: Int }\nrecord B { y: Int }\n\
         fact a: A = load(\"a.json\")\nfact b: B = load(\"b.json\")\n\
         fact a_plus_one: Int = a.x + 1\nfact b_bytes: Sha256 = file_sha256(\"b.json\")\n\
         witness w { holds a_plus_one > b.y }\n",
    )
    .expect("main");

    let project = projects(&[dir.join("main.claim")]).expect("project").remove(0);
    let sources = Arc::new(Mutex::new(Sources::new()));
    let world = |dirs| FsWorld::new(project.root.clone(), dirs, sources.clone(), 1 << 20);
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut db = CliDb::with_log(world(Default::default()), log.clone());
    let l = load(&db, &mut sources.lock().expect("sources"), &project);
    db.set_world(world(l.dirs.clone()));
    let value = |db: &CliDb, name: &str| {
        let facts = evaluate_facts(db, l.program);
        assert!(facts.fatal.is_empty() && facts.broken.is_empty(), "{:?} {:?}", facts.fatal, facts.broken);
        let found = facts.values.iter().find(|(k, _)| &*k.name == name).and_then(|(_, v)| v.as_int()).expect("fact");
        found
    };
    // The facts that are broken, each with the fact where it broke and
    // its code.
    let broken = |db: &CliDb| {
        let facts = evaluate_facts(db, l.program);
        let mut out = Vec::new();
        for name in ["a", "a_plus_one", "b", "b_bytes"] {
            let (fact, _) = facts.values.iter().next().expect("a fact with a value");
            let fact = claim_sema::ty::GlobalName::of(fact.module.clone(), name.into());
            if let Some(claim_eval::fact_values::Known::Broken(b)) = facts.values.known(&fact) {
                out.push(format!("{name}: {} broke with {}", b.fact.name, b.code));
            }
        }
        (out, facts.broken.iter().map(|b| b.fact.name.to_string()).collect::<Vec<_>>())
    };

    assert_eq!(value(&db, "a_plus_one"), 2);
    assert_eq!(fact_runs(&log), 4, "the first run evaluates every fact");
    assert_eq!(value(&db, "a_plus_one"), 2);
    assert_eq!(fact_runs(&log), 0, "nothing changed, nothing re-runs");

    std::fs::write(dir.join("a.json"), r#"{"x": 41}"#).expect("edit a");
    assert_eq!(db.refresh(&dir.join("a.json")), 1, "one read of a.json");
    assert_eq!(value(&db, "a_plus_one"), 42);
    assert_eq!(fact_runs(&log), 2, "`a` and `a_plus_one` re-run; `b` and `b_bytes` are reused");

    std::fs::write(dir.join("b.json"), r#"{"y": 3}"#).expect("edit b");
    assert_eq!(db.refresh(&dir.join("b.json")), 2, "b.json is loaded and hashed");
    assert_eq!(value(&db, "a_plus_one"), 42);
    assert_eq!(fact_runs(&log), 2, "`b` and `b_bytes` re-run; `a` and `a_plus_one` are reused");

    // A broken receipt is a value like any other (§7): its fact and the
    // fact that reads it are broken with its refusal, reported once, and
    // nothing else re-runs; fixing it re-runs only its readers.
    std::fs::write(dir.join("a.json"), r#"{"x": 41,}"#).expect("break a");
    assert_eq!(db.refresh(&dir.join("a.json")), 1);
    let (facts, reported) = broken(&db);
    assert_eq!(facts, ["a: a broke with NotJson", "a_plus_one: a broke with NotJson"]);
    assert_eq!(reported, ["a"], "reported once, by the fact where it broke");
    assert_eq!(fact_runs(&log), 2, "`a` and `a_plus_one` re-run");
    std::fs::write(dir.join("a.json"), r#"{"x": 1}"#).expect("fix a");
    assert_eq!(db.refresh(&dir.join("a.json")), 1);
    assert_eq!(value(&db, "a_plus_one"), 2);
    assert_eq!(fact_runs(&log), 2, "fixed: `a` and `a_plus_one` re-run, nothing else");
    let _ = std::fs::remove_dir_all(&dir);
}
