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
    let main = format!("{DECLS}{witnesses}");
    let dir = common::project_dir("mutate", name, &[("main.claim", &main), ("run.json", RECEIPT)]);
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
    assert!(out.contains("exempt: `_notes`"), "{out}");
    // No witness gives `tagged` another tag: its `require` never refuses.
    assert!(out.contains("[W0009] Warning: no witness reaches the `else` of this `require` in `tagged`"), "{out}");
    assert!(out.contains("mutate: 1 of 3 fact leaves witnessed (1 equivalent), 0 of 1 refusal codes shown"), "{out}");

    let tight = "witness the_run_is_the_expected_one {\n\
          let r = tagged(run)\n\
          holds r.run_id == 7 and r.digest == sha256:c0ffee5e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4\n\
        }\n\
        witness another_tag_is_refused { refuses tagged(Run { tag: \"v42\", run_id: 7, label: \"\", digest: run.digest }) with WrongTag }\n";
    let (code, out) = run("tight", tight, &["--deny-unwitnessed"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("W0007") && !out.contains("W0008") && !out.contains("W0009"), "{out}");
    assert!(out.contains("mutate: 3 of 3 fact leaves witnessed (1 equivalent), 1 of 1 refusal codes shown"), "{out}");
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
