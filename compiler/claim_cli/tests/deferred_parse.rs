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
