//! Reusing the values of calls (`claim_eval::memo`) never changes what a
//! witness reports: the same passes, the same failures with the same
//! labels, refusals rebuilt each time.

use claim_sema::compile;
use claim_sema::db::{Program, SourceFile};
use claim_syntax::FileId;
use std::collections::BTreeMap;

const PROGRAM: &str = r#"
refusal Odd "the number is odd"

fn half(n: Int) -> Int {
  require n / 2 * 2 == n else refuse Odd "{n} is odd";
  n / 2
}

fn key(t: Text) -> Text { t ++ ":" ++ t }

fact four: Int = 4
fact three: Int = 3
fact name: Text = "a"

witness halves { holds half(four) == 2 }
witness refuses_odd { refuses half(three) with Odd }
witness wrong_half { holds half(four) == 3 }
witness odd_refuses_unexpectedly { holds half(three) == 1 }
witness keys_agree { holds key(name) == key(name) }
witness wrong_key { holds key(name) == "a:b" }
witness odd_again { holds half(three) == 1 }
witness refuses_again { refuses half(three) with Odd }
"#;

#[test]
fn a_shared_memo_reports_what_fresh_runs_report() {
    let db = claim_cli::db::CliDb::without_files(claim_eval::eval::DEFAULT_MAX_VALUE_LEN, None);
    let main = SourceFile::new(&db, "main".to_string(), PROGRAM.into(), FileId(0));
    let program =
        Program::new(&db, BTreeMap::from([("main".to_string(), main)]), vec!["main".to_string()], BTreeMap::new());
    let compiled = compile(&db, program);
    assert!(!compiled.has_errors(), "{:?}", compiled.diagnostics);
    let facts = claim_eval::incremental::evaluate_facts(&db, program);
    assert!(facts.fatal.is_empty() && facts.broken.is_empty());
    let ev = claim_eval::Evaluator::with_facts(compiled, &claim_eval::NoWorld, facts.values);
    let witnesses: Vec<_> = compiled.modules.values().flat_map(|m| m.witnesses.iter()).collect();
    assert_eq!(witnesses.len(), 8);

    let fresh: Vec<_> = witnesses.iter().map(|w| claim_eval::run_witness(&ev, w, false, None)).collect();
    let mut memo = claim_eval::memo::CallMemo::default();
    // Twice over, so the second round runs entirely on remembered calls.
    for round in 0..2 {
        for (w, expected) in witnesses.iter().zip(&fresh) {
            let got = claim_eval::run_witness_with(&ev, w, false, None, &mut memo);
            assert_eq!(got.passed(), expected.passed(), "round {round}: `{}`", w.name);
            assert_eq!(
                format!("{:?}", got.failure),
                format!("{:?}", expected.failure),
                "round {round}: `{}` reports differently",
                w.name
            );
        }
    }
    assert!(!memo.is_empty(), "the calls that returned are remembered");
    let passed: Vec<bool> = fresh.iter().map(|r| r.passed()).collect();
    assert_eq!(passed, [true, true, false, false, true, false, false, true]);
    // The unexpected refusal names the call it came through, every time.
    for r in [&fresh[3], &fresh[6]] {
        let d = format!("{:?}", r.failure);
        assert!(d.contains("Odd") && d.contains("half"), "{d}");
    }
}
