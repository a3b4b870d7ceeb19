//! The git tree id of a directory, byte for byte what `git add -A && git
//! write-tree` computes in a repository made there: blobs of file contents
//! (as `.gitattributes` makes `git add` store them: `gitattributes.rs`),
//! modes 100644 / 100755 / 120000 (a symlink's target as its content) /
//! 40000, a folder that is a repository of its own as a gitlink (160000,
//! its checked-out commit), entries in git's order (a subtree sorts as if
//! its name ended in `/`), empty directories omitted, and `.git` ignored.
//! A name git refuses to add (`.git` in any case) is refused by name.
//!
//! The walk is confined: every folder is opened and listed by a descriptor
//! beneath the project root, and every file opened through no symlink
//! (`beneath.rs`), so a folder or file swapped for a symlink while the tree
//! is read is refused, never followed out of the project; a file swapped
//! for a FIFO is refused as no file, never waited on. Files are hashed in
//! parallel across cores; the trees are then assembled in one pass.

use crate::world::beneath::Beneath;
use crate::world::gitattributes::{Attributes, Conversion};
use sha1::{Digest, Sha1};
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

fn object_id(kind: &str, body: &[u8]) -> [u8; 20] {
    let mut h = Sha1::new();
    h.update(format!("{kind} {}\0", body.len()).as_bytes());
    h.update(body);
    let mut out = [0u8; 20];
    out.copy_from_slice(&h.finalize()[..]);
    out
}

/// What git does not reproduce, or refuses itself: an error of its own
/// kind, whose message names the path.
fn refused(path: &[u8], why: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, format!("`{}`: {why}", String::from_utf8_lossy(path)))
}

/// A file's blob id, and whether its first read waited for the disk.
fn blob_of_file(b: &Beneath, file: &File) -> io::Result<([u8; 20], bool)> {
    let opened = std::fs::File::from(b.open_strict(&file.path, false)?);
    let meta = opened.metadata()?;
    if !meta.is_file() || meta.len() != file.len {
        return Err(io::Error::other(format!("`{}` changed while it was read", file.path.display())));
    }
    if file.conversion != Conversion::None {
        let mut content = Vec::with_capacity(file.len as usize);
        (&opened).take(file.len + 1).read_to_end(&mut content)?;
        if content.len() as u64 != file.len {
            return Err(io::Error::other(format!("`{}` changed while it was read", file.path.display())));
        }
        let content = crate::world::gitattributes::convert(content, file.conversion);
        return Ok((object_id("blob", &content), false));
    }
    let mut h = Sha1::new();
    h.update(format!("blob {}\0", file.len).as_bytes());
    let mut buf = vec![0u8; 1 << 16];
    let mut seen = 0u64;
    let waited = crate::world::readahead::read_pieces(&opened, &mut buf, |piece| {
        seen += piece.len() as u64;
        h.update(piece);
    })?;
    if seen != file.len {
        return Err(io::Error::other(format!("`{}` changed while it was hashed", file.path.display())));
    }
    let mut out = [0u8; 20];
    out.copy_from_slice(&h.finalize()[..]);
    Ok((out, waited))
}

/// A file of the tree, to hash.
struct File {
    /// Its canonical path (below the root).
    path: PathBuf,
    len: u64,
    conversion: Conversion,
}

/// A directory as read from disk, before hashing.
enum Node {
    File {
        index: usize,
        exec: bool,
    },
    Link(Vec<u8>),
    Dir(Vec<(Vec<u8>, Node)>),
    /// A repository of its own: its checked-out commit.
    Gitlink([u8; 20]),
}

/// What a walk reads: the files to hash, and the tree's attribute files.
struct Walk<'b> {
    b: &'b Beneath,
    files: Vec<File>,
    attributes: Attributes,
}

impl Walk<'_> {
    /// The entries of the folder `dir` (canonical), `rel` below the tree's
    /// top (`""`, or ending in `/`).
    fn read_tree(&mut self, dir: &Path, rel: &[u8]) -> io::Result<Vec<(Vec<u8>, Node)>> {
        use rustix::fs::{AtFlags, FileType};
        let fd = self.b.open_strict(dir, true)?;
        let mut listed: Vec<(Vec<u8>, FileType, Option<rustix::fs::Stat>)> = Vec::new();
        for e in rustix::fs::Dir::read_from(&fd)? {
            let e = e?;
            let name = e.file_name().to_bytes().to_vec();
            if name == b"." || name == b".." {
                continue;
            }
            // Every entry is asked what it is, without following it.
            let st = rustix::fs::statat(&fd, e.file_name(), AtFlags::SYMLINK_NOFOLLOW)?;
            listed.push((name, FileType::from_raw_mode(st.st_mode), Some(st)));
        }
        // This folder's attributes apply to everything below it.
        if listed.iter().any(|(n, t, _)| n == b".gitattributes" && *t == FileType::RegularFile) {
            let text = read_small(self.b, &dir.join(".gitattributes"))?;
            let mut path = rel.to_vec();
            path.extend_from_slice(b".gitattributes");
            self.attributes.add(rel, &text).map_err(|why| refused(&path, why))?;
        }
        let mut out = Vec::new();
        for (name, kind, st) in listed {
            let mut path = rel.to_vec();
            path.extend_from_slice(&name);
            if name == b".git" {
                continue;
            }
            if name.eq_ignore_ascii_case(b".git") {
                return Err(refused(&path, "git refuses a path named `.git` in any case"));
            }
            let full = dir.join(std::ffi::OsStr::from_bytes(&name));
            let node = match kind {
                FileType::Symlink => Node::Link(rustix::fs::readlinkat(&fd, name.as_slice(), Vec::new())?.into_bytes()),
                FileType::Directory => {
                    let sub = self.b.open_strict(&full, true)?;
                    match rustix::fs::statat(&sub, ".git", AtFlags::SYMLINK_NOFOLLOW) {
                        Ok(_) => Node::Gitlink(crate::world::gittree::checked_out(self.b, &full, &path)?),
                        Err(rustix::io::Errno::NOENT) => {
                            let mut below = path.clone();
                            below.push(b'/');
                            Node::Dir(self.read_tree(&full, &below)?)
                        }
                        Err(e) => return Err(e.into()),
                    }
                }
                FileType::RegularFile => {
                    let st = st.ok_or_else(|| io::Error::other("no metadata"))?;
                    let conversion = self.attributes.conversion(&path).map_err(|why| refused(&path, why))?;
                    self.files.push(File { path: full, len: st.st_size as u64, conversion });
                    Node::File { index: self.files.len() - 1, exec: st.st_mode & 0o100 != 0 }
                }
                _ => continue, // sockets, fifos: git does not add them
            };
            out.push((name, node));
        }
        Ok(out)
    }
}

/// A small file of the tree (an attribute file, a git pointer), opened
/// beneath the root.
fn read_small(b: &Beneath, path: &Path) -> io::Result<Vec<u8>> {
    let mut opened = b.open(path)?;
    if !opened.meta.is_file() {
        return Err(io::Error::other(format!("`{}` is not a file", path.display())));
    }
    crate::world::readahead::read_sized(&mut opened.file, opened.meta.len(), 1 << 20)
}

/// The commit checked out in the repository at `dir` (its `.git` a folder,
/// or a file naming one, as a submodule's or a worktree's is), as git
/// records a gitlink: `HEAD`, followed through one symbolic ref to a loose
/// or packed ref, in the repository or its common folder. Every file is
/// read beneath the project root.
pub(crate) fn checked_out(b: &Beneath, dir: &Path, path: &[u8]) -> io::Result<[u8; 20]> {
    let dot_git = dir.join(".git");
    let git_dir = match b.open(&dot_git) {
        Ok(o) if o.meta.is_dir() => dot_git,
        Ok(_) => {
            let text = read_small(b, &dot_git)?;
            let text = String::from_utf8_lossy(&text);
            let target = text
                .trim()
                .strip_prefix("gitdir:")
                .map(str::trim)
                .ok_or_else(|| refused(path, "its `.git` file does not name a git folder (`gitdir: …`)"))?;
            normalise(&dir.join(target))
        }
        Err(e) => return Err(e),
    };
    let read = |p: &Path| read_small(b, p).map(|t| String::from_utf8_lossy(&t).trim().to_string());
    let common = match read(&git_dir.join("commondir")) {
        Ok(c) => normalise(&git_dir.join(c)),
        Err(_) => git_dir.clone(),
    };
    let unborn = || refused(path, "it is a git repository with no commit checked out, which git refuses to add");
    let head = read(&git_dir.join("HEAD")).map_err(|_| unborn())?;
    let reference = match head.strip_prefix("ref:") {
        None => return parse_id(&head).ok_or_else(unborn),
        Some(r) => r.trim().to_string(),
    };
    for folder in [&git_dir, &common] {
        if let Ok(id) = read(&folder.join(&reference)) {
            return parse_id(&id).ok_or_else(unborn);
        }
    }
    for folder in [&git_dir, &common] {
        let Ok(packed) = read(&folder.join("packed-refs")) else { continue };
        for line in packed.lines() {
            if let Some((id, name)) = line.split_once(' ') {
                if name == reference {
                    return parse_id(id).ok_or_else(unborn);
                }
            }
        }
    }
    Err(unborn())
}

fn parse_id(hex: &str) -> Option<[u8; 20]> {
    let bytes = claim_eval::value::parse_hex(hex, 20)?;
    bytes.as_slice().try_into().ok()
}

/// `..` and `.` taken out of a path lexically (a gitdir written relative).
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Files whose reads are begun ahead of the hashing, once the tree is
/// found cold (`readahead`): enough to keep the disk busy.
const AHEAD: usize = 256;

/// Hashes every file as a git blob, on all cores. From a cold page cache
/// (the first two files both waited for the disk), the reads of the next
/// `AHEAD` files are kept begun ahead of the hashing.
fn hash_files(b: &Beneath, files: &[File]) -> io::Result<Vec<[u8; 20]>> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    let jobs = crate::parallel::default_jobs().min(files.len().max(1));
    let next = AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::with_capacity(files.len()));
    let reads = crate::world::readahead::FolderReads::default();
    let cold = AtomicBool::new(false);
    let begun = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Relaxed);
                let Some(file) = files.get(i) else { break };
                let r = blob_of_file(b, file).map(|(id, waited)| {
                    if reads.note(waited) {
                        cold.store(true, Relaxed);
                    }
                    (i, id)
                });
                if cold.load(Relaxed) {
                    // This thread begins the files between what was begun
                    // and `AHEAD` past its own, if no other took them.
                    let upto = (i + 1 + AHEAD).min(files.len());
                    let from = begun.fetch_max(upto, Relaxed).max(i + 1);
                    files.get(from..upto).into_iter().flatten().for_each(|f| {
                        crate::world::readahead::begin_read(&f.path);
                    });
                }
                if let Ok(mut v) = results.lock() {
                    v.push(r);
                }
            });
        }
    });
    let mut ids = vec![[0u8; 20]; files.len()];
    for r in results.into_inner().map_err(|_| io::Error::other("a hashing thread failed"))? {
        let (i, id) = r?;
        ids[i] = id;
    }
    Ok(ids)
}

/// A tree's id; `None` for an empty tree, which git leaves out of its parent.
fn tree_of(entries: &[(Vec<u8>, Node)], blobs: &[[u8; 20]]) -> io::Result<Option<[u8; 20]>> {
    let mut rows: Vec<(Vec<u8>, &'static str, [u8; 20])> = Vec::new();
    for (name, node) in entries {
        match node {
            Node::Link(target) => rows.push((name.clone(), "120000", object_id("blob", target))),
            Node::Gitlink(id) => rows.push((name.clone(), "160000", *id)),
            Node::File { index, exec } => {
                let id = *blobs.get(*index).ok_or_else(|| io::Error::other("a file was not hashed"))?;
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

/// The tree id of `dir` (canonical, below the root `b` holds open; an
/// empty directory has git's empty tree id). An error of kind
/// `Unsupported` where git would refuse the tree or Claim cannot
/// reproduce what git does with it.
pub fn tree_id(b: &Beneath, dir: &Path) -> io::Result<[u8; 20]> {
    let mut walk = Walk { b, files: Vec::new(), attributes: Attributes::default() };
    let entries = walk.read_tree(dir, b"")?;
    let blobs = hash_files(b, &walk.files)?;
    Ok(tree_of(&entries, &blobs)?.unwrap_or_else(|| object_id("tree", b"")))
}
