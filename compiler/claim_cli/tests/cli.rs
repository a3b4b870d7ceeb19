//! The real binaries, run as CI runs them: exit codes, what is printed, and
//! that nothing that failed to compile, load or evaluate is ever a PASS.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(bin: &str, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(bin);
    cmd.args(args).current_dir(repo()).env("NO_COLOR", "1").env_remove("CLAIM_INTERNAL_PANIC");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run binary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn batch(args: &[&str]) -> (i32, String, String) {
    run(env!("CARGO_BIN_EXE_claim_batch"), args, &[])
}

fn claimc(args: &[&str]) -> (i32, String, String) {
    run(env!("CARGO_BIN_EXE_claimc"), args, &[])
}

fn last_line(s: &str) -> &str {
    s.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("")
}

fn no_pass(out: &str, err: &str) {
    assert!(!out.lines().chain(err.lines()).any(|l| l.starts_with("PASS")), "a PASS line was printed:\n{out}{err}");
}

const FAILURES: &str = "tests/fixtures/diagnostics/witness_failures.claim";

#[test]
fn the_examples_pass() {
    let (code, out, err) = batch(&["--entry", "examples"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(last_line(&out).ends_with(" PASS") && !last_line(&out).contains("FAIL"), "{out}");
    assert!(out.contains("open frontiers:"), "{out}");
}

#[test]
fn failures_exit_1_and_count() {
    let (code, out, _) = batch(&["--entry", FAILURES]);
    assert_eq!(code, 1);
    assert_eq!(last_line(&out), "1/5 PASS, 4 FAIL, 1 DISSOLVED");
    assert!(out.contains("FAIL holds_false") && out.contains("PASS passes"));
    assert!(!out.contains('\u{1b}'), "colour with NO_COLOR set");
}

#[test]
fn compile_errors_exit_2_without_pass() {
    let (code, out, err) = batch(&["--entry", "tests/fixtures/check/mismatches.claim"]);
    assert_eq!(code, 2);
    no_pass(&out, &err);
    assert!(err.contains("[E0203]") && err.contains("no witness was run"), "{err}");
}

#[test]
fn broken_facts_exit_2_and_every_witness_reports() {
    // A broken fact no witness expects fails the run (§7, §8); the
    // witnesses that do not read it still report, those that do fail.
    for (entry, summary) in [
        ("tests/fixtures/diagnostics/fact_refuses.claim", "1/1 PASS, 1 BROKEN"),
        ("tests/fixtures/diagnostics/json_decode/main.claim", "0/1 PASS, 1 FAIL, 1 BROKEN"),
        ("tests/fixtures/diagnostics/path_errors.claim", "1/1 PASS, 4 BROKEN"),
    ] {
        let (code, out, err) = batch(&["--entry", entry]);
        assert_eq!(code, 2, "{entry}: {out}{err}");
        assert_eq!(last_line(&out), summary, "{entry}: {out}{err}");
    }
}

#[test]
fn invalid_utf8_exits_2() {
    let (code, out, err) = batch(&["--entry", "tests/fixtures/diagnostics/invalid_utf8.claim"]);
    assert_eq!(code, 2);
    no_pass(&out, &err);
    assert!(err.contains("[E0001]") && err.contains("offset"), "{err}");
}

#[test]
fn a_missing_entry_is_a_usage_error() {
    let (code, out, err) = batch(&["--entry", "no/such/place.claim"]);
    assert_eq!(code, 2);
    no_pass(&out, &err);
    assert!(err.contains("E0901") && err.contains("no/such/place.claim"), "{err}");
    // A slip in a folder's or a file's name: the one meant is suggested.
    let (code, _, err) = batch(&["--entry", "exmaples"]);
    assert!(code == 2 && err.contains("help: did you mean `examples`?"), "{err}");
    let (code, _, err) = claimc(&["check", "examples/build-receipt/main.clam"]);
    assert!(code == 2 && err.contains("did you mean `examples/build-receipt/main.claim`?"), "{err}");
    let (code, _, _) = batch(&[]);
    assert_eq!(code, 2, "no --entry is misuse");
}

/// Entries and filters that would run nothing are errors, never `0/0 PASS`:
/// a moved folder, a wrong path or a misspelt filter in a CI job must fail it.
#[test]
fn a_run_that_would_select_nothing_is_a_usage_error() {
    let empty = std::env::temp_dir().join(format!("claim-empty-entry-{}", std::process::id()));
    std::fs::create_dir_all(empty.join("receipts")).expect("mkdir");
    std::fs::write(empty.join("receipts/run.json"), "{}").expect("write");
    let (code, out, err) = batch(&["--entry", empty.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{out}{err}");
    no_pass(&out, &err);
    assert!(err.contains("E0901") && err.contains("no `.claim` file under"), "{err}");

    let receipt = empty.join("receipts/run.json");
    let (code, out, err) = batch(&["--entry", receipt.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("is not a `.claim` file") && err.contains("load("), "{err}");
    let _ = std::fs::remove_dir_all(&empty);

    let (code, out, err) = batch(&["--entry", FAILURES, "--filter", "pases"]);
    assert_eq!(code, 2, "{out}{err}");
    no_pass(&out, &err);
    assert!(err.contains("`--filter pases` matches no witness") && err.contains("`--filter passes`"), "{err}");
    assert!(!out.contains("0/0"), "{out}");

    // An empty shard is not an error: a small program split many ways has them.
    let names = [
        "the_candidate_pins_the_tree_and_patch_here",
        "the_build_is_produced_from_this_candidate",
        "an_image_adopted_under_the_expected_tag_is_not_produced",
        "produced_does_not_mint_realized",
    ];
    let k = (1..=8).find(|k| !names.iter().any(|n| claim_cli::selection::in_shard(n, *k, 8))).expect("an empty shard");
    let (code, out, err) = batch(&["--entry", "examples/build-receipt", "--shard", &format!("{k}/8")]);
    assert_eq!((code, last_line(&out)), (0, "0/0 PASS"), "{out}{err}");
}

/// `--list` names what a run would run, runs nothing, and still fails on
/// a program that does not compile.
#[test]
fn list_names_the_selected_witnesses_and_runs_nothing() {
    let (code, out, err) = batch(&["--entry", FAILURES, "--list"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        ["holds_false", "unexpected_refusal", "expected_a_refusal", "refused_with_another_code", "passes"]
    );
    let (code, out, _) = batch(&["--entry", FAILURES, "--list", "--filter", "refus"]);
    assert_eq!((code, out.as_str()), (0, "unexpected_refusal\nexpected_a_refusal\nrefused_with_another_code\n"));
    let (code, out, err) = batch(&["--entry", "tests/fixtures/diagnostics/type_errors.claim", "--list"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn a_panic_exits_101_and_never_passes() {
    let (code, out, err) =
        run(env!("CARGO_BIN_EXE_claim_batch"), &["--entry", "examples"], &[("CLAIM_INTERNAL_PANIC", "1")]);
    assert_eq!(code, 101);
    no_pass(&out, &err);
    assert!(err.contains("E0999") && err.contains("internal compiler error"), "{err}");
}

#[test]
fn a_worker_that_dies_mid_run_exits_101_and_never_passes() {
    let (code, out, err) = run(
        env!("CARGO_BIN_EXE_claim_batch"),
        &["--entry", "claims", "--jobs", "2"],
        &[("CLAIM_INTERNAL_PANIC", "worker")],
    );
    assert_eq!(code, 101, "{err}");
    no_pass(&out, &err);
    assert!(err.contains("E0999") && err.contains("witness worker"), "{err}");
}

#[test]
fn the_load_limit_is_enforced() {
    let (code, out, err) = batch(&["--entry", "examples", "--max-load-bytes", "10"]);
    assert_eq!(code, 2);
    // Every receipt is broken (`FileTooLarge`): its readers fail, and the
    // run fails even where no witness read one.
    assert!(out.contains("[E0307]") && last_line(&out).ends_with(" BROKEN"), "{out}{err}");
}

#[test]
fn filter_runs_only_matching_witnesses() {
    let (code, out, _) = batch(&["--entry", FAILURES, "--filter", "passes"]);
    assert_eq!(code, 1, "the dissolved frontier still fails the run");
    assert!(out.contains("PASS passes") && !out.contains("holds_false"));
    assert_eq!(last_line(&out), "1/1 PASS, 1 DISSOLVED");
}

#[test]
fn explain_traces_requires_with_their_values() {
    let (_, out, _) = batch(&["--entry", FAILURES, "--explain"]);
    assert!(out.contains("explain unexpected_refusal (failed):"), "{out}");
    assert!(out.contains("require n < 100 failed (left: 150, right: 100)"), "{out}");
    assert!(!out.contains("explain passes"), "passing witnesses only with --explain=all");
    let (_, out, _) = batch(&["--entry", FAILURES, "--explain=all"]);
    assert!(out.contains("explain passes (passed):"), "{out}");
}

#[test]
fn parallel_output_equals_serial_output() {
    for entry in ["examples", FAILURES] {
        let one = batch(&["--entry", entry, "--jobs", "1"]);
        let four = batch(&["--entry", entry, "--jobs", "4"]);
        assert_eq!(one, four, "{entry}");
    }
}

#[test]
fn claimc_explains_every_code() {
    for (code, title, _) in claim_diagnostics::codes::CODES {
        let (status, out, _) = claimc(&["explain", code]);
        assert_eq!(status, 0, "{code}");
        assert!(out.contains(title), "{code}");
    }
    let (status, _, err) = claimc(&["explain", "E9999"]);
    assert_eq!(status, 2);
    assert!(err.contains("not a Claim diagnostic code"));
    // Without a code: every code with its title.
    let (status, out, _) = claimc(&["explain"]);
    assert_eq!((status, out.lines().count()), (0, claim_diagnostics::codes::CODES.len()));
    // As a reader types it, and what a near miss meant.
    let (status, out, _) = claimc(&["explain", "e203"]);
    assert!(status == 0 && out.starts_with("# E0203"), "{out}");
    let (_, _, err) = claimc(&["explain", "E0293"]);
    assert!(err.contains("did you mean `E0203`?"), "{err}");
    let (_, _, err) = claimc(&["explain", "2"]);
    assert!(err.contains("did you mean `E0002` or `W0002`?"), "{err}");
}

#[test]
fn claimc_explains_every_world_code_and_standard_refusal() {
    for code in claim_eval::WorldCode::ALL {
        let (status, out, _) = claimc(&["explain", code.name()]);
        assert_eq!(status, 0, "{}", code.name());
        assert!(out.starts_with(&format!("# {}: a refusal of `std.world`", code.name())), "{out}");
        assert!(out.contains(&format!("refuses fact with {}", code.name())), "{out}");
    }
    for code in ["NotBuilt", "Overflow", "malformeddigest"] {
        let (status, out, _) = claimc(&["explain", code]);
        assert_eq!(status, 0, "{code}: {out}");
    }
}

#[test]
fn claimc_check_compiles_without_running() {
    let (code, _, err) = claimc(&["check", "tests/fixtures/check/clean.claim"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 errors"), "{err}");
    let (code, out, err) = claimc(&["check", "tests/fixtures/check/records.claim"]);
    assert_eq!(code, 2);
    no_pass(&out, &err);
    assert!(err.contains("[E0204]") && err.contains("[E0205]") && err.contains("[E0206]"), "{err}");
}

/// A module that cannot be read is not left out of a graph: the graph is
/// refused, as a run is, rather than drawn without it.
#[test]
fn claimc_graph_of_an_unreadable_module_fails() {
    let (code, out, err) = claimc(&["graph", "tests/fixtures/diagnostics/invalid_utf8.claim"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty() && err.contains("[E0001]"), "{out}{err}");
    let (code, out, _) = claimc(&["graph", "examples/build-receipt"]);
    assert!(code == 0 && out.starts_with("flowchart"), "{out}");
}

#[test]
fn warnings_do_not_fail_a_run() {
    let (code, out, err) = batch(&["--entry", "tests/fixtures/check/naming.claim"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("[W0001]"), "{err}");
    assert_eq!(last_line(&out), "1/1 PASS");
}

#[test]
fn deny_warnings_fails_the_run_and_the_repository_has_none() {
    let (code, out, err) = batch(&["--entry", "tests/fixtures/diagnostics/lints.claim"]);
    assert_eq!(code, 0, "warnings alone pass: {out}{err}");
    let (code, out, err) = batch(&["--entry", "tests/fixtures/diagnostics/lints.claim", "--deny-warnings"]);
    assert_eq!(code, 2);
    no_pass(&out, &err);
    for code in ["W0002", "W0003", "W0004", "W0005"] {
        assert!(err.contains(code), "{code}: {err}");
    }
    for entry in ["claims", "examples"] {
        let (code, out, err) = batch(&["--entry", entry, "--deny-warnings"]);
        assert_eq!(code, 0, "{entry} is not warning-free:\n{out}{err}");
    }
}

#[test]
fn a_witness_past_its_time_limit_fails_and_the_run_goes_on() {
    let dir = std::env::temp_dir().join(format!("claim-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let long = "x".repeat(3000);
    // 3000³ steps: far more than a second, and it terminates (no recursion).
    std::fs::write(
        dir.join("main.claim"),
        format!(
            "fact xs: List<Text> = split(\"{long}\", \"\")\n\
             fn row(a: Text) -> Int {{ len([a ++ b for b in xs]) }}\n\
             fn square(a: Text) -> Int {{ sum([row(b) for b in xs]) }}\n\
             witness far_too_much_work {{ holds sum([square(a) for a in xs]) > 0 }}\n\
             witness quick {{ holds len(xs) == 3000 }}\n"
        ),
    )
    .expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .args(["--entry", "main.claim", "--timeout-per-witness", "1s"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL far_too_much_work") && text.contains("PASS quick"), "{text}");
    assert!(text.contains("[E0406]") && text.contains("time limit of 1s"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn jobs_and_timings_never_change_what_is_reported() {
    // Warnings in JSON files (W0006) and facts read on several threads:
    // the claims corpus has both kinds of work.
    let claims = repo().join("claims");
    let claims = claims.to_str().expect("utf-8 path");
    let one = batch(&["--jobs", "1", "--entry", claims]);
    let two = batch(&["--jobs", "2", "--entry", claims]);
    assert!(one.0 == 0 && last_line(&one.1).ends_with("PASS"), "{one:?}");
    assert_eq!(one, two, "--jobs changed the report");
    let (code, out, err) = batch(&["--jobs", "2", "--timings", "--entry", claims]);
    assert_eq!((code, &out), (one.0, &one.1), "--timings changed stdout or the exit code");
    let line = err.lines().find(|l| l.starts_with("timings:")).expect("a timings line");
    for phase in ["load", "check", "merge", "facts", "witnesses", "report", "total"] {
        assert!(line.contains(&format!(" {phase} ")), "{phase} missing from {line}");
    }
    assert_eq!(err.replace(&format!("{line}\n"), ""), one.2, "--timings added more than its line");
}

/// Where stdout and stderr are one stream (a terminal, a CI log), the
/// warnings come first and the summary is the last line.
#[test]
fn warnings_come_before_the_report_in_one_stream() {
    let bin = env!("CARGO_BIN_EXE_claim_batch");
    let out = Command::new("sh")
        .args(["-c", &format!("'{bin}' --entry tests/fixtures/diagnostics/claims_unmentioned_binding.claim 2>&1")])
        .current_dir(repo())
        .env("NO_COLOR", "1")
        .output()
        .expect("sh");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let warning = text.find("[W0006]").expect("a warning");
    let pass = text.find("PASS the_arm_resolves").expect("the report");
    assert!(warning < pass, "the warning after the report:\n{text}");
    assert_eq!(last_line(&text), "1/1 PASS", "{text}");
}

/// Entries may be given without `--entry`, as most commands take their
/// paths: the same run, in the same order, mixed with `--entry` too.
#[test]
fn entries_may_be_given_without_the_flag() {
    let (code, flagged, _) = batch(&["--entry", "claims", "--entry", "examples", "--jobs", "1"]);
    assert_eq!(code, 0, "{flagged}");
    let (code, bare, _) = batch(&["claims", "examples", "--jobs", "1"]);
    assert_eq!(code, 0, "{bare}");
    assert_eq!(bare, flagged);
    let (code, mixed, _) = batch(&["--entry", "claims", "examples", "--jobs", "1"]);
    assert_eq!((code, mixed), (0, flagged));
    let (code, _, err) = batch(&[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--entry"), "{err}");
}

/// `claimc init` writes a project that `claim_batch` runs green (with
/// warnings denied, as the CI job it writes does), in the canonical layout,
/// and a wrong receipt then fails its witness; a second `init` writes
/// nothing over it.
#[test]
fn claimc_init_writes_a_project_that_runs_green() {
    let dir = std::env::temp_dir().join(format!("claim-init-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.to_string_lossy().to_string();
    let (code, out, err) = claimc(&["init", &path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(dir.join(".github/workflows/claims.yml").is_file() && dir.join("Claim.toml").is_file(), "{out}");
    let in_dir = |bin: &str, args: &[&str]| {
        let out = Command::new(bin).args(args).current_dir(&dir).env("NO_COLOR", "1").output().expect("run");
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let batch_bin = env!("CARGO_BIN_EXE_claim_batch");
    let (code, out) = in_dir(batch_bin, &["--entry", "claims", "--deny-warnings"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(last_line(&out), "2/2 PASS", "{out}");
    let (code, out) = in_dir(env!("CARGO_BIN_EXE_claimc"), &["fmt", "--check", "claims"]);
    assert_eq!(code, 0, "{out}");
    // A receipt of another image fails the witness that binds it.
    let receipt = dir.join("receipts/build.json");
    let text = std::fs::read_to_string(&receipt).expect("receipt");
    std::fs::write(&receipt, text.replace("ea39410ed01d", "ea39410ed01e")).expect("receipt");
    let (code, out) = in_dir(batch_bin, &["--entry", "claims"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL the_build_is_the_released_image"), "{out}");
    let (code, _, err) = claimc(&["init", &path]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("writes nothing over a file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
