//! What may be printed to a terminal or a CI log of text a diagnostic
//! carries. A refusal's message is made at run time, and interpolates
//! values read from receipts, which come with the pull request under
//! review: a receipt's `"name": "x\n::error file=a.py::…"` printed as it
//! is starts a line GitHub Actions reads as a workflow command, and an
//! escape sequence (`\u{1b}[2J`, a hyperlink) acts on the reader's
//! terminal. So messages, labels, notes and help are printed with every
//! control character, every bidirectional formatting character (which can
//! make a line read otherwise than it is) and both Unicode line separators
//! escaped as JSON escapes them (`\n`, `\u001b`), as the values quoted in
//! the same diagnostic's notes are; the JSON and SARIF formats carry the
//! text itself, escaped by JSON.

use std::borrow::Cow;

/// Whether `c` is printed escaped: C0 and C1 controls (a tab and a line
/// feed too), DEL, the bidirectional marks, embeddings, overrides and
/// isolates, and U+2028/U+2029.
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `s` with each [`hidden`] character escaped; borrowed where there is none.
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Every hidden character is below U+FFFF: four digits.
            c if hidden(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_direction_changes_are_escaped_and_nothing_else() {
        assert!(matches!(printable("name was `ok` — überprüft 検証 😀"), Cow::Borrowed(_)));
        assert_eq!(
            printable("evil\n::error file=a.py::x\r\t\u{1b}[2J\u{7f}\u{9b}\u{202e}txt\u{2066}\u{2028}"),
            "evil\\n::error file=a.py::x\\r\\t\\u001b[2J\\u007f\\u009b\\u202etxt\\u2066\\u2028"
        );
    }
}
