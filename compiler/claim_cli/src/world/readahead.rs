//! Reading from a cold page cache. A run reads thousands of small files,
//! one after another on each worker: from memory a read takes microseconds,
//! from the disk each one waits for the last, and two workers leave the
//! disk all but idle (a 1,000-module corpus: 1.3 s of reads where a warm
//! run takes 0.13 s).
//!
//! So each read of a receipt, a hashed file, a module or a file of a
//! `git_tree` first asks for its bytes without waiting (`preadv2` with
//! `RWF_NOWAIT`). Where they are not in memory the kernel begins reading
//! them and says so, and the read then waits as before. Where the first
//! two files read from a folder (or of a project's modules, or of a tree)
//! both had to wait, that folder is taken to be cold and the reads of its
//! other files are begun at once the same way, so they arrive together
//! instead of one after another; once eight folders were cold, those
//! beside them are begun too, on a thread of their own (a tree's files are
//! instead kept begun a few hundred ahead of its hashing).
//!
//! A host may also evict files here and there from a warm cache (this
//! project's own machine does: see `docs/performance.md`). Where enough of
//! a run's module reads waited to say so (`evicting`), every receipt the
//! facts name is read ahead before they are evaluated, without waiting
//! (`FsWorld::read_ahead`), so the evicted ones are begun together.
//!
//! A wait is only ever seen where the kernel has the flag, so nothing is
//! begun where it has not (a begun read would then wait). A warm run never
//! waits and so never begins another read; a run in which the host
//! evicted a file here and there begins a folder's files now and then,
//! never a tree's. What is read is the same either way: a begun read only
//! warms the cache, and its errors are ignored.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};

/// How much of a file is asked for without waiting: a receipt is ~1 KB.
/// At most a page (`read_from` reads a short count within it as the end).
const FIRST: usize = 4096;

/// What one folder's reads found so far.
#[derive(Debug, Default)]
pub(crate) struct FolderReads {
    reads: AtomicU32,
    waits: AtomicU32,
    begun: AtomicBool,
}

impl FolderReads {
    /// Records a read of one of the folder's files; true, once, where the
    /// folder's other files should now be begun: its first two reads (and
    /// every one so far) waited.
    pub(crate) fn note(&self, waited: bool) -> bool {
        let reads = self.reads.fetch_add(1, Relaxed) + 1;
        if !waited {
            return false;
        }
        let waits = self.waits.fetch_add(1, Relaxed) + 1;
        waits >= 2 && waits == reads && !self.begun.swap(true, Relaxed)
    }

    /// How many reads waited so far, and how many were made.
    pub(crate) fn counts(&self) -> (u32, u32) {
        (self.waits.load(Relaxed), self.reads.load(Relaxed))
    }
}

/// Whether `waits` of `reads` (of a project's modules) say that the page
/// cache is missing files here and there: a few, not one (a host that
/// evicts files now and then gives a warm run one or two), and at least
/// one read in 200. Where it is, the receipts the facts name are all read
/// ahead (`FsWorld::read_ahead`), so the reads that wait begin together;
/// where it is not, that pass would only cost (a tenth of the facts' time:
/// two threads opening and closing files at once contend in the kernel).
pub(crate) fn evicting(waits: u32, reads: u32) -> bool {
    waits >= 2 && u64::from(waits) * 200 >= u64::from(reads)
}

/// Reads from `file`'s position into `buf` if the bytes are in memory:
/// `Some(n)`, as `read` would. `None` where the read would wait for the
/// disk; the kernel has then begun reading, and nothing was read.
pub(crate) fn read_if_ready(file: &File, buf: &mut [u8]) -> std::io::Result<Option<usize>> {
    #[cfg(target_os = "linux")]
    {
        use rustix::io::{Errno, ReadWriteFlags};
        static UNSUPPORTED: AtomicBool = AtomicBool::new(false);
        if !UNSUPPORTED.load(Relaxed) {
            let mut bufs = [std::io::IoSliceMut::new(buf)];
            // `u64::MAX`: at the file's position, which the read advances.
            match rustix::io::preadv2(file, &mut bufs, u64::MAX, ReadWriteFlags::NOWAIT) {
                Ok(n) => return Ok(Some(n)),
                Err(Errno::AGAIN) => return Ok(None),
                // A kernel or file system without the flag: read as before,
                // and do not ask again.
                Err(Errno::OPNOTSUPP | Errno::NOSYS | Errno::INVAL) => UNSUPPORTED.store(true, Relaxed),
                Err(Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    let mut f = file;
    f.read(buf).map(Some)
}

/// Reads `file` (opened just now, at position 0) to its end in
/// `buf`-sized pieces, giving each to `f`; and whether the first read had
/// to wait. (For the hashes, which never hold a whole file.) A first read
/// that gives fewer bytes than a page, and than asked for, found the end,
/// as in `read_from`: the read that would return nothing is not made.
pub(crate) fn read_pieces(file: &File, buf: &mut [u8], mut f: impl FnMut(&[u8])) -> std::io::Result<bool> {
    let waited = match read_if_ready(file, buf)? {
        Some(0) => return Ok(false),
        Some(n) => {
            f(&buf[..n]);
            if n < FIRST.min(buf.len()) {
                return Ok(false);
            }
            false
        }
        None => true,
    };
    let mut file = file;
    loop {
        let n = file.read(buf)?;
        if n == 0 {
            return Ok(waited);
        }
        f(&buf[..n]);
    }
}

/// Reads `file` to its end, or to one byte past `limit`, into a buffer
/// made for `size` bytes; and whether the first read had to wait. Read
/// through `take`, never `File::read_to_end`, which asks the file for its
/// size and position first (two more system calls per file, a fifth of the
/// time a run spent reading its receipts), and into the buffer's spare
/// room without zeroing it. A file that grew since its size was asked is
/// still read to its end, or to one byte past `limit`, which the caller
/// refuses.
pub(crate) fn read_noting_wait(file: &mut File, size: u64, limit: u64) -> std::io::Result<(Vec<u8>, bool)> {
    read_from(file, size, limit, false).map(|(bytes, waited)| (bytes.unwrap_or_default(), waited))
}

/// [`read_noting_wait`], for a read made ahead of the one that needs the
/// bytes: `None` where its first bytes are not in memory (the kernel has
/// begun reading them, and nothing was read), instead of waiting.
pub(crate) fn read_unless_waiting(file: &mut File, size: u64, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    read_from(file, size, limit, true).map(|(bytes, _)| bytes)
}

/// Reads `file` to its end (see [`read_noting_wait`]), or, with `give_up`,
/// gives up where its first read would wait; and whether it did.
fn read_from(file: &mut File, size: u64, limit: u64, give_up: bool) -> std::io::Result<(Option<Vec<u8>>, bool)> {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Box<[u8]>> = std::cell::RefCell::new(vec![0; FIRST].into_boxed_slice());
    }
    // Never more than one byte past the limit, so never more memory.
    let most = limit.saturating_add(1);
    let mut buf = Vec::with_capacity(usize::try_from(size.saturating_add(1).min(most)).unwrap_or(usize::MAX));
    let first = usize::try_from(most).unwrap_or(usize::MAX).min(FIRST);
    let ready = SCRATCH.with(|s| -> std::io::Result<Option<usize>> {
        let mut s = s.borrow_mut();
        let got = read_if_ready(file, &mut s[..first])?;
        if let Some(n) = got {
            buf.extend_from_slice(&s[..n]);
        }
        Ok(got)
    })?;
    match ready {
        // The end, already: an empty file.
        Some(0) => return Ok((Some(buf), false)),
        // Fewer bytes than asked for, within the first page of a file
        // opened just now (every caller's, at position 0): the end. The
        // page cache hands out whole pages or none (a read that would wait
        // copies nothing), so a short count inside the first one is where
        // the file ends — and a receipt is one page. Not asking again
        // saves a `read` that returns nothing, a system call per file.
        Some(n) if n < first => return Ok((Some(buf), false)),
        None if give_up => return Ok((None, true)),
        _ => {}
    }
    let left = most - buf.len() as u64;
    file.take(left).read_to_end(&mut buf)?;
    Ok((Some(buf), ready.is_none()))
}

/// Begins reading the first bytes of the file at `path`, without waiting:
/// true where they were not in memory (the kernel is now reading them).
/// Only a hint to the cache: a file that cannot be opened or read is left
/// to the read that needs it.
pub(crate) fn begin_read(path: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Non-blocking and never through a symlink: a name a listing
        // called a file may be a FIFO or a link by now.
        let mut options = std::fs::OpenOptions::new();
        options.read(true).custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
        if let Ok(file) = options.open(path) {
            return matches!(read_if_ready(&file, &mut [0u8; 1]), Ok(None));
        }
    }
    let _ = path;
    false
}

/// At most this many files are begun for one cold folder's siblings.
const SIBLING_FILES: usize = 100_000;
/// How many folders must have been found cold before the folders beside
/// them are begun: one or two are what a host that evicts a file here and
/// there gives a warm run (where beginning thousands of files would only
/// cost), eight are a cold tree.
pub(crate) const COLD_FOLDERS: usize = 8;

/// Begins, on a thread of its own, the reads of the files in each folder
/// beside `folder` (in its parent, one level down, hidden folders and
/// `target` left out as the search for modules leaves them): where one
/// folder of receipts was cold, the folders beside it are read next and
/// are cold too. In name order from the one after `folder`, then those
/// before it: modules are checked in path order, and their folders are
/// often named after them. The thread only warms the cache; nothing waits
/// for it.
pub(crate) fn begin_siblings(folder: &Path) {
    let Some(parent) = folder.parent().map(Path::to_path_buf) else { return };
    let folder = folder.to_path_buf();
    let _ = std::thread::Builder::new().name("claim-readahead".into()).spawn(move || {
        let Ok(entries) = std::fs::read_dir(&parent) else { return };
        let mut dirs: Vec<std::path::PathBuf> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                !name.starts_with('.') && name != "target"
            })
            .map(|e| e.path())
            .collect();
        dirs.sort();
        let after = dirs.partition_point(|d| d.as_path() <= folder.as_path());
        dirs.rotate_left(after);
        let mut begun = 0usize;
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for e in entries.flatten() {
                if !e.file_type().is_ok_and(|t| t.is_file()) {
                    continue;
                }
                begin_read(&e.path());
                begun += 1;
                if begun >= SIBLING_FILES {
                    return;
                }
            }
        }
    });
}

/// The whole of an open file, expected to be `size` bytes (its metadata's
/// word, or a guess), in two reads where it is no larger (the bytes, then
/// the end), or to one byte past `limit`: [`read_noting_wait`].
pub(crate) fn read_sized(file: &mut std::fs::File, size: u64, limit: u64) -> std::io::Result<Vec<u8>> {
    read_noting_wait(file, size, limit).map(|(bytes, _)| bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_goes_to_the_end_or_one_byte_past_the_limit() {
        let path = std::env::temp_dir().join(format!("claim-read-sized-{}", std::process::id()));
        let bytes: Vec<u8> = (0..100u8).collect();
        std::fs::write(&path, &bytes).expect("write");
        let read = |size, limit| read_sized(&mut std::fs::File::open(&path).expect("open"), size, limit).expect("read");
        assert_eq!(read(100, u64::MAX), bytes, "the size it has");
        assert_eq!(read(10, u64::MAX), bytes, "a file that grew since its size was asked");
        assert_eq!(read(0, u64::MAX), bytes, "a file that said it was empty");
        assert_eq!(read(10, 50).len(), 51, "stops one byte past the limit");
        assert_eq!(read(100, 100), bytes, "exactly the limit is within it");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_folder_is_begun_once_where_its_first_two_reads_waited() {
        let cold = FolderReads::default();
        assert!(!cold.note(true), "one wait is not yet a cold folder");
        assert!(cold.note(true), "two waits in two reads: begin the rest");
        assert!(!cold.note(true), "begun once only");

        let warm = FolderReads::default();
        assert!(!warm.note(false));
        assert!(!warm.note(true));
        assert!(!warm.note(true), "a folder that was read from memory first is not cold");
    }

    #[test]
    fn receipts_are_read_ahead_only_where_the_modules_reads_waited_more_than_now_and_then() {
        assert!(!evicting(0, 1000), "a warm run");
        assert!(!evicting(1, 1000), "one evicted module is a host's now and then");
        assert!(!evicting(4, 1000), "four in a thousand: reading ahead would cost more than it saves");
        assert!(evicting(5, 1000));
        assert!(evicting(1000, 1000), "a cold run");
        assert!(!evicting(1, 1), "one module that waited is one wait");
        assert!(evicting(2, 2));
        assert!(evicting(u32::MAX, u32::MAX), "no overflow");
    }

    #[test]
    fn a_read_gives_every_byte_or_one_past_the_limit_whatever_its_size() {
        let dir = std::env::temp_dir().join(format!("claim-readahead-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        for len in [0usize, 1, FIRST - 1, FIRST, FIRST + 1, 3 * FIRST + 7, 100_000] {
            let path = dir.join(format!("f{len}"));
            let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            std::fs::write(&path, &bytes).expect("write");
            for size in [0u64, len as u64, 16 * 1024 - 1] {
                let (read, _) = read_noting_wait(&mut File::open(&path).expect("open"), size, u64::MAX).expect("read");
                assert_eq!(read, bytes, "{len} bytes read with size {size}");
                // Just written, the file is in memory: read ahead, it is read whole.
                let ahead = read_unless_waiting(&mut File::open(&path).expect("open"), size, u64::MAX).expect("read");
                assert_eq!(ahead, Some(bytes.clone()), "{len} bytes read ahead with size {size}");
            }
            for piece in [1usize, 7, FIRST, 4 * FIRST] {
                let mut whole = Vec::new();
                let file = File::open(&path).expect("open");
                read_pieces(&file, &mut vec![0; piece], |p| whole.extend_from_slice(p)).expect("pieces");
                assert_eq!(whole, bytes, "{len} bytes in pieces of {piece}");
            }
            for limit in [0u64, 1, 10, FIRST as u64, len as u64] {
                let (read, _) = read_noting_wait(&mut File::open(&path).expect("open"), 0, limit).expect("read");
                let want = len.min(limit as usize + 1);
                assert_eq!(read, bytes[..want], "{len} bytes under a limit of {limit}");
            }
        }
        begin_read(&dir.join("f1"));
        begin_read(&dir.join("none"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A name a listing called a file may be a FIFO by the time its read is
    /// begun: beginning it must not wait for a writer.
    #[cfg(target_os = "linux")]
    #[test]
    fn beginning_the_read_of_a_fifo_does_not_wait() {
        let dir = std::env::temp_dir().join(format!("claim-readahead-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("no mkfifo here: skipped");
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            begin_read(&path);
            let _ = tx.send(());
        });
        let returned = rx.recv_timeout(std::time::Duration::from_secs(30)).is_ok();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(returned, "begin_read waited on a FIFO");
    }
}
