//! Reading receipts: a file its folder's listing calls a regular file is
//! read without asking its size first, so its size is known only once read.
//! These check that such a read still gives the whole file however large,
//! that the load limit is still enforced (and names the size), and that a
//! receipt reached through a symlink inside the root (read the other way)
//! gives the same answer. Each runs with a file entry (the world lists the
//! folders) and with a folder entry (the search for files listed them).
//! The inputs `file_sha256` hashes are read the same way, and checked the
//! same: hashed whole whatever their size, and refused where not a file.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    common::project_dir("receipts", name, files)
}

/// `claim_batch` in `dir` with `entry` and `extra` arguments: exit code and
/// everything it printed.
fn run(dir: &Path, entry: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .args(["--entry", entry])
        .args(extra)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("claim_batch");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

const ENTRIES: [&str; 2] = ["main.claim", "."];

/// Runs with each entry, and checks that it exits 0 with `summary`.
fn passes_with_each_entry(dir: &Path, extra: &[&str], summary: &str) {
    for entry in ENTRIES {
        let (code, out) = run(dir, entry, extra);
        assert_eq!(code, 0, "{entry}: {out}");
        assert!(out.contains(summary), "{entry}: {out}");
    }
}

/// Runs with each entry, and checks that it exits 2 with the diagnostic
/// `code` saying `message`, and no PASS; returns what each run printed.
fn refused_with_each_entry(dir: &Path, extra: &[&str], code: &str, message: &str) -> Vec<String> {
    let runs = ENTRIES.iter().map(|entry| (entry, run(dir, entry, extra)));
    runs.map(|(entry, (status, out))| {
        assert_eq!(status, 2, "{entry}: {out}");
        assert!(out.contains(&format!("[{code}]")) && out.contains(message), "{entry}: {out}");
        assert!(!out.lines().any(|l| l.starts_with("PASS ")), "{entry}: {out}");
        out
    })
    .collect()
}

/// A list of the numbers below `n` as JSON, and its length in bytes.
fn numbers(n: i64) -> (String, usize) {
    let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let json = format!("[{}]", items.join(","));
    let len = json.len();
    (json, len)
}

#[test]
fn a_receipt_larger_than_the_first_read_is_read_whole() {
    // About 190 KB: many times the first read.
    let (json, _) = numbers(30_000);
    let main = "fact xs: List<Int> = load(\"data/xs.json\")\n\
                witness all_read { holds len(xs) == 30000 }\n\
                witness the_last_is_there { holds len([x for x in xs if x == 29999]) == 1 }\n";
    let dir = project("large", &[("main.claim", main), ("data/xs.json", &json)]);
    passes_with_each_entry(&dir, &[], "2/2 PASS");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_load_limit_names_the_size_of_a_receipt_read_without_asking_it() {
    let (json, _) = numbers(2_000);
    let size = json.len();
    let main = "fact xs: List<Int> = load(\"data/xs.json\")\nwitness w { holds len(xs) > 0 }\n";
    let dir = project("limit", &[("main.claim", main), ("data/xs.json", &json)]);
    let limit = ["--max-load-bytes", "1000"];
    for out in refused_with_each_entry(&dir, &limit, "E0307", "`data/xs.json` is larger than the load limit") {
        assert!(out.contains(&format!("{size} bytes; the limit is 1000")), "{out}");
    }
    // Exactly the limit is within it.
    passes_with_each_entry(&dir, &["--max-load-bytes", &size.to_string()], "1/1 PASS");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_receipt_reached_through_a_symlink_inside_the_root_reads_the_same() {
    let main = "record R { n: Int }\n\
                fact direct: R = load(\"data/r.json\")\n\
                fact linked: R = load(\"data/link.json\")\n\
                witness same { holds direct.n == 7 and linked.n == 7 }\n";
    let dir = project("link", &[("main.claim", main), ("data/r.json", r#"{"n": 7}"#)]);
    std::os::unix::fs::symlink("r.json", dir.join("data/link.json")).expect("symlink");
    passes_with_each_entry(&dir, &[], "1/1 PASS");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder where a file is named is refused, read (`load`) or hashed
/// (`file_sha256`): its listing calls it a folder, so it is asked.
#[test]
fn a_folder_named_as_a_receipt_or_an_input_is_not_a_file() {
    let cases = [
        ("fact xs: List<Int> = load(\"data\")\nwitness w { holds len(xs) > 0 }\n", "cannot load `data`: not a file"),
        (
            "fact h: Sha256 = file_sha256(\"data\")\nwitness w { holds len(hex(h)) == 64 }\n",
            "cannot hash `data`: it is a directory",
        ),
    ];
    for (main, message) in cases {
        let dir = project("folder", &[("main.claim", main), ("data/x.json", "[1]")]);
        refused_with_each_entry(&dir, &[], "E0302", message);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

// Every shape of document reads whole (a reader that stopped at the first
// short read, or at the first complete document, would pass some of these
// and fail the others), and text after the document, or no document at
// all, is refused however much of the file one read returns.

#[test]
fn documents_of_every_shape_read_whole() {
    let main = "record R { n: Int }\n\
                fact number: Int = load(\"data/number.json\")\n\
                fact text: Text = load(\"data/text.json\")\n\
                fact object: R = load(\"data/object.json\")\n\
                fact list: List<Int> = load(\"data/list.json\")\n\
                fact spaced: R = load(\"data/spaced.json\")\n\
                witness each_read_whole {\n\
                  holds number == 1234567\n\
                  holds text == \"a receipt\"\n\
                  holds object.n == 7\n\
                  holds list == [1, 2, 3]\n\
                  holds spaced.n == 8\n\
                }\n";
    let dir = project(
        "shapes",
        &[
            ("main.claim", main),
            ("data/number.json", "1234567\n"),
            ("data/text.json", "\"a receipt\""),
            ("data/object.json", r#"{"n": 7}"#),
            ("data/list.json", "[1, 2, 3]\n"),
            ("data/spaced.json", "{\"n\": 8}\n\n\t  \n"),
        ],
    );
    passes_with_each_entry(&dir, &[], "1/1 PASS");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_after_a_document_is_refused_however_the_file_is_read() {
    let main = "record R { n: Int }\nfact r: R = load(\"data/r.json\")\nwitness w { holds r.n == 7 }\n";
    for (name, json) in [("garbage", "{\"n\": 7} x"), ("second", "{\"n\": 7}\n{\"n\": 8}\n"), ("empty", "")] {
        let dir = project(name, &[("main.claim", main), ("data/r.json", json)]);
        refused_with_each_entry(&dir, &[], "E0305", "`data/r.json` is not valid JSON");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A module and a receipt that begin with a UTF-8 byte order mark (as
/// PowerShell 5 writes them) are read without it: the witness runs, and
/// places on their first lines count from the character after it.
#[test]
fn a_byte_order_mark_is_ignored_where_a_file_begins() {
    const BOM: &str = "\u{feff}";
    let main = format!(
        "{BOM}record Receipt {{ config: Sha256, .. }}\n\
         fact r: Receipt = load(\"run.json\")\n\
         witness pinned {{ holds r.config == sha256:{} }}\n",
        "a".repeat(64)
    );
    let pass = format!("{BOM}{{\"config\": \"sha256:{}\"}}\n", "a".repeat(64));
    let dir = common::project_dir("cli", "bom", &[("main.claim", &main), ("run.json", &pass)]);
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS pinned") && out.contains("1/1 PASS"), "{out}");
    // The receipt's digest is on its first line: column 12 after the mark.
    std::fs::write(dir.join("run.json"), format!("{BOM}{{\"config\": \"sha256:{}\"}}\n", "b".repeat(64)))
        .expect("write");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL pinned") && out.contains("run.json:1:12 "), "{out}");
    // A mark anywhere else is still refused.
    std::fs::write(dir.join("run.json"), format!("{{\"config\": {BOM}\"sha256:{}\"}}\n", "a".repeat(64)))
        .expect("write");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[E0305]") && !out.contains("PASS pinned"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sizes around the first read (a page), the piece a hash reads at once
/// (64 KiB), and nothing at all: each file's digest is the one `sha2`
/// gives its bytes. A hash that stopped at a short read, or took an empty
/// read for the end, would differ for some of them.
#[test]
fn inputs_of_every_size_hash_whole() {
    use sha2::{Digest, Sha256};
    let sizes = [0usize, 1, 4095, 4096, 4097, 65_536, 65_537, 200_003];
    let texts: Vec<(String, String)> = sizes
        .iter()
        .map(|&n| (format!("inputs/f{n}"), (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect()))
        .collect();
    let mut main = String::new();
    for ((path, text), n) in texts.iter().zip(sizes) {
        let digest: String = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        main.push_str(&format!("fact h{n}: Sha256 = file_sha256(\"{path}\")\n"));
        main.push_str(&format!("witness hashed_{n} {{ holds h{n} == sha256:{digest} }}\n"));
    }
    let mut files: Vec<(&str, &str)> = vec![("main.claim", &main)];
    files.extend(texts.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    let dir = project("hashes", &files);
    passes_with_each_entry(&dir, &[], &format!("{n}/{n} PASS", n = sizes.len()));
    let _ = std::fs::remove_dir_all(&dir);
}
