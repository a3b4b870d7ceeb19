//! What a run forgets, and when: the syntax trees, the checking a summary
//! was made from, the summaries. Nothing forgotten changes an answer: a
//! query asked again after it is computed again.

use crate::check::{check_module, keep_checked, CheckedModule};
use crate::db::{item_index, keep_item_indexes, keep_trees, parse, Db, Program, SourceFile, KEEP_ALL};
use crate::index::ItemIndex;
use crate::scope::{keep_scopes, module_scope, Scope};
use crate::sigs::{keep_sigs, module_sigs, ModuleSigs};
use claim_syntax::Parsed;
use std::sync::Arc;

/// Drops the syntax trees the database holds, but those of `keep`; a later
/// `parse` of a dropped module parses it again. For a run that has checked
/// every module but `keep`: checking in parts and dropping as it goes, a
/// run never holds every tree and every checked module at once.
///
/// The trees of `hand_back` (modules whose trees the database holds, such
/// as those just checked) are not freed but returned: freeing a tree is
/// most of the cost of forgetting it, and salsa frees on the one thread
/// that holds the database mutably, while the caller can free them on its
/// workers during the next part of its work. Any other tree evicted is
/// freed here.
pub fn forget_syntax(db: &mut dyn Db, keep: &[SourceFile], hand_back: &[SourceFile]) -> Vec<Arc<Parsed>> {
    let handed: Vec<Arc<Parsed>> = hand_back.iter().map(|f| parse(db, *f).clone()).collect();
    // Salsa drops the least recently used: use the ones to keep last.
    for f in keep {
        parse(db, *f);
    }
    keep_trees(db, keep.len().max(1));
    db.trigger_lru_eviction();
    keep_trees(db, KEEP_ALL);
    handed
}

/// `forget_checking` for a run checking in parts, after each: keeps the
/// item indexes, scopes and signatures of `keep` (the modules others
/// import, whose signatures the rest of the check reads) and drops every
/// other's, and every checked result (its summary shares what the merge
/// needs). Nothing it drops changes an answer; a module not yet checked
/// builds its index again from its tree.
pub fn forget_checking_except(db: &mut dyn Db, program: Program, keep: &[SourceFile]) {
    // Salsa drops the least recently used: use the ones to keep last.
    for f in keep {
        item_index(db, *f);
        module_scope(db, program, *f);
        module_sigs(db, program, *f);
    }
    evict_checking(db, keep.len());
}

/// What checking a module kept on the way to its summary (its item index,
/// scope, signatures and checked result), held outside the database.
/// Salsa frees what it forgets on the one thread that holds the database
/// mutably, between a run's parts of checking, while the other threads
/// wait; a worker that holds these while it is forgotten is left the last
/// reference, and frees them itself, in its next part, beside the check
/// (as the trees are freed, `forget_syntax`).
pub struct CheckingMemos {
    _held: (Arc<ItemIndex>, Arc<Scope>, Arc<ModuleSigs>, Arc<CheckedModule>),
}

/// [`CheckingMemos`] of a module whose summary was just made.
pub fn checking_memos(db: &dyn Db, program: Program, file: SourceFile) -> CheckingMemos {
    CheckingMemos {
        _held: (
            item_index(db, file).clone(),
            module_scope(db, program, file).clone(),
            module_sigs(db, program, file).clone(),
            check_module(db, program, file).clone(),
        ),
    }
}

/// Drops what checking each module kept on the way to its summary (item
/// indexes, scopes, signatures, checked results): once every summary is
/// made, the merge reads only them, and the summaries share the checked
/// modules. (A query asked again after this is computed again: dropping
/// never changes an answer.)
pub fn forget_checking(db: &mut dyn Db) {
    evict_checking(db, 0);
}

/// Keeps the `keep` most recently used indexes, scopes and signatures (and
/// one of each, however few: an LRU capacity of 0 means "unbounded" to
/// salsa) and one checked result; drops the rest.
fn evict_checking(db: &mut dyn Db, keep: usize) {
    let n = keep.max(1);
    keep_item_indexes(db, n);
    keep_scopes(db, n);
    keep_sigs(db, n);
    keep_checked(db, 1);
    db.trigger_lru_eviction();
    keep_item_indexes(db, KEEP_ALL);
    keep_scopes(db, KEEP_ALL);
    keep_sigs(db, KEEP_ALL);
    keep_checked(db, KEEP_ALL);
}

/// Drops the modules' summaries, for a run that has merged them and will
/// not check again: the merged program shares what it needs of them.
pub fn forget_summaries(db: &mut dyn Db) {
    crate::summary::keep_summaries(db, 1);
    db.trigger_lru_eviction();
    crate::summary::keep_summaries(db, KEEP_ALL);
}
