//! Compiling the whole program: every module's diagnostics, then the checks
//! that need all modules at once (import and call cycles, global names).
//! Each module is summarised by its own query (`summary.rs`); this merge
//! only joins the summaries, so an edit to one module costs one summary and
//! a pass over the others' few program-wide facts.

use crate::db::{Db, Program};
use crate::graph::NameGraph;
use crate::hir;
use crate::summary::module_summary;
use crate::ty::{GlobalName, TypeInfo};
use claim_diagnostics::Diagnostic;
use claim_syntax::Loc;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// A module's items by name, for lookups during evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Items {
    hir: Arc<hir::Module>,
    facts: Arc<FxHashMap<Arc<str>, usize>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Compiled {
    /// Checked modules by module path.
    pub modules: BTreeMap<String, Arc<hir::Module>>,
    /// Shared: every read of the world keeps it, to decode again on a change.
    /// By name, hashed: decoding a receipt looks up each named type it
    /// meets (a sorted map compared names as text).
    pub types: Arc<FxHashMap<GlobalName, TypeInfo>>,
    pub refusals: BTreeMap<Arc<str>, hir::Refusal>,
    /// Where each function and fact is, built once so that evaluation
    /// never scans the program.
    items: FxHashMap<Arc<str>, Items>,
    /// Each function by its program-wide name: a call looks it up with the
    /// hash its name carries, and a reference that shares the declaration's
    /// texts compares by address (the lookup by module, then by name, hashed
    /// and compared both texts at every call).
    functions: FxHashMap<GlobalName, (Arc<hir::Module>, usize)>,
    /// What reads what: `(reader, read)`, readers being functions, facts,
    /// and witnesses and frontiers (named `witness w`, `frontier f`); per
    /// module, in module order, possibly repeated (the graph sorts it).
    pub reads: Vec<crate::ty::Edges>,
    /// Every diagnostic, errors and warnings, sorted by location.
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    pub fn function(&self, name: &GlobalName) -> Option<&hir::Function> {
        let (hir, i) = self.functions.get(name)?;
        hir.functions.get(*i)
    }

    pub fn fact(&self, name: &GlobalName) -> Option<&hir::Fact> {
        let m = self.items.get(&*name.module)?;
        m.hir.facts.get(*m.facts.get(&*name.name)?)
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

fn compile_program(db: &dyn Db, program: Program) -> Compiled {
    let mut out = Compiled::default();
    let mut diags = Vec::new();
    let mut cycles: Vec<(Vec<GlobalName>, Option<Loc>)> = Vec::new();
    for (code, summary) in crate::builtins::BUILTIN_CODES {
        out.refusals.insert(
            Arc::from(*code),
            hir::Refusal {
                code: Arc::from(*code),
                summary: Arc::from(*summary),
                loc: Loc::new(claim_syntax::FileId(u32::MAX), Default::default()),
            },
        );
    }
    let mut types = FxHashMap::default();
    let summaries: Vec<(&String, &crate::summary::ModuleSummary)> =
        program.modules(db).iter().map(|(name, file)| (name, module_summary(db, program, *file))).collect();
    // What needs names only is answered by its own query, usually reused
    // as it was (`names.rs`); positions are looked up for what it finds.
    let names = crate::names::program_names(db, program);
    out.items.reserve(summaries.len());
    out.reads.reserve(summaries.len());
    for (name, sum) in &summaries {
        let fid = sum.file;
        diags.extend(sum.diagnostics.iter().cloned());
        cycles.extend(sum.cycles.iter().map(|(c, at)| (c.clone(), at.map(|s| Loc::new(fid, s)))));
        for t in &sum.types {
            types.insert(t.name.clone(), t.clone());
        }
        for r in &sum.refusals {
            if let Some(prev) = out.refusals.get(&r.code) {
                let code = &r.code;
                let mut d = Diagnostic::error("E0213", format!("refusal code `{code}` is declared twice"))
                    .at_loc(r.loc, "declared again here")
                    .with_note("refusal codes are global: one code names one refusal in the whole program");
                if prev.loc.file.0 == u32::MAX {
                    d = d.with_help(format!("`{code}` is a built-in code; use it without declaring it"));
                } else {
                    d = d.with_secondary(prev.loc, "first declared here");
                }
                diags.push(d);
                continue;
            }
            out.refusals.insert(r.code.clone(), r.clone());
        }
        // The summary's copy of the name, where it is the map's (a file
        // shared by two projects may be two modules).
        let module = if *sum.module == ***name { sum.module.clone() } else { Arc::from(name.as_str()) };
        for (f, i) in sum.functions.iter() {
            out.functions.insert(GlobalName::of(module.clone(), f.clone()), (sum.hir.clone(), *i));
        }
        out.items.insert(module, Items { hir: sum.hir.clone(), facts: sum.facts.clone() });
        out.reads.push(sum.reads.clone());
    }
    // Built at once from the sorted module map, not name by name.
    out.modules = summaries.iter().map(|(name, sum)| ((*name).clone(), sum.hir.clone())).collect();
    out.types = Arc::new(types);
    // Codes a module named but could not resolve alone: declared in
    // another module, or nowhere.
    for (_, sum) in &summaries {
        for (code, span) in &sum.unresolved_codes {
            if !out.refusals.contains_key(code) {
                diags.push(undeclared_code(code, Loc::new(sum.file, *span), &out.refusals));
            }
        }
    }
    if names.names_repeat {
        diags.extend(names_declared_twice(&summaries));
    }

    for cycle in &names.import_cycles {
        // The summaries are in module order.
        let at = summaries.binary_search_by(|(name, _)| name.as_str().cmp(cycle[0].as_str())).ok();
        let loc = at.and_then(|i| summaries.get(i)).and_then(|(_, s)| {
            let (_, span) = s.imports.iter().find(|(target, _)| *target == cycle[1])?;
            Some(Loc::new(s.file, *span))
        });
        let path = cycle.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(" → ");
        let mut d = Diagnostic::error("E0102", format!("import cycle: {path}"))
            .with_help("move what these modules share into a module that none of them imports");
        if let Some(loc) = loc {
            d = d.at_loc(loc, "this `use` closes the cycle");
        }
        diags.push(d);
    }
    if !names.import_cycles.is_empty() {
        // Calls may then go round through several modules: the whole call
        // graph it is.
        cycles = whole_call_graph_cycles(&summaries);
    }
    cycles.sort();
    for (cycle, loc) in cycles {
        let path = cycle.iter().map(|m| format!("`{}`", m.name)).collect::<Vec<_>>().join(" → ");
        let mut d = Diagnostic::error("E0215", format!("recursion is not allowed: {path}"))
            .with_note("the call graph of functions and facts must be acyclic, so every program terminates")
            .with_help("compute over a list with a comprehension, `all`, `any`, `sum` or `count` instead");
        if let Some(loc) = loc {
            d = d.at_loc(loc, "this call closes the cycle");
        }
        diags.push(d);
    }
    // Fail closed on the checker's own bugs: an expression left without a
    // type in a program with no error would run as if it had one.
    if !diags.iter().any(Diagnostic::is_error) {
        for (_, sum) in &summaries {
            if let Some(span) = sum.untyped {
                diags.push(
                    Diagnostic::error("E0999", "internal compiler error: an expression was left without a type")
                        .at_loc(Loc::new(sum.file, span), "the checker could not type this, and reported nothing")
                        .with_note("this is a bug in Claim; nothing runs. Please report it with this program"),
                );
            }
        }
    }
    // Lints speak about programs that compile; beside errors they are noise.
    if !diags.iter().any(Diagnostic::is_error) {
        for (_, sum) in &summaries {
            diags.extend(sum.local_lints.iter().cloned());
        }
        // Each found by its module's index of names: a file of half a
        // million unread facts must not be searched once per fact.
        for name in names.unread.iter().filter(|n| !n.name.starts_with('_')) {
            if let Some(f) = out.fact(name) {
                diags.push(crate::lints::unread_fact(f));
            } else if let Some(f) = out.function(name) {
                diags.push(crate::lints::unread_function(f));
            }
        }
        diags.extend(names.never_refused.iter().filter_map(|c| out.refusals.get(c)).map(crate::lints::never_refused));
    }
    diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diags.dedup();
    out.diagnostics = diags;
    out
}

/// E0214 and E0221: witness and frontier names declared twice, where
/// `names::program_names` found two of one hash.
fn names_declared_twice(summaries: &[(&String, &crate::summary::ModuleSummary)]) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut witnesses = Unique::default();
    let mut frontiers = Unique::default();
    witnesses.reserve(summaries.iter().map(|(_, s)| s.witnesses.len()).sum());
    for (_, sum) in summaries {
        for (w, span, key) in &sum.witnesses {
            witnesses.check(&mut diags, w, *key, Loc::new(sum.file, *span), "E0214", "witness");
        }
        for (f, span, key) in &sum.frontiers {
            frontiers.check(&mut diags, f, *key, Loc::new(sum.file, *span), "E0221", "frontier");
        }
    }
    diags
}

/// A refusal code no module declares, with a close one if there is.
fn undeclared_code(code: &str, at: Loc, declared: &BTreeMap<Arc<str>, hir::Refusal>) -> Diagnostic {
    let d = Diagnostic::error("E0212", format!("undeclared refusal code `{code}`"))
        .at_loc(at, "no `refusal` declares this code");
    match claim_diagnostics::did_you_mean(code, declared.keys().map(|c| &**c)) {
        Some(close) => d.with_suggestion(close),
        None => d.with_help(format!("declare it: `refusal {code} \"what it means\"`")),
    }
}

/// Call cycles over the whole program, each with where its first call is.
fn whole_call_graph_cycles(
    summaries: &[(&String, &crate::summary::ModuleSummary)],
) -> Vec<(Vec<GlobalName>, Option<Loc>)> {
    let mut calls: NameGraph<GlobalName> = NameGraph::default();
    for (_, s) in summaries {
        for (from, to, _) in s.calls() {
            calls.edge(from, to);
        }
    }
    calls
        .cycles()
        .into_iter()
        .map(|c| {
            let at = summaries.iter().find_map(|(_, s)| {
                let (_, _, span) = s.calls().find(|(f, t, _)| **f == c[0] && **t == c[1])?;
                Some(Loc::new(s.file, *span))
            });
            (c, at)
        })
        .collect()
}

/// Names seen so far, by the hash their module's summary found for them
/// (`summary::key`): a merge hashes no text. Two different names with one
/// hash are kept apart in `collided`, compared by text.
#[derive(Default)]
struct Unique<'a> {
    /// Each hash's first name, as an index into `names`: the table is
    /// probed once per name of the program, and small entries keep it in
    /// cache.
    by_key: HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
    names: Vec<(&'a Arc<str>, Loc)>,
    collided: FxHashMap<&'a Arc<str>, Loc>,
}

impl<'a> Unique<'a> {
    fn reserve(&mut self, n: usize) {
        self.by_key.reserve(n);
        self.names.reserve(n);
    }

    fn check(
        &mut self,
        diags: &mut Vec<Diagnostic>,
        name: &'a Arc<str>,
        key: u64,
        loc: Loc,
        code: &'static str,
        what: &str,
    ) {
        let first = match self.by_key.entry(key) {
            Entry::Vacant(v) => {
                v.insert(u32::try_from(self.names.len()).unwrap_or(u32::MAX));
                self.names.push((name, loc));
                return;
            }
            Entry::Occupied(o) => match self.names.get(*o.get() as usize) {
                Some((seen, at)) if *seen == name => *at,
                _ => match self.collided.entry(name) {
                    Entry::Vacant(v) => {
                        v.insert(loc);
                        return;
                    }
                    Entry::Occupied(o) => *o.get(),
                },
            },
        };
        diags.push(
            Diagnostic::error(code, format!("{what} `{name}` is declared twice"))
                .at_loc(loc, "declared again here")
                .with_secondary(first, "first declared here")
                .with_note(format!("{what} names are unique in the whole program")),
        );
    }
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed with it; this is for completeness.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two different names with one hash are both kept, and a second
    /// declaration of either is still found.
    #[test]
    fn names_that_share_a_hash_are_told_apart() {
        let (a, b): (Arc<str>, Arc<str>) = ("a".into(), "b".into());
        let loc = Loc::new(claim_syntax::FileId(0), Default::default());
        let mut seen = Unique::default();
        let mut diags = Vec::new();
        seen.check(&mut diags, &a, 7, loc, "E0214", "witness");
        seen.check(&mut diags, &b, 7, loc, "E0214", "witness");
        assert!(diags.is_empty(), "{diags:?}");
        seen.check(&mut diags, &b, 7, loc, "E0214", "witness");
        seen.check(&mut diags, &a, 7, loc, "E0214", "witness");
        let said: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(said, ["witness `b` is declared twice", "witness `a` is declared twice"]);
    }
}

#[salsa::tracked(returns(ref))]
pub fn compile(db: &dyn Db, program: Program) -> Compiled {
    compile_program(db, program)
}
