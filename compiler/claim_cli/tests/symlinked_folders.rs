//! Reads through symlinked folders: a folder below the root is known from
//! its parent's listing (not canonicalized from `/` again), so a folder
//! that is a symlink must still be followed to where it really lies, and
//! refused when that is outside the project root.
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};

fn project(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("claim-symdirs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("root")).expect("mkdir");
    dir
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

const MAIN: &str = "record R { n: Int }\n\
                    fact r: R = load(\"data/deep/r.json\")\n\
                    witness reads_through { holds r.n == 7 }\n";

#[test]
fn a_symlinked_folder_inside_the_root_is_followed() {
    let dir = project("inside");
    let root = dir.join("root");
    write(&root.join("main.claim"), MAIN);
    write(&root.join("real/deep/r.json"), r#"{"n": 7}"#);
    std::os::unix::fs::symlink("real", root.join("data")).expect("symlink");
    let (code, out) = common::batch_in(&root);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1/1 PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_symlinked_folder_leaving_the_root_is_refused() {
    let dir = project("outside");
    let root = dir.join("root");
    write(&root.join("main.claim"), MAIN);
    write(&dir.join("elsewhere/deep/r.json"), r#"{"n": 7}"#);
    std::os::unix::fs::symlink("../elsewhere", root.join("data")).expect("symlink");
    let (code, out) = common::batch_in(&root);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("E0303") && out.contains("through a symlink"), "{out}");
    assert!(!out.contains("PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_symlinked_folder_deeper_down_leaving_the_root_is_refused() {
    let dir = project("deeper");
    let root = dir.join("root");
    write(&root.join("main.claim"), MAIN);
    write(&dir.join("elsewhere/r.json"), r#"{"n": 7}"#);
    std::fs::create_dir_all(root.join("data")).expect("mkdir");
    std::os::unix::fs::symlink("../../elsewhere", root.join("data/deep")).expect("symlink");
    let (code, out) = common::batch_in(&root);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("E0303"), "{out}");
    assert!(!out.contains("PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
