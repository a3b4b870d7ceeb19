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
    if broken.is_empty() {
        return Vec::new();
    }
    // By the address of each `Broken`: one pass over the reports, however
    // many facts broke (a run where one receipt in ten is stale has
    // thousands of both).
    let mut met: rustc_hash::FxHashMap<*const Broken, (bool, Vec<Arc<str>>)> =
        broken.iter().map(|b| (Arc::as_ptr(b), (false, Vec::new()))).collect();
    for w in witnesses {
        for m in &w.broken {
            if let Some((expected, readers)) = met.get_mut(&Arc::as_ptr(&m.fact)) {
                *expected |= m.expected && w.passed();
                if !readers.contains(&w.name) {
                    readers.push(w.name.clone());
                }
            }
        }
    }
    for w in quiet {
        for e in w.expects() {
            if let Some((expected, _)) = met.get_mut(&Arc::as_ptr(e)) {
                *expected = true;
            }
        }
    }
    for f in frontiers {
        for m in &f.broken {
            if let Some((_, readers)) = met.get_mut(&Arc::as_ptr(&m.fact)) {
                if !readers.contains(&f.name) {
                    readers.push(f.name.clone());
                }
            }
        }
    }
    broken
        .iter()
        .map(|b| {
            let (expected, readers) = met.remove(&Arc::as_ptr(b)).unwrap_or_default();
            let diagnostics = if expected { Vec::new() } else { shown(b, &readers) };
            BrokenReport { fact: b.clone(), expected, readers, diagnostics }
        })
        .collect()
}
