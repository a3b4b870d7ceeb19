//! `claim_batch merge FILE…`: joins the `--format json` reports of shards
//! into one report, as if the corpus had run in one piece: every witness
//! once, in program order (project, file, line), the frontiers and
//! diagnostics once each, the summary and exit status recomputed.

use crate::Output;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn usage(message: String) -> Output {
    Output { stdout: String::new(), stderr: format!("error[E0901]: {message}\n"), code: 2 }
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
    let mut seen = BTreeSet::new();
    let diagnostics: Vec<Value> = list("diagnostics").into_iter().filter(|d| seen.insert(d.to_string())).collect();
    let passed = witnesses.iter().filter(|w| w["status"] == "pass").count();
    let failed = witnesses.len() - passed;
    let dissolved = frontiers.iter().filter(|f| f["status"] == "dissolved").count();
    let stopped = docs.iter().any(|d| d["exit_code"] == 2);
    let code = if stopped {
        2
    } else if failed > 0 || dissolved > 0 {
        1
    } else {
        0
    };
    let tool = docs[0]["tool"].clone();
    let doc = json!({
        "version": 1,
        "tool": tool,
        "exit_code": code,
        "summary": { "total": witnesses.len(), "passed": passed, "failed": failed, "dissolved": dissolved },
        "witnesses": witnesses,
        "frontiers": frontiers,
        "diagnostics": diagnostics,
    });
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
            w["name"].as_str().unwrap_or("?")
        ));
        for d in w["diagnostics"].as_array().into_iter().flatten() {
            let at = &d["primary"];
            out.push_str(&format!(
                "  [{}] {} ({}:{})\n",
                d["code"].as_str().unwrap_or(""),
                d["message"].as_str().unwrap_or(""),
                at["file"].as_str().unwrap_or("?"),
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
    out.push_str(&format!("\n{summary}\n"));
    Output { stdout: out, stderr: String::new(), code }
}
