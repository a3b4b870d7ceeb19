//! The program-wide checks that need only names: import cycles, witness
//! and frontier names declared twice, facts and functions nothing reads
//! (W0002), codes never refused (W0003). Each module's names are their own
//! query, without positions, so an edit that changes no name — most edits,
//! typing inside a body, even where it shifts every position after it —
//! leaves them equal; salsa then reuses the program-wide answer instead of
//! joining 31,000 names again (a fifth of a re-check of 1,000 modules was
//! that join). The merge (`program.rs`) looks positions up only for what
//! these answers name: usually nothing.

use crate::db::{Db, Program, SourceFile};
use crate::graph::NameGraph;
use crate::summary::module_summary;
use crate::ty::GlobalName;
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// A module's names, as the program-wide checks read them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ModuleNames {
    pub is_std: bool,
    /// The modules it `use`s.
    pub imports: Vec<String>,
    /// The hashes of its witness and of its frontier names
    /// (`summary::key`).
    pub witness_keys: Vec<u64>,
    pub frontier_keys: Vec<u64>,
    /// The refusal codes it declares, and those it refuses with.
    pub declared_codes: Vec<Arc<str>>,
    pub refused: Vec<Arc<str>>,
    /// Names of other modules it reads (outside the standard library),
    /// and its own facts and functions that nothing in it reads.
    pub reads_elsewhere: Vec<GlobalName>,
    pub unread_here: Vec<GlobalName>,
}

#[salsa::tracked(returns(ref))]
pub fn module_names(db: &dyn Db, program: Program, file: SourceFile) -> ModuleNames {
    let s = module_summary(db, program, file);
    ModuleNames {
        is_std: s.is_std,
        imports: s.imports.iter().map(|(m, _)| m.clone()).collect(),
        witness_keys: s.witnesses.iter().map(|w| w.2).collect(),
        frontier_keys: s.frontiers.iter().map(|f| f.2).collect(),
        declared_codes: s.refusals.iter().map(|r| r.code.clone()).collect(),
        refused: s.refused.clone(),
        // Only names outside the standard library are ever asked about
        // (`program_names`' unread facts and functions): a program's
        // modules read a few of its functions each, thousands in all.
        reads_elsewhere: s.reads_elsewhere.iter().filter(|g| !crate::db::is_std_module(&g.module)).cloned().collect(),
        unread_here: s.unread_here.clone(),
    }
}

/// Whether any key of the modules' lists comes twice: one pass through a
/// set sized once (the merge is serial, and sorting a large program's tens
/// of thousands of witness keys to compare neighbours was a third of it).
fn repeats<'k>(lists: impl Iterator<Item = &'k [u64]> + Clone) -> bool {
    let n = lists.clone().map(<[u64]>::len).sum();
    let mut seen: FxHashSet<u64> = FxHashSet::with_capacity_and_hasher(n, Default::default());
    lists.flatten().any(|k| !seen.insert(*k))
}

/// What the program-wide checks found, by name only.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ProgramNames {
    /// Each import cycle, as `graph::NameGraph::cycles` gives it.
    pub import_cycles: Vec<Vec<String>>,
    /// Whether two witnesses, or two frontiers, have names of one hash:
    /// then the merge compares the names themselves, and says where.
    pub names_repeat: bool,
    /// Facts and functions of modules outside the standard library that
    /// nothing in the program reads, in module order.
    pub unread: Vec<GlobalName>,
    /// Codes declared outside the standard library that nothing refuses
    /// with.
    pub never_refused: Vec<Arc<str>>,
}

#[salsa::tracked(returns(ref))]
pub fn program_names(db: &dyn Db, program: Program) -> ProgramNames {
    let all: Vec<(&String, &ModuleNames)> =
        program.modules(db).iter().map(|(name, file)| (name, module_names(db, program, *file))).collect();
    let mut imports: NameGraph<String> = NameGraph::default();
    for (name, m) in &all {
        imports.node(name);
        for target in &m.imports {
            imports.edge(name, target);
        }
    }
    let witnesses = all.iter().map(|(_, m)| &m.witness_keys[..]);
    let frontiers = all.iter().map(|(_, m)| &m.frontier_keys[..]);
    let read_elsewhere: FxHashSet<&GlobalName> = all.iter().flat_map(|(_, m)| m.reads_elsewhere.iter()).collect();
    let refused: FxHashSet<&Arc<str>> = all.iter().flat_map(|(_, m)| m.refused.iter()).collect();
    let mut declared_in_std: FxHashSet<&Arc<str>> = FxHashSet::default();
    for (_, m) in all.iter().filter(|(_, m)| m.is_std) {
        declared_in_std.extend(m.declared_codes.iter());
    }
    let mut never_refused: Vec<Arc<str>> = Vec::new();
    let mut unread = Vec::new();
    for (_, m) in all.iter().filter(|(_, m)| !m.is_std) {
        unread.extend(m.unread_here.iter().filter(|n| !read_elsewhere.contains(n)).cloned());
        never_refused
            .extend(m.declared_codes.iter().filter(|c| !refused.contains(c) && !declared_in_std.contains(c)).cloned());
    }
    never_refused.sort();
    never_refused.dedup();
    ProgramNames {
        import_cycles: imports.cycles(),
        names_repeat: repeats(witnesses) || repeats(frontiers),
        unread,
        never_refused,
    }
}
