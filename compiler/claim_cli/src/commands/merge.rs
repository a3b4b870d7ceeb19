//! `claim_batch merge FILE…`: joins the `--format json` reports of shards
//! into one report, as if the corpus had run in one piece: every witness
//! once, in program order (project, file, line), the frontiers and
//! diagnostics once each, the summary and exit status recomputed.

use crate::Output;
use claim_diagnostics::printable::terminal;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn usage(message: String) -> Output {
    Output { stdout: String::new(), stderr: format!("error[E0901]: {message}\n"), code: 2 }
}

/// Whether the reports are the shards of one program, each once, all of
/// them: `Err` names the shard that is missing, repeated or of another
/// split or program. A report of a run that stopped before its witnesses
/// (exit 2) carries no shard, and makes the merge exit 2 anyway.
fn whole(paths: &[PathBuf], docs: &[Value]) -> Result<(), String> {
    let mut first: Option<(&PathBuf, u64, &str, u64)> = None;
    let mut seen: std::collections::BTreeMap<u64, &PathBuf> = Default::default();
    for (p, d) in paths.iter().zip(docs) {
        let run = &d["run"];
        if run.is_null() {
            if d["exit_code"] == 2 {
                continue;
            }
            return Err(format!(
                "`{}` does not say which shard of which program it is; make it again with this claim_batch",
                p.display()
            ));
        }
        let (Some(k), Some(n), Some(program), Some(selected)) = (
            run["shard"]["index"].as_u64(),
            run["shard"]["count"].as_u64(),
            run["program"].as_str(),
            run["selected"].as_u64(),
        ) else {
            return Err(format!("`{}` has a malformed `run`", p.display()));
        };
        match first {
            None => first = Some((p, n, program, selected)),
            Some((q, n0, program0, selected0)) => {
                if n != n0 {
                    return Err(format!(
                        "`{}` is a shard of {n} but `{}` one of {n0}: shards of different splits",
                        p.display(),
                        q.display()
                    ));
                }
                if program != program0 || selected != selected0 {
                    return Err(format!(
                        "`{}` and `{}` are runs of different programs (their sources, entries or filter differ)",
                        p.display(),
                        q.display()
                    ));
                }
            }
        }
        if let Some(q) = seen.insert(k, p) {
            return Err(format!("`{}` and `{}` are both shard {k}/{n}", q.display(), p.display()));
        }
    }
    if let Some((_, n, _, _)) = first {
        let missing: Vec<String> = (1..=n).filter(|k| !seen.contains_key(k)).map(|k| format!("{k}/{n}")).collect();
        if !missing.is_empty() && docs.iter().all(|d| d["exit_code"] != 2) {
            return Err(format!(
                "shard{} missing: {}: a merge of some shards would report a part of the program as the whole",
                if missing.len() == 1 { " is" } else { "s are" },
                missing.join(", ")
            ));
        }
    }
    Ok(())
}

pub fn merge(paths: &[PathBuf], json_out: bool) -> Output {
    if paths.is_empty() {
        return usage("give the JSON reports to merge".into());
    }
    let mut docs = Vec::new();
    for p in paths {
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => return usage(format!("cannot read `{}`: {e}", p.display())),
        };
        match serde_json::from_str::<Value>(&text) {
            Ok(v) if v["version"] == 1 => docs.push(v),
            Ok(_) => return usage(format!("`{}` is not a version-1 claim_batch JSON report", p.display())),
            Err(e) => return usage(format!("`{}` is not JSON: {e}", p.display())),
        }
    }
    if let Err(why) = whole(paths, &docs) {
        return usage(why);
    }
    let list = |key: &str| -> Vec<Value> {
        docs.iter().flat_map(|d| d[key].as_array().cloned().unwrap_or_default()).collect()
    };
    let mut seen = BTreeSet::new();
    let mut witnesses: Vec<Value> = list("witnesses")
        .into_iter()
        .filter(|w| seen.insert((w["project"].to_string(), w["name"].to_string())))
        .collect();
    witnesses.sort_by_key(|w| {
        (
            w["project"].as_str().unwrap_or("").to_string(),
            w["file"].as_str().unwrap_or("").to_string(),
            w["line"].as_u64().unwrap_or(0),
        )
    });
    let mut frontiers: Vec<Value> = Vec::new();
    for f in list("frontiers") {
        let same = |g: &Value| g["name"] == f["name"] && g["file"] == f["file"] && g["line"] == f["line"];
        match frontiers.iter_mut().find(|g| same(g)) {
            Some(g) if f["status"] == "dissolved" => *g = f,
            Some(_) => {}
            None => frontiers.push(f),
        }
    }
    // Every shard judges a broken fact over the whole program's witnesses
    // (§7), so the shards agree on each; its readers are each shard's own.
    let mut broken: Vec<Value> = Vec::new();
    for b in list("broken") {
        let same = |g: &Value| g["module"] == b["module"] && g["name"] == b["name"];
        match broken.iter_mut().find(|g| same(g)) {
            Some(g) => {
                let mut readers: Vec<Value> = g["readers"].as_array().cloned().unwrap_or_default();
                for r in b["readers"].as_array().into_iter().flatten() {
                    if !readers.contains(r) {
                        readers.push(r.clone());
                    }
                }
                g["readers"] = Value::Array(readers);
                if b["status"] == "unexpected" {
                    g["status"] = b["status"].clone();
                }
            }
            None => broken.push(b),
        }
    }
    let unexpected = broken.iter().filter(|b| b["status"] == "unexpected").count();
    let mut seen = BTreeSet::new();
    let diagnostics: Vec<Value> = list("diagnostics").into_iter().filter(|d| seen.insert(d.to_string())).collect();
    let passed = witnesses.iter().filter(|w| w["status"] == "pass").count();
    let failed = witnesses.len() - passed;
    let dissolved = frontiers.iter().filter(|f| f["status"] == "dissolved").count();
    // A shard that exits 2 for its broken facts alone ran its witnesses.
    let stopped = docs.iter().any(|d| d["exit_code"] == 2 && d["summary"]["broken"].as_u64().unwrap_or(0) == 0);
    let code = if stopped || unexpected > 0 {
        2
    } else if failed > 0 || dissolved > 0 {
        1
    } else {
        0
    };
    // The shards together must be every witness the program selects.
    let identity = docs.iter().map(|d| &d["run"]).find(|r| !r.is_null()).cloned();
    if let Some(selected) = identity.as_ref().and_then(|r| r["selected"].as_u64()) {
        if !stopped && selected != witnesses.len() as u64 {
            return usage(format!(
                "the shards report {} witnesses, but the program selects {selected}",
                witnesses.len()
            ));
        }
    }
    let tool = docs[0]["tool"].clone();
    let counts = crate::output::formats::Counts { passed, failed, dissolved, unexpected };
    let mut doc = crate::output::formats::document(tool, code, counts, (witnesses, frontiers, broken), diagnostics);
    if let Some(mut run) = identity {
        run["shard"] = json!({ "index": 1, "count": 1 });
        doc["run"] = run;
    }
    if json_out {
        return Output {
            stdout: serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n",
            stderr: String::new(),
            code,
        };
    }
    let mut out = String::new();
    for w in doc["witnesses"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "{} {}\n",
            if w["status"] == "pass" { "PASS" } else { "FAIL" },
            terminal(w["name"].as_str().unwrap_or("?"))
        ));
        for d in w["diagnostics"].as_array().into_iter().flatten() {
            let at = &d["primary"];
            out.push_str(&format!(
                "  [{}] {} ({}:{})\n",
                terminal(d["code"].as_str().unwrap_or("")),
                terminal(d["message"].as_str().unwrap_or("")),
                terminal(at["file"].as_str().unwrap_or("?")),
                at["line"]
            ));
        }
    }
    let mut summary = format!("{passed}/{} PASS", passed + failed);
    if failed > 0 {
        summary.push_str(&format!(", {failed} FAIL"));
    }
    if dissolved > 0 {
        summary.push_str(&format!(", {dissolved} DISSOLVED"));
    }
    for b in doc["broken"].as_array().into_iter().flatten().filter(|b| b["status"] == "unexpected") {
        out.push_str(&format!(
            "BROKEN {} [{}] {} ({}:{})\n",
            terminal(b["name"].as_str().unwrap_or("?")),
            terminal(b["code"].as_str().unwrap_or("")),
            terminal(b["message"].as_str().unwrap_or("")),
            terminal(b["file"].as_str().unwrap_or("?")),
            b["line"]
        ));
    }
    if unexpected > 0 {
        summary.push_str(&format!(", {unexpected} BROKEN"));
    }
    out.push_str(&format!("\n{summary}\n"));
    Output { stdout: out, stderr: String::new(), code }
}
