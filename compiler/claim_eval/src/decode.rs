//! The strict decoding of §6: a JSON document into a value of a type.
//! Every error points into the JSON file at the offending value (at the
//! key, for an extra field; at the object, for a missing one) with its
//! JSONPath, and one file reports all of its errors, not just the first.

use crate::json::{push_key, Json, J};
use crate::value::{Origin, RecordVal, Value, VariantVal, V};
use crate::world::Types;
use claim_diagnostics::Diagnostic;
use claim_sema::ty::{FieldDef, GlobalName, Ty, TypeDef, TypeInfo};
use claim_syntax::digest::DigestKind;
use claim_syntax::{FileId, Loc, Span};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

pub fn decode(doc: &Json, ty: &Ty, types: &Types, file: FileId, call: Loc) -> Result<Value, Vec<Diagnostic>> {
    let mut d = Decoder { shapes: Shapes::new(types), file, call, errors: Vec::new(), path: Vec::new() };
    let v = d.value(doc, ty);
    match v {
        Some(v) if d.errors.is_empty() => Ok(v),
        _ => Err(d.errors),
    }
}

/// A step of the path from the document to the value being decoded.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

struct Decoder<'a> {
    shapes: Shapes<'a>,
    file: FileId,
    call: Loc,
    errors: Vec<Diagnostic>,
    /// Where the decoder is: written out as a JSONPath only for a
    /// diagnostic (writing it at every field of every receipt was a tenth
    /// of decoding, and nearly every value decodes).
    path: Vec<Step<'a>>,
}

/// What decoding one file looks up again and again: a receipt names a few
/// types many times (every element of a list its own).
pub(crate) struct Shapes<'a> {
    types: &'a Types,
    /// The named types looked up so far, by the address of the name the
    /// type holds: each lookup in the program's table compared module and
    /// type names as text, a sixth of decoding.
    named: Vec<(usize, Option<&'a TypeInfo>)>,
}

impl<'a> Shapes<'a> {
    pub(crate) fn new(types: &'a Types) -> Shapes<'a> {
        Shapes { types, named: Vec::new() }
    }

    pub(crate) fn info(&mut self, n: &'a Arc<GlobalName>) -> Option<&'a TypeInfo> {
        let at = Arc::as_ptr(n) as usize;
        if let Some((_, info)) = self.named.iter().find(|(seen, _)| *seen == at) {
            return *info;
        }
        let info = self.types.get(&**n);
        self.named.push((at, info));
        info
    }
}

/// Reads a Duration written as a literal: `"3h"`, `"250ms"`.
pub fn parse_duration(s: &str) -> Option<i64> {
    let split = s.find(|c: char| !c.is_ascii_digit())?;
    let (digits, unit) = s.split_at(split);
    // As a number is written: `0`, or digits that do not start with it.
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    let factor = match unit {
        "ms" => 1,
        "s" => 1_000,
        "min" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return None,
    };
    n.checked_mul(factor)
}

/// A JSON document as a `Json` value: every number as the double RFC 8785
/// reads it (so numbers compare by value); `Err` names a number no double
/// holds (`1e999`).
fn json_value<'j>(j: &'j Json<'_>) -> Result<serde_json::Value, (Span, &'j str)> {
    use serde_json::Value as JV;
    Ok(match &j.kind {
        J::Null => JV::Null,
        J::Bool(b) => JV::Bool(*b),
        J::Str(s) => JV::String(s.to_string()),
        J::Number(n) => {
            let x: f64 = n.parse().map_err(|_| (j.span, n.as_ref()))?;
            JV::Number(serde_json::Number::from_f64(x).ok_or((j.span, n.as_ref()))?)
        }
        J::Array(items) => JV::Array(items.iter().map(json_value).collect::<Result<_, _>>()?),
        J::Object(fields) => {
            JV::Object(fields.iter().map(|(k, _, v)| Ok((k.to_string(), json_value(v)?))).collect::<Result<_, _>>()?)
        }
    })
}

/// A scalar JSON value as a value of the scalar type `ty`, where it is one.
pub(crate) fn scalar(ty: &Ty, j: &J) -> Option<V> {
    match (ty, j) {
        (Ty::Bool, J::Bool(b)) => Some(V::Bool(*b)),
        (Ty::Int, J::Number(n)) => n.parse::<i64>().ok().map(V::Int),
        (Ty::Text, J::Str(s)) => Some(V::Text(s.as_ref().into())),
        (Ty::Duration, J::Str(s)) => parse_duration(s).map(V::Duration),
        (Ty::Sha256, J::Str(s)) => digest(s, DigestKind::Sha256),
        (Ty::Sha1, J::Str(s)) => digest(s, DigestKind::Sha1),
        (Ty::Sha512, J::Str(s)) => digest(s, DigestKind::Sha512),
        _ => None,
    }
}

fn digest(s: &str, kind: DigestKind) -> Option<V> {
    crate::value::parse_digest_bytes(digest_body(s, kind), kind.hex_len() / 2).map(|bytes| V::Digest(kind, bytes))
}

/// A digest's hex digits, with or without its `sha256:` prefix.
fn digest_body(s: &str, kind: DigestKind) -> &str {
    s.strip_prefix(kind.prefix()).and_then(|r| r.strip_prefix(':')).unwrap_or(s)
}

/// Which fields of a record read a JSON key (two may share one).
/// Receipts are small objects and records: scanning the
/// fields beats building a map, until a record is large (a large one must
/// not cost the square of its size).
pub(crate) struct KeyIndex<'d> {
    defs: &'d [FieldDef],
    map: Option<FxHashMap<&'d str, Vec<usize>>>,
}

impl<'d> KeyIndex<'d> {
    pub(crate) fn new(defs: &'d [FieldDef]) -> KeyIndex<'d> {
        let map = (defs.len() > 16).then(|| {
            let mut m: FxHashMap<&str, Vec<usize>> = Default::default();
            for (f, d) in defs.iter().enumerate() {
                m.entry(&*d.json_key).or_default().push(f);
            }
            m
        });
        KeyIndex { defs, map }
    }

    /// The fields that read `key`, in their declared order.
    pub(crate) fn fields<'k>(&'k self, key: &'k str) -> impl Iterator<Item = usize> + 'k {
        let mapped = self.map.as_ref().and_then(|m| m.get(key)).into_iter().flatten().copied();
        let scanned = if self.map.is_some() { 0..0 } else { 0..self.defs.len() };
        mapped.chain(scanned.filter(move |&f| *self.defs[f].json_key == *key))
    }
}

impl<'a> Decoder<'a> {
    fn path(&self) -> String {
        let mut path = "$".to_string();
        for step in &self.path {
            match step {
                Step::Key(k) => push_key(&mut path, k),
                Step::Index(i) => {
                    let _ = write!(path, "[{i}]");
                }
            }
        }
        path
    }

    fn fail(&mut self, at: Span, message: String, label: String) {
        let path = self.path();
        self.errors.push(
            Diagnostic::error("E0306", format!("{message} at `{path}`"))
                .at(self.file, at, label)
                .with_secondary(self.call, "loaded here"),
        );
    }

    fn origin(&self, j: &Json) -> Origin {
        Origin::Json(Loc::new(self.file, j.span))
    }

    fn value(&mut self, j: &'a Json, ty: &'a Ty) -> Option<Value> {
        let v = self.kind(j, ty)?;
        Some(Value::new(v).with_origin(self.origin(j)))
    }

    /// `value` one step further down the path.
    fn value_at(&mut self, step: Step<'a>, j: &'a Json, ty: &'a Ty) -> Option<Value> {
        self.path.push(step);
        let v = self.value(j, ty);
        self.path.pop();
        v
    }

    fn wrong(&mut self, j: &Json, ty: &Ty) -> Option<V> {
        self.fail(j.span, format!("expected `{ty}`, found {}", j.describe()), format!("expected `{ty}`"));
        None
    }

    /// Says why `j` is not a value of the scalar type `ty`.
    fn not_scalar(&mut self, j: &Json, ty: &Ty) -> Option<V> {
        match (ty, &j.kind) {
            (Ty::Int, J::Number(n)) => {
                let what = if n.contains(['.', 'e', 'E']) {
                    "not a whole number"
                } else {
                    "out of range for `Int` (a 64-bit signed whole number)"
                };
                self.fail(j.span, format!("`{n}` is {what}"), format!("expected `Int`, {what}"));
                None
            }
            (Ty::Duration, J::Str(s)) => {
                self.fail(
                    j.span,
                    format!("`{s}` is not a `Duration`"),
                    "expected a Duration such as \"3h\" or \"250ms\"".into(),
                );
                None
            }
            (Ty::Sha256 | Ty::Sha1 | Ty::Sha512, J::Str(s)) => {
                let kind = match ty {
                    Ty::Sha256 => DigestKind::Sha256,
                    Ty::Sha1 => DigestKind::Sha1,
                    _ => DigestKind::Sha512,
                };
                let body = digest_body(s, kind);
                let why = if body.chars().any(|c| c.is_ascii_uppercase()) {
                    "has uppercase hex digits".to_string()
                } else if !body.chars().all(|c| c.is_ascii_hexdigit()) {
                    "has characters that are not hex digits".to_string()
                } else {
                    format!("has {} hex digits, expected {}", body.len(), kind.hex_len())
                };
                self.fail(j.span, format!("malformed {} digest", kind.prefix()), why);
                None
            }
            _ => self.wrong(j, ty),
        }
    }

    fn kind(&mut self, j: &'a Json, ty: &'a Ty) -> Option<V> {
        match (ty, &j.kind) {
            (Ty::Bool | Ty::Int | Ty::Text | Ty::Duration | Ty::Sha256 | Ty::Sha1 | Ty::Sha512, _) => {
                match scalar(ty, &j.kind) {
                    Some(v) => Some(v),
                    None => self.not_scalar(j, ty),
                }
            }
            (Ty::Json, _) => match json_value(j) {
                Ok(v) => Some(V::Json(Arc::new(v))),
                Err((span, n)) => {
                    self.fail(span, format!("`{n}` is out of range for a JSON number"), "not a finite number".into());
                    None
                }
            },
            (Ty::List(t), J::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                let mut ok = true;
                for (i, item) in items.iter().enumerate() {
                    match self.value_at(Step::Index(i), item, t) {
                        Some(v) => out.push(v),
                        None => ok = false,
                    }
                }
                ok.then(|| V::List(Arc::new(out)))
            }
            (Ty::Option(_), J::Null) => Some(V::Option(None)),
            (Ty::Option(t), _) => Some(V::Option(Some(Arc::new(self.value(j, t)?)))),
            (Ty::Map(t), J::Object(fields)) => {
                let mut out: BTreeMap<String, Value> = BTreeMap::new();
                let mut ok = true;
                // The parser has refused a key written twice.
                for (k, _, v) in fields {
                    match self.value_at(Step::Key(k), v, t) {
                        Some(x) => {
                            out.insert(k.to_string(), x);
                        }
                        None => ok = false,
                    }
                }
                ok.then(|| V::Map(Arc::new(out)))
            }
            (Ty::Named(n), _) => {
                let Some(info) = self.shapes.info(n) else {
                    return self.wrong(j, ty);
                };
                match &info.def {
                    TypeDef::Newtype(u) => self.kind(j, u),
                    TypeDef::Record { fields, open } => match &j.kind {
                        J::Object(obj) => {
                            let values = self.fields(j, obj, fields, *open, &n.name)?;
                            Some(V::Record(Arc::new(RecordVal {
                                name: n.name.clone(),
                                names: fields.names(),
                                fields: values,
                            })))
                        }
                        _ => self.wrong(j, ty),
                    },
                    TypeDef::Enum { variants } => {
                        let (name, body) = match &j.kind {
                            J::Str(s) => (s.as_ref(), None),
                            J::Object(obj) if obj.len() == 1 => (obj[0].0.as_ref(), Some(&obj[0])),
                            _ => {
                                self.fail(
                                    j.span,
                                    format!("expected a variant of `{}`", n.name),
                                    "expected a variant name, or an object with one key".into(),
                                );
                                return None;
                            }
                        };
                        let Some((i, var)) = variants.iter().enumerate().find(|(_, v)| &*v.name == name) else {
                            let names: Vec<&str> = variants.iter().map(|v| &*v.name).collect();
                            let mut label = format!("not a variant of `{}`", n.name);
                            if let Some(close) = claim_diagnostics::did_you_mean(name, names.iter().copied()) {
                                label = format!("{label}; did you mean `{close}`?");
                            }
                            self.fail(j.span, format!("unknown variant `{name}` of `{}`", n.name), label);
                            return None;
                        };
                        match (&var.fields, body) {
                            (None, None) => Some(V::Variant(Arc::new(VariantVal {
                                name: var.name.clone(),
                                index: i as u32,
                                names: None,
                                fields: vec![],
                            }))),
                            (Some(fields), Some((k, _, inner))) => {
                                self.path.push(Step::Key(k));
                                let values = match &inner.kind {
                                    J::Object(obj) => self.fields(inner, obj, fields, false, &var.name),
                                    _ => {
                                        self.fail(
                                            inner.span,
                                            format!("expected the fields of `{}`", var.name),
                                            "expected an object".into(),
                                        );
                                        None
                                    }
                                };
                                self.path.pop();
                                let names = Some(fields.names());
                                Some(V::Variant(Arc::new(VariantVal {
                                    name: var.name.clone(),
                                    index: i as u32,
                                    names,
                                    fields: values?,
                                })))
                            }
                            (None, Some(_)) => {
                                self.fail(
                                    j.span,
                                    format!("variant `{}` has no fields", var.name),
                                    format!("write it as the string \"{}\"", var.name),
                                );
                                None
                            }
                            (Some(_), None) => {
                                self.fail(
                                    j.span,
                                    format!("variant `{}` carries fields", var.name),
                                    format!("write it as {{\"{}\": {{…}}}}", var.name),
                                );
                                None
                            }
                        }
                    }
                }
            }
            _ => self.wrong(j, ty),
        }
    }

    /// A record's fields from an object: each key matched to its field
    /// once, then the fields decoded in their declared order.
    fn fields(
        &mut self,
        obj_json: &'a Json,
        obj: &'a [(std::borrow::Cow<'_, str>, Span, Json<'_>)],
        defs: &'a [FieldDef],
        open: bool,
        what: &str,
    ) -> Option<Vec<Value>> {
        // Where each field's key is in the object, if it is.
        let mut at: Vec<Option<usize>> = vec![None; defs.len()];
        let mut ok = true;
        let fields_of = KeyIndex::new(defs);
        // The parser has refused a key written twice (`json::parse`).
        for (i, (k, kspan, _)) in obj.iter().enumerate() {
            // Every field of this key takes its place (two may share one).
            let mut known = false;
            fields_of.fields(k).for_each(|f| {
                known = true;
                at[f] = Some(i);
            });
            if !open && !known {
                self.path.push(Step::Key(k));
                self.fail(
                    *kspan,
                    format!("unexpected field `{k}` in `{what}`"),
                    format!("`{what}` has no field `{k}`"),
                );
                self.path.pop();
                if let Some(d) = self.errors.last_mut() {
                    d.help = Some(format!(
                        "declare the record with `..` to allow fields it does not name: `record {what} {{ …, .. }}`"
                    ));
                }
                ok = false;
            }
        }
        let mut out = Vec::with_capacity(defs.len());
        let mut missing: Vec<&FieldDef> = Vec::new();
        for (d, found) in defs.iter().zip(at) {
            let v = match (found.and_then(|i| obj.get(i)), &d.ty) {
                (Some((_, _, j)), ty) => {
                    let before = self.errors.len();
                    let v = self.value_at(Step::Key(&d.json_key), j, ty);
                    // A value of the wrong kind right at the field: where
                    // the record says what the field is.
                    if let Some(e) = self.errors.get_mut(before).filter(|e| {
                        v.is_none() && e.primary.as_ref().is_some_and(|p| p.loc == Loc::new(self.file, j.span))
                    }) {
                        e.secondary
                            .push(claim_diagnostics::Label::new(d.loc, format!("`{}` is declared here", d.name)));
                    }
                    v
                }
                (None, Ty::Option(_)) => Some(Value::new(V::Option(None))),
                (None, _) => {
                    missing.push(d);
                    None
                }
            };
            match v {
                Some(v) => out.push(v),
                None => ok = false,
            }
        }
        if !missing.is_empty() {
            self.missing_fields(obj_json.span, what, &missing);
        }
        ok.then_some(out)
    }

    /// One diagnostic for the fields an object lacks, however many: a
    /// receipt of another kind (or an empty `{}`) lacks most of them, and a
    /// diagnostic each repeated the object and the load as often.
    fn missing_fields(&mut self, object: Span, what: &str, missing: &[&FieldDef]) {
        let mut keys: Vec<&str> = Vec::with_capacity(missing.len());
        for d in missing {
            if !keys.contains(&&*d.json_key) {
                keys.push(&d.json_key);
            }
        }
        let (message, label) = match keys.as_slice() {
            [one] => (format!("missing field `{one}` of `{what}`"), format!("this object has no `{one}`")),
            _ => (
                format!("missing fields {} of `{what}`", claim_diagnostics::and_list(&keys)),
                format!("this object lacks these {} fields", keys.len()),
            ),
        };
        self.fail(object, message, label);
        // Where the record asks for each, as a record literal's `E0204`
        // does: a few are each shown with their types, more would bury the
        // object. (No help to make them `Option`s: a receipt without them
        // is usually the fault.)
        if let Some(e) = self.errors.last_mut() {
            for d in missing.iter().filter(|_| missing.len() <= 3) {
                e.secondary.push(claim_diagnostics::Label::new(d.loc, format!("`{}` is declared here", d.name)));
            }
            e.notes.push(format!("a receipt gives every field of `{what}` but its `Option` fields"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `record R { a: Text, @json("a") b: Text, c: Int }` (two fields of
    /// one key), decoded from `text`.
    fn decode_r(text: &str) -> Result<Value, Vec<Diagnostic>> {
        let at = Loc::new(FileId(0), Span::default());
        let field = |name: &str, key: &str, ty: Ty| FieldDef { name: name.into(), ty, json_key: key.into(), loc: at };
        let name = GlobalName::new("main", "R");
        let def = TypeDef::Record {
            fields: vec![field("a", "a", Ty::Text), field("b", "a", Ty::Text), field("c", "c", Ty::Int)].into(),
            open: false,
        };
        let types: Types = Arc::new(
            [(name.clone(), TypeInfo { name: name.clone(), def, loc: at, docs: vec![] })].into_iter().collect(),
        );
        let doc = crate::json::parse(text).expect("json");
        decode(&doc, &Ty::Named(Arc::new(name)), &types, FileId(1), at)
    }

    /// An open record of 20 fields (more than are scanned), from an object
    /// of 40 keys: each field found by its key; a key repeated among many
    /// is refused by the parser.
    #[test]
    fn large_records_and_objects_decode_by_key() {
        let at = Loc::new(FileId(0), Span::default());
        let name = GlobalName::new("main", "Big");
        let fields = (0..20)
            .map(|i| FieldDef { name: format!("f{i}").into(), ty: Ty::Int, json_key: format!("k{i}").into(), loc: at })
            .collect();
        let def = TypeDef::Record { fields, open: true };
        let types: Types = Arc::new(
            [(name.clone(), TypeInfo { name: name.clone(), def, loc: at, docs: vec![] })].into_iter().collect(),
        );
        let ty = Ty::Named(Arc::new(name));
        let keys: Vec<String> = (0..40).rev().map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{{}}}", keys.join(", "));
        let doc = crate::json::parse(&text).expect("json");
        let v = decode(&doc, &ty, &types, FileId(1), at).expect("decodes");
        let V::Record(r) = &v.kind else { panic!("{v:?}") };
        let ints: Vec<String> = r.fields.iter().map(|f| format!("{:?}", f.kind)).collect();
        assert_eq!(ints, (0..20).map(|i| format!("Int({i})")).collect::<Vec<_>>());
        let text = format!("{{{}, \"k30\": 1}}", keys.join(", "));
        let e = crate::json::parse(&text).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("duplicate key `k30`"));
    }

    /// An object lacking several fields gets one diagnostic naming them
    /// all, labelling each field's declaration (two fields of one key are
    /// one key missing, but two declarations).
    #[test]
    fn the_fields_an_object_lacks_are_one_diagnostic() {
        let errors = decode_r("{}").err().unwrap_or_default();
        let said: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(said, ["missing fields `a` and `c` of `R` at `$`"]);
        let labels: Vec<&str> = errors[0].secondary.iter().map(|l| l.message.as_str()).collect();
        assert_eq!(labels, ["loaded here", "`a` is declared here", "`b` is declared here", "`c` is declared here"]);
        // Four fields and more: named in the message, not each labelled.
        let at = Loc::new(FileId(0), Span::default());
        let name = GlobalName::new("main", "Four");
        let fields = ["w", "x", "y", "z"]
            .map(|k| FieldDef { name: k.into(), ty: Ty::Int, json_key: k.into(), loc: at })
            .to_vec();
        let def = TypeDef::Record { fields: fields.into(), open: false };
        let types: Types = Arc::new(
            [(name.clone(), TypeInfo { name: name.clone(), def, loc: at, docs: vec![] })].into_iter().collect(),
        );
        let doc = crate::json::parse(r#"{"x": 1}"#).expect("json");
        let errors = decode(&doc, &Ty::Named(Arc::new(name)), &types, FileId(1), at).err().unwrap_or_default();
        let said: Vec<&str> = errors.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(said, ["missing fields `w`, `y` and `z` of `Four` at `$`"]);
        let doc = crate::json::parse("{}").expect("json");
        let name = GlobalName::new("main", "Four");
        let errors = decode(&doc, &Ty::Named(Arc::new(name)), &types, FileId(1), at).err().unwrap_or_default();
        let labels: Vec<&str> = errors[0].secondary.iter().map(|l| l.message.as_str()).collect();
        assert_eq!(labels, ["loaded here"], "four fields are not each labelled");
    }

    fn messages(r: Result<Value, Vec<Diagnostic>>) -> Vec<String> {
        r.err().unwrap_or_default().into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn two_fields_of_one_key_both_take_its_value() {
        let v = decode_r(r#"{"c": 1, "a": "x"}"#).expect("decodes");
        let V::Record(r) = &v.kind else { panic!("{v:?}") };
        let texts: Vec<String> = r.fields.iter().map(|f| format!("{:?}", f.kind)).collect();
        assert_eq!(texts, [r#"Text("x")"#, r#"Text("x")"#, "Int(1)"]);
    }

    /// Each error once, in the object's key order, then the fields' order.
    #[test]
    fn duplicates_extra_and_missing_fields_are_each_reported() {
        assert_eq!(
            messages(decode_r(r#"{"a": "x", "z": 1, "y": 2}"#)),
            [
                "unexpected field `z` in `R` at `$.z`",
                "unexpected field `y` in `R` at `$.y`",
                "missing field `c` of `R` at `$`",
            ]
        );
        assert_eq!(
            messages(decode_r(r#"{"a": 1, "c": "x"}"#)),
            [
                "expected `Text`, found a number at `$.a`",
                "expected `Text`, found a number at `$.a`",
                "expected `Int`, found a string at `$.c`",
            ]
        );
    }

    /// A number that is not an `Int` says which way it is not, in the
    /// language's names (not the implementation's).
    #[test]
    fn numbers_that_are_not_ints_say_why() {
        assert_eq!(messages(decode_r(r#"{"a": "x", "c": 1.5}"#)), ["`1.5` is not a whole number at `$.c`"]);
        assert_eq!(
            messages(decode_r(r#"{"a": "x", "c": 9223372036854775808}"#)),
            ["`9223372036854775808` is out of range for `Int` (a 64-bit signed whole number) at `$.c`"]
        );
        assert!(decode_r(r#"{"a": "x", "c": -9223372036854775808}"#).is_ok());
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod decode_tests;
