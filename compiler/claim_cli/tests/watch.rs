//! `claim_batch --watch` re-runs on a change and prints only the witnesses
//! whose verdict changed, and the summary line.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// `claim_batch --watch --entry DIR`, and its standard output line by line.
fn watch(dir: &std::path::Path) -> (Child, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .args(["--watch", "--entry"])
        .arg(dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("claim_batch --watch");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    (child, rx)
}

/// Nothing changed, so nothing is printed: a run reads the folders it
/// watches, and must not wake itself (it took its own reads for changes,
/// and ran again and again).
fn assert_idle(rx: &Receiver<String>) {
    let idle = rx.recv_timeout(Duration::from_millis(1500));
    assert!(idle.is_err(), "output with nothing changed: {idle:?}");
}

fn stop(mut child: Child, dir: &std::path::Path) {
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn watch_prints_only_changed_verdicts() {
    let dir = std::env::temp_dir().join(format!("claim-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("Claim.toml"), "").expect("write");
    std::fs::write(dir.join("n.json"), "{\"n\": 2}").expect("write");
    std::fs::write(
        dir.join("main.claim"),
        "record N { n: Int }\nfact n: N = load(\"n.json\")\nwitness two { holds n.n == 2 }\nwitness positive { holds n.n > 0 }\n",
    )
    .expect("write");
    let (child, rx) = watch(&dir);
    let until = |end: &str| -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let l = rx.recv_timeout(Duration::from_secs(20)).expect("output within 20 s");
            let done = l.starts_with(end);
            lines.push(l);
            if done {
                return lines;
            }
        }
    };
    let first = until("watching");
    assert!(first.contains(&"PASS two".to_string()) && first.contains(&"2/2 PASS".to_string()), "{first:?}");

    // The receipt changes: one witness's verdict changes, the other's not.
    std::fs::write(dir.join("n.json"), "{\"n\": 3}").expect("write");
    let second = until("1/2 PASS");
    assert!(second.iter().any(|l| l.starts_with("FAIL two")), "{second:?}");
    assert!(!second.iter().any(|l| l.contains("positive")), "an unchanged verdict is not printed: {second:?}");

    // A `.claim` edit that breaks the program: errors, and nothing counted.
    std::fs::write(dir.join("main.claim"), "fact n: Int = \n").expect("write");
    let third = until("not run");
    assert!(third.iter().any(|l| l.contains("error[E0")), "{third:?}");

    // Repaired, with a witness renamed: the module alone is re-checked, and
    // after a run that ran nothing every verdict is news again.
    std::fs::write(
        dir.join("main.claim"),
        "record N { n: Int }\nfact n: N = load(\"n.json\")\nwitness three { holds n.n == 3 }\nwitness positive { holds n.n > 0 }\n",
    )
    .expect("write");
    let fourth = until("2/2 PASS");
    assert_eq!(fourth, ["PASS positive", "PASS three", "2/2 PASS"]);

    // A new module: a fresh start that includes it.
    std::fs::write(dir.join("extra.claim"), "witness extra { holds 1 + 1 == 2 }\n").expect("write");
    let fifth = until("3/3 PASS");
    assert_eq!(fifth, ["PASS extra", "3/3 PASS"], "only the new witness is news");

    assert_idle(&rx);
    stop(child, &dir);
}

/// A folder with no `.claim` file yet is watched (a plain run refuses it),
/// and its first `.claim` file runs.
#[test]
fn watch_waits_in_a_folder_without_claim_files() {
    let dir = std::env::temp_dir().join(format!("claim-watch-empty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let (child, rx) = watch(&dir);
    let next = || rx.recv_timeout(Duration::from_secs(20)).expect("output within 20 s");
    while !next().starts_with("watching") {}
    std::fs::write(dir.join("main.claim"), "witness first { holds 1 + 1 == 2 }\n").expect("write");
    assert_eq!((next(), next()), ("PASS first".to_string(), "1/1 PASS".to_string()));
    assert_idle(&rx);
    stop(child, &dir);
}

/// The databases are reused across a receipt change and a module edit,
/// and only a change to which modules there are asks for a fresh start.
#[test]
fn a_run_again_reuses_the_databases() {
    use claim_cli::batch::{run_again, RunState};
    use claim_cli::options::BatchOptions;
    let dir = std::env::temp_dir().join(format!("claim-watch-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("Claim.toml"), "").expect("write");
    std::fs::write(dir.join("n.json"), "{\"n\": 2}").expect("write");
    let main = "record N { n: Int }\nfact n: N = load(\"n.json\")\nwitness two { holds n.n == 2 }\n";
    std::fs::write(dir.join("main.claim"), main).expect("write");
    let opts = BatchOptions::json_run(vec![dir.clone()], None);
    let projects = claim_cli::project::projects(&opts.entries).expect("projects");
    let mut state = RunState::default();
    let passed = |out: &claim_cli::Output| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(&out.stdout).expect("json")["summary"]["passed"].clone()
    };
    assert_eq!(passed(&run_again(&opts, &projects, &mut state)), 1);

    std::fs::write(dir.join("n.json"), "{\"n\": 3}").expect("write");
    assert!(state.apply_change(&dir.join("n.json")), "a receipt change reuses the databases");
    assert_eq!(passed(&run_again(&opts, &projects, &mut state)), 0);

    std::fs::write(dir.join("main.claim"), main.replace("== 2", "== 3")).expect("write");
    assert!(state.apply_change(&dir.join("main.claim")), "an edit with the same `use`s reuses them");
    assert_eq!(passed(&run_again(&opts, &projects, &mut state)), 1);

    std::fs::write(dir.join("main.claim"), format!("use other\n{main}")).expect("write");
    assert!(!state.apply_change(&dir.join("main.claim")), "another `use` needs a fresh start");
    std::fs::write(dir.join("new.claim"), "witness w { holds true }\n").expect("write");
    assert!(!state.apply_change(&dir.join("new.claim")), "a new module needs a fresh start");
    let _ = std::fs::remove_dir_all(&dir);
}
