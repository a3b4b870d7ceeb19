//! A run that exits after one check loads its modules without parsing
//! them, finding their `use`s by scanning their lines
//! (`claim_syntax::uses`), and parses each where it checks it. The scan is
//! a guess: where a module's parse finds other `use`s than its scan, or a
//! module nests past the limit, the run loads again, parsing as it loads,
//! and reports exactly what that load gives.

mod common;
use common::batch_in;

fn project(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = common::project_dir("deferred", name, files);
    std::fs::write(dir.join("Claim.toml"), "").expect("write");
    dir
}

/// A `use` after another item on its line: the scan misses it, and a
/// program without `lib.util` would not know `double`.
#[test]
fn a_use_the_scan_misses_is_still_followed() {
    let dir = project(
        "missed",
        &[
            ("main.claim", "fact x: Int = 1 use lib.util.{double}\nwitness w { holds double(x) == 2 }\n"),
            ("lib/util.claim", "fn double(n: Int) -> Int { n * 2 }\n"),
        ],
    );
    let (code, out) = batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS w") && out.contains("1/1 PASS"), "{out}");
}

/// A line of a multi-line text that reads like a `use`: the scan follows
/// it, and a program holding `lib.broken` would evaluate its fact and fail.
#[test]
fn a_use_the_scan_imagines_is_not_followed() {
    let dir = project(
        "imagined",
        &[
            ("main.claim", "fact t: Text = \"a\nuse lib.broken\n\"\nwitness w { holds len(t) > 0 }\n"),
            ("lib/broken.claim", "fact bad: Int = load(\"nowhere.json\")\n"),
        ],
    );
    let (code, out) = batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS w") && out.contains("1/1 PASS") && !out.contains("nowhere"), "{out}");
}

/// Modules written the usual way, some reached only through `use`: the
/// scan is right, and the run is what a parsing load gives.
#[test]
fn the_usual_uses_are_followed_through_modules_not_named_as_entries() {
    let dir = project(
        "usual",
        &[
            ("main.claim", "use lib.a.{inc}\nuse std.provenance.{Candidate}\nwitness w { holds inc(1) == 3 }\n"),
            ("lib/a.claim", "use lib.b.{one}\nfn inc(n: Int) -> Int { n + one() + one() }\n"),
            ("lib/b.claim", "fn one() -> Int { 1 }\n"),
        ],
    );
    let (code, out) = batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS w") && out.contains("1/1 PASS"), "{out}");
}

/// `claimc check` compiles as a run does: many modules are checked in
/// parts on every core, and a `use` the scan misses still sends it back to
/// a parsing load. What it reports is every diagnostic, once, and the
/// count of modules checked.
#[test]
fn claimc_check_of_many_modules_reports_every_diagnostic_once() {
    let project_with = |name: &str, f50: &str| {
        let mut files: Vec<(String, String)> = (0..80)
            .map(|i| {
                let fact = match i {
                    50 => format!("fact f50: Int = {f50}\n"),
                    70 => "fact f70: Int = 35 use lib.util.{double}\n".to_string(),
                    i => format!("fact f{i}: Int = {i}\n"),
                };
                let unused = if i == 65 { "fact unused_65: Int = 1\n" } else { "" };
                let holds = if i == 70 { "double(f70) == 70".to_string() } else { format!("f{i} == {i}") };
                (format!("m{i}.claim"), format!("{fact}{unused}witness w{i} {{ holds {holds} }}\n"))
            })
            .collect();
        files.push(("lib/util.claim".to_string(), "fn double(n: Int) -> Int { n * 2 }\n".to_string()));
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        project(name, &files)
    };
    let check = |dir: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_claimc"))
            .arg("check")
            .arg(dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("run claimc");
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let headers = |err: &str| -> Vec<String> { err.lines().filter(|l| l.starts_with('[')).map(String::from).collect() };
    // A type error in the 51st module: one error, and (lints wait for a
    // program without errors) no warning.
    let (code, err) = check(&project_with("check_many_error", "\"fifty\""));
    assert_eq!(code, Some(2), "{err}");
    let found = headers(&err);
    assert!(found.len() == 1 && found[0].starts_with("[E0") && err.contains("m50.claim:1:"), "{err}");
    assert_eq!(err.lines().last(), Some("checked 81 modules: 1 error, 0 warnings"), "{err}");
    // Fixed: the one unread fact is the one warning.
    let (code, err) = check(&project_with("check_many_warning", "50"));
    assert_eq!(code, Some(0), "{err}");
    let found = headers(&err);
    assert!(found.len() == 1 && found[0].starts_with("[W0002]") && found[0].contains("`unused_65`"), "{err}");
    assert_eq!(err.lines().last(), Some("checked 81 modules: 0 errors, 1 warning"), "{err}");
}
