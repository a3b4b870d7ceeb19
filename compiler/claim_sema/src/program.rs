//! Compiling the whole program: every module's diagnostics, then the checks
//! that need all modules at once (import and call cycles, global names).

use crate::db::{check_module, item_index, module_scope, module_sigs, parse, Db, Program};
use crate::graph::NameGraph;
use crate::hir;
use crate::ty::{GlobalName, TypeInfo};
use claim_diagnostics::Diagnostic;
use claim_syntax::ast::ItemKind;
use claim_syntax::Loc;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Compiled {
    /// Checked modules by module path.
    pub modules: BTreeMap<String, Arc<hir::Module>>,
    /// Shared: every read of the world keeps it, to decode again on a change.
    pub types: Arc<BTreeMap<GlobalName, TypeInfo>>,
    pub refusals: BTreeMap<Arc<str>, hir::Refusal>,
    /// Where each function and fact is: `(module, position)`, built once so
    /// that evaluation never scans the program.
    pub functions: std::collections::HashMap<GlobalName, (String, usize)>,
    pub facts: std::collections::HashMap<GlobalName, (String, usize)>,
    /// What reads what: `(reader, read)`, readers being functions, facts,
    /// and witnesses and frontiers (named `witness w`, `frontier f`); in
    /// module order, possibly repeated (the graph sorts it).
    pub reads: Vec<(GlobalName, GlobalName)>,
    /// Every diagnostic, errors and warnings, sorted by location.
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    pub fn function(&self, name: &GlobalName) -> Option<&hir::Function> {
        let (m, i) = self.functions.get(name)?;
        self.modules.get(m)?.functions.get(*i)
    }

    pub fn fact(&self, name: &GlobalName) -> Option<&hir::Fact> {
        let (m, i) = self.facts.get(name)?;
        self.modules.get(m)?.facts.get(*i)
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

pub(crate) fn compile(db: &dyn Db, program: Program) -> Compiled {
    let mut out = Compiled::default();
    let mut diags = Vec::new();
    let mut imports: NameGraph<String> = NameGraph::default();
    let mut use_sites: std::collections::HashMap<(String, String), Loc> = Default::default();
    let mut calls: NameGraph<GlobalName> = NameGraph::default();
    let mut witnesses: BTreeMap<Arc<str>, Loc> = BTreeMap::new();
    let mut read: std::collections::HashSet<GlobalName> = Default::default();
    let mut refused: std::collections::BTreeSet<Arc<str>> = Default::default();
    let mut std_files: std::collections::BTreeSet<claim_syntax::FileId> = Default::default();
    let mut frontiers: BTreeMap<Arc<str>, Loc> = BTreeMap::new();
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

    for (name, file) in program.modules(db) {
        let file = *file;
        let fid = file.file_id(db);
        let parsed = parse(db, file);
        diags.extend(parsed.errors.iter().map(|e| Diagnostic::from_syntax(fid, e)));
        diags.extend(item_index(db, file).diagnostics.iter().cloned());
        let scope = module_scope(db, program, file);
        diags.extend(scope.diagnostics.iter().cloned());
        let sigs = module_sigs(db, program, file);
        diags.extend(sigs.diagnostics.iter().cloned());
        let checked = check_module(db, program, file);
        diags.extend(checked.diagnostics.iter().cloned());

        imports.node(name);
        for (target, span) in &scope.imports {
            imports.edge(name, &target.to_string());
            use_sites.entry((name.clone(), target.to_string())).or_insert(Loc::new(fid, *span));
        }
        if name.starts_with("std.") {
            std_files.insert(fid);
        }
        refused.extend(checked.refused.iter().cloned());
        for (from, to, _) in &checked.edges {
            read.insert(to.clone());
            // Nothing calls a witness or a frontier: they close no cycle,
            // and most edges are theirs.
            if !is_witness_or_frontier(from) {
                calls.edge(from, to);
            }
        }
        out.reads.extend(checked.edges.iter().map(|(from, to, _)| (from.clone(), to.clone())));
        for t in sigs.types.values() {
            Arc::make_mut(&mut out.types).insert(t.name.clone(), t.clone());
        }
        for item in &parsed.module.items {
            match &item.kind {
                ItemKind::Refusal { name, summary } => {
                    let code: Arc<str> = name.name.as_str().into();
                    let loc = Loc::new(fid, name.span);
                    if let Some(prev) = out.refusals.get(&code) {
                        let mut d = Diagnostic::error("E0213", format!("refusal code `{code}` is declared twice"))
                            .at_loc(loc, "declared again here")
                            .with_note("refusal codes are global: one code names one refusal in the whole program");
                        if prev.loc.file.0 == u32::MAX {
                            d = d.with_help(format!("`{code}` is a built-in code; use it without declaring it"));
                        } else {
                            d = d.with_secondary(prev.loc, "first declared here");
                        }
                        diags.push(d);
                        continue;
                    }
                    out.refusals.insert(code.clone(), hir::Refusal { code, summary: summary.as_str().into(), loc });
                }
                ItemKind::Witness { name, .. } => unique(&mut witnesses, &mut diags, name, fid, "E0214", "witness"),
                ItemKind::Frontier { name, .. } => unique(&mut frontiers, &mut diags, name, fid, "E0221", "frontier"),
                _ => {}
            }
        }
        for (i, f) in checked.hir.functions.iter().enumerate() {
            out.functions.insert(f.name.clone(), (name.clone(), i));
        }
        for (i, f) in checked.hir.facts.iter().enumerate() {
            out.facts.insert(f.name.clone(), (name.clone(), i));
        }
        out.modules.insert(name.clone(), checked.hir.clone());
    }

    for cycle in imports.cycles() {
        let loc = use_sites.get(&(cycle[0].clone(), cycle[1].clone())).copied();
        let path = cycle.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(" → ");
        let mut d = Diagnostic::error("E0102", format!("import cycle: {path}"))
            .with_help("move what these modules share into a module that none of them imports");
        if let Some(loc) = loc {
            d = d.at_loc(loc, "this `use` closes the cycle");
        }
        diags.push(d);
    }
    for cycle in calls.cycles() {
        // Where the first call of the cycle is made: looked up only for a
        // cycle, rather than remembered for every call.
        let loc = program.modules(db).values().find_map(|file| {
            let edges = &check_module(db, program, *file).edges;
            let (_, _, span) = edges.iter().find(|(from, to, _)| *from == cycle[0] && *to == cycle[1])?;
            Some(Loc::new(file.file_id(db), *span))
        });
        let path = cycle.iter().map(|m| format!("`{}`", m.name)).collect::<Vec<_>>().join(" → ");
        let mut d = Diagnostic::error("E0215", format!("recursion is not allowed: {path}"))
            .with_note("the call graph of functions and facts must be acyclic, so every program terminates")
            .with_help("compute over a list with a comprehension, `all`, `any`, `sum` or `count` instead");
        if let Some(loc) = loc {
            d = d.at_loc(loc, "this call closes the cycle");
        }
        diags.push(d);
    }
    // Lints speak about programs that compile; beside errors they are noise.
    if !diags.iter().any(Diagnostic::is_error) {
        diags.extend(crate::lints::lints(&out.modules, &read, &refused, &out.refusals, &std_files));
    }
    diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diags.dedup();
    out.diagnostics = diags;
    out
}

fn is_witness_or_frontier(n: &GlobalName) -> bool {
    n.name.starts_with("witness ") || n.name.starts_with("frontier ")
}

fn unique(
    seen: &mut BTreeMap<Arc<str>, Loc>,
    diags: &mut Vec<Diagnostic>,
    name: &claim_syntax::ast::Ident,
    fid: claim_syntax::FileId,
    code: &'static str,
    what: &str,
) {
    let key: Arc<str> = name.name.as_str().into();
    let loc = Loc::new(fid, name.span);
    match seen.get(&key) {
        Some(prev) => diags.push(
            Diagnostic::error(code, format!("{what} `{key}` is declared twice"))
                .at_loc(loc, "declared again here")
                .with_secondary(*prev, "first declared here")
                .with_note(format!("{what} names are unique in the whole program")),
        ),
        None => {
            seen.insert(key, loc);
        }
    }
}
