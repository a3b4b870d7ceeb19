//! `claimc check PATH`: compile only, and report every diagnostic.
//!
//! A check is a `claim_batch` run that stops after compiling: the same
//! search for files, the same parsing and checking on every core, part by
//! part (so a large project never holds every syntax tree at once), and the
//! same diagnostics in the same order. No fact is read.

use crate::batch::{count, plural, render_all, run, BatchOptions};
use crate::formats::{Format, RunReport};
use crate::Output;
use claim_diagnostics::{Diagnostic, Sources};
use std::fmt::Write;
use std::path::PathBuf;

pub fn run_check(paths: &[PathBuf], color: bool, format: crate::formats::Format) -> Output {
    let opts = BatchOptions {
        color,
        format,
        jobs: crate::par::default_jobs(),
        // The process exits after the check: the operating system takes
        // the databases' memory back faster than freeing it node by node.
        exit_after: true,
        check_only: true,
        ..BatchOptions::json_run(paths.to_vec(), None)
    };
    run(&opts)
}

/// What `claimc check` prints: every diagnostic, then how many modules were
/// checked with how many errors and warnings; exit 2 where one is an error.
pub(crate) fn checked(opts: &BatchOptions, diags: &[Diagnostic], sources: &Sources, modules: usize) -> Output {
    let (errors, warnings) = count(diags);
    let code = if errors > 0 { 2 } else { 0 };
    if opts.format != Format::Human {
        let r = RunReport {
            tool: "claimc",
            witnesses: &[],
            groups: &[],
            frontiers: &[],
            broken: &[],
            diagnostics: diags,
            sources,
            code,
            graphs: Vec::new(),
            run: None,
            mutate: None,
        };
        return Output { stdout: crate::formats::render(opts.format, &r), stderr: String::new(), code };
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
