//! Which broken facts a run expected, and who read them (§7): after every
//! witness and frontier has run, each fact that broke is expected where a
//! witness that passed met its refusal in a `refuses` statement naming its
//! code. Every other one fails the run, reported once with its
//! diagnostics and its readers.

use crate::refusal::Broken;
use crate::witness::{FrontierReport, WitnessReport};
use claim_diagnostics::Diagnostic;
use std::sync::Arc;

/// A fact that broke, as a run's report shows it.
#[derive(Clone, Debug)]
pub struct BrokenReport {
    pub fact: Arc<Broken>,
    /// A passing witness expected it.
    pub expected: bool,
    /// The witnesses, then the frontiers, that met its refusal, each once,
    /// in the run's order.
    pub readers: Vec<Arc<str>>,
    /// Where it is not expected, what a reviewer reads: [`shown`].
    pub diagnostics: Vec<Diagnostic>,
}

/// What a reviewer reads of a broken fact no witness expected: its own
/// diagnostics (the path, the spot in the receipt), the first saying which
/// fact broke and who read it.
fn shown(b: &Broken, readers: &[Arc<str>]) -> Vec<Diagnostic> {
    {
        let mut out = b.diagnostics.clone();
        let Some(first) = out.first_mut() else { return out };
        let at_fact = first.primary.as_ref().is_some_and(|p| p.loc == b.loc);
        if !at_fact && !first.secondary.iter().any(|s| s.loc == b.loc) {
            first.secondary.push(claim_diagnostics::Label::new(b.loc, format!("the fact `{}` is broken", b.fact.name)));
        }
        first.notes.push(format!(
            "the fact `{}` is broken with `{}`, and no passing witness expects it: the run fails",
            b.fact.name, b.code
        ));
        first.notes.push(match readers {
            [] => "no witness or frontier reads it: a fact is data, and broken data fails closed".to_string(),
            readers => format!("read by {}", claim_diagnostics::and_list(readers)),
        });
        if first.help.is_none() {
            first.help = Some(format!(
                "fix the input; or, where it must be rejected, state so in a witness: `refuses {} with {}`",
                b.fact.name, b.code
            ));
        }
        out
    }
}

/// The report of every fact that broke (in the order given), from the
/// witnesses that ran and were reported, those that ran only to learn what
/// they expect (`quiet`: a filtered or sharded run's others), and the
/// frontiers.
pub fn broken_reports(
    broken: &[Arc<Broken>],
    witnesses: &[WitnessReport],
    quiet: &[WitnessReport],
    frontiers: &[FrontierReport],
) -> Vec<BrokenReport> {
    broken
        .iter()
        .map(|b| {
            let met = |m: &crate::witness::MetBroken| Arc::ptr_eq(&m.fact, b);
            let expected = witnesses.iter().chain(quiet).any(|w| w.expects().any(|e| Arc::ptr_eq(e, b)));
            let mut readers: Vec<Arc<str>> = Vec::new();
            let mut add = |name: &Arc<str>| {
                if !readers.contains(name) {
                    readers.push(name.clone());
                }
            };
            for w in witnesses.iter().filter(|w| w.broken.iter().any(met)) {
                add(&w.name);
            }
            for f in frontiers.iter().filter(|f| f.broken.iter().any(met)) {
                add(&f.name);
            }
            let diagnostics = if expected { Vec::new() } else { shown(b, &readers) };
            BrokenReport { fact: b.clone(), expected, readers, diagnostics }
        })
        .collect()
}
