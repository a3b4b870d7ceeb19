//! `git_commit(repo, commit)` (§6, `std.git`): reads a commit object from
//! a git repository's object store (loose objects and packs, through
//! gitoxide's `gix-odb`), checks that the object's bytes hash to the id
//! asked for and that it is a commit, and gives its tree and parents. The
//! hash is computed here again, whatever the store did: a commit named by a
//! receipt is believed only for the bytes that are that commit.

use claim_diagnostics::Diagnostic;
use claim_eval::{WorldCall, WorldCode, WorldError, WorldResult};
use gix_object::Find as _;
use sha1::Digest as _;
use std::path::{Path, PathBuf};

/// A commit read and checked: its tree and parents.
pub struct Commit {
    pub tree: [u8; 20],
    pub parents: Vec<[u8; 20]>,
}

fn refused(call: &WorldCall<'_>, code: WorldCode, message: String, label: &str) -> WorldError {
    WorldError::new(code, Diagnostic::error("E0315", message).at_loc(call.call, label))
}

fn hex(id: &[u8]) -> String {
    id.iter().map(|b| format!("{b:02x}")).collect()
}

/// The object folder of the repository at `dir` (a canonical folder
/// beneath the root): `.git/objects` of a work tree, or `objects` of a bare
/// repository. Alternates are refused: they would read objects from
/// anywhere on the machine, outside the project.
fn objects_of(dir: &Path, call: &WorldCall<'_>) -> WorldResult<PathBuf> {
    let not_a_repository = |why: &str| {
        refused(
            call,
            WorldCode::NotGitRepository,
            format!("`{}` is not a git repository: {why}", call.path),
            "reads this repository",
        )
    };
    let git = dir.join(".git");
    let git_dir = match std::fs::symlink_metadata(&git) {
        Ok(m) if m.is_dir() => git,
        Ok(_) => {
            return Err(not_a_repository(
                "its `.git` is a file (a worktree or a submodule); name the git folder it points to",
            ))
        }
        Err(_) if dir.join("HEAD").is_file() && dir.join("objects").is_dir() => dir.to_path_buf(),
        Err(_) => return Err(not_a_repository("it has no `.git` folder, and is no bare repository")),
    };
    let objects = git_dir.join("objects");
    match std::fs::symlink_metadata(&objects) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(not_a_repository("its `objects` is not a folder here (a symlink is not followed)")),
        Err(_) => return Err(not_a_repository("it has no `objects` folder")),
    }
    if objects.join("info/alternates").exists() {
        return Err(refused(
            call,
            WorldCode::NotGitRepository,
            format!(
                "the repository `{}` borrows objects from other repositories (`objects/info/alternates`)",
                call.path
            ),
            "reads this repository",
        )
        .with_note("objects outside the project are not read: clone it without `--shared` or `--reference`"));
    }
    Ok(objects)
}

/// Reads the commit `id` from the repository at `dir`.
pub fn read_commit(dir: &Path, id: &[u8; 20], call: &WorldCall<'_>) -> WorldResult<Commit> {
    let objects = objects_of(dir, call)?;
    let store = gix_odb::at(&objects, gix_hash::Kind::Sha1).map_err(|e| {
        refused(
            call,
            WorldCode::NotGitRepository,
            format!("cannot open the objects of `{}`: {e}", call.path),
            "reads this repository",
        )
    })?;
    let oid = gix_hash::oid::try_from_bytes(id).map_err(|_| WorldError::internal("a commit id", call.call))?;
    let mut buf = Vec::new();
    let data = match store.try_find(oid, &mut buf) {
        Ok(Some(data)) => data,
        Ok(None) => {
            return Err(refused(
                call,
                WorldCode::RevisionUnknown,
                format!("the repository `{}` has no object `{}`", call.path, hex(id)),
                "reads this repository",
            ))
        }
        Err(e) => {
            return Err(refused(
                call,
                WorldCode::FileUnreadable,
                format!("cannot read the object `{}` of `{}`: {e}", hex(id), call.path),
                "reads this repository",
            ))
        }
    };
    // The id is the SHA-1 of the object as git stores it: its kind, its
    // length and its bytes. The store's word for it is not taken.
    let mut h = sha1::Sha1::new();
    h.update(format!("{} {}\0", data.kind, data.data.len()));
    h.update(data.data);
    let actual: [u8; 20] = h.finalize().into();
    if &actual != id {
        return Err(refused(
            call,
            WorldCode::BlobMismatch,
            format!(
                "the object `{}` of `{}` does not hash to its id: its bytes hash to `{}`",
                hex(id),
                call.path,
                hex(&actual)
            ),
            "reads this repository",
        ));
    }
    if data.kind != gix_object::Kind::Commit {
        return Err(refused(
            call,
            WorldCode::RevisionUnknown,
            format!("the object `{}` of `{}` is a {}, not a commit", hex(id), call.path, data.kind),
            "reads this repository",
        ));
    }
    let commit = gix_object::CommitRef::from_bytes(data.data, gix_hash::Kind::Sha1).map_err(|e| {
        refused(
            call,
            WorldCode::RevisionUnknown,
            format!("the commit `{}` of `{}` cannot be read: {e}", hex(id), call.path),
            "reads this repository",
        )
    })?;
    let bytes = |o: gix_hash::ObjectId| {
        let mut out = [0u8; 20];
        out.copy_from_slice(o.as_bytes());
        out
    };
    Ok(Commit { tree: bytes(commit.tree()), parents: commit.parents().map(bytes).collect() })
}
