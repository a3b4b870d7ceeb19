//! Run-time values. Newtypes are erased (a `ConfigDigest` is its `Sha256`):
//! the checker has already kept them apart. Each value may remember where
//! it came from, so a diagnostic can point at the literal, fact or JSON
//! location behind a wrong value. Origins never take part in equality.

use claim_syntax::digest::DigestKind;
use claim_syntax::Loc;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where a value came from. Two words, kept in the value itself: a run
/// holds hundreds of thousands of values read from JSON, and an origin
/// allocated for each was a fifth of their memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A literal in the source.
    Literal(Loc),
    /// The value of a fact, declared here.
    Fact(Arc<FactOrigin>),
    /// A value read from a JSON file: where in it. Its JSONPath is found
    /// from the file's text when a diagnostic asks (`json::path_at`, the
    /// text from the world that read it).
    Json(Loc),
    /// A key computed by `fold_sha256`, with what it folded.
    Fold(Arc<FoldOrigin>),
    /// A digest of files computed by `file_sha256` or `git_tree`.
    Hashed(Arc<HashOrigin>),
    /// A value made from another by what a reviewer follows back (`split`,
    /// `take`, `++`, `hex`, `text()`, interpolation): where that one came
    /// from, and through what.
    Derived(Arc<DerivedOrigin>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedOrigin {
    /// Never itself `Derived`: a chain is one origin with every step.
    pub from: Origin,
    /// The steps, first first (`split`, `take`).
    pub through: Vec<&'static str>,
}

impl Origin {
    /// The origin of a value a world function computed or read (`function`
    /// of `path`, called at `loc`).
    pub fn hashed(function: &'static str, path: &str, loc: Loc) -> Origin {
        Origin::Hashed(Arc::new(HashOrigin { function, path: Arc::from(path), loc }))
    }

    /// The origin of a value made from a value of origin `from` through
    /// `how`: none where that one has none, or is a literal (the program
    /// text says where it came from).
    pub fn through(from: Option<&Origin>, how: &'static str) -> Option<Origin> {
        let (from, mut through) = match from? {
            Origin::Literal(_) => return None,
            Origin::Derived(d) => (d.from.clone(), d.through.clone()),
            o => (o.clone(), Vec::new()),
        };
        if through.last() != Some(&how) {
            through.push(how);
        }
        Some(Origin::Derived(Arc::new(DerivedOrigin { from, through })))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactOrigin {
    pub name: Arc<str>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoldOrigin {
    pub domain: Arc<str>,
    pub parts: Arc<[Arc<str>]>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashOrigin {
    /// What was computed or read: `file_sha256`, `git_tree`,
    /// `git_commit`, `public_key`.
    pub function: &'static str,
    /// The path as the program gave it.
    pub path: Arc<str>,
    /// The call.
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct Value {
    pub kind: V,
    pub origin: Option<Origin>,
}

#[derive(Clone, Debug)]
pub struct RecordVal {
    pub name: Arc<str>,
    pub names: Arc<[Arc<str>]>,
    pub fields: Vec<Value>,
}

#[derive(Clone, Debug)]
pub struct VariantVal {
    pub name: Arc<str>,
    pub index: u32,
    pub names: Option<Arc<[Arc<str>]>>,
    pub fields: Vec<Value>,
}

#[derive(Clone, Debug)]
pub enum V {
    Bool(bool),
    Int(i64),
    /// Milliseconds.
    Duration(i64),
    Text(Arc<str>),
    Digest(DigestKind, Arc<[u8]>),
    List(Arc<Vec<Value>>),
    Option(Option<Arc<Value>>),
    Map(Arc<BTreeMap<String, Value>>),
    Record(Arc<RecordVal>),
    Variant(Arc<VariantVal>),
    /// A `Json` value: any JSON, every number as the double RFC 8785
    /// reads it, so that two are equal where their structure is (objects
    /// as sets of keys, numbers by value).
    Json(Arc<serde_json::Value>),
}

impl Value {
    pub fn new(kind: V) -> Value {
        Value { kind, origin: None }
    }
    /// Calls `f` on each value directly inside this one: a list's
    /// elements, an option's value, a map's values, a record's or
    /// variant's fields. (Walks over every fact value use it: no
    /// allocation per value.)
    pub fn for_each_child<'v>(&'v self, mut f: impl FnMut(&'v Value)) {
        match &self.kind {
            V::List(items) => items.iter().for_each(f),
            V::Option(Some(x)) => f(x),
            V::Map(m) => m.values().for_each(f),
            V::Record(r) => r.fields.iter().for_each(f),
            V::Variant(v) => v.fields.iter().for_each(f),
            _ => {}
        }
    }
    pub fn with_origin(mut self, o: Origin) -> Value {
        self.origin = Some(o);
        self
    }
    /// This value with `o` as the origin of every digest inside it that has
    /// none: a world function's record of what it recomputed from bytes
    /// (an OCI image's digests), each digest remembering the read.
    pub fn with_digest_origins(self, o: &Origin) -> Value {
        let origin = self.origin;
        let kind = match self.kind {
            V::Digest(k, b) => {
                return Value { kind: V::Digest(k, b), origin: origin.or_else(|| Some(o.clone())) };
            }
            V::List(items) => V::List(Arc::new(items.iter().cloned().map(|x| x.with_digest_origins(o)).collect())),
            V::Option(Some(x)) => V::Option(Some(Arc::new((*x).clone().with_digest_origins(o)))),
            V::Map(m) => {
                V::Map(Arc::new(m.iter().map(|(k, x)| (k.clone(), x.clone().with_digest_origins(o))).collect()))
            }
            V::Record(r) => {
                let mut r = (*r).clone();
                r.fields = r.fields.into_iter().map(|x| x.with_digest_origins(o)).collect();
                V::Record(Arc::new(r))
            }
            V::Variant(x) => {
                let mut x = (*x).clone();
                x.fields = x.fields.into_iter().map(|f| f.with_digest_origins(o)).collect();
                V::Variant(Arc::new(x))
            }
            other => other,
        };
        Value { kind, origin }
    }
    pub fn bool(b: bool) -> Value {
        Value::new(V::Bool(b))
    }
    pub fn int(n: i64) -> Value {
        Value::new(V::Int(n))
    }
    pub fn text(s: impl Into<Arc<str>>) -> Value {
        Value::new(V::Text(s.into()))
    }
    pub fn list(v: Vec<Value>) -> Value {
        Value::new(V::List(Arc::new(v)))
    }
    pub fn digest(kind: DigestKind, bytes: &[u8]) -> Value {
        Value::new(V::Digest(kind, bytes.into()))
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            V::Bool(b) => Some(b),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self.kind {
            V::Int(n) | V::Duration(n) => Some(n),
            _ => None,
        }
    }
    pub fn as_text(&self) -> Option<&str> {
        match &self.kind {
            V::Text(t) => Some(t),
            _ => None,
        }
    }
    pub fn as_list(&self) -> Option<&[Value]> {
        match &self.kind {
            V::List(l) => Some(l),
            _ => None,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (&self.kind, &other.kind) {
            (V::Bool(a), V::Bool(b)) => a == b,
            (V::Int(a), V::Int(b)) | (V::Duration(a), V::Duration(b)) => a == b,
            (V::Text(a), V::Text(b)) => a == b,
            (V::Digest(k1, a), V::Digest(k2, b)) => k1 == k2 && a == b,
            (V::List(a), V::List(b)) => a == b,
            (V::Option(a), V::Option(b)) => a == b,
            (V::Map(a), V::Map(b)) => a == b,
            (V::Record(a), V::Record(b)) => a.fields == b.fields,
            (V::Variant(a), V::Variant(b)) => a.index == b.index && a.fields == b.fields,
            (V::Json(a), V::Json(b)) => a == b,
            _ => false,
        }
    }
}

/// A text made of `parts` in order, in one allocation: texts are built
/// on every call of a key fold or tag (`"tree:" ++ hex(...)`), and
/// growing a `String` and then copying it into its `Arc` took up to three.
pub fn joined_text(parts: &[&str]) -> Arc<str> {
    const SMALL: usize = 256;
    let len: usize = parts.iter().map(|p| p.len()).sum();
    if len > SMALL {
        let mut s = String::with_capacity(len);
        parts.iter().for_each(|p| s.push_str(p));
        return Arc::from(s);
    }
    let mut buf = [0u8; SMALL];
    let mut at = 0;
    for p in parts {
        buf[at..at + p.len()].copy_from_slice(p.as_bytes());
        at += p.len();
    }
    // Whole texts one after another are UTF-8; never the fallback.
    Arc::from(std::str::from_utf8(&buf[..at]).unwrap_or_default())
}

/// Lowercase hex of bytes, as a text value's content, in one allocation.
pub fn hex_text(bytes: &[u8]) -> Arc<str> {
    const SMALL: usize = 64;
    if bytes.len() > SMALL {
        return Arc::from(hex(bytes));
    }
    let mut buf = [0u8; 2 * SMALL];
    let out = &mut buf[..2 * bytes.len()];
    write_hex(bytes, out);
    Arc::from(std::str::from_utf8(out).unwrap_or_default())
}

/// Writes the lowercase hex of `bytes` into `out` (twice as long).
fn write_hex(bytes: &[u8], out: &mut [u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for (pair, b) in out.chunks_exact_mut(2).zip(bytes) {
        pair[0] = DIGITS[(b >> 4) as usize];
        pair[1] = DIGITS[(b & 15) as usize];
    }
}

/// Appends the lowercase hex of `bytes` to `out`.
pub fn push_hex(bytes: &[u8], out: &mut String) {
    const CHUNK: usize = 64;
    let mut buf = [0u8; 2 * CHUNK];
    for part in bytes.chunks(CHUNK) {
        let hex = &mut buf[..2 * part.len()];
        write_hex(part, hex);
        out.push_str(std::str::from_utf8(hex).unwrap_or_default());
    }
}

/// Lowercase hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 * bytes.len());
    push_hex(bytes, &mut s);
    s
}

/// Parses exactly `len` bytes of lowercase hex.
pub fn parse_hex(s: &str, len: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; len];
    hex_into(s, &mut out)?;
    Some(out)
}

// Reading digests from hex is shared with the checker (digest literals).
pub use claim_syntax::hex::{hex_into, parse_digest_bytes};

#[cfg(test)]
mod size_tests {
    #[test]
    fn a_value_is_five_words_with_its_origin() {
        assert_eq!(std::mem::size_of::<super::Origin>(), 16);
        assert_eq!(std::mem::size_of::<Option<super::Origin>>(), 16);
        assert_eq!(std::mem::size_of::<super::Value>(), 40);
    }
}

#[cfg(test)]
mod hex_tests {
    use super::{hex, parse_digest_bytes, parse_hex};

    #[test]
    fn lowercase_hex_of_the_exact_length_and_nothing_else() {
        let bytes: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37)).collect();
        let text = hex(&bytes);
        assert_eq!(parse_hex(&text, 32), Some(bytes.clone()));
        assert_eq!(parse_digest_bytes(&text, 32).as_deref(), Some(&bytes[..]));
        assert_eq!(parse_digest_bytes(&text[..40], 20).as_deref(), Some(&bytes[..20]));
        assert_eq!(parse_hex(&text.to_uppercase(), 32), None, "uppercase is refused");
        assert_eq!(parse_hex(&text[..62], 32), None, "too short");
        assert_eq!(parse_hex(&format!("{text}00"), 32), None, "too long");
        assert_eq!(parse_hex(&text.replacen('0', "g", 1), 32), None, "not a hex digit");
        assert_eq!(parse_digest_bytes(&format!("{text}{text}{text}"), 96), None, "longer than any digest");
        assert!(parse_digest_bytes(&format!("{text}{text}"), 64).is_some(), "a SHA-512");
        assert_eq!(parse_hex("é0", 1), None, "a multi-byte character");
    }

    /// Every byte value round-trips, and every character but `0-9a-f` is
    /// refused in either place of a pair.
    #[test]
    fn every_byte_and_every_bad_character() {
        for b in 0..=255u8 {
            assert_eq!(parse_hex(&hex(&[b]), 1), Some(vec![b]));
        }
        for c in (0..=127u8).map(char::from).filter(|c| !matches!(c, '0'..='9' | 'a'..='f')) {
            assert_eq!(parse_hex(&format!("{c}0"), 1), None, "{c:?} first");
            assert_eq!(parse_hex(&format!("0{c}"), 1), None, "{c:?} second");
        }
    }
}

#[cfg(test)]
mod text_tests {
    use super::{hex, hex_text, joined_text};

    #[test]
    fn joined_texts_are_the_parts_in_order_at_any_length() {
        for n in [0usize, 1, 100, 255, 256, 257, 1000] {
            let a = "é".repeat(n / 2);
            let b = "x".repeat(n);
            assert_eq!(&*joined_text(&[&a, &b, ""]), format!("{a}{b}"), "{n}");
        }
        assert_eq!(&*joined_text(&[]), "");
    }

    #[test]
    fn hex_texts_match_hex_at_any_length() {
        for n in [0usize, 1, 20, 32, 64, 65, 130] {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 91) as u8).collect();
            assert_eq!(&*hex_text(&bytes), hex(&bytes), "{n} bytes");
            assert_eq!(hex(&bytes).len(), 2 * n);
        }
    }
}
