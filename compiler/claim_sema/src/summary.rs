//! What the program-wide merge needs of one module, as its own query. An
//! edit re-checks one module; its summary is the only one recomputed, and
//! the merge that follows only joins summaries — the whole program is not
//! walked again, item by item, for each keystroke.

use crate::check::check_module;
use crate::db::{item_index, parse, Db, Program, SourceFile};
use crate::graph::NameGraph;
use crate::hir;
use crate::scope::module_scope;
use crate::sigs::module_sigs;
use crate::ty::{Edges, GlobalName, TypeInfo};
use claim_diagnostics::Diagnostic;
use claim_syntax::ast::ItemKind;
use claim_syntax::{FileId, Loc, Span};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ModuleSummary {
    pub file: FileId,
    /// Its module path, shared by the merged program's maps.
    pub module: Arc<str>,
    pub is_std: bool,
    pub hir: Arc<hir::Module>,
    /// Every diagnostic of the module's own queries (syntax, names,
    /// signatures, types).
    pub diagnostics: Vec<Diagnostic>,
    /// Its lints that need no other module (W0004, W0005; none for the
    /// standard library): reported where the program has no error.
    pub local_lints: Vec<Diagnostic>,
    /// The modules it `use`s, with where.
    pub imports: Vec<(String, Span)>,
    pub refused: Vec<Arc<str>>,
    /// Codes the module's check could not resolve by itself, with where.
    pub unresolved_codes: Vec<(Arc<str>, Span)>,
    /// Names of other modules that it reads (each once).
    pub reads_elsewhere: Vec<GlobalName>,
    /// Its facts and functions that nothing in the module reads: unread
    /// unless another module reads them (W0002).
    pub unread_here: Vec<GlobalName>,
    /// What reads what, with where, witnesses included (for the graph);
    /// `calls()` is the part between functions and facts.
    pub reads: Edges,
    /// Call cycles among its own functions and facts, each with where its
    /// first call is made. (A cycle through two modules needs an import
    /// cycle, which is an error of its own; the merge then looks at the
    /// whole call graph.)
    pub cycles: Vec<(Vec<GlobalName>, Option<Span>)>,
    pub refusals: Vec<hir::Refusal>,
    /// Witness and frontier names, where, and each name's hash (found
    /// once here, not on every merge: checking 31,000 names for
    /// uniqueness was an eighth of a re-check).
    pub witnesses: Vec<(Arc<str>, Span, u64)>,
    pub frontiers: Vec<(Arc<str>, Span, u64)>,
    pub types: Vec<TypeInfo>,
    /// Where the checker left an expression without a type, though the
    /// module reported no error of its own (`hir::first_untyped`).
    pub untyped: Option<Span>,
    /// Where its functions and facts are in `hir`, by name.
    pub functions: Arc<FxHashMap<Arc<str>, usize>>,
    pub facts: Arc<FxHashMap<Arc<str>, usize>>,
}

impl ModuleSummary {
    /// Calls and fact references between functions and facts, with where:
    /// nothing calls a witness or a frontier, so they close no cycle.
    pub fn calls(&self) -> impl Iterator<Item = &(Arc<GlobalName>, Arc<GlobalName>, Span)> {
        self.reads.iter().filter(|(from, _, _)| !is_witness_or_frontier(from))
    }
}

fn is_witness_or_frontier(n: &GlobalName) -> bool {
    n.name.starts_with("witness ") || n.name.starts_with("frontier ")
}

/// How many summaries salsa keeps (`forget.rs`).
pub(crate) fn keep_summaries(db: &mut dyn Db, n: usize) {
    module_summary::set_lru_capacity(db, n);
}

#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // crate::db::KEEP_ALL
pub fn module_summary(db: &dyn Db, program: Program, file: SourceFile) -> ModuleSummary {
    let fid = file.file_id(db);
    let module: &str = file.module(db);
    let parsed = parse(db, file);
    let mut diagnostics: Vec<Diagnostic> = parsed.errors.iter().map(|e| Diagnostic::from_syntax(fid, e)).collect();
    diagnostics.extend(item_index(db, file).diagnostics.iter().cloned());
    let scope = module_scope(db, program, file);
    diagnostics.extend(scope.diagnostics.iter().cloned());
    let sigs = module_sigs(db, program, file);
    diagnostics.extend(sigs.diagnostics.iter().cloned());
    let checked = check_module(db, program, file);
    diagnostics.extend(checked.diagnostics.iter().cloned());

    // At most the module's own facts and functions: sized once.
    let own = checked.hir.facts.len() + checked.hir.functions.len();
    let mut read_here: FxHashSet<&GlobalName> = FxHashSet::with_capacity_and_hasher(own, Default::default());
    let mut elsewhere: FxHashSet<&GlobalName> = FxHashSet::default();
    let mut graph: NameGraph<GlobalName> = NameGraph::default();
    for (from, to, _) in checked.edges.iter() {
        if &*to.module == module {
            read_here.insert(to);
        } else {
            elsewhere.insert(to);
        }
        // Nothing calls a witness or a frontier: they close no cycle, and
        // most edges are theirs.
        if !is_witness_or_frontier(from) && &*to.module == module {
            graph.edge(from, to);
        }
    }
    let cycles = graph
        .cycles()
        .into_iter()
        .map(|c| {
            let at = checked.edges.iter().find(|(f, t, _)| **f == c[0] && **t == c[1]).map(|e| e.2);
            (c, at)
        })
        .collect();
    let hir = checked.hir.clone();
    let unread_here = hir
        .facts
        .iter()
        .map(|f| &f.name)
        .chain(hir.functions.iter().map(|f| &f.name))
        .filter(|n| !read_here.contains(n))
        .cloned()
        .collect();
    let mut refusals = Vec::new();
    let mut witnesses = Vec::new();
    let mut frontiers = Vec::new();
    for item in &parsed.module.items {
        match &item.kind {
            ItemKind::Refusal { name, summary } => refusals.push(hir::Refusal {
                code: name.name.as_str().into(),
                summary: summary.as_str().into(),
                loc: Loc::new(fid, name.span),
            }),
            ItemKind::Witness { name, .. } => witnesses.push((name.name.as_str().into(), name.span, key(&name.name))),
            ItemKind::Frontier { name, .. } => frontiers.push((name.name.as_str().into(), name.span, key(&name.name))),
            _ => {}
        }
    }
    let functions = hir.functions.iter().enumerate().map(|(i, f)| (f.name.name.clone(), i)).collect();
    let facts = hir.facts.iter().enumerate().map(|(i, f)| (f.name.name.clone(), i)).collect();
    let is_std = crate::db::is_std_module(module);
    let untyped = if diagnostics.iter().any(Diagnostic::is_error) { None } else { hir::first_untyped(&hir) };
    ModuleSummary {
        file: fid,
        module: module.into(),
        is_std,
        diagnostics,
        local_lints: if is_std { Vec::new() } else { crate::lints::local_lints(&hir) },
        imports: scope.imports.iter().map(|(m, span)| (m.to_string(), *span)).collect(),
        refused: checked.refused.iter().cloned().collect(),
        unresolved_codes: checked.unresolved_codes.clone(),
        reads_elsewhere: elsewhere.into_iter().cloned().collect(),
        unread_here,
        reads: checked.edges.clone(),
        cycles,
        refusals,
        witnesses,
        frontiers,
        types: sigs.types.values().cloned().collect(),
        untyped,
        functions: Arc::new(functions),
        facts: Arc::new(facts),
        hir,
    }
}

/// The hash a program-wide name is checked for uniqueness by.
fn key(name: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(name)
}
