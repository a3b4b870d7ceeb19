//! Checking a program in parts (`claim_batch`): each part's modules parsed
//! and checked on the workers, and each part's syntax trees and checking
//! memos dropped before the next part's are made, so that a run never holds
//! every tree and every checked module at once.

use crate::batch::BatchOptions;
use crate::db::CliDb;

/// Checks a program's modules in parts, each part's syntax trees dropped
/// once it is checked (nothing after the check reads them): the trees are
/// as large as the checked modules, and a run holds the two at once only
/// for a part. A run again re-parses only what changed, as before. Returns
/// the last part's trees, to be freed by the caller; `None` where the load
/// deferred parsing (`Loaded::scanned`) and a module's parse does not
/// agree with its scanned `use`s or nests past the limit: the program was
/// guessed wrong, and must be loaded again.
pub(crate) fn check_in_parts(
    db: &mut CliDb,
    l: &crate::project::Loaded,
    opts: &BatchOptions,
) -> Option<Vec<std::sync::Arc<claim_syntax::Parsed>>> {
    let modules = l.program.modules(&*db);
    let files: Vec<claim_sema::SourceFile> = modules.values().copied().collect();
    let part = files.len().div_ceil(16).max(32);
    // What other modules `use`: their signatures are read by the check of
    // every part that imports them. (Only for a run that drops as it goes:
    // a run again would parse every module to find out.)
    let imported: Vec<claim_sema::SourceFile> = match &l.scanned {
        Some(scanned) => {
            let named: std::collections::HashSet<&str> = scanned.values().flatten().map(String::as_str).collect();
            // The standard library's own `use`s are not scanned: keep all of it.
            let kept = |m: &str| named.contains(m) || claim_sema::db::is_std_module(m);
            modules.iter().filter(|(m, _)| kept(m)).map(|(_, f)| *f).collect()
        }
        None if opts.exit_after => imported_modules(&*db, l.program),
        None => Vec::new(),
    };
    let guessed_wrong = std::sync::atomic::AtomicBool::new(false);
    let limit = opts.limits.max_nesting;
    // The trees of the part before, taken out of the database when it
    // forgot them: the workers free one after each module they check,
    // which keeps freeing (most of what forgetting costs) off the one
    // thread that holds the database between parts.
    let mut evicted: Vec<std::sync::Arc<claim_syntax::Parsed>> = Vec::new();
    for (i, chunk) in files.chunks(part).enumerate() {
        let to_free = std::sync::Mutex::new(std::mem::take(&mut evicted));
        crate::par::warm(&*db, chunk, opts.jobs, |db, file| {
            if let Some(uses) = l.scanned.as_ref().and_then(|s| s.get(file)) {
                // What loading would have found had it parsed this module.
                let tree = &claim_sema::parse(db, *file).module;
                if !claim_syntax::uses::scan_agrees(uses, tree)
                    || claim_syntax::depth::deeper_than(tree, limit).is_some()
                {
                    guessed_wrong.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            claim_sema::summary::module_summary(db, l.program, *file);
            drop(to_free.lock().ok().and_then(|mut trees| trees.pop()));
        });
        drop(to_free);
        if guessed_wrong.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        // Trees not made yet are not kept (a deferred load made none).
        let rest = match l.scanned {
            Some(_) => &[][..],
            None => files.get((i + 1) * part..).unwrap_or_default(),
        };
        evicted = claim_sema::db::forget_syntax(db, rest, chunk);
        if opts.exit_after {
            claim_sema::db::forget_checking_except(db, l.program, &imported);
        }
    }
    Some(evicted)
}

/// The modules of a program that some module `use`s (read from the syntax
/// trees, which loading has just made).
fn imported_modules(db: &CliDb, program: claim_sema::Program) -> Vec<claim_sema::SourceFile> {
    let modules = program.modules(db);
    let mut names = std::collections::BTreeSet::new();
    for file in modules.values() {
        for item in &claim_sema::parse(db, *file).module.items {
            if let claim_syntax::ast::ItemKind::Use(u) = &item.kind {
                names.insert(u.dotted());
            }
        }
    }
    names.iter().filter_map(|n| modules.get(n).copied()).collect()
}
