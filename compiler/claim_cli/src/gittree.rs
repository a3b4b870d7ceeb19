//! The git tree id of a directory, byte for byte what `git add -A && git
//! write-tree` computes: blobs of file contents, modes 100644 / 100755 /
//! 120000 (a symlink's target as its content) / 40000, entries in git's
//! order (a subtree sorts as if its name ended in `/`), empty directories
//! omitted, and `.git` ignored.

use sha1::{Digest, Sha1};
use std::io::Read;
use std::path::Path;

fn object_id(kind: &str, body: &[u8]) -> [u8; 20] {
    let mut h = Sha1::new();
    h.update(format!("{kind} {}\0", body.len()).as_bytes());
    h.update(body);
    let mut out = [0u8; 20];
    out.copy_from_slice(&h.finalize()[..]);
    out
}

fn blob_of_file(path: &Path, len: u64) -> std::io::Result<[u8; 20]> {
    let mut h = Sha1::new();
    h.update(format!("blob {len}\0").as_bytes());
    let mut f = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 1 << 16];
    let mut seen = 0u64;
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        seen += n as u64;
        h.update(&buf[..n]);
    }
    if seen != len {
        return Err(std::io::Error::other(format!(
            "`{}` changed while it was hashed",
            path.display()
        )));
    }
    let mut out = [0u8; 20];
    out.copy_from_slice(&h.finalize()[..]);
    Ok(out)
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

/// The tree id of a directory; `None` inside for an empty tree (which git
/// leaves out of its parent).
fn tree(dir: &Path) -> std::io::Result<Option<[u8; 20]>> {
    let mut entries: Vec<(Vec<u8>, bool, &'static str, [u8; 20])> = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name();
        if name == ".git" {
            continue;
        }
        let path = e.path();
        let meta = std::fs::symlink_metadata(&path)?;
        let ft = meta.file_type();
        let bytes = name_bytes(&name);
        if ft.is_symlink() {
            let target = std::fs::read_link(&path)?;
            entries.push((
                bytes,
                false,
                "120000",
                object_id("blob", &name_bytes(target.as_os_str())),
            ));
        } else if ft.is_dir() {
            if let Some(id) = tree(&path)? {
                entries.push((bytes, true, "40000", id));
            }
        } else if ft.is_file() {
            let mode = if is_executable(&meta) {
                "100755"
            } else {
                "100644"
            };
            entries.push((bytes, false, mode, blob_of_file(&path, meta.len())?));
        }
    }
    if entries.is_empty() {
        return Ok(None);
    }
    // git compares names as bytes, a tree's name as if followed by `/`.
    let key = |(name, is_dir, _, _): &(Vec<u8>, bool, &str, [u8; 20])| {
        let mut k = name.clone();
        if *is_dir {
            k.push(b'/');
        }
        k
    };
    entries.sort_by_key(key);
    let mut body = Vec::new();
    for (name, _, mode, id) in &entries {
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
    Ok(tree(dir)?.unwrap_or_else(|| object_id("tree", b"")))
}
