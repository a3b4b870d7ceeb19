//! A run that exits after one check evaluates its facts without the salsa
//! queries (`FactTable`): it must give every fact exactly what the query
//! gives, failures included (whose diagnostics, and which fact reports
//! them), on one thread or several, in any order the threads take, and
//! whether or not the receipts were read ahead (`FsWorld::read_ahead`).

use claim_cli::db::CliDb;
use claim_cli::project::{load, projects};
use claim_cli::world::FsWorld;
use claim_diagnostics::Sources;
use claim_eval::fact_table::FactTable;
use claim_eval::incremental::{fact_result, EvalDb as _, FactResult, FactSettings};
use claim_sema::compile;
use std::sync::{Arc, Mutex};

const MAIN: &str = r#"use other.{base}

record A { x: Int }
refusal Small "too small"

fn checked(n: Int) -> Int {
  require n > 10 else refuse Small "{n} is at most 10";
  n
}

fn through(a: A) -> Int { a.x + broken.x }

fact a: A = load("a.json")
fact broken: A = load("broken.json")
fact missing: A = load("missing.json")
fact not_utf8: A = load("not-utf8.json")
fact too_large: A = load("large.json")
fact a_again: A = load("a.json")
fact hashed: Sha256 = file_sha256("a.json")
fact plus: Int = a.x + base
fact uses_broken: Int = broken.x + 1
fact uses_broken_through_a_call: Int = through(a)
fact refused: Int = checked(a.x)
fact fine: Int = checked(plus * 100)
fact after_refused: Int = refused + 1
"#;

const OTHER: &str = "fact base: Int = 41\nfact wrong_type: Int = load(\"a.json\")\n";

/// Each fact's result, as the debug form of its value or diagnostics,
/// with each file named (JSON files are numbered in the order they are
/// read, which the threads decide).
fn shown(results: &[FactResult], sources: &Sources) -> Vec<String> {
    let named = |text: String| {
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("FileId(") {
            out.push_str(&rest[..at]);
            let tail = &rest[at + "FileId(".len()..];
            let end = tail.find(')').expect("a closing parenthesis");
            let id: u32 = tail[..end].parse().expect("a number");
            out.push_str(sources.name(claim_syntax::FileId(id)));
            rest = &tail[end + 1..];
        }
        out + rest
    };
    results.iter().map(|r| named(format!("{:?}", r.0))).collect()
}

#[test]
fn the_table_gives_every_fact_what_its_query_gives() {
    let dir = std::env::temp_dir().join(format!("claim-fact-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp");
    for (name, text) in [
        ("Claim.toml", ""),
        ("main.claim", MAIN),
        ("other.claim", OTHER),
        ("a.json", r#"{"x": 1}"#),
        ("broken.json", r#"{"x": 1,}"#),
    ] {
        std::fs::write(dir.join(name), text).expect("write");
    }
    std::fs::write(dir.join("not-utf8.json"), b"{\"x\": \"\xff\"}").expect("write");
    // One byte past the load limit the worlds below are made with.
    let mut large = format!("{{\"x\": 1, \"pad\": \"{}\"}}", " ".repeat(1 << 20));
    large.truncate((1 << 20) + 1);
    std::fs::write(dir.join("large.json"), large).expect("write");
    let project = projects(std::slice::from_ref(&dir)).expect("project").remove(0);
    let evaluate = |order: &dyn Fn(usize) -> Vec<usize>, jobs: usize, queries: bool, ahead: bool| {
        let sources = Arc::new(Mutex::new(Sources::new()));
        let world = |dirs| FsWorld::new(project.root.clone(), dirs, sources.clone(), 1 << 20);
        let mut db = CliDb::new(world(Default::default()));
        let l = load(&db, &mut sources.lock().expect("sources"), &project);
        db.set_world(world(l.dirs.clone()));
        let compiled = compile(&db, l.program);
        assert!(!compiled.has_errors(), "{:?}", compiled.diagnostics);
        let facts: Vec<_> = compiled.modules.values().flat_map(|m| m.facts.iter()).collect();
        let order = order(facts.len());
        let mut results: Vec<Option<FactResult>> = vec![None; facts.len()];
        if queries {
            for i in order {
                results[i] = Some(fact_result(&db, l.program, facts[i]));
            }
        } else {
            let texts = db.json_texts().expect("the world keeps the texts");
            let settings = FactSettings { max_len: 1 << 20, limit: None, texts: Some(&*texts) };
            if ahead {
                db.world().read_ahead_loads(&facts, jobs);
            }
            let index = claim_eval::fact_table::index(&facts);
            let table = FactTable::new(compiled, db.world(), &facts, &index, settings);
            let got = claim_cli::parallel::map(&order, jobs, |&i| (i, table.result(i)));
            for (i, r) in got {
                results[i] = Some(r);
            }
        }
        let results: Vec<FactResult> = results.into_iter().map(|r| r.expect("every fact")).collect();
        let names = facts.iter().map(|f| f.name.name.to_string()).collect::<Vec<_>>();
        let shown = shown(&results, &sources.lock().expect("sources"));
        (names, shown)
    };
    let forward = |n: usize| (0..n).collect::<Vec<_>>();
    let backward = |n: usize| (0..n).rev().collect::<Vec<_>>();
    let (names, expected) = evaluate(&forward, 1, true, false);
    // The program fails as it was written to, so the comparison compares
    // failures too: a failing read, a fact using one (directly and through
    // a call), a refusal and a fact using it, and facts that evaluate.
    let failed: Vec<&str> =
        names.iter().zip(&expected).filter(|(_, r)| r.starts_with("Err")).map(|(n, _)| n.as_str()).collect();
    for name in ["broken", "missing", "not_utf8", "too_large", "uses_broken", "uses_broken_through_a_call", "refused"]
        .into_iter()
        .chain(["after_refused", "wrong_type"])
    {
        assert!(failed.contains(&name), "`{name}` should fail: {failed:?}");
    }
    for name in ["a", "a_again", "hashed", "plus", "fine", "base"] {
        assert!(!failed.contains(&name), "`{name}` should evaluate: {failed:?}");
    }
    for (order, label) in [(&forward as &dyn Fn(usize) -> Vec<usize>, "forward"), (&backward, "backward")] {
        for jobs in [1, 2, 4] {
            for ahead in [false, true] {
                let (_, got) = evaluate(order, jobs, false, ahead);
                for ((name, want), got) in names.iter().zip(&expected).zip(&got) {
                    assert_eq!(got, want, "`{name}`, {label} on {jobs} threads, read ahead: {ahead}");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
