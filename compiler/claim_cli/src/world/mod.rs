//! The outside world on disk (§6): path confinement, reading once, JSON
//! loading, streamed hashing and git trees. Every failure is a diagnostic
//! naming the path; none is a panic.

pub mod beneath;
pub mod dsse;
pub mod gitattributes;
pub mod gitcommit;
pub mod gittree;
pub mod layer;
pub mod oci;
mod path_hint;
pub(crate) mod readahead;

use crate::project::Kind;
use claim_diagnostics::{Diagnostic, NewFile, Sources};
use claim_eval::json;
use claim_eval::{Types, Value, World, WorldCall, WorldCode, WorldError, WorldResult};
use claim_sema::hir::WorldFn;
use claim_sema::ty::Ty;
use claim_syntax::digest::DigestKind;
use claim_syntax::{FileId, Span};
use rustc_hash::FxHashMap as HashMap;
use sha2::Sha256;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

pub const DEFAULT_MAX_LOAD_BYTES: u64 = 64 * 1024 * 1024;

/// The first read of a file whose size was not asked: receipts are a few
/// kilobytes, so one read and the one that finds the end; a larger file
/// takes a few more.
const UNSIZED_READ: u64 = 16 * 1024 - 1;

/// What was read for each canonical path, so each file is read once per
/// run. Paths are keys by their bytes: a `Path` hashes component by
/// component, a hundred times per read in all, and canonical paths (the
/// folders' keys are built alike too) are equal exactly when their bytes are.
type Cache<T> = Mutex<HashMap<OsString, WorldResult<T>>>;

/// A receipt read ahead: where its path led, and its text's id in the sources.
type ReadAhead = (Target, FileId);

pub struct FsWorld {
    root: PathBuf,
    /// Canonical root, for the symlink check.
    real_root: PathBuf,
    /// The folder of each module, and whether it lies below the root.
    dirs: HashMap<FileId, (PathBuf, bool)>,
    pub sources: Arc<Mutex<Sources>>,
    max_load_bytes: u64,
    /// What reading an OCI layout may cost (`with_layouts`).
    layouts: crate::world::oci::LayoutLimits,
    /// Each JSON file's id in the sources, or why it could not be read,
    /// where no listing found its folder (which keep their own: `Folder`).
    /// Not the parsed document: a read decodes it at once, and kept
    /// documents were a tenth of a large run's memory. A file loaded again
    /// (under another type, or from another module) is parsed again.
    json_cache: Cache<FileId>,
    /// File digests: `file_sha256`'s, `file_sha512`'s.
    hash_cache: Cache<Arc<[u8]>>,
    hash512_cache: Cache<Arc<[u8]>>,
    /// The keys `public_key` read, by id, for `dsse` to verify with.
    keys: Mutex<HashMap<[u8; 32], Arc<crate::world::dsse::Key>>>,
    tree_cache: Cache<[u8; 20]>,
    /// Canonical forms of the folders files were read from, with which of
    /// their entries are symlinks: most reads are of files in a few
    /// folders, and resolving every component of every path again was a
    /// tenth of a large run.
    real_dirs: Mutex<HashMap<OsString, Arc<Folder>>>,
    /// Paths resolved and not yet used again: a read resolves once to find
    /// its input and once to perform it, and the second takes what the
    /// first left here (a run reads tens of thousands of files: kept,
    /// these were a few megabytes). By the file the path is written in
    /// (which fixes the folder it is relative to), then the path.
    resolved: Mutex<HashMap<FileId, HashMap<String, Target>>>,
    /// Receipts read ahead (`read_ahead`) and not yet loaded: where each
    /// path led and its text's id in the sources, keyed as `resolved` is.
    ahead: Mutex<HashMap<FileId, HashMap<String, ReadAhead>>>,
    /// The working folder when the world was made, which diagnostics name
    /// files relative to (asked once, not for every file read).
    cwd: Option<PathBuf>,
    /// The canonical root, held open: every file below it is opened
    /// relative to it, resolved beneath it by the kernel (`beneath.rs`),
    /// which also walks only the path below the root, not every folder
    /// from `/` again for each of thousands of files. `None` where the
    /// root cannot be opened: then nothing can be read.
    beneath: Option<crate::world::beneath::Beneath>,
    /// Folders already listed by the search for `.claim` files, each
    /// taken (once) instead of listing it again: a receipt's folder was
    /// listed twice in a run, thousands of folders in a large one.
    listed: Mutex<crate::project::Listings>,
    /// Folders found cold so far, and the parents of cold folders whose
    /// other folders' reads were begun (`readahead::begin_siblings`), each
    /// once.
    cold_folders: std::sync::atomic::AtomicUsize,
    cold_parents: Mutex<std::collections::HashSet<PathBuf>>,
}

/// Where a read's path leads: its canonical path, and what the listing of
/// its folder says it is (`None` where no listing said).
#[derive(Clone, Debug)]
pub struct Target {
    pub path: PathBuf,
    kind: Option<Kind>,
    /// Its folder, where a listing said what it is.
    folder: Option<Arc<Folder>>,
}

/// A folder's canonical path and its entries, and what reads of its files
/// found (`readahead`: whether the page cache is cold there).
#[derive(Debug)]
struct Folder {
    real: PathBuf,
    entries: crate::project::Entries,
    reads: crate::world::readahead::FolderReads,
    /// The JSON files of this folder read so far, by name, and their ids
    /// in the sources: a module's receipts are in a folder of their own,
    /// so this table is small, stays in the cache of the core loading
    /// them, and its lock is met by one thread. (One table for the whole
    /// run was tens of thousands of entries, every insert a miss, its
    /// lock passed between the cores at every load.)
    json: Mutex<HashMap<OsString, FileId>>,
}

impl FsWorld {
    pub fn new(
        root: PathBuf,
        dirs: std::collections::HashMap<FileId, PathBuf>,
        sources: Arc<Mutex<Sources>>,
        max_load_bytes: u64,
    ) -> FsWorld {
        let real_root = root.canonicalize().unwrap_or_else(|_| root.clone());
        let dirs = dirs
            .into_iter()
            .map(|(file, dir)| {
                let below_root = dir.starts_with(&root);
                (file, (dir, below_root))
            })
            .collect();
        FsWorld {
            root,
            dirs,
            sources,
            max_load_bytes,
            layouts: crate::world::oci::LayoutLimits {
                max_json_bytes: max_load_bytes,
                max_layer_bytes: crate::world::oci::DEFAULT_MAX_LAYER_BYTES,
                jobs: 1,
            },
            json_cache: Mutex::default(),
            hash_cache: Mutex::default(),
            hash512_cache: Mutex::default(),
            keys: Mutex::default(),
            tree_cache: Mutex::default(),
            real_dirs: Mutex::default(),
            resolved: Mutex::default(),
            ahead: Mutex::default(),
            cwd: std::env::current_dir().ok(),
            beneath: crate::world::beneath::Beneath::new(&real_root).ok(),
            real_root,
            listed: Mutex::default(),
            cold_folders: Default::default(),
            cold_parents: Mutex::default(),
        }
    }

    /// A digest of a file's bytes (`file_sha256`, `file_sha512`), streamed,
    /// once a run for each file and kind.
    fn file_digest<H: sha2::Digest>(&self, call: &WorldCall<'_>, kind: DigestKind) -> WorldResult<Arc<[u8]>> {
        let target = self.resolve(call)?;
        let path = &target.path;
        let cache = if kind == DigestKind::Sha512 { &self.hash512_cache } else { &self.hash_cache };
        Self::cached(cache, path, || {
            let p = call.path;
            let cannot_read = |e: std::io::Error| Self::io_err(call, format!("cannot read `{p}`: {e}"), &e);
            let file = self.open(path).map_err(cannot_read)?;
            // A file its folder's listing calls a regular file is hashed
            // without asking what it is first (a system call for each of
            // thousands of inputs), as a load reads one. Anything else is
            // asked, and so is an empty one: a name listed as a file may
            // since have become a FIFO or a socket, which reads as empty.
            let listed_file = target.kind == Some(Kind::File);
            let what = |file: &std::fs::File| -> WorldResult<()> {
                let meta = file.metadata().map_err(cannot_read)?;
                if meta.is_dir() {
                    return Err(Self::err(
                        call,
                        WorldCode::FileUnreadable,
                        "E0302",
                        format!("cannot hash `{p}`: it is a directory"),
                        "a directory; use `git_tree` for a tree",
                    ));
                }
                if !meta.is_file() {
                    return Err(Self::err(
                        call,
                        WorldCode::FileUnreadable,
                        "E0302",
                        format!("cannot hash `{p}`: not a file"),
                        "not a file",
                    ));
                }
                Ok(())
            };
            if !listed_file {
                what(&file)?;
            }
            let (digest, waited, len) = digest_of::<H>(&file).map_err(cannot_read)?;
            if listed_file && len == 0 {
                what(&file)?;
            }
            self.noted(&target, waited);
            Ok(Arc::from(digest))
        })
    }

    /// Image layers are verified on `jobs` threads, each decompressed to
    /// at most `max_layer_bytes`.
    pub fn with_layouts(mut self, jobs: usize, max_layer_bytes: u64) -> FsWorld {
        self.layouts.jobs = jobs.max(1);
        self.layouts.max_layer_bytes = max_layer_bytes;
        self
    }

    /// Opens a canonical path to read, without waiting, resolved beneath
    /// the root at the moment of the open (`beneath.rs`): a folder swapped
    /// for a symlink out of the root since the path was resolved is
    /// refused, not followed.
    fn open(&self, path: &Path) -> std::io::Result<std::fs::File> {
        self.beneath()?.open_file(path)
    }

    /// The root, held open, that every read is resolved beneath.
    pub(crate) fn beneath(&self) -> std::io::Result<&crate::world::beneath::Beneath> {
        self.beneath
            .as_ref()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "the project root cannot be opened"))
    }

    /// Takes the folders the search for `.claim` files listed (by their
    /// paths as found), so that reads from them do not list them again.
    pub fn with_listings(self, listed: crate::project::Listings) -> FsWorld {
        FsWorld { listed: Mutex::new(listed), ..self }
    }

    /// The text of a JSON file it read (the sources keep it), for the
    /// JSONPath a diagnostic names.
    pub fn json_text(&self, file: FileId) -> Option<Arc<str>> {
        self.sources.lock().ok()?.shared_text(file)
    }

    fn err(call: &WorldCall<'_>, refusal: WorldCode, code: &'static str, message: String, label: &str) -> WorldError {
        WorldError::new(refusal, Diagnostic::error(code, message).at_loc(call.call, label))
    }

    /// `E0302` for an IO error reading what `call` names: missing, or
    /// there and unreadable.
    fn io_err(call: &WorldCall<'_>, message: String, e: &std::io::Error) -> WorldError {
        Self::err(call, WorldCode::of_io(e), "E0302", message, "cannot be read")
    }

    /// Resolves a path as §6 says, and checks that it stays in the root.
    /// Resolves a read's path, taking it from `resolve_and_keep` where
    /// that resolved it just before.
    pub fn resolve(&self, call: &WorldCall<'_>) -> WorldResult<Target> {
        // Failures are not kept: they are rare, and each diagnostic points
        // at its own call.
        if let Some(hit) = self.resolved.lock().ok().and_then(|mut c| c.get_mut(&call.from)?.remove(call.path)) {
            return Ok(hit);
        }
        self.resolve_uncached(call)
    }

    /// Resolves a read's path for a caller that will perform the read
    /// next (whose own `resolve` then takes it instead of resolving again).
    pub fn resolve_and_keep(&self, call: &WorldCall<'_>) -> WorldResult<Target> {
        let r = self.resolve(call);
        if let (Ok(target), Ok(mut c)) = (&r, self.resolved.lock()) {
            c.entry(call.from).or_default().insert(call.path.to_string(), target.clone());
        }
        r
    }

    fn resolve_uncached(&self, call: &WorldCall<'_>) -> WorldResult<Target> {
        let p = call.path;
        if p.is_empty() {
            return Err(Self::err(call, WorldCode::FileMissing, "E0302", "empty path".into(), "names no file"));
        }
        let (base, rel) = if let Some(rest) = p.strip_prefix("//") {
            (self.root.clone(), rest)
        } else if Path::new(p).is_absolute() || p.starts_with('/') || p.starts_with('\\') {
            let d = Diagnostic::error("E0304", format!("absolute path `{p}`"))
                .at_loc(call.call, "paths must be relative")
                .with_help("write it relative to this file, or to the project root with `//`");
            return Err(WorldError::new(WorldCode::OutsideProject, d));
        } else {
            let (base, below_root) = self.dirs.get(&call.from).map_or((&self.root, true), |(d, b)| (d, *b));
            // The common case, a plain path below a folder of the project
            // (no `.`, `..`, empty or Windows-style parts), needs no
            // normalising: it was a tenth of the instructions of reading a
            // small receipt.
            let plain = p.split('/').all(|part| !matches!(part, "" | "." | "..") && !part.contains(['\\', ':']));
            if plain && below_root {
                return self.canonical_or_error(call, &base.join(p));
            }
            (base.clone(), p)
        };
        // Normalise lexically, refusing to climb above the root.
        let mut parts: Vec<std::ffi::OsString> = Vec::new();
        let base_rel = base.strip_prefix(&self.root).map(Path::to_path_buf).unwrap_or_default();
        for c in base_rel.components().chain(Path::new(rel).components()) {
            match c {
                Component::Normal(s) => parts.push(s.to_os_string()),
                Component::CurDir => {}
                Component::ParentDir => {
                    if parts.pop().is_none() {
                        let d = Diagnostic::error("E0303", format!("path `{p}` leaves the project root"))
                            .at_loc(call.call, "climbs out of the project root")
                            .with_note(format!("the project root is `{}`", crate::project::display_name(&self.root)));
                        return Err(WorldError::new(WorldCode::OutsideProject, d));
                    }
                }
                _ => {
                    return Err(Self::err(
                        call,
                        WorldCode::OutsideProject,
                        "E0304",
                        format!("absolute path `{p}`"),
                        "paths must be relative",
                    ));
                }
            }
        }
        let full: PathBuf = parts.iter().fold(self.root.clone(), |acc, s| acc.join(s));
        self.canonical_or_error(call, &full)
    }

    /// How diagnostics name a file read (a canonical path): relative to
    /// the working folder where it lies below it. Both canonical, the
    /// prefix is compared as bytes.
    fn name_of(&self, path: &Path) -> String {
        match &self.cwd {
            Some(cwd) if within(path, cwd) && path != cwd => {
                let rest = &path.as_os_str().as_encoded_bytes()[cwd.as_os_str().len()..];
                String::from_utf8_lossy(rest.strip_prefix(b"/").unwrap_or(rest)).into_owned()
            }
            cwd => crate::project::display_name_in(path, cwd.as_deref()),
        }
    }

    /// The canonical form of a normalised path below the root, refused
    /// where a symlink takes it out of the root or it does not exist.
    fn canonical_or_error(&self, call: &WorldCall<'_>, full: &Path) -> WorldResult<Target> {
        let p = call.path;
        match self.canonical(full) {
            Ok((path, kind, folder)) if within(&path, &self.real_root) => Ok(Target { path, kind, folder }),
            Ok((real, ..)) => {
                let d = Diagnostic::error("E0303", format!("path `{p}` leaves the project root through a symlink"))
                    .at_loc(call.call, format!("resolves to `{}`", real.display()))
                    .with_note(format!("the project root is `{}`", crate::project::display_name(&self.root)));
                Err(WorldError::new(WorldCode::OutsideProject, d))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let names_in = |dir: &Path| {
                    Some(self.folder(dir)?.entries.keys().filter_map(|n| n.to_str()).map(str::to_string).collect())
                };
                let d = Diagnostic::error("E0302", format!("cannot read `{p}`: no such file or directory"))
                    .at_loc(call.call, "names a file that does not exist");
                // Where the path is written as a literal, the suggestion is
                // a fix of its letters; else (a path built by `++`) help only.
                let d = match (crate::world::path_hint::did_you_mean_path(p, full, names_in), call.literal) {
                    (Some(close), Some(letters)) if !close.contains(['"', '\\', '{', '}']) => {
                        d.with_suggestion_at(letters, close)
                    }
                    (Some(close), _) => d.with_help(format!("did you mean `{close}`?")),
                    (None, _) => d,
                };
                Err(WorldError::new(WorldCode::FileMissing, d))
            }
            Err(e) => Err(Self::io_err(call, format!("cannot read `{p}`: {e}"), &e)),
        }
    }

    /// A JSON file's text, with its id in the sources (which keep it): read
    /// once, then taken from the sources while the file is not forgotten.
    fn receipt_text(&self, call: &WorldCall<'_>, target: &Target) -> WorldResult<(Arc<str>, FileId)> {
        if let Some(fid) = self.json_read(target) {
            if let Some(text) = self.sources.lock().ok().and_then(|s| s.shared_text(fid)) {
                return Ok((text, fid));
            }
        }
        self.read_json(call, target)
    }

    /// The id of a JSON file already read and kept (`keep_json`): in its
    /// folder's table where a listing found its folder, else the world's.
    fn json_read(&self, target: &Target) -> Option<FileId> {
        match (&target.folder, target.path.file_name()) {
            (Some(folder), Some(name)) => folder.json.lock().ok()?.get(name).copied(),
            _ => match self.json_cache.lock().ok()?.get(target.path.as_os_str()) {
                Some(Ok(fid)) => Some(*fid),
                _ => None,
            },
        }
    }

    /// Marks a file's text as valid JSON, so later loads take it from the
    /// sources. A failure is not kept: each load that fails reads again, so
    /// its diagnostic points at its own call (a kept one pointed every later
    /// load of the file at the first).
    fn keep_json(&self, target: &Target, fid: FileId) {
        if let (Some(folder), Some(name)) = (&target.folder, target.path.file_name()) {
            if let Ok(mut c) = folder.json.lock() {
                c.entry(name.to_owned()).or_insert(fid);
            }
        } else if let Ok(mut c) = self.json_cache.lock() {
            if !c.contains_key(target.path.as_os_str()) {
                c.insert(target.path.as_os_str().to_owned(), Ok(fid));
            }
        }
    }

    /// Reads ahead the JSON file a `load` names, for that load, which then
    /// neither resolves nor reads it: where its bytes are in memory its
    /// text is added to the sources (as the load adds it); where they are
    /// not, the kernel begins reading them and nothing more is done here,
    /// and the load reads it as before. A read that waits for the disk
    /// holds up the thread that made it: where a host evicts files here
    /// and there from its page cache, reading every receipt the facts name
    /// ahead begins the evicted ones together, under the reads of the rest,
    /// instead of one after another as the facts come to them (the caller
    /// decides when: `readahead::evicting`). Nothing is reported here: what
    /// fails is read again, and reported, by the load.
    pub fn read_ahead(&self, call: &WorldCall<'_>) {
        let Ok(target) = self.resolve_uncached(call) else { return };
        let Ok(Some(bytes)) = self.read_bytes(call, &target, true) else { return };
        // A text that is not UTF-8 is left to the load, which reports it.
        let Ok(text) = crate::utf8::decode(bytes) else { return };
        let file = NewFile::new(self.name_of(&target.path), Arc::<str>::from(text));
        let fid = match self.sources.lock() {
            Ok(mut s) => s.add_new(file),
            Err(_) => return,
        };
        if let Ok(mut a) = self.ahead.lock() {
            a.entry(call.from).or_default().insert(call.path.to_string(), (target, fid));
        }
    }

    /// What `read_ahead` read for this call, taken (once).
    fn read_before(&self, call: &WorldCall<'_>) -> Option<(Target, Arc<str>, FileId)> {
        let (target, fid) = self.ahead.lock().ok()?.get_mut(&call.from)?.remove(call.path)?;
        let text = self.sources.lock().ok()?.shared_text(fid)?;
        Some((target, text, fid))
    }

    /// [`Self::read_ahead`] of every receipt the facts name by a literal
    /// `load("…")` (nearly all of them), on `jobs` threads.
    pub fn read_ahead_loads(&self, facts: &[&claim_sema::hir::Fact], jobs: usize) {
        let mut calls = literal_loads(facts);
        // A file a module loads twice is read ahead once. (This thread
        // alone: the others wait for the reading it hands out. Sized once,
        // and hashed as the world's tables are, not by SipHash.)
        let mut seen = rustc_hash::FxHashSet::with_capacity_and_hasher(calls.len(), Default::default());
        calls.retain(|c| seen.insert((c.from, c.path)));
        crate::parallel::map(&calls, jobs, |call| self.read_ahead(call));
    }

    /// A JSON file's text, read and added to the sources, and its id there.
    fn read_json(&self, call: &WorldCall<'_>, target: &Target) -> WorldResult<(Arc<str>, FileId)> {
        // A read that may wait always gives its bytes; never an empty text.
        let Some(bytes) = self.read_bytes(call, target, false)? else {
            return Err(WorldError::internal("a read gave up", call.call));
        };
        let path = &target.path;
        // Validated once; the lossy copy (for showing the file) only where
        // it is not UTF-8.
        let (text, invalid_at): (Arc<str>, Option<(usize, usize)>) = match crate::utf8::decode(bytes) {
            Ok(s) => (s.into(), None),
            Err(e) => (e.lossy.into(), Some((e.at, e.in_file))),
        };
        let file = NewFile::new(self.name_of(path), text.clone());
        let fid = match self.sources.lock() {
            Ok(mut s) => s.add_new(file),
            Err(_) => return Err(WorldError::internal("sources lock", call.call)),
        };
        if let Some((at, in_file)) = invalid_at {
            let d = Diagnostic::error("E0305", format!("`{}` is not valid UTF-8 JSON", call.path))
                .at(fid, Span::new(at, at + 1), format!("invalid byte at offset {in_file}"))
                .with_secondary(call.call, "loaded here");
            return Err(WorldError::new(WorldCode::NotJson, d));
        }
        Ok((text, fid))
    }

    /// The bytes of the file a load reads, within the load limit; with
    /// `give_up`, `None` where its first bytes are not in memory.
    fn read_bytes(&self, call: &WorldCall<'_>, target: &Target, give_up: bool) -> WorldResult<Option<Vec<u8>>> {
        let (p, path) = (call.path, &target.path);
        let cannot_read = |e: std::io::Error| Self::io_err(call, format!("cannot read `{p}`: {e}"), &e);
        let mut file = self.open(path).map_err(cannot_read)?;
        let too_large = |size: String| {
            let d = Diagnostic::error("E0307", format!("`{p}` is larger than the load limit"))
                .at_loc(call.call, format!("{size}; the limit is {}", self.max_load_bytes))
                .with_help("raise the limit with `--max-load-bytes`");
            WorldError::new(WorldCode::FileTooLarge, d)
        };
        // A file its folder's listing calls a regular file is read without
        // asking its size first (a system call for each of thousands of
        // receipts); anything else is asked what it is, and refused unless
        // it is a file.
        let size = if target.kind == Some(Kind::File) {
            UNSIZED_READ
        } else {
            let meta = file.metadata().map_err(cannot_read)?;
            if !meta.is_file() {
                return Err(Self::err(
                    call,
                    WorldCode::FileUnreadable,
                    "E0302",
                    format!("cannot load `{p}`: not a file"),
                    "not a file",
                ));
            }
            if meta.len() > self.max_load_bytes {
                return Err(too_large(format!("{} bytes", meta.len())));
            }
            meta.len()
        };
        let (bytes, waited) = if give_up {
            match crate::world::readahead::read_unless_waiting(&mut file, size, self.max_load_bytes)
                .map_err(cannot_read)?
            {
                Some(bytes) => (bytes, false),
                // Begun by the kernel, as the read found it: nothing of its
                // folder needs beginning on its account (the load's read
                // of it notes what it finds then).
                None => return Ok(None),
            }
        } else {
            crate::world::readahead::read_noting_wait(&mut file, size, self.max_load_bytes).map_err(cannot_read)?
        };
        self.noted(target, waited);
        if bytes.len() as u64 > self.max_load_bytes {
            // Larger than the limit: by its size now, where it can say.
            let now = file.metadata().map(|m| m.len()).unwrap_or(0);
            return Err(too_large(if now > self.max_load_bytes {
                format!("{now} bytes")
            } else {
                format!("more than {} bytes", bytes.len() - 1)
            }));
        }
        Ok(Some(bytes))
    }

    /// `path.canonicalize()`, from its folder's canonical form and listing
    /// (each read once) where the file itself is no symlink, with what the
    /// listing says it is (`None` where no listing said).
    fn canonical(&self, path: &Path) -> std::io::Result<(PathBuf, Option<Kind>, Option<Arc<Folder>>)> {
        let unlisted = |p: &Path| p.canonicalize().map(|real| (real, None, None));
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return unlisted(path) };
        let Some(folder) = self.folder(dir) else { return unlisted(path) };
        match folder.entries.get(name) {
            Some(Kind::Symlink) => unlisted(path),
            Some(kind) => Ok((folder.real.join(name), Some(*kind), Some(folder.clone()))),
            None => Err(std::io::Error::from(std::io::ErrorKind::NotFound)),
        }
    }

    /// Notes whether a read from `target`'s folder waited for the disk,
    /// and begins the reads of the folder's other files where it is cold;
    /// once enough folders were, those of the folders beside it too (once
    /// per parent).
    fn noted(&self, target: &Target, waited: bool) {
        if let Some(folder) = &target.folder {
            if folder.reads.note(waited) {
                let files = folder.entries.iter().filter(|(_, kind)| **kind == Kind::File);
                files.for_each(|(name, _)| {
                    crate::world::readahead::begin_read(&folder.real.join(name));
                });
                let cold = self.cold_folders.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                // Never beside the root: nothing outside the project is read.
                let parent = (folder.real.parent())
                    .filter(|p| cold >= crate::world::readahead::COLD_FOLDERS && within(p, &self.real_root));
                let first = match (parent.map(Path::to_path_buf), self.cold_parents.lock()) {
                    (Some(p), Ok(mut seen)) => seen.insert(p),
                    _ => false,
                };
                if first {
                    crate::world::readahead::begin_siblings(&folder.real);
                }
            }
        }
    }

    /// A folder's canonical form and entries, read once; `None` where it
    /// cannot be listed (the caller asks the kernel instead). A folder
    /// below the root is its parent's canonical form and its own name when
    /// its parent lists it as no symlink: canonicalizing each folder from
    /// `/` asked the kernel about every component of its path again, tens
    /// of thousands of calls in a large run.
    fn folder(&self, dir: &Path) -> Option<Arc<Folder>> {
        if let Some(f) = self.real_dirs.lock().ok().and_then(|d| d.get(dir.as_os_str()).cloned()) {
            return Some(f);
        }
        let below_root = dir != self.root && dir.starts_with(&self.root);
        let from_parent = match (dir.parent(), dir.file_name()) {
            (Some(parent), Some(name)) if below_root => self
                .folder(parent)
                .filter(|up| up.entries.get(name) == Some(&Kind::Folder))
                .map(|up| up.real.join(name)),
            _ => None,
        };
        let real = match from_parent {
            Some(real) => real,
            None => dir.canonicalize().ok()?,
        };
        let taken = self.listed.lock().ok().and_then(|mut l| l.remove(dir));
        let entries = match taken {
            Some(entries) => entries,
            None => crate::project::list(&real).ok()?,
        };
        let f = Arc::new(Folder { real, entries, reads: Default::default(), json: Mutex::default() });
        if let Ok(mut dirs) = self.real_dirs.lock() {
            dirs.insert(dir.as_os_str().to_owned(), f.clone());
        }
        Some(f)
    }

    /// Forgets what was read at or below `path`, so it is read again.
    pub fn forget(&self, path: &Path) {
        // Every folder, with the JSON files each kept: a fact evaluated
        // again reads its receipt afresh (salsa evaluates again only the
        // facts whose reads changed).
        if let Ok(mut d) = self.real_dirs.lock() {
            d.clear();
        }
        if let Ok(mut l) = self.listed.lock() {
            l.clear();
        }
        if let Ok(mut r) = self.resolved.lock() {
            r.clear();
        }
        let stale = |p: &OsString| Path::new(p).starts_with(path) || path.starts_with(p);
        if let Ok(mut c) = self.json_cache.lock() {
            c.retain(|p, _| !stale(p));
        }
        for cache in [&self.hash_cache, &self.hash512_cache] {
            if let Ok(mut c) = cache.lock() {
                c.retain(|p, _| !stale(p));
            }
        }
        if let Ok(mut c) = self.tree_cache.lock() {
            c.retain(|p, _| !stale(p));
        }
    }

    fn cached<T: Clone>(cache: &Cache<T>, path: &Path, f: impl FnOnce() -> WorldResult<T>) -> WorldResult<T> {
        if let Some(hit) = cache.lock().ok().and_then(|c| c.get(path.as_os_str()).cloned()) {
            return hit;
        }
        let r = f();
        // Failures are not kept, as in `json`: each points at its own call.
        if let (Ok(v), Ok(mut c)) = (&r, cache.lock()) {
            c.insert(path.as_os_str().to_owned(), Ok(v.clone()));
        }
        r
    }
}

/// The field `name` of a record value.
fn record_field<'v>(v: &'v Value, name: &str) -> Option<&'v Value> {
    match &v.kind {
        claim_eval::V::Record(r) => r.names.iter().position(|n| &**n == name).and_then(|i| r.fields.get(i)),
        _ => None,
    }
}

/// Whether a canonical path is `root` or lies below it. Both are
/// canonical (absolute, no `.` or `..`, single separators), so comparing
/// bytes is comparing components, and much cheaper.
fn within(path: &Path, root: &Path) -> bool {
    let (p, r) = (path.as_os_str().as_encoded_bytes(), root.as_os_str().as_encoded_bytes());
    p.strip_prefix(r).is_some_and(|rest| rest.is_empty() || rest.starts_with(b"/") || r.ends_with(b"/"))
}

/// SHA-256 of a file, streamed in constant memory.
pub fn sha256_file(path: &Path) -> std::io::Result<[u8; 32]> {
    let (file, _) = crate::world::beneath::open_nonblocking(path)?;
    sha256_of(&file).map(|(digest, _, _)| digest)
}

/// The pieces a file is hashed in, read into one buffer per thread made
/// once (a buffer for each of thousands of small inputs, zeroed, cost more
/// than hashing them). A small input is one read: a first read shorter
/// than a page is its end (`readahead::read_pieces`). Larger pieces hash a
/// 1 GiB file no faster (`docs/performance.md`).
const HASH_PIECE: usize = 64 * 1024;

/// SHA-256 of an open file, streamed in constant memory; whether its first
/// read waited for the disk; and how many bytes it had.
fn sha256_of(f: &std::fs::File) -> std::io::Result<([u8; 32], bool, u64)> {
    digest_of::<Sha256>(f).map(|(d, waited, len)| {
        let mut out = [0u8; 32];
        out.copy_from_slice(&d);
        (out, waited, len)
    })
}

/// A digest of an open file's bytes, streamed in constant memory; whether
/// its first read waited for the disk; and how many bytes it had.
fn digest_of<H: sha2::Digest>(f: &std::fs::File) -> std::io::Result<(Vec<u8>, bool, u64)> {
    thread_local! {
        static PIECE: std::cell::RefCell<Box<[u8]>> = std::cell::RefCell::new(vec![0; HASH_PIECE].into_boxed_slice());
    }
    let mut h = H::new();
    let mut len = 0u64;
    let waited = PIECE.with(|buf| {
        crate::world::readahead::read_pieces(f, &mut buf.borrow_mut(), |piece| {
            len += piece.len() as u64;
            h.update(piece);
        })
    })?;
    Ok((h.finalize().to_vec(), waited, len))
}

impl World for FsWorld {
    fn read(&self, kind: WorldFn, call: &WorldCall<'_>, args: &[Value], ty: &Ty, types: &Types) -> WorldResult<Value> {
        let text = |i: usize| {
            args.get(i)
                .and_then(Value::as_text)
                .ok_or_else(|| WorldError::internal("a world call's argument", call.call))
        };
        match kind {
            WorldFn::Load => self.load(call, ty, types),
            WorldFn::FileSha256 => self.file_sha256(call).map(|d| Value::digest(DigestKind::Sha256, &d)),
            WorldFn::FileSha512 => self.file_sha512(call).map(|d| Value::digest(DigestKind::Sha512, &d)),
            WorldFn::GitTree => self.git_tree(call).map(|d| Value::digest(DigestKind::Sha1, &d)),
            WorldFn::OciImage => self.layout(kind, call, |at| crate::world::oci::read_image(at, text(0)?, ty, types)),
            WorldFn::OciImageFor => {
                self.layout(kind, call, |at| crate::world::oci::read_image_for(at, text(0)?, text(1)?, ty, types))
            }
            WorldFn::OciIndex => self.layout(kind, call, |at| crate::world::oci::read_index(at, text(0)?, ty, types)),
            WorldFn::GitCommit => self.git_commit(call, args.first(), ty, types),
            WorldFn::PublicKey => self.public_key(call, ty, types),
            WorldFn::Dsse => self.dsse(call, args, ty, types),
        }
    }
}

impl FsWorld {
    fn load(&self, call: &WorldCall<'_>, ty: &Ty, types: &Types) -> WorldResult<Value> {
        let (target, text, fid) = match self.read_before(call) {
            Some(read) => read,
            None => {
                let target = self.resolve(call)?;
                let (text, fid) = self.receipt_text(call, &target)?;
                (target, text, fid)
            }
        };
        // One parser, one decoder: every error is found and reported with
        // its place.
        let doc = json::parse(&text).map_err(|e| {
            let d = Diagnostic::error("E0305", format!("`{}` is not valid JSON: {}", call.path, e.message))
                .at(fid, e.span, e.message.clone())
                .with_secondary(call.call, "loaded here");
            WorldError::new(WorldCode::NotJson, d)
        })?;
        self.keep_json(&target, fid);
        claim_eval::decode::decode(&doc, ty, types, fid, call.call)
            .map_err(|d| WorldError::many(WorldCode::JsonShape, d))
    }

    fn file_sha256(&self, call: &WorldCall<'_>) -> WorldResult<[u8; 32]> {
        let d = self.file_digest::<Sha256>(call, DigestKind::Sha256)?;
        let mut out = [0u8; 32];
        out.copy_from_slice(&d);
        Ok(out)
    }

    fn file_sha512(&self, call: &WorldCall<'_>) -> WorldResult<[u8; 64]> {
        let d = self.file_digest::<sha2::Sha512>(call, DigestKind::Sha512)?;
        let mut out = [0u8; 64];
        out.copy_from_slice(&d);
        Ok(out)
    }

    /// The folder `call` names, resolved beneath the root: `E0308`, with
    /// `code`, where it is no folder (`needs` says what the call needs).
    fn directory(&self, call: &WorldCall<'_>, code: WorldCode, needs: &str) -> WorldResult<PathBuf> {
        let path = self.resolve(call)?.path;
        if !path.is_dir() {
            return Err(Self::err(call, code, "E0308", format!("`{}` is not a directory", call.path), needs));
        }
        Ok(path)
    }

    fn git_tree(&self, call: &WorldCall<'_>) -> WorldResult<[u8; 20]> {
        let path = self.resolve(call)?.path;
        Self::cached(&self.tree_cache, &path, || {
            if !path.is_dir() {
                return Err(Self::err(
                    call,
                    WorldCode::FileUnreadable,
                    "E0308",
                    format!("`{}` is not a directory", call.path),
                    "`git_tree` needs a directory",
                ));
            }
            let beneath = self
                .beneath()
                .map_err(|e| Self::io_err(call, format!("cannot read the tree `{}`: {e}", call.path), &e))?;
            crate::world::gittree::tree_id(beneath, &path).map_err(|e| match e.kind() {
                std::io::ErrorKind::Unsupported => {
                    let d = Diagnostic::error(
                        "E0314",
                        format!("`git_tree` cannot give the tree id git gives for `{}`", call.path),
                    )
                    .at_loc(call.call, "reads this tree")
                    .with_note(e.to_string());
                    WorldError::new(WorldCode::FileUnreadable, d)
                }
                _ => Self::io_err(call, format!("cannot read the tree `{}`: {e}", call.path), &e),
            })
        })
    }
    /// `public_key(path)`: the key, kept by its id for `dsse`.
    fn public_key(&self, call: &WorldCall<'_>, ty: &Ty, types: &Types) -> WorldResult<Value> {
        let target = self.resolve(call)?;
        let Some(bytes) = self.read_bytes(call, &target, false)? else {
            return Err(WorldError::internal("a read gave up", call.call));
        };
        let not_a_key = |what: String| {
            let d = Diagnostic::error(
                "E0316",
                format!("`{}` is not a public key Claim can verify with: {what}", call.path),
            )
            .at_loc(call.call, "reads this key")
            .with_help("give a PEM `PUBLIC KEY` of Ed25519 or ECDSA P-256 (`openssl pkey -pubout`)");
            WorldError::new(WorldCode::NotAKey, d)
        };
        let text = std::str::from_utf8(&bytes).map_err(|_| not_a_key("it is not text".into()))?;
        let (key, id) = crate::world::dsse::parse_public_key(text).map_err(not_a_key)?;
        let algorithm = key.algorithm();
        if let Ok(mut keys) = self.keys.lock() {
            keys.insert(id, Arc::new(key));
        }
        let values = vec![Value::text(algorithm), Value::digest(DigestKind::Sha256, &id)];
        let key = crate::world::oci::record_of(ty, types, values)
            .ok_or_else(|| WorldError::internal("`std.dsse.PublicKey`", call.call))?;
        // Marked as read by `public_key`: `dsse` takes no key a program
        // wrote by hand (it names no key material, and which keys were
        // read first would depend on the threads).
        Ok(key.with_origin(claim_eval::Origin::hashed("public_key", call.path, call.call)))
    }

    /// `dsse(path, keys, threshold)`: the payload of an envelope enough
    /// distinct keys verify, decoded into `ty`.
    fn dsse(&self, call: &WorldCall<'_>, args: &[Value], ty: &Ty, types: &Types) -> WorldResult<Value> {
        let refused = |code: WorldCode, message: String| {
            WorldError::new(code, Diagnostic::error("E0317", message).at_loc(call.call, "reads this envelope"))
        };
        let (Some(keys), Some(threshold)) =
            (args.first().and_then(Value::as_list), args.get(1).and_then(Value::as_int))
        else {
            return Err(WorldError::internal("`dsse`'s arguments", call.call));
        };
        let target = self.resolve(call)?;
        let (text, fid) = self.receipt_text(call, &target)?;
        let doc = json::parse(&text).map_err(|e| {
            let d = Diagnostic::error("E0305", format!("`{}` is not valid JSON: {}", call.path, e.message))
                .at(fid, e.span, e.message.clone())
                .with_secondary(call.call, "read here");
            WorldError::new(WorldCode::NotJson, d)
        })?;
        let envelope = crate::world::dsse::envelope(&doc)
            .map_err(|(code, why)| refused(code, format!("`{}` cannot be verified: {why}", call.path)))?;
        if envelope.payload_type != crate::world::dsse::IN_TOTO {
            return Err(refused(
                WorldCode::PayloadTypeUnsupported,
                format!(
                    "the payload type of `{}` is `{}`; Claim reads `{}` only",
                    call.path,
                    envelope.payload_type,
                    crate::world::dsse::IN_TOTO
                ),
            ));
        }
        // Each distinct key once, however often it is given or signed.
        let mut ids: Vec<[u8; 32]> = Vec::new();
        for k in keys {
            let read = matches!(&k.origin, Some(claim_eval::Origin::Hashed(h)) if h.function == "public_key");
            if !read {
                return Err(refused(
                    WorldCode::NotAKey,
                    format!("a key of `{}` was not read by `public_key`: a `PublicKey` written out names no key to verify with", call.path),
                ));
            }
            let id = record_field(k, "id")
                .and_then(|v| match &v.kind {
                    claim_eval::V::Digest(_, b) => <[u8; 32]>::try_from(b.as_ref()).ok(),
                    _ => None,
                })
                .ok_or_else(|| WorldError::internal("a key's id", call.call))?;
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        let known = self.keys.lock().map(|k| k.clone()).unwrap_or_default();
        let message = crate::world::dsse::pae(&envelope.payload_type, &envelope.payload);
        let mut verified = Vec::new();
        for id in &ids {
            let Some(key) = known.get(id) else {
                return Err(refused(
                    WorldCode::NotAKey,
                    format!("the key `sha256:{}` was not read by `public_key`", claim_eval::value::hex(id)),
                ));
            };
            if envelope.signatures.iter().any(|sig| key.verifies(&message, sig)) {
                verified.push(*id);
            }
        }
        if threshold < 1 || (verified.len() as i64) < threshold {
            let names: Vec<String> =
                verified.iter().map(|id| format!("sha256:{}", claim_eval::value::hex(id))).collect();
            let mut e = refused(
                WorldCode::ThresholdUnmet,
                format!(
                    "{} of the {} distinct keys verified a signature of `{}`; the threshold is {threshold}",
                    verified.len(),
                    ids.len(),
                    call.path
                ),
            );
            if let Some(d) = e.diagnostics.first_mut() {
                d.notes.push(match names.is_empty() {
                    true => "no key verified a signature over the envelope's payload".to_string(),
                    false => format!("verified by {}", claim_diagnostics::and_list(&names)),
                });
                if threshold < 1 {
                    d.notes.push("a threshold below 1 would accept an envelope no key signed".into());
                }
            }
            return Err(e);
        }
        // Verified: the payload is read as a receipt, as its own source.
        let payload = String::from_utf8(envelope.payload)
            .map_err(|_| refused(WorldCode::NotJson, format!("the payload of `{}` is not UTF-8 JSON", call.path)))?;
        let name = format!("{}#payload", self.name_of(&target.path));
        let pid = match self.sources.lock() {
            Ok(mut s) => s.add_new(NewFile::new(name, Arc::from(payload.as_str()))),
            Err(_) => return Err(WorldError::internal("sources lock", call.call)),
        };
        let doc = json::parse(&payload).map_err(|e| {
            let d =
                Diagnostic::error("E0305", format!("the payload of `{}` is not valid JSON: {}", call.path, e.message))
                    .at(pid, e.span, e.message.clone())
                    .with_secondary(call.call, "read here");
            WorldError::new(WorldCode::NotJson, d)
        })?;
        claim_eval::decode::decode(&doc, ty, types, pid, call.call)
            .map_err(|d| WorldError::many(WorldCode::JsonShape, d))
    }

    /// `git_commit(repo, commit)`: the commit, as a value of `std.git.Commit`.
    fn git_commit(&self, call: &WorldCall<'_>, commit: Option<&Value>, ty: &Ty, types: &Types) -> WorldResult<Value> {
        let id: [u8; 20] = match commit.map(|v| &v.kind) {
            Some(claim_eval::V::Digest(_, bytes)) => {
                bytes.as_ref().try_into().map_err(|_| WorldError::internal("a commit id", call.call))?
            }
            _ => return Err(WorldError::internal("a commit id", call.call)),
        };
        let path = self.directory(call, WorldCode::NotGitRepository, "`git_commit` needs a git repository")?;
        let commit = crate::world::gitcommit::read_commit(&path, &id, call)?;
        // Each id remembers the read it came from, for a diagnostic to say
        // which repository's commit records a tree that differs.
        let origin = claim_eval::Origin::hashed("git_commit", call.path, call.call);
        let sha1 = |b: &[u8; 20]| Value::digest(DigestKind::Sha1, b).with_origin(origin.clone());
        let values = vec![sha1(&id), sha1(&commit.tree), Value::list(commit.parents.iter().map(sha1).collect())];
        crate::world::oci::record_of(ty, types, values)
            .ok_or_else(|| WorldError::internal("`std.git.Commit`", call.call))
    }

    /// An OCI layout's world call (`oci_image`, `oci_image_for`,
    /// `oci_index`): `read` given the layout, once its path is a folder
    /// beneath the root.
    fn layout(
        &self,
        kind: WorldFn,
        call: &WorldCall<'_>,
        read: impl FnOnce(&crate::world::oci::LayoutCall<'_>) -> WorldResult<Value>,
    ) -> WorldResult<Value> {
        let path =
            self.directory(call, WorldCode::NotAnImage, &format!("`{}` needs an OCI layout directory", kind.name()))?;
        let beneath =
            self.beneath().map_err(|e| Self::io_err(call, format!("cannot read `{}`: {e}", call.path), &e))?;
        let value = read(&crate::world::oci::LayoutCall { dir: &path, call, limits: &self.layouts, beneath })?;
        // Each digest remembers the layout it was recomputed from: it is
        // evidence (`W0006` counts it), and a diagnostic can say where.
        Ok(value.with_digest_origins(&claim_eval::Origin::hashed(kind.name(), call.path, call.call)))
    }
}

/// The call of a fact whose value is a `load` of a literal path (nearly
/// every receipt), as the evaluator makes it.
fn literal_load<'f>(f: &'f claim_sema::hir::Fact) -> Option<WorldCall<'f>> {
    use claim_sema::hir::{ExprKind, Lit, WorldFn};
    match &f.init.kind {
        ExprKind::World(WorldFn::Load, args) => match args.first().map(|a| &a.kind) {
            Some(ExprKind::Lit(Lit::Text(path))) => {
                Some(WorldCall::new(path, f.loc.file, claim_syntax::Loc::new(f.loc.file, f.init.span), args.first()))
            }
            _ => None,
        },
        _ => None,
    }
}

/// [`literal_load`] of each fact that has one.
fn literal_loads<'f>(facts: &[&'f claim_sema::hir::Fact]) -> Vec<WorldCall<'f>> {
    facts.iter().filter_map(|f| literal_load(f)).collect()
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    #[test]
    fn below_is_the_rest_of_a_path_strictly_under_the_root() {
        use std::path::Path;
        let below = |p: &str, r: &str| {
            crate::world::beneath::below(Path::new(p), Path::new(r)).map(|x| x.to_string_lossy().into_owned())
        };
        assert_eq!(below("/a/b/c.json", "/a").as_deref(), Some("b/c.json"));
        assert_eq!(below("/a/b", "/a/").as_deref(), Some("b"));
        assert_eq!(below("/c.json", "/").as_deref(), Some("c.json"));
        assert_eq!(below("/ab/c.json", "/a"), None, "a sibling that shares the root's name as a prefix");
        assert_eq!(below("/a", "/a"), None, "the root itself");
        assert_eq!(below("/b/c", "/a"), None);
        // As `Path::strip_prefix` answers, on canonical paths.
        for (p, r) in [("/x/y/z", "/x"), ("/x/yz", "/x/y"), ("/x/y", "/x/y"), ("/q", "/x")] {
            let std = Path::new(p).strip_prefix(r).ok().filter(|rest| !rest.as_os_str().is_empty());
            assert_eq!(crate::world::beneath::below(Path::new(p), Path::new(r)), std, "{p} under {r}");
        }
    }
}
