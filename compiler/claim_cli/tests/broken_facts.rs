//! Broken facts (§7) on the real binary: which are expected, who read
//! them, and how each output format and a sharded run carry them.

mod common;

use common::{batch_args, batch_in_with, project_dir};
use serde_json::Value;

const RECEIPT: &str = "record Receipt { run_id: Int, tag: Text }\n\
                       fact receipt: Receipt = load(\"bad.json\")\n\
                       fn tag_of(r: Receipt) -> Text { r.tag }\n";

/// A project whose `bad.json` is not JSON, with `witnesses` after the
/// declarations of `RECEIPT` and `use std.world`.
fn project(name: &str, witnesses: &str) -> std::path::PathBuf {
    let main = format!("use std.world\n{RECEIPT}{witnesses}");
    project_dir("broken", name, &[("main.claim", &main), ("bad.json", "{\"run_id\": 7, \"tag\": \"v41\",}\n")])
}

fn json(dir: &std::path::Path, args: &[&str]) -> (i32, Value) {
    let (code, out) = batch_in_with(dir, &[&["--format", "json"], args].concat());
    (code, serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}")))
}

#[test]
fn a_refusal_carried_through_a_function_is_expected() {
    let dir = project(
        "through",
        "witness rejected { refuses tag_of(receipt) with NotJson }\nwitness other { holds 1 + 1 == 2 }\n",
    );
    let (code, out) = batch_in_with(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS rejected") && out.contains("2/2 PASS"), "{out}");
    let (_, doc) = json(&dir, &[]);
    assert_eq!(doc["broken"][0]["status"], "expected", "{doc}");
    assert_eq!(doc["broken"][0]["readers"], serde_json::json!(["rejected"]), "{doc}");
    assert_eq!(doc["summary"]["broken"], 0);
}

#[test]
fn an_expectation_counts_only_in_a_witness_that_passed() {
    // The witness meets the refusal as it expects, then fails: the fact is
    // not expected, so the run fails closed (exit 2), naming its reader.
    let dir = project("failed", "witness half_right { refuses receipt with NotJson\n holds 1 == 2 }\n");
    let (code, out) = batch_in_with(&dir, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("FAIL half_right") && out.contains("\n0/1 PASS, 1 FAIL, 1 BROKEN\n"), "{out}");
    assert!(out.contains("read by `half_right`"), "{out}");
}

#[test]
fn one_expecting_witness_makes_the_fact_expected_for_its_other_readers() {
    // The reader still fails on the refusal; the fact is not counted
    // broken, so the run exits 1 (a witness failed), not 2.
    let dir = project(
        "expected",
        "witness rejected { refuses receipt with NotJson }\nwitness reads { holds receipt.run_id == 7 }\n",
    );
    let (code, out) = batch_in_with(&dir, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("\n1/2 PASS, 1 FAIL\n"), "{out}");
    assert!(out.contains("it reads the broken fact `receipt` (`NotJson`)"), "{out}");
}

#[test]
fn explain_shows_where_the_refusal_entered_the_witness() {
    let dir = project("explain", "witness reads { holds tag_of(receipt) == \"v41\" }\n");
    let (code, out) = batch_in_with(&dir, &["--explain"]);
    assert_eq!(code, 2, "{out}");
    let trace: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("explain reads")).collect();
    assert!(
        trace.iter().any(|l| l.contains("read the broken fact `receipt`: NotJson") && l.contains("main.claim:5")),
        "{out}"
    );
}

#[test]
fn a_filtered_or_sharded_run_judges_expectation_over_every_witness() {
    let witnesses = "witness rejected { refuses receipt with NotJson }\nwitness reads { holds receipt.run_id == 7 }\n\
                     witness w1 { holds 1 == 1 }\nwitness w2 { holds 2 == 2 }\nwitness w3 { holds 3 == 3 }\n";
    let dir = project("shards", witnesses);
    // The filter selects the reader alone; the witness that expects the
    // fact runs quietly, so the fact is expected.
    let (code, out) = batch_in_with(&dir, &["--filter", "reads"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("\n0/1 PASS, 1 FAIL\n") && !out.contains("PASS rejected"), "{out}");
    // Every shard agrees; merged, they are the unsharded run.
    let (whole_code, whole) = json(&dir, &[]);
    let mut paths = Vec::new();
    for k in 1..=3 {
        let (code, doc) = json(&dir, &["--shard", &format!("{k}/3")]);
        assert_eq!(doc["broken"][0]["status"], "expected", "shard {k}: {doc}");
        assert!(code <= 1, "shard {k}: {doc}");
        let path = dir.join(format!("shard{k}.json"));
        std::fs::write(&path, doc.to_string()).expect("write");
        paths.push(path.display().to_string());
    }
    let args: Vec<&str> = ["merge", "--format", "json"].into_iter().chain(paths.iter().map(String::as_str)).collect();
    let (code, merged) = batch_args(&dir, &args);
    let merged: Value = serde_json::from_str(&merged).expect("merged json");
    assert_eq!(code, whole_code);
    assert_eq!(merged["summary"], whole["summary"]);
    assert_eq!(merged["broken"][0]["status"], "expected");
    assert_eq!(merged["broken"][0]["readers"].as_array().map(Vec::len), Some(2), "{merged}");
}

#[test]
fn merge_counts_an_unexpected_broken_fact_once() {
    let witnesses = "witness reads { holds receipt.run_id == 7 }\nwitness w1 { holds 1 == 1 }\n\
                     witness w2 { holds 2 == 2 }\nwitness w3 { holds 3 == 3 }\n";
    let dir = project("merge", witnesses);
    let mut paths = Vec::new();
    for k in 1..=2 {
        let (code, doc) = json(&dir, &["--shard", &format!("{k}/2")]);
        assert_eq!(code, 2, "every shard fails closed: {doc}");
        let path = dir.join(format!("s{k}.json"));
        std::fs::write(&path, doc.to_string()).expect("write");
        paths.push(path.display().to_string());
    }
    let args: Vec<&str> = ["merge"].into_iter().chain(paths.iter().map(String::as_str)).collect();
    let (code, out) = batch_args(&dir, &args);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("BROKEN receipt [NotJson]") && out.contains("\n3/4 PASS, 1 FAIL, 1 BROKEN\n"), "{out}");
}

#[test]
fn every_format_points_at_the_receipt() {
    let dir = project("formats", "witness reads { holds receipt.run_id == 7 }\nwitness other { holds 1 == 1 }\n");
    let (code, out) = batch_in_with(&dir, &["--format", "github"]);
    assert_eq!(code, 2);
    assert!(out.lines().any(|l| l.starts_with("::error file=bad.json,line=1,col=28,")), "{out}");
    assert!(out.contains("\n1/2 PASS, 1 FAIL, 1 BROKEN\n"), "{out}");
    let (_, out) = batch_in_with(&dir, &["--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&out).expect("sarif");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(
        results.iter().any(|r| r["ruleId"] == "E0305"
            && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad.json"),
        "{out}"
    );
    let (_, out) = batch_in_with(&dir, &["--format", "junit"]);
    assert!(out.contains("<testcase name=\"fact receipt\""), "{out}");
    assert!(out.contains("failure message=\"witness `reads` failed: it reads the broken fact `receipt`"), "{out}");
    let (_, out) = batch_in_with(&dir, &["--format", "markdown"]);
    assert!(out.starts_with("## Claim: 1/2 PASS, 1 FAIL, 1 BROKEN"), "{out}");
    let (_, out) = batch_in_with(&dir, &["--format", "json"]);
    let doc: Value = serde_json::from_str(&out).expect("json");
    let b = &doc["broken"][0];
    assert_eq!((&b["name"], &b["code"], &b["status"]), (&"receipt".into(), &"NotJson".into(), &"unexpected".into()));
    assert_eq!(b["diagnostics"][0]["primary"]["file"], "bad.json");
    if common::has_jsonschema() {
        let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/claim-batch.schema.json");
        common::validate(&schema, &out, "Draft202012Validator").expect("the report fits its schema");
    }
}

#[test]
fn a_frontier_that_reads_a_broken_fact_stays_open_and_is_a_reader() {
    let dir = project(
        "frontier",
        "witness other { holds 1 == 1 }\nfrontier tagged { \"the tag is v41\" dissolves when receipt.tag == \"v41\" }\n",
    );
    let (code, out) = batch_in_with(&dir, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("open frontiers:") && out.contains("read by `tagged`"), "{out}");
}
