//! `claim_batch --mutate`: the leaves no witness notices, equivalent
//! mutants, refusal coverage, exemptions, and the same answer with any
//! number of jobs.

mod common;

const RECEIPT: &str = r#"{"tag": "v41", "run_id": 7, "label": "nightly", "digest": "sha256:c0ffee5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4"}"#;

const DECLS: &str = "record Run { tag: Text, run_id: Int, label: Text, digest: Sha256 }\n\
    refusal WrongTag \"the run wears another tag\"\n\
    fact run: Run = load(\"run.json\")\n\
    fact _notes: Text = \"kept for the record\"\n\
    fn tagged(r: Run) -> Run { require r.tag == \"v41\" else refuse WrongTag \"{r.tag}\"; r }\n";

fn run(name: &str, witnesses: &str, args: &[&str]) -> (i32, String) {
    run_with(name, witnesses, None, args)
}

/// `run`, with a `Claim.toml` of the text given.
fn run_with(name: &str, witnesses: &str, manifest: Option<&str>, args: &[&str]) -> (i32, String) {
    let main = format!("{DECLS}{witnesses}");
    let mut files = vec![("main.claim", main.as_str()), ("run.json", RECEIPT)];
    files.extend(manifest.map(|m| ("Claim.toml", m)));
    let dir = common::project_dir("mutate", name, &files);
    let out = common::batch_in_with(&dir, &[&["--mutate"], args].concat());
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn a_leaf_no_witness_reads_closely_is_reported_and_a_discriminating_witness_clears_it() {
    // The tag is checked; the run id and the digest are read, but no
    // witness would fail were they other values.
    let loose = "witness tagged_run { holds tagged(run).tag == \"v41\" }\n\
        witness looks_like_a_run { holds run.run_id > 0 and len(hex(run.digest)) == 64 }\n";
    let (code, out) = run("loose", loose, &["--deny-unwitnessed"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[W0007] Warning: no witness notices `run` at `$.run_id`"), "{out}");
    assert!(out.contains("no witness notices `run` at `$.digest`"), "{out}");
    assert!(out.contains("the value was read from `$.run_id`"), "{out}");
    assert!(!out.contains("at `$.tag`"), "the tag is witnessed: {out}");
    // The label is read by no expression: its mutants are equivalent.
    assert!(out.contains("equivalent mutants:\n  run $.label: no expression reads the field `label`"), "{out}");
    // `WrongTag` is declared and no witness shows it can fire.
    assert!(out.contains("[W0008] Warning: no witness shows `WrongTag` can fire"), "{out}");
    assert!(out.contains("exempt:\n  _notes: named `_…`\n"), "{out}");
    // No witness gives `tagged` another tag: its `require` never refuses.
    assert!(out.contains("[W0009] Warning: no witness reaches the `else` of this `require` in `tagged`"), "{out}");
    assert!(
        out.contains("mutate: 1 of 3 fact leaves witnessed (1 equivalent, 0 exempt), 0 of 1 refusal codes shown"),
        "{out}"
    );

    let tight = "witness the_run_is_the_expected_one {\n\
          let r = tagged(run)\n\
          holds r.run_id == 7 and r.digest == sha256:c0ffee5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4\n\
        }\n\
        witness another_tag_is_refused { refuses tagged(Run { tag: \"v42\", run_id: 7, label: \"\", digest: run.digest }) with WrongTag }\n";
    let (code, out) = run("tight", tight, &["--deny-unwitnessed"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("W0007") && !out.contains("W0008") && !out.contains("W0009"), "{out}");
    assert!(
        out.contains("mutate: 3 of 3 fact leaves witnessed (1 equivalent, 0 exempt), 1 of 1 refusal codes shown"),
        "{out}"
    );
}

#[test]
fn explain_lists_every_mutant_and_the_verdicts_it_changed() {
    let w = "witness tagged_run { holds tagged(run).tag == \"v41\" }\n";
    let (_, out) = run("explain", w, &["--explain"]);
    assert!(out.contains("mutants tried:\n"), "{out}");
    assert!(out.contains("  run $.tag: change its last character: changed `tagged_run`"), "{out}");
    assert!(out.contains("  run $.run_id: add one: no verdict changed"), "{out}");
}

#[test]
fn the_same_answer_with_any_number_of_jobs_and_in_json() {
    let w = "witness tagged_run { holds tagged(run).tag == \"v41\" }\nwitness id { holds run.run_id > 0 }\n";
    let (_, one) = run("jobs1", w, &["--jobs", "1", "--format", "json"]);
    let (_, two) = run("jobs2", w, &["--jobs", "2", "--format", "json"]);
    let m = |s: &str| serde_json::from_str::<serde_json::Value>(s).expect("json")["mutate"].clone();
    assert_eq!(m(&one), m(&two));
    if common::has_jsonschema() {
        let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/claim-batch.schema.json");
        common::validate(&schema, &one, "Draft202012Validator").expect("the report fits its schema");
    }
    let m = m(&one);
    assert_eq!(m["score"]["mutants"], 4, "{m}");
    let statuses: Vec<(String, String)> = m["leaves"]
        .as_array()
        .expect("leaves")
        .iter()
        .map(|l| (l["path"].as_str().unwrap_or("").to_string(), l["status"].as_str().unwrap_or("").to_string()))
        .collect();
    assert_eq!(
        statuses,
        [
            ("$.tag".to_string(), "witnessed".to_string()),
            ("$.run_id".to_string(), "unwitnessed".to_string()),
            ("$.label".to_string(), "equivalent".to_string()),
            ("$.digest".to_string(), "equivalent".to_string()),
        ]
    );
}

#[test]
fn markdown_shows_the_score_and_what_no_witness_notices() {
    let w = "witness tagged_run { holds tagged(run).tag == \"v41\" }\nwitness id { holds run.run_id > 0 }\n";
    let (_, out) = run("markdown", w, &["--format", "markdown"]);
    assert!(
        out.contains("### Mutation analysis\n\n1 of 2 fact leaves witnessed, 0 of 1 refusal codes shown (4 mutants)"),
        "{out}"
    );
    assert!(out.contains("| `run` | `$.run_id` | 2 witnesses read the fact, and no verdict changed |"), "{out}");
    assert!(out.contains("No witness shows these refusals can fire: `WrongTag`"), "{out}");
}

#[test]
fn a_filtered_or_sharded_run_cannot_mutate() {
    // Its verdicts are a part of the program's: a leaf read by another
    // shard's witness would read as unwitnessed.
    for extra in [["--filter", "tagged"], ["--shard", "1/2"]] {
        let (code, out) = run("partial", "witness tagged_run { holds tagged(run).tag == \"v41\" }\n", &extra);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("cannot be used with"), "{out}");
    }
}

#[test]
fn claim_toml_exempts_leaves_facts_and_codes_with_their_reasons() {
    let loose = "witness tagged_run { holds tagged(run).tag == \"v41\" }\n\
        witness looks_like_a_run { holds run.run_id > 0 and len(hex(run.digest)) == 64 }\n";
    let manifest = "[mutate.exempt]\n\
        \"run $.run_id\" = \"the CI's own counter\"\n\
        \"run $.digest\" = \"checked by the registry\"\n\
        WrongTag = \"shown by the registry's own tests\"\n";
    let (code, out) = run_with("exempt", loose, Some(manifest), &["--deny-unwitnessed", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    let m = &json["mutate"];
    // The `require` of `tagged` is still never reached: that is not exempt.
    assert_eq!(code, 1, "{m}");
    let exempt: Vec<(&str, &str)> = m["exempt"]
        .as_array()
        .expect("exempt")
        .iter()
        .map(|e| (e["name"].as_str().unwrap_or(""), e["reason"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        exempt,
        [
            ("_notes", "named `_…`"),
            ("WrongTag", "shown by the registry's own tests"),
            ("run $.digest", "checked by the registry"),
            ("run $.run_id", "the CI's own counter"),
        ]
    );
    let run_id = m["leaves"].as_array().expect("leaves").iter().find(|l| l["path"] == "$.run_id").expect("run_id");
    assert_eq!((&run_id["status"], &run_id["detail"]), (&"exempt".into(), &"the CI's own counter".into()));
    assert_eq!(m["score"]["leaves"], 1, "exempt leaves are not counted: {m}");
    let codes: Vec<&str> =
        m["diagnostics"].as_array().expect("diags").iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["W0009"], "{m}");
    if common::has_jsonschema() {
        let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/claim-batch.schema.json");
        common::validate(&schema, &out, "Draft202012Validator").expect("the report fits its schema");
    }
    // The human report lists them with their reasons.
    let (_, out) = run_with("exempt-human", loose, Some(manifest), &[]);
    assert!(out.contains("exempt:\n  _notes: named `_…`\n  WrongTag: shown by the registry's own tests\n"), "{out}");
    assert!(out.contains("(1 equivalent, 2 exempt)"), "{out}");
}

#[test]
fn a_stale_exemption_fails_a_denying_run_and_a_misnamed_one_fails_every_run() {
    let tight = "witness the_run_is_the_expected_one {\n\
          let r = tagged(run)\n\
          holds r.run_id == 7 and r.digest == sha256:c0ffee5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4\n\
        }\n\
        witness another_tag_is_refused { refuses tagged(Run { tag: \"v42\", run_id: 7, label: \"\", digest: run.digest }) with WrongTag }\n";
    // Everything it names is witnessed: the exemption must go.
    let stale = "[mutate.exempt]\nrun = \"left from before the witness\"\nWrongTag = \"shown elsewhere\"\n";
    let (code, out) = run_with("stale", tight, Some(stale), &["--deny-unwitnessed"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[W0010] Warning: the exemption of `run` is stale"), "{out}");
    assert!(out.contains("no leaf of `run` here is unwitnessed"), "{out}");
    assert!(out.contains("[W0010] Warning: the exemption of `WrongTag` is stale"), "{out}");
    assert!(out.contains("╭─[ Claim.toml:2:1 ]"), "the label is in the manifest: {out}");
    let (code, _) = run_with("stale-allowed", tight, Some(stale), &[]);
    assert_eq!(code, 0, "a stale exemption is a warning without --deny-unwitnessed");
    // A name that is nothing in the program exempts nothing a reviewer
    // believes it exempts: the run fails.
    let (code, out) = run_with("misnamed", tight, Some("[mutate.exempt]\nrn = \"typo\"\n"), &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("[E0017] Error: `rn` in `[mutate.exempt]` names no fact or refusal code of the program"),
        "{out}"
    );
    assert!(out.contains("did you mean `run`?"), "{out}");
}

#[test]
fn a_claim_toml_claim_cannot_read_stops_every_run() {
    let w = "witness tagged_run { holds tagged(run).tag == \"v41\" }\n";
    for (name, manifest, message) in [
        ("not-toml", "[mutate\n", "`Claim.toml` is not TOML"),
        ("unknown", "[mutate.exmpt]\nrun = \"x\"\n", "unknown key `exmpt` in `[mutate]`"),
        ("no-reason", "[mutate.exempt]\nrun = \"\"\n", "the exemption of `run` gives no reason"),
    ] {
        let main = format!("{DECLS}{w}");
        let dir = common::project_dir(
            "mutate",
            name,
            &[("main.claim", &main), ("run.json", RECEIPT), ("Claim.toml", manifest)],
        );
        // Not only with --mutate: the manifest is read on every run.
        let (code, out) = common::batch_in_with(&dir, &[]);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(code, 2, "{out}");
        assert!(out.contains("[E0016] Error: ") && out.contains(message), "{name}: {out}");
        assert!(!out.contains("PASS"), "{out}");
    }
}

#[test]
fn a_frontier_is_a_verdict_a_mutant_can_change() {
    // Only the frontier reads `pushed`: a mutant that dissolves it (a
    // dissolved frontier fails the run) notices the value.
    let main = "record Build { pushed: Bool, note: Text }\n\
        fact build: Build = load(\"build.json\")\n\
        witness something_runs { holds true }\n\
        frontier publication {\n  \"not pushed yet: {build.note}\"\n  dissolves when build.pushed\n}\n";
    let dir = common::project_dir(
        "mutate",
        "frontier",
        &[("main.claim", main), ("build.json", r#"{"pushed": false, "note": "nightly"}"#)],
    );
    let (code, out) = common::batch_in_with(&dir, &["--mutate", "--explain"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("  build $.pushed: make it `true`: changed `frontier publication`"), "{out}");
    // The note is read by the frontier's text only: no verdict depends on it.
    assert!(out.contains("no witness notices `build` at `$.note`"), "{out}");
    assert!(out.contains("Note: one frontier read the fact, and no verdict changed"), "{out}");
}
