//! Lints: claims that prove less than they seem to. Warnings with codes;
//! `--deny-warnings` makes them fail the run. The standard library is
//! exempt (it is read by the programs that use it, not by itself).
//!
//! - W0002 a fact or function that nothing reads ("result has no reader")
//! - W0003 a refusal code declared and never refused
//! - W0004 a witness whose every statement is `holds true` (proves nothing)
//! - W0005 a frontier without `dissolves when` (may stay open forever)

use crate::hir::{self, ExprKind, Lit, WitnessStmtKind};
use claim_diagnostics::Diagnostic;

/// W0004 and W0005: what one module's witnesses and frontiers say, found
/// with its summary (they need no other module).
pub(crate) fn local_lints(m: &hir::Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
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
    out
}

/// W0002 for a fact nothing reads (`names::ProgramNames::unread`; a name
/// starting with `_` is kept on purpose and not reported).
pub(crate) fn unread_fact(f: &hir::Fact) -> Diagnostic {
    Diagnostic::warning("W0002", format!("fact `{}` has no reader", f.name.name))
        .at_loc(f.loc, "nothing reads this fact")
        .with_note("a fact is still evaluated, so broken data fails closed; but no witness, frontier, fact or function uses it")
        .with_help(format!("read it in a witness, or remove it; a name starting with `_` (`_{}`) says it is kept on purpose", f.name.name))
}

/// W0002 for a function nothing calls.
pub(crate) fn unread_function(f: &hir::Function) -> Diagnostic {
    Diagnostic::warning("W0002", format!("function `{}` has no reader", f.name.name))
        .at_loc(f.loc, "nothing calls this function")
        .with_help("call it from a witness, or remove it")
}

/// W0003 for a code declared and never refused with.
pub(crate) fn never_refused(r: &hir::Refusal) -> Diagnostic {
    Diagnostic::warning("W0003", format!("refusal code `{}` is never refused", r.code))
        .at_loc(r.loc, "declared here, but no `refuse` uses it")
        .with_help("refuse with it where the standing cannot be derived, or remove it")
}
