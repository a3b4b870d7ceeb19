//! Never panic on input: seeded random programs — token soup built from the
//! language's own vocabulary, mutated real programs, and raw bytes — go
//! through the whole compile (parse → resolve → type-check) and, where they
//! compile, evaluation. Any panic fails the test with the seed that found it.

use claim_cli::db::CliDb;
use claim_sema::{compile, Program, SourceFile};
use claim_syntax::FileId;
use std::collections::BTreeMap;

use claim_testkit::seeded::Rng;

const VOCAB: &[&str] = &[
    "use",
    "newtype",
    "record",
    "enum",
    "refusal",
    "fact",
    "fn",
    "let",
    "require",
    "else",
    "refuse",
    "if",
    "then",
    "match",
    "witness",
    "holds",
    "refuses",
    "with",
    "frontier",
    "dissolves",
    "when",
    "for",
    "in",
    "and",
    "or",
    "not",
    "is",
    "true",
    "false",
    "None",
    "Some",
    "x",
    "Wheel",
    "Int",
    "Text",
    "List",
    "<",
    ">",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    ":",
    ".",
    "..",
    "=",
    "==",
    "!=",
    "+",
    "++",
    "-",
    "*",
    "/",
    "=>",
    "->",
    "@",
    "\"",
    "\"a{x}b\"",
    "1",
    "3h",
    "sha256:abc",
    "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    "_",
    "//c\n",
    "std.oci",
    "Some(",
    "[x for x in",
    "\n",
    "{{",
    "}}",
    "\\u{",
    "é",
];

const SEEDS: &[&str] = &[
    "record Wheel { name: Text, size: Int }\nenum O { A, B { x: Int } }\nfn f(w: Wheel) -> Int { match w.size { 0 => 1, n => n } }\nwitness w { holds f(Wheel { name: \"a\", size: 2 }) == 2 }\n",
    "use std.provenance.{Candidate, produced}\nfact xs: List<Int> = [1, 2]\nfn g(o: Option<Int>) -> Int { match o { Some(v) => v, None => refuse Overflow \"no\" } }\nwitness w { refuses g(None) with Overflow }\nfrontier f { \"t\" dissolves when len(xs) > 1 }\n",
];

fn compile_text(text: &str) {
    // What the formatter accepts it prints back to a text that parses
    // cleanly and that it leaves as it is.
    if let Ok(once) = claim_fmt::format_source(text) {
        assert!(claim_syntax::parse_module(&once).errors.is_empty(), "formatted text does not parse:\n{once}");
        assert_eq!(
            claim_fmt::format_source(&once).ok().as_deref(),
            Some(once.as_str()),
            "formatting is not idempotent"
        );
    }
    let db = CliDb::without_files(claim_eval::eval::DEFAULT_MAX_VALUE_LEN, None);
    let file = SourceFile::new(&db, "main".to_string(), text.into(), FileId(0));
    let mut modules = BTreeMap::from([("main".to_string(), file)]);
    // The standard library, so `use std.…` resolves as in a real run.
    for (i, (m, src)) in claim_cli::stdlib::MODULES.iter().enumerate() {
        modules.insert((*m).to_string(), SourceFile::new(&db, (*m).to_string(), (*src).into(), FileId(i as u32 + 1)));
    }
    let program = Program::new(&db, modules, vec!["main".to_string()], BTreeMap::new());
    let compiled = compile(&db, program);
    if !compiled.has_errors() {
        let facts = claim_eval::incremental::evaluate_facts(&db, program);
        let ev = claim_eval::Evaluator::with_facts(compiled, &claim_eval::NoWorld, facts.values);
        for m in compiled.modules.values() {
            for w in &m.witnesses {
                let _ = claim_eval::run_witness(&ev, w, true, None);
            }
            for f in &m.frontiers {
                let _ = claim_eval::check_frontier(&ev, f);
            }
        }
    }
}

fn check(seed: u64, text: &str) {
    let t = text.to_string();
    let r = std::panic::catch_unwind(move || compile_text(&t));
    assert!(r.is_ok(), "panic on seed {seed}; input:\n{text}");
}

#[test]
fn random_programs_never_panic() {
    for seed in 1..=1500u64 {
        let mut rng = Rng::new(seed);
        let text = match seed % 3 {
            0 => (0..(rng.next_u64() % 60)).map(|_| rng.pick(VOCAB)).collect::<Vec<_>>().join(" "),
            1 => {
                // A real program with a few tokens replaced, inserted or cut.
                let base = SEEDS[(seed as usize / 3) % SEEDS.len()];
                let mut words: Vec<String> = base.split(' ').map(str::to_string).collect();
                for _ in 0..(1 + rng.next_u64() % 4) {
                    let i = (rng.next_u64() % words.len().max(1) as u64) as usize;
                    match rng.next_u64() % 3 {
                        0 => words[i] = rng.pick(VOCAB).to_string(),
                        1 => words.insert(i, rng.pick(VOCAB).to_string()),
                        _ => {
                            words.remove(i);
                        }
                    }
                }
                words.join(" ")
            }
            _ => {
                let bytes: Vec<u8> = (0..(rng.next_u64() % 200)).map(|_| rng.next_u64() as u8).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
        };
        check(seed, &text);
    }
}
