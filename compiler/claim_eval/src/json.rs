//! JSON with byte spans; the strict decoding of §6 is in `decode.rs`. Every decoding
//! error points into the JSON file at the offending value (at the key, for
//! an extra field; at the object, for a missing one) with its JSONPath, and
//! one file reports all of its errors, not just the first.

use claim_syntax::Span;
use std::borrow::Cow;
use std::fmt::Write as _;

/// Nesting deeper than this is refused rather than risk the stack.
pub const MAX_DEPTH: usize = 512;

#[derive(Debug, Clone)]
pub enum J<'a> {
    Null,
    Bool(bool),
    /// The number as written.
    Number(Cow<'a, str>),
    /// Borrowed from the text where it has no escapes (nearly always: a
    /// receipt's keys and values were each an allocation and a copy).
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// Keys in order, with their spans.
    Object(Vec<(Cow<'a, str>, Span, Json<'a>)>),
}

#[derive(Debug, Clone)]
pub struct Json<'a> {
    pub kind: J<'a>,
    pub span: Span,
}

impl Json<'_> {
    /// The document with its strings copied out of the text, for a caller
    /// that keeps it past the text.
    pub fn into_owned(self) -> Json<'static> {
        let own = |s: Cow<'_, str>| Cow::Owned(s.into_owned());
        let kind = match self.kind {
            J::Null => J::Null,
            J::Bool(b) => J::Bool(b),
            J::Number(n) => J::Number(own(n)),
            J::Str(s) => J::Str(own(s)),
            J::Array(items) => J::Array(items.into_iter().map(Json::into_owned).collect()),
            J::Object(fields) => J::Object(fields.into_iter().map(|(k, at, v)| (own(k), at, v.into_owned())).collect()),
        };
        Json { kind, span: self.span }
    }

    pub fn describe(&self) -> &'static str {
        match self.kind {
            J::Null => "null",
            J::Bool(_) => "a boolean",
            J::Number(_) => "a number",
            J::Str(_) => "a string",
            J::Array(_) => "an array",
            J::Object(_) => "an object",
        }
    }
}

/// A JSON syntax error: where, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonSyntaxError {
    pub span: Span,
    pub message: String,
}

/// Whether `key` is among the keys of `fields` already: compared one by one
/// in a small object, through `seen` (filled from then on) in a large one.
fn repeats(fields: &[(Cow<'_, str>, Span, Json<'_>)], key: &str, seen: &mut rustc_hash::FxHashSet<String>) -> bool {
    const SMALL: usize = 16;
    if fields.len() < SMALL {
        return fields.iter().any(|(k, _, _)| k == key);
    }
    if seen.is_empty() {
        seen.extend(fields.iter().map(|(k, _, _)| k.to_string()));
    }
    !seen.insert(key.to_string())
}

/// The value of `key` in an object (`None` in anything else): for readers
/// of documents whose shape is checked by hand (OCI blobs, envelopes).
pub fn field<'j>(j: &'j Json<'_>, key: &str) -> Option<&'j Json<'j>> {
    match &j.kind {
        J::Object(fields) => fields.iter().find(|(k, _, _)| k == key).map(|(_, _, v)| v),
        _ => None,
    }
}

/// The text of a string value (`None` for anything else, or nothing).
pub fn text<'j>(j: Option<&'j Json<'_>>) -> Option<&'j str> {
    match j.map(|j| &j.kind) {
        Some(J::Str(s)) => Some(s),
        _ => None,
    }
}

pub fn parse(text: &str) -> Result<Json<'_>, JsonSyntaxError> {
    let mut p = Parser::new(text);
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok(v)
}

/// The reader of JSON text: the one parser of every JSON Claim reads
/// (receipts, OCI blobs), strict as RFC 8259 is, refusing a key written
/// twice.
pub(crate) struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    /// Where it is, in bytes.
    pub(crate) i: usize,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str) -> Parser<'a> {
        Parser { s: text.as_bytes(), text, i: 0 }
    }
    /// The byte it is at, if any.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn err(&self, message: &str) -> JsonSyntaxError {
        let end = (self.i + 1).min(self.s.len()).max(self.i);
        let message = if self.i >= self.s.len() && !message.starts_with("unexpected end") {
            // A truncated file is the common cause; say so.
            format!("the file ends too early: {message}")
        } else {
            message.to_string()
        };
        JsonSyntaxError { span: Span::new(self.i, end), message }
    }
    pub(crate) fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    pub(crate) fn eat(&mut self, c: u8) -> bool {
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    pub(crate) fn value(&mut self, depth: usize) -> Result<Json<'a>, JsonSyntaxError> {
        if depth > MAX_DEPTH {
            return Err(self.err(&format!("nested more than {MAX_DEPTH} levels deep")));
        }
        let start = self.i;
        let kind = match self.s.get(self.i) {
            None => return Err(self.err("unexpected end of file; expected a value")),
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                let mut seen = rustc_hash::FxHashSet::default();
                self.ws();
                if !self.eat(b'}') {
                    loop {
                        self.ws();
                        let kstart = self.i;
                        if self.s.get(self.i) != Some(&b'"') {
                            return Err(self.err(if self.s.get(self.i) == Some(&b'}') {
                                "trailing comma in object"
                            } else {
                                "expected a string key"
                            }));
                        }
                        let key = self.string()?;
                        let kspan = Span::new(kstart, self.i);
                        if repeats(&fields, &key, &mut seen) {
                            // Tools differ on which of two keys they take
                            // (the first, the last): a file that two tools
                            // read as two values is refused.
                            return Err(JsonSyntaxError { span: kspan, message: format!("duplicate key `{key}`") });
                        }
                        self.ws();
                        if !self.eat(b':') {
                            return Err(self.err("expected `:` after the key"));
                        }
                        self.ws();
                        let v = self.value(depth + 1)?;
                        fields.push((key, kspan, v));
                        self.ws();
                        if self.eat(b',') {
                            continue;
                        }
                        if self.eat(b'}') {
                            break;
                        }
                        return Err(self.err("expected `,` or `}`"));
                    }
                }
                J::Object(fields)
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if !self.eat(b']') {
                    loop {
                        self.ws();
                        if self.s.get(self.i) == Some(&b']') {
                            return Err(self.err("trailing comma in array"));
                        }
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        if self.eat(b',') {
                            continue;
                        }
                        if self.eat(b']') {
                            break;
                        }
                        return Err(self.err("expected `,` or `]`"));
                    }
                }
                J::Array(items)
            }
            Some(b'"') => J::Str(self.string()?),
            Some(b't') if self.s[self.i..].starts_with(b"true") => {
                self.i += 4;
                J::Bool(true)
            }
            Some(b'f') if self.s[self.i..].starts_with(b"false") => {
                self.i += 5;
                J::Bool(false)
            }
            Some(b'n') if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                J::Null
            }
            Some(b'-' | b'0'..=b'9') => {
                self.number()?;
                J::Number(Cow::Borrowed(self.text.get(start..self.i).ok_or_else(|| self.err("bad number"))?))
            }
            Some(_) => return Err(self.err("expected a JSON value")),
        };
        Ok(Json { kind, span: Span::new(start, self.i) })
    }
    /// A number as RFC 8259 writes one: an optional `-`, `0` or digits not
    /// starting with `0`, then optionally `.` and digits, then optionally
    /// `e` or `E`, a sign and digits. `007`, `-01`, `1.`, `.5` and `1e`
    /// are not JSON.
    fn number(&mut self) -> Result<(), JsonSyntaxError> {
        let digits = |p: &mut Self| {
            let from = p.i;
            while p.s.get(p.i).is_some_and(u8::is_ascii_digit) {
                p.i += 1;
            }
            p.i - from
        };
        self.eat(b'-');
        let int_at = self.i;
        match digits(self) {
            0 => return Err(self.err("expected digits")),
            n if n > 1 && self.s[int_at] == b'0' => {
                self.i = int_at;
                return Err(self.err("a JSON number does not start with `0` followed by digits"));
            }
            _ => {}
        }
        if self.eat(b'.') && digits(self) == 0 {
            return Err(self.err("expected digits after `.`"));
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return Err(self.err("expected digits in the exponent"));
            }
        }
        Ok(())
    }

    pub(crate) fn string(&mut self) -> Result<Cow<'a, str>, JsonSyntaxError> {
        self.i += 1;
        // Most strings have no escape: the text itself, not a copy. Its end
        // found with `memchr` (a byte at a time with three tests was a
        // fifth of reading a receipt), then the run checked for control
        // characters in one pass that does not branch per byte.
        let rest = self.s.get(self.i..).unwrap_or_default();
        let plain = memchr::memchr2(b'"', b'\\', rest)
            .filter(|&n| rest[n] == b'"' && !rest[..n].iter().fold(false, |control, &b| control | (b < 0x20)));
        if let Some(n) = plain {
            // It ends at an ASCII byte, so on a character boundary.
            let text = self.text.get(self.i..self.i + n).ok_or_else(|| self.err("bad text"))?;
            self.i += n + 1;
            return Ok(Cow::Borrowed(text));
        }
        let mut out = String::new();
        loop {
            let Some(&c) = self.s.get(self.i) else {
                return Err(self.err("unterminated string"));
            };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    let Some(&e) = self.s.get(self.i + 1) else {
                        return Err(self.err("unterminated string"));
                    };
                    self.i += 2;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hex = self.text.get(self.i..self.i + 4).ok_or_else(|| self.err("bad \\u escape"))?;
                            let mut cp = u32::from_str_radix(hex, 16).map_err(|_| self.err("bad \\u escape"))?;
                            self.i += 4;
                            if (0xD800..0xDC00).contains(&cp) && self.s[self.i..].starts_with(b"\\u") {
                                let lo =
                                    self.text.get(self.i + 2..self.i + 6).and_then(|h| u32::from_str_radix(h, 16).ok());
                                if let Some(lo) = lo.filter(|l| (0xDC00..0xE000).contains(l)) {
                                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                    self.i += 6;
                                }
                            }
                            out.push(
                                char::from_u32(cp).ok_or_else(|| self.err("escape is not a Unicode scalar value"))?,
                            );
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err("unknown escape"));
                        }
                    }
                }
                c if c < 0x20 => return Err(self.err("control character in string")),
                _ => {
                    // A run of plain text at once. It ends at an ASCII byte,
                    // so on a character boundary.
                    let run = self.s[self.i..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
                    let end = run.map_or(self.s.len(), |n| self.i + n);
                    out.push_str(self.text.get(self.i..end).ok_or_else(|| self.err("bad text"))?);
                    self.i = end;
                }
            }
        }
    }
}

/// The JSONPath of the value at `span` in a JSON text (as decoding names
/// it: `$`, `.key` or `["odd key"]`, `[index]`); `None` where the text no
/// longer parses or no value sits exactly there.
pub fn path_at(text: &str, span: Span) -> Option<String> {
    fn walk(j: &Json, span: Span, path: &mut String) -> bool {
        if j.span == span {
            return true;
        }
        let inside = |c: &Json| c.span.start <= span.start && span.end <= c.span.end;
        match &j.kind {
            J::Array(items) => {
                for (i, item) in items.iter().enumerate().filter(|(_, c)| inside(c)) {
                    let len = path.len();
                    let _ = write!(path, "[{i}]");
                    if walk(item, span, path) {
                        return true;
                    }
                    path.truncate(len);
                }
                false
            }
            J::Object(fields) => {
                for (k, _, v) in fields.iter().filter(|(_, _, c)| inside(c)) {
                    let len = path.len();
                    push_key(path, k);
                    if walk(v, span, path) {
                        return true;
                    }
                    path.truncate(len);
                }
                false
            }
            _ => false,
        }
    }
    let doc = parse(text).ok()?;
    let mut path = "$".to_string();
    walk(&doc, span, &mut path).then_some(path)
}

pub(crate) fn push_key(path: &mut String, key: &str) {
    if !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !key.starts_with(|c: char| c.is_ascii_digit())
    {
        path.push('.');
        path.push_str(key);
    } else {
        path.push_str("[\"");
        path.push_str(&key.replace('\\', "\\\\").replace('"', "\\\""));
        path.push_str("\"]");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_at_values() {
        let j = parse(r#"{"a": [1, "x"]}"#).expect("valid");
        let J::Object(f) = &j.kind else { panic!("object") };
        assert_eq!(f[0].2.span, Span::new(6, 14));
    }

    #[test]
    fn trailing_comma_is_an_error_at_the_brace() {
        let e = parse(r#"{"a": 1,}"#).expect_err("invalid");
        assert_eq!(e.span.start, 8);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = "[".repeat(MAX_DEPTH + 10);
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn strings_keep_every_character_between_escapes() {
        let j = parse(r#"["café ☕ x\ny\"z\u00e9\ud83d\ude00 end", ""]"#).expect("valid");
        let J::Array(items) = &j.kind else { panic!("array") };
        let texts: Vec<&str> =
            items.iter().filter_map(|i| if let J::Str(s) = &i.kind { Some(s.as_ref()) } else { None }).collect();
        assert_eq!(texts, ["café ☕ x\ny\"zé\u{1f600} end", ""]);
    }

    #[test]
    fn plain_strings_and_keys_borrow_the_text_and_escaped_ones_are_decoded() {
        let j = parse(r#"{"plain": "sha256:ab", "esc\u0041ped": "a\"b", "n": -1.5e3}"#).expect("valid");
        let J::Object(fields) = &j.kind else { panic!("object") };
        let borrowed = |c: &Cow<'_, str>| matches!(c, Cow::Borrowed(_));
        assert!(borrowed(&fields[0].0) && matches!(&fields[0].2.kind, J::Str(s) if borrowed(s) && s == "sha256:ab"));
        assert!(!borrowed(&fields[1].0) && fields[1].0 == "escAped");
        assert!(matches!(&fields[1].2.kind, J::Str(s) if !borrowed(s) && s == "a\"b"));
        assert!(matches!(&fields[2].2.kind, J::Number(n) if n == "-1.5e3"));
        // Owned, it outlives the text and says the same.
        let owned = parse(r#"{"plain": "x"}"#).expect("valid").into_owned();
        assert!(
            matches!(&owned.kind, J::Object(f) if f[0].0 == "plain" && matches!(&f[0].2.kind, J::Str(s) if s == "x"))
        );
    }

    #[test]
    fn a_raw_control_character_or_an_open_string_is_an_error() {
        assert_eq!(parse("\"a\tb\"").expect_err("tab").span.start, 2);
        assert!(parse("\"abc").is_err());
        assert!(parse("\"café").is_err());
    }

    #[test]
    fn path_at_names_each_value_as_decoding_does() {
        let text = r#"{"a": {"b": [10, {"c": "x"}]}, "odd key": [true], "9": null}"#;
        let doc = parse(text).expect("valid");
        let mut seen = Vec::new();
        fn all(j: &Json, out: &mut Vec<Span>) {
            out.push(j.span);
            match &j.kind {
                J::Array(items) => items.iter().for_each(|i| all(i, out)),
                J::Object(fields) => fields.iter().for_each(|(_, _, v)| all(v, out)),
                _ => {}
            }
        }
        all(&doc, &mut seen);
        let paths: Vec<String> = seen.iter().map(|s| path_at(text, *s).expect("a value is there")).collect();
        assert_eq!(
            paths,
            [
                "$",
                "$.a",
                "$.a.b",
                "$.a.b[0]",
                "$.a.b[1]",
                "$.a.b[1].c",
                "$[\"odd key\"]",
                "$[\"odd key\"][0]",
                "$[\"9\"]"
            ]
        );
        assert_eq!(path_at(text, Span::new(1, 4)), None, "a key is not a value");
        assert_eq!(path_at("{", Span::new(0, 1)), None, "text that no longer parses");
    }
}
