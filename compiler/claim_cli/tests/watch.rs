//! `claim_batch --watch` re-runs on a change and prints only the witnesses
//! whose verdict changed, and the summary line.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

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
    let mut child = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .args(["--watch", "--entry"])
        .arg(&dir)
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

    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
