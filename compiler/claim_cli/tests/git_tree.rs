//! Property test: `git_tree` equals `git add -A && git write-tree` on random
//! trees — nested folders, executable and empty files, symlinks (also
//! dangling), empty folders, names with spaces, unicode, and names that sort
//! around `/` (`lib`, `lib.txt`, `lib-x`, `lib0`, `lib/`). The generator is
//! seeded, so a failure names a seed that reproduces it.

use std::path::Path;
use std::process::Command;

use claim_cli::seeded::Rng;

const NAMES: &[&str] =
    &["lib", "lib.txt", "lib-x", "lib0", "lib_", "a b", "ñame", "日本", "Z", "z", "x.y", "-", "0", "a~", "README"];

fn build(dir: &Path, rng: &mut Rng, depth: u32) {
    let n = rng.below(6) + usize::from(depth == 0) as u64;
    for _ in 0..n {
        let name = NAMES[rng.below(NAMES.len() as u64) as usize];
        let path = dir.join(name);
        if path.exists() || path.symlink_metadata().is_ok() {
            continue;
        }
        match rng.below(10) {
            0..=1 if depth < 3 => {
                std::fs::create_dir(&path).expect("dir");
                build(&path, rng, depth + 1);
            }
            2 => std::fs::create_dir(&path).expect("empty dir"),
            3 => std::fs::write(&path, b"").expect("empty file"),
            4 => {
                let target = NAMES[rng.below(NAMES.len() as u64) as usize];
                std::os::unix::fs::symlink(target, &path).expect("symlink");
            }
            5 => {
                std::fs::write(&path, format!("#!/bin/sh\necho {}\n", rng.next_u64())).expect("exec");
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
            }
            _ => {
                let len = rng.below(3000) as usize;
                let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
                std::fs::write(&path, bytes).expect("file");
            }
        }
    }
}

fn git_write_tree(dir: &Path) -> String {
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    git(&["init", "-q"]);
    git(&["-c", "core.fileMode=true", "-c", "core.symlinks=true", "add", "-A"]);
    git(&["write-tree"])
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn git_tree_matches_git_on_random_trees() {
    let root = std::env::temp_dir().join(format!("claim-gittree-{}", std::process::id()));
    for seed in 1..=40u64 {
        let dir = root.join(format!("seed-{seed}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        build(&dir, &mut Rng::new(seed), 0);
        let ours = hex(&claim_cli::gittree::tree_id(&dir).expect("tree_id"));
        let theirs = git_write_tree(&dir);
        assert_eq!(ours, theirs, "seed {seed} (tree at {})", dir.display());
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_empty_directory_has_the_empty_tree_id() {
    let dir = std::env::temp_dir().join(format!("claim-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    assert_eq!(hex(&claim_cli::gittree::tree_id(&dir).expect("tree")), "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
    let _ = std::fs::remove_dir_all(&dir);
}
