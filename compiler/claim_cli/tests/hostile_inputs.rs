//! Inputs an attacker controls: receipts, OCI layouts, file and folder
//! names, and the checkout itself. Each test here is a regression test of
//! one way a run passed that must not have, read outside the project, or
//! gave another tool's answer a different meaning (`docs/robustness.md`,
//! "Threat model"). Every case must be refused by name, and nothing that
//! reads it may pass.

mod common;

use common::oci::{sha, write_layout, Edits};
use std::path::{Path, PathBuf};

/// A fresh project folder (a `Claim.toml` in it) for one case.
fn project(name: &str) -> PathBuf {
    common::project_dir("hostile", name, &[("Claim.toml", "")])
}

const LAYER: &[u8] = b"a plain tar layer";
const TAR: &str = "application/vnd.oci.image.layer.v1.tar";

/// A layout at `dir/lay` (or wherever `at` says) of one plain layer.
fn layout(at: &Path, edits: &Edits<'_>) {
    write_layout(at, &[(LAYER, TAR)], &[sha(LAYER)], edits);
}

fn run_image(dir: &Path) -> (i32, String) {
    std::fs::write(
        dir.join("main.claim"),
        "use std.oci.{oci_image, Image}\nfact image: Image = oci_image(\"lay\", \"v1\")\n\
         witness reads_the_image { holds len(image.layers) == 1 }\n",
    )
    .expect("main");
    common::batch_in(dir)
}

fn assert_refused(what: &str, (code, out): (i32, String), says: &[&str]) {
    assert_eq!(code, 2, "{what}: {out}");
    assert!(!out.contains("PASS reads_the_image"), "{what}: {out}");
    for s in says {
        assert!(out.contains(s), "{what}: `{s}` not in\n{out}");
    }
}

/// Every path `oci_image` opens is confined to the project, not only the
/// layout folder: a layout whose `blobs`, `blobs/sha256` or `index.json`
/// is a symlink out of the project is refused, though the image outside
/// is well-formed.
#[test]
fn symlinks_inside_a_layout_do_not_lead_out_of_the_project() {
    for (case, link, target) in [
        ("blobs", "lay/blobs", "../../outside/lay/blobs"),
        ("sha256", "lay/blobs/sha256", "../../../outside/lay/blobs/sha256"),
        ("index", "lay/index.json", "../../outside/lay/index.json"),
    ] {
        let top = std::env::temp_dir().join(format!("claim-hostile-links-{case}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&top);
        let dir = top.join("proj");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("Claim.toml"), "").expect("toml");
        layout(&top.join("outside/lay"), &Edits::default());
        layout(&dir.join("lay"), &Edits::default());
        // The project's own copy works; then one part of it is replaced by
        // a link to the copy outside.
        assert_eq!(run_image(&dir).0, 0, "{case}");
        let link = dir.join(link);
        if link.is_dir() {
            std::fs::remove_dir_all(&link).expect("rm");
        } else {
            std::fs::remove_file(&link).expect("rm");
        }
        std::os::unix::fs::symlink(target, &link).expect("link");
        assert_refused(case, run_image(&dir), &["leads out of the project root"]);
        let _ = std::fs::remove_dir_all(&top);
    }
}

/// JSON that two tools read as two different values, or that RFC 8259
/// forbids, is refused wherever Claim reads it: in an OCI blob as in a
/// receipt.
#[test]
fn ambiguous_or_malformed_json_in_a_layout_is_refused() {
    let dup_config =
        |t: String| t.replacen("\"config\":", "\"config\": {\"digest\": \"sha256:00\", \"size\": 1}, \"config\":", 1);
    let leading_zero = |t: String| t.replacen("\"size\":", "\"size\":00", 1);
    let cases: Vec<(&str, Edits<'_>, &[&str])> = vec![
        (
            "two config keys in the manifest",
            Edits { manifest_text: &dup_config, ..Edits::default() },
            &["duplicate key `config`"],
        ),
        (
            "a size with leading zeros",
            Edits { index_text: &leading_zero, ..Edits::default() },
            &["does not start with `0`"],
        ),
    ];
    for (what, edits, says) in cases {
        let dir = project("json");
        layout(&dir.join("lay"), &edits);
        assert_refused(what, run_image(&dir), says);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A layout of something that is not an image is refused, even where
/// every blob matches its descriptor.
#[test]
fn what_is_not_an_image_is_refused() {
    let index_type = |m: &mut serde_json::Value| {
        m["mediaType"] = "application/vnd.oci.image.index.v1+json".into();
    };
    let schema_1 = |m: &mut serde_json::Value| m["schemaVersion"] = 1.into();
    let no_schema = |m: &mut serde_json::Value| {
        m.as_object_mut().map(|o| o.remove("schemaVersion"));
    };
    let artifact = |m: &mut serde_json::Value| m["artifactType"] = "application/vnd.example.sbom".into();
    let index_schema_1 = |i: &mut serde_json::Value| i["schemaVersion"] = 1.into();
    let cases: Vec<(&str, Edits<'_>, &[&str])> = vec![
        (
            "layout version 2",
            Edits { marker: r#"{"imageLayoutVersion": "2.0.0"}"#, ..Edits::default() },
            &["version `2.0.0`"],
        ),
        ("manifest schema 1", Edits { manifest: &schema_1, ..Edits::default() }, &["`schemaVersion` 1"]),
        ("manifest without a schema", Edits { manifest: &no_schema, ..Edits::default() }, &["no `schemaVersion` 2"]),
        (
            "index schema 1",
            Edits { index: &index_schema_1, ..Edits::default() },
            &["`index.json` has `schemaVersion` 1"],
        ),
        (
            "a manifest typed as an index",
            Edits { manifest: &index_type, ..Edits::default() },
            &["the index has no `manifests` array"],
        ),
        ("a config that is a list", Edits { config: Some(b"[1,2]"), ..Edits::default() }, &["the config is an array"]),
        (
            "an artifact's empty config",
            Edits { config: Some(b"{}"), config_media_type: "application/vnd.oci.empty.v1+json", ..Edits::default() },
            &["empty descriptor", "names no image"],
        ),
        (
            "an artifact type",
            Edits { manifest: &artifact, ..Edits::default() },
            &["OCI artifact (`application/vnd.example.sbom`)"],
        ),
        (
            "a config of another media type",
            Edits { config_media_type: "application/vnd.example.config+json", ..Edits::default() },
            &["`application/vnd.example.config+json`"],
        ),
    ];
    for (what, edits, says) in cases {
        let dir = project("not-an-image");
        layout(&dir.join("lay"), &edits);
        assert_refused(what, run_image(&dir), &[&["[E0309]"][..], says].concat());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The numbers RFC 8259 forbids are refused in receipts too (a Duration
/// written with a leading zero as well).
#[test]
fn numbers_with_leading_zeros_are_not_json() {
    for (value, ty) in [("007", "Int"), ("-01", "Int"), ("00", "Int"), ("\"05s\"", "Duration")] {
        let dir = project("numbers");
        std::fs::write(dir.join("r.json"), format!("{{\"n\": {value}}}")).expect("receipt");
        std::fs::write(
            dir.join("main.claim"),
            format!(
                "record R {{ n: {ty} }}\nfact r: R = load(\"r.json\")\nwitness reads_the_image {{ holds r == r }}\n"
            ),
        )
        .expect("main");
        let (code, out) = common::batch_in(&dir);
        assert_refused(value, (code, out), &[]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `claim_batch` run as a user without the root's rights: as `nobody`
/// through `setpriv` where the tests run as root (root reads a file of
/// mode 000), else as is. `None` where that cannot be done.
fn as_unprivileged(dir: &Path, args: &[&str]) -> Option<(i32, String)> {
    let bin = env!("CARGO_BIN_EXE_claim_batch");
    let root = std::process::Command::new("id").arg("-u").output().ok()?.stdout == b"0\n";
    let mut cmd = if root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    } else {
        std::process::Command::new(bin)
    };
    let out = cmd.args(args).current_dir(dir).env("NO_COLOR", "1").output().ok()?;
    Some((
        out.status.code().unwrap_or(-1),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
    ))
}

/// Every `.claim` file an entry selects is read, or the run fails naming
/// it: an unreadable file, a symlink to nothing and a FIFO are not skipped,
/// whether an entry folder found them or an entry named them.
#[test]
fn a_claim_file_that_cannot_be_read_fails_the_run() {
    use std::os::unix::fs::PermissionsExt;
    let top = std::env::temp_dir().join(format!("claim-hostile-unreadable-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    let dir = top.join("p");
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    std::fs::write(dir.join("a.claim"), "witness a { holds 1 == 1 }\n").expect("a");
    std::fs::write(dir.join("c.claim"), "witness c { holds false }\n").expect("c");
    std::fs::set_permissions(&top, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::set_permissions(dir.join("sub"), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::set_permissions(dir.join("a.claim"), std::fs::Permissions::from_mode(0o644)).expect("chmod");
    std::fs::set_permissions(dir.join("c.claim"), std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let Some((code, out)) = as_unprivileged(&top, &["--entry", "p"]) else {
        eprintln!("skipped: cannot run as another user");
        return;
    };
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[E0106]") && out.contains("c.claim") && !out.contains("PASS"), "{out}");
    let (code, out) = as_unprivileged(&top, &["--entry", "p/c.claim"]).expect("ran before");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[E0106]") && !out.contains("0/0 PASS"), "{out}");
    // A symlink to nothing, and a FIFO, below an entry folder.
    std::fs::remove_file(dir.join("c.claim")).expect("rm");
    std::os::unix::fs::symlink("nowhere.claim", dir.join("sub/b.claim")).expect("link");
    let (code, out) = common::batch_args(&top, &["--entry", "p"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[E0106]") && out.contains("b.claim") && !out.contains("PASS"), "{out}");
    std::fs::remove_file(dir.join("sub/b.claim")).expect("rm");
    let fifo = dir.join("sub/f.claim");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let (code, out) = common::batch_args(&top, &["--entry", "p"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[E0106]") && out.contains("f.claim") && !out.contains("PASS"), "{out}");
    // A FIFO named as the entry is not said not to exist.
    let (code, out) = common::batch_args(&top, &["--entry", "p/sub/f.claim"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("neither a file nor a folder"), "{out}");
    let _ = std::fs::remove_dir_all(&top);
}

/// Names and receipt values that would act as markup or commands where
/// they land: a GitHub workflow command, an ANSI sequence, a
/// right-to-left override, Markdown that fakes a verdict, XML, a URI.
const HOSTILE: &[&str] = &[
    "x\n::error file=a.py,line=1::INJECTED",
    "ok | **PASS** |",
    "\u{1b}[32mPASS\u{1b}[0m",
    "evil\u{202e}mialc.txt",
    "<b a=\"1\">&amp;'</b>",
    "100% a:b,c",
];

/// Every output format × every hostile string, as a project folder's name
/// (which names the project and its files) and as a receipt's value that a
/// refusal's message and a frontier's text carry: escaped for the format,
/// in one place (`claim_diagnostics::printable`).
#[test]
fn hostile_names_and_values_are_escaped_for_every_format() {
    let top = std::env::temp_dir().join(format!("claim-hostile-names-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    for (i, name) in HOSTILE.iter().enumerate() {
        let dir = top.join(name);
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("Claim.toml"), "").expect("toml");
        std::fs::write(dir.join("r.json"), serde_json::json!({ "name": name }).to_string()).expect("receipt");
        std::fs::write(
            dir.join(format!("m{i}.claim")),
            format!(
                "record R {{ name: Text }}\nrefusal Bad \"bad\"\nfact r: R = load(\"r.json\")\n\
                 fn check(n: Text) -> Bool {{ refuse Bad \"{{n}} is wrong\" }}\n\
                 witness names_{i} {{ holds check(r.name) }}\n\
                 frontier open_{i} {{ \"{{r.name}}\" }}\n"
            ),
        )
        .expect("main");
    }
    let run = |format: &str| common::batch_args(&top, &["--entry", ".", "--format", format]);
    let no_raw_controls = |format: &str, out: &str| {
        for c in out.chars() {
            assert!(
                c == '\n' || !claim_diagnostics::printable::hidden(c),
                "{format}: a raw {:?} reaches the output:\n{out}",
                c
            );
        }
    };
    // Human and GitHub: no line the output did not mean as a command
    // starts one, and nothing acts on a terminal.
    for format in ["human", "github"] {
        let (code, out) = run(format);
        assert_eq!(code, 1, "{format}: {out}");
        no_raw_controls(format, &out);
        for line in out.lines().filter(|l| l.starts_with("::")) {
            let ours = line.starts_with("::error file=") || line.starts_with("::warning file=");
            assert!(ours && !line.starts_with("::error file=a.py"), "{format}: {line}");
        }
        let errors = out.lines().filter(|l| l.starts_with("::error")).count();
        assert_eq!(errors, if format == "github" { HOSTILE.len() } else { 0 }, "{format}:\n{out}");
    }
    // Markdown: each row of the table has its four cell bars, and no name
    // reads as a verdict.
    let (_, md) = run("markdown");
    no_raw_controls("markdown", &md);
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| **FAIL**") || l.starts_with("| PASS")).collect();
    assert_eq!(rows.len(), HOSTILE.len(), "{md}");
    for row in &rows {
        let bars = row.char_indices().filter(|(i, c)| *c == '|' && !row[..*i].ends_with('\\')).count();
        assert_eq!(bars, 4, "{row}");
        assert!(!row.contains("**PASS**"), "{row}");
    }
    // JUnit: well-formed XML whose names carry no line break.
    let (_, xml) = run("junit");
    no_raw_controls("junit", &xml);
    let doc = std::env::temp_dir().join(format!("claim-hostile-{}.xml", std::process::id()));
    std::fs::write(&doc, &xml).expect("xml");
    let check = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); \
             names = [e.getAttribute(a) for t in ('testsuite', 'testcase') for e in d.getElementsByTagName(t) for a in ('name', 'file', 'classname')]; \
             sys.exit(1 if any('\\n' in n or '\\x1b' in n for n in names) else 0)",
        ])
        .arg(&doc)
        .output()
        .expect("python3");
    let _ = std::fs::remove_file(&doc);
    assert!(check.status.success(), "{}\n{xml}", String::from_utf8_lossy(&check.stderr));
    // SARIF: every artifact location a URI reference (RFC 3986).
    let (_, sarif) = run("sarif");
    let v: serde_json::Value = serde_json::from_str(&sarif).expect("sarif is JSON");
    let mut uris = Vec::new();
    fn collect(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => {
                if let Some(serde_json::Value::String(u)) = m.get("uri") {
                    out.push(u.clone());
                }
                m.values().for_each(|x| collect(x, out));
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
            _ => {}
        }
    }
    collect(&v, &mut uris);
    assert!(uris.len() >= HOSTILE.len(), "{sarif}");
    for u in &uris {
        let ok = u.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b));
        assert!(ok && !u.contains("%%"), "not a URI: {u}");
    }
    // JSON: the values themselves, as JSON escapes them.
    let (_, json) = run("json");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert!(json.contains("INJECTED") && v["witnesses"].as_array().is_some_and(|w| w.len() == HOSTILE.len()), "{json}");
    let _ = std::fs::remove_dir_all(&top);
}

/// Runs `claim_batch` in `dir` while `swap` flips the checkout back and
/// forth on a helper thread: `runs` runs, each within a time limit. Returns
/// the exit codes; a run that hangs fails the test.
fn under_swaps(dir: &Path, runs: usize, swap: impl Fn(bool) + Send + Sync) -> Vec<i32> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = AtomicBool::new(false);
    let mut codes = Vec::new();
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut flip = false;
            while !stop.load(Ordering::Relaxed) {
                flip = !flip;
                swap(flip);
            }
            swap(false);
        });
        for _ in 0..runs {
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_claim_batch"))
                .args(["--entry", "main.claim", "--timeout-per-fact", "20s"])
                .current_dir(dir)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("spawn");
            let started = std::time::Instant::now();
            let code = loop {
                if let Some(status) = child.try_wait().expect("wait") {
                    break status.code().unwrap_or(-1);
                }
                if started.elapsed() > std::time::Duration::from_secs(30) {
                    let _ = child.kill();
                    stop.store(true, Ordering::Relaxed);
                    panic!("a run hung while the checkout changed under it");
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            };
            codes.push(code);
        }
        stop.store(true, Ordering::Relaxed);
    });
    codes
}

/// A folder swapped for a symlink out of the project, again and again,
/// while `file_sha256`, `load` and `git_tree` read through it: no run ever
/// reads the outside (a witness that would fail on the outside's value
/// fails no run: exit 1 never happens), and none hangs.
#[test]
fn a_folder_swapped_for_a_symlink_never_leads_a_read_out() {
    let top = std::env::temp_dir().join(format!("claim-hostile-race-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    let dir = top.join("p");
    for (base, text) in [(&dir.join("data/real"), "inside"), (&top.join("out/sw"), "outside")] {
        std::fs::create_dir_all(base).expect("mkdir");
        std::fs::write(base.join("f"), format!("{{\"v\": \"{text}\"}}")).expect("file");
    }
    std::fs::write(dir.join("Claim.toml"), "").expect("toml");
    let outside_digest = sha(b"{\"v\": \"outside\"}");
    // The outside tree's id, as git gives it (one blob `f`).
    let outside_tree = {
        let d = top.join("out/sw");
        let b = claim_cli::world::beneath::Beneath::new(&d.canonicalize().expect("c")).expect("b");
        claim_cli::world::gittree::tree_id(&b, &d.canonicalize().expect("c")).expect("tree")
    };
    let outside_tree: String = outside_tree.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(
        dir.join("main.claim"),
        format!(
            "record R {{ v: Text }}\n\
             fact h: Sha256 = file_sha256(\"data/sw/f\")\n\
             fact r: R = load(\"data/sw/f\")\n\
             fact t: Sha1 = git_tree(\"data/sw\")\n\
             witness never_the_outside {{ holds h != {outside_digest} and r.v != \"outside\" and t != sha1:{outside_tree} }}\n"
        ),
    )
    .expect("main");
    // `data/sw` is a real folder, then a symlink out of the project in its
    // place, and back: the path checked is not the path opened.
    let (sw, parked) = (dir.join("data/sw"), dir.join("data/parked"));
    std::fs::rename(dir.join("data/real"), &sw).expect("rename");
    let swap = |to_outside: bool| {
        if to_outside {
            if std::fs::rename(&sw, &parked).is_ok() {
                let _ = std::os::unix::fs::symlink("../../out/sw", &sw);
            }
        } else if sw.is_symlink() {
            let _ = std::fs::remove_file(&sw);
            let _ = std::fs::rename(&parked, &sw);
        }
    };
    swap(false);
    assert_eq!(common::batch_in(&dir).0, 0, "before the swaps");
    let codes = under_swaps(&dir, 300, swap);
    let escaped = codes.iter().filter(|&&c| c == 1).count();
    assert_eq!(escaped, 0, "runs that read outside the project: {escaped} of {}", codes.len());
    assert!(codes.iter().all(|&c| c == 0 || c == 2), "{codes:?}");
    let _ = std::fs::remove_dir_all(&top);
}

/// A file of a tree swapped for a FIFO, and back, while `git_tree` and
/// `file_sha256` read it: no run waits on the FIFO.
#[test]
fn a_file_swapped_for_a_fifo_never_hangs_a_run() {
    let dir = project("fifo-race");
    std::fs::create_dir_all(dir.join("tree")).expect("mkdir");
    std::fs::write(dir.join("tree/f"), "content").expect("file");
    // Files listed before `f` is opened: a longer walk, a wider window.
    for i in 0..300 {
        std::fs::write(dir.join(format!("tree/g{i}")), format!("{i}")).expect("file");
    }
    std::fs::write(
        dir.join("main.claim"),
        "fact t: Sha1 = git_tree(\"tree\")\nfact h: Sha256 = file_sha256(\"tree/f\")\nwitness reads { holds len(hex(t)) == 40 and len(hex(h)) == 64 }\n",
    )
    .expect("main");
    let f = dir.join("tree/f");
    let spare = dir.join("spare");
    let swap = |to_fifo: bool| {
        let _ = std::fs::remove_file(&f);
        if to_fifo {
            let _ = std::process::Command::new("mkfifo").arg(&f).status();
        } else {
            let _ = std::fs::copy(&spare, &f);
        }
    };
    std::fs::write(&spare, "content").expect("spare");
    let codes = under_swaps(&dir, 100, swap);
    assert!(codes.iter().all(|&c| c == 0 || c == 2), "{codes:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
