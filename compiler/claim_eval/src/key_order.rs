//! The order in which a record's receipts write their keys, learned as
//! they are read. A team's receipts come from one writer, which writes
//! every receipt's keys in one order (sorted, declared, or its own): once
//! seen, the key that follows each one is known, and the direct decoder
//! compares its bytes instead of reading the key and searching every
//! field's key for it (a decoded receipt's instructions 13% fewer).
//!
//! Learned per thread, for the program's types the thread decodes: a
//! record is known by the address of its fields in that table, and the
//! table is held while anything is learned of it (until the thread ends
//! or decodes for another program), so no address is reused for another
//! record. Nothing is kept between runs.

use crate::world::Types;
use claim_sema::ty::FieldDef;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::sync::Arc;

#[derive(Default)]
struct Learned {
    types: Option<Types>,
    records: FxHashMap<usize, Record>,
}

struct Record {
    /// No two fields read one key (the checker refuses two that do, but
    /// the decoders still read both, so those are never predicted).
    unique: bool,
    /// For each field, the field whose key was written after it last; at
    /// the end, the one written first. Declared order to begin with.
    after: Vec<usize>,
}

thread_local! {
    static LEARNED: RefCell<Learned> = RefCell::default();
}

/// A record's place in what is learned: the one before a record's first
/// key is the place past its last field.
pub(crate) const START: usize = usize::MAX;

/// The field whose key is likely written after the key of `prev`
/// (`START`: the first), for the record of `fields` in `types`.
pub(crate) fn predict(types: &Types, fields: &[FieldDef], prev: usize) -> Option<usize> {
    LEARNED
        .try_with(|l| {
            let mut l = l.try_borrow_mut().ok()?;
            let l = &mut *l;
            if !l.types.as_ref().is_some_and(|t| Arc::ptr_eq(t, types)) {
                *l = Learned { types: Some(types.clone()), records: FxHashMap::default() };
            }
            let r = l.records.entry(fields.as_ptr() as usize).or_insert_with(|| Record::new(fields));
            let at = if prev == START { fields.len() } else { prev };
            r.unique.then(|| r.after.get(at).copied()).flatten()
        })
        .ok()
        .flatten()
}

/// Notes that the key of `next` was written after the key of `prev`.
pub(crate) fn learn(types: &Types, fields: &[FieldDef], prev: usize, next: usize) {
    let _ = LEARNED.try_with(|l| {
        let Ok(mut l) = l.try_borrow_mut() else { return };
        if !l.types.as_ref().is_some_and(|t| Arc::ptr_eq(t, types)) {
            return;
        }
        if let Some(r) = l.records.get_mut(&(fields.as_ptr() as usize)) {
            let at = if prev == START { fields.len() } else { prev };
            if let Some(slot) = r.after.get_mut(at) {
                *slot = next;
            }
        }
    });
}

impl Record {
    fn new(fields: &[FieldDef]) -> Record {
        let mut keys: Vec<&str> = fields.iter().map(|f| &*f.json_key).collect();
        keys.sort_unstable();
        let unique = keys.windows(2).all(|w| w[0] != w[1]);
        // Each field's successor in declared order, and the first first.
        let mut after: Vec<usize> = (1..=fields.len()).collect();
        after.push(0);
        Record { unique, after }
    }
}
