//! The salsa database: its inputs (source files and the program's module
//! map) and the queries every layer reads (a file's parse and item index,
//! the refusal codes). The queries are layered parse → index → scope
//! (`scope.rs`) → signatures (`sigs.rs`) → check (`check/`) → compile
//! (`program.rs`), each beside what it computes; what a run forgets, and
//! when, is `forget.rs`. Every query returns its diagnostics as part of its
//! value, so a reused result brings its diagnostics with it.

use crate::index::ItemIndex;
use claim_syntax::{FileId, Parsed};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// One `.claim` file: its module path (`lib.wheels`, `std.oci`, `main`), its
/// text, and the id diagnostics use for it.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub module: String,
    /// Shared with the diagnostics' copy of the file.
    #[returns(ref)]
    pub text: Arc<str>,
    #[returns(copy)]
    pub file_id: FileId,
}

/// The whole program: every module reachable from the entries, by module
/// path, and which modules are entries (their witnesses run).
#[salsa::input(debug)]
pub struct Program {
    #[returns(ref)]
    pub modules: BTreeMap<String, SourceFile>,
    #[returns(ref)]
    pub entries: Vec<String>,
    /// Modules whose file exists but could not be read, with the reason;
    /// reported at the `use` that names them.
    #[returns(ref)]
    pub unreadable: BTreeMap<String, String>,
}

/// Whether a module path names the standard library (`std`, `std.…`).
pub fn is_std_module(module: &str) -> bool {
    module == "std" || module.starts_with("std.")
}

/// Durabilities, as rust-analyzer uses them: a module as read at load is
/// MEDIUM (the standard library, which never changes, HIGH), and a file
/// becomes LOW once edited. After an edit salsa then re-verifies only what
/// depends on edited files; what depends on MEDIUM and HIGH inputs alone
/// it knows unchanged without walking its dependencies (a fifth of a
/// re-check of 1,000 modules was that walk). Salsa reports a change with
/// the durability the input had, so the first edit of a MEDIUM file still
/// re-verifies everything once.
impl SourceFile {
    /// A module as read at load.
    pub fn loaded(db: &dyn Db, module: String, text: Arc<str>, file_id: FileId) -> SourceFile {
        let durability = if is_std_module(&module) { salsa::Durability::HIGH } else { salsa::Durability::MEDIUM };
        SourceFile::builder(module, text, file_id).durability(durability).new(db)
    }

    /// Sets an edited file's text: from now on it is LOW.
    pub fn edit(self, db: &mut dyn Db, text: Arc<str>) {
        use salsa::Setter;
        self.set_text(db).with_durability(salsa::Durability::LOW).to(text);
    }
}

impl Program {
    /// The program as loaded: its module map changes only when a run
    /// starts afresh.
    pub fn loaded(
        db: &dyn Db,
        modules: BTreeMap<String, SourceFile>,
        entries: Vec<String>,
        unreadable: BTreeMap<String, String>,
    ) -> Program {
        Program::builder(modules, entries, unreadable).durability(salsa::Durability::MEDIUM).new(db)
    }
}

#[salsa::db]
pub trait Db: salsa::Database {}

/// The database. With a log attached, it records which queries executed,
/// which is how tests show what an edit re-ran.
#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
}

/// Names of the queries that executed, in order, as `query(key)`.
pub type QueryLog = Arc<Mutex<Vec<String>>>;

impl Database {
    pub fn with_log() -> (Database, QueryLog) {
        let log: QueryLog = Arc::default();
        let sink = log.clone();
        let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                if let Ok(mut l) = sink.lock() {
                    l.push(format!("{database_key:?}"));
                }
            }
        })));
        (Database { storage }, log)
    }
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {}

/// Syntax trees are the largest thing a run holds and nothing needs them
/// once their module is checked: `claim_batch` evicts them then (see
/// `forget_syntax`). The capacity is practically unbounded: with none,
/// salsa would not record uses, and eviction would find nothing to drop.
///
/// Shared (`Arc`) so that a run evicting trees can take them out of the
/// database first and free them on its workers (`forget_syntax`).
#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // KEEP_ALL
pub fn parse(db: &dyn Db, file: SourceFile) -> Arc<Parsed> {
    Arc::new(claim_syntax::parse_module(file.text(db)))
}

/// How many syntax trees salsa keeps unless told otherwise: all of them.
pub(crate) const KEEP_ALL: usize = 1_000_000_000;

#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // KEEP_ALL
pub fn item_index(db: &dyn Db, file: SourceFile) -> Arc<ItemIndex> {
    Arc::new(ItemIndex::build(parse(db, file), file.file_id(db)))
}

/// The refusal codes every module knows without looking at other user
/// modules: the built-in ones and the standard library's. A module's check
/// resolves its codes against these and its own; any other it leaves to the
/// program-wide merge (`CheckedModule::unresolved_codes`). So a module's
/// check depends on no user module it does not import: an edit elsewhere
/// never makes salsa walk its dependencies again (the program-wide set
/// would have tied every module to every file).
#[salsa::tracked(returns(ref))]
pub fn std_refusal_codes(db: &dyn Db, program: Program) -> std::collections::BTreeSet<Arc<str>> {
    let mut codes: std::collections::BTreeSet<Arc<str>> =
        crate::builtins::BUILTIN_CODES.iter().map(|(c, _)| Arc::from(*c)).collect();
    for (module, file) in program.modules(db) {
        if is_std_module(module) {
            codes.extend(item_index(db, *file).refusals.iter().map(|r| r.0.clone()));
        }
    }
    codes
}

/// Every refusal code the program declares (names only, so that editing a
/// file elsewhere does not invalidate what reads them: completion).
#[salsa::tracked(returns(ref))]
pub fn refusal_codes(db: &dyn Db, program: Program) -> std::collections::BTreeSet<Arc<str>> {
    let mut codes: std::collections::BTreeSet<Arc<str>> =
        crate::builtins::BUILTIN_CODES.iter().map(|(c, _)| Arc::from(*c)).collect();
    for file in program.modules(db).values() {
        codes.extend(item_index(db, *file).refusals.iter().map(|r| r.0.clone()));
    }
    codes
}

/// How many item indexes salsa keeps (`forget.rs`).
pub(crate) fn keep_item_indexes(db: &mut dyn Db, n: usize) {
    item_index::set_lru_capacity(db, n);
}

/// How many syntax trees salsa keeps (`forget.rs`).
pub(crate) fn keep_trees(db: &mut dyn Db, n: usize) {
    parse::set_lru_capacity(db, n);
}
