//! Opening files beneath the project root, as the kernel resolves them at
//! the moment of the open. A path checked first and opened after can be
//! changed in between (a folder swapped for a symlink out of the root): so
//! every file Claim reads is opened relative to the root's folder, held
//! open, with `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`: a symlink
//! that stays inside the root is followed, one that leaves it, an absolute
//! one and a `..` above the root fail the open itself. Where the kernel has
//! no `openat2` (Linux before 5.6), each component is opened in turn with
//! `O_NOFOLLOW`, and a symlink anywhere is refused.
//!
//! Nothing is opened in a way that can block: a FIFO or a device opened for
//! reading waits for a writer, so every open is non-blocking, and the
//! caller asks the opened file (never the path) what it is.

use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Component, Path};

/// The project root's folder, held open.
#[derive(Debug)]
pub struct Beneath {
    root: OwnedFd,
    /// The root's canonical path: paths given are canonical or relative.
    real_root: std::path::PathBuf,
}

/// What an opened file is, asked of the file itself.
pub struct Opened {
    pub file: File,
    pub meta: std::fs::Metadata,
}

impl Beneath {
    /// Holds the folder `real_root` (canonical) open.
    pub fn new(real_root: &Path) -> io::Result<Beneath> {
        use rustix::fs::{Mode, OFlags};
        let root = rustix::fs::open(real_root, OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty())?;
        Ok(Beneath { root, real_root: real_root.to_path_buf() })
    }

    pub fn real_root(&self) -> &Path {
        &self.real_root
    }

    /// Opens `path` to read: a canonical path below the root, or a path
    /// relative to it. An error of kind `PermissionDenied` for a path that
    /// is not beneath the root, however it gets out.
    pub fn open(&self, path: &Path) -> io::Result<Opened> {
        let file = self.open_file(path)?;
        let meta = file.metadata()?;
        Ok(Opened { file, meta })
    }

    /// [`Self::open`] without asking the file what it is: for a caller
    /// that knows (its folder's listing called it a file) or reads it so
    /// that a read tells (thousands of receipts: a `statx` each was a
    /// tenth of their reads).
    pub fn open_file(&self, path: &Path) -> io::Result<File> {
        Ok(File::from(self.open_fd(self.relative(path)?, false)?))
    }

    /// Opens a folder below the root (for listing it, and opening what it
    /// holds relative to it).
    pub fn open_dir(&self, path: &Path) -> io::Result<OwnedFd> {
        self.open_fd(self.relative(path)?, true)
    }

    /// Opens `path` (a file, or a folder where `dir`) through no symlink at
    /// all: for a walk that has listed every component as a real folder, so
    /// one swapped for a symlink since is refused (`ELOOP`), not followed.
    pub fn open_strict(&self, path: &Path, dir: bool) -> io::Result<OwnedFd> {
        self.open_with(self.relative(path)?, dir, rustix::fs::ResolveFlags::NO_SYMLINKS)
    }

    fn relative<'p>(&self, path: &'p Path) -> io::Result<&'p Path> {
        if !path.is_absolute() {
            return Ok(path);
        }
        if path == self.real_root {
            return Ok(Path::new(""));
        }
        below(path, &self.real_root).ok_or_else(outside)
    }

    fn open_fd(&self, rel: &Path, dir: bool) -> io::Result<OwnedFd> {
        self.open_with(rel, dir, rustix::fs::ResolveFlags::empty())
    }

    fn open_with(&self, rel: &Path, dir: bool, extra: rustix::fs::ResolveFlags) -> io::Result<OwnedFd> {
        use rustix::fs::{Mode, OFlags, ResolveFlags};
        let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
        if dir {
            flags |= OFlags::DIRECTORY;
        }
        let rel_or_dot = if rel.as_os_str().is_empty() { Path::new(".") } else { rel };
        // The kernel cannot always be sure a `..` stayed beneath the root
        // while something was renamed anywhere on the system meanwhile: it
        // says `EAGAIN`, and the open is tried again (a bounded number of
        // times; then it fails, and so does the read).
        let mut tries = 0;
        loop {
            match rustix::fs::openat2(
                &self.root,
                rel_or_dot,
                flags,
                Mode::empty(),
                ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS | extra,
            ) {
                Ok(fd) => return Ok(fd),
                Err(rustix::io::Errno::AGAIN) if tries < 1000 => tries += 1,
                // Leaving the root is `EXDEV` to openat2.
                Err(rustix::io::Errno::XDEV) => return Err(outside()),
                Err(rustix::io::Errno::NOSYS) => return self.walk(rel, flags),
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Component by component, never through a symlink: the fallback where
    /// the kernel has no `openat2`.
    fn walk(&self, rel: &Path, flags: rustix::fs::OFlags) -> io::Result<OwnedFd> {
        use rustix::fs::{Mode, OFlags};
        let parts: Vec<&std::ffi::OsStr> = rel
            .components()
            .map(|c| match c {
                Component::Normal(s) => Ok(s),
                _ => Err(outside()),
            })
            .collect::<io::Result<_>>()?;
        let Some((last, folders)) = parts.split_last() else {
            return Ok(rustix::fs::openat(&self.root, ".", flags, Mode::empty())?);
        };
        let mut at: Option<OwnedFd> = None;
        for part in folders {
            let here = at.as_ref().unwrap_or(&self.root);
            let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            at = Some(rustix::fs::openat(here, *part, dir_flags, Mode::empty())?);
        }
        let here = at.as_ref().unwrap_or(&self.root);
        Ok(rustix::fs::openat(here, *last, flags | OFlags::NOFOLLOW, Mode::empty())?)
    }
}

/// The rest of `path` below `root`, where it is strictly below it. Both
/// are canonical (no `.`, `..`, doubled or trailing `/`), so a prefix of
/// bytes ending at a `/` is a prefix of components; comparing components
/// (`Path::strip_prefix`) cost ~2,400 instructions an open.
pub(crate) fn below<'p>(path: &'p Path, root: &Path) -> Option<&'p Path> {
    use std::os::unix::ffi::OsStrExt;
    let (p, r) = (path.as_os_str().as_bytes(), root.as_os_str().as_bytes());
    let rest = p.strip_prefix(r)?;
    let rest = if r.ends_with(b"/") { rest } else { rest.strip_prefix(b"/")? };
    (!rest.is_empty()).then(|| Path::new(std::ffi::OsStr::from_bytes(rest)))
}

/// The error of a path that leads out of the root.
#[derive(Debug)]
struct Outside;

impl std::fmt::Display for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("it leads out of the project root")
    }
}

impl std::error::Error for Outside {}

pub(crate) fn outside() -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, Outside)
}

/// Whether an open failed because its path leads out of the root.
pub fn is_outside(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Outside>())
}

/// Opens a file to read and asks it what it is, in one path lookup. The
/// open does not wait: a FIFO opened for reading blocks until a writer
/// comes, and a `file_sha256` of one hung the run; opened non-blocking, its
/// metadata says it is no file, which the caller refuses.
pub(crate) fn open_nonblocking(path: &Path) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path)?;
    let meta = file.metadata()?;
    Ok((file, meta))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlinks_inside_are_followed_and_those_out_refused() {
        let tmp = std::env::temp_dir().join(format!("claim-beneath-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let root = tmp.join("root");
        std::fs::create_dir_all(root.join("a")).expect("mkdir");
        std::fs::create_dir_all(tmp.join("outside")).expect("mkdir");
        std::fs::write(root.join("a/f"), "in").expect("write");
        std::fs::write(tmp.join("outside/f"), "out").expect("write");
        std::os::unix::fs::symlink("a", root.join("in_link")).expect("link");
        std::os::unix::fs::symlink("../outside", root.join("out_link")).expect("link");
        std::os::unix::fs::symlink("/etc", root.join("abs_link")).expect("link");
        let b = Beneath::new(&root.canonicalize().expect("canon")).expect("root");
        let read = |p: &str| {
            b.open(Path::new(p)).and_then(|mut o| {
                let mut s = String::new();
                io::Read::read_to_string(&mut o.file, &mut s).map(|_| s)
            })
        };
        assert_eq!(read("a/f").expect("plain"), "in");
        assert_eq!(read("in_link/f").expect("inside"), "in");
        for escape in ["out_link/f", "abs_link/passwd", "../outside/f"] {
            let e = read(escape).expect_err(escape);
            assert!(is_outside(&e), "{escape}: {e}");
        }
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
