//! The `claimc` commands composed from `claim_batch`'s run: `claimc check`
//! (a run that stops after compiling) and `claimc graph` (the derivation
//! graph, with each witness's verdict where asked).
//!
//! A check is a `claim_batch` run that stops after compiling: the same
//! search for files, the same parsing and checking on every core, part by
//! part (so a large project never holds every syntax tree at once), and the
//! same diagnostics in the same order. No fact is read.

pub mod doc;
pub mod fmt;
pub mod init;
pub mod merge;

use crate::batch::{check, run};
use crate::options::BatchOptions;
use crate::output::graph::{render, GraphFormat, Verdicts};
use crate::Output;
use std::fmt::Write;
use std::path::PathBuf;

pub fn run_check(paths: &[PathBuf], color: bool, format: crate::output::formats::Format) -> Output {
    let opts = BatchOptions {
        color,
        format,
        jobs: crate::parallel::default_jobs(),
        ..BatchOptions::json_run(paths.to_vec(), None)
    };
    check(&opts)
}

/// `claimc graph PATH… --format dot|mermaid [--with-verdicts]`.
pub fn graph(paths: &[PathBuf], format: GraphFormat, with_verdicts: bool) -> crate::Output {
    let projects = match crate::project::projects(paths) {
        Ok(p) => p,
        Err(d) => {
            return crate::Output {
                stdout: String::new(),
                stderr: format!("error[{}]: {}\n", d.code, d.message),
                code: 2,
            }
        }
    };
    let verdicts = if with_verdicts {
        let opts = BatchOptions::json_run(paths.to_vec(), None);
        let run = run(&opts);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap_or_default();
        let mut v = Verdicts::new();
        for w in doc["witnesses"].as_array().into_iter().flatten() {
            v.insert(w["name"].as_str().unwrap_or("").to_string(), w["status"] == "pass");
        }
        for f in doc["frontiers"].as_array().into_iter().flatten() {
            v.insert(f["name"].as_str().unwrap_or("").to_string(), f["status"] == "open");
        }
        Some(v)
    } else {
        None
    };
    let db = claim_sema::Database::default();
    let mut sources = claim_diagnostics::Sources::new();
    let mut out = String::new();
    // Parsed and checked on every core (the serial compile then finds each
    // module's check done, and orders the graph as before).
    let jobs = crate::parallel::default_jobs();
    for p in &projects {
        let l = crate::project::load_with(&db, &mut sources, p, &crate::project::Limits::default(), jobs);
        let files: Vec<claim_sema::SourceFile> = l.program.modules(&db).values().copied().collect();
        crate::parallel::warm(&db, &files, jobs, |db, file| {
            claim_sema::summary::module_summary(db, l.program, *file);
        });
        let compiled = claim_sema::compile(&db, l.program);
        // A file that could not be read is an error of the graph too: its
        // module would be missing from it.
        if !l.errors.is_empty() || compiled.has_errors() {
            let diags: Vec<claim_diagnostics::Diagnostic> =
                l.errors.iter().chain(compiled.diagnostics.iter()).cloned().collect();
            let text = crate::output::human::render_all(&diags, &sources, false);
            return crate::Output { stdout: String::new(), stderr: text, code: 2 };
        }
        if projects.len() > 1 {
            let comment = if format == GraphFormat::Dot { "//" } else { "%%" };
            let _ = writeln!(out, "{comment} {}", crate::project::display_name(&p.root));
        }
        out.push_str(&render(compiled, format, verdicts.as_ref()));
    }
    crate::Output { stdout: out, stderr: String::new(), code: 0 }
}
