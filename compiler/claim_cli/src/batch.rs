//! `claim_batch` (§8): compile every entry's program, evaluate every fact,
//! run the entries' witnesses, check every frontier, and report. Nothing
//! that could not be compiled, read or evaluated is reported as PASS: such
//! a run exits 2 before any witness runs.

use crate::db::CliDb;
use crate::options::{BatchOptions, Explain};
use crate::output::formats::{Format, RunReport};
use crate::output::human::{count, plural, render_all};
use crate::world::FsWorld;
use crate::Output;
use claim_diagnostics::{Diagnostic, Sources};
use claim_eval::incremental::{EvalDb as _, FactSettings};
use claim_eval::json_digests::{JsonDigest, Roles};
use claim_eval::memo::CallMemo;
use claim_eval::{check_frontier, run_witness_with, Evaluator, FrontierReport, NoWorld, Value, WitnessReport};
use claim_sema::compile;
use claim_sema::hir;
use claim_sema::ty::Ty;
use std::fmt::Write;
use std::sync::{Arc, Mutex};

/// Which command a run is: `claim_batch`, or `claimc check` (a run that
/// stops after compiling).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tool {
    Batch,
    Check,
}

/// A failed run before any witness: exit 2, and in a machine format, a
/// report with no witness in it.
fn stopped(opts: &BatchOptions, tool: Tool, diags: &[Diagnostic], sources: &Sources, what: &str) -> Output {
    if opts.format == Format::Human && tool == Tool::Check {
        // `claimc check` runs no witness: the diagnostics say it all.
        return Output { stdout: String::new(), stderr: render_all(diags, sources, opts.color), code: 2 };
    }
    if opts.format == Format::Human {
        return not_run(diags, sources, opts.color, what);
    }
    let r = RunReport::nothing_run(if tool == Tool::Check { "claimc" } else { "claim_batch" }, diags, sources, 2);
    Output { stdout: crate::output::formats::render(opts.format, &r), stderr: String::new(), code: 2 }
}

/// A failed run before any witness: diagnostics on stderr, exit 2.
fn not_run(diags: &[Diagnostic], sources: &Sources, color: bool, what: &str) -> Output {
    let (errors, warnings) = count(diags);
    let mut err = render_all(diags, sources, color);
    let warn = if warnings > 0 { format!(", {}", plural(warnings, "warning")) } else { String::new() };
    let _ = writeln!(err, "error: {what}: {}{warn}; no witness was run", plural(errors, "error"));
    Output { stdout: String::new(), stderr: err, code: 2 }
}

/// The whole run, in this process, which goes on after it: what the
/// language server's "run witness" and `claimc graph --with-verdicts` read
/// verdicts from.
pub fn run(opts: &BatchOptions) -> Output {
    staged(opts, Tool::Batch, false, run_timed)
}

/// `claim_batch`: the whole run, in a process that exits after it (see
/// `RunState::exiting`).
pub fn run_then_exit(opts: &BatchOptions) -> Output {
    staged(opts, Tool::Batch, true, run_timed)
}

/// `claimc check`: the run's load and check, then every diagnostic and the
/// count of modules checked; the process exits after it.
pub fn check(opts: &BatchOptions) -> Output {
    staged(opts, Tool::Check, true, |opts, projects, state, clock| {
        if let Err(out) = load_and_check(opts, Tool::Check, projects, state, clock) {
            return out;
        }
        let (loaded, diags) = programs(state);
        let modules = loaded.iter().map(|(_, _, compiled)| compiled.modules.len()).sum();
        checked(opts, &diags, &state.sources_now(), modules)
    })
}

/// `claim_batch --list`: the run's load and check, then the names of the
/// witnesses it would run; no fact is read. The process exits after it.
pub fn list(opts: &BatchOptions) -> Output {
    staged(opts, Tool::Batch, true, |opts, projects, state, clock| {
        if let Err(out) = load_and_check(opts, Tool::Batch, projects, state, clock) {
            return out;
        }
        let (loaded, diags) = programs(state);
        let diags = match runnable(opts, &loaded, diags, &state.sources_now()) {
            Ok(diags) => diags,
            Err(out) => return out,
        };
        let mut stdout = String::new();
        for (_, l, compiled) in &loaded {
            for w in crate::selection::selected(compiled, &l.entries, opts.filter.as_deref(), opts.shard) {
                let _ = writeln!(stdout, "{}", w.name);
            }
        }
        Output { stdout, stderr: render_all(&diags, &state.sources_now(), opts.color), code: 0 }
    })
}

/// A command's stages from the start: the search for the entries'
/// projects, then `stages` over them, with the run's timings; `exiting`
/// where the process exits right after (`RunState::exiting`).
fn staged(
    opts: &BatchOptions,
    tool: Tool,
    exiting: bool,
    stages: impl for<'p> FnOnce(&BatchOptions, &'p [crate::project::Project], &mut RunState<'p>, &mut Timings) -> Output,
) -> Output {
    // The clock starts before the search for files: it is part of loading.
    let mut clock = Timings::start(opts.timings);
    let (projects, listed) = match crate::project::projects_listed(&opts.entries, opts.jobs) {
        Ok(p) => p,
        Err(d) => return stopped(opts, tool, &[*d], &Sources::new(), "cannot start"),
    };
    let mut state = RunState { listed: split_listings(listed, &projects), exiting, ..RunState::default() };
    let mut out = stages(opts, &projects, &mut state, &mut clock);
    out.stderr.push_str(&clock.report());
    if exiting {
        std::mem::forget(state);
    }
    out
}

/// The folders listed while finding files, for each project's world: those
/// below its root (a nested project's folders are below both roots).
fn split_listings(
    listed: crate::project::Listings,
    projects: &[crate::project::Project],
) -> Vec<crate::project::Listings> {
    match projects {
        // Every folder listed is below the one project's root.
        [_] => vec![listed],
        _ => projects
            .iter()
            .map(|p| {
                listed.iter().filter(|(dir, _)| dir.starts_with(&p.root)).map(|(d, e)| (d.clone(), e.clone())).collect()
            })
            .collect(),
    }
}

type ProjectDb<'p> = (&'p crate::project::Project, CliDb, crate::project::Loaded);

impl RunState<'_> {
    /// A copy of the sources as they are now.
    fn sources_now(&self) -> Sources {
        self.shared.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

/// The databases of a run, kept by `--watch` so that the next run after a
/// change reuses everything the change did not touch.
#[derive(Default)]
pub struct RunState<'p> {
    shared: Arc<Mutex<Sources>>,
    dbs: Vec<ProjectDb<'p>>,
    /// For a first run, each project's folders already listed (the search
    /// for files listed them), handed to its world.
    listed: Vec<crate::project::Listings>,
    /// The process exits right after this run, and nothing runs again
    /// (`claim_batch`, `claimc check`; not `--watch`, the language server
    /// or a test): modules are parsed where they are checked, part by part,
    /// and what each stage no longer needs is forgotten as it goes; a world
    /// read is not kept for a later change; and nothing is freed at the
    /// end, node by node (a tenth of a large run's time), the operating
    /// system takes the memory back at once.
    exiting: bool,
}

impl RunState<'_> {
    /// Brings the databases up to date with a changed file: a module's new
    /// text, or, for anything else, the world reads under that path
    /// (salsa then re-evaluates only the facts that read them). Returns
    /// false where only a fresh start will do: a module added, removed,
    /// unreadable, or with other `use`s than before.
    pub fn apply_change(&mut self, path: &std::path::Path) -> bool {
        for (p, db, l) in self.dbs.iter_mut() {
            let Ok(canon_root) = p.root.canonicalize() else { return false };
            let canon = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            if !canon.starts_with(&canon_root) {
                continue;
            }
            if path.extension().is_some_and(|x| x == "claim") {
                let module = crate::project::module_name(&canon_root, &canon);
                let Some(file) = l.program.modules(db).get(&module).copied() else { return false };
                let Ok(text) = crate::utf8::read_to_string(path) else { return false };
                let uses =
                    |t: &str| -> Vec<String> { claim_syntax::parse_uses(t).iter().map(|u| u.dotted()).collect() };
                if uses(file.text(db)) != uses(&text) {
                    return false;
                }
                let text: std::sync::Arc<str> = text.into();
                if let Ok(mut sources) = self.shared.lock() {
                    sources.set_text(file.file_id(db), text.clone());
                }
                file.edit(db, text);
            } else {
                db.refresh(path);
            }
        }
        true
    }
}

/// Runs again on databases a previous run left in `state` (a first call
/// fills it): what `--watch` does after each change.
pub fn run_again<'p>(opts: &BatchOptions, projects: &'p [crate::project::Project], state: &mut RunState<'p>) -> Output {
    run_projects(opts, projects, state)
}

fn run_projects<'p>(opts: &BatchOptions, projects: &'p [crate::project::Project], state: &mut RunState<'p>) -> Output {
    let mut clock = Timings::start(opts.timings);
    let mut out = run_timed(opts, projects, state, &mut clock);
    out.stderr.push_str(&clock.report());
    out
}

/// The phases of a run and how long each took (`--timings`).
struct Timings {
    on: bool,
    last: std::time::Instant,
    phases: Vec<(&'static str, std::time::Duration, Option<u64>)>,
}

/// The resident memory of this process in MB, where the system says
/// (Linux's `/proc`).
fn resident_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

impl Timings {
    fn start(on: bool) -> Timings {
        Timings { on, last: std::time::Instant::now(), phases: Vec::new() }
    }

    fn phase(&mut self, name: &'static str) {
        let now = std::time::Instant::now();
        // Projects are run one after another: a phase adds up over them.
        match self.phases.iter_mut().find(|p| p.0 == name) {
            Some(p) => {
                p.1 += now - self.last;
                p.2 = resident_mb();
            }
            None => self.phases.push((name, now - self.last, resident_mb())),
        }
        self.last = now;
    }

    fn report(&mut self) -> String {
        if !self.on {
            return String::new();
        }
        self.phase("report");
        let total: std::time::Duration = self.phases.iter().map(|p| p.1).sum();
        let mut s = String::from("timings:");
        for (name, d, rss) in &self.phases {
            let _ = write!(s, " {name} {:.1} ms", d.as_secs_f64() * 1e3);
            if let Some(mb) = rss {
                let _ = write!(s, " ({mb} MB)");
            }
            s.push(',');
        }
        let _ = writeln!(s, " total {:.1} ms", total.as_secs_f64() * 1e3);
        s
    }
}

/// The load and check stages: each project loaded into its database (a
/// run again reuses it) and every module checked, in parts, on every core.
/// `Err` is the output of a run that cannot go on.
fn load_and_check<'p>(
    opts: &BatchOptions,
    tool: Tool,
    projects: &'p [crate::project::Project],
    state: &mut RunState<'p>,
    clock: &mut Timings,
) -> Result<(), Output> {
    // One database per project. The world of each is known once its files
    // are: the world's reads are salsa inputs of that database.
    let shared = state.shared.clone();
    let new_world = |p: &crate::project::Project, dirs| {
        FsWorld::new(p.root.clone(), dirs, shared.clone(), opts.max_load_bytes)
            .with_layouts(opts.jobs, opts.limits.max_layer_bytes)
    };
    let dbs = &mut state.dbs;
    // A first run loads; a run again reuses what is loaded. A run that
    // exits after one check parses each module where it checks it, part by
    // part (see `check_in_parts`); one that runs again parses all as it loads.
    let defer = state.exiting;
    if dbs.is_empty() {
        let mut listed = std::mem::take(&mut state.listed).into_iter();
        for p in projects {
            let mut db = CliDb::new(new_world(p, Default::default()));
            db.max_value_len = opts.limits.max_value_len;
            db.fact_time_limit = opts.timeout_per_fact;
            // A run that exits after reading once never redoes a read.
            db.record_reads = !state.exiting;
            let l = match shared.lock() {
                Ok(mut sources) => crate::project::load_parsing(&db, &mut sources, p, &opts.limits, opts.jobs, defer),
                Err(_) => return Err(stopped(opts, tool, &[], &Sources::new(), "internal error")),
            };
            db.set_world(new_world(p, l.dirs.clone()).with_listings(listed.next().unwrap_or_default()));
            dbs.push((p, db, l));
        }
    }
    clock.phase("load");
    for (_, db, l) in dbs.iter_mut() {
        let evicted = crate::check_parts::check_in_parts(db, l, opts, state.exiting);
        // The last part's trees are freed beside the merge, which is serial
        // (on a worker's stack: freeing a tree recurses as deep as it nests).
        std::thread::scope(|s| {
            if opts.jobs > 1 {
                crate::parallel::spawn(s, move || drop(evicted));
            } else {
                drop(evicted);
            }
            // Nothing runs again: keep only what the next step reads.
            if state.exiting {
                claim_sema::forget::forget_checking(db);
            }
            clock.phase("check");
            // The summaries are kept until the exit: forgetting them freed
            // ~2 MB on this one thread (1.3–1.8 ms) while the other waited
            // for the facts to start.
            compile(&*db, l.program);
        });
        clock.phase("merge");
    }
    Ok(())
}

/// The programs the load and check stages made, each with its project and
/// load, and every diagnostic in order.
type Programs<'s> = Vec<(&'s crate::project::Project, &'s crate::project::Loaded, &'s claim_sema::Compiled)>;

fn programs<'s>(state: &'s RunState<'_>) -> (Programs<'s>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut loaded = Vec::new();
    for (p, db, l) in state.dbs.iter() {
        diags.extend(l.errors.iter().cloned());
        let compiled = compile(db, l.program);
        diags.extend(compiled.diagnostics.iter().cloned());
        loaded.push((*p, l, compiled));
    }
    (loaded, diags)
}

/// Whether the programs may run: no error (a warning is one with
/// `--deny-warnings`), and a `--filter` that selects a witness. `Ok` has
/// the diagnostics to print beside the run.
fn runnable(
    opts: &BatchOptions,
    loaded: &Programs<'_>,
    mut diags: Vec<Diagnostic>,
    sources: &Sources,
) -> Result<Vec<Diagnostic>, Output> {
    if opts.deny_warnings {
        for d in diags.iter_mut().filter(|d| !d.is_error()) {
            d.severity = claim_diagnostics::Severity::Error;
            d.notes.push("this warning is an error because of `--deny-warnings`".to_string());
        }
    }
    if diags.iter().any(Diagnostic::is_error) {
        return Err(stopped(opts, Tool::Batch, &diags, sources, "could not compile"));
    }
    if let Some(filter) = &opts.filter {
        let names = loaded.iter().flat_map(|(_, l, compiled)| {
            l.entries.iter().filter_map(|m| compiled.modules.get(m)).flat_map(|m| m.witnesses.iter().map(|w| &*w.name))
        });
        if let Some(d) = crate::selection::filter_matches_nothing(filter, names) {
            return Err(stopped(opts, Tool::Batch, &[d], sources, "cannot start"));
        }
    }
    Ok(diags)
}

/// What the facts stage made: an evaluator of each program over its facts'
/// values, the facts that broke (§7), and what the W0006 lint reads.
struct Facts<'c> {
    evaluators: Vec<Evaluator<'c, NoWorld>>,
    broken: Vec<Arc<claim_eval::Broken>>,
    lint_inputs: Vec<LintInput<'c>>,
}

/// Per program, what the W0006 lint reads: the declared types that may
/// hold arm bindings (none: nothing to lint), the roles of digest types,
/// and per fact the JSON digests its value holds.
type LintInput<'c> = (Option<BindingTypes<'c>>, Roles<'c>, Vec<Vec<JsonDigest>>);

/// The facts stage: every fact of every program, each once. `Err` holds
/// the errors of facts that failed other than by breaking (a limit, an
/// internal error): they stop the run.
fn facts<'c>(
    opts: &BatchOptions,
    dbs: &'c [ProjectDb<'_>],
    loaded: &Programs<'c>,
    texts: claim_eval::eval::Texts<'c>,
    clock: &mut Timings,
) -> Result<Facts<'c>, Vec<Diagnostic>> {
    // A broken fact (§7) is a refusal the witnesses meet, not an error.
    let mut fact_errors = Vec::new();
    let mut broken: Vec<Arc<claim_eval::Broken>> = Vec::new();
    let mut evaluators = Vec::new();
    let mut lint_inputs: Vec<LintInput<'_>> = Vec::new();
    for ((_, db, l), (_, _, compiled)) in dbs.iter().zip(loaded) {
        let facts: Vec<&hir::Fact> = compiled.modules.values().flat_map(|m| m.facts.iter()).collect();
        // Each fact's result is taken where it was computed, not looked up
        // again afterwards on this thread. A module's facts on one thread: they read each other (a thread
        // that needs a fact another is computing waits for it).
        let runs = crate::parallel::runs(&facts, SHORTEST_RUN, RUN, |a, b| a.loc.file == b.loc.file);
        // The JSON digests the W0006 lint compares, taken from each value on
        // the thread that just made it (see `collect_json_digests`).
        let holding = binding_types(compiled);
        let lint_reads = holding.is_some();
        let roles = Roles::of(&compiled.types);
        let digests = |r: &claim_eval::incremental::FactResult, fact: &hir::Fact| {
            let mut found = Vec::new();
            if let (true, Ok(v)) = (lint_reads, &*r.0) {
                claim_eval::json_digests::collect_json_digests(v, &fact.ty, &roles, &mut found);
            }
            found
        };
        if l.evicting {
            db.world().read_ahead_loads(&facts, opts.jobs);
        }
        let results = crate::parallel::map_runs_with(db, &facts, &runs, opts.jobs, |db, fact| {
            let r = claim_eval::incremental::fact_result(db, l.program, fact);
            let found = digests(&r, fact);
            (r, found)
        });
        let (results, found): (Vec<_>, Vec<_>) = results.into_iter().unzip();
        lint_inputs.push((holding, roles, found));
        let gathered = claim_eval::incremental::gather_facts(&facts, results);
        clock.phase("facts");
        fact_errors.extend(gathered.fatal);
        broken.extend(gathered.broken);
        evaluators.push(
            Evaluator::with_facts(compiled, &NoWorld, gathered.values)
                .with_max_len(opts.limits.max_value_len)
                .with_texts(texts),
        );
    }
    if !fact_errors.is_empty() {
        return Err(fact_errors);
    }
    Ok(Facts { evaluators, broken, lint_inputs })
}

/// The `--mutate` stage: every leaf of every program's facts changed in
/// turn (`mutate.rs`). Gives the evaluators back over the facts as they
/// were, and the report.
fn mutation<'c>(
    opts: &BatchOptions,
    dbs: &'c [ProjectDb<'_>],
    loaded: &Programs<'c>,
    evaluators: Vec<Evaluator<'c, NoWorld>>,
    (reports, groups, frontiers): (&[WitnessReport], &[(usize, String)], &[FrontierReport]),
    texts: claim_eval::eval::Texts<'c>,
) -> (Vec<Evaluator<'c, NoWorld>>, crate::mutate::MutateReport) {
    let mut report = crate::mutate::MutateReport::default();
    let mut again = Vec::new();
    for (k, (((_, db, l), (_, _, compiled)), ev)) in dbs.iter().zip(loaded).zip(evaluators).enumerate() {
        let start = groups.get(k).map_or(0, |g| g.0);
        let end = groups.get(k + 1).map_or(reports.len(), |g| g.0);
        let json_texts = db.json_texts();
        let settings = FactSettings {
            max_len: db.max_value_len,
            limit: db.fact_time_limit,
            texts: json_texts.as_ref().map(|t| &**t as claim_eval::eval::Texts<'_>),
        };
        let facts = crate::mutate::project(
            compiled,
            db.world(),
            ev.into_facts(),
            opts.jobs,
            (&reports[start..end], frontiers),
            &settings,
            &l.manifest,
            &mut report,
        );
        again.push(
            Evaluator::with_facts(compiled, &NoWorld, facts).with_max_len(opts.limits.max_value_len).with_texts(texts),
        );
    }
    (again, report)
}

/// What a run found, for its report.
struct Outcome {
    reports: Vec<WitnessReport>,
    /// Where each project's witnesses start, with its root.
    groups: Vec<(usize, String)>,
    frontiers: Vec<FrontierReport>,
    broken: Vec<claim_eval::broken::BrokenReport>,
    /// Every diagnostic, in order, and the warnings as the human report
    /// prints them.
    diags: Vec<Diagnostic>,
    warnings: String,
    /// `E0902` where nothing was verified.
    empty: Option<Diagnostic>,
    mutated: Option<crate::mutate::MutateReport>,
}

/// The report stage: the outcome in the format asked for, and the exit
/// code (§8). A run that is `exiting` leaves what it made to the exit.
fn report(
    opts: &BatchOptions,
    exiting: bool,
    outcome: Outcome,
    loaded: &Programs<'_>,
    evaluators: Vec<Evaluator<'_, NoWorld>>,
    sources: Sources,
) -> Output {
    let Outcome { reports, groups, frontiers, broken, mut diags, warnings, empty, mutated } = outcome;
    if opts.format != Format::Human {
        let dissolved = frontiers.iter().any(|f| f.dissolved.is_some());
        let unwitnessed = opts.deny_unwitnessed && mutated.as_ref().is_some_and(|m| m.unwitnessed() > 0);
        let misnamed = mutated.as_ref().is_some_and(|m| m.misnamed());
        let unexpected = broken.iter().filter(|b| !b.expected).count();
        let code = if empty.is_some() || unexpected > 0 || misnamed {
            2
        } else if reports.iter().any(|r| !r.passed()) || dissolved || unwitnessed {
            1
        } else {
            0
        };
        diags.extend(empty);
        let mut graphs = Vec::new();
        if opts.format == Format::Markdown {
            let mut verdicts = crate::output::graph::Verdicts::new();
            verdicts.extend(reports.iter().map(|r| (r.name.to_string(), r.passed())));
            verdicts.extend(frontiers.iter().map(|f| (f.name.to_string(), f.dissolved.is_none())));
            graphs = loaded
                .iter()
                .map(|(_, _, c)| {
                    crate::output::graph::render(c, crate::output::graph::GraphFormat::Mermaid, Some(&verdicts))
                })
                .collect();
        }
        let r = RunReport {
            tool: "claim_batch",
            witnesses: &reports,
            groups: &groups,
            frontiers: &frontiers,
            broken: &broken,
            diagnostics: &diags,
            sources: &sources,
            code,
            graphs,
            run: Some(run_identity(opts, loaded, &sources)),
            mutate: mutated.as_ref().map(|m| crate::mutate::to_json(m, &sources, &|f| sources.shared_text(f))),
        };
        let out = Output { stdout: crate::output::formats::render(opts.format, &r), stderr: String::new(), code };
        leave_if_exiting(exiting, reports, evaluators, sources);
        return out;
    }
    let groups = if groups.len() > 1 { groups } else { Vec::new() };
    let ran = crate::output::human::Ran { reports: &reports, groups: &groups, frontiers: &frontiers, broken: &broken };
    let mut out = crate::output::human::report(ran, &sources, opts, warnings, empty.is_some());
    if let Some(m) = &mutated {
        let texts = |f| sources.shared_text(f);
        out.stdout.push_str(&crate::mutate::human(m, &sources, opts, &texts));
        if opts.deny_unwitnessed && m.unwitnessed() > 0 && out.code == 0 {
            out.code = 1;
        }
        if m.misnamed() {
            out.code = 2;
        }
    }
    if let Some(d) = empty {
        out.stderr.push_str(&render_all(&[d], &sources, opts.color));
    }
    leave_if_exiting(exiting, reports, evaluators, sources);
    out
}

/// The whole run: load and check, then facts (all of them, in every
/// program, before any witness), witnesses, the analyses asked for, and the
/// report.
fn run_timed<'p>(
    opts: &BatchOptions,
    projects: &'p [crate::project::Project],
    state: &mut RunState<'p>,
    clock: &mut Timings,
) -> Output {
    if let Err(out) = load_and_check(opts, Tool::Batch, projects, state, clock) {
        return out;
    }
    let state = &*state;
    let shared = state.shared.clone();
    let sources_now = || state.sources_now();
    let dbs = &state.dbs;
    let (loaded, diags) = programs(state);
    let mut diags = match runnable(opts, &loaded, diags, &sources_now()) {
        Ok(diags) => diags,
        Err(out) => return out,
    };
    let mut warnings = render_all(&diags, &sources_now(), opts.color);

    // Witnesses read nothing (their world is `NoWorld`); they know the
    // JSON texts the facts read, to name where a failing value came from.
    let texts_of = shared.clone();
    let texts = move |f| texts_of.lock().ok()?.shared_text(f);
    let Facts { mut evaluators, broken, lint_inputs } = match facts(opts, dbs, &loaded, &texts, clock) {
        Ok(facts) => facts,
        Err(errors) => return stopped(opts, Tool::Batch, &errors, &sources_now(), "could not evaluate the facts"),
    };
    let mut late = Vec::new();
    // Lints that need the facts' values (W0006). Where warnings are denied
    // they decide whether witnesses run at all, so they come first;
    // otherwise they run beside the witnesses (they only read the values).
    let lint = || -> Vec<Diagnostic> {
        evaluators
            .iter()
            .zip(&lint_inputs)
            .flat_map(|(ev, (holding, roles, found))| {
                let holders = holding.as_ref().map(|h| binding_holders(ev, h)).unwrap_or_default();
                let everything = || {
                    let facts = ev.compiled.modules.values().flat_map(|m| m.facts.iter());
                    facts.filter_map(|f| ev.known_value(&f.name)).collect()
                };
                claim_eval::evidence_lint::unmentioned_bindings(holders, found.iter().flatten(), roles, everything)
            })
            .collect()
    };
    if opts.deny_warnings {
        late = sorted_late(lint(), &sources_now());
        if !late.is_empty() {
            for d in &mut late {
                d.severity = claim_diagnostics::Severity::Error;
                d.notes.push("this warning is an error because of `--deny-warnings`".to_string());
            }
            return stopped(opts, Tool::Batch, &late, &sources_now(), "warnings are denied");
        }
    }

    let mut reports: Vec<WitnessReport> = Vec::new();
    // Where each project's witnesses start, with its root, for the headers.
    let mut groups: Vec<(usize, String)> = Vec::new();
    let mut frontiers: Vec<FrontierReport> = Vec::new();
    std::thread::scope(|s| {
        // With one job, one thread: the lint runs after the witnesses. A
        // lint that panicked panics here: the run's handler reports it
        // (exit 101), never a run without its warnings.
        let beside = crate::parallel::Beside::start(s, !opts.deny_warnings && opts.jobs > 1, lint);
        run_witnesses(opts, &loaded, &evaluators, &mut reports, &mut groups, &mut frontiers);
        if !opts.deny_warnings {
            late = beside.join();
        }
    });
    // Which broken facts a passing witness expected (§7), judged over every
    // witness of the entries: a filtered or sharded run runs the others
    // too, quietly, where a fact broke.
    let quiet = if !broken.is_empty() && (opts.filter.is_some() || opts.shard.is_some()) {
        others(opts, &loaded, &evaluators)
    } else {
        Vec::new()
    };
    let broken = claim_eval::broken::broken_reports(&broken, &reports, &quiet, &frontiers);
    // Nothing reads a file's text through the shared sources from here on
    // (the witnesses have run): a run that exits takes them out rather than
    // copy a pointer to each of its tens of thousands of files (a reference
    // counted for each, and again as the copy is freed), once for the late
    // warnings' order, once to render them and once for the report.
    let sources = if state.exiting {
        shared.lock().map(|mut s| std::mem::take(&mut *s)).unwrap_or_default()
    } else {
        sources_now()
    };
    if !opts.deny_warnings {
        late = sorted_late(late, &sources);
    }
    warnings.push_str(&render_all(&late, &sources, opts.color));
    diags.extend(late);
    clock.phase("witnesses");
    // A run that verified nothing is not a pass (§8).
    let empty = nothing_verified(opts, &reports, &loaded);
    // `--mutate`: what no witness notices, from the run's own facts.
    let mut mutated = None;
    if opts.mutate {
        let (again, report) = mutation(opts, dbs, &loaded, evaluators, (&reports, &groups, &frontiers), &texts);
        evaluators = again;
        mutated = Some(report);
        clock.phase("mutate");
    }
    let outcome = Outcome { reports, groups, frontiers, broken, diags, warnings, empty, mutated };
    report(opts, state.exiting, outcome, &loaded, evaluators, sources)
}

/// `E0902` where no witness ran and the run may not be empty: a program
/// with no witness, entries without witnesses, or a shard of a program
/// that selects none. A shard that holds none of a program's witnesses is
/// not empty: `merge` checks that the shards make the whole.
fn nothing_verified(
    opts: &BatchOptions,
    reports: &[WitnessReport],
    loaded: &[(&crate::project::Project, &crate::project::Loaded, &claim_sema::Compiled)],
) -> Option<Diagnostic> {
    if !reports.is_empty() || opts.allow_empty {
        return None;
    }
    if opts.shard.is_some() {
        let whole: usize = loaded
            .iter()
            .map(|(_, l, c)| crate::selection::selected(c, &l.entries, opts.filter.as_deref(), None).len())
            .sum();
        if whole > 0 {
            return None;
        }
    }
    Some(
        Diagnostic::error("E0902", "no witness ran: nothing was verified")
            .with_note("a run that verified nothing is not a pass: the entries hold no witness")
            .with_help("add a witness, give the entries that hold them, or pass `--allow-empty` where an empty run is expected"),
    )
}

/// A run that exits next does not free its reports, the facts' values and
/// the files' texts one by one (~1.3 ms on one thread for 31,000
/// witnesses); the process's exit returns the memory at once.
fn leave_if_exiting(
    exiting: bool,
    reports: Vec<WitnessReport>,
    evaluators: Vec<Evaluator<'_, NoWorld>>,
    sources: Sources,
) {
    if exiting {
        std::mem::forget(reports);
        std::mem::forget(evaluators);
        std::mem::forget(sources);
    }
}

/// Runs each project's witnesses (filtered and sharded as asked) and checks
/// its frontiers, in order.
fn run_witnesses(
    opts: &BatchOptions,
    loaded: &[(&crate::project::Project, &crate::project::Loaded, &claim_sema::Compiled)],
    evaluators: &[Evaluator<'_, NoWorld>],
    reports: &mut Vec<WitnessReport>,
    groups: &mut Vec<(usize, String)>,
    frontiers: &mut Vec<FrontierReport>,
) {
    for ((p, l, compiled), ev) in loaded.iter().zip(evaluators) {
        let witnesses = crate::selection::selected(compiled, &l.entries, opts.filter.as_deref(), opts.shard);
        groups.push((reports.len(), crate::project::display_name(&p.root)));
        let check_all = || -> Vec<FrontierReport> {
            compiled.modules.values().flat_map(|m| m.frontiers.iter().map(|f| check_frontier(ev, f))).collect()
        };
        // The frontiers (one a module, each a little evaluation) are checked
        // beside the witnesses, not after them on one thread while the
        // other core waits.
        let (ran, checked) = std::thread::scope(|s| {
            let beside = crate::parallel::Beside::start(s, opts.jobs > 1, check_all);
            let ran = run_parallel(ev, &witnesses, opts.jobs, opts.explain != Explain::Off, opts.timeout_per_witness);
            (ran, beside.join())
        });
        // One project's reports are the list itself, not copied into it.
        if reports.is_empty() {
            *reports = ran;
        } else {
            reports.extend(ran);
        }
        frontiers.extend(checked);
    }
}

/// The witnesses of the entries a filtered or sharded run did not report,
/// run to learn which broken facts they expect (their verdicts are the
/// other shards' to report).
fn others(
    opts: &BatchOptions,
    loaded: &[(&crate::project::Project, &crate::project::Loaded, &claim_sema::Compiled)],
    evaluators: &[Evaluator<'_, NoWorld>],
) -> Vec<WitnessReport> {
    let mut out = Vec::new();
    for ((_, l, compiled), ev) in loaded.iter().zip(evaluators) {
        let reported: rustc_hash::FxHashSet<*const hir::Witness> =
            crate::selection::selected(compiled, &l.entries, opts.filter.as_deref(), opts.shard)
                .into_iter()
                .map(|w| w as *const _)
                .collect();
        let rest: Vec<&hir::Witness> = crate::selection::selected(compiled, &l.entries, None, None)
            .into_iter()
            .filter(|w| !reported.contains(&(*w as *const _)))
            .collect();
        out.extend(run_parallel(ev, &rest, opts.jobs, false, opts.timeout_per_witness));
    }
    out
}

/// Which part of which program this run is: its shard, a digest of the
/// program's `.claim` files, entries and filter, and how many witnesses the
/// whole program selects.
fn run_identity(
    opts: &BatchOptions,
    loaded: &[(&crate::project::Project, &crate::project::Loaded, &claim_sema::Compiled)],
    sources: &Sources,
) -> crate::output::formats::RunIdentity {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    // Netstrings: no two different sequences of parts hash alike.
    let mut part = |s: &str| {
        h.update(format!("{}:", s.len()));
        h.update(s);
        h.update(",");
    };
    let mut files: Vec<(&str, &str)> = sources.files().filter(|(name, _)| name.ends_with(".claim")).collect();
    files.sort_unstable();
    for (name, text) in files {
        part(name);
        part(text);
    }
    for (p, l, _) in loaded {
        part(&crate::project::display_name(&p.root));
        l.entries.iter().for_each(|e| part(e));
    }
    part(opts.filter.as_deref().unwrap_or(""));
    let selected = loaded
        .iter()
        .map(|(_, l, compiled)| crate::selection::selected(compiled, &l.entries, opts.filter.as_deref(), None).len())
        .sum();
    let digest: [u8; 32] = h.finalize().into();
    crate::output::formats::RunIdentity {
        shard: opts.shard.unwrap_or((1, 1)),
        program: format!("sha256:{}", claim_eval::value::hex(&digest)),
        selected,
    }
}

/// Late warnings in a stable order: by file name, not id (JSON files get
/// their ids in the order facts read them, which threads decide).
fn sorted_late(mut late: Vec<Diagnostic>, sources: &Sources) -> Vec<Diagnostic> {
    late.sort_by_cached_key(|d| {
        let at = d.primary.as_ref().map(|l| (sources.name(l.loc.file).to_string(), l.loc.span.start, l.loc.span.end));
        (at, d.code)
    });
    late
}

/// The facts' values that may hold arm bindings, by their declared types
/// (the W0006 lint walks only these for bindings).
fn binding_holders<'e>(ev: &'e Evaluator<'_, NoWorld>, holds: &BindingTypes<'_>) -> Vec<&'e Value> {
    let facts = ev.compiled.modules.values().flat_map(|m| m.facts.iter());
    facts.filter(|f| holds.contains(&f.ty)).filter_map(|f| ev.known_value(&f.name)).collect()
}

/// The declared types of a program's facts that may hold arm bindings.
type BindingTypes<'c> = rustc_hash::FxHashSet<&'c Ty>;

/// `BindingTypes` of a program; `None` where none may hold one (the W0006
/// lint then has nothing to read).
fn binding_types(compiled: &claim_sema::Compiled) -> Option<BindingTypes<'_>> {
    let mut by_type: rustc_hash::FxHashMap<&Ty, bool> = Default::default();
    // Neighbouring facts are mostly of one type (a module's receipts): the
    // last type is compared before the map is hashed into.
    let mut last: Option<&Ty> = None;
    for f in compiled.modules.values().flat_map(|m| m.facts.iter()) {
        if last == Some(&f.ty) {
            continue;
        }
        last = Some(&f.ty);
        by_type.entry(&f.ty).or_insert_with(|| claim_eval::evidence_lint::may_hold_bindings(&f.ty, &compiled.types));
    }
    let holds: BindingTypes<'_> = by_type.into_iter().filter_map(|(t, h)| h.then_some(t)).collect();
    (!holds.is_empty()).then_some(holds)
}

/// The most neighbouring witnesses (or facts) a worker takes at once, and
/// the fewest (unless the list ends) before a run may end with its module.
const RUN: usize = 64;
const SHORTEST_RUN: usize = 8;

/// Runs witnesses on `jobs` threads; results come back in input order.
fn run_parallel(
    ev: &Evaluator<'_, NoWorld>,
    witnesses: &[&hir::Witness],
    jobs: usize,
    trace: bool,
    limit: Option<std::time::Duration>,
) -> Vec<WitnessReport> {
    let jobs = jobs.max(1).min(witnesses.len().max(1));
    if jobs == 1 {
        // As each worker below: the memo starts over with each module.
        let mut memo = CallMemo::default();
        let mut module = None;
        return witnesses
            .iter()
            .map(|w| {
                if module.replace(w.loc.file).is_some_and(|m| m != w.loc.file) {
                    memo.start_over();
                }
                run_witness_with(ev, w, trace, limit, &mut memo)
            })
            .collect();
    }
    let runs = crate::parallel::runs(witnesses, SHORTEST_RUN, RUN, |a, b| a.loc.file == b.loc.file);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<Option<WitnessReport>>> = Mutex::new(vec![None; witnesses.len()]);
    let deliberate_panic = std::env::var_os("CLAIM_INTERNAL_PANIC").is_some_and(|v| v == "worker");
    let work = || {
        let mut memo = CallMemo::default();
        // A module's witnesses at once, not one at a time: they read its
        // facts and call its functions with the same arguments, so one
        // thread's memo answers them, and two threads do not take turns
        // counting references to the same fact values.
        let mut module = None;
        while let Some(&(start, end)) = runs.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
            let file = witnesses[start].loc.file;
            if module.replace(file).is_some_and(|m| m != file) {
                memo.start_over();
            }
            let mut done = Vec::with_capacity(end - start);
            for w in &witnesses[start..end] {
                if deliberate_panic {
                    // The fail-closed tests' hook: a worker dies mid-run.
                    panic!("deliberate panic in a witness worker (CLAIM_INTERNAL_PANIC=worker)");
                }
                done.push(run_witness_with(ev, w, trace, limit, &mut memo));
            }
            if let Ok(mut res) = results.lock() {
                for (slot, r) in res[start..end].iter_mut().zip(done) {
                    *slot = Some(r);
                }
            }
        }
    };
    // This thread is one of the workers: its allocator heap, warm from the
    // phases before, is reused rather than a new thread's started afresh.
    std::thread::scope(|s| {
        for _ in 1..jobs {
            crate::parallel::spawn(s, work);
        }
        work();
    });
    // `filter_map`, not `flatten`: it collects in place, so a large run's
    // reports are not copied into a second list.
    #[allow(clippy::filter_map_identity)]
    results.into_inner().unwrap_or_default().into_iter().filter_map(|r| r).collect()
}

/// What `claimc check` prints: every diagnostic, then how many modules were
/// checked with how many errors and warnings; exit 2 where one is an error.
fn checked(opts: &BatchOptions, diags: &[Diagnostic], sources: &Sources, modules: usize) -> Output {
    let (errors, warnings) = count(diags);
    let code = if errors > 0 { 2 } else { 0 };
    if opts.format != Format::Human {
        let r = RunReport::nothing_run("claimc", diags, sources, code);
        return Output { stdout: crate::output::formats::render(opts.format, &r), stderr: String::new(), code };
    }
    let mut stderr = render_all(diags, sources, opts.color);
    let _ = writeln!(
        stderr,
        "checked {}: {}, {}",
        plural(modules, "module"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    Output { stdout: String::new(), stderr, code }
}
