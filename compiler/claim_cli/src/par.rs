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
    map_with(db, items, jobs, f);
}

/// `f` of every item, on `jobs` threads (this one included), in the
/// items' order.
pub fn map<T, R, F>(items: &[T], jobs: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    map_with(&(), items, jobs, |_, item| f(item))
}

/// [`map`] with a database: each thread works on its own handle of it, and
/// takes runs of neighbouring items, as [`warm`] does.
pub fn map_with<D, T, R, F>(db: &D, items: &[T], jobs: usize, f: F) -> Vec<R>
where
    D: Clone + Send,
    T: Sync,
    R: Send,
    F: Fn(&D, &T) -> R + Sync,
{
    let jobs = jobs.min(items.len());
    if jobs <= 1 {
        return items.iter().map(|item| f(db, item)).collect();
    }
    // Many small items (facts) are taken in runs of neighbours, which
    // are mostly of one module and share what they read; few large ones
    // (modules) one at a time, so that the threads finish together.
    let run = (items.len() / (jobs * 32)).clamp(1, 16);
    let next = AtomicUsize::new(0);
    let work = |db: D| {
        let mut done = Vec::new();
        loop {
            let start = next.fetch_add(run, Ordering::Relaxed);
            let Some(chunk) = items.get(start..(start + run).min(items.len())) else { break };
            if chunk.is_empty() {
                break;
            }
            done.extend(chunk.iter().enumerate().map(|(k, item)| (start + k, f(&db, item))));
        }
        done
    };
    let mut all: Vec<(usize, R)> = std::thread::scope(|s| {
        let others: Vec<_> = (1..jobs)
            .filter_map(|_| {
                let db = db.clone();
                std::thread::Builder::new().stack_size(crate::STACK_BYTES).spawn_scoped(s, || work(db)).ok()
            })
            .collect();
        let mut all = work(db.clone());
        for h in others {
            // A worker that panicked re-raises here: the run's panic
            // handler reports it (exit 101), never a partial list.
            match h.join() {
                Ok(done) => all.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
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

#[cfg(test)]
mod tests {
    #[test]
    fn map_keeps_the_items_order_on_any_number_of_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let want: Vec<u64> = items.iter().map(|x| x * x).collect();
        for jobs in [0, 1, 2, 3, 8] {
            assert_eq!(super::map(&items, jobs, |x| x * x), want, "{jobs} jobs");
        }
        assert!(super::map(&[] as &[u64], 2, |x| *x).is_empty());
    }
}
