//! Property test: `git_tree` equals `git add -A && git write-tree` on random
//! trees — nested folders, executable and empty files, symlinks (also
//! dangling), empty folders, names with spaces, unicode, and names that sort
//! around `/` (`lib`, `lib.txt`, `lib-x`, `lib0`, `lib/`). The generator is
//! seeded, so a failure names a seed that reproduces it. Then git's own
//! rules, each against real git: `.gitattributes` line endings (also on
//! random trees of CRLF, lone CR and NUL content), gitlinks (a nested
//! repository, a worktree's `.git` file), and what git refuses.

use std::path::Path;
use std::process::Command;

use claim_testkit::seeded::Rng;

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

/// git in `dir`, with no configuration of the machine's: stdout, or stderr.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// What git says the tree id is: `Err` where git refuses to add the tree.
fn try_git_write_tree(dir: &Path) -> Result<String, String> {
    git(dir, &["init", "-q"])?;
    let added = git(dir, &["-c", "core.fileMode=true", "-c", "core.symlinks=true", "add", "-A"]);
    let tree = added.and_then(|_| git(dir, &["write-tree"]));
    let _ = std::fs::remove_dir_all(dir.join(".git"));
    tree
}

fn git_write_tree(dir: &Path) -> String {
    try_git_write_tree(dir).unwrap_or_else(|e| panic!("git: {e}"))
}

/// `git_tree` of `dir`, which is the project root.
fn ours(dir: &Path) -> std::io::Result<String> {
    let real = dir.canonicalize()?;
    let b = claim_cli::world::beneath::Beneath::new(&real)?;
    claim_cli::world::gittree::tree_id(&b, &real).map(|id| hex(&id))
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
        let ours = ours(&dir).expect("tree_id");
        let theirs = git_write_tree(&dir);
        assert_eq!(ours, theirs, "seed {seed} (tree at {})", dir.display());
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_empty_directory_has_the_empty_tree_id() {
    let dir = std::env::temp_dir().join(format!("claim-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    assert_eq!(ours(&dir).expect("tree"), "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Contents whose line endings git's `text` and `text=auto` treat apart.
const CONTENTS: &[&[u8]] = &[
    b"one\r\ntwo\r\n",
    b"one\ntwo\n",
    b"mixed\r\nand\nlone\rcr\r\n",
    b"binary\r\n\0\x01\x02\r\n",
    b"\x01\x02\x03\x04\r\n",
    b"tab\tand\x1b[0m\r\n",
    b"",
];

const ATTRIBUTE_LINES: &[&str] = &[
    "* text=auto",
    "*.txt text",
    "*.bin -text",
    "*.bin binary",
    "*.md eol=crlf",
    "*.md eol=lf",
    "*.c crlf",
    "*.c -crlf",
    "*.h crlf=input",
    "sub/*.txt -text",
    "**/deep/*.txt text",
    "/top.txt -text",
    "*.txt !text",
    "[ab].dat text",
    "*.txt text=auto",
];

const FILE_NAMES: &[&str] = &["a.txt", "b.bin", "c.md", "d.c", "e.h", "top.txt", "a.dat", "c.dat", "plain"];

/// Random trees of files with CRLF, lone CR and NUL content under random
/// `.gitattributes` at the top and below: git's tree id every time.
#[test]
fn line_endings_are_normalised_as_gitattributes_say() {
    let root = std::env::temp_dir().join(format!("claim-gitattr-{}", std::process::id()));
    for seed in 1..=60u64 {
        let mut rng = Rng::new(seed * 7919);
        let dir = root.join(format!("seed-{seed}"));
        for folder in ["", "sub/", "sub/deep/", "deep/"] {
            std::fs::create_dir_all(dir.join(folder)).expect("mkdir");
            for name in FILE_NAMES {
                if rng.below(3) > 0 {
                    let content = CONTENTS[rng.below(CONTENTS.len() as u64) as usize];
                    std::fs::write(dir.join(folder).join(name), content).expect("file");
                }
            }
            if rng.below(2) == 0 || folder.is_empty() {
                let lines: Vec<&str> = (0..1 + rng.below(4))
                    .map(|_| ATTRIBUTE_LINES[rng.below(ATTRIBUTE_LINES.len() as u64) as usize])
                    .collect();
                std::fs::write(dir.join(folder).join(".gitattributes"), lines.join("\n") + "\n").expect("attrs");
            }
        }
        let theirs = git_write_tree(&dir);
        assert_eq!(ours(&dir).expect("tree_id"), theirs, "seed {seed} (tree at {})", dir.display());
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// A folder that is a repository of its own is a gitlink to its checked
/// out commit, as git records it: a nested repository, and a worktree
/// whose `.git` is a file naming its git folder.
#[test]
fn a_nested_repository_is_a_gitlink_to_its_commit() {
    let dir = std::env::temp_dir().join(format!("claim-gitlink-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    std::fs::write(dir.join("top.txt"), "top\n").expect("file");
    std::fs::write(dir.join("sub/inner.txt"), "inner\n").expect("file");
    git(&dir.join("sub"), &["init", "-q", "-b", "main"]).expect("init");
    git(&dir.join("sub"), &["add", "-A"]).expect("add");
    git(&dir.join("sub"), &["commit", "-q", "-m", "one"]).expect("commit");
    // A second commit, its ref packed: HEAD → refs/heads/main → packed-refs.
    std::fs::write(dir.join("sub/inner.txt"), "inner, again\n").expect("file");
    git(&dir.join("sub"), &["commit", "-q", "-am", "two"]).expect("commit");
    git(&dir.join("sub"), &["pack-refs", "--all"]).expect("pack");
    git(&dir.join("sub"), &["worktree", "add", "-q", "../wt", "-b", "other"]).expect("worktree");
    assert!(dir.join("wt/.git").is_file(), "a worktree's .git is a file");
    let theirs = git_write_tree(&dir);
    assert_eq!(ours(&dir).expect("tree_id"), theirs);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What git refuses to add, `git_tree` refuses (naming the path), and what
/// it cannot reproduce it refuses too; it never gives another id.
#[test]
fn what_git_refuses_or_claim_cannot_reproduce_is_refused() {
    let root = std::env::temp_dir().join(format!("claim-gitrefuse-{}", std::process::id()));
    let cases: Vec<(&str, &dyn Fn(&Path), bool, &str)> = vec![
        (
            "`.GIT`",
            &|d| {
                std::fs::create_dir_all(d.join(".GIT")).expect("mkdir");
                std::fs::write(d.join(".GIT/config"), "x").expect("file");
            },
            true,
            ".GIT",
        ),
        ("`.Git` file", &|d| std::fs::write(d.join("x/.Git"), "x").expect("file"), true, ".Git"),
        (
            "a repository with no commit",
            &|d| {
                std::fs::create_dir_all(d.join("empty")).expect("mkdir");
                git(&d.join("empty"), &["init", "-q"]).expect("init");
            },
            true,
            "no commit checked out",
        ),
        (
            "a filter",
            &|d| std::fs::write(d.join(".gitattributes"), "*.bin filter=lfs\n").expect("attrs"),
            false,
            "filter",
        ),
        ("ident", &|d| std::fs::write(d.join(".gitattributes"), "*.txt ident\n").expect("attrs"), false, "ident"),
        (
            "an encoding",
            &|d| std::fs::write(d.join(".gitattributes"), "*.txt working-tree-encoding=UTF-16\n").expect("attrs"),
            false,
            "working-tree-encoding",
        ),
        ("a macro", &|d| std::fs::write(d.join(".gitattributes"), "[attr]mine text\n").expect("attrs"), false, "macro"),
    ];
    for (what, make, git_refuses, says) in cases {
        let dir = root.join(what.replace([' ', '`', '.'], "_"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("x")).expect("mkdir");
        std::fs::write(dir.join("x/a.txt"), "a\r\n").expect("file");
        std::fs::write(dir.join("x/b.bin"), "b").expect("file");
        make(&dir);
        let e = ours(&dir).expect_err(what);
        assert_eq!(e.kind(), std::io::ErrorKind::Unsupported, "{what}: {e}");
        assert!(e.to_string().contains(says), "{what}: {e}");
        if git_refuses {
            assert!(try_git_write_tree(&dir).is_err(), "{what}: git refuses it too");
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}
