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
    assert!(!out.contains("PASS"), "{out}");
    for at in ["main.claim:2:13", "main.claim:3:13", "main.claim:4:18", "main.claim:5:18"] {
        assert!(out.contains(at), "no diagnostic points at {at}:\n{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
