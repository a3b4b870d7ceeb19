//! Reads through symlinked folders: a folder below the root is known from
//! its parent's listing (not canonicalized from `/` again), so a folder
//! that is a symlink must still be followed to where it really lies, and
//! refused when that is outside the project root.
#![cfg(unix)]

mod common;

use std::path::Path;

/// Puts a project's data in place, given its folder and its root below.
type Layout = fn(&Path, &Path);

/// Runs `main.claim` (which loads `data/deep/r.json`) in a fresh project
/// `<dir>/root`, after `layout(dir, root)` has put the data in place.
fn run(name: &str, layout: impl FnOnce(&Path, &Path)) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("claim-symdirs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let root = dir.join("root");
    write(&root.join("main.claim"), MAIN);
    layout(&dir, &root);
    let out = common::batch_in(&root);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

fn link(target: &str, at: &Path) {
    std::os::unix::fs::symlink(target, at).expect("symlink");
}

const MAIN: &str = "record R { n: Int }\n\
                    fact r: R = load(\"data/deep/r.json\")\n\
                    witness reads_through { holds r.n == 7 }\n";

#[test]
fn a_symlinked_folder_inside_the_root_is_followed() {
    let (code, out) = run("inside", |_, root| {
        write(&root.join("real/deep/r.json"), r#"{"n": 7}"#);
        link("real", &root.join("data"));
    });
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1/1 PASS"), "{out}");
}

#[test]
fn a_symlinked_folder_leaving_the_root_is_refused_at_any_depth() {
    let layouts: [(&str, Layout); 2] = [
        // `data` itself leads out.
        ("outside", |dir, root| {
            write(&dir.join("elsewhere/deep/r.json"), r#"{"n": 7}"#);
            link("../elsewhere", &root.join("data"));
        }),
        // `data` is a folder; `data/deep` leads out.
        ("deeper", |dir, root| {
            write(&dir.join("elsewhere/r.json"), r#"{"n": 7}"#);
            std::fs::create_dir_all(root.join("data")).expect("mkdir");
            link("../../elsewhere", &root.join("data/deep"));
        }),
    ];
    for (name, layout) in layouts {
        let (code, out) = run(name, layout);
        assert_eq!(code, 2, "{name}: {out}");
        assert!(out.contains("E0303") && out.contains("through a symlink"), "{name}: {out}");
        assert!(!out.lines().any(|l| l.starts_with("PASS ")), "{name}: {out}");
    }
}
