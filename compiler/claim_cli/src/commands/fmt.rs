//! `claimc fmt [--check] PATH…`: rewrite `.claim` files in the canonical
//! layout, or (`--check`) print the diff and exit 1 where one would change.
//! `-` formats standard input to standard output, as editors call it.

use crate::output::human::render_all;
use crate::project::display_name;
use crate::Output;
use claim_diagnostics::{Diagnostic, Sources};
use std::io::Read;
use std::path::{Path, PathBuf};

pub fn command(paths: &[PathBuf], check: bool, color: bool) -> Output {
    let mut out = Output { stdout: String::new(), stderr: String::new(), code: 0 };
    let mut sources = Sources::new();
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut files = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            files.push(p.clone());
        } else if p.is_dir() {
            let before = files.len();
            if let Err(e) = crate::project::claim_files(p, &mut files) {
                errors.push(crate::project::usage_error(format!("cannot read `{}`: {e}", display_name(p))));
            } else if files.len() == before {
                // `fmt --check` on a folder that holds nothing would pass a
                // CI job whose paths have moved.
                errors.push(
                    crate::project::usage_error(format!("no `.claim` file under `{}`", display_name(p))).with_note(
                        "a folder is searched for `.claim` files below it, skipping hidden folders and `target`",
                    ),
                );
            }
        } else if p.is_file() {
            files.push(p.clone());
        } else {
            errors.push(crate::project::usage_error(format!("`{}` does not exist", display_name(p))));
        }
    }
    let mut changed = 0usize;
    for file in &files {
        let stdin = file.as_os_str() == "-";
        let (text, mark) = match read(file, stdin) {
            Ok(t) => t,
            Err(d) => {
                errors.push(*d);
                continue;
            }
        };
        let name = if stdin { "<stdin>".to_string() } else { display_name(file) };
        let formatted = match claim_fmt::format_source(&text) {
            Ok(f) => f,
            Err(errs) => {
                let fid = sources.add(name, text);
                errors.extend(errs.iter().map(|e| Diagnostic::from_syntax(fid, e)));
                continue;
            }
        };
        if stdin {
            out.stdout.push_str(&formatted);
            continue;
        }
        if formatted == text {
            continue;
        }
        changed += 1;
        if check {
            let diff = similar::TextDiff::from_lines(&text, &formatted);
            out.stdout.push_str(
                &diff.unified_diff().context_radius(3).header(&name, &format!("{name} (formatted)")).to_string(),
            );
        } else if let Err(e) = std::fs::write(file, [mark, formatted.as_bytes()].concat()) {
            errors.push(crate::project::usage_error(format!("cannot write `{name}`: {e}")));
        } else {
            out.stderr.push_str(&format!("formatted {name}\n"));
        }
    }
    if !errors.is_empty() {
        out.stderr.push_str(&render_all(&errors, &sources, color));
        out.code = 2;
    } else if check && changed > 0 {
        out.stderr.push_str(&format!(
            "{changed} file{} would be reformatted; run `claimc fmt` on {}\n",
            if changed == 1 { "" } else { "s" },
            if changed == 1 { "it" } else { "them" }
        ));
        out.code = 1;
    }
    out
}

/// A file's text, and the byte order mark it began with (written back
/// before the formatted text: formatting does not change how a file is
/// marked).
fn read(file: &Path, stdin: bool) -> Result<(String, &'static [u8]), Box<Diagnostic>> {
    let mut bytes = Vec::new();
    let res = if stdin {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(file).map(|b| bytes = b)
    };
    if let Err(e) = res {
        return Err(Box::new(crate::project::usage_error(format!("cannot read `{}`: {e}", display_name(file)))));
    }
    let mark: &'static [u8] = if bytes.starts_with(crate::utf8::BOM) { crate::utf8::BOM } else { b"" };
    crate::utf8::decode(bytes).map(|text| (text, mark)).map_err(|e| {
        Box::new(
            Diagnostic::error("E0001", format!("`{}` is not valid UTF-8", display_name(file)))
                .with_note(format!("invalid byte at offset {}", e.in_file)),
        )
    })
}
