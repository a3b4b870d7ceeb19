//! Fixture tests: parser `ok/` (zero errors) and `err/` (snapshots of the
//! rendered errors), checker fixtures with inline `//~ CODE` annotations
//! (the exact set of diagnostics, by line), and snapshots of what
//! `claim_batch` prints for every diagnostic code and witness failure.

use claim_diagnostics::{render_human, Sources};
use claim_tests::{batch, claim_files, expected_codes, fixtures, line_of, syntax_errors};
use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn parser_ok_fixtures_have_no_errors() {
    let files = claim_files(&fixtures().join("parser/ok"));
    assert!(files.len() >= 5, "too few ok fixtures");
    for f in files {
        let src = std::fs::read_to_string(&f).expect("fixture");
        let errs = syntax_errors(&src);
        assert!(errs.is_empty(), "{}: {errs:?}", f.display());
    }
}

#[test]
fn parser_err_fixtures_snapshot_their_errors() {
    let files = claim_files(&fixtures().join("parser/err"));
    assert!(files.len() >= 5, "too few err fixtures");
    for f in files {
        let src = std::fs::read_to_string(&f).expect("fixture");
        let parsed = claim_syntax::parse_module(&src);
        assert!(!parsed.errors.is_empty(), "{} parsed without errors", f.display());
        let mut sources = Sources::new();
        let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let fid = sources.add(name.clone(), src.clone());
        let rendered: String = parsed
            .errors
            .iter()
            .map(|e| render_human(&claim_diagnostics::Diagnostic::from_syntax(fid, e), &sources, false))
            .collect();
        insta::assert_snapshot!(format!("parser_err__{}", name.trim_end_matches(".claim")), rendered);
    }
}

/// Compiles a fixture as `claimc check` does and returns its diagnostics
/// as `(line, code)` pairs (those in the fixture file itself).
fn check_codes(path: &Path) -> Vec<(usize, String)> {
    let projects = claim_cli::project::projects(&[path.to_path_buf()]).expect("project");
    let db = claim_sema::Database::default();
    let mut sources = Sources::new();
    let mut out = Vec::new();
    for p in &projects {
        let l = claim_cli::project::load(&db, &mut sources, p);
        let compiled = claim_sema::compile(&db, l.program);
        for d in l.errors.iter().chain(compiled.diagnostics.iter()) {
            let Some(primary) = &d.primary else {
                out.push((0, d.code.to_string()));
                continue;
            };
            let line = line_of(sources.text(primary.loc.file), primary.loc.span.start as usize);
            out.push((line, d.code.to_string()));
        }
    }
    out.sort();
    out
}

#[test]
fn check_fixtures_report_exactly_their_annotations() {
    let files = claim_files(&fixtures().join("check"));
    assert!(files.len() >= 10, "too few check fixtures");
    let mut failures = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(&f).expect("fixture");
        let want = expected_codes(&src);
        let got = check_codes(&f);
        if want != got {
            failures.push(format!("{}:\n  expected {want:?}\n  got      {got:?}", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn diagnostic_fixtures() -> Vec<std::path::PathBuf> {
    let dir = fixtures().join("diagnostics");
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .expect("diagnostics fixtures")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "claim") || p.join("main.claim").is_file())
        .collect();
    v.sort();
    v
}

/// What claim_batch prints for a fixture, run from the fixtures folder so
/// the paths in the snapshots are stable.
fn batch_output(path: &Path) -> String {
    let entry = if path.is_dir() { path.join("main.claim") } else { path.to_path_buf() };
    let rel = entry.strip_prefix(fixtures()).unwrap_or(&entry).to_path_buf();
    let _guard = CWD.lock();
    let prev = std::env::current_dir().expect("cwd");
    std::env::set_current_dir(fixtures()).expect("cd");
    let out = batch(&rel);
    std::env::set_current_dir(prev).expect("cd back");
    out
}

static CWD: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn diagnostics_snapshots() {
    for f in diagnostic_fixtures() {
        let name = f.file_stem().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        insta::assert_snapshot!(format!("diag__{name}"), batch_output(&f));
    }
}

/// Every code the compiler can emit is shown by some fixture (or, for the
/// few that need the command line, by the CLI tests that name them here).
#[test]
fn every_code_has_a_fixture() {
    let cli_tested = [
        "E0901", "E0999", "E0307", "E0313", "E0406", "E0012", "E0013", "E0014", "E0407", "E0408", "E0315", "W0007",
        "W0008", "W0009", "E0017", "W0010",
    ];
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for f in diagnostic_fixtures() {
        let out = batch_output(&f);
        for (code, _, _) in claim_diagnostics::codes::CODES {
            if out.contains(&format!("[{code}]")) {
                seen.insert(code.to_string());
            }
        }
    }
    for f in claim_files(&fixtures().join("check")) {
        seen.extend(check_codes(&f).into_iter().map(|(_, c)| c));
    }
    for f in claim_files(&fixtures().join("parser/err")) {
        let src = std::fs::read_to_string(&f).expect("fixture");
        seen.extend(syntax_errors(&src).into_iter().map(|(_, c, _)| c.to_string()));
    }
    let missing: Vec<&str> = claim_diagnostics::codes::CODES
        .iter()
        .map(|(c, _, _)| *c)
        .filter(|c| !seen.contains(*c) && !cli_tested.contains(c))
        .collect();
    assert!(missing.is_empty(), "codes without a fixture: {missing:?}");
}

/// Every code the sources mention is registered with an explanation.
#[test]
fn every_emitted_code_is_explained() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../compiler");
    let mut stack = vec![root];
    let mut missing = BTreeSet::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("dir").filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                // Test code names unknown codes on purpose; only sources count.
                if !p.ends_with("tests") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).expect("source");
                for (i, _) in text.match_indices('"') {
                    let cand = text.get(i + 1..i + 7).unwrap_or("");
                    let is_code = cand.len() == 6
                        && cand.ends_with('"')
                        && (cand.starts_with('E') || cand.starts_with('W'))
                        && cand[1..5].chars().all(|c| c.is_ascii_digit());
                    if is_code && claim_diagnostics::codes::explain(&cand[..5]).is_none() {
                        missing.insert(format!("{} in {}", &cand[..5], p.display()));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "codes without an explanation: {missing:?}");
}

/// A batch run finds modules' `use`s by parsing their `use` items alone
/// (`claim_syntax::parse_uses`): on every module the project writes (the
/// standard library, the claims, the examples, the parser's and checker's
/// fixtures) they are the `use` items of the whole parse.
#[test]
fn the_uses_alone_are_those_of_the_whole_parse_on_every_module_of_the_project() {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd.filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "claim") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["stdlib", "claims", "examples", "tests/fixtures/parser/ok", "tests/fixtures/check"] {
        walk(&root.join(dir), &mut files);
    }
    assert!(files.len() >= 30, "too few modules: {}", files.len());
    let mut with_uses = 0;
    for f in &files {
        let src = std::fs::read_to_string(f).expect("module");
        let alone = claim_syntax::parse_uses(&src);
        with_uses += usize::from(!alone.is_empty());
        let parsed = claim_syntax::parse_module(&src);
        let in_tree: Vec<&claim_syntax::ast::UseDecl> = parsed.module.uses().collect();
        assert!(alone.iter().eq(in_tree.iter().copied()), "{}: {alone:?} against {in_tree:?}", f.display());
    }
    assert!(with_uses >= 10, "too few modules with uses: {with_uses}");
}
