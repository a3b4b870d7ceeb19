//! The git tree id of a directory, byte for byte what `git add -A && git
//! write-tree` computes: blobs of file contents, modes 100644 / 100755 /
//! 120000 (a symlink's target as its content) / 40000, entries in git's
//! order (a subtree sorts as if its name ended in `/`), empty directories
//! omitted, and `.git` ignored. Files are hashed in parallel across cores;
//! the trees are then assembled in one pass.

use sha1::{Digest, Sha1};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn object_id(kind: &str, body: &[u8]) -> [u8; 20] {
    let mut h = Sha1::new();
    h.update(format!("{kind} {}\0", body.len()).as_bytes());
    h.update(body);
    let mut out = [0u8; 20];
    out.copy_from_slice(&h.finalize()[..]);
    out
}

/// A file's blob id, and whether its first read waited for the disk.
fn blob_of_file(path: &Path, len: u64) -> std::io::Result<([u8; 20], bool)> {
    let mut h = Sha1::new();
    h.update(format!("blob {len}\0").as_bytes());
    let f = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 1 << 16];
    let mut seen = 0u64;
    let waited = crate::readahead::read_pieces(&f, &mut buf, |piece| {
        seen += piece.len() as u64;
        h.update(piece);
    })?;
    if seen != len {
        return Err(std::io::Error::other(format!("`{}` changed while it was hashed", path.display())));
    }
    let mut out = [0u8; 20];
    out.copy_from_slice(&h.finalize()[..]);
    Ok((out, waited))
}

#[cfg(unix)]
fn name_bytes(name: &std::ffi::OsStr) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    name.as_bytes().to_vec()
}

#[cfg(not(unix))]
fn name_bytes(name: &std::ffi::OsStr) -> Vec<u8> {
    name.to_string_lossy().as_bytes().to_vec()
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o100 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    false
}

/// A directory as read from disk, before hashing.
enum Node {
    File { path: PathBuf, exec: bool },
    Link(Vec<u8>),
    Dir(Vec<(Vec<u8>, Node)>),
}

fn read_tree(dir: &Path, files: &mut Vec<(PathBuf, u64)>) -> std::io::Result<Vec<(Vec<u8>, Node)>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name();
        if name == ".git" {
            continue;
        }
        let path = e.path();
        let meta = std::fs::symlink_metadata(&path)?;
        let ft = meta.file_type();
        let node = if ft.is_symlink() {
            Node::Link(name_bytes(std::fs::read_link(&path)?.as_os_str()))
        } else if ft.is_dir() {
            Node::Dir(read_tree(&path, files)?)
        } else if ft.is_file() {
            files.push((path.clone(), meta.len()));
            Node::File { path, exec: is_executable(&meta) }
        } else {
            continue; // sockets, fifos: git does not add them
        };
        out.push((name_bytes(&name), node));
    }
    Ok(out)
}

/// Files whose reads are begun ahead of the hashing, once the tree is
/// found cold (`readahead`): enough to keep the disk busy.
const AHEAD: usize = 256;

/// Hashes every file as a git blob, on all cores. From a cold page cache
/// (the first two files both waited for the disk), the reads of the next
/// `AHEAD` files are kept begun ahead of the hashing.
fn hash_files(files: &[(PathBuf, u64)]) -> std::io::Result<HashMap<PathBuf, [u8; 20]>> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    let jobs = crate::par::default_jobs().min(files.len().max(1));
    let next = AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::with_capacity(files.len()));
    let reads = crate::readahead::FolderReads::default();
    let cold = AtomicBool::new(false);
    let begun = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Relaxed);
                let Some((path, len)) = files.get(i) else { break };
                let r = blob_of_file(path, *len).map(|(id, waited)| {
                    if reads.note(waited) {
                        cold.store(true, Relaxed);
                    }
                    (path.clone(), id)
                });
                if cold.load(Relaxed) {
                    // This thread begins the files between what was begun
                    // and `AHEAD` past its own, if no other took them.
                    let upto = (i + 1 + AHEAD).min(files.len());
                    let from = begun.fetch_max(upto, Relaxed).max(i + 1);
                    files.get(from..upto).into_iter().flatten().for_each(|(p, _)| {
                        crate::readahead::begin_read(p);
                    });
                }
                if let Ok(mut v) = results.lock() {
                    v.push(r);
                }
            });
        }
    });
    results.into_inner().map_err(|_| std::io::Error::other("a hashing thread failed"))?.into_iter().collect()
}

/// A tree's id; `None` for an empty tree, which git leaves out of its parent.
fn tree_of(entries: &[(Vec<u8>, Node)], blobs: &HashMap<PathBuf, [u8; 20]>) -> std::io::Result<Option<[u8; 20]>> {
    let mut rows: Vec<(Vec<u8>, &'static str, [u8; 20])> = Vec::new();
    for (name, node) in entries {
        match node {
            Node::Link(target) => rows.push((name.clone(), "120000", object_id("blob", target))),
            Node::File { path, exec, .. } => {
                let id = *blobs.get(path).ok_or_else(|| std::io::Error::other("a file was not hashed"))?;
                rows.push((name.clone(), if *exec { "100755" } else { "100644" }, id));
            }
            Node::Dir(children) => {
                if let Some(id) = tree_of(children, blobs)? {
                    rows.push((name.clone(), "40000", id));
                }
            }
        }
    }
    if rows.is_empty() {
        return Ok(None);
    }
    // git compares names as bytes, a tree's name as if followed by `/`.
    rows.sort_by_cached_key(|(name, mode, _)| {
        let mut k = name.clone();
        if *mode == "40000" {
            k.push(b'/');
        }
        k
    });
    let mut body = Vec::new();
    for (name, mode, id) in &rows {
        body.extend_from_slice(mode.as_bytes());
        body.push(b' ');
        body.extend_from_slice(name);
        body.push(0);
        body.extend_from_slice(id);
    }
    Ok(Some(object_id("tree", &body)))
}

/// The tree id of `dir` (an empty directory has git's empty tree id).
pub fn tree_id(dir: &Path) -> std::io::Result<[u8; 20]> {
    let mut files = Vec::new();
    let entries = read_tree(dir, &mut files)?;
    let blobs = hash_files(&files)?;
    Ok(tree_of(&entries, &blobs)?.unwrap_or_else(|| object_id("tree", b"")))
}
