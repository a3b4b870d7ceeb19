//! Mutants of a fact's value (`claim_batch --mutate`): for each leaf (a
//! digest, a text, an int, a duration, a bool, a variant, a list's length
//! and elements, an option's presence), values that keep the type and
//! differ from the fact's in that leaf alone. Pure: which witnesses re-run,
//! and what a changed verdict means, is the caller's.

use crate::value::{Origin, RecordVal, Value, VariantVal, V};
use crate::world::Types;
use claim_sema::ty::TypeDef;
use std::sync::Arc;

/// Of a list (or a map), the elements (entries) whose own leaves are
/// mutated: a receipt's long lists would otherwise give thousands of
/// mutants of one shape. The list's length and order are mutated whole.
pub const ELEMENTS: usize = 4;

/// A leaf of a fact's value.
#[derive(Clone, Debug)]
pub struct Leaf {
    /// Where in the value (`$.wheels[1].sha256`; `$` for the whole; an
    /// option's presence with `?`: `$.manifest?`).
    pub path: String,
    /// Where the leaf's value came from (a receipt's JSON), where known.
    pub origin: Option<Origin>,
    /// The last field name on the way, where there is one: a leaf no
    /// expression reads by that name may be an equivalent mutant's.
    pub field: Option<Arc<str>>,
}

/// A value differing from a fact's in one leaf.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// The leaf, an index of [`mutate`]'s leaves.
    pub leaf: usize,
    /// What was changed, in words (`flip hex digit 1`).
    pub change: String,
    /// The whole fact's value, with the leaf changed.
    pub value: Value,
}

/// One step into a value.
#[derive(Clone, Debug)]
enum Step {
    Field(usize),
    Element(usize),
    Some,
    Entry(String),
    VariantField(usize),
}

/// Every leaf of `v` and its mutants, in a stable order (the value's own).
pub fn mutate(v: &Value, types: &Types) -> (Vec<Leaf>, Vec<Mutant>) {
    let mut m = Mutator { root: v, types, leaves: Vec::new(), mutants: Vec::new() };
    m.walk(v, &mut Vec::new(), "$".to_string(), None);
    (m.leaves, m.mutants)
}

struct Mutator<'a> {
    root: &'a Value,
    types: &'a Types,
    leaves: Vec<Leaf>,
    mutants: Vec<Mutant>,
}

impl Mutator<'_> {
    fn leaf(&mut self, v: &Value, path: &str, field: Option<Arc<str>>) -> usize {
        self.leaves.push(Leaf { path: path.to_string(), origin: v.origin.clone(), field });
        self.leaves.len() - 1
    }

    fn push(&mut self, leaf: usize, steps: &[Step], change: String, new: Value) {
        let value = replace(self.root, steps, new);
        self.mutants.push(Mutant { leaf, change, value });
    }

    fn walk(&mut self, v: &Value, steps: &mut Vec<Step>, path: String, field: Option<Arc<str>>) {
        let keep = |kind: V| Value { kind, origin: v.origin.clone() };
        match &v.kind {
            V::Digest(kind, bytes) => {
                let leaf = self.leaf(v, &path, field);
                let mut flipped = bytes.to_vec();
                if let Some(b) = flipped.first_mut() {
                    *b ^= 0x10;
                }
                self.push(leaf, steps, "flip its first hex digit".into(), keep(V::Digest(*kind, flipped.into())));
            }
            V::Text(t) => {
                let leaf = self.leaf(v, &path, field);
                let changed = match t.chars().last() {
                    None => "x".to_string(),
                    Some(c) => {
                        let other = if c == 'a' { 'b' } else { 'a' };
                        format!("{}{other}", &t[..t.len() - c.len_utf8()])
                    }
                };
                self.push(leaf, steps, "change its last character".into(), keep(V::Text(Arc::from(changed))));
            }
            V::Int(n) => {
                let leaf = self.leaf(v, &path, field);
                let (shifted, how) = match n.checked_add(1) {
                    Some(m) => (m, "add one"),
                    None => (n - 1, "take one"),
                };
                self.push(leaf, steps, how.into(), keep(V::Int(shifted)));
            }
            V::Duration(ms) => {
                let ms = *ms;
                let leaf = self.leaf(v, &path, field);
                // One unit of its own grain (the largest that divides it):
                // `360min` is `6h`, shifted to `7h`; a shift by 1ms would
                // vanish in `minutes(…)` and call a compared value
                // unwitnessed.
                const UNITS: [(i64, &str); 5] =
                    [(86_400_000, "d"), (3_600_000, "h"), (60_000, "min"), (1_000, "s"), (1, "ms")];
                let (unit, name) = UNITS.into_iter().find(|(u, _)| ms != 0 && ms % u == 0).unwrap_or((1, "ms"));
                let (shifted, how) = match ms.checked_add(unit) {
                    Some(m) => (m, format!("shift it by 1{name}")),
                    None => (ms - unit, format!("shift it back by 1{name}")),
                };
                self.push(leaf, steps, how, keep(V::Duration(shifted)));
            }
            V::Bool(b) => {
                let leaf = self.leaf(v, &path, field);
                self.push(leaf, steps, format!("make it `{}`", !b), keep(V::Bool(!b)));
            }
            V::Option(o) => {
                // Its presence is a leaf of its own (`$.name?`), beside the
                // leaves of what it holds (`$.name`).
                let leaf = self.leaf(v, &format!("{path}?"), field.clone());
                if let Some(inner) = o {
                    self.push(leaf, steps, "make it `None`".into(), keep(V::Option(None)));
                    steps.push(Step::Some);
                    self.walk(inner, steps, path, field);
                    steps.pop();
                }
            }
            V::List(items) => {
                let leaf = self.leaf(v, &path, field);
                if let Some(first) = items.first() {
                    let dropped: Vec<Value> = items[..items.len() - 1].to_vec();
                    self.push(leaf, steps, "drop its last element".into(), keep(V::List(Arc::new(dropped))));
                    let mut doubled = vec![first.clone()];
                    doubled.extend(items.iter().cloned());
                    self.push(leaf, steps, "repeat its first element".into(), keep(V::List(Arc::new(doubled))));
                }
                if items.len() >= 2 && items[0] != items[1] {
                    let mut swapped = items.to_vec();
                    swapped.swap(0, 1);
                    self.push(leaf, steps, "swap its first two elements".into(), keep(V::List(Arc::new(swapped))));
                }
                for (i, item) in items.iter().enumerate().take(ELEMENTS) {
                    steps.push(Step::Element(i));
                    self.walk(item, steps, format!("{path}[{i}]"), None);
                    steps.pop();
                }
            }
            V::Record(r) => {
                for (i, (name, x)) in r.names.iter().zip(&r.fields).enumerate() {
                    steps.push(Step::Field(i));
                    self.walk(x, steps, format!("{path}.{name}"), Some(name.clone()));
                    steps.pop();
                }
            }
            V::Map(m) => {
                for (k, x) in m.iter().take(ELEMENTS) {
                    steps.push(Step::Entry(k.clone()));
                    self.walk(x, steps, format!("{path}[{}]", crate::text::show(&Value::text(k.as_str()))), None);
                    steps.pop();
                }
            }
            V::Variant(var) => {
                let leaf = self.leaf(v, &path, field);
                // Another unit variant of its enum, where it has one.
                if let Some(other) = self.other_unit_variant(var) {
                    self.push(leaf, steps, format!("make it `{}`", other.name), keep(V::Variant(Arc::new(other))));
                }
                let names = var.names.clone();
                for (i, x) in var.fields.iter().enumerate() {
                    steps.push(Step::VariantField(i));
                    let name = names.as_ref().and_then(|n| n.get(i)).cloned();
                    let p = match &name {
                        Some(n) => format!("{path}.{}.{n}", var.name),
                        None => format!("{path}.{}", var.name),
                    };
                    self.walk(x, steps, p, name);
                    steps.pop();
                }
            }
            // A JSON value of any shape: its parts are data no type names.
            V::Json(_) => {}
        }
    }

    /// A unit variant of the enum `var` belongs to, other than `var`.
    fn other_unit_variant(&self, var: &VariantVal) -> Option<VariantVal> {
        self.types.values().find_map(|info| {
            let TypeDef::Enum { variants } = &info.def else { return None };
            let own = variants.get(var.index as usize)?;
            if *own.name != *var.name {
                return None;
            }
            let (index, other) =
                variants.iter().enumerate().find(|(i, d)| *i != var.index as usize && d.fields.is_none())?;
            Some(VariantVal { name: other.name.clone(), index: index as u32, names: None, fields: Vec::new() })
        })
    }
}

/// `root` with the value at `steps` replaced by `new`.
fn replace(root: &Value, steps: &[Step], new: Value) -> Value {
    let Some((step, rest)) = steps.split_first() else { return new };
    let keep = |kind: V| Value { kind, origin: root.origin.clone() };
    match (step, &root.kind) {
        (Step::Field(i), V::Record(r)) => {
            let mut fields = r.fields.clone();
            if let Some(f) = fields.get_mut(*i) {
                *f = replace(f, rest, new);
            }
            keep(V::Record(Arc::new(RecordVal { name: r.name.clone(), names: r.names.clone(), fields })))
        }
        (Step::Element(i), V::List(items)) => {
            let mut items = items.to_vec();
            if let Some(x) = items.get_mut(*i) {
                *x = replace(x, rest, new);
            }
            keep(V::List(Arc::new(items)))
        }
        (Step::Some, V::Option(Some(x))) => keep(V::Option(Some(Arc::new(replace(x, rest, new))))),
        (Step::Entry(k), V::Map(m)) => {
            let mut m = (**m).clone();
            if let Some(x) = m.get_mut(k) {
                *x = replace(x, rest, new);
            }
            keep(V::Map(Arc::new(m)))
        }
        (Step::VariantField(i), V::Variant(var)) => {
            let mut var = (**var).clone();
            if let Some(x) = var.fields.get_mut(*i) {
                *x = replace(x, rest, new);
            }
            keep(V::Variant(Arc::new(var)))
        }
        _ => root.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(names: &[&str], fields: Vec<Value>) -> Value {
        let names: Arc<[Arc<str>]> = names.iter().map(|n| Arc::from(*n)).collect();
        Value::new(V::Record(Arc::new(RecordVal { name: "R".into(), names, fields })))
    }

    #[test]
    fn every_leaf_has_mutants_that_differ_in_it_alone() {
        let v = record(
            &["tag", "n", "wheels"],
            vec![Value::text("v41"), Value::int(7), Value::list(vec![Value::int(1), Value::int(2)])],
        );
        let (leaves, mutants) = mutate(&v, &Types::default());
        let paths: Vec<&str> = leaves.iter().map(|l| l.path.as_str()).collect();
        assert_eq!(paths, ["$.tag", "$.n", "$.wheels", "$.wheels[0]", "$.wheels[1]"]);
        let shown: Vec<String> = mutants.iter().map(|m| crate::text::show(&m.value)).collect();
        assert_eq!(
            shown,
            [
                "R { tag: \"v4a\", n: 7, wheels: [1, 2] }",
                "R { tag: \"v41\", n: 8, wheels: [1, 2] }",
                "R { tag: \"v41\", n: 7, wheels: [1] }",
                "R { tag: \"v41\", n: 7, wheels: [1, 1, 2] }",
                "R { tag: \"v41\", n: 7, wheels: [2, 1] }",
                "R { tag: \"v41\", n: 7, wheels: [2, 2] }",
                "R { tag: \"v41\", n: 7, wheels: [1, 3] }",
            ]
        );
    }
}
