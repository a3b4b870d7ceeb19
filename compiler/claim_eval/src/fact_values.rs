//! The fact values an evaluator is given (`Evaluator::with_facts`): by
//! name, found through an index of the program's facts into a list of
//! their values. A batch run hands over the index its fact table built
//! and the values in the facts' order, so nothing is hashed or copied
//! again between the facts and the witnesses (a map of 20,000 names
//! filled on one thread was a serial stretch of every large run).

use crate::refusal::Broken;
use crate::value::Value;
use claim_sema::ty::GlobalName;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// What a fact gave: its value, the refusal it is broken with (§7), or a
/// failure that stops the run (a limit, an internal error), reported
/// where it happened.
#[derive(Clone, Debug)]
pub enum Known {
    Value(Value),
    Broken(Arc<Broken>),
    Failed,
}

/// Where each fact's value is in the list, by the fact's name (which the
/// program holds: nothing here copies a name).
pub type FactIndex<'p> = FxHashMap<&'p GlobalName, usize>;

/// Fact values by name.
#[derive(Clone, Debug, Default)]
pub struct FactValues<'p> {
    index: FactIndex<'p>,
    /// The same numbers, by the addresses of the names' two texts. A
    /// module's code names its facts with the very texts their
    /// declarations hold (`claim_sema::check`), so a witness finds a
    /// fact's number here without reading the declaration's name, which
    /// lies with the rest of another part of the program and was a cache
    /// miss at nearly every look-up. Equal addresses are equal texts (the
    /// program holds every name for as long as this lives); a name held
    /// in other texts is found by `index`.
    by_texts: FxHashMap<(usize, usize), usize>,
    /// `None` for a fact of the index that was not evaluated.
    values: Vec<Option<Known>>,
}

/// The addresses of a name's two texts.
fn texts(name: &GlobalName) -> (usize, usize) {
    (name.module.as_ptr() as usize, name.name.as_ptr() as usize)
}

impl<'p> FactValues<'p> {
    pub fn with_capacity(n: usize) -> Self {
        FactValues {
            index: FactIndex::with_capacity_and_hasher(n, Default::default()),
            by_texts: FxHashMap::with_capacity_and_hasher(n, Default::default()),
            values: Vec::with_capacity(n),
        }
    }

    /// The values of the facts `index` numbers, each at its number
    /// (`values` has one place per number of the index).
    pub fn from_parts(index: FactIndex<'p>, values: Vec<Option<Known>>) -> Self {
        let by_texts = index.iter().map(|(name, &i)| (texts(name), i)).collect();
        FactValues { index, by_texts, values }
    }

    /// Gives `name` what it gave (replacing what it had).
    pub fn insert(&mut self, name: &'p GlobalName, value: Known) {
        match self.index.get(name) {
            Some(&i) => {
                if let Some(slot) = self.values.get_mut(i) {
                    *slot = Some(value);
                }
            }
            None => {
                self.index.insert(name, self.values.len());
                self.by_texts.insert(texts(name), self.values.len());
                self.values.push(Some(value));
            }
        }
    }

    /// What the fact `name` gave, where it was evaluated.
    pub fn known(&self, name: &GlobalName) -> Option<&Known> {
        let i = match self.by_texts.get(&texts(name)) {
            Some(&i) => i,
            None => *self.index.get(name)?,
        };
        self.values.get(i)?.as_ref()
    }

    /// The value of the fact `name`, where it has one.
    pub fn get(&self, name: &GlobalName) -> Option<&Value> {
        match self.known(name)? {
            Known::Value(v) => Some(v),
            _ => None,
        }
    }

    /// Every value it holds, in no particular order.
    pub fn values(&self) -> impl Iterator<Item = &Value> + Clone {
        self.values.iter().filter_map(|k| match k {
            Some(Known::Value(v)) => Some(v),
            _ => None,
        })
    }

    /// Every fact that has a value, with it, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&'p GlobalName, &Value)> {
        self.index.iter().filter_map(|(name, &i)| match self.values.get(i)? {
            Some(Known::Value(v)) => Some((*name, v)),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn name(m: &str, n: &str) -> GlobalName {
        GlobalName::of(Arc::from(m), Arc::from(n))
    }

    #[test]
    fn a_value_is_found_by_an_equal_name_and_a_failed_fact_has_none() {
        let (a, b, c) = (name("m", "a"), name("m", "b"), name("n", "a"));
        let mut index = FactIndex::default();
        index.insert(&a, 0);
        index.insert(&b, 1);
        index.insert(&c, 2);
        let known = FactValues::from_parts(
            index,
            vec![Some(Known::Value(Value::int(1))), None, Some(Known::Value(Value::int(3)))],
        );
        // Found by an equal name held elsewhere, not only by the same one.
        assert_eq!(known.get(&name("m", "a")).and_then(Value::as_int), Some(1));
        // And by a name sharing the declaration's texts (as a module's
        // code does), which is not the declaration's own.
        let shared = GlobalName::of(c.module.clone(), c.name.clone());
        assert_eq!(known.get(&shared).and_then(Value::as_int), Some(3));
        // Texts of one name at another's addresses would be another fact:
        // a name whose module text is `a`'s and name text is `c`'s is `m`.`a`.
        let mixed = GlobalName::of(a.module.clone(), c.name.clone());
        assert_eq!(known.get(&mixed).and_then(Value::as_int), Some(1));
        assert_eq!(known.get(&name("n", "a")).and_then(Value::as_int), Some(3));
        assert!(known.get(&b).is_none(), "a fact that failed has no value");
        assert!(known.get(&name("m", "z")).is_none());
        assert_eq!(known.values().count(), 2);
        let mut got: Vec<i64> = known.values().filter_map(Value::as_int).collect();
        got.sort();
        assert_eq!(got, vec![1, 3]);
        let mut named: Vec<(&str, i64)> = known.iter().filter_map(|(n, v)| Some((&*n.name, v.as_int()?))).collect();
        named.sort();
        assert_eq!(named, vec![("a", 1), ("a", 3)]);
    }

    #[test]
    fn inserting_again_replaces_the_value() {
        let a = name("m", "a");
        let mut known = FactValues::with_capacity(1);
        known.insert(&a, Known::Value(Value::int(1)));
        known.insert(&a, Known::Value(Value::int(2)));
        assert_eq!(known.get(&a).and_then(Value::as_int), Some(2));
        assert_eq!(known.values().count(), 1);
    }
}
