//! `claim_batch --mutate`: which facts does no witness notice? Every leaf
//! of every fact (`claim_eval::mutants`) is changed in turn, the facts that
//! read the fact are evaluated again from the changed value, and only the
//! witnesses that read any of them (through what reads what) run again. A
//! leaf whose every mutant leaves every verdict as it was is unwitnessed:
//! the suite would pass whatever its value. And every refusal code a
//! program declares is shown to fire, or reported: a passing witness must
//! expect it in a `refuses` statement.

use crate::world::FsWorld;
use claim_diagnostics::{Diagnostic, Sources};
use claim_eval::fact_values::Known;
use claim_eval::incremental::{evaluate_fact, FactFailure, FactResult, FactSettings};
use claim_eval::mutants::{mutate, Leaf};
use claim_eval::{run_witness, Evaluator, NoWorld, Value, WitnessReport};
use claim_sema::hir::{self, WitnessStmtKind as S};
use claim_sema::ty::GlobalName;
use claim_sema::Compiled;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// What a leaf's mutants showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A mutant changed a verdict: the witnesses named.
    Witnessed(Vec<Arc<str>>),
    /// No mutant changed any verdict, and no expression reads the field:
    /// nothing could compare it (the reason).
    Equivalent(String),
    /// No mutant changed any verdict (the reason).
    Unwitnessed(String),
    /// No mutant changed any verdict, and `Claim.toml` exempts it (its
    /// reason).
    Exempt(String),
}

/// One leaf of one fact, and what its mutants showed.
#[derive(Clone, Debug)]
pub struct LeafReport {
    pub fact: Arc<str>,
    pub loc: claim_syntax::Loc,
    pub leaf: Leaf,
    pub status: Status,
    /// Each mutant tried: its change and the witnesses whose verdict changed.
    pub tried: Vec<(String, Vec<Arc<str>>)>,
}

/// A refusal code of the program and whether a passing witness expects it.
#[derive(Clone, Debug)]
pub struct CodeReport {
    pub code: Arc<str>,
    pub loc: claim_syntax::Loc,
    pub shown: bool,
}

/// What `--mutate` found in one run.
#[derive(Default)]
pub struct MutateReport {
    pub leaves: Vec<LeafReport>,
    pub codes: Vec<CodeReport>,
    /// The `require`s of the program's functions whose `else` no witness
    /// reaches: the function, and where.
    pub requires: Vec<(Arc<str>, claim_syntax::Loc)>,
    /// Facts, leaves and codes left out: by name (`_…`) or in `Claim.toml`,
    /// each with the reason.
    pub exempt: Vec<(Arc<str>, String)>,
    /// `Claim.toml`'s exemptions that name nothing (`E0017`, the run fails)
    /// or exempt nothing unwitnessed (`W0010`, as anything unwitnessed).
    pub exemptions: Vec<Diagnostic>,
    pub mutants: usize,
}

impl MutateReport {
    /// What `--deny-unwitnessed` fails on: leaves, codes and `require`s no
    /// witness notices, and stale exemptions.
    pub fn unwitnessed(&self) -> usize {
        self.leaves.iter().filter(|l| matches!(l.status, Status::Unwitnessed(_))).count()
            + self.codes.iter().filter(|c| !c.shown).count()
            + self.requires.len()
            + self.exemptions.len()
    }

    /// Whether an exemption names nothing in the program: the run fails.
    pub fn misnamed(&self) -> bool {
        self.exemptions.iter().any(|d| d.severity == claim_diagnostics::Severity::Error)
    }
}

/// A program's reads, turned around: who reads each name.
fn readers(compiled: &Compiled) -> FxHashMap<&GlobalName, Vec<&GlobalName>> {
    let mut out: FxHashMap<&GlobalName, Vec<&GlobalName>> = FxHashMap::default();
    for (reader, read, _) in compiled.reads.iter().flat_map(|m| m.iter()) {
        out.entry(&**read).or_default().push(&**reader);
    }
    out
}

/// What reads `fact`, directly or through functions and other facts: the
/// witnesses (by name), the frontiers, and the facts.
struct Reached<'c> {
    witnesses: FxHashSet<&'c str>,
    frontiers: Vec<&'c hir::Frontier>,
    facts: Vec<&'c hir::Fact>,
}

fn reached<'c>(
    fact: &'c GlobalName,
    readers: &FxHashMap<&'c GlobalName, Vec<&'c GlobalName>>,
    compiled: &'c Compiled,
) -> Reached<'c> {
    let mut seen: FxHashSet<&GlobalName> = FxHashSet::default();
    let mut stack = vec![fact];
    let (mut witnesses, mut frontiers, mut facts) = (FxHashSet::default(), Vec::new(), Vec::new());
    while let Some(n) = stack.pop() {
        for r in readers.get(n).into_iter().flatten() {
            if !seen.insert(r) {
                continue;
            }
            if let Some(w) = r.name.strip_prefix("witness ") {
                witnesses.insert(w);
            } else if let Some(name) = r.name.strip_prefix("frontier ") {
                let module = compiled.modules.get(&*r.module);
                frontiers.extend(module.into_iter().flat_map(|m| m.frontiers.iter()).filter(|f| &*f.name == name));
            } else if let Some(f) = compiled.fact(r) {
                facts.push(f);
                stack.push(r);
            } else {
                stack.push(r);
            }
        }
    }
    frontiers.sort_by(|a, b| a.name.cmp(&b.name));
    Reached { witnesses, frontiers, facts }
}

/// Every field name an expression of the program reads.
fn fields_read(compiled: &Compiled) -> FxHashSet<Arc<str>> {
    let mut out = FxHashSet::default();
    let mut see = |e: &hir::Expr| {
        hir::visit(e, &mut |x| {
            if let hir::ExprKind::Field(_, _, name) = &x.kind {
                out.insert(name.clone());
            }
        })
    };
    for m in compiled.modules.values() {
        m.facts.iter().for_each(|f| see(&f.init));
        m.functions.iter().for_each(|f| see(&f.body));
        for w in &m.witnesses {
            for s in &w.stmts {
                match &s.kind {
                    S::Let { value, .. } => see(value),
                    S::Holds(e) => see(e),
                    S::Refuses { expr, .. } => see(expr),
                }
            }
        }
        for f in &m.frontiers {
            see(&f.text);
            if let Some(c) = &f.condition {
                see(c);
            }
        }
    }
    out
}

fn result_of(k: Option<&Known>) -> FactResult {
    FactResult(Arc::new(match k {
        Some(Known::Value(v)) => Ok(v.clone()),
        Some(Known::Broken(b)) => Err(FactFailure::Broken(b.clone())),
        _ => Err(FactFailure::Fatal(Vec::new())),
    }))
}

fn known_of(r: &FactResult) -> Known {
    match &*r.0 {
        Ok(v) => Known::Value(v.clone()),
        Err(FactFailure::Broken(b)) => Known::Broken(b.clone()),
        Err(FactFailure::Fatal(_)) => Known::Failed,
    }
}

/// The baseline run's verdicts, by witness name: what a mutant may change.
type Verdicts<'c> = FxHashMap<&'c str, bool>;

/// The baseline run's frontiers, by module and name: whether each dissolved
/// (a dissolved frontier fails the run, so a mutant that dissolves one, or
/// closes one that had dissolved, changes a verdict).
type Dissolved<'c> = FxHashMap<(&'c str, &'c str), bool>;

/// The mutants of one fact: each evaluated, the witnesses that read it run
/// again; its leaves' reports pushed, the number of mutants returned.
#[allow(clippy::too_many_arguments)]
fn one_fact<'c>(
    compiled: &'c Compiled,
    world: &FsWorld,
    facts: &mut claim_eval::eval::FactValues<'c>,
    fact: &'c hir::Fact,
    readers: &FxHashMap<&'c GlobalName, Vec<&'c GlobalName>>,
    read: &FxHashSet<Arc<str>>,
    baseline: (&Verdicts<'_>, &Dissolved<'_>),
    witnesses: &FxHashMap<&str, &hir::Witness>,
    settings: &FactSettings<'_>,
    out: &mut Vec<LeafReport>,
) -> usize {
    let (baseline, dissolved) = baseline;
    let Some(Known::Value(value)) = facts.known(&fact.name).cloned() else { return 0 };
    let (leaves, mutants) = mutate(&value, &compiled.types);
    let count = mutants.len();
    let Reached { witnesses: affected, frontiers, facts: dependents } = reached(&fact.name, readers, compiled);
    let mut names: Vec<&str> = affected.iter().copied().collect();
    names.sort_unstable();
    let mut tried: Vec<Vec<(String, Vec<Arc<str>>)>> = vec![Vec::new(); leaves.len()];
    for mutant in mutants {
        // The fact changed, then every fact that reads it again.
        let mut changed: FxHashMap<&'c GlobalName, FactResult> = FxHashMap::default();
        changed.insert(&fact.name, FactResult(Arc::new(Ok(mutant.value.clone()))));
        for g in &dependents {
            let r = evaluate_fact(compiled, world, g, settings, |dep| {
                changed.get(dep).cloned().unwrap_or_else(|| result_of(facts.known(dep)))
            });
            changed.insert(&g.name, r);
        }
        let saved: Vec<(&'c GlobalName, Option<Known>)> =
            changed.keys().map(|n| (*n, facts.known(n).cloned())).collect();
        for (n, r) in &changed {
            facts.insert(n, known_of(r));
        }
        let ev = Evaluator::with_facts(compiled, &NoWorld, std::mem::take(facts));
        let mut flipped: Vec<Arc<str>> = Vec::new();
        for name in &names {
            let (Some(w), Some(was)) = (witnesses.get(name), baseline.get(name)) else { continue };
            if run_witness(&ev, w, false, None).passed() != *was {
                flipped.push(w.name.clone());
            }
        }
        for f in &frontiers {
            let Some(was) = dissolved.get(&(&*f.module, &*f.name)) else { continue };
            if claim_eval::check_frontier(&ev, f).dissolved.is_some() != *was {
                flipped.push(format!("frontier {}", f.name).into());
            }
        }
        *facts = ev.into_facts();
        for (n, k) in saved {
            if let Some(k) = k {
                facts.insert(n, k);
            }
        }
        if let Some(t) = tried.get_mut(mutant.leaf) {
            t.push((mutant.change, flipped));
        }
    }
    for (leaf, tried) in leaves.into_iter().zip(tried) {
        let mut by: Vec<Arc<str>> = tried.iter().flat_map(|(_, w)| w.iter().cloned()).collect();
        by.sort();
        by.dedup();
        let status = if !by.is_empty() {
            Status::Witnessed(by)
        } else if tried.is_empty() {
            continue;
        } else if affected.is_empty() && frontiers.is_empty() {
            Status::Unwitnessed("no witness reads the fact".into())
        } else {
            match &leaf.field {
                Some(f) if !read.contains(f) => Status::Equivalent(format!("no expression reads the field `{f}`")),
                _ => Status::Unwitnessed(format!(
                    "{} read the fact, and no verdict changed",
                    readers_said(&affected, &frontiers)
                )),
            }
        };
        out.push(LeafReport { fact: fact.name.name.clone(), loc: fact.loc, leaf, status, tried });
    }
    count
}

/// What read a fact, in words: "one witness", "2 witnesses and one
/// frontier".
fn readers_said(witnesses: &FxHashSet<&str>, frontiers: &[&hir::Frontier]) -> String {
    let count = |n: usize, one: &str, many: &str| match n {
        0 => None,
        1 => Some(format!("one {one}")),
        n => Some(format!("{n} {many}")),
    };
    let parts: Vec<String> =
        [count(witnesses.len(), "witness", "witnesses"), count(frontiers.len(), "frontier", "frontiers")]
            .into_iter()
            .flatten()
            .collect();
    parts.join(" and ")
}

/// Runs the mutants of one project's facts. `facts` are the baseline's
/// values (given back), `reports` the baseline's verdicts.
pub fn project<'c>(
    compiled: &'c Compiled,
    world: &FsWorld,
    facts: claim_eval::eval::FactValues<'c>,
    jobs: usize,
    (reports, frontiers): (&[WitnessReport], &[claim_eval::FrontierReport]),
    settings: &FactSettings<'_>,
    manifest: &crate::manifest::Manifest,
    out: &mut MutateReport,
) -> claim_eval::eval::FactValues<'c> {
    let readers = readers(compiled);
    let read = fields_read(compiled);
    let baseline: Verdicts<'_> = reports.iter().map(|r| (&*r.name, r.passed())).collect();
    // The run's frontiers are every program's: this one's are those at its
    // frontiers' places (module names repeat across programs).
    let here: FxHashSet<claim_syntax::Loc> =
        compiled.modules.values().flat_map(|m| m.frontiers.iter().map(|f| f.loc)).collect();
    let dissolved: Dissolved<'_> = frontiers
        .iter()
        .filter(|f| here.contains(&f.loc))
        .map(|f| ((&*f.module, &*f.name), f.dissolved.is_some()))
        .collect();
    let witnesses: FxHashMap<&str, &hir::Witness> =
        compiled.modules.values().flat_map(|m| m.witnesses.iter()).map(|w| (&*w.name, w)).collect();
    // The program's own modules, not the standard library's: their files.
    let own = |module: &str| !module.starts_with("std.");
    let files: FxHashSet<claim_syntax::FileId> = compiled
        .modules
        .iter()
        .filter(|(m, _)| own(m))
        .flat_map(|(_, m)| {
            m.facts
                .iter()
                .map(|f| f.loc.file)
                .chain(m.functions.iter().map(|f| f.loc.file))
                .chain(m.witnesses.iter().map(|w| w.loc.file))
        })
        .collect();
    let mut work: Vec<&'c hir::Fact> = Vec::new();
    for m in compiled.modules.iter().filter(|(m, _)| own(m)).map(|(_, m)| m) {
        for fact in &m.facts {
            if fact.name.name.starts_with('_') {
                out.exempt.push((fact.name.name.clone(), "named `_…`".into()));
            } else {
                work.push(fact);
            }
        }
    }
    // The facts in contiguous parts, one a job, each on its own copy of the
    // facts' values; the parts' reports joined in the facts' order.
    let jobs = jobs.max(1).min(work.len().max(1));
    let parts: Vec<&[&hir::Fact]> = work.chunks(work.len().div_ceil(jobs).max(1)).collect();
    let done = crate::parallel::map(&parts, jobs, |part| {
        let mut facts = facts.clone();
        let mut leaves = Vec::new();
        let mut mutants = 0;
        for fact in *part {
            mutants += one_fact(
                compiled,
                world,
                &mut facts,
                fact,
                &readers,
                &read,
                (&baseline, &dissolved),
                &witnesses,
                settings,
                &mut leaves,
            );
        }
        (leaves, mutants)
    });
    let first = out.leaves.len();
    for (leaves, mutants) in done {
        out.leaves.extend(leaves);
        out.mutants += mutants;
    }
    // Each `require` of the program's own functions whose `else` no witness
    // of the run reached.
    let reached: FxHashSet<claim_syntax::Loc> = reports.iter().flat_map(|r| r.refused_at.iter().copied()).collect();
    for m in compiled.modules.iter().filter(|(m, _)| own(m)).map(|(_, m)| m) {
        for f in &m.functions {
            hir::visit(&f.body, &mut |x| {
                if let hir::ExprKind::Block(stmts, _) = &x.kind {
                    for s in stmts.iter() {
                        if let hir::Stmt::Require { span, .. } = s {
                            let at = claim_syntax::Loc::new(f.loc.file, *span);
                            if !reached.contains(&at) {
                                out.requires.push((f.name.name.clone(), at));
                            }
                        }
                    }
                }
            });
        }
    }
    let first_code = out.codes.len();
    // Refusal coverage: each code a module of the program declares (not the
    // standard library's), shown where a passing witness expects it.
    let shown: FxHashSet<&str> = compiled
        .modules
        .values()
        .flat_map(|m| m.witnesses.iter())
        .filter(|w| baseline.get(&*w.name) == Some(&true))
        .flat_map(|w| w.stmts.iter())
        .filter_map(|s| match &s.kind {
            S::Refuses { code, .. } => Some(&**code),
            _ => None,
        })
        .collect();
    for (code, r) in &compiled.refusals {
        if !files.contains(&r.loc.file) {
            continue;
        }
        if code.starts_with('_') {
            out.exempt.push((code.clone(), "named `_…`".into()));
            continue;
        }
        out.codes.push(CodeReport { code: code.clone(), loc: r.loc, shown: shown.contains(&**code) });
    }
    let facts_here: Vec<&str> = work.iter().map(|f| &*f.name.name).collect();
    exempt(manifest, &facts_here, (first, first_code), out);
    facts
}

/// Applies `Claim.toml`'s exemptions to one project's leaves (from `first`
/// on) and codes: an unwitnessed leaf or code an exemption names becomes
/// exempt, with its reason. An exemption that names no fact or code of the
/// program is `E0017`; one under which nothing was unwitnessed is stale
/// (`W0010`).
fn exempt(
    manifest: &crate::manifest::Manifest,
    facts: &[&str],
    (first, first_code): (usize, usize),
    out: &mut MutateReport,
) {
    for e in &manifest.exempt {
        let (fact, path) = e.fact_and_path();
        let code = out.codes[first_code..].iter().position(|c| &*c.code == fact).map(|i| first_code + i);
        if let (Some(i), "$") = (code, path) {
            match out.codes[i].shown {
                false => {
                    out.codes.remove(i);
                    out.exempt.push((Arc::from(fact), e.reason.clone()));
                }
                true => out.exemptions.push(
                    Diagnostic::warning("W0010", format!("the exemption of `{fact}` is stale"))
                        .at_loc(e.loc, "a passing witness shows this code can fire")
                        .with_help("remove it from `[mutate.exempt]`"),
                ),
            }
            continue;
        }
        if !facts.contains(&fact) {
            let codes = out.codes[first_code..].iter().map(|c| &*c.code);
            let mut d = Diagnostic::error(
                "E0017",
                format!("`{}` in `[mutate.exempt]` names no fact or refusal code of the program", e.name),
            )
            .at_loc(e.loc, "exempts nothing");
            if let Some(near) = claim_diagnostics::did_you_mean(fact, facts.iter().copied().chain(codes)) {
                d = d.with_help(format!("did you mean `{near}`?"));
            } else {
                d = d.with_help("name a fact (`receipt`), a leaf of one (`receipt $.tag`) or a refusal code");
            }
            out.exemptions.push(d);
            continue;
        }
        let under = |p: &str| {
            path == "$" || p == path || p.strip_prefix(path).is_some_and(|rest| rest.starts_with(['.', '[', '?']))
        };
        let mut exempted = 0;
        for l in out.leaves[first..].iter_mut().filter(|l| &*l.fact == fact && under(&l.leaf.path)) {
            if let Status::Unwitnessed(_) = l.status {
                l.status = Status::Exempt(e.reason.clone());
                exempted += 1;
            }
        }
        if exempted > 0 {
            out.exempt.push((Arc::from(e.name.as_str()), e.reason.clone()));
        } else {
            out.exemptions.push(
                Diagnostic::warning("W0010", format!("the exemption of `{}` is stale", e.name))
                    .at_loc(e.loc, format!("no leaf of `{fact}` here is unwitnessed"))
                    .with_help("remove it from `[mutate.exempt]`"),
            );
        }
    }
}

/// The diagnostics of what no witness notices: `W0007` a leaf, `W0009` a
/// `require`, `W0008` a code; then `Claim.toml`'s exemptions that name
/// nothing (`E0017`) or are stale (`W0010`).
pub fn diagnostics(r: &MutateReport, texts: claim_eval::eval::Texts<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for l in &r.leaves {
        let Status::Unwitnessed(why) = &l.status else { continue };
        let mut d = Diagnostic::warning("W0007", format!("no witness notices `{}` at `{}`", l.fact, l.leaf.path))
            .at_loc(l.loc, format!("every mutant of `{}` leaves every verdict as it was", l.leaf.path))
            .with_note(format!(
                "{why}; mutants tried: {}",
                l.tried.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>().join(", ")
            ))
            .with_help("add a witness that fails where this value is wrong, or exempt it, with the reason, under `[mutate.exempt]` in `Claim.toml`");
        let v = Value { kind: claim_eval::V::Bool(false), origin: l.leaf.origin.clone() };
        if let Some((loc, label)) = claim_eval::report::origin_label(&v, "the value", l.loc, texts) {
            d = d.with_secondary(loc, label);
        }
        out.push(d);
    }
    for (function, at) in &r.requires {
        out.push(
            Diagnostic::warning("W0009", format!("no witness reaches the `else` of this `require` in `{function}`"))
                .at_loc(*at, "never refused in this run")
                .with_help("add a witness over an input this `require` must refuse"),
        );
    }
    for c in r.codes.iter().filter(|c| !c.shown) {
        out.push(
            Diagnostic::warning("W0008", format!("no witness shows `{}` can fire", c.code))
                .at_loc(c.loc, "declared here")
                .with_help(format!("add a witness that passes with `refuses … with {}`", c.code)),
        );
    }
    out.extend(r.exemptions.iter().cloned());
    out
}

/// Whether a leaf counts in the score: an equivalent or exempt one does not.
fn counts(s: &Status) -> bool {
    matches!(s, Status::Witnessed(_) | Status::Unwitnessed(_))
}

/// The score line: `N of M fact leaves witnessed, K of L refusal codes shown`.
pub fn score(r: &MutateReport) -> String {
    let counted: Vec<&LeafReport> = r.leaves.iter().filter(|l| counts(&l.status)).collect();
    let witnessed = counted.iter().filter(|l| matches!(l.status, Status::Witnessed(_))).count();
    let equivalent = r.leaves.iter().filter(|l| matches!(l.status, Status::Equivalent(_))).count();
    let exempt = r.leaves.iter().filter(|l| matches!(l.status, Status::Exempt(_))).count();
    let shown = r.codes.iter().filter(|c| c.shown).count();
    format!(
        "mutate: {witnessed} of {} fact leaves witnessed ({equivalent} equivalent, {exempt} exempt), {shown} of {} refusal codes shown, {} `require`s never reached; {} mutants",
        counted.len(),
        r.codes.len(),
        r.requires.len(),
        r.mutants
    )
}

/// The human report of `--mutate`: the diagnostics, the equivalent leaves
/// with their reasons, with `explain` every mutant tried, and the score.
pub fn human(
    r: &MutateReport,
    sources: &Sources,
    opts: &crate::options::BatchOptions,
    texts: claim_eval::eval::Texts<'_>,
) -> String {
    let explain = opts.explain != crate::options::Explain::Off;
    let found = diagnostics(r, texts);
    let shown: Vec<&Diagnostic> = found.iter().collect();
    let mut out = crate::output::human::render_in_parts(&shown, sources, opts);
    let equivalent: Vec<&LeafReport> = r.leaves.iter().filter(|l| matches!(l.status, Status::Equivalent(_))).collect();
    if !equivalent.is_empty() {
        out.push_str("\nequivalent mutants:\n");
        for l in equivalent {
            if let Status::Equivalent(why) = &l.status {
                out.push_str(&format!("  {} {}: {why}\n", l.fact, claim_diagnostics::printable(&l.leaf.path)));
            }
        }
    }
    if explain {
        out.push_str("\nmutants tried:\n");
        for l in &r.leaves {
            for (change, flipped) in &l.tried {
                let by = match flipped.as_slice() {
                    [] => "no verdict changed".to_string(),
                    w => format!("changed {}", claim_diagnostics::and_list(w)),
                };
                out.push_str(&format!("  {} {}: {change}: {by}\n", l.fact, claim_diagnostics::printable(&l.leaf.path)));
            }
        }
    }
    if !r.exempt.is_empty() {
        out.push_str("\nexempt:\n");
        for (name, why) in &r.exempt {
            out.push_str(&format!("  {}: {why}\n", claim_diagnostics::printable(name)));
        }
    }
    out.push_str(&format!("\n{}\n", score(r)));
    out
}

/// `--mutate`'s part of the JSON report.
pub fn to_json(r: &MutateReport, sources: &Sources, texts: claim_eval::eval::Texts<'_>) -> serde_json::Value {
    use serde_json::json;
    let leaves: Vec<serde_json::Value> = r
        .leaves
        .iter()
        .map(|l| {
            let (status, detail) = match &l.status {
                Status::Witnessed(w) => ("witnessed", json!(w.iter().map(|x| &**x).collect::<Vec<_>>())),
                Status::Equivalent(why) => ("equivalent", json!(why)),
                Status::Unwitnessed(why) => ("unwitnessed", json!(why)),
                Status::Exempt(why) => ("exempt", json!(why)),
            };
            let (line, _) = sources.line_col(l.loc.file, l.loc.span.start);
            json!({
                "fact": &*l.fact,
                "file": sources.name(l.loc.file),
                "line": line,
                "path": l.leaf.path,
                "status": status,
                "detail": detail,
                "mutants": l.tried.iter().map(|(c, w)| json!({"change": c, "changed": w.iter().map(|x| &**x).collect::<Vec<_>>()})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let codes: Vec<serde_json::Value> = r.codes.iter().map(|c| json!({"code": &*c.code, "shown": c.shown})).collect();
    let witnessed = r.leaves.iter().filter(|l| matches!(l.status, Status::Witnessed(_))).count();
    let counted = r.leaves.iter().filter(|l| counts(&l.status)).count();
    json!({
        "leaves": leaves,
        "codes": codes,
        "exempt": r.exempt.iter().map(|(name, why)| json!({"name": &**name, "reason": why})).collect::<Vec<_>>(),
        "requires": r.requires.iter().map(|(f, at)| {
            let (line, _) = sources.line_col(at.file, at.span.start);
            json!({"function": &**f, "file": sources.name(at.file), "line": line})
        }).collect::<Vec<_>>(),
        "score": {
            "witnessed": witnessed,
            "leaves": counted,
            "shown": r.codes.iter().filter(|c| c.shown).count(),
            "codes": r.codes.len(),
            "mutants": r.mutants,
        },
        "diagnostics": diagnostics(r, texts).iter().map(|d| crate::output::formats::diagnostic_json(d, sources)).collect::<Vec<_>>(),
    })
}
