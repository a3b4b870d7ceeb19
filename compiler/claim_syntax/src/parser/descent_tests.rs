//! The descent answers what the chumsky grammar answers, or nothing: on
//! every `.claim` file of the repository (and the shared conformance
//! suite, where it is present), on thousands of one-token edits of them,
//! and on nesting past its depth. And it reads every item of the files
//! that are well formed, or it would be no faster.

use super::{descent, item_chunks, parse};
use crate::lexer::lex;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn claim_files(dirs: &[&str]) -> Vec<(PathBuf, String)> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.extension().is_some_and(|e| e == "claim") {
            out.push(p.to_path_buf());
        } else if let Ok(rd) = std::fs::read_dir(p) {
            let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
            entries.sort();
            entries.iter().for_each(|e| walk(e, out));
        }
    }
    let mut paths = Vec::new();
    for d in dirs {
        walk(&root().join(d), &mut paths);
    }
    paths.into_iter().filter_map(|p| Some((p.clone(), std::fs::read_to_string(&p).ok()?))).collect()
}

fn assert_agree(src: &str, what: &dyn std::fmt::Display) {
    let fast = parse(src, true);
    let slow = parse(src, false);
    assert!(fast == slow, "the descent and the grammar disagree on {what}:\n{src}\n{fast:#?}\n{slow:#?}");
}

const WELL_FORMED: [&str; 4] = ["stdlib", "claims", "examples", "tests/fixtures/parser/ok"];
const EVERYTHING: [&str; 6] = ["stdlib", "claims", "examples", "tests", "../shared/conformance", "compiler"];

/// How many items of a file the descent leaves to the grammar.
fn items_given_up(src: &str) -> usize {
    let mut lexed = crate::lexer::lex_compact(src);
    let chunks = item_chunks(&lexed.toks);
    chunks.into_iter().filter(|c| descent::item(&lexed.toks[c.clone()], &mut lexed.pay).is_none()).count()
}

#[test]
fn the_descent_reads_every_item_of_well_formed_files() {
    let files = claim_files(&WELL_FORMED);
    assert!(files.len() >= 15, "found only {} files", files.len());
    for (path, src) in files {
        assert_eq!(items_given_up(&src), 0, "the descent gave up on an item of {}", path.display());
    }
}

#[test]
fn the_descent_and_the_grammar_agree_on_every_file() {
    let files = claim_files(&EVERYTHING);
    assert!(files.len() >= 50, "found only {} files", files.len());
    for (path, src) in &files {
        assert_agree(src, &path.display());
    }
}

/// Each file with one token removed, doubled, or replaced by another
/// token: inputs at the edge between what the descent reads and what it
/// leaves to the grammar.
#[test]
fn the_descent_and_the_grammar_agree_on_one_token_edits() {
    const OTHERS: [&str; 12] = ["{", "}", "(", ")", ",", ".", "is", "not", "=", "==", "..", "\"x{y}\""];
    let mut edits = 0;
    for (path, src) in claim_files(&WELL_FORMED) {
        let spans: Vec<_> = lex(&src).tokens.into_iter().map(|(_, s)| s.range()).collect();
        // Three edits at each of about a hundred places per file.
        let step = (spans.len() / 100).max(1);
        for (i, r) in spans.iter().enumerate().step_by(step) {
            let (before, tok, after) = (&src[..r.start], &src[r.clone()], &src[r.end..]);
            let other = OTHERS[i % OTHERS.len()];
            for edited in
                [format!("{before}{after}"), format!("{before}{tok} {tok}{after}"), format!("{before}{other}{after}")]
            {
                assert_agree(&edited, &format_args!("an edit of {} at byte {}", path.display(), r.start));
                edits += 1;
            }
        }
    }
    assert!(edits > 5000, "only {edits} edits");
}

#[test]
fn nesting_past_the_descents_depth_is_left_to_the_grammar() {
    for depth in [10, 150, 250, 1000] {
        let list = format!("fact x: Int = len({}1{})\n", "[".repeat(depth), "]".repeat(depth));
        let nots = format!("fact y: Bool = {}true\n", "not ".repeat(depth));
        let parens = format!("fact z: Int = {}1{}\n", "(".repeat(depth), ")".repeat(depth));
        let ty = format!("fact t: {}Int{} = []\n", "List<".repeat(depth), ">".repeat(depth));
        let pat = format!("fact p: Bool = x is {}_{}\n", "Some(".repeat(depth), ")".repeat(depth));
        for src in [list, nots, parens, ty, pat] {
            assert_agree(&src, &format_args!("{depth} levels"));
            assert!(parse(&src, true).errors.is_empty(), "{src}");
        }
    }
}

/// Forms each with a reading the descent must match exactly: operator
/// powers, postfix before infix, record bodies tried and taken back,
/// trailing commas, optional semicolons.
#[test]
fn the_descent_and_the_grammar_agree_on_tricky_forms() {
    let forms = [
        "fact a: Bool = not a == b and c or d is Some(_) and not e is V { f: 1, .. }",
        "fact a: Int = a.b.c(d, e,)(f).g * h + i - j ++ k / l",
        "fact a: Bool = a < b == c <= d",
        "fact a: Int = match if c then a else x { A => 1, B { f } => 2, _ => 3, }",
        "fact a: Bool = match if c then a else x is V { A => true }",
        "fact a: List<Int> = [x for x in xs if x > 1]",
        "fact a: List<Int> = [1, 2, ]",
        "fact a: List<Int> = [1, , 2]",
        "fact a: List<Int> = [1,]",
        "fact a: R = R { a, b: 1, }",
        "fact a: R = m.R { }",
        "fact a: Text = \"a{b}c{ \"d{e}\" }\"",
        "fn f(a: Int, b: List<Map<Int>>,) -> Int { let x: Int = 1; require x > 0 else refuse Bad \"no {x}\"; x }",
        "fn f() -> Int { let x = 1 }",
        "witness w { let p = f(x); holds p.key == k; refuses g(x) with Code holds true }",
        "frontier f { \"gap\" dissolves when b.manifest is Some(_) }",
        "record R { @json(\"k\") a: Int, b: List<Int>, .., }",
        "record R { @other(\"k\") a: Int }",
        "enum E { A, B { x: Int }, C { .. }, }",
        "use a.b.{C, d,}",
        "use a.b",
        "use a.",
        "@world fn f(p: Text) -> Int",
        "fact a: Bool = x is [1, .., 2]",
        "fact a: Bool = x is [1, ..]",
        "fact a: Bool = x is (Some(\"t\"))",
        "fact a: Int = ((1))",
        "fact a: Option<Int> = Some(1)",
        "fact a: Int = {1}",
        "fact a: Int = refuse Code \"x\"",
        "fact a: Duration = 5min",
        "fact a: Sha256 = sha256:0000000000000000000000000000000000000000000000000000000000000000",
        "fact a: Int = f(",
        "fact a: Int = a.",
        "fact a: Int = 1 +",
        "witness w { holds a == b; ; }",
    ];
    for src in forms {
        assert_agree(src, &src);
        // What the grammar reads without an error, the descent reads too.
        if parse(src, false).errors.is_empty() {
            assert_eq!(items_given_up(src), 0, "the descent gave up on {src}");
        }
    }
}
