//! Checking a program in parts (`claim_batch`): each part's modules parsed
//! and checked on the workers, and each part's syntax trees and checking
//! memos dropped before the next part's are made, so that a run never holds
//! every tree and every checked module at once.

use crate::db::CliDb;
use crate::options::BatchOptions;
use claim_diagnostics::Diagnostic;
use claim_sema::forget::CheckingMemos;
use claim_syntax::Parsed;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// Checks a program's modules in parts, each part's syntax trees dropped
/// once it is checked (nothing after the check reads them): the trees are
/// as large as the checked modules, and a run holds the two at once only
/// for a part. A run again re-parses only what changed, as before. Returns
/// the last part's trees, to be freed by the caller. Where the load
/// deferred parsing (`Loaded::uses`), a module found here to nest past the
/// limit is a load error (`E0012`), added to the load's.
/// `exiting`: nothing runs again (`RunState::exiting`), so what checking
/// kept is forgotten part by part too.
pub(crate) fn check_in_parts(
    db: &mut CliDb,
    l: &mut crate::project::Loaded,
    opts: &BatchOptions,
    exiting: bool,
) -> Vec<Arc<Parsed>> {
    let modules = l.program.modules(&*db);
    let files: Vec<claim_sema::SourceFile> = modules.values().copied().collect();
    if files.is_empty() {
        return Vec::new();
    }
    let part = files.len().div_ceil(16).max(32);
    // What other modules `use`: their signatures are read by the check of
    // every part that imports them. (Only for a run that drops as it goes:
    // a run again would parse every module to find out.)
    let imported: Vec<claim_sema::SourceFile> = match &l.uses {
        Some(uses) => {
            let named: std::collections::HashSet<&str> = uses.values().flatten().map(String::as_str).collect();
            // The standard library's own `use`s are not in the map: keep all of it.
            let kept = |m: &str| named.contains(m) || claim_sema::db::is_std_module(m);
            modules.iter().filter(|(m, _)| kept(m)).map(|(_, f)| *f).collect()
        }
        None if exiting => imported_modules(&*db, l.program),
        None => Vec::new(),
    };
    let too_deep: std::sync::Mutex<Vec<Diagnostic>> = Default::default();
    let deferred = l.uses.is_some();
    let limit = opts.limits.max_nesting;
    let parts: Vec<&[claim_sema::SourceFile]> = files.chunks(part).collect();
    let next: Vec<AtomicUsize> = parts.iter().map(|_| AtomicUsize::new(0)).collect();
    // Checks the modules of part `k` that this worker takes, freeing one of
    // `own` (trees this same worker made in the part before) and one of
    // `held` (what checking them kept, forgotten since) after each;
    // returns the numbers of the modules it checked, and leaves in `held`
    // what checking them kept, for the next part to free.
    let check = |db: &CliDb, k: usize, mut own: Vec<Arc<Parsed>>, held: &mut Vec<CheckingMemos>| -> Vec<usize> {
        let chunk = parts[k];
        let mut mine = Vec::new();
        let mut old = std::mem::take(held);
        loop {
            let i = next[k].fetch_add(1, Ordering::Relaxed);
            let Some(file) = chunk.get(i) else { break };
            if deferred {
                // What loading would have found had it parsed this module.
                let tree = &claim_sema::parse(db, *file).module;
                if let Some((depth, at)) = claim_syntax::nesting::deeper_than(tree, limit) {
                    let d = crate::project::too_deep(file.file_id(db), depth, at, limit);
                    too_deep.lock().map(|mut all| all.push(d)).unwrap_or_default();
                }
            }
            claim_sema::summary::module_summary(db, l.program, *file);
            // Its names too, read by the merge's program-wide checks: made
            // here, on the workers, not by the merge on one thread.
            claim_sema::names::module_names(db, l.program, *file);
            if exiting {
                held.push(claim_sema::forget::checking_memos(db, l.program, *file));
            }
            mine.push(i);
            drop(own.pop());
            drop(old.pop());
        }
        drop(own);
        drop(old);
        mine
    };
    let jobs = opts.jobs.clamp(1, part);
    // The trees of the part before, taken out of the database when it
    // forgot them, each for the worker that made it: freeing a tree is most
    // of what forgetting costs, and one freed by the thread that allocated
    // it is put back in that thread's heap at once, where one freed by
    // another thread (a cross-thread free) costs an atomic exchange per
    // block now and a collection later. So the workers live for the whole
    // check (threads started per part would each leave their heap behind),
    // and each frees its own trees, one after each module it checks.
    let mut own: Vec<Vec<Arc<Parsed>>> = vec![Vec::new(); jobs];
    let mut evicted = Vec::new();
    // This thread's `held` (see `check`).
    let mut held = Vec::new();
    std::thread::scope(|s| {
        let mut workers = Vec::new();
        for _ in 1..jobs {
            let (job_tx, job_rx) = mpsc::channel::<(CliDb, usize, Vec<Arc<Parsed>>)>();
            let (done_tx, done_rx) = mpsc::channel::<Vec<usize>>();
            let check = &check;
            let worker = move || {
                let mut held = Vec::new();
                while let Ok((db, k, trees)) = job_rx.recv() {
                    let mine = check(&db, k, trees, &mut held);
                    // The handle goes before the answer: forgetting
                    // between parts needs the database to itself.
                    drop(db);
                    if done_tx.send(mine).is_err() {
                        return;
                    }
                }
            };
            if std::thread::Builder::new().stack_size(crate::STACK_BYTES).spawn_scoped(s, worker).is_ok() {
                workers.push((job_tx, done_rx));
            }
        }
        for k in 0..parts.len() {
            for (w, (job_tx, _)) in workers.iter().enumerate() {
                // A worker gone is found below, when its answer is not.
                let _ = job_tx.send((db.clone(), k, std::mem::take(&mut own[w + 1])));
            }
            // Who checked (and so parsed) each module of the part: this
            // thread where no worker did.
            let mut by: Vec<usize> = vec![0; parts[k].len()];
            check(&*db, k, std::mem::take(&mut own[0]), &mut held);
            for (w, (_, done_rx)) in workers.iter().enumerate() {
                // A worker that panicked re-raises when the scope ends (the
                // run's handler reports it: exit 101); the check stops here.
                let Ok(mine) = done_rx.recv() else { panic!("a checking worker stopped") };
                for i in mine {
                    if let Some(b) = by.get_mut(i) {
                        *b = w + 1;
                    }
                }
            }
            // Trees not made yet are not kept (a deferred load made none).
            let rest = match l.uses {
                Some(_) => &[][..],
                None => files.get((k + 1) * part..).unwrap_or_default(),
            };
            let trees = claim_sema::forget::forget_syntax(db, rest, parts[k]);
            if exiting {
                claim_sema::forget::forget_checking_except(db, l.program, &imported);
            }
            if k + 1 == parts.len() {
                evicted = trees;
            } else {
                for (tree, w) in trees.into_iter().zip(by) {
                    own[w].push(tree);
                }
            }
        }
    });
    // In the order of the files, whichever worker found each.
    let mut too_deep = too_deep.into_inner().unwrap_or_default();
    too_deep.sort_by_key(|d| d.primary.as_ref().map(|l| l.loc));
    l.errors.extend(too_deep);
    evicted
}

/// The modules of a program that some module `use`s (read from the syntax
/// trees, which loading has just made).
fn imported_modules(db: &CliDb, program: claim_sema::Program) -> Vec<claim_sema::SourceFile> {
    let modules = program.modules(db);
    let mut names = std::collections::BTreeSet::new();
    for file in modules.values() {
        names.extend(claim_sema::parse(db, *file).module.uses().map(|u| u.dotted()));
    }
    names.iter().filter_map(|n| modules.get(n).copied()).collect()
}
