//! Lints: claims that prove less than they seem to. Warnings with codes;
//! `--deny-warnings` makes them fail the run. The standard library is
//! exempt (it is read by the programs that use it, not by itself).
//!
//! - W0002 a fact or function that nothing reads ("result has no reader")
//! - W0003 a refusal code declared and never refused
//! - W0004 a witness whose every statement is `holds true` (proves nothing)
//! - W0005 a frontier without `dissolves when` (may stay open forever)

use crate::hir::{self, ExprKind, Lit, WitnessStmtKind};
use crate::ty::GlobalName;
use claim_diagnostics::Diagnostic;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

fn is_std(module: &str) -> bool {
    module == "std" || module.starts_with("std.")
}

pub(crate) fn lints(
    modules: &BTreeMap<String, Arc<hir::Module>>,
    unread: &rustc_hash::FxHashSet<&GlobalName>,
    refused: &BTreeSet<Arc<str>>,
    refusals: &BTreeMap<Arc<str>, hir::Refusal>,
    std_files: &BTreeSet<claim_syntax::FileId>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // The modules that have an unread name: the others' facts and
    // functions are not looked up (once per fact on every re-check, that
    // was a twentieth of it).
    let has_unread: rustc_hash::FxHashSet<&str> = unread.iter().map(|n| &*n.module).collect();
    for (name, m) in modules.iter().filter(|(n, _)| !is_std(n)) {
        let here = has_unread.contains(name.as_str());
        let unread = |n: &GlobalName| here && unread.contains(n);
        for f in &m.facts {
            if unread(&f.name) && !f.name.name.starts_with('_') {
                out.push(
                    Diagnostic::warning("W0002", format!("fact `{}` has no reader", f.name.name))
                        .at_loc(f.loc, "nothing reads this fact")
                        .with_note("a fact is still evaluated, so broken data fails closed; but no witness, frontier, fact or function uses it")
                        .with_help(format!("read it in a witness, or remove it; a name starting with `_` (`_{}`) says it is kept on purpose", f.name.name)),
                );
            }
        }
        for f in &m.functions {
            if unread(&f.name) && !f.name.name.starts_with('_') {
                out.push(
                    Diagnostic::warning("W0002", format!("function `{}` has no reader", f.name.name))
                        .at_loc(f.loc, "nothing calls this function")
                        .with_help("call it from a witness, or remove it"),
                );
            }
        }
        for w in &m.witnesses {
            let trivially_true = !w.stmts.is_empty()
                && w.stmts.iter().all(|s| {
                    matches!(&s.kind, WitnessStmtKind::Holds(hir::Expr { kind: ExprKind::Lit(Lit::Bool(true)), .. }))
                });
            if trivially_true {
                out.push(
                    Diagnostic::warning("W0004", format!("witness `{}` proves nothing", w.name))
                        .at_loc(w.loc, "every statement is `holds true`")
                        .with_help("state what must hold about the facts, or remove the witness"),
                );
            }
        }
        for f in &m.frontiers {
            if f.condition.is_none() {
                out.push(
                    Diagnostic::warning("W0005", format!("frontier `{}` has no `dissolves when`", f.name))
                        .at_loc(f.loc, "may stay open forever")
                        .with_help("say what would close the gap: `dissolves when <condition on the facts>`, so the run fails when it has closed"),
                );
            }
        }
    }
    for r in refusals.values() {
        let builtin = r.loc.file.0 == u32::MAX;
        if !builtin && !std_files.contains(&r.loc.file) && !refused.contains(&r.code) {
            out.push(
                Diagnostic::warning("W0003", format!("refusal code `{}` is never refused", r.code))
                    .at_loc(r.loc, "declared here, but no `refuse` uses it")
                    .with_help("refuse with it where the standing cannot be derived, or remove it"),
            );
        }
    }
    out
}
