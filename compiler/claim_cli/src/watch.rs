//! `claim_batch --watch`: run, then run again whenever a file under the
//! projects changes (a `.claim` file, a receipt, a hashed tree), printing
//! only the witnesses whose verdict changed, and the summary line.
//!
//! The databases stay between runs: a changed module is re-parsed and
//! re-checked alone, a changed receipt or tree re-evaluates only the facts
//! that read it (salsa), and every witness runs again on those facts (they
//! are pure and cheap). A change that alters which modules there are (a
//! file added or removed, another `use`) starts afresh. Either way the run
//! reads the files as they are on disk, as CI would.

use crate::batch::{run_again, RunState};
use crate::options::BatchOptions;
use crate::output::formats::Format;
use crate::Output;
use notify::{RecursiveMode, Watcher};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::channel;
use std::time::Duration;

/// Each witness's verdict line (`PASS name`, `FAIL name: why`), by name.
fn verdicts(report: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for w in report["witnesses"].as_array().into_iter().flatten() {
        let name = w["name"].as_str().unwrap_or("?").to_string();
        let line = if w["status"] == "pass" {
            format!("PASS {name}")
        } else {
            let why = w["diagnostics"][0]["message"].as_str().unwrap_or("failed");
            format!("FAIL {name}: {why}")
        };
        out.insert(name, line);
    }
    out
}

/// What changed between two runs, and the new summary.
pub fn changes(before: &BTreeMap<String, String>, report: &Value) -> String {
    let now = verdicts(report);
    let mut out = String::new();
    for (name, line) in &now {
        if before.get(name) != Some(line) {
            out.push_str(line);
            out.push('\n');
        }
    }
    for name in before.keys().filter(|n| !now.contains_key(*n)) {
        out.push_str(&format!("GONE {name}\n"));
    }
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        let at = match (d["primary"]["file"].as_str(), d["primary"]["line"].as_u64()) {
            (Some(f), Some(l)) => format!("{f}:{l}: "),
            _ => String::new(),
        };
        out.push_str(&format!(
            "{at}{}[{}]: {}\n",
            d["severity"].as_str().unwrap_or("error"),
            d["code"].as_str().unwrap_or(""),
            d["message"].as_str().unwrap_or("")
        ));
    }
    let s = &report["summary"];
    match (s["passed"].as_u64(), s["total"].as_u64()) {
        (Some(p), Some(t)) if report["exit_code"] != 2 => {
            out.push_str(&format!("{p}/{t} PASS\n"));
        }
        _ => out.push_str("not run: the program has errors\n"),
    }
    out
}

pub fn watch(opts: &BatchOptions) -> Output {
    let mut json_opts = opts.clone();
    json_opts.format = Format::Json;
    json_opts.color = false;
    // A folder entry is watched even while it holds no `.claim` file yet.
    let mut roots: Vec<PathBuf> = match crate::project::projects_or_none(&opts.entries) {
        Ok(ps) => ps.into_iter().map(|p| p.root).collect(),
        Err(d) => return usage(d.message.clone()),
    };
    for e in opts.entries.iter().filter(|e| e.is_dir()) {
        let e = std::path::absolute(e).unwrap_or_else(|_| e.clone());
        if !roots.iter().any(|r| e.starts_with(r)) {
            roots.push(e);
        }
    }
    let (tx, rx) = channel();
    let mut watcher = match notify::recommended_watcher(move |e: notify::Result<notify::Event>| {
        // Reads are not changes: a run lists and reads the folders it
        // watches, and must not wake itself.
        match e {
            Ok(e) if !matches!(e.kind, notify::EventKind::Access(_)) => {
                let _ = tx.send(e.paths);
            }
            _ => {}
        }
    }) {
        Ok(w) => w,
        Err(e) => return usage(format!("cannot watch files: {e}")),
    };
    for r in &roots {
        if let Err(e) = watcher.watch(r, RecursiveMode::Recursive) {
            return usage(format!("cannot watch `{}`: {e}", r.display()));
        }
    }
    let mut before: Option<BTreeMap<String, String>> = None;
    // Each turn of this loop starts afresh (the first run, or a change to
    // which modules there are); the inner loop reuses the databases.
    loop {
        let projects = match crate::project::projects_or_none(&opts.entries) {
            Ok(ps) => ps,
            Err(d) => return usage(d.message.clone()),
        };
        let mut state = RunState::default();
        match &before {
            None => {
                // The first run is printed in full, as a plain run would.
                let first = run_again(opts, &projects, &mut state);
                eprint!("{}", first.stderr);
                print!("{}", first.stdout);
                let report = run_again(&json_opts, &projects, &mut state);
                before = Some(verdicts(&serde_json::from_str(&report.stdout).unwrap_or(Value::Null)));
                let shown = roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>().join(", ");
                println!("watching {shown} for changes (Ctrl-C to stop)");
            }
            Some(old) => {
                let report: Value =
                    serde_json::from_str(&run_again(&json_opts, &projects, &mut state).stdout).unwrap_or(Value::Null);
                print!("{}", changes(old, &report));
                before = Some(verdicts(&report));
            }
        }
        let _ = std::io::stdout().flush();
        loop {
            let Ok(mut changed) = rx.recv() else {
                return Output { stdout: String::new(), stderr: String::new(), code: 0 };
            };
            // Editors save in bursts (write, rename, chmod): take them as one.
            while let Ok(more) = rx.recv_timeout(Duration::from_millis(150)) {
                changed.extend(more);
            }
            if changed.iter().all(|p| p.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.'))) {
                continue;
            }
            changed.sort();
            changed.dedup();
            // Every change is applied, even after one that needs a fresh start.
            let mut fresh = false;
            for p in &changed {
                if !state.apply_change(p) {
                    fresh = true;
                }
            }
            // With no project yet (a folder without `.claim` files), any
            // change may have made the first one.
            if fresh || projects.is_empty() {
                break;
            }
            let report: Value =
                serde_json::from_str(&run_again(&json_opts, &projects, &mut state).stdout).unwrap_or(Value::Null);
            print!("{}", changes(before.as_ref().unwrap_or(&BTreeMap::new()), &report));
            let _ = std::io::stdout().flush();
            before = Some(verdicts(&report));
        }
    }
}

fn usage(message: String) -> Output {
    Output { stdout: String::new(), stderr: format!("error[E0901]: {message}\n"), code: 2 }
}
