//! Every fact evaluated once, without the queries: for a run that
//! evaluates a program's facts one time and exits (`claim_batch`). The
//! `fact_value` query records, for each fact, a key, a memo and the reads
//! it depends on so that a later change re-evaluates only what it reaches;
//! a run that never changes anything paid that for nothing (a seventh of
//! its facts' time). Here each fact has a cell, filled once by the first
//! thread that needs it, by the same evaluation as the query's
//! ([`evaluate_fact`]), so what a fact gives cannot differ between the two.

use crate::fact_values::FactIndex;
use crate::incremental::{evaluate_fact, gather_indexed, FactFailure, FactResult, FactSettings, Gathered};
use crate::world::World;
use claim_diagnostics::Diagnostic;
use claim_sema::hir;
use claim_sema::Compiled;
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

/// The facts of a program, each evaluated at most once, on whichever
/// thread asks first (a thread that asks while another evaluates it waits
/// for that value).
pub struct FactTable<'p, W: World + ?Sized> {
    compiled: &'p Compiled,
    world: &'p W,
    settings: FactSettings<'p>,
    facts: Vec<&'p hir::Fact>,
    index: &'p FactIndex<'p>,
    cells: Vec<OnceLock<FactResult>>,
}

/// The facts' index by name (their numbers in `facts`), which a table
/// reads and the caller keeps: the values gathered from the table's
/// results in the facts' order are found through it again
/// (`incremental::gather_indexed`), so it is made once.
pub fn index<'p>(facts: &[&'p hir::Fact]) -> FactIndex<'p> {
    facts.iter().enumerate().map(|(i, f)| (&f.name, i)).collect()
}

thread_local! {
    /// The cells this thread is filling, innermost last: asking for one
    /// of them again would wait for itself forever.
    static FILLING: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

impl<'p, W: World + Sync + ?Sized> FactTable<'p, W> {
    /// A table of `facts` (every fact of the program: a fact may use any
    /// other) of `compiled`, reading `world`; `index` is [`index`] of the
    /// facts.
    pub fn new(
        compiled: &'p Compiled,
        world: &'p W,
        facts: &[&'p hir::Fact],
        index: &'p FactIndex<'p>,
        settings: FactSettings<'p>,
    ) -> Self {
        let cells = facts.iter().map(|_| OnceLock::new()).collect();
        FactTable { compiled, world, settings, facts: facts.to_vec(), index, cells }
    }

    /// The result of the `i`th fact, evaluated now unless it was already.
    pub fn result(&self, i: usize) -> FactResult {
        let (Some(cell), Some(fact)) = (self.cells.get(i), self.facts.get(i)) else {
            return internal(format!("no fact number {i}"));
        };
        if let Some(done) = cell.get() {
            return done.clone();
        }
        // The program's call graph of facts and functions is acyclic
        // (`E0215`), so this is never met in a program that compiled. Met
        // anyway, it is a bug, and the run must not go on: a result here
        // would be taken for a failed dependency (reported by that fact,
        // which is this one, still running), and waiting would wait for
        // itself forever. A panic ends the run with an internal error
        // (exit 101), as salsa's own check of a cycle does.
        if FILLING.with(|f| f.borrow().contains(&i)) {
            panic!("fact `{}` depends on itself", fact.name.name);
        }
        FILLING.with(|f| f.borrow_mut().push(i));
        let done = cell
            .get_or_init(|| {
                evaluate_fact(self.compiled, self.world, fact, &self.settings, |dep| match self.index.get(dep) {
                    Some(&j) => self.result(j),
                    None => internal(format!("no fact `{}`", dep.name)),
                })
            })
            .clone();
        FILLING.with(|f| f.borrow_mut().pop());
        done
    }
}

fn internal(message: String) -> FactResult {
    FactResult(Arc::new(Err(FactFailure::Fatal(vec![Diagnostic::error(
        "E0999",
        format!("internal error: {message}"),
    )]))))
}

/// Every fact of `compiled`, each once, on this thread, in the program's
/// order: for a caller that evaluates a program once (the fuzz targets,
/// tests), through the same table `claim_batch` uses.
pub fn evaluate_all<'p, W: World + Sync + ?Sized>(
    compiled: &'p Compiled,
    world: &'p W,
    settings: FactSettings<'p>,
) -> Gathered<'p> {
    let facts: Vec<&hir::Fact> = compiled.modules.values().flat_map(|m| m.facts.iter()).collect();
    let index = index(&facts);
    let results = {
        let table = FactTable::new(compiled, world, &facts, &index, settings);
        (0..facts.len()).map(|i| table.result(i)).collect()
    };
    gather_indexed(&facts, index, results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use claim_sema::{compile, Database, Program, SourceFile};
    use claim_syntax::FileId;
    use std::collections::BTreeMap;

    /// A cycle never compiles (`E0215`), but were a table given one, it
    /// must end the run, not wait for itself.
    #[test]
    #[should_panic(expected = "fact `a` depends on itself")]
    fn a_fact_that_needs_itself_ends_the_run_instead_of_waiting() {
        let db = Database::default();
        let main = SourceFile::new(&db, "main".to_string(), "fact a: Int = b\nfact b: Int = a\n".into(), FileId(0));
        let program = Program::new(&db, BTreeMap::from([("main".into(), main)]), vec!["main".into()], BTreeMap::new());
        let compiled = compile(&db, program);
        assert!(compiled.diagnostics.iter().any(|d| d.code == "E0215"), "{:?}", compiled.diagnostics);
        let facts: Vec<_> = compiled.modules.values().flat_map(|m| m.facts.iter()).collect();
        let settings = FactSettings { max_len: 1 << 20, limit: None, texts: None };
        let index = index(&facts);
        let table = FactTable::new(compiled, &crate::NoWorld, &facts, &index, settings);
        table.result(0);
    }
}
