//! Every output format on the `claims/` corpus (all passing) and on a
//! failing variant, as reviewed snapshots (times normalised); JUnit parsed by
//! a real XML parser; SARIF's shape; the JSON document's counts; and
//! `--jobs 1` against `--jobs 4` on the whole corpus.

use std::path::Path;
use std::process::Command;

mod common;

fn repo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn batch(args: &[&str]) -> (i32, String) {
    run(env!("CARGO_BIN_EXE_claim_batch"), args)
}

/// Runs one of the binaries in the repository root: exit code and stdout.
fn run(bin: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new(bin).args(args).current_dir(repo()).env("NO_COLOR", "1").output().expect("run");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Replaces the numbers that are times, which differ run to run, and the
/// program's digest, which every edit of a `.claim` file changes.
fn normalise(s: &str) -> String {
    let mut text = s.to_string();
    if let Some(i) = text.find("\"program\": \"sha256:") {
        let start = i + "\"program\": \"sha256:".len();
        text.replace_range(start..start + 64, "<the program's digest>");
    }
    for key in ["time=\"", "\"duration_ms\": "] {
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find(key) {
            out.push_str(&rest[..i + key.len()]);
            let tail = &rest[i + key.len()..];
            let end =
                tail.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-')).unwrap_or(tail.len());
            out.push('0');
            rest = &tail[end..];
        }
        out.push_str(rest);
        text = out;
    }
    text
}

const FAILING: &str = "tests/fixtures/diagnostics/claims_wrong_code/main.claim";

#[test]
fn formats_on_the_corpus_and_a_failing_variant() {
    for format in ["json", "junit", "github", "sarif", "markdown"] {
        let (code, out) = batch(&["--entry", "claims", "--format", format, "--jobs", "1"]);
        assert_eq!(code, 0, "{format}");
        insta::assert_snapshot!(format!("claims_{format}"), normalise(&out));
        let (code, out) = batch(&["--entry", FAILING, "--format", format]);
        assert_eq!(code, 1, "{format}");
        insta::assert_snapshot!(format!("failing_{format}"), normalise(&out));
    }
}

#[test]
fn claim_format_selects_the_format() {
    let out = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .args(["--entry", FAILING])
        .current_dir(repo())
        .env("CLAIM_FORMAT", "json")
        .output()
        .expect("run");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["summary"]["failed"], 1);
    assert_eq!(doc["witnesses"][0]["diagnostics"][0]["code"], "E0404");
}

#[test]
fn json_counts_match_and_exit_2_reports_no_witness() {
    let (_, out) = batch(&["--entry", "claims", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["summary"]["total"], 46);
    assert_eq!(doc["summary"]["passed"], 46);
    assert_eq!(doc["witnesses"].as_array().map(Vec::len), Some(46));
    assert!(doc["frontiers"].as_array().is_some_and(|f| f.iter().any(|f| f["name"] == "publication")));
    let (code, out) = batch(&["--entry", "tests/fixtures/check/mismatches.claim", "--format", "json"]);
    assert_eq!(code, 2);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(doc["summary"]["total"], 0);
    assert!(doc["diagnostics"].as_array().is_some_and(|d| !d.is_empty()));
}

#[test]
fn junit_is_well_formed_xml() {
    for entry in ["claims", FAILING, "tests/fixtures/check/mismatches.claim"] {
        let (_, out) = batch(&["--entry", entry, "--format", "junit"]);
        // A run that compiled nothing has no witness time: 0, not -0.
        assert!(!out.contains("time=\"-"), "{entry}: a negative time:\n{out}");
        let code = "import sys, xml.dom.minidom as m; d = m.parseString(sys.stdin.buffer.read()); assert d.documentElement.tagName == 'testsuites'";
        if let Err(e) = python(code, &[], &out) {
            panic!("{entry}: {e}");
        }
    }
}

/// Runs Python `code` with `args`, `input` on its standard input; `Err`
/// has what it printed on failure.
fn python(code: &str, args: &[std::path::PathBuf], input: &str) -> Result<(), String> {
    let check = Command::new("python3")
        .args(["-c", code])
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().expect("stdin").write_all(input.as_bytes())?;
            c.wait_with_output()
        })
        .expect("python3");
    if check.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&check.stderr).into_owned())
    }
}

/// Validates XML against an XML Schema with lxml; `Err` has the complaint.
fn xsd_valid(schema: &str, document: &str) -> Result<(), String> {
    let code = "import sys; from lxml import etree; s = etree.XMLSchema(etree.parse(sys.argv[1])); d = etree.fromstring(sys.stdin.buffer.read()); s.assertValid(d)";
    python(code, &[repo().join(schema)], document)
}

#[test]
fn junit_validates_against_jenkins_junit_schema() {
    let has = Command::new("python3").args(["-c", "import lxml"]).output().is_ok_and(|o| o.status.success());
    if !has {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI must install lxml (.ci/run does)");
        eprintln!("skipped: python3 -m pip install lxml");
        return;
    }
    for entry in ["claims", FAILING, "tests/fixtures/check/mismatches.claim"] {
        let (_, out) = batch(&["--entry", entry, "--format", "junit"]);
        if let Err(e) = xsd_valid("tests/schemas/junit-4.xsd", &out) {
            panic!("{entry}: {e}\n{out}");
        }
    }
    // The schema is not a rubber stamp: an attribute it does not know fails.
    let (_, out) = batch(&["--entry", "claims", "--format", "junit"]);
    let mutated = out.replacen("<testcase name=", "<testcase line=\"1\" name=", 1);
    assert!(xsd_valid("tests/schemas/junit-4.xsd", &mutated).is_err());
}

#[test]
fn sarif_has_rules_for_its_results() {
    let (_, out) = batch(&["--entry", FAILING, "--format", "sarif"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("sarif");
    assert_eq!(doc["version"], "2.1.0");
    let run = &doc["runs"][0];
    let rules: Vec<&str> =
        run["tool"]["driver"]["rules"].as_array().expect("rules").iter().filter_map(|r| r["id"].as_str()).collect();
    for res in run["results"].as_array().expect("results") {
        assert!(rules.contains(&res["ruleId"].as_str().unwrap_or("")), "{res}");
        assert!(res["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64().is_some());
    }
}

#[test]
fn jobs_never_change_the_output_on_the_corpus() {
    for format in ["human", "json"] {
        let one = batch(&["--entry", "claims", "--jobs", "1", "--format", format]);
        let four = batch(&["--entry", "claims", "--jobs", "4", "--format", format]);
        assert_eq!(one.0, four.0);
        assert_eq!(normalise(&one.1), normalise(&four.1), "{format}");
    }
}

/// A fixture whose `use` misspells an item's name (`too` for `two`).
const MISSPELT: &str = "tests/fixtures/diagnostics/module_errors";

/// A suggestion is a fix in the machine formats: the region and its
/// replacement in JSON, a SARIF `fixes` entry; a diagnostic without one
/// has no such field.
#[test]
fn a_suggested_name_is_a_fix_in_json_and_sarif() {
    let (code, out) = batch(&["--entry", MISSPELT, "--format", "json"]);
    assert_eq!(code, 2);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    let diags = doc["diagnostics"].as_array().expect("diagnostics");
    let fixed: Vec<&serde_json::Value> = diags.iter().filter(|d| d.get("fix").is_some()).collect();
    assert_eq!(fixed.len(), 1, "{out}");
    let fix = &fixed[0]["fix"];
    assert_eq!(fix["replacement"], "two");
    assert_eq!(
        (&fix["line"], &fix["column"], &fix["end_column"]),
        (&serde_json::json!(3), &serde_json::json!(23), &serde_json::json!(26))
    );
    assert_eq!(fixed[0]["primary"]["column"], fix["column"], "the fix replaces the misspelt name");
    let (_, out) = batch(&["--entry", MISSPELT, "--format", "sarif"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("sarif");
    let results = doc["runs"][0]["results"].as_array().expect("results");
    let fixes: Vec<&serde_json::Value> = results.iter().filter_map(|r| r.get("fixes")).collect();
    assert_eq!(fixes.len(), 1, "{out}");
    let change = &fixes[0][0]["artifactChanges"][0];
    assert_eq!(change["replacements"][0]["insertedContent"]["text"], "two");
    assert_eq!(change["replacements"][0]["deletedRegion"]["startColumn"], 23);
    assert!(change["artifactLocation"]["uri"].as_str().is_some_and(|u| u.ends_with("module_errors/main.claim")));
}

/// The JSON documents validate against `docs/claim-batch.schema.json`
/// (with Python's `jsonschema`, which `.ci/run` installs).
#[test]
fn json_output_validates_against_its_schema() {
    if !common::has_jsonschema() {
        return;
    }
    let schema = repo().join("docs/claim-batch.schema.json");
    for args in [
        vec!["--entry", "claims", "--format", "json"],
        vec!["--entry", FAILING, "--format", "json"],
        vec!["--entry", "tests/fixtures/diagnostics/witness_failures.claim", "--format", "json"],
        vec!["--entry", "tests/fixtures/check/mismatches.claim", "--format", "json"],
        vec!["--entry", MISSPELT, "--format", "json"],
    ] {
        let (_, out) = batch(&args);
        if let Err(e) = common::validate(&schema, &out, "Draft202012Validator") {
            panic!("{args:?}: {e}");
        }
    }
}

/// Shards partition the witnesses, every shard checks the whole program,
/// and the merged JSON reports equal the unsharded run.
#[test]
fn shards_partition_the_corpus_and_merge_back() {
    let (_, whole) = batch(&["--entry", "claims", "--format", "json", "--jobs", "1"]);
    let frontiers =
        serde_json::from_str::<serde_json::Value>(&whole).expect("json")["frontiers"].as_array().map(Vec::len);
    assert!(frontiers.is_some_and(|n| n >= 2));
    let dir = std::env::temp_dir().join(format!("claim-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let mut files = Vec::new();
    let mut names = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let (code, out) = batch(&["--entry", "claims", "--format", "json", "--shard", &shard, "--jobs", "1"]);
        assert_eq!(code, 0);
        let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
        assert_eq!(doc["frontiers"].as_array().map(Vec::len), frontiers, "every shard checks every frontier");
        names.extend(
            doc["witnesses"].as_array().expect("w").iter().map(|w| w["name"].as_str().unwrap_or("").to_string()),
        );
        let f = dir.join(format!("shard-{k}.json"));
        std::fs::write(&f, out).expect("write");
        files.push(f.display().to_string());
    }
    names.sort();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "a witness ran in two shards");
    assert_eq!(names.len(), 46, "the shards cover every witness");
    let mut args = vec!["merge", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let (code, merged) = batch(&args);
    assert_eq!(code, 0);
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s).expect("json");
        for w in v["witnesses"].as_array_mut().expect("w") {
            w["duration_ms"] = serde_json::json!(0);
        }
        v
    };
    let mut whole = strip(&whole);
    whole["run"]["shard"] = serde_json::json!({ "index": 1, "count": 1 });
    assert_eq!(strip(&merged), whole, "merged shards equal the unsharded run");
    // A merge that is not the whole program is refused by name: a shard
    // missing, one given twice, shards of another split or program.
    let (_, other_split) = batch(&["--entry", "claims", "--format", "json", "--shard", "2/4", "--jobs", "1"]);
    let (_, other_program) = batch(&["--entry", "examples", "--format", "json", "--shard", "2/3", "--jobs", "1"]);
    let write = |name: &str, text: &str| {
        let f = dir.join(name);
        std::fs::write(&f, text).expect("write");
        f.display().to_string()
    };
    let (split, program) = (write("split.json", &other_split), write("program.json", &other_program));
    for (what, shards, says) in [
        ("a missing shard", vec![&files[0], &files[1]], "shard is missing: 3/3"),
        ("a shard twice", vec![&files[0], &files[1], &files[1]], "are both shard 2/3"),
        ("another split", vec![&files[0], &split, &files[2]], "shards of different splits"),
        ("another program", vec![&files[0], &program, &files[2]], "different programs"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
            .arg("merge")
            .args(shards.iter().map(|s| s.as_str()))
            .current_dir(repo())
            .output()
            .expect("merge");
        let code = out.status.code().unwrap_or(-1);
        let out = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(code, 2, "{what}: {out}");
        assert!(out.contains("[E0901]") && out.contains(says) && !out.contains("PASS"), "{what}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn claimc(args: &[&str]) -> (i32, String) {
    run(env!("CARGO_BIN_EXE_claimc"), args)
}

/// The derivation graph: facts flow into the functions and witnesses that
/// read them; with verdicts, witnesses are coloured.
#[test]
fn the_derivation_graph() {
    let (code, mermaid) = claimc(&["graph", "examples/arms-and-extensions", "--with-verdicts"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("graph_mermaid_with_verdicts", mermaid);
    let (code, dot) = claimc(&["graph", "examples/evidence-bundle", "--format", "dot"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("graph_dot", dot);
    let (code, failing) = claimc(&["graph", "tests/fixtures/diagnostics/witness_failures.claim", "--with-verdicts"]);
    assert_eq!(code, 0);
    assert!(failing.contains(":::fail") && failing.contains(":::pass"), "{failing}");
}

/// SARIF output validates against the official SARIF 2.1.0 schema
/// (vendored in `tests/schemas/`), with Python's `jsonschema`.
#[test]
fn sarif_validates_against_the_official_schema() {
    if !common::has_jsonschema() {
        return;
    }
    let schema = repo().join("tests/schemas/sarif-2.1.0.json");
    for entry in [
        "claims",
        FAILING,
        "tests/fixtures/diagnostics/witness_failures.claim",
        "tests/fixtures/check/records.claim",
        MISSPELT,
    ] {
        let (_, out) = batch(&["--entry", entry, "--format", "sarif"]);
        if let Err(e) = common::validate(&schema, &out, "Draft4Validator") {
            panic!("{entry}: {e}");
        }
    }
}
