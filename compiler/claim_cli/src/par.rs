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
    let next = AtomicUsize::new(0);
    let work = |db: D| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(item) = items.get(i) else { break };
        f(&db, item);
    };
    std::thread::scope(|s| {
        for _ in 1..jobs {
            let db = db.clone();
            s.spawn(|| work(db));
        }
        work(db.clone());
    });
}
