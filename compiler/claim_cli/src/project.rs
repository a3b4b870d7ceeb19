//! Finding projects and their modules on disk: the project root, the entry
//! files, and every module the entries reach through `use` (§2).

use claim_diagnostics::{Diagnostic, Sources};
use claim_sema::{Program, SourceFile};
use claim_syntax::{FileId, Span};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One program: a root and the entry files under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    pub root: PathBuf,
    pub entries: Vec<PathBuf>,
}

/// A command-line error (exit 2), with no source location.
pub fn usage_error(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error("E0901", message)
}

fn nearest_manifest(start: &Path, stop: Option<&Path>) -> Option<PathBuf> {
    let mut dir = Some(start);
    while let Some(d) = dir {
        if d.join("Claim.toml").is_file() {
            return Some(d.to_path_buf());
        }
        if stop == Some(d) {
            return None;
        }
        dir = d.parent();
    }
    None
}

/// The root of the project a `.claim` file belongs to: the nearest folder
/// holding a `Claim.toml`, from the file's own folder up, else the file's
/// folder. What `claim_batch FILE` runs the file in, and the project the
/// language server opens for it.
pub fn root_of(file: &Path) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new("/"));
    nearest_manifest(dir, None).unwrap_or_else(|| dir.to_path_buf())
}

/// What a folder's entry is, as the folder's listing says (a symlink is
/// not followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Folder,
    Symlink,
    /// A FIFO, a socket, a device.
    Other,
}

impl Kind {
    pub fn of(t: std::fs::FileType) -> Kind {
        if t.is_symlink() {
            Kind::Symlink
        } else if t.is_file() {
            Kind::File
        } else if t.is_dir() {
            Kind::Folder
        } else {
            Kind::Other
        }
    }
}

/// A folder's entries and what each is.
pub type Entries = rustc_hash::FxHashMap<std::ffi::OsString, Kind>;

/// The folders a search for `.claim` files listed, each with its entries.
/// The world reads receipts from the same folders and takes these rather
/// than listing each folder again (`FsWorld::with_listings`).
pub type Listings = rustc_hash::FxHashMap<PathBuf, Entries>;

/// Every `.claim` file below `dir`, in path order, skipping hidden folders
/// and `target` (and not following symlinked folders).
pub(crate) fn claim_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    out.extend(find_claim_files(dir, 1, None)?);
    Ok(())
}

/// `claim_files`, listing the folders of each level on `jobs` threads,
/// and keeping each folder's entries in `listed`. (Listing a folder is
/// mostly the kernel's work, ten microseconds each: a corpus of thousands
/// of receipt folders took a tenth of a run to search on one thread.)
fn find_claim_files(dir: &Path, jobs: usize, mut listed: Option<&mut Listings>) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut level = vec![dir.to_path_buf()];
    let keep = listed.is_some();
    while !level.is_empty() {
        // Each folder's entries sorted into folders and `.claim` files on
        // the thread that listed it (on one, this was a serial tenth of
        // the search: 22,000 entries for a corpus of 1,000 modules).
        let read = list_level(&level, jobs, |d| {
            read_folder(d).map(|entries| {
                let (mut dirs, mut files) = (Vec::new(), Vec::new());
                for (name, kind) in &entries {
                    let text = name.to_string_lossy();
                    if text.starts_with('.') || text == "target" {
                        continue;
                    }
                    if kind.is_dir() {
                        dirs.push(d.join(name));
                    } else if text.ends_with(".claim") {
                        files.push(d.join(name));
                    }
                }
                (dirs, files, keep.then(|| as_entries(entries)))
            })
        });
        let mut next = Vec::new();
        for (d, read) in level.into_iter().zip(read) {
            let (dirs, files, entries) = read?;
            next.extend(dirs);
            out.extend(files);
            if let (Some(l), Some(entries)) = (listed.as_deref_mut(), entries) {
                l.insert(d, entries);
            }
        }
        level = next;
    }
    // Path order is the order of a depth-first walk in name order.
    #[cfg(unix)]
    out.sort_by_cached_key(|p| walk_order(p));
    #[cfg(not(unix))]
    out.sort();
    Ok(out)
}

/// A key that orders the paths one search found as `Path`'s own order
/// does, compared as bytes: each `/` made the least byte, so a folder's
/// name sorts before any longer name it begins (`a/z` before `a.claim`).
/// The paths are the search's own joins of listed names below one folder
/// (no `.`, `..`, empty or trailing parts past it), for which comparing
/// components is comparing these keys — at a quarter of the cost, on the
/// one thread the search ends on.
#[cfg(unix)]
fn walk_order(path: &Path) -> Vec<u8> {
    path.as_os_str().as_encoded_bytes().iter().map(|&b| if b == b'/' { 0 } else { b }).collect()
}

/// Folders listed before a large level decides how many threads list the
/// rest, and the threads it takes where the listing waits for the disk.
const SAMPLE_FOLDERS: usize = 32;
const WAITING_THREADS: usize = 16;
/// A folder whose listing is in memory takes ~10 µs of one thread; one
/// read from the disk takes 100 µs or more.
const WAITING_FOLDER: std::time::Duration = std::time::Duration::from_micros(60);

/// `list` of each folder of a level, in order, on `jobs` threads — or, for
/// a large level whose first folders waited for the disk (a corpus the
/// host has evicted from memory), on more: listing is a read a folder, and
/// two threads kept only two reads waiting at a time (the 1,000-module
/// benchmark corpus from a dropped page cache: its load took 144–152 ms,
/// and 81–92 ms with the rest of its 2,000 folders listed on sixteen).
fn list_level<R: Send>(level: &[PathBuf], jobs: usize, list: impl Fn(&PathBuf) -> R + Sync) -> Vec<R> {
    if level.len() < 4 * SAMPLE_FOLDERS {
        return crate::parallel::map(level, jobs, list);
    }
    let (sample, rest) = level.split_at(SAMPLE_FOLDERS);
    let started = std::time::Instant::now();
    let mut out = crate::parallel::map(sample, jobs, &list);
    let per_folder = started.elapsed() * jobs.max(1) as u32 / SAMPLE_FOLDERS as u32;
    // `--jobs 1` asked for one thread, and gets it.
    let threads = if jobs > 1 && per_folder > WAITING_FOLDER { jobs.max(WAITING_THREADS) } else { jobs };
    out.extend(crate::parallel::map(rest, threads, &list));
    out
}

/// A folder's entries with their kinds (not following symlinks).
fn read_folder(dir: &Path) -> std::io::Result<Vec<(std::ffi::OsString, std::fs::FileType)>> {
    std::fs::read_dir(dir)?.map(|e| e.and_then(|e| Ok((e.file_name(), e.file_type()?)))).collect()
}

fn as_entries(read: Vec<(std::ffi::OsString, std::fs::FileType)>) -> Entries {
    read.into_iter().map(|(name, kind)| (name, Kind::of(kind))).collect()
}

/// A folder's listing: its entries and what each is (the world lists a
/// folder the search for files did not).
pub(crate) fn list(dir: &Path) -> std::io::Result<Entries> {
    read_folder(dir).map(as_entries)
}

/// Groups the entries into projects. A file's root is the nearest folder
/// holding a `Claim.toml` (for a folder entry, looking no higher than the
/// entry for a nested project first), else the entry's folder.
pub fn projects(entries: &[PathBuf]) -> Result<Vec<Project>, Box<Diagnostic>> {
    projects_listed(entries, 1).map(|(p, _)| p)
}

/// `projects`, searching folders on `jobs` threads, with the folders the
/// search listed.
pub fn projects_listed(entries: &[PathBuf], jobs: usize) -> Result<(Vec<Project>, Listings), Box<Diagnostic>> {
    search(entries, jobs, false)
}

/// `projects`, where a folder without `.claim` files is not an error:
/// `--watch` waits in it for the first one.
pub fn projects_or_none(entries: &[PathBuf]) -> Result<Vec<Project>, Box<Diagnostic>> {
    search(entries, 1, true).map(|(p, _)| p)
}

fn search(entries: &[PathBuf], jobs: usize, allow_empty: bool) -> Result<(Vec<Project>, Listings), Box<Diagnostic>> {
    let mut groups: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    let mut listed = Listings::default();
    for entry in entries {
        let abs = std::path::absolute(entry)
            .map_err(|e| Box::new(usage_error(format!("cannot resolve `{}`: {e}", entry.display()))))?;
        if abs.is_dir() {
            let files = find_claim_files(&abs, jobs, Some(&mut listed))
                .map_err(|e| Box::new(usage_error(format!("cannot read the folder `{}`: {e}", entry.display()))))?;
            // An entry that runs nothing would report `0/0 PASS`: a moved
            // folder or a wrong path in a CI job would pass it.
            if files.is_empty() && !allow_empty {
                return Err(Box::new(
                    usage_error(format!("no `.claim` file under `{}`", entry.display()))
                        .with_help("give a folder that holds `.claim` files, or a `.claim` file")
                        .with_note(
                            "a folder entry runs every `.claim` file below it, skipping hidden folders and `target`",
                        ),
                ));
            }
            let outer = nearest_manifest(&abs, None).unwrap_or_else(|| abs.clone());
            // Files of one folder share its root: asked once per folder,
            // not once per file.
            let mut roots: HashMap<PathBuf, PathBuf> = HashMap::new();
            for f in files {
                let dir = f.parent().unwrap_or(&abs).to_path_buf();
                let root = match roots.get(&dir) {
                    Some(root) => root.clone(),
                    None => {
                        let root = nearest_manifest(&dir, Some(&abs)).unwrap_or_else(|| outer.clone());
                        roots.insert(dir, root.clone());
                        root
                    }
                };
                groups.entry(root).or_default().push(f);
            }
        } else if abs.is_file() {
            if abs.extension().is_none_or(|e| e != "claim") {
                let mut d = usage_error(format!("entry `{}` is not a `.claim` file", entry.display()));
                if abs.extension().is_some_and(|e| e == "json") {
                    d = d.with_help(format!(
                        "a receipt is read by a fact in a `.claim` file: `fact receipt: T = load(\"{}\")`",
                        entry.display()
                    ));
                }
                return Err(Box::new(d));
            }
            groups.entry(root_of(&abs)).or_default().push(abs);
        } else if std::fs::metadata(&abs).is_ok() {
            // A FIFO, a socket, a device: there, but nothing to read.
            return Err(Box::new(
                usage_error(format!("entry `{}` is neither a file nor a folder", entry.display()))
                    .with_help("give a `.claim` file or a folder of them"),
            ));
        } else {
            let help = match near_entry(entry) {
                Some(near) => format!("did you mean `{}`?", near.display()),
                None => "give a `.claim` file or a folder of them".to_string(),
            };
            return Err(Box::new(usage_error(format!("entry `{}` does not exist", entry.display())).with_help(help)));
        }
    }
    let projects = groups
        .into_iter()
        .map(|(root, mut entries)| {
            entries.sort();
            entries.dedup();
            Project { root, entries }
        })
        .collect();
    Ok((projects, listed))
}

/// A path beside a missing entry whose last part is spelt nearly as the
/// entry's (`exmaples` → `examples`, `main.clam` → `main.claim`), where its
/// folder exists and lists one.
fn near_entry(entry: &Path) -> Option<PathBuf> {
    let name = entry.file_name()?.to_str()?;
    let parent = entry.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let names: Vec<String> =
        std::fs::read_dir(parent).ok()?.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect();
    let near = claim_diagnostics::did_you_mean(name, names.iter().map(String::as_str))?;
    Some(entry.with_file_name(near))
}

/// The module path of a file under a root: `a/b.claim` → `a.b`.
pub fn module_name(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap_or(file);
    let s = rel.with_extension("").to_string_lossy().replace(['/', '\\'], ".");
    s.trim_start_matches('.').to_string()
}

/// The name a reader should see for a file: relative to the working folder
/// where it lies below it.
pub fn display_name(path: &Path) -> String {
    display_name_in(path, std::env::current_dir().ok().as_deref())
}

/// [`display_name`] with the working folder already known: a run that
/// names thousands of files asks for it once.
pub fn display_name_in(path: &Path, cwd: Option<&Path>) -> String {
    if let Some(cwd) = cwd {
        if let Ok(rel) = path.strip_prefix(cwd) {
            let s = rel.display().to_string();
            return if s.is_empty() { ".".to_string() } else { s };
        }
    }
    path.display().to_string()
}

/// Limits on what a run reads, each a clear diagnostic when crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How deeply expressions, patterns and types may nest (E0012).
    pub max_nesting: usize,
    /// The largest `.claim` file read, in bytes (E0013).
    pub max_source_bytes: u64,
    /// The most `.claim` files one project may have (E0014).
    pub max_files: usize,
    /// The longest text or list `++` may build (E0407).
    pub max_value_len: usize,
    /// The most bytes one image layer may decompress to (E0313).
    pub max_layer_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_nesting: 10_000,
            max_source_bytes: 64 * 1024 * 1024,
            max_files: 100_000,
            max_value_len: claim_eval::eval::DEFAULT_MAX_VALUE_LEN,
            max_layer_bytes: crate::world::oci::DEFAULT_MAX_LAYER_BYTES,
        }
    }
}

/// A program loaded into the database.
pub struct Loaded {
    pub program: Program,
    /// Entry module paths, in entry order.
    pub entries: Vec<String>,
    /// The folder of each `.claim` file on disk (not the stdlib).
    pub dirs: HashMap<FileId, PathBuf>,
    /// Files that could not be read (bad UTF-8, IO errors), and a
    /// `Claim.toml` that says what Claim does not know (`E0016`).
    pub errors: Vec<Diagnostic>,
    /// The project's `Claim.toml` (empty where there is none).
    pub manifest: crate::manifest::Manifest,
    /// For a load that did not parse the modules it read whole
    /// (`load_parsing` with `defer`): the modules each one `use`s, parsed
    /// from its `use` items alone (`claim_syntax::parse_uses`). The nesting
    /// limit is then the caller's to check, as it parses each module.
    pub uses: Option<HashMap<SourceFile, Vec<String>>>,
    /// Whether enough of the modules' reads waited for the disk to say
    /// the page cache is missing files here and there
    /// (`readahead::evicting`): the facts' receipts are then read ahead.
    pub evicting: bool,
}

/// Reads the entries and, following `use`, every module they reach.
pub fn load<D: claim_sema::Db + Clone + Send>(db: &D, sources: &mut Sources, project: &Project) -> Loaded {
    load_with(db, sources, project, &Limits::default(), 1)
}

/// What loading has found so far.
#[derive(Default)]
struct Found {
    /// The working folder, asked once: files are named relative to it.
    cwd: Option<PathBuf>,
    dirs: HashMap<FileId, PathBuf>,
    errors: Vec<Diagnostic>,
    unreadable: BTreeMap<String, String>,
}

/// `load`, with limits other than the defaults, parsing the entries on
/// `jobs` threads.
pub fn load_with<D: claim_sema::Db + Clone + Send>(
    db: &D,
    sources: &mut Sources,
    project: &Project,
    limits: &Limits,
    jobs: usize,
) -> Loaded {
    load_parsing(db, sources, project, limits, jobs, false)
}

/// `load_with`; with `defer`, the entries read from files are not parsed
/// whole: only their `use` items are (`claim_syntax::parse_uses`), and the
/// nesting limit is left to the caller, which parses each module where it
/// checks it (a module reached only through `use`, and the standard
/// library, are parsed here as before: there are few). For a run that
/// checks in parts and frees each part's trees: no run then holds every
/// tree at once.
pub fn load_parsing<D: claim_sema::Db + Clone + Send>(
    db: &D,
    sources: &mut Sources,
    project: &Project,
    limits: &Limits,
    jobs: usize,
    defer: bool,
) -> Loaded {
    let mut modules: BTreeMap<String, SourceFile> = BTreeMap::new();
    let mut found = Found { cwd: std::env::current_dir().ok(), ..Found::default() };
    if project.entries.len() > limits.max_files {
        found.errors.push(
            Diagnostic::error(
                "E0014",
                format!(
                    "`{}` has {} `.claim` files, more than the limit of {}",
                    display_name(&project.root),
                    project.entries.len(),
                    limits.max_files
                ),
            )
            .with_help("raise the limit with `--max-files`, or give fewer entries"),
        );
        let program = Program::loaded(db, BTreeMap::new(), Vec::new(), BTreeMap::new());
        return Loaded {
            program,
            entries: Vec::new(),
            dirs: found.dirs,
            errors: found.errors,
            manifest: Default::default(),
            uses: None,
            evicting: false,
        };
    }
    let entries: Vec<String> = project.entries.iter().map(|e| module_name(&project.root, e)).collect();
    // The entries are read first and parsed in parallel; following `use`
    // then finds them parsed, and reads and parses the rest.
    let mut tried: std::collections::HashSet<String> = Default::default();
    let mut read: HashMap<String, SourceFile> = HashMap::new();
    let firsts: Vec<(&String, &PathBuf)> =
        entries.iter().zip(&project.entries).filter(|(m, _)| tried.insert((*m).clone())).collect();
    // Read on `jobs` threads, recorded in the entries' order (which fixes
    // the files' ids).
    let cwd_owned = found.cwd.clone();
    let cwd = cwd_owned.as_deref();
    // From a cold page cache, the reads of all of them are begun at once
    // (`readahead`) once the first two have waited for the disk.
    let reads = crate::world::readahead::FolderReads::default();
    let noted = |waited| {
        if reads.note(waited) {
            firsts.iter().for_each(|(_, path)| {
                crate::world::readahead::begin_read(path);
            });
        }
    };
    let fetched = crate::parallel::map(&firsts, jobs, |(module, path)| {
        (!claim_sema::db::is_std_module(module)).then(|| fetch(path, limits, cwd, &noted))
    });
    for ((module, path), fetched) in firsts.into_iter().zip(fetched) {
        let errors_before = found.errors.len();
        if let Some((text, fid)) =
            read_module(sources, project, limits, module, Some(path.clone()), fetched, &mut found)
        {
            read.insert(module.clone(), SourceFile::loaded(db, module.clone(), text, fid));
        } else if found.errors.len() == errors_before && !claim_sema::db::is_std_module(module) {
            // An entry selected this file: one it cannot read fails the
            // run, where a folder's listing found it or a user named it
            // (an unreadable witness skipped would be a pass unearned).
            let why = found.unreadable.get(module).cloned().unwrap_or_else(|| {
                format!("`{}`: it does not exist (a symlink to nothing?)", display_name_in(path, cwd))
            });
            found.errors.push(Diagnostic::error("E0106", format!("cannot read the `.claim` file {why}")).with_note(
                "every `.claim` file an entry selects is read, or the run fails: its witnesses would go unrun",
            ));
        }
    }
    let files: Vec<SourceFile> = read.values().copied().collect();
    // Parsed on `jobs` threads, each tree measured for the nesting limit
    // there too.
    let depths: std::sync::Mutex<HashMap<SourceFile, Option<(usize, Span)>>> = Default::default();
    let limit = limits.max_nesting;
    let mut used: Option<HashMap<SourceFile, Vec<String>>> = None;
    if defer {
        // Only what came from files: the standard library is parsed below.
        let texts: Vec<&str> = files.iter().map(|file| &**file.text(db)).collect();
        let uses = crate::parallel::map(&texts, jobs, |text| {
            claim_syntax::parse_uses(text).iter().map(claim_syntax::ast::UseDecl::dotted).collect::<Vec<_>>()
        });
        used = Some(files.iter().copied().zip(uses).collect());
    } else {
        crate::parallel::warm(db, &files, jobs, |db, file| {
            let deep = claim_syntax::nesting::deeper_than(&claim_sema::parse(db, *file).module, limit);
            if let Ok(mut d) = depths.lock() {
                d.insert(*file, deep);
            }
        });
    }
    let mut depths = depths.into_inner().unwrap_or_default();
    let mut queue: Vec<String> = entries.clone();
    queue.reverse();
    while let Some(module) = queue.pop() {
        if modules.contains_key(&module) {
            continue;
        }
        let file = match read.remove(&module) {
            Some(file) => file,
            None if !tried.insert(module.clone()) => continue,
            None => match read_module(sources, project, limits, &module, None, None, &mut found) {
                Some((text, fid)) => SourceFile::loaded(db, module.clone(), text, fid),
                None => continue,
            },
        };
        if let Some(uses) = used.as_ref().and_then(|s| s.get(&file)) {
            // In the order the parsed `use`s are pushed below.
            queue.extend(uses.iter().cloned());
            modules.insert(module, file);
            continue;
        }
        let fid = file.file_id(db);
        let deep = depths
            .remove(&file)
            .unwrap_or_else(|| claim_syntax::nesting::deeper_than(&claim_sema::parse(db, file).module, limit));
        if let Some((depth, at)) = deep {
            found.errors.push(too_deep(fid, depth, at, limits.max_nesting));
        }
        queue.extend(claim_sema::parse(db, file).module.uses().map(|u| u.dotted()));
        modules.insert(module, file);
    }
    let manifest = read_manifest(project, sources, limits, &mut found);
    let program = Program::loaded(db, modules, entries.clone(), found.unreadable);
    let (waits, reads) = reads.counts();
    let evicting = crate::world::readahead::evicting(waits, reads);
    Loaded { program, entries, dirs: found.dirs, errors: found.errors, manifest, uses: used, evicting }
}

/// A module that nests deeper than the limit (`E0012`), `depth` levels at
/// `at`.
pub(crate) fn too_deep(file: FileId, depth: usize, at: Span, limit: usize) -> Diagnostic {
    Diagnostic::error("E0012", format!("nesting deeper than the limit of {limit} levels"))
        .at(file, at, format!("{depth} levels deep here"))
        .with_help("name the inner parts with `let` or functions, or raise the limit with `--max-nesting`")
}

/// What reading a module's file found, before anything is recorded: the
/// entries are read on several threads, and recorded in order.
enum Fetched {
    /// No such file (reported at the `use` by the checker, which knows
    /// where it is).
    Missing,
    Unreadable(String),
    TooLarge(u64),
    /// Its text (or why it is not UTF-8) and the name diagnostics give
    /// it, both made on the thread that read it: decoding and copying
    /// 1,000 modules' texts had been a serial stretch of the load.
    Read(Result<Arc<str>, crate::utf8::NotUtf8>, String),
}

/// Reads a module's file, refusing what is no file or over the limit.
/// `noted` is told whether its first read waited for the disk.
fn fetch(path: &Path, limits: &Limits, cwd: Option<&Path>, noted: &(dyn Fn(bool) + Sync)) -> Fetched {
    // Opened, then asked what it is: one path lookup, not two.
    let (mut file, meta) = match crate::world::beneath::open_nonblocking(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Fetched::Missing,
        Err(e) => return Fetched::Unreadable(format!("`{}`: {e}", display_name_in(path, cwd))),
        Ok(m) => m,
    };
    if !meta.is_file() {
        return Fetched::Unreadable(format!("`{}` is not a file", display_name_in(path, cwd)));
    }
    if meta.len() > limits.max_source_bytes {
        return Fetched::TooLarge(meta.len());
    }
    let read = crate::world::readahead::read_noting_wait(&mut file, meta.len(), limits.max_source_bytes);
    if let Ok((_, waited)) = &read {
        noted(*waited);
    }
    match read.map(|(bytes, _)| bytes) {
        // It grew past the limit after its size was asked: its size now.
        Ok(bytes) if bytes.len() as u64 > limits.max_source_bytes => {
            Fetched::TooLarge(file.metadata().map_or(0, |m| m.len()).max(bytes.len() as u64))
        }
        // One copy, shared by the compiler and the diagnostics.
        Ok(bytes) => Fetched::Read(crate::utf8::decode(bytes).map(Arc::from), display_name_in(path, cwd)),
        Err(e) => Fetched::Unreadable(format!("`{}`: {e}", display_name_in(path, cwd))),
    }
}

/// The project's `Claim.toml`, read into the sources (its diagnostics point
/// into it); where it cannot be read or says what Claim does not know, an
/// error in `found` and an empty manifest.
fn read_manifest(
    project: &Project,
    sources: &mut Sources,
    limits: &Limits,
    found: &mut Found,
) -> crate::manifest::Manifest {
    let path = project.root.join("Claim.toml");
    match fetch(&path, limits, found.cwd.as_deref(), &|_| ()) {
        Fetched::Missing => Default::default(),
        Fetched::Read(Ok(text), name) => {
            let file = sources.add(name, text.clone());
            crate::manifest::parse(&text, file).unwrap_or_else(|d| {
                found.errors.push(*d);
                Default::default()
            })
        }
        Fetched::Read(Err(_), name) => {
            found.errors.push(Diagnostic::error("E0016", format!("`{name}` is not UTF-8")));
            Default::default()
        }
        Fetched::Unreadable(why) => {
            found.errors.push(Diagnostic::error("E0016", format!("cannot read the project manifest {why}")));
            Default::default()
        }
        Fetched::TooLarge(size) => {
            found.errors.push(Diagnostic::error(
                "E0016",
                format!(
                    "`{}` is {size} bytes, more than the limit for a source file",
                    display_name_in(&path, found.cwd.as_deref())
                ),
            ));
            Default::default()
        }
    }
}

/// Where a module's file is: an entry's own path, else where its module
/// path says.
fn module_path(project: &Project, module: &str, path: Option<PathBuf>) -> PathBuf {
    path.unwrap_or_else(|| project.root.join(format!("{}.claim", module.replace('.', "/"))))
}

/// Reads one module's text: from the standard library, from the path of
/// an entry, or from where its module path says (`fetched`, when it was
/// read already). `None` where there is nothing to load: a missing file
/// (reported at the `use`), an unreadable or over-large one, or one that
/// is not UTF-8 (reported here).
fn read_module(
    sources: &mut Sources,
    project: &Project,
    limits: &Limits,
    module: &str,
    path: Option<PathBuf>,
    fetched: Option<Fetched>,
    found: &mut Found,
) -> Option<(Arc<str>, FileId)> {
    if claim_sema::db::is_std_module(module) {
        let src: Arc<str> = crate::stdlib::source(module)?.into();
        let fid =
            sources.add(format!("<std>/{}.claim", module.trim_start_matches("std.").replace('.', "/")), src.clone());
        return Some((src, fid));
    }
    let path = module_path(project, module, path);
    let cwd = found.cwd.as_deref();
    let name = || display_name_in(&path, cwd);
    match fetched.unwrap_or_else(|| fetch(&path, limits, cwd, &|_| {})) {
        Fetched::Missing => None,
        Fetched::Unreadable(why) => {
            found.unreadable.insert(module.to_string(), why);
            None
        }
        Fetched::TooLarge(len) => {
            found.errors.push(
                Diagnostic::error(
                    "E0013",
                    format!("`{}` is {len} bytes, larger than the limit of {}", name(), limits.max_source_bytes),
                )
                .with_help("raise the limit with `--max-source-bytes`, or split the module"),
            );
            None
        }
        Fetched::Read(text, name) => match text {
            Ok(text) => {
                let fid = sources.add(name, text.clone());
                found.dirs.insert(fid, path.parent().map(Path::to_path_buf).unwrap_or_default());
                Some((text, fid))
            }
            Err(e) => {
                let (lossy, offset) = (e.lossy, e.at);
                let message = format!("`{name}` is not valid UTF-8");
                let fid = sources.add(name, lossy.as_str());
                let end = lossy.char_indices().map(|(i, _)| i).find(|i| *i > offset).unwrap_or(lossy.len());
                found.errors.push(
                    Diagnostic::error("E0001", message)
                        .at(fid, Span::new(offset, end), format!("invalid byte at offset {}", e.in_file))
                        .with_help("Claim source must be UTF-8 text"),
                );
                None
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{claim_files, find_claim_files, list_level, Kind, Listings, SAMPLE_FOLDERS};

    /// A large level is listed whole and in order, whether its first
    /// folders came from memory or (here: slowly) from the disk, when the
    /// rest is listed on more threads.
    #[test]
    fn a_large_level_is_listed_in_order_however_many_threads_list_it() {
        let level: Vec<std::path::PathBuf> = (0..300).map(|i| format!("f{i}").into()).collect();
        let want: Vec<String> = level.iter().map(|p| p.display().to_string()).collect();
        for jobs in [1, 2, 3] {
            for slow in [false, true] {
                let got = list_level(&level, jobs, |p| {
                    if slow && level.iter().position(|q| q == p).is_some_and(|i| i < SAMPLE_FOLDERS) {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                    }
                    p.display().to_string()
                });
                assert_eq!(got, want, "{jobs} jobs, slow: {slow}");
            }
        }
    }

    #[test]
    fn the_search_finds_the_same_files_in_path_order_on_any_number_of_threads() {
        let dir = std::env::temp_dir().join(format!("claim-find-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let files = ["b.claim", "a/z.claim", "a/b/c.claim", "c.claim", "a.claim", "a-b.claim", "d/e/f/g.claim"];
        let skipped = [".hidden/x.claim", "target/y.claim", "notes.txt", "a/b/readme.md"];
        for f in files.iter().chain(&skipped) {
            let path = dir.join(f);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, "").expect("write");
        }
        // A symlink is listed as one (the world refuses one leading out).
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc", dir.join("a/out")).expect("symlink");
        let mut want: Vec<_> = files.iter().map(|f| dir.join(f)).collect();
        want.sort();
        let mut one = Vec::new();
        claim_files(&dir, &mut one).expect("search");
        assert_eq!(one, want, "one thread");
        for jobs in [2, 3, 8] {
            let mut listed = Listings::default();
            assert_eq!(find_claim_files(&dir, jobs, Some(&mut listed)).expect("search"), want, "{jobs} jobs");
            // Every folder searched is listed whole (its skipped entries
            // too: the world reads from the listing); skipped ones are not.
            let root = &listed[&dir];
            assert!(
                root.contains_key(std::ffi::OsStr::new(".hidden"))
                    && root.contains_key(std::ffi::OsStr::new("notes.txt"))
            );
            assert!(listed.contains_key(&dir.join("d/e/f")));
            #[cfg(unix)]
            assert_eq!(listed[&dir.join("a")].get(std::ffi::OsStr::new("out")), Some(&Kind::Symlink), "a symlink");
            assert_eq!(listed[&dir.join("a")].get(std::ffi::OsStr::new("b")), Some(&Kind::Folder), "a folder");
            assert_eq!(listed[&dir.join("a")].get(std::ffi::OsStr::new("z.claim")), Some(&Kind::File), "a file");
            assert!(!listed.contains_key(&dir.join("target")) && !listed.contains_key(&dir.join(".hidden")));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
