//! Computing salsa queries on several threads. Each thread works on its
//! own handle of the same database (a clone shares the storage), taking
//! the next item from a shared counter; what they compute is memoized, so
//! the sequential pass that follows (and decides every order the output
//! depends on) finds it done. Nothing here changes what a run prints.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `f` on every item on `jobs` threads (this one included), for
/// its effect on the database's memos. With one job, on this thread: a
/// caller may drop what the memos were computed from once they are.
pub fn warm<D, T, F>(db: &D, items: &[T], jobs: usize, f: F)
where
    D: Clone + Send,
    T: Sync,
    F: Fn(&D, &T) + Sync,
{
    let jobs = jobs.min(items.len());
    if jobs <= 1 {
        items.iter().for_each(|item| f(db, item));
        return;
    }
    // Many small items (facts) are taken in runs of neighbours, which
    // are mostly of one module and share what they read; few large ones
    // (modules) one at a time, so that the threads finish together.
    let run = (items.len() / (jobs * 32)).clamp(1, 16);
    let next = AtomicUsize::new(0);
    let work = |db: D| loop {
        let start = next.fetch_add(run, Ordering::Relaxed);
        let Some(chunk) = items.get(start..(start + run).min(items.len())) else { break };
        if chunk.is_empty() {
            break;
        }
        chunk.iter().for_each(|item| f(&db, item));
    };
    std::thread::scope(|s| {
        for _ in 1..jobs {
            let db = db.clone();
            spawn(s, || work(db));
        }
        work(db.clone());
    });
}

/// Starts a scoped worker with the stack the main thread has
/// (`STACK_BYTES`): parsing, checking and evaluating recurse as deep as the
/// input nests, and a worker with the default 2 MiB overflowed (and
/// aborted the run) on a project of several deeply nested files. A worker
/// that cannot be started is left out: the calling thread works too, so
/// the work is still done.
pub fn spawn<'scope, F>(s: &'scope std::thread::Scope<'scope, '_>, f: F)
where
    F: FnOnce() + Send + 'scope,
{
    let _ = std::thread::Builder::new().stack_size(crate::STACK_BYTES).spawn_scoped(s, f);
}
