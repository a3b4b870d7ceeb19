//! What may be printed of text that comes from the input (a diagnostic's
//! message, a receipt's value, a file or folder name), for each place it
//! lands: a terminal or CI log, a GitHub workflow command, Markdown, an XML
//! attribute or text, a URI. Every output format escapes through here, one
//! function a context, so a name cannot act as markup or a command in any
//! of them.
//!
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

/// For a terminal or a CI log: [`printable`].
pub fn terminal(s: &str) -> Cow<'_, str> {
    printable(s)
}

/// For the data of a GitHub workflow command (`::error …::DATA`): lines
/// each made [`printable`], joined by the command's own encoding of a line
/// break (`%0A`), with `%` encoded.
pub fn github_data<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let lines: Vec<String> = lines.into_iter().map(|l| printable(l).replace('%', "%25")).collect();
    lines.join("%0A")
}

/// For a property of a GitHub workflow command (`file=…,title=…`):
/// [`printable`], and `%`, `:` and `,` (which end a property) encoded.
pub fn github_property(s: &str) -> String {
    printable(s).replace('%', "%25").replace(':', "%3A").replace(',', "%2C")
}

/// For Markdown text inside a line (a table cell, after a list item's
/// marker): [`printable`], then every character that gives inline text a
/// meaning (emphasis, code, links, HTML, entities, strikethrough) or ends a
/// table cell (`|`) escaped with a backslash.
pub fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in printable(s).chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '!') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// For Markdown inline code (between backticks): [`printable`], with
/// backticks and `|` (which would end the code or a table cell) escaped
/// as `\u0060` and `\u007c`.
pub fn markdown_code(s: &str) -> String {
    printable(s).replace('`', "\\u0060").replace('|', "\\u007c")
}

/// For XML text or an attribute value: [`printable`] (XML 1.0 allows no
/// control character but TAB, LF and CR, and an attribute's line breaks
/// are normalised away), then the five entities.
pub fn xml(s: &str) -> String {
    xml_text(&printable(s))
}

/// For XML text that may span lines (a rendered diagnostic): the five
/// entities, and every control character but TAB, LF and CR dropped, as
/// XML 1.0 cannot carry them.
pub fn xml_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() && !matches!(c, '\n' | '\t' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// A relative path as a URI reference (RFC 3986), as SARIF's
/// `artifactLocation.uri` must be: each segment percent-encoded, byte by
/// byte, but for the unreserved characters; `/` separates segments.
pub fn uri_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
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
