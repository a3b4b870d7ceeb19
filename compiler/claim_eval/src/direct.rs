//! Receipts read straight from their text into values of their type, with
//! no JSON document between: parsing made a tree for every file only to
//! walk it once and free it (this is 2% fewer instructions for a run; the
//! rest of decoding is making the values themselves).
//!
//! Only the way through: at the first thing that is not a well-formed value
//! of the type (a syntax error, a wrong kind of value, a missing, unknown
//! or repeated key) it gives up, and the caller parses and decodes the text
//! the strict way (`decode.rs`), which finds every error and reports each
//! with its place. Both read with one parser (`json::Parser`) and convert
//! scalars with one function (`decode::scalar`), and a test and a fuzz
//! target hold them to the same values, origins included.

use crate::decode::{scalar, KeyIndex, Shapes};
use crate::json::{Parser, J, MAX_DEPTH};
use crate::key_order;
use crate::value::{Origin, RecordVal, Value, VariantVal, V};
use crate::world::Types;
use claim_sema::ty::{FieldDef, Ty, TypeDef};
use claim_syntax::{FileId, Loc, Span};
use rustc_hash::FxHashSet;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The JSON text `text` (of the file `file`) as a value of `ty`, each value
/// remembering where in the file it was read; `None` where the text is not
/// a well-formed value of the type, for the strict decoder to say why.
pub fn decode_text<'a>(text: &str, ty: &'a Ty, types: &'a Types, file: FileId) -> Option<Value> {
    let mut d = Direct { p: Parser::new(text), file, shapes: Shapes::new(types), types };
    d.p.ws();
    let v = d.value(ty, 0)?;
    d.p.ws();
    d.p.at_end().then_some(v)
}

struct Direct<'t, 'a> {
    p: Parser<'t>,
    file: FileId,
    shapes: Shapes<'a>,
    types: &'a Types,
}

impl<'t, 'a> Direct<'t, 'a> {
    /// A value and its place: from where it starts to where it ends, as
    /// the parser spans it.
    fn value(&mut self, ty: &'a Ty, depth: usize) -> Option<Value> {
        let start = self.p.i;
        let kind = self.kind(ty, depth)?;
        let at = Loc::new(self.file, Span::new(start, self.p.i));
        Some(Value::new(kind).with_origin(Origin::Json(at)))
    }

    /// `depth` counts the arrays and objects around the value, as the
    /// parser does; an option or a newtype is not a level.
    fn kind(&mut self, ty: &'a Ty, depth: usize) -> Option<V> {
        if depth > MAX_DEPTH {
            return None;
        }
        match ty {
            Ty::Bool | Ty::Int | Ty::Text | Ty::Duration | Ty::Sha256 | Ty::Sha1 => {
                // A scalar borrows the text: reading it makes nothing to free.
                // A string (most of a receipt) is read as `value` reads one,
                // without a JSON value made around it and dropped.
                if self.p.peek() == Some(b'"') {
                    let s = self.p.string().ok()?;
                    return scalar(ty, &J::Str(s));
                }
                let j = self.p.value(depth).ok()?;
                scalar(ty, &j.kind)
            }
            Ty::Option(t) => {
                if self.p.at(b"null") {
                    self.p.i += 4;
                    Some(V::Option(None))
                } else {
                    Some(V::Option(Some(Arc::new(self.value(t, depth)?))))
                }
            }
            Ty::List(t) => {
                let mut out = Vec::new();
                self.array(|d| {
                    out.push(d.value(t, depth + 1)?);
                    Some(())
                })?;
                Some(V::List(Arc::new(out)))
            }
            Ty::Map(t) => {
                let mut out: BTreeMap<String, Value> = BTreeMap::new();
                self.object(|d, key| {
                    if out.contains_key(key.as_ref()) {
                        return None;
                    }
                    let v = d.value(t, depth + 1)?;
                    out.insert(key.into_owned(), v);
                    Some(())
                })?;
                Some(V::Map(Arc::new(out)))
            }
            Ty::Named(n) => match &self.shapes.info(n)?.def {
                TypeDef::Newtype(u) => self.kind(u, depth),
                TypeDef::Record { fields, open } => {
                    let values = self.fields(fields, *open, depth)?;
                    let names = fields.names();
                    Some(V::Record(Arc::new(RecordVal { name: n.name.clone(), names, fields: values })))
                }
                TypeDef::Enum { variants } => {
                    let find = |name: &str| variants.iter().enumerate().find(|(_, v)| *v.name == *name);
                    match self.p.peek()? {
                        b'"' => {
                            let name = self.p.string().ok()?;
                            let (i, var) = find(&name)?;
                            let None = var.fields else { return None };
                            let v = VariantVal { name: var.name.clone(), index: i as u32, names: None, fields: vec![] };
                            Some(V::Variant(Arc::new(v)))
                        }
                        b'{' => {
                            // `{"Variant": {fields}}`, and no other key.
                            self.p.i += 1;
                            self.p.ws();
                            let name = self.key()?;
                            let (i, var) = find(&name)?;
                            let fields = var.fields.as_ref()?;
                            let values = self.fields(fields, false, depth + 1)?;
                            self.p.ws();
                            self.p.eat(b'}').then_some(())?;
                            let names = Some(fields.names());
                            let v = VariantVal { name: var.name.clone(), index: i as u32, names, fields: values };
                            Some(V::Variant(Arc::new(v)))
                        }
                        _ => None,
                    }
                }
            },
            Ty::Never | Ty::Error => None,
        }
    }

    /// A record's fields from an object at `depth`, in their declared
    /// order: each key's value decoded as it comes, into the field (or the
    /// fields, where two share a key) of that key.
    fn fields(&mut self, defs: &'a [FieldDef], open: bool, depth: usize) -> Option<Vec<Value>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut slots: Vec<Option<Value>> = vec![None; defs.len()];
        let index = KeyIndex::new(defs);
        let mut unknown: FxHashSet<Cow<'t, str>> = Default::default();
        // The key written after the last one read is likely the one the
        // receipts of this record wrote after it before (`key_order`): it
        // is compared as bytes first, which reads it without the key's scan
        // and the search through every field's key.
        let mut prev = key_order::START;
        self.between(b'{', b'}', |d| {
            if let Some(f) = key_order::predict(d.types, defs, prev).filter(|&f| f < defs.len()) {
                if d.p.plain_key(&defs[f].json_key) {
                    d.field(&mut slots, defs, f, depth)?;
                    prev = f;
                    return Some(());
                }
            }
            let key = d.key()?;
            let value_at = d.p.i;
            let mut known = None;
            for f in index.fields(&key) {
                known = Some(f);
                // A second field of the key reads the same value again.
                d.p.i = value_at;
                d.field(&mut slots, defs, f, depth)?;
            }
            if let Some(f) = known {
                key_order::learn(d.types, defs, prev, f);
                prev = f;
            } else {
                // An open record skips a key it does not name, once.
                if !open || !unknown.insert(key) {
                    return None;
                }
                d.p.value(depth + 1).ok()?;
            }
            Some(())
        })?;
        slots
            .into_iter()
            .zip(defs)
            .map(|(slot, d)| match (slot, &d.ty) {
                (Some(v), _) => Some(v),
                (None, Ty::Option(_)) => Some(Value::new(V::Option(None))),
                (None, _) => None,
            })
            .collect()
    }

    /// The value of field `f` of a record at `depth`, read from here into
    /// its slot: `None` where the field was read already (a repeated key).
    fn field(&mut self, slots: &mut [Option<Value>], defs: &'a [FieldDef], f: usize, depth: usize) -> Option<()> {
        if slots[f].is_some() {
            return None;
        }
        slots[f] = Some(self.value(&defs[f].ty, depth + 1)?);
        Some(())
    }

    /// The items of an array, each read by `item`.
    fn array(&mut self, item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.between(b'[', b']', item)
    }

    /// The members of an object, each read by `member` from its value's
    /// start, given its key.
    fn object(&mut self, mut member: impl FnMut(&mut Self, Cow<'t, str>) -> Option<()>) -> Option<()> {
        self.between(b'{', b'}', |d| {
            let key = d.key()?;
            member(d, key)
        })
    }

    /// `open`, then each element read by `each` and followed by a comma,
    /// but the last, then `close`. A comma before `close` is refused by
    /// `each`: nothing any element starts with is a bracket that closes.
    fn between(&mut self, open: u8, close: u8, mut each: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.p.eat(open).then_some(())?;
        self.p.ws();
        if self.p.eat(close) {
            return Some(());
        }
        loop {
            self.p.ws();
            each(self)?;
            self.p.ws();
            if self.p.eat(close) {
                return Some(());
            }
            self.p.eat(b',').then_some(())?;
        }
    }

    /// A key and its colon, up to its value.
    fn key(&mut self) -> Option<Cow<'t, str>> {
        if self.p.peek() != Some(b'"') {
            return None;
        }
        let key = self.p.string().ok()?;
        self.p.ws();
        self.p.eat(b':').then_some(())?;
        self.p.ws();
        Some(key)
    }
}

#[cfg(test)]
#[path = "direct_tests.rs"]
mod tests;
