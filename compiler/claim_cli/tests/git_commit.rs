//! `git_commit` (§6) against repositories real git made: loose objects and
//! packs, work trees and bare clones, each answer compared with what `git
//! rev-parse` says; and every way a repository can fail, with its code.

mod common;

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "a")
        .env("GIT_AUTHOR_EMAIL", "a@example.com")
        .env("GIT_COMMITTER_NAME", "a")
        .env("GIT_COMMITTER_EMAIL", "a@example.com")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A work tree `repo` with two commits; returns (head, its tree, parent).
fn repository(dir: &Path) -> (String, String, String) {
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("README.md"), "one\n").expect("write");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    std::fs::write(repo.join("src/main.rs"), "fn main() {}\n").expect("write");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "two"]);
    (git(&repo, &["rev-parse", "HEAD"]), git(&repo, &["rev-parse", "HEAD^{tree}"]), git(&repo, &["rev-parse", "HEAD^"]))
}

fn claim(dir: &Path, repo: &str, head: &str, tree: &str, parent: &str) -> (i32, String) {
    let main = format!(
        "use std.git.{{git_commit, Commit}}\n\
         fact head: Commit = git_commit(\"{repo}\", sha1:{head})\n\
         witness read {{\n\
           holds raw(head.id) == sha1:{head}\n\
           holds raw(head.tree) == sha1:{tree}\n\
           holds [raw(p) for p in head.parents] == [sha1:{parent}]\n\
         }}\n"
    );
    std::fs::write(dir.join("main.claim"), main).expect("main");
    common::batch_in(dir)
}

#[test]
fn loose_packed_and_bare_repositories_give_what_git_gives() {
    let dir = common::project_dir("git-commit", "forms", &[]);
    let (head, tree, parent) = repository(&dir);
    let (code, out) = claim(&dir, "repo", &head, &tree, &parent);
    assert_eq!(code, 0, "loose objects: {out}");
    git(&dir.join("repo"), &["gc", "-q", "--aggressive"]);
    assert!(std::fs::read_dir(dir.join("repo/.git/objects/pack")).expect("pack").count() > 0);
    let (code, out) = claim(&dir, "repo", &head, &tree, &parent);
    assert_eq!(code, 0, "packed objects: {out}");
    git(&dir, &["clone", "-q", "--bare", "--no-local", "repo", "bare.git"]);
    let (code, out) = claim(&dir, "bare.git", &head, &tree, &parent);
    assert_eq!(code, 0, "a bare clone: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_way_a_repository_fails_has_its_code() {
    let dir = common::project_dir("git-commit", "failures", &[("not-a-repo/README", "x")]);
    let (head, tree, _) = repository(&dir);
    // A clone that borrows its objects (`objects/info/alternates`).
    git(&dir, &["clone", "-q", "--shared", "repo", "borrowing"]);
    let main = format!(
        "use std.git.{{git_commit, Commit}}\nuse std.world\n\
         fact absent: Commit = git_commit(\"repo\", sha1:0000000000000000000000000000000000000001)\n\
         fact a_tree: Commit = git_commit(\"repo\", sha1:{tree})\n\
         fact no_repo: Commit = git_commit(\"not-a-repo\", sha1:{head})\n\
         fact borrowing: Commit = git_commit(\"borrowing\", sha1:{head})\n\
         witness refused {{\n\
           refuses absent with RevisionUnknown\n\
           refuses a_tree with RevisionUnknown\n\
           refuses no_repo with NotGitRepository\n\
           refuses borrowing with NotGitRepository\n\
         }}\n"
    );
    std::fs::write(dir.join("main.claim"), main).expect("main");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_object_whose_bytes_are_not_its_id_is_refused() {
    let dir = common::project_dir("git-commit", "tampered", &[]);
    let (head, tree, _) = repository(&dir);
    // The commit's loose object file replaced by the tree's: it decompresses
    // and parses, but its bytes hash to the tree's id.
    let objects = dir.join("repo/.git/objects");
    let file = |id: &str| objects.join(&id[..2]).join(&id[2..]);
    let bytes = std::fs::read(file(&tree)).expect("tree object");
    let commit_file = file(&head);
    let mut perms = std::fs::metadata(&commit_file).expect("meta").permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&commit_file, perms).expect("chmod");
    std::fs::write(&commit_file, bytes).expect("swap");
    let main = format!(
        "use std.git.{{git_commit, Commit}}\n\
         fact head: Commit = git_commit(\"repo\", sha1:{head})\n\
         witness read {{ holds len(head.parents) == 1 }}\n"
    );
    std::fs::write(dir.join("main.claim"), main).expect("main");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[E0315]") && out.contains(&format!("its bytes hash to `{tree}`")), "{out}");
    assert!(out.contains("BlobMismatch"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
