//! The CLI's salsa database: the compiler's queries plus the world. Each
//! read of the world (a JSON file decoded into a type, a file or a tree
//! hashed, an OCI image read) becomes a salsa input the first time a fact
//! asks for it; `refresh` re-reads a changed file and updates exactly the
//! inputs that read it, so only the facts that depend on it re-evaluate.

use crate::world::FsWorld;
use claim_eval::incremental::{EvalDb, WorldFile, WorldRead};
use claim_eval::{Types, Value, World, WorldCall};
use claim_sema::hir::WorldFn;
use claim_sema::ty::Ty;
use claim_syntax::FileId;
use rustc_hash::FxHashMap as HashMap;
use salsa::Setter;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A world read as requested: the same request gives the same input.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct ReadKey {
    kind: WorldFn,
    from: FileId,
    path: String,
    /// The arguments after the path, as text (`oci_image`'s reference, …).
    args: Vec<String>,
    ty: Ty,
    /// Which type definitions decode it, by identity: a program whose
    /// types changed reads again. (The `Read` keeps them alive, so the
    /// address stays theirs.)
    types: usize,
}

/// A read and what it needs to be done again.
struct Read {
    file: WorldFile,
    resolved: Option<PathBuf>,
    args: Vec<Value>,
    ty: Ty,
    types: Types,
    call: claim_syntax::Loc,
    literal: Option<claim_syntax::Loc>,
}

#[salsa::db]
#[derive(Clone)]
pub struct CliDb {
    storage: salsa::Storage<Self>,
    world: Arc<FsWorld>,
    reads: Arc<Mutex<HashMap<ReadKey, Read>>>,
    /// `--max-value-len`: set before any fact is evaluated.
    pub max_value_len: usize,
    /// `--timeout-per-fact`: set before any fact is evaluated.
    pub fact_time_limit: Option<std::time::Duration>,
    /// Whether the world's reads are recorded, to be redone when what they
    /// read changes: not for a run that reads once and exits, where
    /// recording every read (a key, a record and two locks each) was a
    /// tenth of the facts' time.
    pub record_reads: bool,
}

impl CliDb {
    pub fn new(world: FsWorld) -> CliDb {
        CliDb {
            storage: salsa::Storage::default(),
            world: Arc::new(world),
            reads: Arc::default(),
            max_value_len: claim_eval::eval::DEFAULT_MAX_VALUE_LEN,
            fact_time_limit: None,
            record_reads: true,
        }
    }

    /// A database whose log records each query that executes.
    pub fn with_log(world: FsWorld, log: Arc<Mutex<Vec<String>>>) -> CliDb {
        let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                if let Ok(mut l) = log.lock() {
                    l.push(format!("{database_key:?}"));
                }
            }
        })));
        CliDb {
            storage,
            world: Arc::new(world),
            reads: Arc::default(),
            max_value_len: claim_eval::eval::DEFAULT_MAX_VALUE_LEN,
            fact_time_limit: None,
            record_reads: true,
        }
    }

    /// A database whose world has no files: every read fails
    /// (`FileMissing`), as for a program evaluated without a project (the
    /// fuzz targets, the tests of what any text does). Values are capped at
    /// `max_value_len` and each fact at `fact_time_limit`.
    pub fn without_files(max_value_len: usize, fact_time_limit: Option<std::time::Duration>) -> CliDb {
        let nowhere = PathBuf::from("/nonexistent/claim-without-files");
        let world = FsWorld::new(nowhere, Default::default(), Arc::default(), 0);
        CliDb { max_value_len, fact_time_limit, record_reads: false, ..CliDb::new(world) }
    }

    /// The world the database reads.
    pub fn world(&self) -> &FsWorld {
        &self.world
    }

    /// The world, once the program's files are known (before any query).
    pub fn set_world(&mut self, world: FsWorld) {
        self.world = Arc::new(world);
        self.reads = Arc::default();
    }

    /// Re-reads everything that read `changed` (after it changed on disk).
    /// Returns how many reads were updated.
    pub fn refresh(&mut self, changed: &Path) -> usize {
        let changed = changed.canonicalize().unwrap_or_else(|_| changed.to_path_buf());
        self.world.forget(&changed);
        let world = self.world.clone();
        let mut updates = Vec::new();
        if let Ok(reads) = self.reads.lock() {
            for (key, read) in reads.iter() {
                if read.resolved.as_deref().is_some_and(|p| p.starts_with(&changed) || changed.starts_with(p)) {
                    let call = WorldCall { path: &key.path, from: key.from, call: read.call, literal: read.literal };
                    updates.push((read.file, world.read(key.kind, &call, &read.args, &read.ty, &read.types)));
                }
            }
        }
        let n = updates.len();
        for (file, value) in updates {
            file.set_value(self).to(WorldRead(Arc::new(value)));
        }
        n
    }
}

#[salsa::db]
impl salsa::Database for CliDb {}

#[salsa::db]
impl claim_sema::Db for CliDb {}

#[salsa::db]
impl EvalDb for CliDb {
    fn max_value_len(&self) -> usize {
        self.max_value_len
    }

    fn fact_time_limit(&self) -> Option<std::time::Duration> {
        self.fact_time_limit
    }

    fn json_texts(&self) -> Option<claim_eval::eval::SharedTexts> {
        let world = self.world.clone();
        Some(Arc::new(move |file| world.json_text(file)))
    }

    fn world_file(&self, kind: WorldFn, call: &WorldCall<'_>, args: &[Value], ty: &Ty, types: &Types) -> WorldFile {
        if !self.record_reads {
            let value = self.world.read(kind, call, args, ty, types);
            return WorldFile::new(self, WorldRead(Arc::new(value)));
        }
        let key = ReadKey {
            kind,
            from: call.from,
            path: call.path.to_string(),
            args: args.iter().map(claim_eval::text::text_of).collect(),
            ty: ty.clone(),
            types: std::sync::Arc::as_ptr(types) as usize,
        };
        if let Some(read) = self.reads.lock().ok().and_then(|r| r.get(&key).map(|r| r.file)) {
            return read;
        }
        let resolved = self.world.resolve_and_keep(call).ok().map(|t| t.path);
        let value = self.world.read(kind, call, args, ty, types);
        let file = WorldFile::new(self, WorldRead(Arc::new(value)));
        if let Ok(mut reads) = self.reads.lock() {
            reads.insert(
                key,
                Read {
                    file,
                    resolved,
                    args: args.to_vec(),
                    ty: ty.clone(),
                    types: types.clone(),
                    call: call.call,
                    literal: call.literal,
                },
            );
        }
        file
    }
}
