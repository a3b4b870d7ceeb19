//! The walk-throughs in the project's Markdown run as written.
//!
//! A fenced block whose first line starts with `$ ` is a command and, below
//! it, what the command prints (standard output, then standard error). The
//! test runs it with the real binary and compares: a README that shows an
//! output the tool no longer prints fails here, not in a reader's hands.
//!
//! The command runs in the Markdown file's folder, mirrored in a fresh
//! scratch folder that holds a copy of each `--entry` path it names and
//! every file the Markdown showed above it: a fenced block whose info string
//! names a path after its language (```` ```claim main.claim ````,
//! ```` ```json receipts/run.json ````;
//! renderers show the language and ignore the rest) is that file's content
//! from there on, and a later block naming the same path replaces it. An
//! HTML comment just above the command's block (`<!-- walkthrough … -->`,
//! invisible where the Markdown is rendered) says what else to do first, one
//! instruction per line (the comment's first line may hold one after
//! `walkthrough:`):
//!
//! - `edit PATH: OLD => NEW`: `OLD` occurs once in the file and becomes
//!   `NEW`; `edit PATH:LINE: OLD => NEW` replaces it on that line only;
//! - `write PATH: TEXT`: the file is `TEXT` (one line);
//! - `exit N`: the command exits with `N` (without it, 0).
//!
//! Paths are relative to the Markdown file's folder, where the command runs.
//!
//! In the expected output a line `...` stands for any lines, none or many.
//! Lines are compared without trailing spaces.
//!
//! `WALKTHROUGH_UPDATE=1 cargo test --test walkthroughs` writes what the
//! commands print into the Markdown instead (review the diff before
//! committing, as with snapshots); a block with `...` lines that no longer
//! matches still fails, to be edited by hand.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// The Markdown files whose walk-throughs run.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    for dir in ["docs", "examples", "claims"] {
        collect_markdown(&root.join(dir), &mut files);
    }
    files.sort();
    files
}

fn collect_markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_markdown(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// A fenced block: its lines, and where its body starts and ends in the file.
struct Block {
    info: String,
    body: Vec<String>,
    /// Line index of the opening fence.
    open: usize,
    /// Line index of the closing fence.
    close: usize,
}

fn blocks(lines: &[&str]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(info) = lines[i].strip_prefix("```") {
            let open = i;
            i += 1;
            while i < lines.len() && !lines[i].starts_with("```") {
                i += 1;
            }
            assert!(i < lines.len(), "a fenced block opened on line {} is not closed", open + 1);
            let body = lines[open + 1..i].iter().map(|l| l.to_string()).collect();
            out.push(Block { info: info.trim().to_string(), body, open, close: i });
        }
        i += 1;
    }
    out
}

/// The instructions of the `<!-- walkthrough … -->` comment between the
/// previous block (or the file's start) and line `open`.
fn directives(lines: &[&str], from: usize, open: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in &lines[from..open] {
        let mut t = line.trim();
        if let Some(rest) = t.strip_prefix("<!-- walkthrough") {
            inside = true;
            t = rest.strip_prefix(':').unwrap_or(rest).trim();
        } else if !inside {
            continue;
        }
        if let Some(rest) = t.strip_suffix("-->") {
            inside = false;
            t = rest.trim();
        }
        if !t.is_empty() {
            out.push(t.to_string());
        }
    }
    assert!(!inside, "a walkthrough comment before line {} is not closed", open + 1);
    out
}

struct Walkthrough {
    file: PathBuf,
    /// 1-based line of the command.
    line: usize,
    args: Vec<String>,
    program: String,
    expected: Vec<String>,
    exit: i32,
    edits: Vec<String>,
    writes: Vec<(String, String)>,
    block: usize,
}

fn walkthroughs(file: &Path) -> Vec<Walkthrough> {
    let text = std::fs::read_to_string(file).expect("markdown");
    let lines: Vec<&str> = text.lines().collect();
    let all = blocks(&lines);
    let mut out = Vec::new();
    for (n, b) in all.iter().enumerate() {
        let Some(command) = b.body.first().and_then(|l| l.strip_prefix("$ ")) else { continue };
        assert!(b.info.is_empty(), "{}:{}: a walk-through's block has no language tag", file.display(), b.open + 1);
        let mut words = command.split_whitespace().map(String::from);
        let program = words.next().expect("a command");
        let from = if n == 0 { 0 } else { all[n - 1].close + 1 };
        // The files shown so far, each at its latest content.
        let mut writes: Vec<(String, String)> = Vec::new();
        for f in &all[..n] {
            if let Some((_, path)) = f.info.split_once(char::is_whitespace) {
                let path = path.trim().to_string();
                writes.retain(|(p, _)| *p != path);
                writes.push((path, f.body.join("\n") + "\n"));
            }
        }
        let mut w = Walkthrough {
            file: file.to_path_buf(),
            line: b.open + 2,
            args: words.collect(),
            program,
            expected: b.body[1..].to_vec(),
            exit: 0,
            edits: Vec::new(),
            writes,
            block: n,
        };
        for d in directives(&lines, from, b.open) {
            let at = format!("{}:{}", file.display(), b.open + 1);
            if let Some(code) = d.strip_prefix("exit ") {
                w.exit = code.trim().parse().unwrap_or_else(|_| panic!("{at}: `{d}`: not an exit code"));
            } else if let Some(edit) = d.strip_prefix("edit ") {
                w.edits.push(edit.to_string());
            } else if let Some(write) = d.strip_prefix("write ") {
                let (path, text) =
                    write.split_once(": ").unwrap_or_else(|| panic!("{at}: `{d}`: expected `write PATH: …`"));
                w.writes.push((path.to_string(), format!("{text}\n")));
            } else {
                panic!("{at}: unknown walkthrough instruction `{d}`");
            }
        }
        out.push(w);
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("read_dir").flatten() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(from, to).expect("copy");
    }
}

/// Applies `PATH[:LINE]: OLD => NEW` under `base`.
fn apply_edit(base: &Path, edit: &str, at: &str) {
    let (target, change) =
        edit.split_once(": ").unwrap_or_else(|| panic!("{at}: `edit {edit}`: expected `PATH: OLD => NEW`"));
    let (old, new) = change.split_once(" => ").unwrap_or_else(|| panic!("{at}: `edit {edit}`: expected `OLD => NEW`"));
    let (path, line) = match target.rsplit_once(':') {
        Some((p, l)) if l.parse::<usize>().is_ok() => (p, l.parse::<usize>().ok()),
        _ => (target, None),
    };
    let file = base.join(path);
    let text =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{at}: `edit {edit}`: {}: {e}", file.display()));
    let edited = match line {
        Some(n) => {
            let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
            let l = lines.get_mut(n - 1).unwrap_or_else(|| panic!("{at}: `edit {edit}`: no line {n}"));
            assert_eq!(l.matches(old).count(), 1, "{at}: `edit {edit}`: `{old}` is not once on line {n}");
            *l = l.replacen(old, new, 1);
            lines.join("\n")
        }
        None => {
            assert_eq!(text.matches(old).count(), 1, "{at}: `edit {edit}`: `{old}` is not once in {path}");
            text.replacen(old, new, 1)
        }
    };
    std::fs::write(&file, edited).expect("write");
}

/// Runs one walk-through in a fresh folder: exit code and output lines.
fn run(root: &Path, w: &Walkthrough, scratch: &Path) -> (i32, Vec<String>) {
    let at = format!("{}:{}", w.file.display(), w.line);
    let bin = match w.program.as_str() {
        "claim_batch" => env!("CARGO_BIN_EXE_claim_batch"),
        "claimc" => env!("CARGO_BIN_EXE_claimc"),
        other => panic!("{at}: `{other}` is not a command a walk-through can run"),
    };
    // The command runs in the Markdown file's folder, mirrored in the
    // scratch folder: what it names is copied there from the repository,
    // what the Markdown shows is written there.
    let here = w.file.parent().expect("folder");
    let base = scratch.join(here.strip_prefix(root).expect("inside the repository"));
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(&base).expect("scratch");
    for (i, a) in w.args.iter().enumerate() {
        if i > 0 && w.args[i - 1] == "--entry" && here.join(a).exists() {
            copy_tree(&here.join(a), &base.join(a));
        }
    }
    for (path, content) in &w.writes {
        let file = base.join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(file, content).expect("write");
    }
    for edit in &w.edits {
        apply_edit(&base, edit, &at);
    }
    // A command that does not end (`--watch`, the language server) is
    // refused, and any other is stopped after a minute, not waited on.
    assert!(
        !w.args.iter().any(|a| a == "--watch" || a == "lsp"),
        "{at}: a command that keeps running cannot be a walk-through; show it without `$ `"
    );
    let mut child = Command::new(bin)
        .args(&w.args)
        .current_dir(&base)
        .env("NO_COLOR", "1")
        .env_remove("CLAIM_FORMAT")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run");
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut text);
            }
            text
        })
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{at}: `{} {}` still running after 60 s", w.program, w.args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (out, err) = (stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default());
    // In the order a terminal shows them: the binaries write their
    // warnings before the report.
    let text = format!("{}{}", String::from_utf8_lossy(&err), String::from_utf8_lossy(&out));
    let lines = text.lines().map(|l| l.trim_end().to_string()).collect();
    (status.code().unwrap_or(-1), lines)
}

/// Whether `actual` matches `expected`, where a line `...` matches any run
/// of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => (0..=actual.len()).any(|k| matches(rest, &actual[k..])),
        Some((e, rest)) => actual.first().is_some_and(|a| a == e.trim_end()) && matches(rest, &actual[1..]),
    }
}

fn trim_blank_ends(lines: &[String]) -> &[String] {
    let start = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
    let end = lines.iter().rposition(|l| !l.is_empty()).map_or(start, |e| e + 1);
    &lines[start..end]
}

#[test]
fn walkthroughs_print_what_the_markdown_shows() {
    let root = root();
    let update = std::env::var_os("WALKTHROUGH_UPDATE").is_some();
    let scratch = std::env::temp_dir().join(format!("claim-walkthrough-{}", std::process::id()));
    let mut failures = Vec::new();
    let mut count = 0;
    for file in markdown_files(&root) {
        let found = walkthroughs(&file);
        let mut replacements = Vec::new();
        for w in &found {
            count += 1;
            let (code, actual) = run(&root, w, &scratch);
            let fits = matches(trim_blank_ends(&w.expected), trim_blank_ends(&actual));
            if code != w.exit || !fits {
                // A block that elides (`...`) is left to a person: writing
                // the whole output would undo the elision unseen.
                if update && code == w.exit && !w.expected.iter().any(|l| l == "...") {
                    replacements.push((w.block, actual));
                    continue;
                }
                failures.push(format!(
                    "{}:{}: `{} {}` exited {code} (expected {}) and printed:\n{}\n--- the Markdown shows:\n{}",
                    w.file.display(),
                    w.line,
                    w.program,
                    w.args.join(" "),
                    w.exit,
                    actual.join("\n"),
                    w.expected.join("\n")
                ));
            }
        }
        if !replacements.is_empty() {
            rewrite(&file, &replacements);
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        failures.is_empty(),
        "{} walk-through(s) print something else:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // The README's and each example's two: a file moved or a block's fence
    // changed must not make this test vacuous.
    assert!(count >= 9, "only {count} walk-throughs found");
}

/// Writes each block's actual output below its command line.
fn rewrite(file: &Path, replacements: &[(usize, Vec<String>)]) {
    let text = std::fs::read_to_string(file).expect("markdown");
    let lines: Vec<&str> = text.lines().collect();
    let all = blocks(&lines);
    let mut out: Vec<String> = Vec::new();
    let mut next = 0;
    for (n, actual) in replacements {
        let b = &all[*n];
        out.extend(lines[next..=b.open + 1].iter().map(|l| l.to_string()));
        out.extend(actual.iter().cloned());
        next = b.close;
    }
    out.extend(lines[next..].iter().map(|l| l.to_string()));
    std::fs::write(file, out.join("\n") + "\n").expect("write markdown");
}

#[test]
fn the_wildcard_line_matches_any_run_of_lines() {
    let l = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(matches(&l(&["a", "...", "d"]), &l(&["a", "b", "c", "d"])));
    assert!(matches(&l(&["a", "...", "d"]), &l(&["a", "d"])));
    assert!(!matches(&l(&["a", "...", "d"]), &l(&["a", "b", "c"])));
    assert!(!matches(&l(&["a", "b"]), &l(&["a", "b", "c"])));
    assert!(matches(&l(&["...", "c"]), &l(&["a", "b", "c"])));
}

/// The Claim files the Markdown shows are in the layout `claimc fmt`
/// writes: what a reader copies is what the formatter would leave alone.
#[test]
fn the_claim_files_the_markdown_shows_are_formatted() {
    let root = root();
    let scratch = std::env::temp_dir().join(format!("claim-walkthrough-fmt-{}", std::process::id()));
    let mut count = 0;
    let mut unformatted = Vec::new();
    for file in markdown_files(&root) {
        let text = std::fs::read_to_string(&file).expect("markdown");
        let lines: Vec<&str> = text.lines().collect();
        for b in blocks(&lines) {
            let Some(("claim", _)) = b.info.split_once(char::is_whitespace) else { continue };
            count += 1;
            let _ = std::fs::remove_dir_all(&scratch);
            std::fs::create_dir_all(&scratch).expect("scratch");
            let path = scratch.join("shown.claim");
            std::fs::write(&path, b.body.join("\n") + "\n").expect("write");
            let out = Command::new(env!("CARGO_BIN_EXE_claimc"))
                .args(["fmt", "--check"])
                .arg(&path)
                .output()
                .expect("claimc");
            if !out.status.success() {
                unformatted.push(format!(
                    "{}:{}:\n{}{}",
                    file.display(),
                    b.open + 1,
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(unformatted.is_empty(), "run `claimc fmt` on these blocks:\n\n{}", unformatted.join("\n"));
    assert!(count >= 5, "only {count} Claim files found in the Markdown");
}
