//! Formatting keeps the program and is idempotent, on every `.claim` file of
//! the repository and of the shared conformance suite: the formatted text
//! parses without errors to the same tree (spans aside), formatting it again
//! changes nothing, and every comment is still there, in order.

// The tree without spans; doc comments, attached to items, are compared
// as comments too.
use claim_fmt::tree_shape as shape;
use claim_syntax::{lexer::lex, parse_module};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if p.is_dir() {
            files(&p, out);
        } else if name.ends_with(".claim") {
            out.push(p);
        }
    }
}

fn comments(src: &str) -> Vec<String> {
    lex(src).comments.into_iter().map(|(_, t)| t).collect()
}

pub fn check(name: &str, src: &str) -> bool {
    let Ok(once) = claim_fmt::format_source(src) else {
        return false;
    };
    let reparsed = parse_module(&once);
    assert!(reparsed.errors.is_empty(), "{name}: the formatted text does not parse: {:?}\n{once}", reparsed.errors);
    assert_eq!(shape(src), shape(&once), "{name}: formatting changed the program\n{once}");
    assert_eq!(comments(src), comments(&once), "{name}: formatting lost or reordered a comment\n{once}");
    let twice = claim_fmt::format_source(&once).unwrap_or_default();
    assert_eq!(once, twice, "{name}: formatting is not idempotent");
    true
}

#[test]
fn every_repository_and_conformance_file_keeps_its_program_and_is_idempotent() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut all = Vec::new();
    for dir in ["stdlib", "claims", "examples", "tests", "compiler"] {
        files(&root.join(dir), &mut all);
    }
    let conformance = root.join("../shared/conformance");
    files(&conformance, &mut all);
    let mut formatted = 0;
    for f in &all {
        let Ok(src) = std::fs::read_to_string(f) else { continue };
        if check(&f.display().to_string(), &src) {
            formatted += 1;
        }
    }
    // The repository alone has well over a hundred files that parse.
    assert!(formatted >= 100, "only {formatted} files were formatted");
}

#[test]
fn parentheses_come_back_where_the_grammar_needs_them() {
    let cases = [
        "fact x: Int = (1 + 2) * 3\n",
        "fact x: Int = 1 - (2 - 3)\n",
        "fact x: Bool = not (a and b)\n",
        "fact x: Bool = (a == b) == c\n",
        "fact x: Bool = (if a then b else c) and d\n",
        "fact x: Int = (if a then 1 else 2).f\n",
        "fn f(x: R) -> Bool { if x is (V { a }) then (R { a: 1 }).a == 1 else false }\n",
        "fn f(x: R) -> Int { match (R { a: 1 }) { R { a } => a } }\n",
        "fn f(x: R) -> Bool { x is V { a } }\n",
        "fact x: Bool = (not a) is true\n",
        "frontier f { \"t\" dissolves when (R { a: 1 }) == x }\n",
    ];
    for src in cases {
        assert!(check(src, src), "{src} did not parse");
    }
}

#[test]
fn comments_stay_where_they_were() {
    let src = "// head\n\n/// doc\nrecord R {\n  // about a\n  a: Int, // trailing\n  b: Int,\n  // at the end\n}\n\nwitness w {\n  // first\n  holds true // why\n\n  // second\n  holds 1 == 1\n}\n// tail\n";
    let out = claim_fmt::format_source(src).unwrap_or_default();
    assert_eq!(out, src);
}

#[test]
fn a_file_with_syntax_errors_is_not_formatted() {
    assert!(claim_fmt::format_source("fact x: Int = \n").is_err());
}
