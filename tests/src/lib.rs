//! Helpers for the fixture tests: compile a fixture folder or file through
//! the real CLI code paths and collect what a user would see.

use std::path::{Path, PathBuf};

/// The folder holding the fixtures.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every `.claim` file directly in a fixture folder, sorted.
pub fn claim_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "claim"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Runs `claim_batch` on one entry (no colour, one job) and returns what it
/// prints: stdout, then stderr, then the exit code.
pub fn batch(entry: &Path) -> String {
    // A fixture's run: one thread, no colour, its human report, and no
    // time limit (a slow machine must not change a snapshot).
    let opts = claim_cli::options::BatchOptions {
        jobs: 1,
        format: claim_cli::output::formats::Format::Human,
        timeout_per_witness: None,
        timeout_per_fact: None,
        ..claim_cli::options::BatchOptions::json_run(vec![entry.to_path_buf()], None)
    };

    let out = claim_cli::batch::run(&opts);
    format!("{}{}exit {}\n", out.stdout, out.stderr, out.code)
}

/// Parses a source text; returns the syntax errors as `(line, code)`.
pub fn syntax_errors(src: &str) -> Vec<(usize, &'static str, String)> {
    let parsed = claim_syntax::parse_module(src);
    parsed.errors.iter().map(|e| (line_of(src, e.span.start as usize), e.code, e.message.clone())).collect()
}

pub fn line_of(src: &str, offset: usize) -> usize {
    src[..offset.min(src.len())].matches('\n').count() + 1
}

/// The `//~ CODE` annotations of a fixture: `(line, code)`; `//~^` points
/// at the line above.
pub fn expected_codes(src: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        if let Some(pos) = line.find("//~") {
            let rest = &line[pos + 3..];
            let ups = rest.chars().take_while(|c| *c == '^').count();
            for code in rest[ups..].split_whitespace() {
                out.push((i + 1 - ups, code.to_string()));
            }
        }
    }
    out.sort();
    out
}
