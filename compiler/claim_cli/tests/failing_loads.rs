//! A file that cannot be read is read again by each call that names it, so
//! each diagnostic points at its own call: a failure kept from the first
//! read pointed every later one at the first call.

mod common;

#[test]
fn each_failing_read_points_at_its_own_call() {
    let dir = std::env::temp_dir().join(format!("claim-failing-loads-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("bad.json"), r#"{"n": 1,}"#).expect("write");
    std::fs::write(
        dir.join("main.claim"),
        "record R { n: Int }\n\
         fact a: R = load(\"bad.json\")\n\
         fact b: R = load(\"bad.json\")\n\
         fact h: Sha256 = file_sha256(\"missing.whl\")\n\
         fact i: Sha256 = file_sha256(\"missing.whl\")\n\
         witness w { holds a.n == b.n and h == i }\n",
    )
    .expect("write");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 2, "{out}");
    assert!(!out.lines().any(|l| l.starts_with("PASS ")), "{out}");
    for at in ["main.claim:2:13", "main.claim:3:13", "main.claim:4:18", "main.claim:5:18"] {
        assert!(out.contains(at), "no diagnostic points at {at}:\n{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A misspelt path written as a literal gets its "did you mean" as a fix
/// of the literal's letters, and the fixed program runs; a path built with
/// `++` or written with an escape gets the same help and no fix (its
/// letters are not the path's).
#[test]
fn a_misspelt_literal_path_is_a_fix() {
    let main = "record R { n: Int }\n\
                fact a: R = load(\"receipts/biuld.json\")\n\
                fact b: R = load(\"receipts/\" ++ \"biuld.json\")\n\
                fact c: R = load(\"receipts/\\u{62}iuld.json\")\n\
                witness w { holds a.n == 1 and b.n == 1 and c.n == 1 }\n";
    let dir = common::project_dir("fix", "path", &[("main.claim", main), ("receipts/build.json", r#"{"n": 1}"#)]);
    let (code, out) = common::batch_in_with(&dir, &["--format", "json"]);
    assert_eq!(code, 2, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    // Each broken fact carries its own diagnostics (§7).
    let broken = doc["broken"].as_array().expect("broken");
    let diags: Vec<&serde_json::Value> =
        broken.iter().flat_map(|b| b["diagnostics"].as_array().expect("diagnostics")).collect();
    let missing: Vec<&serde_json::Value> = diags.iter().copied().filter(|d| d["code"] == "E0302").collect();
    assert_eq!(missing.len(), 3, "{out}");
    for d in &missing {
        assert_eq!(d["help"], "did you mean `receipts/build.json`?", "{out}");
    }
    let fixed: Vec<&serde_json::Value> = missing.iter().filter_map(|d| d.get("fix")).collect();
    assert_eq!(fixed.len(), 1, "only the plain literal is fixed: {out}");
    let fix = fixed[0];
    assert_eq!(fix["replacement"], "receipts/build.json");
    assert_eq!((&fix["line"], &fix["column"], &fix["end_column"]), (&2.into(), &19.into(), &38.into()), "{out}");
    // Applied (and the other two written out as it), the program passes.
    let line = main.lines().nth(1).expect("line 2");
    let fixed_line = format!("{}receipts/build.json{}", &line[..18], &line[37..]);
    let program = format!(
        "record R {{ n: Int }}\n{fixed_line}\nfact b: R = load(\"receipts/\" ++ \"build.json\")\n\
         fact c: R = load(\"receipts/build.json\")\n{}\n",
        main.lines().nth(4).expect("line 5")
    );
    std::fs::write(dir.join("main.claim"), program).expect("write");
    let (code, out) = common::batch_in(&dir);
    assert_eq!((code, out.lines().last()), (0, Some("1/1 PASS")), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
