//! `claimc check PATH`: compile only, and report every diagnostic.

use crate::batch::render_all;
use crate::project::{load, projects};
use crate::Output;
use claim_diagnostics::{Diagnostic, Sources};
use claim_sema::{compile, Database};
use std::path::PathBuf;

pub fn run(paths: &[PathBuf], color: bool, format: crate::formats::Format) -> Output {
    let projects = match projects(paths) {
        Ok(p) => p,
        Err(d) => {
            return Output { stdout: String::new(), stderr: render_all(&[*d], &Sources::new(), color), code: 2 };
        }
    };
    let db = Database::default();
    let mut sources = Sources::new();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut modules = 0;
    for p in &projects {
        let l = load(&db, &mut sources, p);
        diags.extend(l.errors);
        let compiled = compile(&db, l.program);
        modules += compiled.modules.len();
        diags.extend(compiled.diagnostics.iter().cloned());
    }
    // `claimc check` exits after this: the operating system takes the
    // database's memory back faster than freeing it node by node.
    std::mem::forget(db);
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    if format != crate::formats::Format::Human {
        let code = if errors > 0 { 2 } else { 0 };
        let r = crate::formats::RunReport {
            tool: "claimc",
            witnesses: &[],
            groups: &[],
            frontiers: &[],
            diagnostics: &diags,
            sources: &sources,
            code,
            graphs: Vec::new(),
        };
        return Output { stdout: crate::formats::render(format, &r), stderr: String::new(), code };
    }
    let mut stderr = render_all(&diags, &sources, color);
    let code = if errors > 0 { 2 } else { 0 };
    stderr.push_str(&format!(
        "checked {modules} module{}: {errors} error{}, {warnings} warning{}\n",
        if modules == 1 { "" } else { "s" },
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    ));
    Output { stdout: String::new(), stderr, code }
}
