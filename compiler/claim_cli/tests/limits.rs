//! Limits: each crossed limit is a clear diagnostic and exit 2 with no
//! `PASS`, and the defaults are generous (a 10 MB file and a 5,000-level
//! nested expression run).

use std::process::Command;

fn project(files: &[(&str, &str)]) -> std::path::PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("claim-limits-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("Claim.toml"), "").expect("write");
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write");
    }
    dir
}

fn batch(dir: &std::path::Path, extra: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .arg("--entry")
        .arg(dir)
        .args(extra)
        .env("NO_COLOR", "1")
        .output()
        .expect("claim_batch");
    (
        out.status.code().unwrap_or(-1),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
    )
}

/// The output with the temporary folder's path replaced, for snapshots.
fn portable(out: &str, dir: &std::path::Path) -> String {
    out.replace(&dir.display().to_string(), "<project>")
}

fn nested(depth: usize) -> String {
    format!("fact x: Int = len({}1{})\nwitness w {{ holds x == 1 }}\n", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn a_5000_level_expression_runs_and_a_lower_limit_refuses_it() {
    let dir = project(&[("main.claim", &nested(5000))]);
    let (code, out) = batch(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1/1 PASS"), "{out}");
    let (code, out) = batch(&dir, &["--max-nesting", "100"]);
    assert_eq!(code, 2, "{out}");
    let shallow = project(&[("main.claim", &nested(5))]);
    let (_, small) = batch(&shallow, &["--max-nesting", "3"]);
    insta::assert_snapshot!("nesting_limit", portable(&small, &shallow));
    assert!(out.contains("[E0012]") && out.contains("nesting deeper than the limit of 100 levels"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("PASS ")), "{out}");
}

/// Every file deep: the parallel phases parse, check and evaluate them on
/// worker threads, which once had the default 2 MiB stack and aborted.
#[test]
fn several_5000_level_files_run_on_worker_threads() {
    let files: Vec<(String, String)> = (0..6)
        .map(|i| {
            let text = nested(5000).replace("x", &format!("x{i}")).replace("witness w", &format!("witness w{i}"));
            (format!("m{i}.claim"), text)
        })
        .collect();
    let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let dir = project(&files);
    let (code, out) = batch(&dir, &["--jobs", "2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("6/6 PASS"), "{out}");
}

#[test]
fn a_10_mb_file_runs_and_a_lower_limit_refuses_it() {
    let mut text = String::with_capacity(11 << 20);
    let mut i = 0;
    while text.len() < 10 << 20 {
        text.push_str(&format!("fact f{i}: Int = {i}\n"));
        i += 1;
    }
    text.push_str("witness w { holds f1 == 1 }\n");
    let dir = project(&[("main.claim", &text)]);
    let (code, out) = batch(&dir, &[]);
    assert_eq!(code, 0, "{}", &out[..out.len().min(2000)]);
    assert!(out.contains("1/1 PASS"));
    let (code, out) = batch(&dir, &["--max-source-bytes", "1000000"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[E0013]") && out.contains("larger than the limit of 1000000"), "{out}");
    insta::assert_snapshot!("source_size_limit", portable(&out, &dir));
    assert!(!out.lines().any(|l| l.starts_with("PASS ")), "{out}");
}

#[test]
fn too_many_files_and_too_long_values_are_refused() {
    let dir = project(&[("a.claim", "witness a { holds true }\n"), ("b.claim", "witness b { holds true }\n")]);
    let (code, out) = batch(&dir, &["--max-files", "1"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[E0014]"), "{out}");
    insta::assert_snapshot!("file_count_limit", portable(&out, &dir));
    assert!(!out.lines().any(|l| l.starts_with("PASS ")), "{out}");

    let doubling = "fn twice(t: Text) -> Text { t ++ t }\nfact big: Text = twice(twice(twice(twice(\"abcd\"))))\nwitness w { holds len(big) == 64 }\n";
    let dir = project(&[("main.claim", doubling)]);
    let (code, out) = batch(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = batch(&dir, &["--max-value-len", "40"]);
    assert_eq!(code, 2, "{out}");
    insta::assert_snapshot!("value_length_limit", portable(&out, &dir));
    assert!(out.contains("[E0407]") && out.contains("this `++` makes 64 bytes of text"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("PASS ")), "{out}");
}

/// Every built-in that makes a longer text checks the limit too, not only
/// `++`: `join` (which multiplies a text by a list's length), `text()` of a
/// list, interpolation and a refusal's message. Each is `E0407`, exit 2 and
/// no `PASS`, in a fact and in a witness; under the limit each runs.
#[test]
fn every_text_builder_keeps_to_the_value_length_limit() {
    let parts = "fact parts: List<Text> = split(\"abcdefghijklmnopqrst\", \"\")\n";
    let cases = [
        ("join([a for p in parts], a)", "this `join` makes 1521 bytes of text"),
        ("text([a for p in parts])", "this `text` makes at least"),
        ("\"{a}{a}{a}\"", "this text makes at least 117 bytes of text"),
    ];
    for (expr, label) in cases {
        let fact = format!(
            "{parts}fact a: Text = join(parts, \"-\")\nfact big: Text = {expr}\nwitness w {{ holds len(big) > 0 }}\n"
        );
        let witness = format!("{parts}fact a: Text = join(parts, \"-\")\nwitness w {{ holds len({expr}) > 0 }}\n");
        for src in [fact, witness] {
            let dir = project(&[("main.claim", &src)]);
            let (code, out) = batch(&dir, &[]);
            assert_eq!(code, 0, "{expr}: {out}");
            let (code, out) = batch(&dir, &["--max-value-len", "100"]);
            assert_eq!(code, if src.contains("fact big") { 2 } else { 1 }, "{expr}: {out}");
            assert!(out.contains("[E0407]") && out.contains(label), "{expr}: {out}");
            assert!(!out.contains("PASS w"), "{expr}: {out}");
            if src.contains("fact big") && expr.starts_with("join") {
                insta::assert_snapshot!("value_length_limit_join", portable(&out, &dir));
            }
        }
    }
    // A refusal's message.
    let src = format!(
        "{parts}fact a: Text = join(parts, \"-\")\nrefusal Long \"long\"\nfn f() -> Int {{ refuse Long \"{{a}}{{a}}{{a}}\" }}\nwitness w {{ refuses f() with Long }}\n"
    );
    let dir = project(&[("main.claim", &src)]);
    let (code, out) = batch(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = batch(&dir, &["--max-value-len", "100"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[E0407]") && out.contains("this text makes at least 117 bytes of text"), "{out}");
    assert!(!out.contains("PASS w"), "{out}");
}

/// A fact has a time limit, as a witness has (`--timeout-per-fact`): one
/// still running when it passes fails with `E0408`, which stops the run
/// before any witness (exit 2, no `PASS`).
#[test]
fn a_fact_past_its_time_limit_stops_the_run() {
    // 64 × 64 × 64 texts: ~30 ms, far past a limit of 1 ms.
    let digits = "0123456789".repeat(7);
    let src = format!(
        "fact xs: List<Int> = [len(x) for x in split(\"{}\", \"\")]\n\
         fact grid: List<List<List<Text>>> = [[[\"{{a}}-{{b}}-{{c}}\" for c in xs] for b in xs] for a in xs]\n\
         witness w {{ holds len(grid) == 64 }}\n",
        &digits[..64]
    );
    let dir = project(&[("main.claim", &src)]);
    let (code, out) = batch(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = batch(&dir, &["--timeout-per-fact", "1ms"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[E0408]") && out.contains("fact `grid` exceeded its time limit of 1ms"), "{out}");
    insta::assert_snapshot!("fact_time_limit", portable(&out, &dir));
    assert!(!out.lines().any(|l| l.starts_with("PASS ")), "{out}");
}

/// A FIFO opened for reading waits for a writer; `file_sha256` of one hung
/// the run. Both readers of the world now refuse it at once.
#[cfg(unix)]
#[test]
fn a_fifo_is_refused_not_waited_on() {
    for (call, what) in [
        ("file_sha256(\"pipe\")", "cannot hash `pipe`: not a file"),
        ("load(\"pipe\")", "cannot load `pipe`: not a file"),
    ] {
        let ty = if call.starts_with("load") { "List<Int>" } else { "Sha256" };
        let dir = project(&[("main.claim", &format!("fact h: {ty} = {call}\nwitness w {{ holds h == h }}\n"))]);
        let made = Command::new("mkfifo").arg(dir.join("pipe")).status().expect("mkfifo");
        assert!(made.success());
        // Run with a deadline: the bug was a run that never ended.
        let mut child = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
            .arg("--entry")
            .arg(&dir)
            .env("NO_COLOR", "1")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("claim_batch");
        let start = std::time::Instant::now();
        while child.try_wait().expect("wait").is_none() {
            if start.elapsed() > std::time::Duration::from_secs(60) {
                let _ = child.kill();
                panic!("`{call}` of a FIFO did not finish in 60 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let done = child.wait_with_output().expect("output");
        let out = format!("{}{}", String::from_utf8_lossy(&done.stdout), String::from_utf8_lossy(&done.stderr));
        assert_eq!(done.status.code(), Some(2), "{out}");
        assert!(out.contains("[E0302]") && out.contains(what), "{out}");
        assert!(!out.lines().any(|l| l.starts_with("PASS ")), "{out}");
    }
}
