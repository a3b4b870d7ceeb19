//! The built-ins' reference: every example in it holds, run by the real
//! binary in a project with the facts and files the reference names, and
//! `docs/language.md` holds the current table (`claimc doc --builtins`).

use claim_sema::builtins::{BUILTINS, BUILTIN_EXAMPLE_FACTS};
use std::path::Path;
use std::process::Command;

/// What each world function's example fact holds, for the files below
/// (the digests as `sha256sum`, `sha512sum` and `git write-tree` give them).
const WORLD_CHECKS: &[(&str, &str)] = &[
    ("load", "get(tiers, \"tier\") == Some(\"gpu\")"),
    ("file_sha256", "readme == sha256:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"),
    (
        "file_sha512",
        "readme512 == parse_sha512(\"e7c22b994c59d9cf2b48e549b1e24666636045930d3da7c1acb299d1c3b7f931f94aae41edda2c2b207a36e10f8bcb8d45223e54878f5b316e7ce3b6bc019629\")",
    ),
    ("git_tree", "tree == sha1:2e81171448eb9f2ee3821e3d447aa6b2fe3ddba1"),
];

#[test]
fn every_builtin_example_holds() {
    let dir = std::env::temp_dir().join(format!("claim-builtins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("tmp");
    std::fs::write(dir.join("labels.json"), r#"{"org.opencontainers.image.title": "sparkring", "tier": "gpu"}"#)
        .expect("write");
    std::fs::write(
        dir.join("receipt.json"),
        r#"{"builder": {"id": "https://github.com/acme/builder"}, "steps": [3, 4], "ok": true}"#,
    )
    .expect("write");
    std::fs::write(dir.join("src/a.txt"), "hello\n").expect("write");
    let mut program = String::from(BUILTIN_EXAMPLE_FACTS);
    for b in BUILTINS {
        let holds = match b.example.strip_prefix("fact ") {
            Some(_) => {
                program.push_str(b.example);
                program.push('\n');
                let (_, check) = WORLD_CHECKS
                    .iter()
                    .find(|(n, _)| *n == b.name)
                    .unwrap_or_else(|| panic!("no check for the world function `{}`", b.name));
                *check
            }
            None => b.example,
        };
        program.push_str(&format!("witness builtin_{} {{ holds {holds} }}\n", b.name));
    }
    std::fs::write(dir.join("main.claim"), &program).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .args(["--entry", dir.to_str().expect("utf-8")])
        .output()
        .expect("claim_batch");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let n = BUILTINS.len();
    assert!(out.status.code() == Some(0) && stdout.contains(&format!("{n}/{n} PASS")), "{program}\n{stdout}\n{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_builtin_is_in_the_reference_and_the_reference_is_current() {
    let names: Vec<&str> = BUILTINS.iter().map(|b| b.name).collect();
    assert_eq!(names, claim_sema::builtins::BUILTIN_NAMES, "one entry for each built-in, in the same order");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/language.md");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let (start, end) = ("<!-- built-ins -->\n", "<!-- /built-ins -->\n");
    let section = text.split_once(start).and_then(|(_, rest)| rest.split_once(end)).map(|(s, _)| s);
    assert_eq!(
        section,
        Some(claim_cli::commands::doc::builtins_markdown().as_str()),
        "docs/language.md's built-ins are stale: put `claimc doc --builtins` between `{}` and `{}`",
        start.trim(),
        end.trim()
    );
}
