//! Text that comes with a pull request — a receipt's values, a module's
//! text literals, a file's name — is printed so that it cannot act on the
//! reader's terminal or on the CI log: no line of the human or Markdown
//! output begins with a GitHub workflow command it put there, and no
//! control character or change of direction reaches the output.

mod common;

/// A receipt whose name carries a workflow command on a line of its own,
/// a screen-clearing escape, a terminal hyperlink and a right-to-left
/// override; a refusal and a frontier that print it.
fn project(tag: &str) -> std::path::PathBuf {
    let main = r#"record R { name: Text, .. }
refusal Bad "bad"
fact r: R = load("r.json")
fn check(x: R) -> Bool { if x.name == "ok" then true else refuse Bad "name was {x.name}" }
witness refused { holds check(r) }
witness compared { holds r.name == "ok" }
frontier f { "gap\n::warning::from a literal\u{1b}[2J" }
"#;
    // JSON escapes, and raw characters JSON lets a string hold (a
    // right-to-left override, a C1 control), which the source line shows.
    let receipt = "{\"name\": \"evil\\n::error file=a.py,line=1::injected\\r\\n\\u001b[2J\\u001b]8;;http://x\\u0007link\\u001b]8;;\\u0007\u{202e}exe.txt\u{9b}\"}";
    common::project_dir("untrusted", tag, &[("main.claim", main), ("r.json", receipt)])
}

fn assert_inert(out: &str) {
    for line in out.lines() {
        assert!(!line.trim_start().starts_with("::"), "a workflow command line: {line:?}\n{out}");
    }
    let hidden: Vec<char> = out.chars().filter(|&c| claim_diagnostics::printable::hidden(c) && c != '\n').collect();
    assert!(hidden.is_empty(), "{hidden:?} in\n{out}");
}

#[test]
fn receipt_values_and_literals_are_printed_inert() {
    let dir = project("values");
    let (code, out) = common::batch_in_with(&dir, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL refused") && out.contains("FAIL compared"), "{out}");
    // Escaped as the values in the notes are, so still readable.
    assert!(out.contains(r"name was evil\n::error file=a.py,line=1::injected\r\n\u001b[2J"), "{out}");
    assert!(out.contains(r"gap\n::warning::from a literal\u001b[2J"), "{out}");
    assert_inert(&out);
    let (_, out) = common::batch_in_with(&dir, &["--explain=all"]);
    assert_inert(&out);
    let (_, out) = common::batch_in_with(&dir, &["--format", "markdown"]);
    assert_inert(&out);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file's name is printed escaped too (Linux allows a line break in it).
#[test]
fn a_file_name_is_printed_inert() {
    let dir = project("names");
    std::fs::write(dir.join("main.claim"), "fact r: Int = load(\"a\\n::error::b.json\")\nwitness w { holds r == 1 }\n")
        .expect("write");
    std::fs::write(dir.join("a\n::error::b.json"), "1 2").expect("write");
    let (code, out) = common::batch_in_with(&dir, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(r"a\n::error::b.json"), "{out}");
    assert_inert(&out);
    let _ = std::fs::remove_dir_all(&dir);
}
