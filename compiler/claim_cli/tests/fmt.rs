//! `claimc fmt`: rewrites files, `--check` prints a diff and exits 1, `-`
//! formats standard input, a syntax error exits 2 and changes nothing.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn claimc(args: &[&str], dir: &std::path::Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_claimc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("claimc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn fmt_check_rewrite_stdin_and_errors() {
    let dir = std::env::temp_dir().join(format!("claim-fmt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let messy = "fact   x :Int=1+2\n";
    std::fs::write(dir.join("a.claim"), messy).expect("write");

    let (code, out, err) = claimc(&["fmt", "--check", "a.claim"], &dir);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("-fact   x :Int=1+2") && out.contains("+fact x: Int = 1 + 2"), "{out}");
    assert!(err.contains("1 file would be reformatted"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("a.claim")).ok().as_deref(), Some(messy), "--check changes nothing");

    let (code, _, err) = claimc(&["fmt", "."], &dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("a.claim")).ok().as_deref(), Some("fact x: Int = 1 + 2\n"));
    let (code, out, _) = claimc(&["fmt", "--check", "a.claim"], &dir);
    assert_eq!((code, out.as_str()), (0, ""));

    let mut child = Command::new(env!("CARGO_BIN_EXE_claimc"))
        .args(["fmt", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("claimc");
    child.stdin.take().expect("stdin").write_all(b"witness w{holds true}").expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "witness w {\n  holds true\n}\n");

    std::fs::write(dir.join("b.claim"), "fact x: Int = \n").expect("write");
    let (code, _, err) = claimc(&["fmt", "b.claim"], &dir);
    assert_eq!(code, 2);
    assert!(err.contains("E0010"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("b.claim")).ok().as_deref(), Some("fact x: Int = \n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file that begins with a byte order mark is formatted as the text after
/// it, and keeps it.
#[test]
fn fmt_keeps_a_byte_order_mark() {
    let dir = common::project_dir("fmt", "bom", &[("a.claim", "\u{feff}fact   x :Int=1\n")]);
    let (code, _, err) = claimc(&["fmt", "a.claim"], &dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("a.claim")).ok().as_deref(), Some("\u{feff}fact x: Int = 1\n"));
    let (code, out, err) = claimc(&["fmt", "--check", "a.claim"], &dir);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fmt --check` on a folder with no `.claim` file is an error: a CI job
/// whose paths have moved must not pass by checking nothing.
#[test]
fn fmt_check_on_a_folder_without_claim_files_fails() {
    let dir = common::project_dir("fmt", "empty", &[("receipts/run.json", "{}")]);
    let (code, _, err) = claimc(&["fmt", "--check", "receipts"], &dir);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("E0901") && err.contains("no `.claim` file under `receipts`"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
