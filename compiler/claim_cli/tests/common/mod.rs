//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// Runs `claim_batch --entry main.claim` in `dir`: exit code, stdout+stderr.
pub fn batch_in(dir: &Path) -> (i32, String) {
    batch_in_with(dir, &[])
}

/// `batch_in` with more arguments.
pub fn batch_in_with(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .args(["--entry", "main.claim"])
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("claim_batch");
    (
        out.status.code().unwrap_or(-1),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
    )
}

/// A fresh folder under the system's temporary one, named by `tag`, `name`
/// and this process, holding `files` (paths relative to it, folders made).
pub fn project_dir(tag: &str, name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("claim-{tag}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

/// Whether Python's `jsonschema` is there; outside CI a test may skip
/// without it, in CI (`.ci/run` installs it) it must be there.
pub fn has_jsonschema() -> bool {
    let has = Command::new("python3").args(["-c", "import jsonschema"]).output().is_ok_and(|o| o.status.success());
    if !has {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI must install jsonschema (.ci/run does)");
        eprintln!("skipped: python3 -m pip install jsonschema");
    }
    has
}

/// Validates a JSON document against a schema with `jsonschema`'s
/// `validator` class (e.g. `Draft4Validator`); `Err` has its complaint.
pub fn validate(schema: &Path, document: &str, validator: &str) -> Result<(), String> {
    let doc = std::env::temp_dir().join(format!("claim-doc-{}-{}.json", std::process::id(), document.len()));
    std::fs::write(&doc, document).expect("write");
    let code = format!("import json, sys, jsonschema; jsonschema.{validator}(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))");
    let check = Command::new("python3").args(["-c", &code]).arg(schema).arg(&doc).output().expect("python3");
    let _ = std::fs::remove_file(&doc);
    if check.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&check.stderr).into_owned())
    }
}
