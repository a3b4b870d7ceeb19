//! The human report of a batch run (`claim_batch`'s default format): a
//! line a witness, the failures' and dissolved frontiers' diagnostics,
//! the `--explain` traces, the open frontiers and the summary line.

use crate::options::{BatchOptions, Explain};
use crate::parallel::Beside;
use crate::Output;
use claim_diagnostics::{Diagnostic, Sources};
use claim_eval::broken::BrokenReport;
use claim_eval::{FrontierReport, WitnessReport};
use std::fmt::Write as _;

/// What a run's witnesses, frontiers and facts gave.
pub(crate) struct Ran<'a> {
    pub reports: &'a [WitnessReport],
    /// Where each project's witnesses start, where a run has several.
    pub groups: &'a [(usize, String)],
    pub frontiers: &'a [FrontierReport],
    pub broken: &'a [BrokenReport],
}

/// The report of a run, with the warnings for standard error.
pub(crate) fn report(ran: Ran<'_>, sources: &Sources, opts: &BatchOptions, warnings: String, empty: bool) -> Output {
    let Ran { reports, groups, frontiers, broken } = ran;
    // The open frontiers' lines (each asks its module for a line number,
    // counting its newlines) are written on a second thread meanwhile.
    std::thread::scope(|s| {
        let open_frontiers = Beside::start(s, opts.jobs > 1 && frontiers.len() >= BESIDE_FRONTIERS, || {
            open_frontiers(frontiers, sources)
        });
        // A line a witness, pushed rather than formatted: `writeln!` was most
        // of the report (tens of thousands of lines, on one thread).
        let mut out = String::with_capacity(reports.iter().map(|r| r.name.len() + 6).sum::<usize>() + 64);
        for (i, r) in reports.iter().enumerate() {
            // With several projects in one run, each one's witnesses under its name.
            if let Some((_, name)) = groups.iter().find(|(start, _)| *start == i) {
                let name = claim_diagnostics::printable::terminal(name);
                let _ = writeln!(out, "{}== {name}", if i > 0 { "\n" } else { "" });
            }
            out.push_str(if r.passed() { "PASS " } else { "FAIL " });
            out.push_str(&r.name);
            out.push('\n');
        }
        let failures: Vec<&Diagnostic> = reports.iter().filter_map(|r| r.failure.as_deref()).collect();
        let dissolved: Vec<&Diagnostic> = frontiers.iter().filter_map(|f| f.dissolved.as_ref()).collect();
        // Each broken fact no witness expected, once, after the verdicts
        // it caused.
        let unexpected: Vec<&BrokenReport> = broken.iter().filter(|b| !b.expected).collect();
        let shown: Vec<&Diagnostic> = failures
            .iter()
            .chain(dissolved.iter())
            .copied()
            .chain(unexpected.iter().flat_map(|b| &b.diagnostics))
            .collect();
        out.push_str(&render_in_parts(&shown, sources, opts));
        for r in reports {
            let wanted = match opts.explain {
                Explain::Off => false,
                Explain::Failures => !r.passed(),
                Explain::All => true,
            };
            if !wanted {
                continue;
            }
            let _ = writeln!(out, "\nexplain {} ({}):", r.name, if r.passed() { "passed" } else { "failed" });
            if r.trace.is_empty() {
                let _ = writeln!(out, "  (no function calls or requirements)");
            }
            for t in &r.trace {
                let (line, _) = sources.line_col(t.loc.file, t.loc.span.start);
                let text = match t.text.strip_prefix("require ") {
                    // Show the condition as written: `require n < 100 failed (…)`.
                    Some(rest) => {
                        let src = sources.text(t.loc.file).get(t.loc.span.range()).unwrap_or("");
                        let cond = src.trim_start_matches("require").split(" else").next().unwrap_or("").trim();
                        format!("require {cond} {rest}")
                    }
                    None => t.text.clone(),
                };
                let text = claim_diagnostics::printable(&text);
                let file = claim_diagnostics::printable::terminal(sources.name(t.loc.file));
                let _ = writeln!(out, "  {}{text}    [{file}:{line}]", "  ".repeat(t.depth));
            }
        }
        out.push_str(&open_frontiers.join());
        let passed = reports.iter().filter(|r| r.passed()).count();
        let failed = reports.len() - passed;
        let mut summary = format!("{passed}/{} PASS", reports.len());
        if failed > 0 {
            let _ = write!(summary, ", {failed} FAIL");
        }
        if !dissolved.is_empty() {
            let _ = write!(summary, ", {} DISSOLVED", dissolved.len());
        }
        if !unexpected.is_empty() {
            let _ = write!(summary, ", {} BROKEN", unexpected.len());
        }
        if empty {
            // Not `0/0 PASS`: a run that verified nothing is not a pass.
            summary = "0/0: no witness ran, nothing was verified".to_string();
        }
        let _ = writeln!(out, "\n{summary}");
        let code = if empty || !unexpected.is_empty() {
            2
        } else if failed > 0 || !dissolved.is_empty() {
            1
        } else {
            0
        };
        Output { stdout: out, stderr: warnings, code }
    })
}

/// The diagnostics, rendered in order: in a part for each job where there
/// are many (a run where one receipt in ten is stale renders thousands,
/// each with its excerpts), each part with its own renderer.
pub(crate) fn render_in_parts(shown: &[&Diagnostic], sources: &Sources, opts: &BatchOptions) -> String {
    let render = |part: &[&Diagnostic]| {
        let mut renderer = claim_diagnostics::HumanRenderer::new(sources, opts.color);
        let mut out = String::new();
        for d in part {
            out.push('\n');
            out.push_str(&renderer.render(d));
        }
        out
    };
    if opts.jobs <= 1 || shown.len() < BESIDE_DIAGNOSTICS {
        return render(shown);
    }
    let parts: Vec<&[&Diagnostic]> = shown.chunks(shown.len().div_ceil(opts.jobs)).collect();
    crate::parallel::map(&parts, opts.jobs, |part| render(part)).concat()
}

/// Fewer diagnostics than this are rendered on the report's own thread.
const BESIDE_DIAGNOSTICS: usize = 32;

/// The open frontiers' block of the report (empty where none is open).
fn open_frontiers(frontiers: &[FrontierReport], sources: &Sources) -> String {
    let mut out = String::new();
    let open: Vec<&FrontierReport> = frontiers.iter().filter(|f| f.dissolved.is_none()).collect();
    if !open.is_empty() {
        let _ = writeln!(out, "\nopen frontiers:");
        for f in &open {
            let (line, _) = sources.line_col(f.loc.file, f.loc.span.start);
            let text = claim_diagnostics::printable(&f.text);
            let file = claim_diagnostics::printable::terminal(sources.name(f.loc.file));
            let _ = writeln!(out, "  {} ({file}:{line}): {text}", f.name);
        }
    }
    out
}

/// Fewer open frontiers than this are written on the report's own thread:
/// a thread costs more to start than they take.
const BESIDE_FRONTIERS: usize = 64;

/// Renders diagnostics in order.
pub fn render_all(diags: &[Diagnostic], sources: &Sources, color: bool) -> String {
    let mut s = String::new();
    let mut renderer = claim_diagnostics::HumanRenderer::new(sources, color);
    for d in diags {
        s.push_str(&renderer.render(d));
    }
    s
}

pub(crate) fn count(diags: &[Diagnostic]) -> (usize, usize) {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    (errors, diags.len() - errors)
}

pub(crate) fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
