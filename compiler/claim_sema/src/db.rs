//! The salsa database: inputs (source files and the program's module map)
//! and the tracked queries, layered parse → index → scope → signatures →
//! check → compile. Every query returns its diagnostics as part of its
//! value, so a reused result brings its diagnostics with it.

use crate::hir;
use crate::index::ItemIndex;
use crate::scope::Scope;
use crate::sigs::ModuleSigs;
use claim_diagnostics::Diagnostic;
use claim_syntax::{FileId, Parsed, Span};
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

/// Drops the syntax trees the database holds, but those of `keep`; a later
/// `parse` of a dropped module parses it again. For a run that has checked
/// every module but `keep`: checking in parts and dropping as it goes, a
/// run never holds every tree and every checked module at once.
///
/// The trees of `hand_back` (modules whose trees the database holds, such
/// as those just checked) are not freed but returned: freeing a tree is
/// most of the cost of forgetting it, and salsa frees on the one thread
/// that holds the database mutably, while the caller can free them on its
/// workers during the next part of its work. Any other tree evicted is
/// freed here.
pub fn forget_syntax(db: &mut dyn Db, keep: &[SourceFile], hand_back: &[SourceFile]) -> Vec<Arc<Parsed>> {
    let handed: Vec<Arc<Parsed>> = hand_back.iter().map(|f| parse(db, *f).clone()).collect();
    // Salsa drops the least recently used: use the ones to keep last.
    for f in keep {
        parse(db, *f);
    }
    parse::set_lru_capacity(db, keep.len().max(1));
    db.trigger_lru_eviction();
    parse::set_lru_capacity(db, KEEP_ALL);
    handed
}

/// `forget_checking` for a run checking in parts, after each: keeps the
/// item indexes, scopes and signatures of `keep` (the modules others
/// import, whose signatures the rest of the check reads) and drops every
/// other's, and every checked result (its summary shares what the merge
/// needs). Nothing it drops changes an answer; a module not yet checked
/// builds its index again from its tree.
pub fn forget_checking_except(db: &mut dyn Db, program: Program, keep: &[SourceFile]) {
    // Salsa drops the least recently used: use the ones to keep last.
    for f in keep {
        item_index(db, *f);
        module_scope(db, program, *f);
        module_sigs(db, program, *f);
    }
    evict_checking(db, keep.len());
}

/// What checking a module kept on the way to its summary (its item index,
/// scope, signatures and checked result), held outside the database.
/// Salsa frees what it forgets on the one thread that holds the database
/// mutably, between a run's parts of checking, while the other threads
/// wait; a worker that holds these while it is forgotten is left the last
/// reference, and frees them itself, in its next part, beside the check
/// (as the trees are freed, `forget_syntax`).
pub struct CheckingMemos {
    _held: (Arc<ItemIndex>, Arc<Scope>, Arc<ModuleSigs>, Arc<CheckedModule>),
}

/// [`CheckingMemos`] of a module whose summary was just made.
pub fn checking_memos(db: &dyn Db, program: Program, file: SourceFile) -> CheckingMemos {
    CheckingMemos {
        _held: (
            item_index(db, file).clone(),
            module_scope(db, program, file).clone(),
            module_sigs(db, program, file).clone(),
            check_module(db, program, file).clone(),
        ),
    }
}

/// Drops what checking each module kept on the way to its summary (item
/// indexes, scopes, signatures, checked results): once every summary is
/// made, the merge reads only them, and the summaries share the checked
/// modules. (A query asked again after this is computed again: dropping
/// never changes an answer.)
pub fn forget_checking(db: &mut dyn Db) {
    evict_checking(db, 0);
}

/// Keeps the `keep` most recently used indexes, scopes and signatures (and
/// one of each, however few: an LRU capacity of 0 means "unbounded" to
/// salsa) and one checked result; drops the rest.
fn evict_checking(db: &mut dyn Db, keep: usize) {
    let n = keep.max(1);
    item_index::set_lru_capacity(db, n);
    module_scope::set_lru_capacity(db, n);
    module_sigs::set_lru_capacity(db, n);
    check_module::set_lru_capacity(db, 1);
    db.trigger_lru_eviction();
    item_index::set_lru_capacity(db, KEEP_ALL);
    module_scope::set_lru_capacity(db, KEEP_ALL);
    module_sigs::set_lru_capacity(db, KEEP_ALL);
    check_module::set_lru_capacity(db, KEEP_ALL);
}

/// Drops the modules' summaries, for a run that has merged them and will
/// not check again: the merged program shares what it needs of them.
pub fn forget_summaries(db: &mut dyn Db) {
    crate::summary::keep_summaries(db, 1);
    db.trigger_lru_eviction();
    crate::summary::keep_summaries(db, KEEP_ALL);
}

#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // KEEP_ALL
pub fn item_index(db: &dyn Db, file: SourceFile) -> Arc<ItemIndex> {
    Arc::new(ItemIndex::build(parse(db, file), file.file_id(db)))
}

#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // KEEP_ALL
pub fn module_scope(db: &dyn Db, program: Program, file: SourceFile) -> Arc<Scope> {
    Arc::new(Scope::build(db, program, file))
}

#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // KEEP_ALL
pub fn module_sigs(db: &dyn Db, program: Program, file: SourceFile) -> Arc<ModuleSigs> {
    Arc::new(ModuleSigs::build(db, program, file))
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

/// One module, type-checked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CheckedModule {
    pub hir: Arc<hir::Module>,
    /// Calls and fact references, `(from, to, where)`, each pair once.
    /// Shared with the module's summary and the checked program.
    pub edges: crate::ty::Edges,
    /// Refusal codes the module refuses with.
    pub refused: std::collections::BTreeSet<Arc<str>>,
    /// Codes it names that neither it, the standard library nor the
    /// built-ins declare, with where: the merge looks them up among every
    /// module's (`E0212` if none declares them).
    pub unresolved_codes: Vec<(Arc<str>, Span)>,
    pub diagnostics: Vec<Diagnostic>,
}

#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // KEEP_ALL
pub fn check_module(db: &dyn Db, program: Program, file: SourceFile) -> Arc<CheckedModule> {
    Arc::new(crate::check::check_module(db, program, file))
}

#[salsa::tracked(returns(ref))]
pub fn compile(db: &dyn Db, program: Program) -> crate::program::Compiled {
    crate::program::compile(db, program)
}
